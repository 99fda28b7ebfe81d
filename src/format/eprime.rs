//! Essence′ parameter files of the demystify project (`eprime/solitairebattleship/*.param`):
//! `letting NAME be VALUE` statements with `$` comments, naming `width`, `height`, `LARGEST`,
//! `num_types` (ships per length), `row_tallies`, `column_tallies` and `hint`, a matrix of
//! codes: 0 water, 1 circle (submarine), 2 middle, 3 top, 4 bottom, 5 right end, 6 left end,
//! 7 no hint, 8 "some ship part".

use super::params::{self, Cursor, HintCodes, ParamValue, Params, Syntax, Tok};
use super::{Found, ParseError, ParseErrorKind, check_board};
use crate::model::limits::Limits;
use crate::model::puzzle::{Clue, Dir, Piece, Puzzle};

/// `letting NAME be VALUE` statements with `$` comments, after an optional `language` line.
pub(super) static SYNTAX: Syntax = Syntax {
    comment: '$',
    header: Some("language"),
    punctuation: &[("[", Tok::Open), ("]", Tok::Close), (",", Tok::Comma)],
    data: "Essence' data (letting NAME be VALUE)",
    lead: Some("letting"),
    sep: "be",
    end: None,
    names: "width height LARGEST num_types row_tallies column_tallies hint",
    not_a_number: "of another shape",
    value,
    build,
};

/// The hint codes of the demystify model.
static HINTS: HintCodes = HintCodes {
    clues: &[
        Some(Clue::Piece(Piece::Water)),
        Some(Clue::Piece(Piece::Submarine)),
        Some(Clue::Piece(Piece::Middle)),
        Some(Clue::Piece(Piece::End(Dir::Down))),
        Some(Clue::Piece(Piece::End(Dir::Up))),
        Some(Clue::Piece(Piece::End(Dir::Left))),
        Some(Clue::Piece(Piece::End(Dir::Right))),
        None,
        Some(Clue::Ship),
    ],
    size: "a hint matrix of one row per row tally and one code per column tally",
    items: "codes",
    shape: "a hint matrix [[...], ...]",
    other: "hint of another shape",
};

/// `[a, b, ...]` of numbers (`nested` false) or of such lists (`nested` true), the `[` read; a
/// trailing comma is allowed, as in the corpus.
fn list(cur: &mut Cursor, nested: bool) -> Result<ParamValue, ParseError> {
    const ITEM: &str = "a number, [ or ]";
    let mut ints = Vec::new();
    let mut rows = Vec::new();
    loop {
        let t = cur.next(ITEM)?;
        match (t.tok(), nested) {
            (Tok::Close, _) => break,
            (Tok::Int(v), false) => ints.push(*v),
            (Tok::Open, true) => match list(cur, false)? {
                ParamValue::List(row) => rows.push(row),
                _ => unreachable!("a flat list holds numbers"),
            },
            _ => {
                return Err(t.unexpected(if nested {
                    "[ (a row of the matrix) or ]"
                } else {
                    "a number or ]"
                }));
            }
        }
        if cur.comma_or_close()? {
            break;
        }
    }
    Ok(if nested {
        ParamValue::Matrix(rows)
    } else {
        ParamValue::List(ints)
    })
}

/// A number, a list of numbers or a list of such lists.
fn value(cur: &mut Cursor) -> Result<ParamValue, ParseError> {
    const VALUE: &str = "a number or a [list]";
    let t = cur.next(VALUE)?;
    match t.tok() {
        Tok::Int(v) => Ok(ParamValue::Int(*v)),
        Tok::Open => {
            let nested = cur.peek() == Some(&Tok::Open);
            list(cur, nested)
        }
        _ => Err(t.unexpected(VALUE)),
    }
}

/// Parses a demystify battleship parameter file within the default limits
/// ([`super::parse_document`] takes others).
pub fn parse(text: &str) -> Result<Puzzle, ParseError> {
    params::parse(text, &SYNTAX, &Limits::default())
}

fn build(params: &Params, limits: &Limits) -> Result<Puzzle, ParseError> {
    let list = |key: &'static str, expected: &'static str| {
        params
            .list(key, expected)?
            .ok_or_else(|| params.missing(expected))
    };
    let (row_line, rows) = list("row_tallies", "letting row_tallies be [...]")?;
    let (col_line, cols) = list("column_tallies", "letting column_tallies be [...]")?;
    let (fleet_line, fleet) = list("num_types", "letting num_types be [...] (ships per length)")?;
    check_board(row_line, rows.len(), cols.len(), limits)?;
    for (key, given, actual) in [
        ("height", params.int("height")?, rows.len()),
        ("width", params.int("width")?, cols.len()),
    ] {
        if let Some((line, v)) = given
            && v != actual
        {
            return Err(ParseError::at_line(
                line,
                ParseErrorKind::Expected {
                    expected: "height = the number of row tallies, width = the number of column tallies",
                    found: Found::new(&format!("{key} {v} for {actual}")),
                },
            ));
        }
    }
    if let Some((line, largest)) = params.int("LARGEST")?
        && largest != fleet.len()
    {
        return Err(ParseError::at_line(
            line,
            ParseErrorKind::WrongCount {
                what: "ship counts in num_types (LARGEST)",
                expected: largest,
                found: fleet.len(),
            },
        ));
    }
    let side = rows.len().max(cols.len());
    if fleet.len() > side && fleet[side..].iter().any(|&c| c > 0) {
        return Err(ParseError::at_line(
            fleet_line,
            ParseErrorKind::OutOfRange {
                what: "ship length",
                value: fleet.len(),
                max: side,
            },
        ));
    }
    params.puzzle((row_line, rows), (col_line, cols), fleet, "tally", &HINTS)
}

/// Whether the first statement (after `$` comments) is `letting NAME be`.
pub(crate) fn looks_eprime(text: &str) -> bool {
    let mut words = text
        .lines()
        .map(|l| l.split('$').next().unwrap_or(""))
        .flat_map(str::split_whitespace)
        .skip_while(|w| *w == "language" || w.starts_with("ESSENCE") || *w == "1.0");
    words.next() == Some("letting") && words.nth(1) == Some("be")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::puzzle::Pos;

    const SMALL: &str = "language ESSENCE' 1.0\nletting LARGEST be 2\n$ a comment\nletting width be 3\nletting height be 2\nletting num_types be [1,1]\nletting row_tallies be [2,1]\nletting column_tallies be [1,1,1]\nletting hint be [ [6,7,7],\n\t[7,7,8], ]\n";

    #[test]
    fn reads_codes_comments_and_a_trailing_comma() {
        assert!(looks_eprime(SMALL));
        let p = parse(SMALL).unwrap();
        assert_eq!((p.rows(), p.cols()), (2, 3));
        assert_eq!(p.fleet().counts(), &[1, 1]);
        assert_eq!(
            p.clue(Pos::new(0, 0)),
            Some(Clue::Piece(Piece::End(Dir::Right)))
        );
        assert_eq!(p.clue(Pos::new(1, 2)), Some(Clue::Ship));
        assert_eq!(p.clue_count(), 2);
    }

    #[test]
    fn rejects_with_line_and_column() {
        let e = |t: &str| parse(t).unwrap_err().to_string();
        assert_eq!(
            e("letting rows be 3"),
            "line 1, column 9: unknown word \"rows\", expected one of width height LARGEST num_types row_tallies column_tallies hint"
        );
        assert_eq!(
            e("letting row_tallies be [1,2"),
            "line 1: unexpected end of input, expected , or ]"
        );
        assert_eq!(
            e(
                "letting row_tallies be [1]\nletting column_tallies be [1]\nletting num_types be [1]\nletting hint be [[9]]"
            ),
            "line 4: hint code 9 is out of range (at most 8)"
        );
        assert_eq!(
            e("letting row_tallies be [1] ;"),
            "line 1, column 28: expected Essence' data (letting NAME be VALUE), found \";\""
        );
        assert_eq!(
            e(
                "letting row_tallies be [1]\nletting column_tallies be [1]\nletting num_types be [0,1]"
            ),
            "line 3: ship length 2 is out of range (at most 1)"
        );
    }
}
