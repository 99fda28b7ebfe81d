//! puzz.link URLs (pzprjs, variety `battleship`): `https://puzz.link/p?battleship/W/H/<body>`.
//! The body holds the column counts then the row counts (pzprjs' `number16` encoding, `g`-`z`
//! for runs of unknown counts), the cell clues in the same encoding, and the fleet after a `/`
//! (`//c`, `//d`, `//e` presets or an explicit list of pieces). Only straight fleets can be read:
//! pzprjs' tetromino and pentomino fleets, and the corner clues they use, are refused. The
//! findings behind this module, with the pzprjs files they come from, are in `docs/formats.md`.

use super::Inexpressible;
use super::{Found, ParseError, ParseErrorKind, tokenize};
use crate::model::limits::Limits;
use crate::model::puzzle::{Clue, Dir, Fleet, Piece, Pos, Puzzle, Shape};

/// The canonical prefix written by [`url`].
pub const CANONICAL_PREFIX: &str = "https://puzz.link/p?";

/// The hosts and paths before `?battleship/` that are read (with `http://`, `https://` or no
/// scheme).
const HOSTS: [&str; 2] = ["puzz.link/p", "pzv.jp/p.html"];

/// The variety name in the URL.
const VARIETY: &str = "battleship";

/// What a URL is expected to look like, for messages.
const URL_SHAPE: &str = "a puzz.link battleship URL (https://puzz.link/p?battleship/W/H/...)";

/// Counts above this need pzprjs' `+` form, which its count decoder does not read.
const MAX_COUNT: usize = 255;

/// Ship lengths above this need two base-36 digits in a piece, which pzprjs cannot tell apart.
const MAX_SHIP_LEN: usize = 35;

/// A pzprjs cell clue, as numbered in `statuepark.js` (`Board@battleship`: `UP` 1 ... `DNRT` 10).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CellCode {
    /// A clue the model holds.
    Clue(Clue),
    /// A corner clue (7-10) of the tetromino and pentomino fleets.
    Corner(u32),
}

impl CellCode {
    /// The clue of pzprjs code `n` (`None` when out of range).
    fn of(n: u32) -> Option<CellCode> {
        let piece = match n {
            0 => Piece::Water,
            1 => Piece::End(Dir::Down),
            2 => Piece::End(Dir::Up),
            3 => Piece::End(Dir::Right),
            4 => Piece::End(Dir::Left),
            5 => Piece::Middle,
            6 => Piece::Submarine,
            7..=10 => return Some(CellCode::Corner(n)),
            _ => return None,
        };
        Some(CellCode::Clue(Clue::Piece(piece)))
    }
}

/// The pzprjs code of a clue (`.` for "some ship part", written as `-2` by pzprjs).
fn code_of(clue: Clue) -> char {
    match clue {
        Clue::Ship => '.',
        Clue::Piece(Piece::Water) => '0',
        Clue::Piece(Piece::End(Dir::Down)) => '1',
        Clue::Piece(Piece::End(Dir::Up)) => '2',
        Clue::Piece(Piece::End(Dir::Right)) => '3',
        Clue::Piece(Piece::End(Dir::Left)) => '4',
        Clue::Piece(Piece::Middle) => '5',
        Clue::Piece(Piece::Submarine) => '6',
    }
}

/// The fleet presets of pzprjs' battleship bank (`Bank@battleship`): ships per length.
const PRESETS: [(char, &[usize]); 3] = [
    ('c', &[3, 2, 1]),
    ('d', &[4, 3, 2, 1]),
    ('e', &[5, 4, 3, 2, 1]),
];

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

fn strip_scheme(s: &str) -> &str {
    s.strip_prefix("https://")
        .or_else(|| s.strip_prefix("http://"))
        .unwrap_or(s)
}

/// A position in the URL being read: its line and the column of its first character.
#[derive(Clone, Copy)]
struct Origin {
    line: usize,
    column: usize,
}

impl Origin {
    fn error(self, offset: usize, kind: ParseErrorKind) -> ParseError {
        ParseError::at(self.line, self.column + offset, kind)
    }
}

/// Reads characters of the URL with their offsets in it.
struct Reader<'a> {
    chars: Vec<char>,
    at: usize,
    origin: Origin,
    text: &'a str,
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
enum UrlItem {
    /// A number.
    Number(u32),
    /// `.`: pzprjs' `-2` ("?").
    Question,
    /// A run of this many empty entries (`g` = 1 ... `z` = 20).
    Run(usize),
}

/// Reads one item of pzprjs' `number16` encoding (`readNumber16`); `plus` allows the `+xxx`
/// form, which the count decoder (`decodeNumber16ExCell`) does not read.
fn item(r: &mut Reader<'_>, plus: bool, expected: &'static str) -> Result<UrlItem, ParseError> {
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

/// Parses a puzz.link battleship URL (the only word of the text; blank lines around it are
/// fine). Errors name the line and the character column in it.
pub fn parse(text: &str) -> Result<Puzzle, ParseError> {
    parse_within(text, &Limits::default())
}

/// Parses a puzz.link battleship URL within `limits`.
pub fn parse_within(text: &str, limits: &Limits) -> Result<Puzzle, ParseError> {
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

fn parse_url(url: &str, origin: Origin, limits: &Limits) -> Result<Puzzle, ParseError> {
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
fn read_counts(
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

fn run_too_long(
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
fn read_cells(
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
fn read_fleet(r: &mut Reader<'_>, side: usize) -> Result<Fleet, ParseError> {
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
fn end(r: &Reader<'_>) -> Result<(), ParseError> {
    match r.peek() {
        None => Ok(()),
        Some(_) => Err(r.expected("the end of the URL")),
    }
}

/// One piece (`BankPiece.deserialize`): width and height in base 36, then the cells row by row
/// as base-32 digits of five bits each. Returns the ship length of a straight piece.
fn piece(r: &mut Reader<'_>, side: usize) -> Result<usize, ParseError> {
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

fn inexpressible(reason: &'static str) -> Inexpressible {
    Inexpressible {
        format: "puzzlink",
        reason,
    }
}

/// Appends pzprjs' `number16` encoding of `items` (`genericEncodeNumber16`): numbers in hex
/// (`-xx` from 16), `.` for "?", runs of up to 20 empty entries as `g`-`z`.
fn encode_items(out: &mut String, items: impl Iterator<Item = Option<String>>) {
    let mut run = 0usize;
    let run_letter = |n: usize| char::from_digit(15 + n as u32, 36).unwrap_or('z');
    for item in items {
        match item {
            None => {
                run += 1;
                if run == 20 {
                    out.push(run_letter(run));
                    run = 0;
                }
            }
            Some(text) => {
                if run > 0 {
                    out.push(run_letter(run));
                    run = 0;
                }
                out.push_str(&text);
            }
        }
    }
    if run > 0 {
        out.push(run_letter(run));
    }
}

/// A count as pzprjs writes it (`writeNumber16`).
fn number16(n: usize) -> String {
    if n < 16 {
        format!("{n:x}")
    } else {
        format!("-{n:02x}")
    }
}

/// A straight ship of `len` cells as a pzprjs piece (`BankPiece.serialize`): `L1` then the
/// cells as base-32 digits of five bits (a horizontal 1xL piece, as the presets write them).
fn piece_text(len: usize) -> String {
    let mut s = String::new();
    s.push(char::from_digit(len as u32, 36).unwrap_or('?'));
    s.push('1');
    let mut left = len;
    while left > 0 {
        let k = left.min(5);
        let v = ((1u32 << k) - 1) << (5 - k);
        s.push(char::from_digit(v, 32).unwrap_or('?'));
        left -= k;
    }
    s
}

/// The canonical URL of `puzzle`, as pzprjs writes it, without a final newline. Counts above
/// 255 and ships longer than 35 cells cannot be written (pzprjs cannot read them back).
pub fn url(puzzle: &Puzzle) -> Result<String, Inexpressible> {
    let counts = puzzle.col_counts().iter().chain(puzzle.row_counts());
    if counts.clone().flatten().any(|&c| c > MAX_COUNT) {
        return Err(inexpressible("pzprjs reads counts up to 255"));
    }
    if puzzle.fleet().max_len() > MAX_SHIP_LEN {
        return Err(inexpressible("pzprjs pieces are at most 35 cells long"));
    }
    let mut out = format!(
        "{CANONICAL_PREFIX}{VARIETY}/{}/{}/",
        puzzle.cols(),
        puzzle.rows()
    );
    encode_items(&mut out, counts.map(|c| c.map(number16)));
    encode_items(
        &mut out,
        puzzle
            .positions()
            .map(|p| puzzle.clue(p).map(|c| code_of(c).to_string())),
    );
    let counts = puzzle.fleet().counts();
    out.push('/');
    if counts.is_empty() {
        out.push_str("/z");
    } else if let Some((key, _)) = PRESETS.iter().find(|(_, c)| *c == counts) {
        out.push('/');
        out.push(*key);
    } else {
        out.push_str(&puzzle.fleet().total_ships().to_string());
        for class in puzzle.fleet().classes() {
            for _ in 0..class.count {
                out.push('/');
                out.push_str(&piece_text(class.len));
            }
        }
    }
    Ok(out)
}

/// [`url`] with a final newline, as a file holds it.
pub fn write_puzzle(puzzle: &Puzzle) -> Result<String, Inexpressible> {
    url(puzzle).map(|u| u + "\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    const PZPRJS: &str = "https://puzz.link/p?battleship/6/6/g12h2g30g3gk0r3w//c";

    #[test]
    fn reads_the_pzprjs_test_url_and_writes_it_back() {
        let p = parse(PZPRJS).unwrap();
        assert_eq!((p.rows(), p.cols()), (6, 6));
        assert_eq!(
            p.col_counts(),
            &[None, Some(1), Some(2), None, None, Some(2)]
        );
        assert_eq!(
            p.row_counts(),
            &[None, Some(3), Some(0), None, Some(3), None]
        );
        assert_eq!(p.fleet().counts(), &[3, 2, 1]);
        assert_eq!(p.clue(Pos::new(0, 5)), Some(Clue::Piece(Piece::Water)));
        assert_eq!(
            p.clue(Pos::new(3, 0)),
            Some(Clue::Piece(Piece::End(Dir::Right)))
        );
        assert_eq!(p.clue_count(), 2);
        assert_eq!(url(&p).unwrap(), PZPRJS);
    }

    #[test]
    fn every_prefix_reads_the_same_puzzle() {
        let want = parse(PZPRJS).unwrap();
        for prefix in [
            "http://puzz.link/p?",
            "puzz.link/p?",
            "https://pzv.jp/p.html?",
            "http://pzv.jp/p.html?",
            "pzv.jp/p.html?",
            "",
        ] {
            let text = format!("\n  {prefix}battleship/6/6/g12h2g30g3gk0r3w//c \r\n");
            assert_eq!(parse(&text).unwrap(), want, "{prefix}");
            assert!(looks_like_url(&text), "{prefix}");
        }
    }

    #[test]
    fn pieces_counts_and_runs_round_trip() {
        let mut p = Puzzle::new(
            vec![Some(17), None, Some(0)],
            vec![None; 40],
            Fleet::from_counts(vec![0, 1, 0, 0, 0, 0, 2]),
        )
        .unwrap();
        p.add_clue(Pos::new(2, 39), Clue::Ship).unwrap();
        p.add_clue(Pos::new(1, 0), Clue::Piece(Piece::Middle))
            .unwrap();
        let u = url(&p).unwrap();
        assert_eq!(
            u,
            "https://puzz.link/p?battleship/40/3/zz-11g0zz5zzzx./3/21o/71vo/71vo"
        );
        assert_eq!(parse(&u).unwrap(), p);
    }

    fn err(text: &str) -> String {
        parse(text).unwrap_err().to_string()
    }

    #[test]
    fn refusals_name_the_column() {
        assert_eq!(
            err("battleship/2/2/gggg7ggg//c"),
            "line 1, column 20: not a straight-ship fleet: corner clue 7 at (0, 0) (tetromino and pentomino fleets)"
        );
        assert_eq!(
            err("battleship/2/5/m7hai89g/2/22u/22u"),
            "line 1, column 17: not a straight-ship fleet: corner clue 7 at (0, 0) (tetromino and pentomino fleets)"
        );
        assert_eq!(
            err("battleship/2/2/zz//p"),
            "line 1, column 16: expected 4 counts, found 20"
        );
        assert_eq!(
            err("battleship/2/2/jj//p"),
            "line 1, column 20: not a straight-ship fleet: the pentomino preset //p"
        );
        assert_eq!(
            err("battleship/3/1/ji/1/22u"),
            "line 1, column 21: not a straight-ship fleet: piece 22u (2x2)"
        );
        assert_eq!(
            err("battleship/2000/2000/g"),
            "line 1, column 12: the board has 4000000 cells (rows x columns), over the limit of 1000000"
        );
        assert_eq!(
            err("battleship/2/2/gggg"),
            "line 1, column 20: unexpected end of input, expected a cell clue (0-6, . or a run letter g-z)"
        );
        assert_eq!(
            err("https://example.com/p?battleship/2/2/kh//c"),
            "line 1, column 1: expected a puzz.link battleship URL (https://puzz.link/p?battleship/W/H/...), found \"https://example.com/p?battleship/2/2/kh/…\""
        );
        assert_eq!(
            err("puzz.link/p?nurikabe/2/2/kh"),
            "line 1, column 13: unknown word \"nurikabe\", expected one of battleship (the only puzz.link variety read)"
        );
        assert_eq!(
            err("battleship/2/2/3ggg//c"),
            "line 1, column 16: column count 3 is out of range (at most 2)"
        );
        assert_eq!(
            err("battleship/2/2/jj//c x"),
            "line 1, column 22: expected nothing after the URL, found \"x\""
        );
    }
}
