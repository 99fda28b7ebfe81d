//! Essence′ parameter files of the demystify project (`eprime/solitairebattleship/*.param`):
//! `letting NAME be VALUE` statements with `$` comments, naming `width`, `height`, `LARGEST`,
//! `num_types` (ships per length), `row_tallies`, `column_tallies` and `hint`, a matrix of
//! codes: 0 water, 1 circle (submarine), 2 middle, 3 top, 4 bottom, 5 right end, 6 left end,
//! 7 no hint, 8 "some ship part".

use super::{Found, ParseError, ParseErrorKind, check_board};
use crate::puzzle::{Clue, Dir, Fleet, Piece, Pos, Puzzle};

/// The largest board read, checked before anything is allocated.
pub const MAX_CELLS: usize = 1_000_000;

/// The names a file may set.
const NAMES: &str = "width height LARGEST num_types row_tallies column_tallies hint";

/// A token with its 1-based line and column.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    Word(String),
    Int(usize),
    Open,
    Close,
    Comma,
}

struct Lexed {
    tok: Tok,
    line: usize,
    col: usize,
}

fn lex(text: &str) -> Result<Vec<Lexed>, ParseError> {
    let mut out = Vec::new();
    for (i, raw) in text.split('\n').enumerate() {
        let line = i + 1;
        let code = raw.split('$').next().unwrap_or("");
        if code.split_whitespace().next() == Some("language") {
            // `language ESSENCE' 1.0`
            continue;
        }
        let chars: Vec<char> = code.chars().collect();
        let mut k = 0;
        while k < chars.len() {
            let ch = chars[k];
            let col = k + 1;
            let (tok, len) = match ch {
                c if c.is_whitespace() || c == '\u{feff}' => {
                    k += 1;
                    continue;
                }
                '[' => (Tok::Open, 1),
                ']' => (Tok::Close, 1),
                ',' => (Tok::Comma, 1),
                c if c.is_ascii_digit() => {
                    let digits: String = chars[k..]
                        .iter()
                        .take_while(|c| c.is_ascii_digit())
                        .collect();
                    let n = digits.len();
                    let v = super::whole_number(line, col, &digits, "a number below 1000000000")?;
                    (Tok::Int(v), n)
                }
                c if c.is_ascii_alphabetic() || c == '_' => {
                    let word: String = chars[k..]
                        .iter()
                        .take_while(|c| c.is_ascii_alphanumeric() || **c == '_')
                        .collect();
                    let n = word.chars().count();
                    (Tok::Word(word), n)
                }
                other => {
                    return Err(ParseError::at(
                        line,
                        col,
                        ParseErrorKind::Expected {
                            expected: "Essence' data (letting NAME be VALUE)",
                            found: Found::new(&other.to_string()),
                        },
                    ));
                }
            };
            out.push(Lexed { tok, line, col });
            k += len;
        }
    }
    Ok(out)
}

/// A value: a number, a list of numbers or a list of lists.
#[derive(Clone, Debug)]
enum Value {
    Int(usize),
    List(Vec<usize>),
    Matrix(Vec<Vec<usize>>),
}

struct Cursor {
    toks: Vec<Lexed>,
    at: usize,
    end_line: usize,
}

impl Cursor {
    fn next(&mut self, expected: &'static str) -> Result<&Lexed, ParseError> {
        let t = self.toks.get(self.at).ok_or(ParseError::at_line(
            self.end_line,
            ParseErrorKind::UnexpectedEnd { expected },
        ))?;
        self.at += 1;
        Ok(t)
    }

    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.at).map(|t| &t.tok)
    }
}

fn unexpected(t: &Lexed, expected: &'static str) -> ParseError {
    let shown = match &t.tok {
        Tok::Word(w) => w.clone(),
        Tok::Int(v) => v.to_string(),
        Tok::Open => "[".into(),
        Tok::Close => "]".into(),
        Tok::Comma => ",".into(),
    };
    ParseError::at(
        t.line,
        t.col,
        ParseErrorKind::Expected {
            expected,
            found: Found::new(&shown),
        },
    )
}

/// `[a, b, ...]` of numbers (`inner` false) or of such lists (`inner` true); a trailing comma
/// is allowed, as in the corpus.
fn list(cur: &mut Cursor, nested: bool) -> Result<Value, ParseError> {
    const ITEM: &str = "a number, [ or ]";
    let mut ints = Vec::new();
    let mut rows = Vec::new();
    loop {
        let t = cur.next(ITEM)?;
        match (&t.tok, nested) {
            (Tok::Close, _) => break,
            (Tok::Int(v), false) => ints.push(*v),
            (Tok::Open, true) => match list(cur, false)? {
                Value::List(row) => rows.push(row),
                _ => unreachable!("a flat list holds numbers"),
            },
            _ => {
                return Err(unexpected(
                    t,
                    if nested {
                        "[ (a row of the matrix) or ]"
                    } else {
                        "a number or ]"
                    },
                ));
            }
        }
        let t = cur.next(", or ]")?;
        match t.tok {
            Tok::Comma => {}
            Tok::Close => break,
            _ => return Err(unexpected(t, ", or ]")),
        }
    }
    Ok(if nested {
        Value::Matrix(rows)
    } else {
        Value::List(ints)
    })
}

fn value(cur: &mut Cursor) -> Result<Value, ParseError> {
    const VALUE: &str = "a number or a [list]";
    let t = cur.next(VALUE)?;
    match t.tok {
        Tok::Int(v) => Ok(Value::Int(v)),
        Tok::Open => {
            let nested = cur.peek() == Some(&Tok::Open);
            list(cur, nested)
        }
        _ => Err(unexpected(t, VALUE)),
    }
}

/// Parses a demystify battleship parameter file.
pub fn parse(text: &str) -> Result<Puzzle, ParseError> {
    let toks = lex(text)?;
    let end_line = toks.last().map_or(1, |t| t.line);
    let mut cur = Cursor {
        toks,
        at: 0,
        end_line,
    };
    let mut found: Vec<(&'static str, usize, Value)> = Vec::new();
    while cur.peek().is_some() {
        let t = cur.next("letting")?;
        if t.tok != Tok::Word("letting".into()) {
            return Err(unexpected(t, "letting"));
        }
        let t = cur.next("a parameter name")?;
        let (line, col) = (t.line, t.col);
        let Tok::Word(name) = &t.tok else {
            return Err(unexpected(t, "a parameter name"));
        };
        let Some(key) = NAMES.split(' ').find(|n| n == name) else {
            return Err(ParseError::at(
                line,
                col,
                ParseErrorKind::UnknownWord {
                    found: name.clone(),
                    allowed: NAMES,
                },
            ));
        };
        let t = cur.next("be")?;
        if t.tok != Tok::Word("be".into()) {
            return Err(unexpected(t, "be"));
        }
        let v = value(&mut cur)?;
        if let Some((_, first, _)) = found.iter().find(|(k, _, _)| *k == key) {
            return Err(ParseError::at(
                line,
                col,
                ParseErrorKind::Expected {
                    expected: "each parameter once",
                    found: Found::new(&format!("{key} again (first on line {first})")),
                },
            ));
        }
        found.push((key, line, v));
    }
    build(&found, end_line)
}

fn build(found: &[(&'static str, usize, Value)], end_line: usize) -> Result<Puzzle, ParseError> {
    let get = |key: &str| {
        found
            .iter()
            .find(|(k, _, _)| *k == key)
            .map(|(_, l, v)| (*l, v))
    };
    let shape = |line: usize, expected: &'static str, key: &str| {
        ParseError::at_line(
            line,
            ParseErrorKind::Expected {
                expected,
                found: Found::new(&format!("{key} of another shape")),
            },
        )
    };
    let list = |key: &'static str, expected: &'static str| match get(key) {
        None => Err(ParseError::at_line(
            end_line,
            ParseErrorKind::UnexpectedEnd { expected },
        )),
        Some((line, Value::List(v))) => Ok((line, v.clone())),
        Some((line, _)) => Err(shape(line, expected, key)),
    };
    let int = |key: &'static str| match get(key) {
        None => Ok(None),
        Some((line, Value::Int(v))) => Ok(Some((line, *v))),
        Some((line, _)) => Err(shape(line, "a number", key)),
    };
    let (row_line, rows) = list("row_tallies", "letting row_tallies be [...]")?;
    let (col_line, cols) = list("column_tallies", "letting column_tallies be [...]")?;
    let (fleet_line, fleet) = list("num_types", "letting num_types be [...] (ships per length)")?;
    check_board(row_line, rows.len(), cols.len(), MAX_CELLS)?;
    for (key, given, actual) in [
        ("height", int("height")?, rows.len()),
        ("width", int("width")?, cols.len()),
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
    if let Some((line, largest)) = int("LARGEST")?
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
    for (line, tallies, max) in [(row_line, &rows, cols.len()), (col_line, &cols, rows.len())] {
        if let Some(&v) = tallies.iter().find(|&&v| v > max) {
            return Err(ParseError::at_line(
                line,
                ParseErrorKind::OutOfRange {
                    what: "tally",
                    value: v,
                    max,
                },
            ));
        }
    }
    let (nrows, ncols) = (rows.len(), cols.len());
    let mut puzzle = Puzzle::new(
        rows.into_iter().map(Some).collect(),
        cols.into_iter().map(Some).collect(),
        Fleet::from_counts(fleet),
    )
    .expect("the size was checked non-zero");
    match get("hint") {
        None => {}
        Some((line, Value::Matrix(m))) => {
            if m.len() != nrows || m.iter().any(|r| r.len() != ncols) {
                return Err(ParseError::at_line(
                    line,
                    ParseErrorKind::Expected {
                        expected: "a hint matrix of one row per row tally and one code per column tally",
                        found: Found::new(&format!(
                            "{} rows of {} codes",
                            m.len(),
                            m.first().map_or(0, Vec::len)
                        )),
                    },
                ));
            }
            for (r, row) in m.iter().enumerate() {
                for (c, &code) in row.iter().enumerate() {
                    let clue = match code {
                        0 => Clue::Piece(Piece::Water),
                        1 => Clue::Piece(Piece::Submarine),
                        2 => Clue::Piece(Piece::Middle),
                        3 => Clue::Piece(Piece::End(Dir::Down)),
                        4 => Clue::Piece(Piece::End(Dir::Up)),
                        5 => Clue::Piece(Piece::End(Dir::Left)),
                        6 => Clue::Piece(Piece::End(Dir::Right)),
                        7 => continue,
                        8 => Clue::Ship,
                        _ => {
                            return Err(ParseError::at_line(
                                line,
                                ParseErrorKind::OutOfRange {
                                    what: "hint code",
                                    value: code,
                                    max: 8,
                                },
                            ));
                        }
                    };
                    puzzle
                        .add_clue(Pos::new(r, c), clue)
                        .expect("on the board, once");
                }
            }
        }
        Some((line, _)) => return Err(shape(line, "a hint matrix [[...], ...]", "hint")),
    }
    Ok(puzzle)
}

/// Whether the first statement (after `$` comments) is `letting NAME be`.
pub fn looks_eprime(text: &str) -> bool {
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
