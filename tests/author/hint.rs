//! Hints: on a fresh IST instance the hinted cell matches the official solution, and repeated
//! hints complete the puzzle.

use crate::common::{run, shared};
use bimaru_sat::format::{ist, json};
use bimaru_sat::model::deadline::Budget;
use bimaru_sat::usecase::hint::{HintOutcome, Method, State, cell_name, hint};
use bimaru_sat::{Clue, Piece, Pos};
use std::path::Path;

/// Ship flags of an IST `.out` solution (`.` and a `W` hint water, other letters ship).
fn ship_flags(out: &str) -> Vec<Vec<bool>> {
    out.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            l.trim()
                .chars()
                .map(|c| !matches!(c, '.' | 'w' | 'W'))
                .collect()
        })
        .collect()
}

#[cfg_attr(
    no_shared,
    ignore = "needs ../shared, missing when this test was built"
)]
#[test]
fn hint_names_a_forced_cell_that_matches_the_solution() {
    let Some(txt) = shared("corpus/ist-bimaru/public/instance01.txt") else {
        return;
    };
    let out = std::fs::read_to_string(txt.with_extension("out")).unwrap();
    let flags = ship_flags(&out);
    let o = run(&["hint", txt.to_str().unwrap()], b"");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let line = String::from_utf8(o.stdout).unwrap();
    // "Row 3, column 5 is water, because ..." or "... is a ship part ...", counting from 1.
    let (cell, rest) = line.split_once(" is ").unwrap();
    let numbers: Vec<usize> = cell
        .split(|ch: char| !ch.is_ascii_digit())
        .filter(|n| !n.is_empty())
        .map(|n| n.parse().unwrap())
        .collect();
    assert!(
        cell.starts_with("Row ") && cell.contains(", column "),
        "{line}"
    );
    let (r, c) = (numbers[0] - 1, numbers[1] - 1);
    let says_water = rest.starts_with("water");
    assert_eq!(says_water, !flags[r][c], "{line}");
    assert!(
        line.contains("because") || line.contains("contradiction"),
        "{line}"
    );
}

#[cfg_attr(
    no_shared,
    ignore = "needs ../shared, missing when this test was built"
)]
#[test]
fn repeated_hints_complete_every_public_ist_instance() {
    let Some(dir) = shared("corpus/ist-bimaru/public") else {
        return;
    };
    for txt in crate::common::files(&dir, ".txt").into_iter().take(4) {
        let puzzle = ist::parse(&std::fs::read_to_string(&txt).unwrap()).unwrap();
        let flags = ship_flags(&std::fs::read_to_string(txt.with_extension("out")).unwrap());
        let mut state = State::from_puzzle(&puzzle);
        let mut steps = 0;
        loop {
            match hint(&puzzle, &state, &Budget::default()).unwrap() {
                HintOutcome::Complete => break,
                HintOutcome::Hint(h) => {
                    let Pos { row, col } = h.pos;
                    assert!(state.get(h.pos).is_none(), "hinted a filled cell");
                    assert_eq!(
                        h.content.is_ship(),
                        flags[row][col],
                        "{}: {h}",
                        txt.display()
                    );
                    if let Clue::Piece(p @ Piece::End(_)) = h.content {
                        // A named piece is the solution's piece.
                        let line: Vec<char> = std::fs::read_to_string(txt.with_extension("out"))
                            .unwrap()
                            .lines()
                            .nth(row)
                            .unwrap()
                            .chars()
                            .collect();
                        let letter = line[col].to_ascii_uppercase().to_string();
                        assert_eq!(ist::piece_of_letter(&letter), Some(p));
                    }
                    state.set(h.pos, h.content);
                    steps += 1;
                }
                other => panic!("{other:?}"),
            }
        }
        assert_eq!(steps, 100 - puzzle.clue_count(), "{}", txt.display());
        let got: Vec<bool> = state.ship_cells().unwrap();
        let want: Vec<bool> = flags.into_iter().flatten().collect();
        assert_eq!(got, want, "{}", txt.display());
    }
}

#[cfg_attr(
    no_shared,
    ignore = "needs ../shared, missing when this test was built"
)]
#[test]
fn hint_command_reads_and_writes_the_state() {
    let Some(txt) = shared("corpus/ist-bimaru/public/instance02.txt") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state.txt");
    let (p, s) = (txt.to_str().unwrap(), state.to_str().unwrap());
    let first = run(&["hint", p, "--state-out", s], b"");
    assert!(first.status.success());
    let after_one = std::fs::read_to_string(&state).unwrap();
    for _ in 0..3 {
        let o = run(&["hint", p, "--state", s, "--state-out", s], b"");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let after_four = std::fs::read_to_string(&state).unwrap();
    let open = |t: &str| t.matches('?').count();
    assert_eq!(open(&after_one), open(&after_four) + 3);
    // A state that contradicts the puzzle: every cell water.
    let water = ".........\n".replace(".........", "..........").repeat(10);
    std::fs::write(&state, water).unwrap();
    let o = run(&["hint", p, "--state", s], b"");
    assert_eq!(o.status.code(), Some(1));
    // A state of the wrong size is bad input.
    std::fs::write(&state, "??\n").unwrap();
    let o = run(&["hint", p, "--state", s], b"");
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn an_unsolvable_puzzle_is_named_as_such_and_filled_cells_only_when_they_are_to_blame() {
    let dir = tempfile::tempdir().unwrap();
    let example = include_str!("../../puzzles/ist-example.txt");
    // Row counts that add up to one more ship cell than the column counts.
    let unsolvable = example.replace("ROW 2 3 2 2 3 0 1 3 2 2", "ROW 2 3 2 2 3 1 1 3 2 2");
    let puzzle = dir.path().join("unsolvable.txt");
    std::fs::write(&puzzle, unsolvable).unwrap();
    let o = run(&["hint", puzzle.to_str().unwrap()], b"");
    assert_eq!(o.status.code(), Some(1));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(e.contains("the puzzle has no solution"), "{e}");
    assert!(!e.contains("filled"), "{e}");
    // A solvable puzzle with a wrong filled cell: the filled cells are to blame.
    let good = dir.path().join("good.txt");
    std::fs::write(&good, example).unwrap();
    let state = dir.path().join("state.txt");
    // The solution has a ship at (0, 0) (the clue T); mark its neighbour below, also a ship
    // part in the solution, as water.
    let mut rows = vec!["??????????".to_string(); 10];
    rows[1] = ".?????????".to_string();
    std::fs::write(&state, rows.join("\n") + "\n").unwrap();
    let o = run(
        &[
            "hint",
            good.to_str().unwrap(),
            "--state",
            state.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(o.status.code(), Some(1));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(e.contains("the filled cells contradict the puzzle"), "{e}");
}

/// Walks a 15x15 puzzle of the generated set from its clues to its solution: every hint names
/// a cell the solution agrees with, none falls back to a bare "a search finds it" without
/// naming rules, and none runs past the summarised length.
#[test]
fn hints_explain_every_step_of_a_15x15_walk_in_a_few_hundred_characters() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/generated/15x15/001.json");
    let board = json::parse_with_solution(
        &std::fs::read_to_string(&path).unwrap(),
        &bimaru_sat::Limits::default(),
    )
    .unwrap();
    let (puzzle, solution) = (board.puzzle, board.embedded.unwrap());
    let mut state = State::from_puzzle(&puzzle);
    let mut methods = Vec::new();
    loop {
        match hint(&puzzle, &state, &Budget::default()).unwrap() {
            HintOutcome::Complete => break,
            HintOutcome::Hint(h) => {
                assert_eq!(h.content.is_ship(), solution.get(h.pos).is_ship(), "{h}");
                let text = h.to_string();
                assert!(text.len() <= 800, "{} characters: {text}", text.len());
                assert!(!text.contains("no short chain of rules decides"), "{text}");
                if h.method == Method::Search || h.method == Method::CaseSplit {
                    assert!(!h.rules.is_empty(), "{text}");
                }
                if let Some(split) = &h.split {
                    assert!(!split.if_ship.is_empty() && !split.if_water.is_empty());
                    assert!(text.contains(&cell_name(split.pos)), "{text}");
                }
                methods.push(h.method);
                state.set(h.pos, h.content);
            }
            other => panic!("{other:?}"),
        }
    }
    assert_eq!(methods.len(), 225 - puzzle.clue_count());
    // This walk needs more than look-ahead at some steps (it printed bare search hints once).
    assert!(
        methods
            .iter()
            .any(|m| matches!(m, Method::CaseSplit | Method::Search)),
        "{methods:?}"
    );
}

#[test]
fn a_board_too_large_for_hints_is_refused_before_any_solving() {
    let dir = tempfile::tempdir().unwrap();
    let n = 300;
    let open = serde_json::json!({
        "rows": n, "cols": n,
        "row_counts": vec![serde_json::Value::Null; n],
        "col_counts": vec![serde_json::Value::Null; n],
        "fleet": {"1": 4, "2": 3, "3": 2, "4": 1},
    });
    let path = dir.path().join("open.json");
    std::fs::write(&path, open.to_string()).unwrap();
    let o = run(&["hint", path.to_str().unwrap()], b"");
    assert_eq!(o.status.code(), Some(2));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(e.contains("too large") && e.contains("clauses"), "{e}");
}
