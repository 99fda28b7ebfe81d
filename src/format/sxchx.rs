//! The input of sxchx/Heuristic-Battleship-Solitaire (`BS-N-N-K.txt`): three lines of
//! space-separated numbers, the ship lengths, the ship cells of each column ("xHits") and of
//! each row ("yHits"). The board is square (the program refuses anything else) and has no hints.

use super::{Found, Line, ParseError, ParseErrorKind, check_board, count_or_unknown, tokenize};
use crate::model::limits::Limits;
use crate::model::puzzle::{Fleet, Puzzle};

/// Whether the text is exactly three lines of space-separated numbers, the last two of equal
/// length (at least two numbers each).
pub(crate) fn looks_sxchx(text: &str) -> bool {
    let lines = tokenize(text);
    let numeric = |l: &Line<'_>| {
        l.tokens
            .iter()
            .all(|(_, t)| t.bytes().all(|b| b.is_ascii_digit()))
    };
    lines.len() == 3
        && lines.iter().all(numeric)
        && lines[1].tokens.len() >= 2
        && lines[1].tokens.len() == lines[2].tokens.len()
}

/// Parses a puzzle file within `limits`.
pub fn parse(text: &str, limits: &Limits) -> Result<Puzzle, ParseError> {
    let lines = tokenize(text.strip_prefix('\u{feff}').unwrap_or(text));
    let expected = [
        "the ship lengths",
        "the column counts (xHits)",
        "the row counts (yHits)",
    ];
    for (i, what) in expected.iter().enumerate() {
        if lines.len() <= i {
            return Err(ParseError::at_line(
                lines.last().map_or(1, |l| l.number + 1),
                ParseErrorKind::UnexpectedEnd { expected: what },
            ));
        }
    }
    if let Some(extra) = lines.get(3) {
        return Err(ParseError::at(
            extra.number,
            extra.tokens[0].0,
            ParseErrorKind::Expected {
                expected: "the end of the file (three lines)",
                found: Found::new(extra.tokens[0].1),
            },
        ));
    }
    let (ships, cols_line, rows_line) = (&lines[0], &lines[1], &lines[2]);
    let n = cols_line.tokens.len();
    if rows_line.tokens.len() != n {
        return Err(ParseError::at_line(
            rows_line.number,
            ParseErrorKind::WrongCount {
                what: "row counts (the board is square, as many as column counts)",
                expected: n,
                found: rows_line.tokens.len(),
            },
        ));
    }
    check_board(cols_line.number, n, n, limits)?;
    let counts = |line: &Line<'_>| {
        line.tokens
            .iter()
            .map(|&(c, t)| count_or_unknown(line.number, c, t, n))
            .collect::<Result<Vec<_>, _>>()
    };
    let col_counts = counts(cols_line)?;
    let row_counts = counts(rows_line)?;
    let mut fleet = vec![0; n];
    for &(c, t) in &ships.tokens {
        let len = super::whole_number(ships.number, c, t, "a ship length (a whole number)")?;
        if len == 0 || len > n {
            return Err(ParseError::at(
                ships.number,
                c,
                ParseErrorKind::OutOfRange {
                    what: "ship length",
                    value: len,
                    max: n,
                },
            ));
        }
        fleet[len - 1] += 1;
    }
    Ok(
        Puzzle::new(row_counts, col_counts, Fleet::from_counts(fleet))
            .expect("the size was checked non-zero"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_two_is_the_columns() {
        let text = "3 2 2 1 1 1\n1 2 1 1 3 2\n0 3 1 3 0 3\n";
        assert!(looks_sxchx(text));
        let p = parse(text, &Limits::default()).unwrap();
        assert_eq!(p.fleet().counts(), &[3, 2, 1]);
        assert_eq!(p.col_counts()[0], Some(1));
        assert_eq!(p.row_counts()[0], Some(0));
    }

    #[test]
    fn rejects_with_line_and_column() {
        let e = |t: &str| parse(t, &Limits::default()).unwrap_err().to_string();
        assert_eq!(
            e("3\n1 1\n1 1\n"),
            "line 1, column 1: ship length 3 is out of range (at most 2)"
        );
        assert_eq!(
            e("1\n1 1\n1\n"),
            "line 3: expected 2 row counts (the board is square, as many as column counts), found 1"
        );
        assert_eq!(
            e("1\n1 1\n"),
            "line 3: unexpected end of input, expected the row counts (yHits)"
        );
        assert_eq!(
            e("1\n1 x\n1 1\n"),
            "line 2, column 3: expected a count (a whole number or ?), found \"x\""
        );
    }
}
