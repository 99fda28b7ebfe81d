//! The hunt-and-target strategies, the weak levels of the game against the computer:
//! `beginner` (random shots until a hit, then beside the hits) and `hunter` (the checkerboard,
//! then along the line of the hits). Each names the squares it would shoot at, and the shot is
//! one of them drawn at random ([`any_of`]); `simulate` plays them.

use super::board::{Bits, CELLS, SIZE, Shift, ShotBoard, Square, SquareMark, squares};
use rand::RngExt;
use rand_chacha::ChaCha8Rng;

/// The beginner's squares: the untouched squares beside a hit (up, down, left or
/// right) while a ship is hit but not sunk, else every untouched square.
pub(crate) fn beginner(board: &ShotBoard) -> Bits {
    let empty = board.bits(SquareMark::Empty);
    let beside = beside(board.bits(SquareMark::Hit)) & empty;
    if beside != 0 { beside } else { empty }
}

/// The hunter's squares. While a ship is hit but not sunk: the untouched squares that
/// prolong a line of two or more hits, else those beside a hit. Otherwise the untouched
/// squares of the checkerboard (row + column even), which every ship of two squares or more
/// covers; else every untouched square.
pub(crate) fn hunter(board: &ShotBoard) -> Bits {
    let empty = board.bits(SquareMark::Empty);
    let hits = board.bits(SquareMark::Hit);
    let ends = Shift::ALL
        .into_iter()
        .fold(0, |ends, step| ends | step.apply(hits & step.apply(hits)))
        & empty;
    let even = empty & CHECKERBOARD;
    [ends, beside(hits) & empty, even]
        .into_iter()
        .find(|&choice| choice != 0)
        .unwrap_or(empty)
}

/// The squares whose row plus column is even.
const CHECKERBOARD: Bits = {
    let mut m = 0u128;
    let mut i = 0;
    while i < CELLS {
        if (i / SIZE + i % SIZE).is_multiple_of(2) {
            m |= 1 << i;
        }
        i += 1;
    }
    m
};

/// The squares beside those of `bits`: up, down, left or right.
fn beside(bits: Bits) -> Bits {
    Shift::ALL
        .into_iter()
        .fold(0, |near, step| near | step.apply(bits))
}

/// A square of `choice` drawn uniformly from `rng` (`choice` is not empty).
pub(crate) fn any_of(choice: Bits, rng: &mut ChaCha8Rng) -> Square {
    let k = rng.random_range(0..choice.count_ones().max(1));
    let square = squares(choice).nth(k as usize);
    square.unwrap_or_else(|| Square::from_index(0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::usecase::advise::board::Position;
    use rand::SeedableRng;

    /// A position with `misses` and `hits` marked, every ship afloat.
    fn marked(misses: &[&str], hits: &[&str]) -> Position {
        let mut pos = Position::opening();
        for (names, mark) in [(misses, SquareMark::Miss), (hits, SquareMark::Hit)] {
            for name in names {
                pos.board.set(Square::parse(name).unwrap(), mark);
            }
        }
        pos
    }

    fn names(bits: Bits) -> Vec<String> {
        squares(bits).map(|s| s.to_string()).collect()
    }

    #[test]
    fn the_beginner_shoots_anywhere_until_a_hit_then_beside_the_hits() {
        let hunting = marked(&["E5"], &[]);
        assert_eq!(
            beginner(&hunting.board),
            hunting.board.bits(SquareMark::Empty)
        );
        // A hit at A1 with a miss at B1: only A2 is left beside it.
        assert_eq!(names(beginner(&marked(&["B1"], &["A1"]).board)), ["A2"]);
        // Two hits in a line: every untouched square beside either, across the line too.
        let two = marked(&[], &["E5", "F5"]);
        assert_eq!(
            names(beginner(&two.board)),
            ["E4", "F4", "D5", "G5", "E6", "F6"]
        );
        // A shot is drawn among them: the same generator, the same shot; and not always one.
        let shot = |seed| any_of(beginner(&two.board), &mut ChaCha8Rng::seed_from_u64(seed));
        assert_eq!(shot(3), shot(3));
        let drawn: std::collections::HashSet<Square> = (0..20).map(shot).collect();
        assert!(drawn.len() > 1, "{drawn:?}");
        assert!(
            drawn
                .iter()
                .all(|s| beginner(&two.board) >> s.index() & 1 == 1)
        );
    }

    #[test]
    fn the_hunter_shoots_the_checkerboard_then_along_the_line_of_hits() {
        let hunting = marked(&["A1"], &[]);
        let even = hunter(&hunting.board);
        assert_eq!(even.count_ones(), 49, "the 50 even squares but A1");
        assert!(squares(even).all(|s| (s.row + s.col) % 2 == 0));
        // A lone hit: the squares beside it.
        assert_eq!(
            names(hunter(&marked(&[], &["E5"]).board)),
            ["E4", "D5", "F5", "E6"]
        );
        // Two hits in a row: only the ends of the line, here the left one (G5 is a miss).
        let line = marked(&["G5"], &["E5", "F5"]);
        assert_eq!(names(hunter(&line.board)), ["D5"]);
        // A line along a column, against the top edge: the square below it.
        assert_eq!(names(hunter(&marked(&[], &["C1", "C2"]).board)), ["C3"]);
    }
}
