//! The SAT solvers side by side on the hard sets: every solver this build links
//! (`SolverKind::LINKED`: varisat, and CaDiCaL with `--features cadical`) solves, through the
//! library with the default options, each puzzle of `puzzles/generated/30x30` and
//! `puzzles/generated/50x50` with a uniqueness proof (`--unique`; the 50x50 set also without
//! pre-solving, which otherwise decides it without a solver), and each MiniZinc solbat file of
//! `../shared/corpus/minizinc-solbat` to its first solution (when the corpus is present).
//!
//! One benchmark per set, solver and puzzle: `<set>/<solver>/<puzzle>`, so
//! `cargo bench --features cadical --bench solvers -- 30x30/cadical` runs one solver on one set.
//! `docs/benchmarks.md` ("SAT solvers") gives the commands and the figures.

mod common;

use bimaru_sat::format::Format;
use bimaru_sat::solver::SolverKind;
use bimaru_sat::{Goal, SolveOptions, solve};
use common::puzzles;
use criterion::{BenchmarkId, Criterion, SamplingMode, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

fn solvers(c: &mut Criterion) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let generated = root.join("puzzles/generated");
    let thirty = puzzles(&generated.join("30x30"), ".json", Format::Json);
    let fifty = puzzles(&generated.join("50x50"), ".json", Format::Json);
    let solbat = puzzles(
        &root.join("../shared/corpus/minizinc-solbat"),
        ".dzn",
        Format::Dzn,
    );
    // (set, puzzles, solutions asked for, pre-solving). Pre-solving decides every cell of the
    // propagation-minimal 50x50 set, so that set runs once more without it, to reach a solver.
    let sets = [
        ("30x30 --unique", &thirty, Goal::Unique, true),
        ("50x50 --unique", &fifty, Goal::Unique, true),
        ("50x50 --unique --no-presolve", &fifty, Goal::Unique, false),
        ("solbat first", &solbat, Goal::First, true),
    ];
    for (set, puzzles, goal, presolve) in sets {
        let mut group = c.benchmark_group(set);
        // Each run takes from milliseconds to seconds: ten single runs per puzzle.
        group.sampling_mode(SamplingMode::Flat);
        group.sample_size(10);
        group.warm_up_time(Duration::from_millis(100));
        group.measurement_time(Duration::from_secs(1));
        for &solver in SolverKind::LINKED {
            let options = SolveOptions {
                solver,
                goal,
                presolve,
                ..SolveOptions::default()
            };
            for (name, puzzle) in puzzles {
                group.bench_with_input(
                    BenchmarkId::new(<&str>::from(solver), name),
                    puzzle,
                    |b, p| b.iter(|| black_box(solve(p, &options).expect("solves"))),
                );
            }
        }
        group.finish();
    }
}

criterion_group!(benches, solvers);
criterion_main!(benches);
