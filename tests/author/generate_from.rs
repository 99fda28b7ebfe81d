//! `generate --from FILE`: a puzzle made from a file's solution, keeping its clues. Over the
//! whole 10x10 and 15x15 sets in `puzzles/generated/` and every `--reduce`: unique, the file's
//! solution, the given clues kept, and every clue added needed for the reduction (a second
//! solution without it for `unique`, checked through `--unique` exiting 3 on a sample; a
//! higher grade without it for `propagation` and `look-ahead`). Files with more clues than
//! needed, or none; usage errors; a file without a solution or with several; the same seed
//! giving the same bytes.

use crate::common::run;
use bimaru_sat::format::json;
use bimaru_sat::model::deadline::Budget;
use bimaru_sat::usecase::grade::{Grade, deduction_depth};
use bimaru_sat::{Clue, Grid, Limits, Outcome, Puzzle, SolveOptions, solve};
use std::path::{Path, PathBuf};

const REDUCES: [&str; 4] = ["deduction", "unique", "propagation", "look-ahead"];

/// The `.json` puzzles of `puzzles/generated/<size>`, in name order.
fn corpus(size: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("puzzles/generated")
        .join(size);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files
}

/// Runs `generate --from file` with `args`, expecting success; the puzzle and solution printed.
fn generate_from(file: &Path, args: &[&str]) -> (Vec<u8>, Puzzle, Grid) {
    let mut all = vec!["generate", "--from", file.to_str().unwrap()];
    all.extend_from_slice(args);
    let out = run(&all, b"");
    assert!(
        out.status.success(),
        "{all:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let board = json::parse_with_solution(
        std::str::from_utf8(&out.stdout).unwrap(),
        &Limits::default(),
    )
    .unwrap();
    (
        out.stdout,
        board.puzzle,
        board.embedded.expect("generate prints the solution"),
    )
}

/// The file's puzzle and solution.
fn read(file: &Path) -> (Puzzle, Grid) {
    let text = std::fs::read_to_string(file).unwrap();
    let board = json::parse_with_solution(&text, &Limits::default()).unwrap();
    (
        board.puzzle,
        board
            .embedded
            .expect("the corpus files hold their solution"),
    )
}

/// `made` is unique with `solution`, has every count, holds every clue of `given` (as the
/// solution's piece there), and each clue it adds is needed for `reduce`.
fn assert_made(made: &Puzzle, given: &Puzzle, solution: &Grid, reduce: &str, what: &str) {
    match solve(made, &SolveOptions::unique()).unwrap().outcome {
        Outcome::Unique(grid) => assert_eq!(&grid, solution, "{what}: another solution"),
        other => panic!("{what}: not unique: {other:?}"),
    }
    assert_eq!(made.fleet(), given.fleet(), "{what}: fleet");
    for r in 0..made.rows() {
        assert_eq!(made.row_counts()[r], Some(solution.row_total(r)), "{what}");
    }
    for c in 0..made.cols() {
        assert_eq!(made.col_counts()[c], Some(solution.col_total(c)), "{what}");
    }
    for (pos, _) in given.clues() {
        assert_eq!(
            made.clue(pos),
            Some(Clue::Piece(solution.get(pos))),
            "{what}: the given clue at {pos} is not kept"
        );
    }
    let added: Vec<_> = made
        .clues()
        .map(|(pos, _)| pos)
        .filter(|&pos| given.clue(pos).is_none())
        .collect();
    let budget = Budget::default();
    let grade = |p: &Puzzle| deduction_depth(p, &budget).expect("no budget").grade;
    let most = match reduce {
        "propagation" => Some(Grade::Easy),
        "look-ahead" => Some(Grade::Medium),
        _ => None,
    };
    if let Some(most) = most {
        assert!(grade(made) <= most, "{what}: harder than {most}");
    }
    for pos in added {
        let mut fewer = made.clone();
        fewer.remove_clue(pos);
        match reduce {
            "unique" => assert!(
                matches!(
                    solve(&fewer, &SolveOptions::unique()).unwrap().outcome,
                    Outcome::Multiple { .. }
                ),
                "{what}: the added clue at {pos} is not needed"
            ),
            "propagation" | "look-ahead" => assert!(
                grade(&fewer) > most.unwrap(),
                "{what}: the added clue at {pos} is not needed"
            ),
            // The reasoning engine's minimality has no public check: unique and kept above.
            _ => {}
        }
    }
}

/// Removing each clue of `made` that `given` lacks makes `bimaru-sat --unique` exit 3.
fn assert_cli_minimal(made: &Puzzle, given: &Puzzle, what: &str) {
    for (pos, _) in made.clues() {
        if given.clue(pos).is_some() {
            continue;
        }
        let mut fewer = made.clone();
        fewer.remove_clue(pos);
        let text = json::write_puzzle(&fewer, None);
        let out = run(&["--unique", "-"], text.as_bytes());
        assert_eq!(out.status.code(), Some(3), "{what}: without {pos}");
    }
}

#[test]
fn every_corpus_puzzle_and_reduction_keeps_the_clues_and_the_solution() {
    for size in ["10x10", "15x15"] {
        for (i, file) in corpus(size).iter().enumerate() {
            let (given, solution) = read(file);
            for reduce in REDUCES {
                let what = format!("{} --reduce {reduce}", file.display());
                let (_, made, printed) = generate_from(file, &["--reduce", reduce]);
                assert_eq!(printed, solution, "{what}: printed solution");
                // The full check (a solve per added clue, a grade per added clue) on a sample;
                // the rest are checked for uniqueness, solution and kept clues.
                if i < 5 {
                    assert_made(&made, &given, &solution, reduce, &what);
                    if reduce == "unique" {
                        assert_cli_minimal(&made, &given, &what);
                    }
                } else {
                    assert_made(&made, &given, &solution, "deduction", &what);
                }
            }
        }
    }
}

/// A copy of `file` in a temporary folder, with its clues replaced by `clues` and its
/// solution dropped when `keep_solution` is false.
fn variant(
    file: &Path,
    clues: serde_json::Value,
    keep_solution: bool,
) -> (tempfile::TempDir, PathBuf) {
    let mut value: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
    value["clues"] = clues;
    if !keep_solution {
        value.as_object_mut().unwrap().remove("solution");
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("puzzle.json");
    std::fs::write(&path, value.to_string()).unwrap();
    (dir, path)
}

/// The clues of `solution` at `cells`, as JSON.
fn clues_json(solution: &Grid, cells: &[bimaru_sat::Pos]) -> serde_json::Value {
    let mut puzzle = Puzzle::new(
        vec![None; solution.rows()],
        vec![None; solution.cols()],
        bimaru_sat::Fleet::standard(),
    )
    .unwrap();
    for &pos in cells {
        puzzle
            .add_clue(pos, Clue::Piece(solution.get(pos)))
            .unwrap();
    }
    let text = json::write_puzzle(&puzzle, None);
    serde_json::from_str::<serde_json::Value>(&text).unwrap()["clues"].clone()
}

#[test]
fn a_solution_with_no_clues_or_many_is_reduced_around_the_given_ones() {
    for file in corpus("10x10")
        .iter()
        .take(3)
        .chain(corpus("15x15").iter().take(2))
    {
        let (_, solution) = read(file);
        let cells: Vec<_> = (0..solution.rows())
            .flat_map(|r| (0..solution.cols()).map(move |c| bimaru_sat::Pos::new(r, c)))
            .collect();
        let ships: Vec<_> = cells
            .iter()
            .copied()
            .filter(|&p| solution.is_ship(p))
            .collect();
        let water: Vec<_> = cells
            .iter()
            .copied()
            .filter(|&p| !solution.is_ship(p))
            .collect();
        // No clue: every clue is added, and each is needed.
        // Every ship cell: nothing to add, all kept (more than uniqueness needs).
        // Three water cells: kept, although uniqueness alone does not need them.
        for (cells, name) in [
            (Vec::new(), "no clue"),
            (ships.clone(), "every ship cell"),
            (water[..3].to_vec(), "three water cells"),
        ] {
            let (_dir, path) = variant(file, clues_json(&solution, &cells), true);
            let (given, _) = read(&path);
            for reduce in REDUCES {
                let what = format!("{} with {name}, --reduce {reduce}", file.display());
                let (_, made, printed) = generate_from(&path, &["--reduce", reduce, "--seed", "5"]);
                assert_eq!(printed, solution, "{what}");
                assert_made(&made, &given, &solution, reduce, &what);
                if reduce == "unique" {
                    assert_cli_minimal(&made, &given, &what);
                }
                if name == "every ship cell" {
                    assert_eq!(made.clue_count(), ships.len(), "{what}: nothing to add");
                }
                if name == "no clue" && reduce == "unique" {
                    assert!(made.clue_count() < ships.len(), "{what}");
                }
                if reduce == "unique" {
                    // The core-guided minimiser keeps the given clues too.
                    let what = format!("{what} --minimizer cores");
                    let args = ["--reduce", reduce, "--minimizer", "cores", "--seed", "5"];
                    let (_, made, _) = generate_from(&path, &args);
                    assert_made(&made, &given, &solution, reduce, &what);
                }
            }
        }
    }
}

#[test]
fn a_file_without_its_solution_is_solved_first() {
    let file = &corpus("10x10")[0];
    let (given, solution) = read(file);
    let text = json::write_puzzle(&given, None);
    let (_dir, path) = variant(
        file,
        serde_json::from_str::<serde_json::Value>(&text).unwrap()["clues"].clone(),
        false,
    );
    let (_, made, printed) = generate_from(&path, &["--reduce", "unique"]);
    assert_eq!(printed, solution);
    assert_made(&made, &given, &solution, "unique", "solved first");
}

#[test]
fn no_solution_exits_1_and_several_exit_3() {
    let file = &corpus("10x10")[0];
    // No clue and no solution: several solutions.
    let (_dir, several) = variant(file, serde_json::json!([]), false);
    let out = run(&["generate", "--from", several.to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(3));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("several solutions"), "{err}");
    assert!(out.stdout.is_empty());
    // A row count that no grid meets.
    let mut value: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&several).unwrap()).unwrap();
    value["row_counts"][0] = serde_json::json!(10);
    std::fs::write(&several, value.to_string()).unwrap();
    let out = run(&["generate", "--from", several.to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no solution"), "{err}");
    // A solution that breaks its own puzzle's clue: bad input.
    let (_dir2, broken) = variant(
        file,
        serde_json::json!([{"row": 0, "col": 0, "piece": "water"}]),
        true,
    );
    let (_, solution) = read(file);
    assert!(solution.is_ship(bimaru_sat::Pos::new(0, 0)));
    let out = run(&["generate", "--from", broken.to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("the solution breaks the puzzle"), "{err}");
}

#[test]
fn size_fleet_and_grade_beside_from_are_usage_errors() {
    let file = corpus("10x10")[0].to_str().unwrap().to_string();
    for (flag, value) in [
        ("--size", "10x10"),
        ("--fleet", "4,3,2,1"),
        ("--grade", "easy"),
    ] {
        let out = run(&["generate", "--from", &file, flag, value], b"");
        assert_eq!(out.status.code(), Some(2), "{flag}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("'--from <FILE>' cannot be used with") && err.contains(flag),
            "{flag}: {err}"
        );
        assert!(out.stdout.is_empty());
    }
    let out = run(&["generate", "--format", "json"], b"");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn the_same_seed_gives_the_same_bytes() {
    let file = &corpus("15x15")[0];
    let (_, solution) = read(file);
    let (_dir, path) = variant(file, clues_json(&solution, &[]), true);
    for reduce in REDUCES {
        for minimizer in ["one-by-one", "cores"] {
            let args = ["--reduce", reduce, "--minimizer", minimizer, "--seed", "9"];
            let (first, ..) = generate_from(&path, &args);
            let (again, ..) = generate_from(&path, &args);
            assert_eq!(first, again, "--reduce {reduce} --minimizer {minimizer}");
        }
    }
}
