//! Writing a puzzle as a puzz.link URL, or saying why it cannot be one.

use super::super::Inexpressible;
use super::codes::*;
use crate::model::puzzle::Puzzle;

pub(super) fn inexpressible(reason: &'static str) -> Inexpressible {
    Inexpressible {
        format: "puzzlink",
        reason,
    }
}

/// Appends pzprjs' `number16` encoding of `items` (`genericEncodeNumber16`): numbers in hex
/// (`-xx` from 16), `.` for "?", runs of up to 20 empty entries as `g`-`z`.
pub(super) fn encode_items(out: &mut String, items: impl Iterator<Item = Option<String>>) {
    let mut run = 0usize;
    let run_letter = |n: usize| char::from_digit(15 + n as u32, 36).unwrap_or('z');
    for item in items {
        match item {
            None => {
                run += 1;
                if run == 20 {
                    out.push(run_letter(run));
                    run = 0;
                }
            }
            Some(text) => {
                if run > 0 {
                    out.push(run_letter(run));
                    run = 0;
                }
                out.push_str(&text);
            }
        }
    }
    if run > 0 {
        out.push(run_letter(run));
    }
}

/// A count as pzprjs writes it (`writeNumber16`).
pub(super) fn number16(n: usize) -> String {
    if n < 16 {
        format!("{n:x}")
    } else {
        format!("-{n:02x}")
    }
}

/// A straight ship of `len` cells as a pzprjs piece (`BankPiece.serialize`): `L1` then the
/// cells as base-32 digits of five bits (a horizontal 1xL piece, as the presets write them).
pub(super) fn piece_text(len: usize) -> String {
    let mut s = String::new();
    s.push(char::from_digit(len as u32, 36).unwrap_or('?'));
    s.push('1');
    let mut left = len;
    while left > 0 {
        let k = left.min(5);
        let v = ((1u32 << k) - 1) << (5 - k);
        s.push(char::from_digit(v, 32).unwrap_or('?'));
        left -= k;
    }
    s
}

/// The canonical URL of `puzzle`, as pzprjs writes it, without a final newline. Counts above
/// 255 and ships longer than 35 cells cannot be written (pzprjs cannot read them back).
pub fn url(puzzle: &Puzzle) -> Result<String, Inexpressible> {
    let counts = puzzle.col_counts().iter().chain(puzzle.row_counts());
    if counts.clone().flatten().any(|&c| c > MAX_COUNT) {
        return Err(inexpressible("pzprjs reads counts up to 255"));
    }
    if puzzle.fleet().max_len() > MAX_SHIP_LEN {
        return Err(inexpressible("pzprjs pieces are at most 35 cells long"));
    }
    let mut out = format!(
        "{CANONICAL_PREFIX}{VARIETY}/{}/{}/",
        puzzle.cols(),
        puzzle.rows()
    );
    encode_items(&mut out, counts.map(|c| c.map(number16)));
    encode_items(
        &mut out,
        puzzle
            .positions()
            .map(|p| puzzle.clue(p).map(|c| code_of(c).to_string())),
    );
    let counts = puzzle.fleet().counts();
    out.push('/');
    if counts.is_empty() {
        out.push_str("/z");
    } else if let Some((key, _)) = PRESETS.iter().find(|(_, c)| *c == counts) {
        out.push('/');
        out.push(*key);
    } else {
        out.push_str(&puzzle.fleet().total_ships().to_string());
        for class in puzzle.fleet().classes() {
            for _ in 0..class.count {
                out.push('/');
                out.push_str(&piece_text(class.len));
            }
        }
    }
    Ok(out)
}

/// [`url`] with a final newline, as a file holds it.
pub fn write_puzzle(puzzle: &Puzzle) -> Result<String, Inexpressible> {
    url(puzzle).map(|u| u + "\n")
}
