//! The rules of the puzzle, named: a row or column count, a fleet count, a clue, a filled cell,
//! the no-touch rule, the ship-shape rule. Encoders tag every clause with the rule it states
//! (through [`ClauseSink::set_rule`](crate::solver::sink::ClauseSink::set_rule)), so a hint can
//! name its reasons in words.

use crate::model::puzzle::{Clue, Dir, Piece, Pos};
use std::fmt;

/// A rule of the puzzle, as a reason for a hint. In the fields, rows and columns are numbered
/// from 0 (as in IST `HINT` lines and [`Pos`]); the text ([`fmt::Display`]) numbers them from 1
/// for a person: "row 1" is the top row, "column 1" the left one ([`cell_name`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Rule {
    /// Row `row` holds `count` ship cells.
    RowCount {
        /// The row.
        row: usize,
        /// Its count.
        count: usize,
    },
    /// Column `col` holds `count` ship cells.
    ColCount {
        /// The column.
        col: usize,
        /// Its count.
        count: usize,
    },
    /// The fleet has `count` ships of length `len`.
    Fleet {
        /// Ship length.
        len: usize,
        /// Ships of that length.
        count: usize,
    },
    /// A clue of the puzzle.
    Clue {
        /// Where.
        pos: Pos,
        /// What it shows.
        clue: Clue,
    },
    /// A cell the player already filled.
    Filled {
        /// Where.
        pos: Pos,
        /// What was filled.
        content: Clue,
    },
    /// Ships never touch, not even diagonally.
    NoTouch,
    /// A ship part belongs to a straight ship of the fleet, with water beyond both ends.
    ShipShape,
    /// No ship of the fleet fits through this cell.
    NoShipFits {
        /// The cell.
        pos: Pos,
    },
    /// A constraint of the encoding not named above.
    Other,
}

/// A name for what a clue or filled cell shows.
pub fn content_name(content: Clue) -> &'static str {
    match content {
        Clue::Ship => "ship part",
        Clue::Piece(Piece::Water) => "water",
        Clue::Piece(Piece::Submarine) => "submarine",
        Clue::Piece(Piece::Middle) => "middle",
        Clue::Piece(Piece::End(Dir::Down)) => "top end",
        Clue::Piece(Piece::End(Dir::Up)) => "bottom end",
        Clue::Piece(Piece::End(Dir::Right)) => "left end",
        Clue::Piece(Piece::End(Dir::Left)) => "right end",
    }
}

/// A cell as a person names it: `row 3, column 5`, counting from 1.
pub fn cell_name(pos: Pos) -> String {
    format!("row {}, column {}", pos.row + 1, pos.col + 1)
}

impl Rule {
    /// The cell a clue or filled-cell rule is about.
    pub fn cell(self) -> Option<Pos> {
        match self {
            Rule::Clue { pos, .. } | Rule::Filled { pos, .. } => Some(pos),
            _ => None,
        }
    }
}

/// `n` and the word for that many: `1 ship`, `2 ships`.
pub(crate) fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Rule::RowCount { row, count } => write!(
                f,
                "row {} holds {}",
                row + 1,
                plural(count, "ship cell", "ship cells")
            ),
            Rule::ColCount { col, count } => write!(
                f,
                "column {} holds {}",
                col + 1,
                plural(count, "ship cell", "ship cells")
            ),
            Rule::Fleet { len, count } => write!(
                f,
                "the fleet has {} of length {len}",
                plural(count, "ship", "ships")
            ),
            Rule::Clue { pos, clue } => {
                write!(f, "the clue {} at {}", content_name(clue), cell_name(pos))
            }
            Rule::Filled { pos, content } => write!(
                f,
                "the {} already filled at {}",
                content_name(content),
                cell_name(pos)
            ),
            Rule::NoTouch => f.write_str("ships never touch, not even diagonally"),
            Rule::ShipShape => f.write_str(
                "every ship part belongs to a straight ship of the fleet with water beyond its ends",
            ),
            Rule::NoShipFits { pos } => {
                write!(f, "no ship of the fleet fits through {}", cell_name(pos))
            }
            Rule::Other => f.write_str("the other rules"),
        }
    }
}
