//! MiniZinc solbat data (`sb_H_W_maxship_k.dzn`, for Peter Stuckey's `sb.mzn`): `height`,
//! `width`, `maxship`, `ship` (ships per length), `hint` (a 2-D array of piece codes, 0 = no
//! hint) and `rowsum`/`colsum`. The board is `rowsum` rows by `colsum` columns; `sb.mzn` itself
//! names its rows `1..width`, so `height` and `width` are accepted in either order.

use super::Inexpressible;
use super::{Found, ParseError, ParseErrorKind};
use crate::puzzle::{Clue, Dir, Fleet, Piece, Pos, Puzzle};
use std::collections::HashMap;

/// A token of MiniZinc data, with its 1-based line and column.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    Ident(String),
    Int(usize),
    Eq,
    Semi,
    Comma,
    Open,
    Close,
    OpenBar,
    CloseBar,
    Bar,
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
        let code = raw.split('%').next().unwrap_or("");
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
                '=' => (Tok::Eq, 1),
                ';' => (Tok::Semi, 1),
                ',' => (Tok::Comma, 1),
                '[' if chars.get(k + 1) == Some(&'|') => (Tok::OpenBar, 2),
                '[' => (Tok::Open, 1),
                '|' if chars.get(k + 1) == Some(&']') => (Tok::CloseBar, 2),
                '|' => (Tok::Bar, 1),
                ']' => (Tok::Close, 1),
                c if c.is_ascii_digit() => {
                    let digits: String = chars[k..]
                        .iter()
                        .take_while(|c| c.is_ascii_digit())
                        .collect();
                    let n = digits.len();
                    let value =
                        digits
                            .parse::<usize>()
                            .ok()
                            .filter(|_| n < 10)
                            .ok_or_else(|| {
                                ParseError::at(
                                    line,
                                    col,
                                    ParseErrorKind::Expected {
                                        expected: "a number below 1000000000",
                                        found: Found::new(&digits),
                                    },
                                )
                            })?;
                    (Tok::Int(value), n)
                }
                c if c.is_ascii_alphabetic() || c == '_' => {
                    let name: String = chars[k..]
                        .iter()
                        .take_while(|c| c.is_ascii_alphanumeric() || **c == '_')
                        .collect();
                    let n = name.chars().count();
                    (Tok::Ident(name), n)
                }
                other => {
                    return Err(ParseError::at(
                        line,
                        col,
                        ParseErrorKind::Expected {
                            expected: "MiniZinc data (name = value;)",
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

/// A parsed value.
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

    fn expect(&mut self, want: Tok, expected: &'static str) -> Result<(), ParseError> {
        let t = self.next(expected)?;
        if t.tok == want {
            Ok(())
        } else {
            Err(unexpected(t, expected))
        }
    }

    fn int(&mut self, expected: &'static str) -> Result<usize, ParseError> {
        let t = self.next(expected)?;
        match t.tok {
            Tok::Int(v) => Ok(v),
            _ => Err(unexpected(t, expected)),
        }
    }

    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.at).map(|t| &t.tok)
    }
}

fn shown(tok: &Tok) -> String {
    match tok {
        Tok::Ident(s) => s.clone(),
        Tok::Int(v) => v.to_string(),
        Tok::Eq => "=".into(),
        Tok::Semi => ";".into(),
        Tok::Comma => ",".into(),
        Tok::Open => "[".into(),
        Tok::Close => "]".into(),
        Tok::OpenBar => "[|".into(),
        Tok::CloseBar => "|]".into(),
        Tok::Bar => "|".into(),
    }
}

fn unexpected(t: &Lexed, expected: &'static str) -> ParseError {
    ParseError::at(
        t.line,
        t.col,
        ParseErrorKind::Expected {
            expected,
            found: Found::new(&shown(&t.tok)),
        },
    )
}

fn value(cur: &mut Cursor) -> Result<Value, ParseError> {
    const VALUE: &str = "a number, [list] or [| matrix |]";
    let t = cur.next(VALUE)?;
    match t.tok {
        Tok::Int(v) => Ok(Value::Int(v)),
        Tok::Open => {
            let mut items = Vec::new();
            if cur.peek() == Some(&Tok::Close) {
                cur.at += 1;
                return Ok(Value::List(items));
            }
            loop {
                items.push(cur.int("a number")?);
                let t = cur.next(", or ]")?;
                match t.tok {
                    Tok::Comma => {}
                    Tok::Close => return Ok(Value::List(items)),
                    _ => return Err(unexpected(t, ", or ]")),
                }
            }
        }
        Tok::OpenBar => {
            let mut rows = vec![Vec::new()];
            loop {
                match cur.peek() {
                    Some(Tok::CloseBar) => {
                        cur.at += 1;
                        break;
                    }
                    Some(Tok::Bar) => {
                        cur.at += 1;
                        if cur.peek() != Some(&Tok::CloseBar) {
                            rows.push(Vec::new());
                        }
                        continue;
                    }
                    _ => {}
                }
                let v = cur.int("a number, | or |]")?;
                rows.last_mut().expect("never empty").push(v);
                if cur.peek() == Some(&Tok::Comma) {
                    cur.at += 1;
                }
            }
            if rows.last().is_some_and(Vec::is_empty) {
                rows.pop();
            }
            Ok(Value::Matrix(rows))
        }
        _ => Err(unexpected(t, VALUE)),
    }
}

const NAMES: [&str; 7] = [
    "height", "width", "maxship", "ship", "hint", "rowsum", "colsum",
];

/// Parses solbat data.
pub fn parse(text: &str) -> Result<Puzzle, ParseError> {
    let toks = lex(text)?;
    // Errors at the end of the input point at the last line holding data.
    let end_line = toks.last().map_or(1, |t| t.line);
    let mut cur = Cursor {
        toks,
        at: 0,
        end_line,
    };
    let mut found: HashMap<&'static str, (usize, Value)> = HashMap::new();
    while cur.peek().is_some() {
        let t = cur.next("a parameter name")?;
        let (line, col) = (t.line, t.col);
        let Tok::Ident(name) = &t.tok else {
            return Err(unexpected(t, "a parameter name"));
        };
        let Some(&key) = NAMES.iter().find(|n| **n == name) else {
            return Err(ParseError::at(
                line,
                col,
                ParseErrorKind::UnknownWord {
                    found: name.clone(),
                    allowed: "height width maxship ship hint rowsum colsum",
                },
            ));
        };
        cur.expect(Tok::Eq, "=")?;
        let v = value(&mut cur)?;
        cur.expect(Tok::Semi, ";")?;
        if let Some((first_line, _)) = found.insert(key, (line, v)) {
            return Err(ParseError::at(
                line,
                col,
                ParseErrorKind::Expected {
                    expected: "each parameter once",
                    found: Found::new(&format!("{key} again (first on line {first_line})")),
                },
            ));
        }
    }
    build(&found, cur.end_line)
}

fn build(
    found: &HashMap<&'static str, (usize, Value)>,
    end_line: usize,
) -> Result<Puzzle, ParseError> {
    let get = |key: &'static str| found.get(key);
    let missing = |key: &'static str| {
        ParseError::at_line(
            end_line,
            ParseErrorKind::UnexpectedEnd {
                expected: match key {
                    "rowsum" => "rowsum = [...];",
                    "colsum" => "colsum = [...];",
                    _ => "ship = [...];",
                },
            },
        )
    };
    let list = |key: &'static str,
                what: &'static str|
     -> Result<Option<(usize, Vec<usize>)>, ParseError> {
        match get(key) {
            None => Ok(None),
            Some((line, Value::List(v))) => Ok(Some((*line, v.clone()))),
            Some((line, _)) => Err(ParseError::at_line(
                *line,
                ParseErrorKind::Expected {
                    expected: what,
                    found: Found::new(&format!("{key} of another shape")),
                },
            )),
        }
    };
    let int = |key: &'static str| -> Result<Option<(usize, usize)>, ParseError> {
        match get(key) {
            None => Ok(None),
            Some((line, Value::Int(v))) => Ok(Some((*line, *v))),
            Some((line, _)) => Err(ParseError::at_line(
                *line,
                ParseErrorKind::Expected {
                    expected: "a number",
                    found: Found::new(&format!("{key} as a list")),
                },
            )),
        }
    };
    let (_, rowsum) = list("rowsum", "a list of row sums")?.ok_or_else(|| missing("rowsum"))?;
    let (_, colsum) = list("colsum", "a list of column sums")?.ok_or_else(|| missing("colsum"))?;
    let (_, ships) = list("ship", "a list of ship counts")?.ok_or_else(|| missing("ship"))?;
    let (rows, cols) = (rowsum.len(), colsum.len());
    if rows == 0 || cols == 0 {
        return Err(ParseError::at_line(
            get(if rows == 0 { "rowsum" } else { "colsum" }).map_or(end_line, |v| v.0),
            ParseErrorKind::Expected {
                expected: "at least one row and one column",
                found: Found::new("an empty list"),
            },
        ));
    }
    let h = int("height")?;
    let w = int("width")?;
    for (key, dim) in [("height", h), ("width", w)] {
        if let Some((line, v)) = dim
            && v != rows
            && v != cols
        {
            return Err(ParseError::at_line(
                line,
                ParseErrorKind::Expected {
                    expected: "a size that matches rowsum and colsum",
                    found: Found::new(&format!("{key} = {v} for a {rows}x{cols} board")),
                },
            ));
        }
    }
    if let (Some((line, hv)), Some((_, wv))) = (h, w)
        && !((hv == rows && wv == cols) || (hv == cols && wv == rows))
    {
        return Err(ParseError::at_line(
            line,
            ParseErrorKind::Expected {
                expected: "height and width that match rowsum and colsum",
                found: Found::new(&format!("{hv}x{wv} for a {rows}x{cols} board")),
            },
        ));
    }
    if let Some((line, m)) = int("maxship")?
        && m != ships.len()
    {
        return Err(ParseError::at_line(
            line,
            ParseErrorKind::WrongCount {
                what: "ship counts (maxship)",
                expected: m,
                found: ships.len(),
            },
        ));
    }
    for (key, sums, max) in [("rowsum", &rowsum, cols), ("colsum", &colsum, rows)] {
        if let Some(&v) = sums.iter().find(|&&v| v > max) {
            return Err(ParseError::at_line(
                get(key).map_or(end_line, |v| v.0),
                ParseErrorKind::OutOfRange {
                    what: "sum",
                    value: v,
                    max,
                },
            ));
        }
    }
    let mut puzzle = Puzzle::new(
        rowsum.into_iter().map(Some).collect(),
        colsum.into_iter().map(Some).collect(),
        Fleet::from_counts(ships),
    )
    .expect("size checked");
    match get("hint") {
        None => {}
        Some((line, Value::Matrix(m))) => {
            if m.len() != rows || m.iter().any(|r| r.len() != cols) {
                return Err(ParseError::at_line(
                    *line,
                    ParseErrorKind::Expected {
                        expected: "a hint matrix of one row per rowsum and one column per colsum",
                        found: Found::new(&format!(
                            "{} rows of {} numbers",
                            m.len(),
                            m.first().map_or(0, Vec::len)
                        )),
                    },
                ));
            }
            for (r, row) in m.iter().enumerate() {
                for (c, &code) in row.iter().enumerate() {
                    let piece = match code {
                        0 => continue,
                        1 => Piece::Water,
                        2 => Piece::Submarine,
                        3 => Piece::End(Dir::Right),
                        4 => Piece::End(Dir::Left),
                        5 => Piece::End(Dir::Down),
                        6 => Piece::End(Dir::Up),
                        7 => Piece::Middle,
                        _ => {
                            return Err(ParseError::at_line(
                                *line,
                                ParseErrorKind::OutOfRange {
                                    what: "hint code",
                                    value: code,
                                    max: 7,
                                },
                            ));
                        }
                    };
                    puzzle
                        .add_clue(Pos::new(r, c), Clue::Piece(piece))
                        .expect("on the board, once");
                }
            }
        }
        Some((line, _)) => {
            return Err(ParseError::at_line(
                *line,
                ParseErrorKind::Expected {
                    expected: "a hint matrix [| ... |]",
                    found: Found::new("a list or a number"),
                },
            ));
        }
    }
    Ok(puzzle)
}

fn code(piece: Piece) -> usize {
    match piece {
        Piece::Water => 1,
        Piece::Submarine => 2,
        Piece::End(Dir::Right) => 3,
        Piece::End(Dir::Left) => 4,
        Piece::End(Dir::Down) => 5,
        Piece::End(Dir::Up) => 6,
        Piece::Middle => 7,
    }
}

/// Writes `puzzle` as solbat data (`height` = rows, `width` = columns). Unknown counts and
/// "some ship part" clues have no encoding there.
pub fn write_puzzle(puzzle: &Puzzle) -> Result<String, Inexpressible> {
    let inexpressible = |reason| Inexpressible {
        format: "dzn",
        reason,
    };
    let sums = |v: &[Option<usize>]| -> Result<String, Inexpressible> {
        let known: Option<Vec<String>> = v.iter().map(|c| c.map(|c| c.to_string())).collect();
        known
            .map(|k| k.join(","))
            .ok_or_else(|| inexpressible("rowsum and colsum cannot hold unknown counts"))
    };
    let rowsum = sums(puzzle.row_counts())?;
    let colsum = sums(puzzle.col_counts())?;
    let fleet = puzzle.fleet().counts();
    let mut out = format!(
        "height = {};\nwidth = {};\nmaxship = {};\nship = [{}];\nhint = [|\n",
        puzzle.rows(),
        puzzle.cols(),
        fleet.len(),
        fleet
            .iter()
            .map(usize::to_string)
            .collect::<Vec<_>>()
            .join(",")
    );
    for r in 0..puzzle.rows() {
        let mut cells = Vec::with_capacity(puzzle.cols());
        for c in 0..puzzle.cols() {
            cells.push(match puzzle.clue(Pos::new(r, c)) {
                None => 0,
                Some(Clue::Piece(p)) => code(p),
                Some(Clue::Ship) => {
                    return Err(inexpressible("it has no hint code for \"some ship part\""));
                }
            });
        }
        let cells: Vec<String> = cells.iter().map(usize::to_string).collect();
        out.push_str(&cells.join(", "));
        out.push_str(if r + 1 == puzzle.rows() {
            " |];\n"
        } else {
            " |\n"
        });
    }
    out.push_str(&format!("rowsum = [{rowsum}];\ncolsum = [{colsum}];\n"));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: &str = "height = 3;\nwidth = 4; % a comment\nmaxship = 2;\nship = [1,1];\nhint = [|\n3, 0, 0, 0 |\n0, 0, 0, 0 |\n0, 0, 0, 0 |];\nrowsum = [2,0,1];\ncolsum = [1,1,0,1];\n% 1 1 . .\n";

    #[test]
    fn reads_and_writes_back() {
        let p = parse(SMALL).unwrap();
        assert_eq!((p.rows(), p.cols()), (3, 4));
        assert_eq!(p.fleet().counts(), &[1, 1]);
        assert_eq!(
            p.clue(Pos::new(0, 0)),
            Some(Clue::Piece(Piece::End(Dir::Right)))
        );
        assert_eq!(parse(&write_puzzle(&p).unwrap()).unwrap(), p);
    }

    #[test]
    fn rejects_with_lines() {
        let e = |t: &str| parse(t).unwrap_err().to_string();
        assert_eq!(
            e("height = 3\nwidth = 4;"),
            "line 2, column 1: expected ;, found \"width\""
        );
        assert_eq!(
            e("rowsum = [1];\ncolsum = [1];\nships = [1];"),
            "line 3, column 1: unknown word \"ships\", expected one of height width maxship ship hint rowsum colsum"
        );
        assert_eq!(
            e("rowsum = [1];\ncolsum = [1];\n"),
            "line 2: unexpected end of input, expected ship = [...];"
        );
        assert_eq!(
            e("rowsum = [1];\ncolsum = [1];\nship=[1];\nhint=[|9|];"),
            "line 4: hint code 9 is out of range (at most 7)"
        );
        assert_eq!(
            e("rowsum = [1;"),
            "line 1, column 12: expected , or ], found \";\""
        );
        assert_eq!(
            e("rowsum = [1] $"),
            "line 1, column 14: expected MiniZinc data (name = value;), found \"$\""
        );
    }
}
