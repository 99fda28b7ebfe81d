//! jolyonb/puzzles battleship files: `#` comment lines, then the row clues, the column clues
//! (comma-separated, `?` for unknown) and the ship counts shortest first, then `x, y, info`
//! lines (0-based, `x` the column): `w` water, `o` submarine, `#` some ship part, `<` `>` `^`
//! `v` ship ends.

use super::{ClueLines, ParseError, ParseErrorKind, check_board, comma_items, count_or_unknown};
use crate::model::limits::Limits;
use crate::model::puzzle::{Clue, Dir, Fleet, Piece, Pos, Puzzle};

const INFO: &str = "w o # < > ^ v";

fn clue_of(info: &str) -> Option<Clue> {
    Some(match info {
        "w" => Clue::Piece(Piece::Water),
        "o" => Clue::Piece(Piece::Submarine),
        "#" => Clue::Ship,
        "<" => Clue::Piece(Piece::End(Dir::Right)),
        ">" => Clue::Piece(Piece::End(Dir::Left)),
        "^" => Clue::Piece(Piece::End(Dir::Down)),
        "v" => Clue::Piece(Piece::End(Dir::Up)),
        _ => return None,
    })
}

/// The data lines (not blank, not `#` comments): line number, column of the first character,
/// and the trimmed text.
fn data_lines(text: &str) -> impl Iterator<Item = (usize, usize, &str)> {
    text.split('\n').enumerate().filter_map(|(i, raw)| {
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        let trimmed = line.trim();
        let lead = line.chars().count() - line.trim_start().chars().count();
        (!trimmed.is_empty() && !trimmed.starts_with('#')).then_some((i + 1, lead + 1, trimmed))
    })
}

/// Whether the first three data lines are comma-separated lists of numbers (`?` allowed), the
/// first two with at least one comma.
pub(crate) fn looks_jolyonb(text: &str) -> bool {
    let is_list = |l: &str| {
        l.split(',').all(|t| {
            t.trim() == "?"
                || (!t.trim().is_empty() && t.trim().bytes().all(|b| b.is_ascii_digit()))
        })
    };
    let lines: Vec<&str> = data_lines(text).take(3).map(|(_, _, l)| l).collect();
    lines.len() == 3
        && lines.iter().all(|l| is_list(l))
        && lines[..2].iter().all(|l| l.contains(','))
}

/// Parses a puzzle file within `limits`.
pub fn parse(text: &str, limits: &Limits) -> Result<Puzzle, ParseError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = data_lines(text);
    let mut last = 0;
    let mut next = |expected: &'static str| match lines.next() {
        Some(l) => {
            last = l.0;
            Ok(l)
        }
        None => Err(ParseError::at_line(
            last + 1,
            ParseErrorKind::UnexpectedEnd { expected },
        )),
    };
    let (rn, rc, rl) = next("the row clues (comma-separated)")?;
    let (cn, cc, cl) = next("the column clues (comma-separated)")?;
    let (fleet_n, fleet_c, fleet_l) = next("the ship counts (shortest first)")?;
    let row_items = comma_items(rl, rc);
    let col_items = comma_items(cl, cc);
    let (rows, cols) = (row_items.len(), col_items.len());
    check_board(rn, rows, cols, limits)?;
    let row_counts = row_items
        .iter()
        .map(|&(c, t)| count_or_unknown(rn, c, t, cols))
        .collect::<Result<Vec<_>, _>>()?;
    let col_counts = col_items
        .iter()
        .map(|&(c, t)| count_or_unknown(cn, c, t, rows))
        .collect::<Result<Vec<_>, _>>()?;
    let side = rows.max(cols);
    let mut fleet = Vec::new();
    for (i, (c, t)) in comma_items(fleet_l, fleet_c).into_iter().enumerate() {
        let n = super::whole_number(fleet_n, c, t, "a ship count (a whole number)")?;
        if n > 0 && i >= side {
            return Err(ParseError::at(
                fleet_n,
                c,
                ParseErrorKind::OutOfRange {
                    what: "ship length",
                    value: i + 1,
                    max: side,
                },
            ));
        }
        fleet.push(n);
    }
    let mut puzzle = Puzzle::new(row_counts, col_counts, Fleet::from_counts(fleet))
        .expect("the size was checked non-zero");
    let mut given = ClueLines::default();
    for (n, c, l) in lines {
        let items = comma_items(l, c);
        if items.len() != 3 {
            return Err(ParseError::at_line(
                n,
                ParseErrorKind::WrongCount {
                    what: "fields (x, y, info)",
                    expected: 3,
                    found: items.len(),
                },
            ));
        }
        let x = super::whole_number(n, items[0].0, items[0].1, "a column x")?;
        let y = super::whole_number(n, items[1].0, items[1].1, "a row y")?;
        let pos = Pos::new(y, x);
        if y >= rows || x >= cols {
            return Err(ParseError::at(
                n,
                if x >= cols { items[0].0 } else { items[1].0 },
                ParseErrorKind::OutsideBoard { pos, rows, cols },
            ));
        }
        let clue = clue_of(items[2].1).ok_or_else(|| {
            ParseError::at(
                n,
                items[2].0,
                ParseErrorKind::UnknownLetter {
                    found: items[2].1.to_string(),
                    allowed: INFO,
                },
            )
        })?;
        given.add(&mut puzzle, pos, clue, n, None)?;
    }
    Ok(puzzle)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: &str =
        "# Row clues\n2, ?, 0\n# Column clues\n1, ?\n# ships\n0, 1\n1, 0, <\n0, 2, #\r\n";

    #[test]
    fn reads_x_as_the_column() {
        assert!(looks_jolyonb(SMALL));
        let p = parse(SMALL, &Limits::default()).unwrap();
        assert_eq!((p.rows(), p.cols()), (3, 2));
        assert_eq!(p.row_counts(), &[Some(2), None, Some(0)]);
        assert_eq!(p.fleet().counts(), &[0, 1]);
        assert_eq!(
            p.clue(Pos::new(0, 1)),
            Some(Clue::Piece(Piece::End(Dir::Right)))
        );
        assert_eq!(p.clue(Pos::new(2, 0)), Some(Clue::Ship));
    }

    #[test]
    fn rejects_with_line_and_column() {
        let e = |t: &str| parse(t, &Limits::default()).unwrap_err().to_string();
        assert_eq!(
            e("1, 1\n1, 1\n1\n2, 0, o\n"),
            "line 4, column 1: cell (0, 2) lies outside the 2x2 board"
        );
        assert_eq!(
            e("1, 1\n1, 1\n1\n1, 0, m\n"),
            "line 4, column 7: unknown cell letter \"m\", expected one of w o # < > ^ v"
        );
        assert_eq!(
            e("1, 1\n1, x\n1\n"),
            "line 2, column 4: expected a count (a whole number or ?), found \"x\""
        );
        assert_eq!(
            e("1, 1\n"),
            "line 2: unexpected end of input, expected the column clues (comma-separated)"
        );
        assert_eq!(
            e("1, 1\n1, 1\n0, 0, 1\n"),
            "line 3, column 7: ship length 3 is out of range (at most 2)"
        );
    }
}
