//! The default generator (`--reduce deduction`): every puzzle is unique, proved by paths other
//! than the generator's own (the public solver, and CaDiCaL on the exported `--exclude-solution`
//! formula), and minimal for deduction, checked clue by clue: with all its clues the rules
//! decide every cell, and without any one of them they leave a cell open.

use crate::common::run;
use bimaru_sat::format::json;
use bimaru_sat::model::deadline::Budget;
use bimaru_sat::model::placement::Placements;
use bimaru_sat::reason::deduce::{Effort, deduce};
use bimaru_sat::usecase::generate::{GenerateOptions, Reduce, Size, generate, rng_for};
use bimaru_sat::{Grid, Outcome, Puzzle, SolveOptions, solve};
use proptest::prelude::*;
use std::process::Command;

/// Whether pre-solving (the rules to a fixpoint, from a fresh placement list built with the
/// clues: not the generator's incremental path) decides every cell of `puzzle`.
fn rules_decide(puzzle: &Puzzle) -> bool {
    let mut placements = Placements::new(puzzle);
    deduce(puzzle, &mut placements, Effort::Rules, &Budget::default())
        .expect("no budget to run out")
        .is_ok_and(|k| k.is_complete())
}

/// `solution` is the only solution of `puzzle` (the public SAT path), the rules decide every
/// cell, and dropping any clue leaves a cell they cannot decide.
fn assert_unique_and_deduction_minimal(puzzle: &Puzzle, solution: &Grid, what: &str) {
    match solve(puzzle, &SolveOptions::unique()).unwrap().outcome {
        Outcome::Unique(grid) => assert_eq!(&grid, solution, "{what}: wrong solution"),
        other => panic!("{what}: not unique: {other:?}"),
    }
    assert!(rules_decide(puzzle), "{what}: the rules leave a cell open");
    for (pos, _) in puzzle.clues() {
        let mut fewer = puzzle.clone();
        fewer.remove_clue(pos);
        assert!(
            !rules_decide(&fewer),
            "{what}: the clue at {pos} is not needed by the rules"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    #[test]
    fn default_puzzles_are_unique_and_every_clue_is_needed_by_the_rules(
        rows in 3usize..=12,
        cols in 3usize..=12,
        seed in any::<u64>(),
    ) {
        let options = GenerateOptions::new(Size { rows, cols });
        prop_assert_eq!(options.reduce, Reduce::Deduction);
        let g = generate(&options, &mut rng_for(seed, 0)).unwrap();
        prop_assert!(g.undecided.is_empty());
        assert_unique_and_deduction_minimal(&g.puzzle, &g.solution, &format!("{rows}x{cols} seed {seed}"));
        let again = generate(&options, &mut rng_for(seed, 0)).unwrap();
        prop_assert_eq!(again, g, "the same seed gives the same puzzle");
    }
}

/// Sample seeds at 10x10, 30x30 and 50x50 through the command line: CaDiCaL answers UNSAT on
/// the formula the solver exports with the found grid excluded, and the rules need every clue.
#[test]
#[cfg_attr(debug_assertions, ignore = "release only: cargo test --release")]
fn cadical_proves_default_puzzles_unique_and_every_clue_is_needed() {
    let Some(cadical) = crate::dimacs::solver("cadical") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    for (size, seeds) in [
        ("10x10", &["1", "2", "3"][..]),
        ("30x30", &["1", "2"][..]),
        ("50x50", &["1"][..]),
    ] {
        for seed in seeds {
            let what = format!("{size} seed {seed}");
            let made = run(&["generate", "--size", size, "--seed", seed], b"");
            assert!(made.status.success(), "{what}");
            let path = dir.path().join("puzzle.json");
            std::fs::write(&path, &made.stdout).unwrap();
            let board = json::parse_with_solution(
                &String::from_utf8_lossy(&made.stdout),
                &bimaru_sat::Limits::default(),
            )
            .unwrap();
            let solution = board.embedded.expect("generate writes the solution");
            assert_unique_and_deduction_minimal(&board.puzzle, &solution, &what);
            let cnf = dir.path().join("q.cnf");
            let grid = dir.path().join("grid.json");
            let p = |p: &std::path::Path| p.to_str().unwrap().to_string();
            let emitted = run(
                &[
                    &p(&path),
                    &p(&grid),
                    "--emit-dimacs",
                    &p(&cnf),
                    "--exclude-solution",
                ],
                b"",
            );
            assert!(
                emitted.status.success(),
                "{what}: {}",
                String::from_utf8_lossy(&emitted.stderr)
            );
            let answer = Command::new(&cadical).arg("-q").arg(&cnf).output().unwrap();
            assert_eq!(
                answer.status.code(),
                Some(20),
                "{what}: CaDiCaL finds another grid"
            );
        }
    }
}

/// `--time-limit`: `--reduce unique` stops with a unique puzzle and counts the clues not yet
/// proven needed (standard error and the JSON field `unproven`); the default reduction, which
/// must print the same whatever the speed, gives up with exit 4 and prints nothing.
#[test]
#[cfg_attr(debug_assertions, ignore = "release only: cargo test --release")]
fn a_time_limit_stops_unique_with_a_unique_puzzle_and_the_default_with_exit_4() {
    let args = [
        "generate",
        "--size",
        "30x30",
        "--seed",
        "3",
        "--reduce",
        "unique",
        "--time-limit",
        "0.5",
    ];
    let o = run(&args, b"");
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("not yet proven needed"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    let text = String::from_utf8_lossy(&o.stdout);
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    let unproven = value["unproven"].as_u64().expect("the unproven field");
    assert!(unproven > 0);
    let board = json::parse_with_solution(&text, &bimaru_sat::Limits::default()).unwrap();
    assert!(unproven as usize <= board.puzzle.clues().count());
    let solution = board.embedded.expect("generate writes the solution");
    let options = SolveOptions {
        model: bimaru_sat::encode::sat::model::Model::Placement,
        card: bimaru_sat::encode::sat::card::CardKind::Totalizer,
        ..SolveOptions::unique()
    };
    match solve(&board.puzzle, &options).unwrap().outcome {
        Outcome::Unique(grid) => assert_eq!(grid, solution),
        other => panic!("not unique: {other:?}"),
    }
    let o = run(
        &["generate", "--size", "100x100", "--time-limit", "0.2"],
        b"",
    );
    assert_eq!(o.status.code(), Some(4));
    assert!(o.stdout.is_empty());
}

/// `--grade` steers the clue set towards the grade (easy, medium and hard by construction on
/// the grade's own deduction), and every puzzle is unique with the grade asked for.
#[test]
fn steered_grades_come_out_at_the_grade_asked_for() {
    use bimaru_sat::usecase::generate::generate_graded;
    use bimaru_sat::usecase::grade::{Grade, deduction_depth};
    for grade in [Grade::Easy, Grade::Medium, Grade::Hard] {
        for seed in 1..=3 {
            let options = GenerateOptions::new(Size { rows: 10, cols: 10 });
            let g = generate_graded(&options, Some(grade), &mut rng_for(seed, 0)).unwrap();
            assert_eq!(
                deduction_depth(&g.puzzle, &bimaru_sat::model::deadline::Budget::default())
                    .expect("no budget to run out")
                    .grade,
                grade,
                "{grade} seed {seed}"
            );
            match solve(&g.puzzle, &SolveOptions::unique()).unwrap().outcome {
                Outcome::Unique(grid) => assert_eq!(grid, g.solution),
                other => panic!("{grade} seed {seed}: not unique: {other:?}"),
            }
        }
    }
}
