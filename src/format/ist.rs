//! The IST Bimaru format (`ist-bimaru-project-pt.md`, section 4): a 10x10 board with the
//! standard fleet, `ROW` and `COLUMN` counts, a hint count and `HINT row col letter` lines.
//! The output is ten lines of `.`, lower-case pieces, and upper-case hinted cells.

use super::{Found, HintLine, Line, ParseError, ParseErrorKind, tokenize};
use crate::model::puzzle::{Clue, Dir, Fleet, Grid, Piece, Pos, Puzzle};
use std::collections::HashMap;

/// Board side of the IST format.
pub(crate) const SIZE: usize = 10;

/// The letters of the IST format, for messages.
const LETTERS: &str = "W C T M B L R";

/// Parses an IST instance.
pub fn parse(text: &str) -> Result<Puzzle, ParseError> {
    let lines = tokenize(text);
    let mut it = lines.iter();
    let row_line = it.next().ok_or(ParseError::at_line(
        1,
        ParseErrorKind::UnexpectedEnd {
            expected: "a ROW line",
        },
    ))?;
    let rows = counts(row_line, "ROW", "a line starting with ROW")?;
    let col_line = it.next().ok_or(ParseError::at_line(
        row_line.number + 1,
        ParseErrorKind::UnexpectedEnd {
            expected: "a COLUMN line",
        },
    ))?;
    let cols = counts(col_line, "COLUMN", "a line starting with COLUMN")?;
    let mut puzzle =
        Puzzle::new(rows, cols, Fleet::standard()).expect("IST boards are 10x10 and never empty");

    let count_line = it.next().ok_or(ParseError::at_line(
        col_line.number + 1,
        ParseErrorKind::UnexpectedEnd {
            expected: "the number of hints",
        },
    ))?;
    let (col, token) = count_line.tokens[0];
    let hints = number(count_line.number, col, token, "the number of hints")?;
    if let Some(&(col, extra)) = count_line.tokens.get(1) {
        return Err(ParseError::at(
            count_line.number,
            col,
            ParseErrorKind::Expected {
                expected: "a single number of hints",
                found: Found::new(extra),
            },
        ));
    }
    if hints > SIZE * SIZE {
        return Err(ParseError::at(
            count_line.number,
            col,
            ParseErrorKind::OutOfRange {
                what: "hint count",
                value: hints,
                max: SIZE * SIZE,
            },
        ));
    }

    let mut seen: HashMap<Pos, (usize, Piece)> = HashMap::new();
    let mut given = 0;
    for line in it {
        if given == hints {
            return Err(ParseError::at_line(
                line.number,
                ParseErrorKind::WrongCount {
                    what: "HINT lines (from line 3)",
                    expected: hints,
                    found: given + 1,
                },
            ));
        }
        let (pos, piece) = hint(line)?;
        if let Some(&(first_line, old)) = seen.get(&pos) {
            let kind = if old == piece {
                ParseErrorKind::Duplicate { pos, first_line }
            } else {
                ParseErrorKind::Contradiction { pos, first_line }
            };
            return Err(ParseError::at_line(line.number, kind));
        }
        seen.insert(pos, (line.number, piece));
        puzzle
            .add_clue(pos, Clue::Piece(piece))
            .expect("position checked and not seen before");
        given += 1;
    }
    if given < hints {
        return Err(ParseError::at_line(
            lines.last().map_or(1, |l| l.number + 1),
            ParseErrorKind::WrongCount {
                what: "HINT lines (from line 3)",
                expected: hints,
                found: given,
            },
        ));
    }
    Ok(puzzle)
}

/// Parses `KEYWORD n0 .. n9`.
fn counts(
    line: &Line<'_>,
    keyword: &str,
    expected: &'static str,
) -> Result<Vec<Option<usize>>, ParseError> {
    line.expect_keyword(keyword, expected)?;
    let what = if keyword == "ROW" {
        "row counts"
    } else {
        "column counts"
    };
    line.exactly(1, SIZE, what)?
        .iter()
        .map(|&(col, token)| {
            let n = number(line.number, col, token, "a count (a whole number)")?;
            if n > SIZE {
                return Err(ParseError::at(
                    line.number,
                    col,
                    ParseErrorKind::OutOfRange {
                        what: "count",
                        value: n,
                        max: SIZE,
                    },
                ));
            }
            Ok(Some(n))
        })
        .collect()
}

/// `HINT row col letter`.
const HINT: HintLine = HintLine {
    fields: "fields after HINT (row, column, letter)",
    number,
    piece: piece_of_letter,
    letters: LETTERS,
};

/// Parses `HINT row col letter`.
fn hint(line: &Line<'_>) -> Result<(Pos, Piece), ParseError> {
    line.expect_keyword("HINT", "a line starting with HINT")?;
    HINT.read(line, SIZE, SIZE)
}

fn number(
    line: usize,
    col: usize,
    token: &str,
    expected: &'static str,
) -> Result<usize, ParseError> {
    if !token.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ParseError::at(
            line,
            col,
            ParseErrorKind::Expected {
                expected,
                found: Found::new(token),
            },
        ));
    }
    // A number too large for the machine is shown as written, not as the largest one.
    token.parse().map_err(|_| {
        ParseError::at(
            line,
            col,
            ParseErrorKind::Expected {
                expected: "a number of at most 100",
                found: Found::new(token),
            },
        )
    })
}

/// The piece named by an IST hint letter.
pub fn piece_of_letter(letter: &str) -> Option<Piece> {
    Some(match letter {
        "W" => Piece::Water,
        "C" => Piece::Submarine,
        "T" => Piece::End(Dir::Down),
        "B" => Piece::End(Dir::Up),
        "L" => Piece::End(Dir::Right),
        "R" => Piece::End(Dir::Left),
        "M" => Piece::Middle,
        _ => return None,
    })
}

/// The IST letter of a piece (upper case).
pub(crate) fn letter_of_piece(piece: Piece) -> char {
    match piece {
        Piece::Water => 'W',
        Piece::Submarine => 'C',
        Piece::End(Dir::Down) => 'T',
        Piece::End(Dir::Up) => 'B',
        Piece::End(Dir::Right) => 'L',
        Piece::End(Dir::Left) => 'R',
        Piece::Middle => 'M',
    }
}

/// Writes a solved grid: hinted cells upper case (a water hint is `W`), other ship cells lower
/// case, water `.`, every line ending in `\n`.
pub fn write_solution(puzzle: &Puzzle, grid: &Grid) -> String {
    let mut out = String::with_capacity(grid.rows() * (grid.cols() + 1));
    for r in 0..grid.rows() {
        for c in 0..grid.cols() {
            let pos = Pos::new(r, c);
            let piece = grid.get(pos);
            let ch = match (puzzle.clue(pos).is_some(), piece) {
                (true, p) => letter_of_piece(p),
                (false, Piece::Water) => '.',
                (false, p) => letter_of_piece(p).to_ascii_lowercase(),
            };
            out.push(ch);
        }
        out.push('\n');
    }
    out
}

/// Writes a puzzle in the IST input format (tab-separated, as the official files). Only a
/// 10x10 puzzle with the standard fleet, known counts and typed clues can be written.
pub fn write_puzzle(puzzle: &Puzzle) -> Option<String> {
    if puzzle.rows() != SIZE || puzzle.cols() != SIZE || *puzzle.fleet() != Fleet::standard() {
        return None;
    }
    let line = |name: &str, counts: &[Option<usize>]| -> Option<String> {
        let mut s = name.to_string();
        for c in counts {
            s.push('\t');
            s.push_str(&(*c)?.to_string());
        }
        s.push('\n');
        Some(s)
    };
    let mut out = line("ROW", puzzle.row_counts())?;
    out.push_str(&line("COLUMN", puzzle.col_counts())?);
    out.push_str(&format!("{}\n", puzzle.clue_count()));
    for (pos, clue) in puzzle.clues() {
        let Clue::Piece(piece) = clue else {
            return None;
        };
        out.push_str(&format!(
            "HINT\t{}\t{}\t{}\n",
            pos.row,
            pos.col,
            letter_of_piece(piece)
        ));
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXAMPLE: &str = "ROW\t2\t3\t2\t2\t3\t0\t1\t3\t2\t2\nCOLUMN\t6\t0\t1\t0\t2\t1\t3\t1\t2\t4\n6\nHINT\t0\t0\tT\nHINT\t1\t6\tM\nHINT\t3\t2\tC\nHINT\t6\t0\tW\nHINT\t8\t8\tB\nHINT\t9\t5\tC\n";

    #[test]
    fn parses_the_example_and_writes_it_back() {
        let p = parse(EXAMPLE).unwrap();
        assert_eq!(p.clue_count(), 6);
        assert_eq!(p.clue(Pos::new(1, 6)), Some(Clue::Piece(Piece::Middle)));
        assert_eq!(write_puzzle(&p).unwrap(), EXAMPLE);
    }

    #[test]
    fn accepts_crlf_mixed_whitespace_and_no_final_newline() {
        let messy =
            "ROW\t 2 3\t2 2 3 0 1 3 2 2\r\nCOLUMN 6 0 1 0 2 1 3 1 2 4\r\n\r\n1\r\nHINT 0   0\tT";
        let p = parse(messy).unwrap();
        assert_eq!(
            p.clue(Pos::new(0, 0)),
            Some(Clue::Piece(Piece::End(Dir::Down)))
        );
    }

    fn err(text: &str) -> String {
        parse(text).unwrap_err().to_string()
    }

    #[test]
    fn rejects_bad_input_with_the_line() {
        let head = "ROW 2 3 2 2 3 0 1 3 2 2\nCOLUMN 6 0 1 0 2 1 3 1 2 4\n";
        assert_eq!(err("ROW 1 2\n"), "line 1: expected 10 row counts, found 2");
        assert_eq!(
            err(&format!("{head}1\nHINT 0 10 W\n")),
            "line 4, column 8: cell (0, 10) lies outside the 10x10 board"
        );
        assert_eq!(
            err(&format!("{head}1\nHINT 0 1 X\n")),
            "line 4, column 10: unknown cell letter \"X\", expected one of W C T M B L R"
        );
        assert_eq!(
            err(&format!("{head}2\nHINT 0 1 W\n")),
            "line 5: expected 2 HINT lines (from line 3), found 1"
        );
        assert_eq!(
            err(&format!("{head}1\nHINT 0 1 W\nHINT 0 2 W\n")),
            "line 5: expected 1 HINT lines (from line 3), found 2"
        );
        assert_eq!(
            err("ROW 2 x 2 2 3 0 1 3 2 2\n"),
            "line 1, column 7: expected a count (a whole number), found \"x\""
        );
        assert_eq!(
            err(&format!("{head}2\nHINT 0 1 W\nHINT 0 1 W\n")),
            "line 5: cell (0, 1) is given twice (first on line 4)"
        );
        assert_eq!(
            err(&format!("{head}2\nHINT 0 1 W\nHINT 0 1 C\n")),
            "line 5: cell (0, 1) contradicts the clue on line 4"
        );
        assert_eq!(
            err(""),
            "line 1: unexpected end of input, expected a ROW line"
        );
    }
}
