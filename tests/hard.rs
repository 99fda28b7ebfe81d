//! `puzzles/hard/`: every board parses, holds a solution the independent verifier accepts, and
//! sits in exactly one half (tuning or held-out, by the parity of its seed, as its README says).
//! One quick held-out board is solved and proven unique with its stored solution. (The proofs
//! of the whole held-out half are checked with `rate` in
//! `docs/benchmarks/2026-11-25-issue-22-hard-boards.md`; proving every
//! board here would take minutes.)

use bimaru_sat::format::json;
use bimaru_sat::usecase::solve::{SatSetup, SolvedBy};
use bimaru_sat::usecase::{CardKind, Model};
use bimaru_sat::{Outcome, SolveOptions, solve, verify};
use std::path::Path;

fn half(name: &str) -> Vec<(String, bimaru_sat::format::Board)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("puzzles/hard")
        .join(name);
    crate::common::files(&dir, ".json")
        .into_iter()
        .map(|f| {
            let text = std::fs::read_to_string(&f).unwrap();
            let board = json::parse_with_solution(&text, &bimaru_sat::Limits::default())
                .unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            (f.file_name().unwrap().to_string_lossy().into_owned(), board)
        })
        .collect()
}

/// The seed in a name like `25x25-seed2501.json`.
fn seed(name: &str) -> u64 {
    let digits = name.split("seed").nth(1).unwrap().trim_end_matches(".json");
    digits.parse().unwrap()
}

#[test]
fn every_hard_board_is_solved_by_its_stored_grid_and_in_one_half() {
    for (name, odd) in [("tuning", 1), ("heldout", 0)] {
        let boards = half(name);
        assert!(boards.len() >= 10, "{name} has {} boards", boards.len());
        for (file, board) in boards {
            assert_eq!(
                seed(&file) % 2,
                odd,
                "{name}/{file}: wrong half for its seed"
            );
            let solution = board.embedded.expect("hard boards store their solution");
            assert_eq!(verify(&board.puzzle, &solution), Ok(()), "{name}/{file}");
            assert!(
                board.puzzle.clues().count() < 60,
                "{name}/{file}: not clue-poor"
            );
        }
    }
}

#[test]
#[cfg_attr(debug_assertions, ignore = "release only: cargo test --release")]
fn a_held_out_board_is_unique() {
    let (file, board) = half("heldout")
        .into_iter()
        .find(|(f, _)| f == "25x25-seed2506.json")
        .unwrap();
    let report = solve(&board.puzzle, &SolveOptions::unique()).unwrap();
    match report.outcome {
        Outcome::Unique(grid) => assert_eq!(Some(grid), board.embedded, "{file}"),
        other => panic!("{file}: {other:?}"),
    }
}

/// The native search (`src/reason/search.rs`) proves two tuning boards unique within its node
/// budget, without a solver, and the solver alone (native search off) agrees on each.
#[test]
#[cfg_attr(debug_assertions, ignore = "release only: cargo test --release")]
fn the_native_search_decides_clue_poor_boards_the_solver_agrees() {
    for (file, board) in half("tuning")
        .into_iter()
        .filter(|(f, _)| f == "25x25-seed2511.json" || f == "25x25-seed2519.json")
    {
        let native = solve(&board.puzzle, &SolveOptions::unique()).unwrap();
        assert!(
            matches!(native.stats.model, SolvedBy::NativeSearch { .. }),
            "{file}: {}",
            native.stats.model
        );
        let alone = SolveOptions {
            native: 0,
            ..SolveOptions::unique()
        };
        let solver = solve(&board.puzzle, &alone).unwrap();
        assert!(solver.stats.conflicts.is_some(), "{file}: solver ran");
        match (native.outcome, solver.outcome) {
            (Outcome::Unique(a), Outcome::Unique(b)) => {
                assert_eq!(a, b, "{file}");
                assert_eq!(Some(a), board.embedded, "{file}");
            }
            other => panic!("{file}: {other:?}"),
        }
    }
}

/// A board the native search cannot settle within its budget is a hard question: the
/// portfolio's specialist proves it unique, with the stored solution, with one thread or
/// several (the helpers answer only a fact: no grid left, or the only one), and the chosen
/// configuration alone (`--no-race`) agrees.
#[test]
#[cfg_attr(debug_assertions, ignore = "release only: cargo test --release")]
fn the_specialist_proves_a_hard_board_unique_with_any_number_of_threads() {
    let (file, board) = half("heldout")
        .into_iter()
        .find(|(f, _)| f == "25x25-seed2508.json")
        .unwrap();
    for threads in [1, 2, 3] {
        let options = SolveOptions {
            threads,
            ..SolveOptions::unique()
        };
        let report = solve(&board.puzzle, &options).unwrap();
        assert!(
            matches!(report.stats.model, SolvedBy::Member { .. }),
            "{file}, {threads} threads: {}",
            report.stats.model
        );
        match report.outcome {
            Outcome::Unique(grid) => assert_eq!(Some(grid), board.embedded, "{file}"),
            other => panic!("{file}, {threads} threads: {other:?}"),
        }
    }
    let alone = SolveOptions {
        race: false,
        ..SolveOptions::unique()
    };
    let report = solve(&board.puzzle, &alone).unwrap();
    let chosen = SatSetup {
        model: Model::Cell,
        card: CardKind::Seq,
    };
    assert_eq!(report.stats.model, SolvedBy::Sat(chosen), "{file}");
    assert_eq!(report.stats.model.to_string(), "cell/seq", "{file}");
    assert!(matches!(report.outcome, Outcome::Unique(_)), "{file}");
}
