use bimaru_sat::format::json;
use bimaru_sat::placement::Placements;
use bimaru_sat::reason::deduce::{Propagation, Rules, Status};
use bimaru_sat::{Pos, Puzzle};
use std::time::Instant;

struct Ctx<'a> { pl: &'a Placements, p: &'a Puzzle, nodes: u64, sols: Vec<Vec<bool>>, limit: usize }

fn search(e: &mut Propagation, cx: &mut Ctx) {
    cx.nodes += 1;
    if cx.sols.len() >= cx.limit { return; }
    let shape = cx.p.shape();
    // branch: a ship cell with >=2 open candidates and none chosen, fewest candidates first
    let mut best: Option<(usize, Pos)> = None;
    let mut unknown: Option<Pos> = None;
    for pos in shape.positions() {
        match e.cell(pos) {
            Some(true) => {
                let cands = cx.pl.covering(pos);
                if cands.iter().any(|&q| e.status(q) == Status::Chosen) { continue; }
                let n = cands.iter().filter(|&&q| e.status(q) == Status::Open).count();
                if n >= 2 && best.is_none_or(|(m, _)| n < m) { best = Some((n, pos)); }
            }
            None => { if unknown.is_none() { unknown = Some(pos); } }
            _ => {}
        }
    }
    if let Some((_, pos)) = best {
        let cands: Vec<usize> = cx.pl.covering(pos).iter().copied().filter(|&q| e.status(q) == Status::Open).collect();
        for q in cands {
            let m = e.mark();
            if e.choose_placement(q).is_ok() { search(e, cx); }
            e.undo(m);
            if cx.sols.len() >= cx.limit { return; }
        }
        return;
    }
    if let Some(pos) = unknown {
        for v in [true, false] {
            let m = e.mark();
            if e.assume(pos, v).is_ok() { search(e, cx); }
            e.undo(m);
            if cx.sols.len() >= cx.limit { return; }
        }
        return;
    }
    cx.sols.push(shape.positions().map(|q| e.cell(q) == Some(true)).collect());
}

fn main() {
    for f in std::env::args().skip(1) {
        let text = std::fs::read_to_string(&f).unwrap();
        let b = json::parse_with_solution(&text).unwrap();
        let p = b.puzzle;
        let t = Instant::now();
        let bare = p.without_clues();
        let pl = Placements::new(&bare);
        let mut e = Propagation::new(&bare, &pl, Rules::Full);
        e.start(&bare).unwrap();
        for (pos, c) in p.clues() { e.assume_clue(pos, c).unwrap(); }
        let mut cx = Ctx { pl: &pl, p: &p, nodes: 0, sols: Vec::new(), limit: 2 };
        search(&mut e, &mut cx);
        println!("{f}: {} solutions, {} nodes, {:.1} ms", cx.sols.len(), cx.nodes, t.elapsed().as_secs_f64() * 1e3);
    }
}
