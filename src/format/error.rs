//! Parse errors: where ([`ParseError`]) and what ([`ParseErrorKind`]), with the text found
//! ([`Found`]), and the refusal of a writer that cannot express a puzzle ([`Inexpressible`]).

use crate::model::limits::LimitExceeded;
use crate::model::puzzle::Pos;
use std::fmt;

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
    pub(crate) fn at_line(line: usize, kind: ParseErrorKind) -> Self {
        ParseError {
            line,
            column: None,
            kind,
        }
    }

    /// A problem at `line` and `column` (both 1-based).
    pub(crate) fn at(line: usize, column: usize, kind: ParseErrorKind) -> Self {
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
    /// Squares marked as sunk ships that the ships no longer afloat do not fill exactly, each
    /// in a straight line (the Rowan contest's `3`s, and the ships missing from its list of
    /// ships afloat).
    #[error(
        "the squares marked sunk (3) cannot hold the ships no longer afloat ({ships}: {cells} \
         squares, each ship in a straight line); {marked} marked"
    )]
    SunkShips {
        /// The ships no longer afloat, by letter (`B, S`), or `none`.
        ships: String,
        /// Their squares together.
        cells: usize,
        /// The squares marked sunk.
        marked: usize,
    },
    /// A Battleship position no arrangement of the ships afloat fits (the hits, misses and
    /// sunk squares of a contest data set), named by the line the data set starts on.
    #[error(
        "no arrangement of the ships afloat is consistent with this data set's board (its hits, \
         misses and sunk squares)"
    )]
    NoArrangement,
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
    /// A line ends in a carriage return alone (the classic Mac OS line end).
    #[error(
        "a line ends in a carriage return alone (CR, the classic Mac OS line end); lines must \
         end in LF or CRLF"
    )]
    LoneCarriageReturn,
    /// A size, a fleet or a count of boards over one of the [`crate::model::limits::Limits`].
    #[error(transparent)]
    Limit(#[from] LimitExceeded),
}

/// Offending text, shown quoted and shortened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found(pub String);

impl Found {
    /// Wraps `text`, shortened to 40 characters.
    pub(crate) fn new(text: &str) -> Self {
        let mut s: String = text.chars().take(40).collect();
        if text.chars().count() > 40 {
            s.push('…');
        }
        Found(s)
    }

    /// The end of a line.
    pub(crate) fn end_of_line() -> Self {
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
