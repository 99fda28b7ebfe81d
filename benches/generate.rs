//! Generator benchmarks: the default (`--reduce deduction`) at 10x10, 30x30, 50x50 and
//! 100x100, a unique minimal 10x10, 15x15, 20x20 and 30x30 with their scaled fleets (a new seed
//! each iteration, so the figures are over many puzzles), and solving with a uniqueness proof
//! each 50x50 puzzle in `puzzles/generated/50x50`.

use bimaru_sat::format::json;
use bimaru_sat::usecase::generate::{GenerateOptions, Reduce, Size, generate, rng_for};
use bimaru_sat::{SolveOptions, solve};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

fn generate_10x10(c: &mut Criterion) {
    for (reduce, name) in [
        (Reduce::Unique, "generate/10x10 unique minimal"),
        (Reduce::Deduction, "generate/10x10 default"),
    ] {
        let options = GenerateOptions {
            reduce,
            ..GenerateOptions::new(Size { rows: 10, cols: 10 })
        };
        let mut seed = 0u64;
        c.bench_function(name, |b| {
            b.iter(|| {
                seed += 1;
                black_box(generate(&options, &mut rng_for(seed, 0)).expect("generates"))
            })
        });
    }
}

fn generate_large(c: &mut Criterion) {
    let mut group = c.benchmark_group("generate");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(20));
    for (n, reduce, budget, name) in [
        (15, Reduce::Unique, None, "15x15 unique minimal"),
        (20, Reduce::Unique, None, "20x20 unique minimal"),
        (
            30,
            Reduce::Unique,
            Some(2_000),
            "30x30 unique, 2000 conflicts a check",
        ),
        (30, Reduce::Propagation, None, "30x30 propagation minimal"),
        (30, Reduce::Deduction, None, "30x30 default"),
        (50, Reduce::Deduction, None, "50x50 default"),
        (100, Reduce::Deduction, None, "100x100 default"),
    ] {
        let mut options = GenerateOptions::new(Size { rows: n, cols: n });
        options.reduce = reduce;
        options.budget.conflicts = budget;
        let mut seed = 0u64;
        group.bench_function(name, |b| {
            b.iter(|| {
                seed += 1;
                black_box(generate(&options, &mut rng_for(seed, 0)).expect("generates"))
            })
        });
    }
    group.finish();
}

fn solve_50x50_set(c: &mut Criterion) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/generated/50x50");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("skipping: {} is missing", dir.display());
        return;
    };
    let mut files: Vec<_> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    let mut group = c.benchmark_group("solve --unique");
    group.sample_size(10);
    for file in files {
        let text = std::fs::read_to_string(&file).expect("readable puzzle");
        let puzzle = json::parse(&text, &bimaru_sat::Limits::default()).expect("valid puzzle");
        let name = format!(
            "50x50/{}",
            file.file_name()
                .map(|n| n.to_string_lossy())
                .unwrap_or_default()
        );
        group.bench_function(name, |b| {
            b.iter(|| black_box(solve(&puzzle, &SolveOptions::unique()).expect("solves")))
        });
    }
    group.finish();
}

criterion_group!(benches, generate_10x10, generate_large, solve_50x50_set);
criterion_main!(benches);
