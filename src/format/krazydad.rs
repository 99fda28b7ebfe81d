//! Krazydad puzzles as transcribed for Mrhube/BattleshipSolver (`FreePuzzles.txt`): several
//! boards, each an `N)` line, rows of space-separated cells and then `{row counts}` and
//! `{column counts}`. Cells (the solver's `Value` enum): `.` unknown, `=` water, `O` submarine,
//! `?` some ship part, `<` `>` `^` `v` ends, `+` `-` `|` middles. A line of `=` ends the boards
//! (a footer follows). The solver gives every board the standard fleet (ships up to length 4).

use super::{Board, FileBudget, Found, ParseError, ParseErrorKind, check_board, count_or_unknown};
use crate::model::limits::Limits;
use crate::model::puzzle::{Clue, Dir, Fleet, Piece, Pos, Puzzle};

const CELLS: &str = ". = O ? < > ^ v + - |";

/// The clue of a cell symbol (`Ok(None)` for an unknown cell).
fn clue_of(symbol: &str) -> Result<Option<Clue>, ()> {
    Ok(Some(match symbol {
        "." => return Ok(None),
        "=" => Clue::Piece(Piece::Water),
        "O" => Clue::Piece(Piece::Submarine),
        "?" => Clue::Ship,
        "<" => Clue::Piece(Piece::End(Dir::Right)),
        ">" => Clue::Piece(Piece::End(Dir::Left)),
        "^" => Clue::Piece(Piece::End(Dir::Down)),
        "v" => Clue::Piece(Piece::End(Dir::Up)),
        "+" | "-" | "|" => Clue::Piece(Piece::Middle),
        _ => return Err(()),
    }))
}

/// Whether `line` is an `N)` board header.
fn header(line: &str) -> Option<&str> {
    let id = line.trim().strip_suffix(')')?;
    (!id.is_empty() && id.bytes().all(|b| b.is_ascii_digit())).then_some(id)
}

/// Whether the text starts with an `N)` line followed by a row of one-character cells.
pub(crate) fn looks_krazydad(text: &str) -> bool {
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    lines.next().and_then(header).is_some()
        && lines
            .next()
            .is_some_and(|l| l.split_whitespace().all(|t| t.chars().count() == 1))
}

/// Parses every board of the file within `limits`.
pub fn parse(text: &str, limits: &Limits) -> Result<Vec<Board>, ParseError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = text
        .split('\n')
        .enumerate()
        .map(|(i, l)| (i + 1, l.strip_suffix('\r').unwrap_or(l)))
        .filter(|(_, l)| !l.trim().is_empty())
        .peekable();
    let mut boards = Vec::new();
    let mut budget = FileBudget::default();
    let mut last = 0;
    while let Some((number, line)) = lines.next() {
        last = number;
        let trimmed = line.trim();
        if trimmed.len() >= 3 && trimmed.bytes().all(|b| b == b'=') {
            break;
        }
        let Some(id) = header(line) else {
            return Err(ParseError::at_line(
                number,
                ParseErrorKind::Expected {
                    expected: "a board header N) or a line of = ending the boards",
                    found: Found::new(trimmed),
                },
            ));
        };
        let mut grid: Vec<(usize, Vec<(usize, &str)>)> = Vec::new();
        while let Some(&(n, l)) = lines.peek() {
            if l.trim_start().starts_with('{') {
                break;
            }
            lines.next();
            last = n;
            grid.push((n, super::tokenize(l)[0].tokens.clone()));
        }
        let mut braces = |what: &'static str| {
            let (n, l) = lines.next().ok_or(ParseError::at_line(
                last + 1,
                ParseErrorKind::UnexpectedEnd { expected: what },
            ))?;
            last = n;
            let inner = l
                .trim()
                .strip_prefix('{')
                .and_then(|s| s.strip_suffix('}'))
                .ok_or_else(|| {
                    ParseError::at_line(
                        n,
                        ParseErrorKind::Expected {
                            expected: what,
                            found: Found::new(l.trim()),
                        },
                    )
                })?;
            let start = l.chars().take_while(|c| *c != '{').count() + 2;
            Ok::<_, ParseError>((n, super::comma_items(inner, start)))
        };
        let (row_line, row_items) = braces("{row counts}")?;
        let (col_line, col_items) = braces("{column counts}")?;
        let rows = grid.len();
        let cols = grid.first().map_or(0, |(_, t)| t.len());
        check_board(number, rows, cols, limits)?;
        budget.take(number, rows * cols, limits)?;
        for (line, want, items, what) in [
            (row_line, rows, &row_items, "row counts (one per grid row)"),
            (
                col_line,
                cols,
                &col_items,
                "column counts (one per grid column)",
            ),
        ] {
            if items.len() != want {
                return Err(ParseError::at_line(
                    line,
                    ParseErrorKind::WrongCount {
                        what,
                        expected: want,
                        found: items.len(),
                    },
                ));
            }
        }
        let counts = |n: usize, items: &[(usize, &str)], max: usize| {
            items
                .iter()
                .map(|&(c, t)| count_or_unknown(n, c, t, max))
                .collect::<Result<Vec<_>, _>>()
        };
        let row_counts = counts(row_line, &row_items, cols)?;
        let col_counts = counts(col_line, &col_items, rows)?;
        let mut puzzle = Puzzle::new(row_counts, col_counts, Fleet::standard())
            .expect("the size was checked non-zero");
        for (r, (n, tokens)) in grid.iter().enumerate() {
            if tokens.len() != cols {
                return Err(ParseError::at_line(
                    *n,
                    ParseErrorKind::WrongCount {
                        what: "cells in this row",
                        expected: cols,
                        found: tokens.len(),
                    },
                ));
            }
            for (c, &(col, symbol)) in tokens.iter().enumerate() {
                let clue = clue_of(symbol).map_err(|()| {
                    ParseError::at(
                        *n,
                        col,
                        ParseErrorKind::UnknownLetter {
                            found: symbol.to_string(),
                            allowed: CELLS,
                        },
                    )
                })?;
                if let Some(clue) = clue {
                    puzzle
                        .add_clue(Pos::new(r, c), clue)
                        .expect("each cell once, on the board");
                }
            }
        }
        boards.push(Board {
            id: Some(id.to_string()),
            line: number,
            puzzle,
            embedded: None,
        });
    }
    if boards.is_empty() {
        return Err(ParseError::at_line(
            last + 1,
            ParseErrorKind::UnexpectedEnd {
                expected: "a board (N) then its rows)",
            },
        ));
    }
    Ok(boards)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO: &str = "1)\n. < .\n= . O\n{1,1}\n{0,2,1}\n\n2)\n? . .\n. . +\n{1,1}\n{1,0,1}\n=====\n. . .\n{rows}\n";

    #[test]
    fn reads_boards_until_the_footer() {
        assert!(looks_krazydad(TWO));
        let boards = parse(TWO, &Limits::default()).unwrap();
        assert_eq!(boards.len(), 2);
        assert_eq!(boards[1].id.as_deref(), Some("2"));
        let p = &boards[0].puzzle;
        assert_eq!((p.rows(), p.cols()), (2, 3));
        assert_eq!(p.col_counts(), &[Some(0), Some(2), Some(1)]);
        assert_eq!(
            p.clue(Pos::new(0, 1)),
            Some(Clue::Piece(Piece::End(Dir::Right)))
        );
        assert_eq!(p.clue(Pos::new(1, 0)), Some(Clue::Piece(Piece::Water)));
        assert_eq!(boards[1].puzzle.clue(Pos::new(0, 0)), Some(Clue::Ship));
        assert_eq!(*p.fleet(), Fleet::standard());
    }

    #[test]
    fn rejects_with_line_and_column() {
        let e = |t: &str| parse(t, &Limits::default()).unwrap_err().to_string();
        assert_eq!(
            e("1)\n. # .\n{1}\n{0,1,0}\n"),
            "line 2, column 3: unknown cell letter \"#\", expected one of . = O ? < > ^ v + - |"
        );
        assert_eq!(
            e("1)\n. . .\n{1}\n{0,x,0}\n"),
            "line 4, column 4: expected a count (a whole number or ?), found \"x\""
        );
        assert_eq!(
            e("1)\n. . .\n{1}\n"),
            "line 4: unexpected end of input, expected {column counts}"
        );
        assert_eq!(
            e("1)\n. . .\n{1,2}\n{0,1,0}\n"),
            "line 3: expected 1 row counts (one per grid row), found 2"
        );
        assert_eq!(
            e("hello\n"),
            "line 1: expected a board header N) or a line of = ending the boards, found \"hello\""
        );
    }
}
