use bimaru_sat::format::json;
use bimaru_sat::placement::Placements;
use bimaru_sat::reason::deduce::{Propagation, Rules};
use bimaru_sat::{solve, Pos, SolveOptions};
use std::time::Instant;

fn scc(n: usize, adj: &[Vec<usize>]) -> Vec<usize> {
    // iterative Tarjan
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0; n];
    let mut on = vec![false; n];
    let mut comp = vec![usize::MAX; n];
    let mut stack = Vec::new();
    let mut next = 0;
    let mut ncomp = 0;
    for s in 0..n {
        if index[s] != usize::MAX { continue; }
        let mut call: Vec<(usize, usize)> = vec![(s, 0)];
        index[s] = next; low[s] = next; next += 1; stack.push(s); on[s] = true;
        while let Some(&mut (v, ref mut i)) = call.last_mut() {
            if *i < adj[v].len() {
                let w = adj[v][*i];
                *i += 1;
                if index[w] == usize::MAX {
                    index[w] = next; low[w] = next; next += 1; stack.push(w); on[w] = true;
                    call.push((w, 0));
                } else if on[w] {
                    low[v] = low[v].min(index[w]);
                }
            } else {
                call.pop();
                if let Some(&(u, _)) = call.last() { low[u] = low[u].min(low[v]); }
                if low[v] == index[v] {
                    loop { let w = stack.pop().unwrap(); on[w] = false; comp[w] = ncomp; if w == v { break; } }
                    ncomp += 1;
                }
            }
        }
    }
    comp
}

fn main() {
    for f in std::env::args().skip(1) {
        let text = std::fs::read_to_string(&f).unwrap();
        let b = json::parse_with_solution(&text).unwrap();
        let p = b.puzzle;
        let s = solve(&p, &SolveOptions::default()).unwrap().outcome.grid().unwrap().clone();
        let t = Instant::now();
        let pl = Placements::new(&p);
        let mut e = Propagation::new(&p, &pl, Rules::Full);
        e.start(&p).unwrap();
        let shape = p.shape();
        let open = |e: &Propagation| shape.positions().filter(|&q| e.cell(q).is_none()).count();
        let first = open(&e);
        let mut rounds = 0;
        loop {
            rounds += 1;
            let (rows, cols) = (shape.rows, shape.cols);
            let free = rows + cols;
            let n = free + 1;
            let mut adj = vec![Vec::new(); n];
            for r in 0..rows { if p.row_counts()[r].is_none() { adj[r].push(free); adj[free].push(r); } }
            for c in 0..cols { if p.col_counts()[c].is_none() { adj[rows + c].push(free); adj[free].push(rows + c); } }
            let cells: Vec<Pos> = shape.positions().filter(|&q| e.cell(q).is_none()).collect();
            for &q in &cells {
                if s.is_ship(q) { adj[q.row].push(rows + q.col); } else { adj[rows + q.col].push(q.row); }
            }
            let comp = scc(n, &adj);
            let rigid: Vec<Pos> = cells.iter().copied().filter(|q| comp[q.row] != comp[rows + q.col]).collect();
            if rigid.is_empty() { break; }
            for q in rigid { e.assume(q, s.is_ship(q)).unwrap(); }
        }
        if std::env::var("SHOW").is_ok() {
            for r in 0..shape.rows {
                let line: String = (0..shape.cols).map(|c| { let q = Pos::new(r, c); match (e.cell(q), s.is_ship(q), p.clue(q).is_some()) { (_, _, true) => if s.is_ship(q) {'X'} else {'o'}, (Some(true), _, _) => '#', (Some(false), _, _) => ' ', (None, true, _) => 's', (None, false, _) => '.' } }).collect();
                println!("{line}|{:?}", p.row_counts()[r]);
            }
        }
        println!("{f}: open after deduce {first}, after rigidity+deduce {} ({} rounds, {:.2} ms)", open(&e), rounds, t.elapsed().as_secs_f64() * 1e3);
    }
}
#[allow(dead_code)]
fn show() {}
