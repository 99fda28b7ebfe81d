//! What reading and writing share: the hosts and prefix, the cell codes and the fleet presets.

use crate::model::puzzle::{Clue, Dir, Piece};

/// The canonical prefix written by [`super::url`].
pub(crate) const CANONICAL_PREFIX: &str = "https://puzz.link/p?";

/// The hosts and paths before `?battleship/` that are read (with `http://`, `https://` or no
/// scheme).
pub(super) const HOSTS: [&str; 2] = ["puzz.link/p", "pzv.jp/p.html"];

/// The variety name in the URL.
pub(super) const VARIETY: &str = "battleship";

/// What a URL is expected to look like, for messages.
pub(super) const URL_SHAPE: &str =
    "a puzz.link battleship URL (https://puzz.link/p?battleship/W/H/...)";

/// Counts above this need pzprjs' `+` form, which its count decoder does not read.
pub(super) const MAX_COUNT: usize = 255;

/// Ship lengths above this need two base-36 digits in a piece, which pzprjs cannot tell apart.
pub(super) const MAX_SHIP_LEN: usize = 35;

/// A pzprjs cell clue, as numbered in `statuepark.js` (`Board@battleship`: `UP` 1 ... `DNRT` 10).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum CellCode {
    /// A clue the model holds.
    Clue(Clue),
    /// A corner clue (7-10) of the tetromino and pentomino fleets.
    Corner(u32),
}

impl CellCode {
    /// The clue of pzprjs code `n` (`None` when out of range).
    pub(super) fn of(n: u32) -> Option<CellCode> {
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
pub(super) fn code_of(clue: Clue) -> char {
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
pub(super) const PRESETS: [(char, &[usize]); 3] = [
    ('c', &[3, 2, 1]),
    ('d', &[4, 3, 2, 1]),
    ('e', &[5, 4, 3, 2, 1]),
];
