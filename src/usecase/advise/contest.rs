//! The Rowan 2013 contest's text format: reading its input (a data-set count, then for each
//! data set a ship count, the ship letters and ten board rows) and writing its output
//! (`Analyzing D data set(s)`, `Data Set N`, `Best Move Value: V at G4, ...`). Rows and the
//! letter line may be written with or without spaces, as the contest's samples show; any
//! mistake is a [`ParseError`] naming the line. The ships missing from a data set's list
//! afloat are sunk, so its squares marked sunk must be exactly theirs.

use super::board::{Position, SIZE, ShipKind, ShotBoard, Square, SquareMark};
use super::posterior::{Options, PosteriorError, PosteriorMethod, TouchRule, posterior};
use super::rowan::Advice;
use crate::format::{Found, Line, ParseError, ParseErrorKind, tokenize};

/// A parsed contest input: its data sets in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Contest {
    /// One position per data set.
    pub data_sets: Vec<Position>,
    /// The line each data set starts on (its number of ships afloat), counted from 1.
    pub lines: Vec<usize>,
}

/// Parses contest input.
pub fn parse(text: &str) -> Result<Contest, ParseError> {
    let lines = tokenize(text);
    let mut rest = lines.iter();
    let first = rest.next().ok_or(ParseError::at_line(
        1,
        ParseErrorKind::UnexpectedEnd {
            expected: "the number of data sets",
        },
    ))?;
    let count = single_number(first, "the number of data sets (a whole number, 1 or more)")?;
    if count == 0 {
        return Err(ParseError::at(
            first.number,
            first.tokens[0].0,
            ParseErrorKind::Expected {
                expected: "the number of data sets (a whole number, 1 or more)",
                found: Found::new(first.tokens[0].1),
            },
        ));
    }
    let last_line = lines.last().map_or(1, |l| l.number);
    let mut data_sets = Vec::with_capacity(count.min(64));
    let mut starts = Vec::with_capacity(count.min(64));
    for _ in 0..count {
        let Some(ships_line) = rest.next() else {
            return Err(ParseError::at_line(
                first.number,
                ParseErrorKind::WrongCount {
                    what: "data sets",
                    expected: count,
                    found: data_sets.len(),
                },
            ));
        };
        data_sets.push(data_set(ships_line, &mut rest, last_line)?);
        starts.push(ships_line.number);
    }
    if let Some(extra) = rest.next() {
        return Err(ParseError::at(
            extra.number,
            extra.tokens[0].0,
            ParseErrorKind::Expected {
                expected: "the end of input (every data set announced on the first line is read)",
                found: Found::new(extra.tokens[0].1),
            },
        ));
    }
    Ok(Contest {
        data_sets,
        lines: starts,
    })
}

/// Whether some arrangement of each data set's ships afloat fits its board under `rule`, as
/// `/api/advise` decides it (the quick posterior finds no configuration): a board none fits is
/// bad input, named by the line its data set starts on, like a mistake in the text.
pub fn check_arrangeable(contest: &Contest, rule: TouchRule) -> Result<(), ParseError> {
    let opts = Options {
        rule,
        method: PosteriorMethod::Quick,
        ..Options::default()
    };
    for (pos, &line) in contest.data_sets.iter().zip(&contest.lines) {
        if let Err(PosteriorError::Inconsistent) = posterior(pos, &opts) {
            return Err(ParseError::at_line(line, ParseErrorKind::NoArrangement));
        }
    }
    Ok(())
}

fn data_set<'a>(
    ships_line: &Line<'_>,
    rest: &mut impl Iterator<Item = &'a Line<'a>>,
    last_line: usize,
) -> Result<Position, ParseError> {
    const SHIP_COUNT: &str = "the number of ships afloat (1 to 5)";
    let n = single_number(ships_line, SHIP_COUNT)?;
    if !(1..=ShipKind::FLEET.len()).contains(&n) {
        return Err(ParseError::at(
            ships_line.number,
            ships_line.tokens[0].0,
            ParseErrorKind::Expected {
                expected: SHIP_COUNT,
                found: Found::new(ships_line.tokens[0].1),
            },
        ));
    }
    let end = |expected| ParseError::at_line(last_line, ParseErrorKind::UnexpectedEnd { expected });
    let letters_line = rest
        .next()
        .ok_or_else(|| end("the letters of the ships afloat"))?;
    let ships = letters(letters_line, n)?;
    let mut board = ShotBoard::new();
    for row in 0..SIZE {
        let line = rest
            .next()
            .ok_or_else(|| end("a board row (10 rows per data set)"))?;
        let marks = chars(line);
        for &(col, c) in &marks {
            if SquareMark::from_digit(c).is_none() {
                return Err(ParseError::at(
                    line.number,
                    col,
                    ParseErrorKind::UnknownLetter {
                        found: c.to_string(),
                        allowed: "0 (empty), 1 (miss), 2 (hit), 3 (sunk)",
                    },
                ));
            }
        }
        if marks.len() != SIZE {
            return Err(ParseError::at_line(
                line.number,
                ParseErrorKind::WrongCount {
                    what: "squares in a board row",
                    expected: SIZE,
                    found: marks.len(),
                },
            ));
        }
        for (col, &(_, c)) in marks.iter().enumerate() {
            if let Some(mark) = SquareMark::from_digit(c) {
                board.set(Square::new(row, col), mark);
            }
        }
    }
    let position = Position { ships, board };
    if !position.sunk_squares_fit() {
        let gone = position.sunk_ships();
        let letters: Vec<String> = gone.iter().map(|k| k.letter().to_string()).collect();
        return Err(ParseError::at_line(
            letters_line.number,
            ParseErrorKind::SunkShips {
                ships: if gone.is_empty() {
                    "none".into()
                } else {
                    letters.join(", ")
                },
                cells: gone.iter().map(|k| k.len()).sum(),
                marked: position.board.bits(SquareMark::Sunk).count_ones() as usize,
            },
        ));
    }
    Ok(position)
}

/// The line's characters other than spaces, each with its 1-based column.
fn chars(line: &Line<'_>) -> Vec<(usize, char)> {
    line.tokens
        .iter()
        .flat_map(|&(col, tok)| tok.chars().enumerate().map(move |(i, c)| (col + i, c)))
        .collect()
}

fn letters(line: &Line<'_>, n: usize) -> Result<Vec<ShipKind>, ParseError> {
    let mut ships: Vec<ShipKind> = Vec::new();
    let found = chars(line);
    for &(col, c) in &found {
        let Some(kind) = ShipKind::from_letter(c) else {
            return Err(ParseError::at(
                line.number,
                col,
                ParseErrorKind::UnknownLetter {
                    found: c.to_string(),
                    allowed: "A, B, D, S, P",
                },
            ));
        };
        if ships.contains(&kind) {
            return Err(ParseError::at(
                line.number,
                col,
                ParseErrorKind::Expected {
                    expected: "each ship letter at most once",
                    found: Found::new(&c.to_string()),
                },
            ));
        }
        ships.push(kind);
    }
    if ships.len() != n {
        return Err(ParseError::at_line(
            line.number,
            ParseErrorKind::WrongCount {
                what: "ship letters (the line above gives the count)",
                expected: n,
                found: ships.len(),
            },
        ));
    }
    Ok(ships)
}

fn single_number(line: &Line<'_>, expected: &'static str) -> Result<usize, ParseError> {
    let (col, tok) = line.tokens[0];
    if let Some(&(col2, extra)) = line.tokens.get(1) {
        return Err(ParseError::at(
            line.number,
            col2,
            ParseErrorKind::Expected {
                expected: "the end of the line after a single number",
                found: Found::new(extra),
            },
        ));
    }
    tok.parse().map_err(|_| {
        ParseError::at(
            line.number,
            col,
            ParseErrorKind::Expected {
                expected,
                found: Found::new(tok),
            },
        )
    })
}

/// Writes the contest's output for one advice per data set.
pub fn write_report(advice: &[Advice]) -> String {
    let mut s = format!("Analyzing {} data set(s)\n", advice.len());
    for (i, a) in advice.iter().enumerate() {
        s.push_str(&format!("Data Set {}\n", i + 1));
        s.push_str(&best_move_line(a));
        s.push('\n');
    }
    s
}

/// `Best Move Value: V at G4, H5` (or a note that no ship fits the board).
pub(crate) fn best_move_line(a: &Advice) -> String {
    if a.squares.is_empty() {
        return "Best Move Value: 0 (no ship afloat fits this board)".to_string();
    }
    let list: Vec<String> = a.squares.iter().map(Square::to_string).collect();
    format!("Best Move Value: {} at {}", a.value, list.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    const BOARD: &str = "0 0 0 0 0 0 0 0 0 0\n";

    fn input(head: &str, rows: usize) -> String {
        let mut s = head.to_string();
        for _ in 0..rows {
            s.push_str(BOARD);
        }
        s
    }

    #[test]
    fn reads_spaced_and_packed_rows_alike() {
        let spaced = parse(&input("1\n5\nA B D S P\n", 10)).unwrap();
        let mut text = "1\n5\nABDSP\n".to_string();
        for _ in 0..10 {
            text.push_str("0000000000\n");
        }
        assert_eq!(parse(&text).unwrap(), spaced);
        assert_eq!(
            spaced.data_sets[0].ships,
            [
                ShipKind::Carrier,
                ShipKind::Battleship,
                ShipKind::Destroyer,
                ShipKind::Submarine,
                ShipKind::PtBoat
            ]
        );
    }

    #[test]
    fn errors_name_the_line() {
        let short_row = input("1\n1\nP\n", 10).replacen(BOARD, "0 0 0\n", 1);
        let e = parse(&short_row).unwrap_err();
        assert_eq!(e.line, 4);
        assert!(matches!(
            e.kind,
            ParseErrorKind::WrongCount { found: 3, .. }
        ));

        let e = parse(&input("1\n1\nX\n", 10)).unwrap_err();
        assert_eq!((e.line, e.column), (3, Some(1)));

        let e = parse(&input("2\n5\nABDSP\n", 10)).unwrap_err();
        assert_eq!(e.line, 1);
        assert!(matches!(
            e.kind,
            ParseErrorKind::WrongCount {
                expected: 2,
                found: 1,
                ..
            }
        ));

        let e = parse(&input("1\n2\nP\n", 10)).unwrap_err();
        assert_eq!(e.line, 3);

        let e = parse(&(input("1\n5\nABDSP\n", 10) + "1\n")).unwrap_err();
        assert_eq!(e.line, 14);

        let e = parse(&input("1\n1\nP\n", 10).replacen("0 0 0 0", "0 0 4 0", 1)).unwrap_err();
        assert_eq!((e.line, e.column), (4, Some(5)));

        // One square marked sunk, and the PT boat (two squares) no longer afloat.
        let one = input("1\n4\nA B D S\n", 10).replacen(BOARD, "0 0 3 0 0 0 0 0 0 0\n", 1);
        let e = parse(&one).unwrap_err();
        assert_eq!(e.line, 3);
        assert_eq!(
            e.kind,
            ParseErrorKind::SunkShips {
                ships: "P".into(),
                cells: 2,
                marked: 1
            }
        );
        assert!(
            e.to_string()
                .contains("cannot hold the ships no longer afloat (P: 2")
        );
        // The PT boat's two squares side by side are what its sinking leaves.
        let two = input("1\n4\nA B D S\n", 10).replacen(BOARD, "0 0 3 3 0 0 0 0 0 0\n", 1);
        assert!(parse(&two).is_ok());
    }
}
