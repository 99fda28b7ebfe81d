use bimaru_sat::format::ist;
use bimaru_sat::placement::Placements;
use bimaru_sat::{SolveOptions, solve};
use std::time::Instant;
fn main() {
    let files: Vec<_> = std::env::args().skip(1).collect();
    let mut times = vec![];
    for f in &files {
        let p = ist::parse(&std::fs::read_to_string(f).unwrap()).unwrap();
        let mut pl = Placements::new(&p);
        let before = pl.len();
        let k = bimaru_sat::deduce::deduce(&p, &mut pl).unwrap();
        let n = 200;
        let t = Instant::now();
        let mut r = None;
        for _ in 0..n {
            r = Some(solve(&p, &SolveOptions::unique()).unwrap());
        }
        let us = t.elapsed().as_secs_f64() * 1e6 / n as f64;
        times.push(us);
        let r = r.unwrap();
        println!(
            "{:40} {:7.1} us enc {:6.1} solve {:6.1} decided {:3} placements {}->{} vars {} clauses {}",
            f.rsplit('/').next().unwrap(),
            us,
            r.stats.encode_time.as_secs_f64() * 1e6,
            r.stats.solve_time.as_secs_f64() * 1e6,
            k.decided(),
            before,
            pl.len(),
            r.stats.variables,
            r.stats.constraints
        );
    }
    times.sort_by(|a, b| a.partial_cmp(b).unwrap());
    println!("median {:.1} us", times[times.len() / 2]);
}
