//! The CSC384 `battle.py` format (`csc384-battle-assignment.md`): a row-count digit string, a
//! column-count digit string, a fleet line of ship counts by length, then N rows of N cells.
//! Two cell dialects exist across course editions, letters (`S W L R T B M`) and symbols
//! (`S . < > ^ v M`); `0` is an unknown cell in both. Output keeps the input's dialect.

use super::Inexpressible;
use super::{Found, ParseError, ParseErrorKind, check_board, check_ship_len};
use crate::model::choice::choice;
use crate::model::limits::Limits;
use crate::model::puzzle::{Clue, Dir, Fleet, Grid, Piece, Pos, Puzzle};

choice! {
    /// The two cell alphabets.
    #[non_exhaustive]
    pub enum Dialect {
        /// `S W L R T B M` (the 2022-23 handout).
        Letters,
        /// `S . < > ^ v M` (the 2023-25 handouts).
        Symbols,
    }
}

/// What decided the dialect of an input file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum DialectSource {
    /// A cell written in one dialect only (`W L R T B` or `. < > ^ v`).
    Cells,
    /// No cell told (only `0`, `S`, `M`): the fleet line did. The letter edition wrote only the
    /// ship classes present (`321`); the symbol editions always write four or five digits.
    FleetLine,
}

/// The dialect of an input file and how it was decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DialectChoice {
    /// The dialect.
    pub dialect: Dialect,
    /// What decided it.
    pub source: DialectSource,
}

const LETTERS: &str = "0 S W L R T B M (or 0 S . < > ^ v M)";

impl Dialect {
    /// The character of `piece` in this dialect.
    pub(crate) fn char_of(self, piece: Piece) -> char {
        match (self, piece) {
            (_, Piece::Submarine) => 'S',
            (_, Piece::Middle) => 'M',
            (Dialect::Letters, Piece::Water) => 'W',
            (Dialect::Letters, Piece::End(Dir::Right)) => 'L',
            (Dialect::Letters, Piece::End(Dir::Left)) => 'R',
            (Dialect::Letters, Piece::End(Dir::Down)) => 'T',
            (Dialect::Letters, Piece::End(Dir::Up)) => 'B',
            (Dialect::Symbols, Piece::Water) => '.',
            (Dialect::Symbols, Piece::End(Dir::Right)) => '<',
            (Dialect::Symbols, Piece::End(Dir::Left)) => '>',
            (Dialect::Symbols, Piece::End(Dir::Down)) => '^',
            (Dialect::Symbols, Piece::End(Dir::Up)) => 'v',
        }
    }

    /// The piece written as `ch`, and the dialect that character belongs to (`None` for the
    /// shared `S` and `M`).
    pub fn piece_of(ch: char) -> Option<(Piece, Option<Dialect>)> {
        use Dialect::*;
        Some(match ch {
            'S' => (Piece::Submarine, None),
            'M' => (Piece::Middle, None),
            'W' => (Piece::Water, Some(Letters)),
            'L' => (Piece::End(Dir::Right), Some(Letters)),
            'R' => (Piece::End(Dir::Left), Some(Letters)),
            'T' => (Piece::End(Dir::Down), Some(Letters)),
            'B' => (Piece::End(Dir::Up), Some(Letters)),
            '.' => (Piece::Water, Some(Symbols)),
            '<' => (Piece::End(Dir::Right), Some(Symbols)),
            '>' => (Piece::End(Dir::Left), Some(Symbols)),
            '^' => (Piece::End(Dir::Down), Some(Symbols)),
            'v' => (Piece::End(Dir::Up), Some(Symbols)),
            _ => return None,
        })
    }
}

/// Parses a CSC384 puzzle within `limits` and tells its cell dialect.
pub fn parse(text: &str, limits: &Limits) -> Result<(Puzzle, DialectChoice), ParseError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = text
        .split('\n')
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty());
    let mut last_line = 0;
    let mut next = |expected: &'static str| {
        let line = lines.next();
        match line {
            Some((n, l)) => {
                last_line = n;
                Ok((n, l))
            }
            None => Err(ParseError::at_line(
                last_line + 1,
                ParseErrorKind::UnexpectedEnd { expected },
            )),
        }
    };
    let (n1, l1) = next("the row counts (a digit string)")?;
    let row_counts = counts(n1, l1, "a row count (a digit or ?)")?;
    let size = row_counts.len();
    check_board(n1, size, size, limits)?;
    let (n2, l2) = next("the column counts (a digit string)")?;
    let col_counts = counts(n2, l2, "a column count (a digit or ?)")?;
    if col_counts.len() != size {
        return Err(ParseError::at_line(
            n2,
            ParseErrorKind::WrongCount {
                what: "column counts (the board is square, as many as row counts)",
                expected: size,
                found: col_counts.len(),
            },
        ));
    }
    for (n, list) in [(n1, &row_counts), (n2, &col_counts)] {
        for (i, c) in list.iter().enumerate() {
            if let Some(v) = *c
                && v > size
            {
                return Err(ParseError::at(
                    n,
                    i + 1,
                    ParseErrorKind::OutOfRange {
                        what: "count",
                        value: v,
                        max: size,
                    },
                ));
            }
        }
    }
    let (n3, l3) = next("the fleet line (ship counts by length)")?;
    let mut fleet = Vec::new();
    for (i, ch) in l3.chars().enumerate() {
        let d = ch.to_digit(10).ok_or_else(|| {
            ParseError::at(
                n3,
                i + 1,
                ParseErrorKind::Expected {
                    expected: "a ship count (a digit)",
                    found: Found::new(&ch.to_string()),
                },
            )
        })?;
        fleet.push(d as usize);
    }
    check_ship_len(n3, Some(fleet.len()), fleet.len(), limits)?;
    let fleet_digits = fleet.len();
    let mut puzzle = Puzzle::new(row_counts, col_counts, Fleet::from_counts(fleet))
        .expect("the row line is not empty, so the board is not empty");

    let mut seen: [Option<(usize, usize)>; 2] = [None, None];
    for r in 0..size {
        let (n, line) = next("a row of cells")?;
        let chars: Vec<char> = line.chars().collect();
        if chars.len() != size {
            return Err(ParseError::at_line(
                n,
                ParseErrorKind::WrongCount {
                    what: "cells in this row",
                    expected: size,
                    found: chars.len(),
                },
            ));
        }
        for (c, &ch) in chars.iter().enumerate() {
            if ch == '0' {
                continue;
            }
            let (piece, dialect) = Dialect::piece_of(ch).ok_or_else(|| {
                ParseError::at(
                    n,
                    c + 1,
                    ParseErrorKind::UnknownLetter {
                        found: ch.to_string(),
                        allowed: LETTERS,
                    },
                )
            })?;
            if let Some(d) = dialect {
                let (mine, other) = match d {
                    Dialect::Letters => (0, 1),
                    Dialect::Symbols => (1, 0),
                };
                if let Some((line, _)) = seen[other] {
                    return Err(ParseError::at(
                        n,
                        c + 1,
                        ParseErrorKind::Expected {
                            expected: if other == 0 {
                                "a letter cell (S W L R T B M), as on earlier lines"
                            } else {
                                "a symbol cell (S . < > ^ v M), as on earlier lines"
                            },
                            found: Found::new(&format!("{ch} (the other dialect; line {line})")),
                        },
                    ));
                }
                seen[mine].get_or_insert((n, c + 1));
            }
            puzzle
                .add_clue(Pos::new(r, c), Clue::Piece(piece))
                .expect("each cell is read once and lies on the board");
        }
    }
    if let Some((n, line)) = lines.next() {
        return Err(ParseError::at_line(
            n,
            ParseErrorKind::Expected {
                expected: "the end of the file (all rows were read)",
                found: Found::new(line),
            },
        ));
    }
    let choice = match seen {
        [Some(_), _] => DialectChoice {
            dialect: Dialect::Letters,
            source: DialectSource::Cells,
        },
        [_, Some(_)] => DialectChoice {
            dialect: Dialect::Symbols,
            source: DialectSource::Cells,
        },
        [None, None] => DialectChoice {
            dialect: if fleet_digits < 4 {
                Dialect::Letters
            } else {
                Dialect::Symbols
            },
            source: DialectSource::FleetLine,
        },
    };
    Ok((puzzle, choice))
}

fn counts(
    line: usize,
    text: &str,
    expected: &'static str,
) -> Result<Vec<Option<usize>>, ParseError> {
    text.chars()
        .enumerate()
        .map(|(i, ch)| match ch {
            '?' => Ok(None),
            d if d.is_ascii_digit() => Ok(d.to_digit(10).map(|v| v as usize)),
            other => Err(ParseError::at(
                line,
                i + 1,
                ParseErrorKind::Expected {
                    expected,
                    found: Found::new(&other.to_string()),
                },
            )),
        })
        .collect()
}

/// Writes a solved grid: one line per row, one character per cell, in `dialect`.
pub(crate) fn write_solution(grid: &Grid, dialect: Dialect) -> String {
    let mut out = String::with_capacity(grid.rows() * (grid.cols() + 1));
    for r in 0..grid.rows() {
        for c in 0..grid.cols() {
            out.push(dialect.char_of(grid.get(Pos::new(r, c))));
        }
        out.push('\n');
    }
    out
}

/// Checks that a solution of `puzzle` can be written as CSC384 cells (a square board).
pub(crate) fn check_solution(puzzle: &Puzzle) -> Result<(), Inexpressible> {
    if puzzle.rows() != puzzle.cols() {
        return Err(inexpressible("its boards are square (NxN)"));
    }
    Ok(())
}

fn inexpressible(reason: &'static str) -> Inexpressible {
    Inexpressible {
        format: "csc384",
        reason,
    }
}

/// Writes `puzzle` as a CSC384 input file in `dialect`. Unknown counts are written `?` (an
/// extension of the format). Fails for non-square boards, counts of 10 or more (each count is
/// one digit) and clues that only say "some ship part".
pub fn write_puzzle(puzzle: &Puzzle, dialect: Dialect) -> Result<String, Inexpressible> {
    check_solution(puzzle)?;
    let digits = |counts: &[Option<usize>]| -> Result<String, Inexpressible> {
        counts
            .iter()
            .map(|c| match c {
                None => Ok('?'),
                Some(v) => char::from_digit(*v as u32, 10)
                    .filter(|_| *v < 10)
                    .ok_or_else(|| inexpressible("a count of 10 or more needs two digits")),
            })
            .collect()
    };
    let mut out = digits(puzzle.row_counts())?;
    out.push('\n');
    out.push_str(&digits(puzzle.col_counts())?);
    out.push('\n');
    let fleet: Vec<Option<usize>> = puzzle.fleet().counts().iter().map(|&c| Some(c)).collect();
    if fleet.is_empty() {
        out.push('0');
    } else {
        out.push_str(&digits(&fleet).map_err(|_| {
            inexpressible("a fleet with 10 or more ships of one length needs two digits")
        })?);
    }
    out.push('\n');
    for r in 0..puzzle.rows() {
        for c in 0..puzzle.cols() {
            out.push(match puzzle.clue(Pos::new(r, c)) {
                None => '0',
                Some(Clue::Piece(p)) => dialect.char_of(p),
                Some(Clue::Ship) => {
                    return Err(inexpressible("it has no cell for \"some ship part\" clues"));
                }
            });
        }
        out.push('\n');
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LETTER_INPUT: &str =
        "403201\r\n213103\r\n321\r\n000000\r\n000000\r\n000W00\r\n000000\r\n000000\r\nS00000";

    #[test]
    fn reads_letters_with_crlf_and_no_final_newline() {
        let (p, d) = parse(LETTER_INPUT, &Limits::default()).unwrap();
        assert_eq!(d.dialect, Dialect::Letters);
        assert_eq!(d.source, DialectSource::Cells);
        assert_eq!(p.rows(), 6);
        assert_eq!(p.fleet().counts(), &[3, 2, 1]);
        assert_eq!(p.clue(Pos::new(5, 0)), Some(Clue::Piece(Piece::Submarine)));
        assert_eq!(p.clue(Pos::new(2, 3)), Some(Clue::Piece(Piece::Water)));
        let back = write_puzzle(&p, Dialect::Letters).unwrap();
        assert_eq!(parse(&back, &Limits::default()).map(|(p, _)| p).unwrap(), p);
    }

    #[test]
    fn dialect_falls_back_on_the_fleet_line() {
        let sym = "11\n11\n1000\n00\n0S\n";
        assert_eq!(
            parse(sym, &Limits::default()).unwrap().1,
            DialectChoice {
                dialect: Dialect::Symbols,
                source: DialectSource::FleetLine
            }
        );
        let let_ = "11\n11\n1\n00\n0S\n";
        assert_eq!(
            parse(let_, &Limits::default()).unwrap().1.dialect,
            Dialect::Letters
        );
    }

    #[test]
    fn rejects_with_line_and_column() {
        let e = |t: &str| {
            parse(t, &Limits::default())
                .map(|(p, _)| p)
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            e("11\n1\n1\n00\n00\n"),
            "line 2: expected 2 column counts (the board is square, as many as row counts), found 1"
        );
        assert_eq!(
            e("11\n11\n1\n0W\n.0\n"),
            "line 5, column 1: expected a letter cell (S W L R T B M), as on earlier lines, found \". (the other dialect; line 4)\""
        );
        assert_eq!(
            e("11\n11\n1\n0x\n00\n"),
            "line 4, column 2: unknown cell letter \"x\", expected one of 0 S W L R T B M (or 0 S . < > ^ v M)"
        );
        assert_eq!(
            e("11\n11\n1\n00\n"),
            "line 5: unexpected end of input, expected a row of cells"
        );
        assert_eq!(
            e("13\n11\n1\n00\n00"),
            "line 1, column 2: count 3 is out of range (at most 2)"
        );
        assert_eq!(
            e("11\n11\n1\n00\n00\n00\n"),
            "line 6: expected the end of the file (all rows were read), found \"00\""
        );
    }

    #[test]
    fn refuses_what_it_cannot_write() {
        let p = Puzzle::new(vec![Some(10); 11], vec![Some(0); 11], Fleet::standard()).unwrap();
        assert!(matches!(
            write_puzzle(&p, Dialect::Symbols),
            Err(Inexpressible { .. })
        ));
        let q = Puzzle::new(vec![Some(1); 2], vec![Some(0); 3], Fleet::standard()).unwrap();
        assert!(write_puzzle(&q, Dialect::Symbols).is_err());
    }
}
