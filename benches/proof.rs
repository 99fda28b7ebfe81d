//! What a certificate costs: each puzzle of `puzzles/generated/30x30` solved with a uniqueness
//! proof (`--unique`: the library's `solve` with `SolveOptions::unique()`), and solved the same
//! way then certified (`--unique --proof`: `proof::certify` with the default `ProofOptions`,
//! the whole cell/totalizer encoding with the solution blocked, refuted by varisat writing text
//! DRAT). Files are not written; the CLI adds about 3 MB of output per puzzle.
//!
//! One benchmark per mode and puzzle: `proof/unique/<puzzle>` and
//! `proof/unique+proof/<puzzle>`. `docs/benchmarks.md` ("Proofs") gives the command and the
//! median ratio.

mod common;

use bimaru_sat::format::Format;
use bimaru_sat::usecase::proof::{ProofOptions, certify};
use bimaru_sat::{Outcome, Puzzle, SolveOptions, solve};
use common::puzzles;
use criterion::{BenchmarkId, Criterion, SamplingMode, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

fn thirty() -> Vec<(String, Puzzle)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/generated/30x30");
    puzzles(&dir, ".json", Format::Json)
}

fn unique(puzzle: &Puzzle) -> Outcome {
    solve(puzzle, &SolveOptions::unique())
        .expect("solves")
        .outcome
}

fn proofs(c: &mut Criterion) {
    let mut group = c.benchmark_group("proof");
    group
        .sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    for (name, puzzle) in thirty() {
        group.bench_with_input(BenchmarkId::new("unique", &name), &puzzle, |b, p| {
            b.iter(|| black_box(unique(p)))
        });
        group.bench_with_input(BenchmarkId::new("unique+proof", &name), &puzzle, |b, p| {
            b.iter(|| {
                let outcome = unique(p);
                let Outcome::Unique(grid) = outcome else {
                    panic!("the 30x30 set is unique")
                };
                black_box(certify(p, &[grid], &ProofOptions::default()).expect("certified"))
            })
        });
    }
    group.finish();
}

criterion_group!(benches, proofs);
criterion_main!(benches);
