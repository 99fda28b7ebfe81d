//! Encodings benchmark (issue 4, item 6): solve and prove unique an IST 10x10 with every model x
//! cardinality pair in-process, and write its DIMACS. Reads the official IST instance from the
//! shared corpus beside the repository (`../shared/corpus/ist-bimaru/public/instance01.txt`;
//! `BIMARU_SHARED` names another shared folder, `BIMARU_BENCH_PUZZLE` another puzzle file).
//!
//! `cargo bench --bench encodings`

use bimaru_sat::encode::sat::card::CardKind;
use bimaru_sat::encode::sat::dimacs::Formula;
use bimaru_sat::encode::sat::model::Model;
use bimaru_sat::format::ist;
use bimaru_sat::{Outcome, SolveOptions, solve};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::PathBuf;
use strum::VariantArray;

fn puzzle() -> bimaru_sat::Puzzle {
    let shared = std::env::var_os("BIMARU_SHARED").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared"),
        PathBuf::from,
    );
    let path = std::env::var_os("BIMARU_BENCH_PUZZLE").map_or_else(
        || shared.join("corpus/ist-bimaru/public/instance01.txt"),
        PathBuf::from,
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    ist::parse(&text).expect("a valid IST instance")
}

fn bench(c: &mut Criterion) {
    let puzzle = puzzle();
    let mut group = c.benchmark_group("solve_unique_10x10");
    for &model in Model::VARIANTS {
        for &card in CardKind::VARIANTS {
            let options = SolveOptions {
                model,
                card,
                ..SolveOptions::unique()
            };
            group.bench_function(format!("{model}/{card}"), |b| {
                b.iter(|| {
                    let report = solve(black_box(&puzzle), &options).expect("solves");
                    assert!(matches!(report.outcome, Outcome::Unique(_)));
                    report
                })
            });
        }
    }
    group.finish();
    let mut group = c.benchmark_group("dimacs_10x10");
    for &model in Model::VARIANTS {
        group.bench_function(format!("{model}/seq"), |b| {
            b.iter(|| {
                let formula = Formula::build(black_box(&puzzle), model, CardKind::Seq);
                formula.write(&puzzle)
            })
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(30)
        .warm_up_time(std::time::Duration::from_millis(500))
        .measurement_time(std::time::Duration::from_secs(2));
    targets = bench
}
criterion_main!(benches);
