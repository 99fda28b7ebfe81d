//! Hints: on a fresh IST instance the hinted cell matches the official solution, and repeated
//! hints complete the puzzle.

use crate::common::{run, shared};
use bimaru_sat::format::ist;
use bimaru_sat::hint::{HintOutcome, State, hint};
use bimaru_sat::{Clue, Piece, Pos};

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
    // "(r, c) is water, because ..." or "(r, c) is a ship part ..."
    let inside = line.trim_start_matches('(').split(')').next().unwrap();
    let mut nums = inside
        .split(',')
        .map(|n| n.trim().parse::<usize>().unwrap());
    let (r, c) = (nums.next().unwrap(), nums.next().unwrap());
    let says_water = line.contains(") is water");
    assert_eq!(says_water, !flags[r][c], "{line}");
    assert!(
        line.contains("because") || line.contains("contradiction"),
        "{line}"
    );
}

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
            match hint(&puzzle, &state).unwrap() {
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
