//! What a file holds: its [`Board`]s, each a puzzle with what the file says besides it, in a
//! [`Document`].

use super::{Format, csc384};
use crate::model::puzzle::{Grid, Puzzle};

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
    pub(crate) fn whole(puzzle: Puzzle) -> Self {
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
