use bimaru_sat::generate::*;
use std::time::Instant;
fn main() {
    let n: usize = std::env::args().nth(1).unwrap().parse().unwrap();
    let size = Size { rows: n, cols: n };
    let mut opts = GenerateOptions::new(size);
    if std::env::args().nth(2).is_some() {
        opts.reduce = if std::env::args().nth(2).unwrap() == "p" {
            Reduce::Propagation
        } else {
            Reduce::LookAhead
        };
    }
    for seed in 0..3 {
        let mut rng = rng_for(seed, 0);
        let t0 = Instant::now();
        let g = generate(&opts, &mut rng).unwrap();
        eprintln!(
            "n {n} seed {seed}: {:?} clues {} grade {:?}",
            t0.elapsed(),
            g.puzzle.clue_count(),
            bimaru_sat::grade::deduction_depth(&g.puzzle).grade
        );
    }
}
