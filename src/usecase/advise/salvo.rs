//! The Salvo variant: several shots a turn, announced together. A strategy picks a salvo's
//! squares one by one, each on the position where the earlier squares of the salvo are marked
//! as misses (each given that the earlier ones missed); then every result is applied at once
//! (`play_salvo`). [`check`] says whether a salvo size fits a position.

use super::board::{Bits, CELLS, Position, ShipKind, Square, SquareMark, squares};

/// The most shots one salvo may hold: the Milton Bradley rules fire five, one per ship.
pub const MAX_SALVO: usize = 10;

/// Why a salvo size does not fit a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SalvoError {
    /// A salvo of no shots.
    #[error("salvo: 0 shots asked for; a salvo fires at least 1")]
    Empty,
    /// More shots than [`MAX_SALVO`].
    #[error("salvo: {k} shots asked for; a salvo fires at most {MAX_SALVO}")]
    TooLarge {
        /// The size asked for.
        k: usize,
    },
    /// More shots than squares left to shoot.
    #[error("salvo: {k} shots asked for, but only {free} squares are left to shoot")]
    MoreThanFree {
        /// The size asked for.
        k: usize,
        /// The untouched squares.
        free: usize,
    },
}

/// Whether a salvo of `k` shots is one: at least one shot, at most [`MAX_SALVO`].
pub fn check_size(k: usize) -> Result<(), SalvoError> {
    match k {
        0 => Err(SalvoError::Empty),
        k if k > MAX_SALVO => Err(SalvoError::TooLarge { k }),
        _ => Ok(()),
    }
}

/// Whether a salvo of `k` shots can be fired on `pos`: [`check_size`], and no more shots than
/// untouched squares.
pub fn check(k: usize, pos: &Position) -> Result<(), SalvoError> {
    check_size(k)?;
    let free = pos.board.bits(SquareMark::Empty).count_ones() as usize;
    if k > free {
        return Err(SalvoError::MoreThanFree { k, free });
    }
    Ok(())
}

/// The `k` squares of a salvo on `pos` (fewer when fewer are untouched), in the order they
/// were picked: `next` picks each on the position where the earlier ones are misses, so the
/// first is the single shot `next` would fire on `pos`.
pub(crate) fn choose_salvo(
    pos: &Position,
    k: usize,
    mut next: impl FnMut(&Position) -> Square,
) -> Vec<Square> {
    let mut seen = pos.clone();
    let mut salvo = Vec::with_capacity(k);
    while salvo.len() < k && seen.board.bits(SquareMark::Empty) != 0 {
        let sq = next(&seen);
        if seen.board.get(sq) != SquareMark::Empty {
            break; // a sound strategy picks an untouched square; a guard against looping
        }
        seen.board.set(sq, SquareMark::Miss);
        salvo.push(sq);
    }
    salvo
}

/// Marks the results of a whole salvo on `pos` against the ships still `afloat`: each square
/// a miss or a hit; then every ship whose squares are all hit is sunk (its squares turn to
/// sunk, it leaves `afloat` and `pos.ships`).
pub(crate) fn apply_salvo(
    pos: &mut Position,
    afloat: &mut Vec<(ShipKind, Bits)>,
    salvo: &[Square],
) {
    for &sq in salvo {
        let hit = afloat.iter().any(|&(_, cells)| cells & sq.bit() != 0);
        let mark = if hit {
            SquareMark::Hit
        } else {
            SquareMark::Miss
        };
        pos.board.set(sq, mark);
    }
    let hits = pos.board.bits(SquareMark::Hit);
    afloat.retain(|&(kind, cells)| {
        let sunk = cells & !hits == 0;
        if sunk {
            for s in squares(cells) {
                pos.board.set(s, SquareMark::Sunk);
            }
            pos.ships.retain(|&s| s != kind);
        }
        !sunk
    });
}

/// Plays one Salvo game against the fleet `ships`, `k` shots a turn picked by `next` (see
/// [`choose_salvo`]), and returns the number of turns.
pub(crate) fn play_salvo(
    ships: &[(ShipKind, Bits)],
    k: usize,
    mut next: impl FnMut(&Position) -> Square,
) -> u32 {
    let mut pos = Position::opening();
    let mut afloat = ships.to_vec();
    let mut turns = 0u32;
    while !afloat.is_empty() {
        let salvo = choose_salvo(&pos, k, &mut next);
        turns += 1;
        if salvo.is_empty() || turns as usize > CELLS {
            break; // cannot happen with a sound strategy; a guard against looping
        }
        apply_salvo(&mut pos, &mut afloat, &salvo);
    }
    turns
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        Square::parse(name).unwrap()
    }

    /// The first untouched square in row-then-column order: a deterministic picker.
    fn first_free(pos: &Position) -> Square {
        squares(pos.board.bits(SquareMark::Empty))
            .next()
            .unwrap_or_else(|| Square::from_index(0))
    }

    #[test]
    fn a_salvo_is_picked_one_by_one_with_the_earlier_squares_missed() {
        let mut pos = Position::opening();
        pos.board.set(sq("A1"), SquareMark::Miss);
        let mut seen = Vec::new();
        let salvo = choose_salvo(&pos, 3, |p| {
            seen.push(p.board.bits(SquareMark::Miss).count_ones());
            first_free(p)
        });
        assert_eq!(salvo, [sq("B1"), sq("C1"), sq("D1")]);
        // Each pick saw the misses so far: A1, then B1 too, then C1 too.
        assert_eq!(seen, [1, 2, 3]);
        // The position itself is left as it was.
        assert_eq!(pos.board.bits(SquareMark::Miss).count_ones(), 1);
        // Fewer squares than asked when the board runs out.
        let mut full = Position::opening();
        for s in squares(super::super::board::ALL).skip(2) {
            full.board.set(s, SquareMark::Miss);
        }
        assert_eq!(choose_salvo(&full, 5, first_free).len(), 2);
    }

    #[test]
    fn the_results_of_a_salvo_are_applied_together() {
        // The PT boat on A1-B1, the submarine on A3-C3.
        let ships = vec![
            (ShipKind::PtBoat, sq("A1").bit() | sq("B1").bit()),
            (
                ShipKind::Submarine,
                sq("A3").bit() | sq("B3").bit() | sq("C3").bit(),
            ),
        ];
        let mut pos = Position::opening();
        pos.ships = vec![ShipKind::PtBoat, ShipKind::Submarine];
        let mut afloat = ships.clone();
        apply_salvo(
            &mut pos,
            &mut afloat,
            &[sq("A1"), sq("B1"), sq("A3"), sq("J10")],
        );
        assert_eq!(pos.board.get(sq("A1")), SquareMark::Sunk);
        assert_eq!(pos.board.get(sq("B1")), SquareMark::Sunk);
        assert_eq!(pos.board.get(sq("A3")), SquareMark::Hit);
        assert_eq!(pos.board.get(sq("J10")), SquareMark::Miss);
        assert_eq!(afloat, ships[1..]);
        assert_eq!(pos.ships, [ShipKind::Submarine]);
        // Shooting row by row, ten a turn: rows 1 to 3 hold every square, so three turns.
        assert_eq!(play_salvo(&ships, 10, first_free), 3);
        assert_eq!(play_salvo(&ships, 1, first_free), 23);
    }

    #[test]
    fn sizes_are_checked_against_the_cap_and_the_free_squares() {
        let pos = Position::opening();
        assert_eq!(check(0, &pos), Err(SalvoError::Empty));
        assert_eq!(
            check(MAX_SALVO + 1, &pos),
            Err(SalvoError::TooLarge { k: 11 })
        );
        assert_eq!(check(5, &pos), Ok(()));
        let mut late = Position::opening();
        for s in squares(super::super::board::ALL).skip(3) {
            late.board.set(s, SquareMark::Miss);
        }
        assert_eq!(check(3, &late), Ok(()));
        assert_eq!(
            check(4, &late),
            Err(SalvoError::MoreThanFree { k: 4, free: 3 })
        );
        assert!(
            check(4, &late)
                .unwrap_err()
                .to_string()
                .contains("only 3 squares")
        );
    }
}
