//! The RPI CSCI-1200 "Battleship Recursion" format: `board R C`, `rows ...`, `cols ...` (`?`
//! for an unknown count), one ship name per line (`submarine` 1 ... `tanker` 7) and
//! `constraint r c ch` clues (`o < > ^ v X _`). Its solutions are `Solution:` blocks: the ships,
//! then the board in a `+---+` box with the row counts at the right and the column counts below.

use super::Inexpressible;
use super::{
    ClueLines, Found, HintLine, Line, ParseError, ParseErrorKind, check_board, count_or_unknown,
    tokenize, whole_number,
};
use crate::model::limits::Limits;
use crate::model::puzzle::{Clue, Dir, Fleet, Grid, Orientation, Piece, Pos, Puzzle};

/// The ship names of the assignment, by length (index 0 is length 1).
pub(crate) const SHIP_NAMES: [&str; 7] = [
    "submarine",
    "destroyer",
    "cruiser",
    "battleship",
    "carrier",
    "cargo",
    "tanker",
];

const CONSTRAINT_CHARS: &str = "o < > ^ v X _";

/// The piece of a constraint character (`_` water, `X` middle).
fn piece_of(ch: &str) -> Option<Piece> {
    Some(match ch {
        "_" => Piece::Water,
        "o" => Piece::Submarine,
        "<" => Piece::End(Dir::Right),
        ">" => Piece::End(Dir::Left),
        "^" => Piece::End(Dir::Down),
        "v" => Piece::End(Dir::Up),
        "X" => Piece::Middle,
        _ => return None,
    })
}

/// The character of a solved cell (water is a space).
fn char_of(piece: Piece) -> char {
    match piece {
        Piece::Water => ' ',
        Piece::Submarine => 'o',
        Piece::End(Dir::Right) => '<',
        Piece::End(Dir::Left) => '>',
        Piece::End(Dir::Down) => '^',
        Piece::End(Dir::Up) => 'v',
        Piece::Middle => 'X',
    }
}

/// Whether the first word of `text` is `board` followed by two numbers.
pub(crate) fn looks_rpi(text: &str) -> bool {
    let mut words = text.split_whitespace();
    words.next() == Some("board")
        && words
            .take(2)
            .filter(|w| w.bytes().all(|b| b.is_ascii_digit()))
            .count()
            == 2
}

fn keyword_line<'a>(
    line: Option<&'a Line<'a>>,
    after: usize,
    keyword: &'static str,
    expected: &'static str,
) -> Result<&'a Line<'a>, ParseError> {
    let line = line.ok_or(ParseError::at_line(
        after + 1,
        ParseErrorKind::UnexpectedEnd { expected },
    ))?;
    line.expect_keyword(keyword, expected)?;
    Ok(line)
}

/// Parses an RPI puzzle within `limits`.
pub fn parse(text: &str, limits: &Limits) -> Result<Puzzle, ParseError> {
    let lines = tokenize(text.strip_prefix('\u{feff}').unwrap_or(text));
    let mut it = lines.iter();
    let board = keyword_line(it.next(), 0, "board", "board ROWS COLUMNS")?;
    let size = board.exactly(1, 2, "numbers after board")?;
    let rows = whole_number(board.number, size[0].0, size[0].1, "a row number")?;
    let cols = whole_number(board.number, size[1].0, size[1].1, "a column number")?;
    check_board(board.number, rows, cols, limits)?;
    let counts = |line: &Line<'_>, want: usize, max: usize, what: &'static str| {
        line.exactly(1, want, what)?
            .iter()
            .map(|&(c, t)| count_or_unknown(line.number, c, t, max))
            .collect::<Result<Vec<_>, _>>()
    };
    let row_line = keyword_line(it.next(), board.number, "rows", "rows COUNT ...")?;
    let row_counts = counts(row_line, rows, cols, "row counts")?;
    let col_line = keyword_line(it.next(), row_line.number, "cols", "cols COUNT ...")?;
    let col_counts = counts(col_line, cols, rows, "column counts")?;

    let mut fleet = vec![0usize; SHIP_NAMES.len()];
    let mut clues: Vec<(usize, usize, Pos, Piece)> = Vec::new();
    for line in it {
        let (col, first) = line.tokens[0];
        if first == "constraint" {
            let (pos, piece) = CONSTRAINT.read(line, rows, cols)?;
            clues.push((line.number, col, pos, piece));
            continue;
        }
        let Some(len) = SHIP_NAMES.iter().position(|n| *n == first) else {
            return Err(ParseError::at(
                line.number,
                col,
                ParseErrorKind::Expected {
                    expected: if first == "unknown" {
                        "a ship of known length (unknown-length ships are not supported)"
                    } else {
                        "a ship name (submarine destroyer cruiser battleship carrier cargo tanker) or constraint"
                    },
                    found: Found::new(first),
                },
            ));
        };
        if let Some(&(c, extra)) = line.tokens.get(1) {
            return Err(ParseError::at(
                line.number,
                c,
                ParseErrorKind::Expected {
                    expected: "one ship name per line",
                    found: Found::new(extra),
                },
            ));
        }
        if len + 1 > rows.max(cols) {
            return Err(ParseError::at(
                line.number,
                col,
                ParseErrorKind::OutOfRange {
                    what: "ship length",
                    value: len + 1,
                    max: rows.max(cols),
                },
            ));
        }
        fleet[len] += 1;
    }
    let mut puzzle = Puzzle::new(row_counts, col_counts, Fleet::from_counts(fleet))
        .expect("the size was checked non-zero");
    let mut given = ClueLines::default();
    for (line, col, pos, piece) in clues {
        given.add(&mut puzzle, pos, Clue::Piece(piece), line, Some(col))?;
    }
    Ok(puzzle)
}

/// `constraint row col ch`.
const CONSTRAINT: HintLine = HintLine {
    fields: "fields after constraint (row, column, character)",
    number: whole_number,
    piece: piece_of,
    letters: CONSTRAINT_CHARS,
};

/// Reads every board drawing of a solution file (`out_*.txt`): the `|...|` rows between two
/// `+---+` lines. Ship lists, counts and the closing `Found N solution(s)` are not needed.
pub fn parse_solutions(text: &str) -> Result<Vec<Grid>, ParseError> {
    let mut grids = Vec::new();
    let mut open: Option<(usize, usize, Vec<bool>)> = None;
    for (i, raw) in text.split('\n').enumerate() {
        let number = i + 1;
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        if line.starts_with('+') && line.ends_with('+') && line.len() >= 2 {
            let width = line.chars().count() - 2;
            match open.take() {
                None => open = Some((width, 0, Vec::new())),
                Some((w, rows, cells)) => {
                    if rows == 0 || Limits::default().board(rows, w).is_err() {
                        return Err(ParseError::at_line(
                            number,
                            ParseErrorKind::Expected {
                                expected: "a board drawing of at least one row",
                                found: Found::new(line),
                            },
                        ));
                    }
                    let grid = Grid::from_ship_cells(rows, w, &cells).ok_or_else(|| {
                        ParseError::at_line(
                            number,
                            ParseErrorKind::Expected {
                                expected: "a drawing of straight ships",
                                found: Found::new("ship cells in an L or T shape"),
                            },
                        )
                    })?;
                    grids.push(grid);
                }
            }
            continue;
        }
        let Some((width, rows, cells)) = open.as_mut() else {
            continue;
        };
        let inner: Vec<char> = line.chars().skip(1).take(*width).collect();
        if !line.starts_with('|')
            || inner.len() != *width
            || line.chars().nth(*width + 1) != Some('|')
        {
            return Err(ParseError::at_line(
                number,
                ParseErrorKind::Expected {
                    expected: "a board row |...| as wide as the box",
                    found: Found::new(line),
                },
            ));
        }
        for (k, ch) in inner.into_iter().enumerate() {
            match ch {
                ' ' => cells.push(false),
                'o' | '<' | '>' | '^' | 'v' | 'X' => cells.push(true),
                other => {
                    return Err(ParseError::at(
                        number,
                        k + 2,
                        ParseErrorKind::UnknownLetter {
                            found: other.to_string(),
                            allowed: "space o < > ^ v X",
                        },
                    ));
                }
            }
        }
        *rows += 1;
    }
    if let Some((_, rows, _)) = open {
        return Err(ParseError::at_line(
            text.split('\n').count(),
            ParseErrorKind::UnexpectedEnd {
                expected: if rows == 0 {
                    "the board rows"
                } else {
                    "the +---+ line closing the board"
                },
            },
        ));
    }
    Ok(grids)
}

/// Checks that a solution of `puzzle` can be written with the assignment's ship names (ships
/// of at most seven cells).
pub(crate) fn check_solution(puzzle: &Puzzle) -> Result<(), Inexpressible> {
    if puzzle.fleet().max_len() > SHIP_NAMES.len() {
        return Err(Inexpressible {
            format: "rpi",
            reason: "its ships are named, and the longest name (tanker) is 7 cells",
        });
    }
    Ok(())
}

/// Writes a solution as the assignment's program prints it: `Solution:`, the ships in reading
/// order of their first cell (`name row col [horizontal|vertical]`), the board in a box with
/// the row counts at the right, the column counts below (`?` where unknown).
pub(crate) fn write_solution(puzzle: &Puzzle, grid: &Grid) -> String {
    let text = |c: Option<usize>| c.map_or_else(|| "?".to_string(), |v| v.to_string());
    let mut out = String::from("Solution:\n");
    for ship in grid.ships() {
        let name = SHIP_NAMES.get(ship.len - 1).copied().unwrap_or("ship");
        out.push_str(&format!("{name:<11}{} {}", ship.start.row, ship.start.col));
        if ship.len > 1 {
            out.push_str(match ship.orientation {
                Orientation::Horizontal => " horizontal",
                Orientation::Vertical => " vertical",
            });
        }
        out.push('\n');
    }
    let edge = format!("+{}+\n", "-".repeat(grid.cols()));
    out.push_str(&edge);
    for r in 0..grid.rows() {
        out.push('|');
        for c in 0..grid.cols() {
            out.push(char_of(grid.get(Pos::new(r, c))));
        }
        out.push('|');
        out.push_str(&text(puzzle.row_counts().get(r).copied().flatten()));
        out.push('\n');
    }
    out.push_str(&edge);
    out.push(' ');
    for c in puzzle.col_counts() {
        out.push_str(&text(*c));
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "board 4 5\nrows 4 0 2 1\ncols 1 2 1 2 1\ncruiser\ndestroyer\nsubmarine\nsubmarine\nconstraint 0 2 <\n";

    #[test]
    fn reads_the_sample_and_writes_a_solution_back() {
        let p = parse(SAMPLE, &Limits::default()).unwrap();
        assert_eq!((p.rows(), p.cols()), (4, 5));
        assert_eq!(p.fleet().counts(), &[2, 1, 1]);
        assert_eq!(
            p.clue(Pos::new(0, 2)),
            Some(Clue::Piece(Piece::End(Dir::Right)))
        );
        let drawing =
            "Solution:\n+-----+\n|o <X>|4\n|     |0\n| ^ o |2\n| v   |1\n+-----+\n 12121\n";
        let grids = parse_solutions(drawing).unwrap();
        assert_eq!(grids.len(), 1);
        let text = write_solution(&p, &grids[0]);
        assert!(text.starts_with("Solution:\nsubmarine  0 0\ncruiser    0 2 horizontal\n"));
        assert!(text.ends_with(&drawing["Solution:\n".len()..]));
    }

    #[test]
    fn rejects_with_line_and_column() {
        let e = |t: &str| parse(t, &Limits::default()).unwrap_err().to_string();
        assert_eq!(
            e("board 1 2\nrows 1\ncols 1 0\nunknown\n"),
            "line 4, column 1: expected a ship of known length (unknown-length ships are not supported), found \"unknown\""
        );
        assert_eq!(
            e("board 1 2\nrows 1\ncols 1 0\nconstraint 0 2 o\n"),
            "line 4, column 14: cell (0, 2) lies outside the 1x2 board"
        );
        assert_eq!(
            e("board 1 2\nrows 1\ncols 1 0\nconstraint 0 1 #\n"),
            "line 4, column 16: unknown cell letter \"#\", expected one of o < > ^ v X _"
        );
        assert_eq!(
            e("board 2000 2000\n"),
            "line 1: the board has 4000000 cells (rows x columns), over the limit of 1000000"
        );
        assert_eq!(
            e("board 1 2\nrows 1 1\n"),
            "line 2: expected 1 row counts, found 2"
        );
        assert_eq!(
            e("board 1 2\nrows 1\ncols 1 0\ntanker\n"),
            "line 4, column 1: ship length 7 is out of range (at most 2)"
        );
    }
}
