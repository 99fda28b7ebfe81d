//! Solve-and-prove-unique time per puzzle, in process, over the IST example in `puzzles/` and
//! the 25 official IST instances (when `../shared/corpus` is present).

use bimaru_sat::format::ist;
use bimaru_sat::{Outcome, Puzzle, SolveOptions, solve};
use criterion::{Criterion, criterion_group, criterion_main};
use std::path::Path;

fn ist_instances() -> Vec<(String, Puzzle)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join("puzzles/ist-example.txt")];
    for dir in ["public", "mooshak-private"] {
        let dir = root.join("../shared/corpus/ist-bimaru").join(dir);
        if let Ok(entries) = std::fs::read_dir(&dir) {
            let mut v: Vec<_> = entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == "txt"))
                .collect();
            v.sort();
            files.extend(v);
        }
    }
    files
        .into_iter()
        .map(|f| {
            let text = std::fs::read_to_string(&f).expect("read instance");
            let name = f.file_stem().unwrap().to_string_lossy().into_owned();
            (name, ist::parse(&text).expect("valid instance"))
        })
        .collect()
}

fn solve_unique(c: &mut Criterion) {
    let puzzles = ist_instances();
    let options = SolveOptions::unique();
    let mut group = c.benchmark_group("ist_solve_unique");
    for (name, puzzle) in &puzzles {
        group.bench_function(name.as_str(), |b| {
            b.iter(|| {
                let report = solve(puzzle, &options).expect("solver works");
                assert!(matches!(report.outcome, Outcome::Unique(_)));
            })
        });
    }
    group.finish();
    c.bench_function("ist_all_25_solve_unique", |b| {
        b.iter(|| {
            for (_, puzzle) in &puzzles {
                solve(puzzle, &options).expect("solver works");
            }
        })
    });
}

criterion_group!(benches, solve_unique);
criterion_main!(benches);
