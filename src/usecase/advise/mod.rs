//! Shot advice for the two-player Battleship game: the Rowan 2013 contest's counting rule
//! ([`rowan`]), each square's probability of holding a ship given the board ([`posterior`]),
//! and self-play to measure strategies ([`simulate`]); [`game`] reads a game as a player
//! records it and advises its next shot. [`contest`] reads and writes the
//! contest's text format; [`board`] holds the 10x10 board, the ships and their placements;
//! [`report`] writes advice, posteriors and self-play summaries as text, heat maps or JSON.

pub mod board;
pub mod contest;
pub mod game;
mod hunt;
pub mod posterior;
pub mod report;
pub mod rowan;
pub mod salvo;
pub mod simulate;

pub use board::{Position, ShipKind, ShotBoard, Square, SquareMark};
pub use posterior::{Posterior, TouchRule};
