//! The readers' shared parts: lines split into tokens, numbers, counts, clue lines, file budgets
//! and the checks every board passes.

use super::error::{Found, ParseError, ParseErrorKind};
use crate::model::limits::Limits;
use crate::model::puzzle::{Piece, Pos, Puzzle};

/// A line of input split into whitespace-separated tokens, with 1-based positions.
#[derive(Clone, Debug)]
pub(crate) struct Line<'a> {
    /// 1-based line number.
    pub number: usize,
    /// The tokens and the 1-based column where each starts.
    pub tokens: Vec<(usize, &'a str)>,
}

impl<'a> Line<'a> {
    /// Checks that the line's first token is `keyword`; else an error naming `expected`.
    pub(crate) fn expect_keyword(
        &self,
        keyword: &str,
        expected: &'static str,
    ) -> Result<(), ParseError> {
        let (col, first) = self.tokens[0];
        if first != keyword {
            return Err(ParseError::at(
                self.number,
                col,
                ParseErrorKind::Expected {
                    expected,
                    found: Found::new(first),
                },
            ));
        }
        Ok(())
    }

    /// The tokens from index `from` on, which must number `want` (`what` names them).
    pub(crate) fn exactly(
        &self,
        from: usize,
        want: usize,
        what: &'static str,
    ) -> Result<&[(usize, &'a str)], ParseError> {
        let tokens = &self.tokens[from.min(self.tokens.len())..];
        if tokens.len() != want {
            return Err(ParseError::at_line(
                self.number,
                ParseErrorKind::WrongCount {
                    what,
                    expected: want,
                    found: tokens.len(),
                },
            ));
        }
        Ok(tokens)
    }
}

/// Splits `text` into lines (LF or CRLF, final newline optional) and tokens (spaces and tabs,
/// mixed freely). Blank lines are dropped; line numbers stay true to the file.
pub(crate) fn tokenize(text: &str) -> Vec<Line<'_>> {
    text.split('\n')
        .enumerate()
        .filter_map(|(i, line)| {
            let line = line.strip_suffix('\r').unwrap_or(line);
            let mut tokens = Vec::new();
            let mut start = None;
            for (col, (byte, ch)) in line.char_indices().enumerate() {
                if ch.is_whitespace() {
                    if let Some((c, b)) = start.take() {
                        tokens.push((c + 1, &line[b..byte]));
                    }
                } else if start.is_none() {
                    start = Some((col, byte));
                }
            }
            if let Some((c, b)) = start {
                tokens.push((c + 1, &line[b..]));
            }
            (!tokens.is_empty()).then_some(Line {
                number: i + 1,
                tokens,
            })
        })
        .collect()
}

/// Turns raw bytes into text, refusing binary data with a parse error.
pub(crate) fn text_from_bytes(bytes: &[u8]) -> Result<&str, ParseError> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let line = bytes[..e.valid_up_to()]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            + 1;
        ParseError::at_line(
            line,
            ParseErrorKind::NotText {
                detail: "invalid UTF-8",
            },
        )
    })?;
    if let Some(at) = text.find(|c: char| c.is_control() && !matches!(c, '\n' | '\r' | '\t')) {
        let line = text[..at].matches('\n').count() + 1;
        return Err(ParseError::at_line(
            line,
            ParseErrorKind::NotText {
                detail: "control character",
            },
        ));
    }
    if let Some(at) = text
        .match_indices('\r')
        .map(|(at, _)| at)
        .find(|&at| text.as_bytes().get(at + 1) != Some(&b'\n'))
    {
        let line = text[..at].matches('\n').count() + 1;
        return Err(ParseError::at_line(
            line,
            ParseErrorKind::LoneCarriageReturn,
        ));
    }
    Ok(text)
}

/// A whole number (ASCII digits, below a billion) at `line`, `col`, or an error naming
/// `expected`.
pub(crate) fn whole_number(
    line: usize,
    col: usize,
    token: &str,
    expected: &'static str,
) -> Result<usize, ParseError> {
    token
        .parse()
        .ok()
        .filter(|_| !token.is_empty() && token.bytes().all(|b| b.is_ascii_digit()))
        .filter(|_| token.len() < 10)
        .ok_or_else(|| {
            ParseError::at(
                line,
                col,
                ParseErrorKind::Expected {
                    expected,
                    found: Found::new(token),
                },
            )
        })
}

/// A row or column count: a whole number up to `max`, or `?` for an unknown count.
pub(crate) fn count_or_unknown(
    line: usize,
    col: usize,
    token: &str,
    max: usize,
) -> Result<Option<usize>, ParseError> {
    if token == "?" {
        return Ok(None);
    }
    let n = whole_number(line, col, token, "a count (a whole number or ?)")?;
    if n > max {
        return Err(ParseError::at(
            line,
            col,
            ParseErrorKind::OutOfRange {
                what: "count",
                value: n,
                max,
            },
        ));
    }
    Ok(Some(n))
}

/// Refuses an empty board, or one over `limits`, before anything is allocated for it.
pub(crate) fn check_board(
    line: usize,
    rows: usize,
    cols: usize,
    limits: &Limits,
) -> Result<(), ParseError> {
    if rows == 0 || cols == 0 {
        return Err(ParseError::at_line(
            line,
            ParseErrorKind::Expected {
                expected: "a board of at least 1x1",
                found: Found::new(&format!("{rows}x{cols}")),
            },
        ));
    }
    limits
        .board(rows, cols)
        .map_err(|e| ParseError::at_line(line, e.into()))
}

/// Refuses a ship length over `limits` (at `line`, `col`) before a fleet is sized by it.
pub(crate) fn check_ship_len(
    line: usize,
    col: Option<usize>,
    len: usize,
    limits: &Limits,
) -> Result<(), ParseError> {
    limits.ship_len(len).map_err(|e| ParseError {
        line,
        column: col,
        kind: e.into(),
    })
}

/// The boards of a file read so far, held to [`Limits::max_boards`] and
/// [`Limits::max_file_cells`].
#[derive(Debug, Default)]
pub(crate) struct FileBudget {
    boards: usize,
    cells: u64,
}

impl FileBudget {
    /// Counts one more board of `cells` cells (starting at `line`), refusing it when the file
    /// goes over a limit.
    pub(crate) fn take(
        &mut self,
        line: usize,
        cells: usize,
        limits: &Limits,
    ) -> Result<(), ParseError> {
        self.boards += 1;
        self.cells = self
            .cells
            .saturating_add(u64::try_from(cells).unwrap_or(u64::MAX));
        limits
            .boards(self.boards)
            .and_then(|()| limits.file_cells(self.cells))
            .map_err(|e| ParseError::at_line(line, e.into()))
    }
}

/// The comma-separated items of `text` (trimmed), each with the 1-based column where it starts;
/// `offset` is the column of `text`'s first character in its line.
pub(crate) fn comma_items(text: &str, offset: usize) -> Vec<(usize, &str)> {
    let mut items = Vec::new();
    let mut col = offset;
    for item in text.split(',') {
        let lead = item.chars().count() - item.trim_start().chars().count();
        items.push((col + lead, item.trim()));
        col += item.chars().count() + 1;
    }
    items
}

/// A line that gives one cell's piece, `KEYWORD row col letter` (0-based row and column), as
/// IST's `HINT` and RPI's `constraint` lines do.
pub(crate) struct HintLine {
    /// What the three fields after the keyword are, for a line with another number of them.
    pub fields: &'static str,
    /// Reads a row or column number (at line, column, with what it should be).
    pub number: fn(usize, usize, &str, &'static str) -> Result<usize, ParseError>,
    /// The piece a letter stands for.
    pub piece: fn(&str) -> Option<Piece>,
    /// The letters, for messages.
    pub letters: &'static str,
}

impl HintLine {
    /// Reads `line` (keyword already checked) for a `rows` x `cols` board.
    pub(crate) fn read(
        &self,
        line: &Line<'_>,
        rows: usize,
        cols: usize,
    ) -> Result<(Pos, Piece), ParseError> {
        let fields = line.exactly(1, 3, self.fields)?;
        let [(rc, rt), (cc, ct), (lc, lt)] = [fields[0], fields[1], fields[2]];
        let r = (self.number)(line.number, rc, rt, "a row number")?;
        let c = (self.number)(line.number, cc, ct, "a column number")?;
        if r >= rows || c >= cols {
            return Err(ParseError::at(
                line.number,
                if r >= rows { rc } else { cc },
                ParseErrorKind::OutsideBoard {
                    pos: Pos::new(r, c),
                    rows,
                    cols,
                },
            ));
        }
        let piece = (self.piece)(lt).ok_or_else(|| {
            ParseError::at(
                line.number,
                lc,
                ParseErrorKind::UnknownLetter {
                    found: lt.to_string(),
                    allowed: self.letters,
                },
            )
        })?;
        Ok((Pos::new(r, c), piece))
    }
}

/// The line where each clue of a file was given, to refuse a cell given twice (naming the line
/// of the first).
#[derive(Debug, Default)]
pub(crate) struct ClueLines(std::collections::HashMap<Pos, usize>);

impl ClueLines {
    /// Adds `clue` at `pos` (on the board) to `puzzle`, given at `line` and `column`: a cell
    /// given before is a duplicate (the same clue) or a contradiction.
    pub(crate) fn add(
        &mut self,
        puzzle: &mut Puzzle,
        pos: Pos,
        clue: crate::model::puzzle::Clue,
        line: usize,
        column: Option<usize>,
    ) -> Result<(), ParseError> {
        if let Some(&first_line) = self.0.get(&pos) {
            let kind = if puzzle.clue(pos) == Some(clue) {
                ParseErrorKind::Duplicate { pos, first_line }
            } else {
                ParseErrorKind::Contradiction { pos, first_line }
            };
            return Err(ParseError { line, column, kind });
        }
        self.0.insert(pos, line);
        puzzle.add_clue(pos, clue).map_err(|_| ParseError {
            line,
            column,
            kind: ParseErrorKind::OutsideBoard {
                pos,
                rows: puzzle.rows(),
                cols: puzzle.cols(),
            },
        })
    }
}
