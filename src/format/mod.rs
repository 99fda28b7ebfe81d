//! Text formats, one file each, plus the typed parse error they share. Parsers turn text into a
//! [`crate::Puzzle`]; writers turn a solved [`crate::Grid`] back into text.

pub mod csc384;
pub mod detect;
pub mod dzn;
pub mod eprime;
pub mod ist;
pub mod jolyonb;
pub mod json;
pub mod krazydad;
mod params;
pub mod pretty;
pub mod puzzlink;
pub mod render;
pub mod rpi;
pub mod rubin;
pub mod sxchx;
mod write;

pub use detect::{DetectError, detect};
pub use write::Writer;

use crate::model::limits::{LimitExceeded, Limits};
use crate::model::puzzle::{Grid, Piece, Pos, Puzzle};
use std::fmt;

/// Input formats.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[non_exhaustive]
pub enum Format {
    /// Detect the format from the text.
    #[default]
    Auto,
    /// IST Bimaru (`ROW`, `COLUMN`, hint count, `HINT r c X`).
    Ist,
    /// CSC384 `battle.py` (digit-string counts, fleet line, NxN cell grid).
    Csc384,
    /// Moshe Rubin's CSPLib boards (`START-NEW-BOARD`, `Hint:`, `PLACESHIP`), several per file.
    Rubin,
    /// MiniZinc solbat data (`.dzn`: `height`, `width`, `ship`, `hint`, `rowsum`, `colsum`).
    Dzn,
    /// JSON (see `docs/formats.md`).
    Json,
    /// A puzz.link / pzv.jp battleship URL (`https://puzz.link/p?battleship/W/H/...`).
    Puzzlink,
    /// RPI CSCI-1200 (`board R C`, `rows`, `cols`, ship names, `constraint r c ch`).
    Rpi,
    /// demystify's Essence′ parameters (`letting hint be [...]`, `.param`).
    Eprime,
    /// Krazydad boards as in Mrhube's `FreePuzzles.txt` (`N)`, cell rows, `{rows}`, `{cols}`).
    Krazydad,
    /// jolyonb/puzzles files (comma-separated clues, ship counts, `x, y, info` lines).
    Jolyonb,
    /// sxchx/Heuristic-Battleship-Solitaire (ship lengths, column counts, row counts).
    Sxchx,
}

impl Format {
    /// Every value, [`Format::Auto`] first, then each format a parser reads.
    pub const ALL: &'static [Format] = &[
        Format::Auto,
        Format::Ist,
        Format::Csc384,
        Format::Rubin,
        Format::Dzn,
        Format::Json,
        Format::Puzzlink,
        Format::Rpi,
        Format::Eprime,
        Format::Krazydad,
        Format::Jolyonb,
        Format::Sxchx,
    ];

    /// The formats a parser reads ([`Format::ALL`] without [`Format::Auto`]).
    pub fn parsed() -> &'static [Format] {
        &Format::ALL[1..]
    }

    /// The format's name as written on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Format::Auto => "auto",
            Format::Ist => "ist",
            Format::Csc384 => "csc384",
            Format::Rubin => "rubin",
            Format::Dzn => "dzn",
            Format::Json => "json",
            Format::Puzzlink => "puzzlink",
            Format::Rpi => "rpi",
            Format::Eprime => "eprime",
            Format::Krazydad => "krazydad",
            Format::Jolyonb => "jolyonb",
            Format::Sxchx => "sxchx",
        }
    }
}

/// Output formats for solutions (`--to`) and puzzles (`convert --to`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[non_exhaustive]
pub enum OutputFormat {
    /// IST: ten lines, hinted cells upper case, other ship cells lower case, water `.`.
    Ist,
    /// CSC384: N lines of N cells, in the input's cell dialect (see `--cells`).
    Csc384,
    /// Rubin's board drawing: rows with their tallies, then the column tallies.
    Rubin,
    /// The MiniZinc solbat model's own output (for solutions) or `.dzn` data (for puzzles).
    Dzn,
    /// JSON: the result schema for solutions, the puzzle schema for puzzles.
    Json,
    /// A Unicode board with the counts at the margins, for people.
    Pretty,
    /// A puzz.link URL (puzzles only: `convert --to puzzlink`; a URL cannot hold a solution).
    Puzzlink,
    /// RPI CSCI-1200: `Solution:`, the ships by name, the board in a box (solutions only).
    Rpi,
}

impl OutputFormat {
    /// Every output format.
    pub const ALL: &'static [OutputFormat] = &[
        OutputFormat::Ist,
        OutputFormat::Csc384,
        OutputFormat::Rubin,
        OutputFormat::Dzn,
        OutputFormat::Json,
        OutputFormat::Pretty,
        OutputFormat::Puzzlink,
        OutputFormat::Rpi,
    ];

    /// The format's name as written on the command line.
    pub fn name(self) -> &'static str {
        match self {
            OutputFormat::Ist => "ist",
            OutputFormat::Csc384 => "csc384",
            OutputFormat::Rubin => "rubin",
            OutputFormat::Dzn => "dzn",
            OutputFormat::Json => "json",
            OutputFormat::Pretty => "pretty",
            OutputFormat::Puzzlink => "puzzlink",
            OutputFormat::Rpi => "rpi",
        }
    }

    /// The output that follows an input format by default: its own, or the pretty drawing for
    /// formats that have no solution layout of their own (a URL cannot hold a solution).
    pub fn following(input: Format) -> OutputFormat {
        match input {
            Format::Auto | Format::Ist => OutputFormat::Ist,
            Format::Csc384 => OutputFormat::Csc384,
            Format::Rubin => OutputFormat::Rubin,
            Format::Dzn => OutputFormat::Dzn,
            Format::Json => OutputFormat::Json,
            Format::Rpi => OutputFormat::Rpi,
            Format::Puzzlink
            | Format::Eprime
            | Format::Krazydad
            | Format::Jolyonb
            | Format::Sxchx => OutputFormat::Pretty,
        }
    }
}

/// One board read from a file, with what the file says about it besides the puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// The board's name in the file (Rubin's `Board ID`), if it has one.
    pub id: Option<String>,
    /// 1-based line where the board starts.
    pub line: usize,
    /// The puzzle.
    pub puzzle: Puzzle,
    /// A solution carried by the file (Rubin's `PLACESHIP` lines, JSON's `solution`).
    pub embedded: Option<Grid>,
}

impl Board {
    /// A board that is the whole file.
    pub fn whole(puzzle: Puzzle) -> Self {
        Board {
            id: None,
            line: 1,
            puzzle,
            embedded: None,
        }
    }
}

/// A parsed file: its format, its boards, and how its cells were written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Document {
    /// The format it was read in (never [`Format::Auto`]).
    pub format: Format,
    /// The boards, in file order; Rubin and Krazydad files and JSON Lines may hold several, other
    /// formats one.
    pub boards: Vec<Board>,
    /// For CSC384 input: the cell dialect and how it was decided.
    pub dialect: Option<csc384::DialectChoice>,
}

/// Parses `text` in `format`, which must not be [`Format::Auto`] (use [`detect()`] first),
/// within the default [`Limits`].
pub fn parse_document(text: &str, format: Format) -> Result<Document, ParseError> {
    parse_document_with(text, format, &Limits::default())
}

/// Parses `text` in `format` within `limits`: each parser checks a board's size and fleet
/// before allocating for them, and every board is checked whole once built.
pub fn parse_document_with(
    text: &str,
    format: Format,
    limits: &Limits,
) -> Result<Document, ParseError> {
    // A UTF-8 byte-order mark, as Notepad saves one, is not part of the text.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let one = |format, puzzle| Document {
        format,
        boards: vec![Board::whole(puzzle)],
        dialect: None,
    };
    let many = |format, boards| Document {
        format,
        boards,
        dialect: None,
    };
    let doc = match format {
        Format::Auto | Format::Ist => ist::parse(text).map(|p| one(Format::Ist, p)),
        Format::Csc384 => csc384::parse_within(text, limits).map(|(puzzle, dialect)| Document {
            format,
            boards: vec![Board::whole(puzzle)],
            dialect: Some(dialect),
        }),
        Format::Rubin => rubin::parse_within(text, limits).map(|b| many(format, b)),
        Format::Dzn => params::parse(text, &dzn::SYNTAX, limits).map(|p| one(format, p)),
        Format::Puzzlink => puzzlink::parse_within(text, limits).map(|p| one(format, p)),
        Format::Rpi => rpi::parse_within(text, limits).map(|p| one(format, p)),
        Format::Eprime => params::parse(text, &eprime::SYNTAX, limits).map(|p| one(format, p)),
        Format::Jolyonb => jolyonb::parse_within(text, limits).map(|p| one(format, p)),
        Format::Sxchx => sxchx::parse_within(text, limits).map(|p| one(format, p)),
        Format::Krazydad => krazydad::parse_within(text, limits).map(|b| many(format, b)),
        Format::Json => json::parse_all_within(text, limits).map(|b| many(format, b)),
    }?;
    for board in &doc.boards {
        limits
            .puzzle(&board.puzzle)
            .map_err(|e| ParseError::at_line(board.line, e.into()))?;
    }
    Ok(doc)
}

/// An output format that cannot express a puzzle (an IST board that is not 10x10, a CSC384
/// count of 10 or more, an unknown count in `.dzn`): writers refuse rather than write a lie.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the {format} format cannot express this puzzle ({reason})")]
pub struct Inexpressible {
    /// The format's name.
    pub format: &'static str,
    /// What it lacks.
    pub reason: &'static str,
}

/// A problem found while reading a file, with where it was found.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}: {kind}", self.location())]
pub struct ParseError {
    /// 1-based line number; 0 when the problem is with the file as a whole.
    pub line: usize,
    /// 1-based column (character) where the problem starts, when known.
    pub column: Option<usize>,
    /// What was wrong.
    pub kind: ParseErrorKind,
}

impl ParseError {
    /// A problem at `line` (1-based), column unknown.
    pub fn at_line(line: usize, kind: ParseErrorKind) -> Self {
        ParseError {
            line,
            column: None,
            kind,
        }
    }

    /// A problem at `line` and `column` (both 1-based).
    pub fn at(line: usize, column: usize, kind: ParseErrorKind) -> Self {
        ParseError {
            line,
            column: Some(column),
            kind,
        }
    }

    fn location(&self) -> String {
        match (self.line, self.column) {
            (0, _) => "input".to_string(),
            (l, Some(c)) => format!("line {l}, column {c}"),
            (l, None) => format!("line {l}"),
        }
    }
}

/// The kinds of parse problems.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// Something else stood where `expected` should be.
    #[error("expected {expected}, found {found}")]
    Expected {
        /// What the format requires here.
        expected: &'static str,
        /// What the text holds (quoted by the caller's choice).
        found: Found,
    },
    /// JSON that is not a puzzle object: serde's whole message (never shortened), without its
    /// position, which the error carries.
    #[error("expected a puzzle object (see docs/formats.md): {detail}")]
    Json {
        /// What the JSON reader found wrong.
        detail: String,
    },
    /// A list had the wrong number of items.
    #[error("expected {expected} {what}, found {found}")]
    WrongCount {
        /// What is being counted.
        what: &'static str,
        /// How many the format requires.
        expected: usize,
        /// How many the text holds.
        found: usize,
    },
    /// A number is larger than the board allows.
    #[error("{what} {value} is out of range (at most {max})")]
    OutOfRange {
        /// What the number is.
        what: &'static str,
        /// The value given.
        value: usize,
        /// The largest legal value.
        max: usize,
    },
    /// A clue names a cell outside the board.
    #[error("cell {pos} lies outside the {rows}x{cols} board")]
    OutsideBoard {
        /// The cell (0-based).
        pos: Pos,
        /// Board rows.
        rows: usize,
        /// Board columns.
        cols: usize,
    },
    /// A letter or symbol the format does not know.
    #[error("unknown cell letter {found:?}, expected one of {allowed}")]
    UnknownLetter {
        /// The offending text.
        found: String,
        /// The letters the format allows.
        allowed: &'static str,
    },
    /// A word (a hint type, a parameter name, a direction) the format does not know.
    #[error("unknown word {found:?}, expected one of {allowed}")]
    UnknownWord {
        /// The offending word.
        found: String,
        /// The words the format allows.
        allowed: &'static str,
    },
    /// The same cell is given twice.
    #[error("cell {pos} is given twice (first on line {first_line})")]
    Duplicate {
        /// The cell (0-based).
        pos: Pos,
        /// Where it was first given.
        first_line: usize,
    },
    /// The same cell is named by two entries of a clue list that has no lines of its own (a
    /// JSON `clues` array).
    #[error("cell {pos} is given twice (clues {first} and {again} of the list, counted from 1)")]
    RepeatedClue {
        /// The cell (0-based).
        pos: Pos,
        /// The first entry naming it, counted from 1.
        first: usize,
        /// The later entry naming it, counted from 1.
        again: usize,
    },
    /// The same cell is given two different contents.
    #[error("cell {pos} contradicts the clue on line {first_line}")]
    Contradiction {
        /// The cell (0-based).
        pos: Pos,
        /// Where the other clue is.
        first_line: usize,
    },
    /// The text ended early.
    #[error("unexpected end of input, expected {expected}")]
    UnexpectedEnd {
        /// What was still missing.
        expected: &'static str,
    },
    /// The puzzle's ships are not all straight lines (puzz.link's tetromino and pentomino
    /// fleets, or the corner clues they use), which this solver's model cannot hold.
    #[error("not a straight-ship fleet: {what}")]
    NotStraightShips {
        /// What was found: a preset, a piece, a corner clue.
        what: String,
    },
    /// The text is not valid UTF-8 or contains control characters.
    #[error("the input is not text ({detail})")]
    NotText {
        /// What was found.
        detail: &'static str,
    },
    /// A size, a fleet or a count of boards over one of the [`Limits`].
    #[error(transparent)]
    Limit(#[from] LimitExceeded),
}

/// Offending text, shown quoted and shortened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found(pub String);

impl Found {
    /// Wraps `text`, shortened to 40 characters.
    pub fn new(text: &str) -> Self {
        let mut s: String = text.chars().take(40).collect();
        if text.chars().count() > 40 {
            s.push('…');
        }
        Found(s)
    }

    /// The end of a line.
    pub fn end_of_line() -> Self {
        Found(String::new())
    }
}

impl fmt::Display for Found {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            f.write_str("end of line")
        } else {
            write!(f, "{:?}", self.0)
        }
    }
}

/// A line of input split into whitespace-separated tokens, with 1-based positions.
#[derive(Clone, Debug)]
pub struct Line<'a> {
    /// 1-based line number.
    pub number: usize,
    /// The tokens and the 1-based column where each starts.
    pub tokens: Vec<(usize, &'a str)>,
}

impl<'a> Line<'a> {
    /// Checks that the line's first token is `keyword`; else an error naming `expected`.
    pub(crate) fn starts_with(
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
pub fn tokenize(text: &str) -> Vec<Line<'_>> {
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
pub fn text_from_bytes(bytes: &[u8]) -> Result<&str, ParseError> {
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
