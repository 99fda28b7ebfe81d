//! The SAT solvers agree (feature `cadical`): every board of every corpus file and of the
//! generated sets up to 30x30 is solved with varisat and with CaDiCaL, with `--unique`
//! semantics (limit 2), and the outcomes match: the same verdict, the same grid for a unique
//! puzzle, and for a puzzle with several solutions the same solutions when there are few
//! enough to count them all ([`COUNT`]), or else both `Multiple`.

use crate::common::{files, read, shared, walk};
use bimaru_sat::format::{self, DetectError};
use bimaru_sat::solver::SolverKind;
use bimaru_sat::{Goal, Grid, Outcome, Puzzle, SolveOptions, solve};
use rayon::prelude::*;
use std::path::{Path, PathBuf};

/// Solutions counted completely for a board with several, on boards up to [`COUNT_SIDE`]
/// cells a side (the larger clue-free MiniZinc boards have too many to count in a test).
const COUNT: usize = 30;
const COUNT_SIDE: usize = 10;

fn outcome(puzzle: &Puzzle, solver: SolverKind, limit: usize) -> Outcome {
    let options = SolveOptions {
        solver,
        goal: Goal::Count(limit),
        ..SolveOptions::default()
    };
    solve(puzzle, &options)
        .unwrap_or_else(|e| panic!("{solver}: {e}"))
        .outcome
}

/// The grids of an outcome, in a fixed order.
fn sorted(outcome: &Outcome) -> Vec<Grid> {
    let mut grids: Vec<Grid> = outcome.grids().into_iter().cloned().collect();
    grids.sort_by_key(Grid::ship_cells);
    grids
}

/// Solves `puzzle` with both solvers and panics, naming `what`, unless they agree.
fn assert_agree(what: &str, puzzle: &Puzzle) {
    let varisat = outcome(puzzle, SolverKind::Varisat, 2);
    let cadical = outcome(puzzle, SolverKind::Cadical, 2);
    match (&varisat, &cadical) {
        (Outcome::Unsat, Outcome::Unsat) => {}
        (Outcome::Unique(a), Outcome::Unique(b)) => assert_eq!(a, b, "{what}: the unique grid"),
        (Outcome::Multiple { .. }, Outcome::Multiple { .. }) => {
            let shape = puzzle.shape();
            if shape.rows.max(shape.cols) > COUNT_SIDE {
                return;
            }
            let varisat = outcome(puzzle, SolverKind::Varisat, COUNT);
            let cadical = outcome(puzzle, SolverKind::Cadical, COUNT);
            assert_eq!(
                varisat.is_complete(),
                cadical.is_complete(),
                "{what}: counted up to {COUNT}"
            );
            if varisat.is_complete() {
                assert_eq!(sorted(&varisat), sorted(&cadical), "{what}: every solution");
            }
        }
        _ => panic!("{what}: varisat {varisat:?}, cadical {cadical:?}"),
    }
}

/// Every board of every puzzle file below `dir`, named by its path (and board id).
fn boards(dir: &Path, paths: Vec<PathBuf>) -> Vec<(String, Puzzle)> {
    let mut out = Vec::new();
    for path in paths {
        let Ok(text) = String::from_utf8(read(&path)) else {
            continue; // the zips and the PDF
        };
        let rel = path.strip_prefix(dir).unwrap().display().to_string();
        let format = match format::detect(&text) {
            Ok(format) => format,
            Err(DetectError::NoMatch) => continue, // solutions, metadata, notes
            Err(e) => panic!("{rel}: {e}"),
        };
        let Ok(document) = format::parse_document(&text, format, &bimaru_sat::Limits::default())
        else {
            continue; // files the format tests check are refused (unknown-length ships)
        };
        for board in document.boards {
            let name = match &board.id {
                Some(id) => format!("{rel} board {id}"),
                None => rel.clone(),
            };
            out.push((name, board.puzzle));
        }
    }
    out
}

#[cfg_attr(
    no_shared,
    ignore = "needs ../shared, missing when this test was built"
)]
#[test]
fn cadical_agrees_with_varisat_on_every_corpus_board() {
    let _machine = crate::machine_shared();
    let Some(root) = shared("corpus") else {
        return;
    };
    let boards = boards(&root, walk(&root));
    assert_eq!(boards.len(), 661);
    boards
        .par_iter()
        .for_each(|(name, puzzle)| assert_agree(name, puzzle));
}

#[test]
fn cadical_agrees_with_varisat_on_the_generated_sets_up_to_30x30() {
    let _machine = crate::machine_shared();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/generated");
    let mut paths = Vec::new();
    for size in ["10x10", "15x15", "20x20", "30x30"] {
        paths.extend(files(&root.join(size), ".json"));
    }
    let boards = boards(&root, paths);
    assert_eq!(boards.len(), 160);
    boards
        .par_iter()
        .for_each(|(name, puzzle)| assert_agree(name, puzzle));
}
