//! Reading a puzz.link URL: counts, cells and fleet, each error at its line and column.

use super::super::{Found, ParseError, ParseErrorKind, tokenize};
use super::codes::*;
use crate::model::limits::Limits;
use crate::model::puzzle::{Clue, Fleet, Pos, Puzzle, Shape};

/// Whether the first word of `text` is a puzz.link or pzv.jp URL, or a bare `battleship/` body.
pub fn looks_like_url(text: &str) -> bool {
    let Some(first) = text.split_whitespace().next() else {
        return false;
    };
    let rest = strip_scheme(first);
    rest.starts_with("battleship/")
        || HOSTS
            .iter()
            .any(|h| rest.starts_with(h) && rest[h.len()..].starts_with('?'))
}

pub(super) fn strip_scheme(s: &str) -> &str {
    s.strip_prefix("https://")
        .or_else(|| s.strip_prefix("http://"))
        .unwrap_or(s)
}

/// A position in the URL being read: its line and the column of its first character.
#[derive(Clone, Copy)]
pub(super) struct Origin {
    pub(super) line: usize,
    pub(super) column: usize,
}

impl Origin {
    fn error(self, offset: usize, kind: ParseErrorKind) -> ParseError {
        ParseError::at(self.line, self.column + offset, kind)
    }
}

/// Reads characters of the URL with their offsets in it.
pub(super) struct Reader<'a> {
    pub(super) chars: Vec<char>,
    pub(super) at: usize,
    pub(super) origin: Origin,
    pub(super) text: &'a str,
}

impl Reader<'_> {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn error(&self, kind: ParseErrorKind) -> ParseError {
        self.origin.error(self.at, kind)
    }

    fn expected(&self, expected: &'static str) -> ParseError {
        match self.peek() {
            None => self.error(ParseErrorKind::UnexpectedEnd { expected }),
            Some(c) => self.error(ParseErrorKind::Expected {
                expected,
                found: Found::new(&c.to_string()),
            }),
        }
    }

    /// A decimal number up to the next `/` (or the end), and the offset where it starts.
    fn decimal(&mut self, expected: &'static str) -> Result<(usize, usize), ParseError> {
        let start = self.at;
        let mut value: usize = 0;
        while let Some(c) = self.peek().filter(|c| *c != '/') {
            let digit = c.to_digit(10).ok_or_else(|| self.expected(expected))?;
            value = value
                .checked_mul(10)
                .and_then(|v| v.checked_add(digit as usize))
                .ok_or_else(|| {
                    self.origin.error(
                        start,
                        ParseErrorKind::OutOfRange {
                            what: "number",
                            value: usize::MAX,
                            max: crate::model::limits::MAX_CELLS,
                        },
                    )
                })?;
            self.at += 1;
        }
        if self.at == start {
            return Err(self.expected(expected));
        }
        Ok((value, start))
    }

    /// Consumes `/`.
    fn slash(&mut self, expected: &'static str) -> Result<(), ParseError> {
        if self.peek() == Some('/') {
            self.at += 1;
            Ok(())
        } else {
            Err(self.expected(expected))
        }
    }

    /// `n` hex digits as a number.
    fn hex(&mut self, n: usize, expected: &'static str) -> Result<u32, ParseError> {
        let mut v = 0;
        for _ in 0..n {
            let d = self
                .peek()
                .and_then(|c| c.to_digit(16).filter(|_| !c.is_ascii_uppercase()))
                .ok_or_else(|| self.expected(expected))?;
            v = v * 16 + d;
            self.at += 1;
        }
        Ok(v)
    }
}

/// One item of a `number16` sequence.
pub(super) enum UrlItem {
    /// A number.
    Number(u32),
    /// `.`: pzprjs' `-2` ("?").
    Question,
    /// A run of this many empty entries (`g` = 1 ... `z` = 20).
    Run(usize),
}

/// Reads one item of pzprjs' `number16` encoding (`readNumber16`); `plus` allows the `+xxx`
/// form, which the count decoder (`decodeNumber16ExCell`) does not read.
pub(super) fn item(
    r: &mut Reader<'_>,
    plus: bool,
    expected: &'static str,
) -> Result<UrlItem, ParseError> {
    let c = r.peek().ok_or_else(|| r.expected(expected))?;
    Ok(match c {
        '0'..='9' | 'a'..='f' => {
            r.at += 1;
            UrlItem::Number(c.to_digit(16).unwrap_or(0))
        }
        '-' => {
            r.at += 1;
            UrlItem::Number(r.hex(2, "two hex digits after -")?)
        }
        '+' if plus => {
            r.at += 1;
            UrlItem::Number(r.hex(3, "three hex digits after +")?)
        }
        '.' => {
            r.at += 1;
            UrlItem::Question
        }
        'g'..='z' => {
            r.at += 1;
            UrlItem::Run(c as usize - 'g' as usize + 1)
        }
        _ => return Err(r.expected(expected)),
    })
}

/// Parses a puzz.link battleship URL within `limits`.
pub fn parse(text: &str, limits: &Limits) -> Result<Puzzle, ParseError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let lines = tokenize(text);
    let Some(first) = lines.first() else {
        return Err(ParseError::at_line(
            1,
            ParseErrorKind::UnexpectedEnd {
                expected: URL_SHAPE,
            },
        ));
    };
    let (column, url) = first.tokens[0];
    let extra = first
        .tokens
        .get(1)
        .map(|&(c, t)| (first.number, c, t))
        .or_else(|| {
            lines
                .get(1)
                .map(|l| (l.number, l.tokens[0].0, l.tokens[0].1))
        });
    if let Some((line, col, t)) = extra {
        return Err(ParseError::at(
            line,
            col,
            ParseErrorKind::Expected {
                expected: "nothing after the URL",
                found: Found::new(t),
            },
        ));
    }
    parse_url(
        url,
        Origin {
            line: first.number,
            column,
        },
        limits,
    )
}

pub(super) fn parse_url(url: &str, origin: Origin, limits: &Limits) -> Result<Puzzle, ParseError> {
    let mut r = Reader {
        chars: url.chars().collect(),
        at: 0,
        origin,
        text: url,
    };
    // The prefix up to the variety: `[scheme]host/path?battleship/` or a bare `battleship/`.
    let rest = strip_scheme(url);
    let skipped = url.len() - rest.len();
    let body_start = if let Some(q) = rest.find('?') {
        if !HOSTS.contains(&&rest[..q]) {
            return Err(origin.error(
                0,
                ParseErrorKind::Expected {
                    expected: URL_SHAPE,
                    found: Found::new(url),
                },
            ));
        }
        skipped + q + 1
    } else {
        skipped
    };
    r.at = r.text[..body_start].chars().count();
    let pid_start = r.at;
    let tail: String = r.chars[r.at..].iter().collect();
    let Some(after) = tail.strip_prefix(VARIETY) else {
        let word: String = tail.chars().take_while(|c| *c != '/').collect();
        return Err(r.error(ParseErrorKind::UnknownWord {
            found: word,
            allowed: "battleship (the only puzz.link variety read)",
        }));
    };
    r.at = pid_start + VARIETY.len();
    if !after.starts_with('/') {
        return Err(r.expected("/ after battleship"));
    }
    r.at += 1;
    // pzprjs' parser takes a first part that is not a number as flags; battleship has none.
    if r.peek().is_some_and(|c| !c.is_ascii_digit() && c != '/') {
        while r.peek().is_some_and(|c| c != '/') {
            r.at += 1;
        }
        r.slash("/ after the flags")?;
    }
    let (cols, cols_at) = r.decimal("the width (a whole number)")?;
    r.slash("/ after the width")?;
    let (rows, rows_at) = r.decimal("the height (a whole number)")?;
    for (v, at, what) in [(cols, cols_at, "width"), (rows, rows_at, "height")] {
        if v == 0 {
            return Err(origin.error(
                at,
                ParseErrorKind::Expected {
                    expected: "a board of at least 1x1",
                    found: Found::new(&format!("{what} 0")),
                },
            ));
        }
    }
    limits
        .board(rows, cols)
        .map_err(|e| origin.error(cols_at, e.into()))?;
    r.slash("/ and the clues after the height")?;

    let mut row_counts = vec![None; rows];
    let mut col_counts = vec![None; cols];
    let mut clues: Vec<(Pos, Clue)> = Vec::new();
    // pzprjs reads counts and cells only when the body does not start with `/`.
    if r.peek() != Some('/') {
        read_counts(&mut r, &mut col_counts, &mut row_counts)?;
        read_cells(&mut r, rows, cols, &mut clues)?;
    }
    let fleet = read_fleet(&mut r, rows.max(cols))?;
    let mut puzzle =
        Puzzle::new(row_counts, col_counts, fleet).expect("the size was checked non-zero");
    for (pos, clue) in clues {
        puzzle
            .add_clue(pos, clue)
            .expect("each cell is read once, on the board");
    }
    Ok(puzzle)
}

/// The column counts, then the row counts (`decodeNumber16ExCell`).
pub(super) fn read_counts(
    r: &mut Reader<'_>,
    col_counts: &mut [Option<usize>],
    row_counts: &mut [Option<usize>],
) -> Result<(), ParseError> {
    const EXPECTED: &str = "a count (0-f, -xx, . or a run letter g-z)";
    let (cols, rows) = (col_counts.len(), row_counts.len());
    let total = cols + rows;
    let mut i = 0;
    while i < total {
        let at = r.at;
        match item(r, false, EXPECTED)? {
            UrlItem::Number(n) => {
                // A column's count is at most the number of rows, and the reverse.
                let max = if i < cols { rows } else { cols };
                let n = n as usize;
                if n > max {
                    return Err(r.origin.error(
                        at,
                        ParseErrorKind::OutOfRange {
                            what: if i < cols {
                                "column count"
                            } else {
                                "row count"
                            },
                            value: n,
                            max,
                        },
                    ));
                }
                if i < cols {
                    col_counts[i] = Some(n);
                } else {
                    row_counts[i - cols] = Some(n);
                }
                i += 1;
            }
            // pzprjs reads `.` as "?" (qnum -2); a count has no "?", so it stays unknown.
            UrlItem::Question => i += 1,
            UrlItem::Run(n) => {
                if i + n > total {
                    return Err(run_too_long(r, at, n, total - i, "counts"));
                }
                i += n;
            }
        }
    }
    Ok(())
}

pub(super) fn run_too_long(
    r: &Reader<'_>,
    at: usize,
    run: usize,
    left: usize,
    what: &'static str,
) -> ParseError {
    r.origin.error(
        at,
        ParseErrorKind::WrongCount {
            what,
            expected: left,
            found: run,
        },
    )
}

/// The cell clues, row by row (`decodeNumber16`).
pub(super) fn read_cells(
    r: &mut Reader<'_>,
    rows: usize,
    cols: usize,
    clues: &mut Vec<(Pos, Clue)>,
) -> Result<(), ParseError> {
    const EXPECTED: &str = "a cell clue (0-6, . or a run letter g-z)";
    let shape = Shape::new(rows, cols);
    let total = shape.cells();
    let mut i = 0;
    while i < total {
        let at = r.at;
        let pos = shape.pos(i);
        match item(r, true, EXPECTED)? {
            UrlItem::Number(n) => {
                let clue = match CellCode::of(n) {
                    Some(CellCode::Clue(clue)) => clue,
                    Some(CellCode::Corner(n)) => {
                        return Err(r.origin.error(
                            at,
                            ParseErrorKind::NotStraightShips {
                                what: format!(
                                    "corner clue {n} at {pos} (tetromino and pentomino fleets)"
                                ),
                            },
                        ));
                    }
                    None => {
                        return Err(r.origin.error(
                            at,
                            ParseErrorKind::OutOfRange {
                                what: "cell clue code",
                                value: n as usize,
                                max: 6,
                            },
                        ));
                    }
                };
                clues.push((pos, clue));
                i += 1;
            }
            UrlItem::Question => {
                clues.push((pos, Clue::Ship));
                i += 1;
            }
            UrlItem::Run(n) => {
                if i + n > total {
                    return Err(run_too_long(r, at, n, total - i, "cells"));
                }
                i += n;
            }
        }
    }
    Ok(())
}

/// The fleet (`decodePieceBank`): `//c`, `//d`, `//e`, `//z` (no ship) or `/N/piece/...`.
pub(super) fn read_fleet(r: &mut Reader<'_>, side: usize) -> Result<Fleet, ParseError> {
    const EXPECTED: &str = "the fleet (//c, //d, //e or /N/pieces)";
    r.slash(EXPECTED)?;
    if r.peek() == Some('/') {
        r.at += 1;
        let key_at = r.at;
        let key = r
            .peek()
            .ok_or_else(|| r.expected("a fleet preset letter (c, d, e)"))?;
        r.at += 1;
        let counts: Vec<usize> = match key {
            'z' => Vec::new(),
            'p' | 't' => {
                return Err(r.origin.error(
                    key_at,
                    ParseErrorKind::NotStraightShips {
                        what: format!(
                            "the {} preset //{key}",
                            if key == 'p' { "pentomino" } else { "tetromino" }
                        ),
                    },
                ));
            }
            _ => PRESETS
                .iter()
                .find(|(k, _)| *k == key)
                .map(|(_, c)| c.to_vec())
                .ok_or_else(|| {
                    r.origin.error(
                        key_at,
                        ParseErrorKind::UnknownWord {
                            found: key.to_string(),
                            allowed: "c d e (the straight fleet presets) or z (no ship)",
                        },
                    )
                })?,
        };
        end(r)?;
        return Ok(Fleet::from_counts(counts));
    }
    let (count, count_at) = r.decimal("the number of pieces")?;
    let mut counts: Vec<usize> = Vec::new();
    let mut found = 0;
    while r.peek() == Some('/') {
        r.at += 1;
        let len = piece(r, side)?;
        if counts.len() < len {
            counts.resize(len, 0);
        }
        counts[len - 1] += 1;
        found += 1;
    }
    end(r)?;
    if found != count {
        return Err(r.origin.error(
            count_at,
            ParseErrorKind::WrongCount {
                what: "pieces",
                expected: count,
                found,
            },
        ));
    }
    Ok(Fleet::from_counts(counts))
}

/// The end of the URL.
pub(super) fn end(r: &Reader<'_>) -> Result<(), ParseError> {
    match r.peek() {
        None => Ok(()),
        Some(_) => Err(r.expected("the end of the URL")),
    }
}

/// One piece (`BankPiece.deserialize`): width and height in base 36, then the cells row by row
/// as base-32 digits of five bits each. Returns the ship length of a straight piece.
pub(super) fn piece(r: &mut Reader<'_>, side: usize) -> Result<usize, ParseError> {
    let start = r.at;
    let mut text = String::new();
    while let Some(c) = r.peek().filter(|c| *c != '/') {
        text.push(c);
        r.at += 1;
    }
    let bad = |expected: &'static str| {
        r.origin.error(
            start,
            ParseErrorKind::Expected {
                expected,
                found: Found::new(&text),
            },
        )
    };
    const SHAPE: &str = "a piece (width and height in base 36, then its cells in base 32)";
    let mut chars = text.chars();
    let (Some(w), Some(h)) = (chars.next(), chars.next()) else {
        return Err(bad(SHAPE));
    };
    let (Some(w), Some(h)) = (w.to_digit(36), h.to_digit(36)) else {
        return Err(bad(SHAPE));
    };
    let (w, h) = (w as usize, h as usize);
    let mut bits = Vec::new();
    for c in chars {
        let v = c
            .to_digit(32)
            .filter(|_| !c.is_ascii_uppercase())
            .ok_or_else(|| bad(SHAPE))?;
        bits.extend((0..5).rev().map(|k| v >> k & 1 == 1));
    }
    if w == 0 || h == 0 || bits.is_empty() {
        return Err(bad(SHAPE));
    }
    let len = w * h;
    let straight = (w == 1 || h == 1) && (0..len).all(|i| bits.get(i) == Some(&true));
    if !straight {
        return Err(r.origin.error(
            start,
            ParseErrorKind::NotStraightShips {
                what: format!("piece {text} ({w}x{h})"),
            },
        ));
    }
    if len > side {
        return Err(r.origin.error(
            start,
            ParseErrorKind::OutOfRange {
                what: "ship length",
                value: len,
                max: side,
            },
        ));
    }
    Ok(len)
}
