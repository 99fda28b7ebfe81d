use bimaru_sat::format::json;
use bimaru_sat::placement::Placements;
use bimaru_sat::reason::deduce::{deduce_with, Effort};
use std::time::Instant;
fn main() {
    for f in std::env::args().skip(1) {
        let text = std::fs::read_to_string(&f).unwrap();
        let b = json::parse_with_solution(&text).unwrap();
        let p = b.puzzle;
        for effort in [Effort::Rules, Effort::Probing] {
            let mut pl = Placements::new(&p);
            let before = pl.len();
            let t = Instant::now();
            let k = deduce_with(&p, &mut pl, effort).unwrap();
            println!("{f} {:?}: {} of {} cells decided, placements {} -> {}, {:.2} ms", effort, k.decided(), k.cells.len(), before, pl.len(), t.elapsed().as_secs_f64()*1e3);
        }
    }
}
