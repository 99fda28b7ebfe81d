//! Board geometry shared by every model and by the reasoning core: the halo around a ship (the
//! cells that must be water), the caps at its ends, and which line a ship lies along. The SAT
//! models, the ILP models, the placement list and pre-solving all take their shapes from here.

use crate::model::puzzle::{Dir, Orientation, Pos, Shape, Ship};

/// The cells around `ship` (its eight-neighbourhood, less its own cells) that lie on the board.
pub(crate) fn halo(ship: Ship, shape: Shape) -> impl Iterator<Item = Pos> {
    let (h, w) = match ship.orientation {
        Orientation::Horizontal => (1, ship.len),
        Orientation::Vertical => (ship.len, 1),
    };
    let top = ship.start.row as isize - 1;
    let left = ship.start.col as isize - 1;
    (top..top + h as isize + 2).flat_map(move |r| {
        (left..left + w as isize + 2).filter_map(move |c| {
            let inside = r > top && r <= top + h as isize && c > left && c <= left + w as isize;
            let on_board = r >= 0 && c >= 0 && shape.contains(Pos::new(r as usize, c as usize));
            (!inside && on_board).then(|| Pos::new(r as usize, c as usize))
        })
    })
}

/// The row-major indices of `ship`'s cells, from its start: [`Ship::cells`] without the
/// positions, for the reasoning core's inner loops (computed, not stored: on an open 100x100
/// board with every ship length, a list of them would hold 3.4 * 10^7 items).
pub(crate) fn cell_indices(ship: Ship, shape: Shape) -> impl Iterator<Item = usize> + Clone {
    let first = shape.index(ship.start);
    let step = match ship.orientation {
        Orientation::Horizontal => 1,
        Orientation::Vertical => shape.cols,
    };
    (0..ship.len).map(move |i| first + i * step)
}

/// The row-major indices of [`halo`]'s cells, in its order (row by row).
pub(crate) fn halo_indices(ship: Ship, shape: Shape) -> HaloIndices {
    let (h, w) = match ship.orientation {
        Orientation::Horizontal => (1, ship.len),
        Orientation::Vertical => (ship.len, 1),
    };
    let (top, left) = (ship.start.row, ship.start.col);
    HaloIndices {
        next: 0,
        end: 0,
        pending: None,
        row: top.saturating_sub(1),
        last_row: (top + h).min(shape.rows - 1),
        cols: shape.cols,
        span: (left.saturating_sub(1), (left + w).min(shape.cols - 1)),
        ship: (top, left, h, w),
    }
}

/// The iterator of [`halo_indices`], run by run: a row above or below the ship is one run of
/// cells, a row beside it the cell before it and the cell after it (where on the board).
#[derive(Clone, Debug)]
pub(crate) struct HaloIndices {
    /// The current run, `next..end`.
    next: usize,
    end: usize,
    /// The cell after the ship in the current row, once the cell before it is out.
    pending: Option<usize>,
    /// The row whose runs come next, and the last row of the halo.
    row: usize,
    last_row: usize,
    cols: usize,
    /// The halo's first and last column.
    span: (usize, usize),
    /// The ship's top row, left column, height and width.
    ship: (usize, usize, usize, usize),
}

impl Iterator for HaloIndices {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        loop {
            if self.next < self.end {
                self.next += 1;
                return Some(self.next - 1);
            }
            if let Some(after) = self.pending.take() {
                (self.next, self.end) = (after, after + 1);
                continue;
            }
            if self.row > self.last_row {
                return None;
            }
            let (top, left, h, w) = self.ship;
            let (row, base) = (self.row, self.row * self.cols);
            self.row += 1;
            if !(top..top + h).contains(&row) {
                (self.next, self.end) = (base + self.span.0, base + self.span.1 + 1);
                continue;
            }
            let after = (left + w < self.cols).then_some(base + left + w);
            match (left > 0).then(|| base + left - 1) {
                Some(before) => {
                    (self.next, self.end) = (before, before + 1);
                    self.pending = after;
                }
                None => self.pending = after,
            }
        }
    }
}

/// The cells that must be water for a ship to end where it ends: the two cells beyond its ends
/// along its axis, or all four orthogonal neighbours of a submarine. The rest of the halo follows
/// from the diagonal rule.
pub fn caps(ship: Ship, shape: Shape) -> impl Iterator<Item = Pos> {
    let first = ship.start;
    let last = ship.cells().last().unwrap_or(first);
    let dirs: &'static [(bool, Dir)] = match (ship.len, ship.orientation) {
        (1, _) => &[
            (true, Dir::Up),
            (true, Dir::Down),
            (true, Dir::Left),
            (true, Dir::Right),
        ],
        (_, Orientation::Horizontal) => &[(true, Dir::Left), (false, Dir::Right)],
        (_, Orientation::Vertical) => &[(true, Dir::Up), (false, Dir::Down)],
    };
    dirs.iter().filter_map(move |&(at_first, dir)| {
        let from = if at_first { first } else { last };
        shape.step(from, dir)
    })
}

/// Every position of a ship of length `len` on the board: horizontal ones first (row by row),
/// then vertical ones; a submarine once, as horizontal.
pub(crate) fn all_ships(len: usize, shape: Shape) -> impl Iterator<Item = Ship> {
    let orientations: &'static [Orientation] = if len == 1 {
        &[Orientation::Horizontal]
    } else {
        &[Orientation::Horizontal, Orientation::Vertical]
    };
    orientations.iter().flat_map(move |&orientation| {
        let (max_r, max_c) = match orientation {
            Orientation::Horizontal => (shape.rows, (shape.cols + 1).saturating_sub(len)),
            Orientation::Vertical => ((shape.rows + 1).saturating_sub(len), shape.cols),
        };
        (0..max_r).flat_map(move |r| {
            (0..max_c).map(move |c| Ship {
                start: Pos::new(r, c),
                len,
                orientation,
            })
        })
    })
}

/// The line a ship of length 2 or more lies along, numbered as [`Shape::lines`] counts them:
/// rows first, then columns. A submarine lies along no line (`None`).
pub(crate) fn axis(ship: Ship, shape: Shape) -> Option<usize> {
    match (ship.len, ship.orientation) {
        (1, _) => None,
        (_, Orientation::Horizontal) => Some(ship.start.row),
        (_, Orientation::Vertical) => Some(shape.rows + ship.start.col),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn halo_of_a_corner_ship() {
        let ship = Ship {
            start: Pos::new(0, 0),
            len: 2,
            orientation: Orientation::Horizontal,
        };
        let mut h: Vec<_> = halo(ship, Shape::new(5, 5)).collect();
        h.sort();
        assert_eq!(
            h,
            vec![
                Pos::new(0, 2),
                Pos::new(1, 0),
                Pos::new(1, 1),
                Pos::new(1, 2)
            ]
        );
    }

    #[test]
    fn the_indices_are_those_of_the_positions_in_their_order() {
        for (rows, cols) in [(1, 1), (1, 6), (6, 1), (4, 5), (7, 7)] {
            let shape = Shape::new(rows, cols);
            for len in 1..=rows.max(cols) {
                for ship in all_ships(len, shape) {
                    let index = |p: Pos| shape.index(p);
                    let cells: Vec<_> = ship.cells().map(index).collect();
                    assert_eq!(cell_indices(ship, shape).collect::<Vec<_>>(), cells);
                    let around: Vec<_> = halo(ship, shape).map(index).collect();
                    assert_eq!(halo_indices(ship, shape).collect::<Vec<_>>(), around);
                }
            }
        }
    }

    #[test]
    fn caps_coverage_and_axis() {
        let shape = Shape::new(4, 5);
        let ship = Ship {
            start: Pos::new(1, 2),
            len: 3,
            orientation: Orientation::Vertical,
        };
        let ends: Vec<_> = caps(ship, shape).collect();
        assert_eq!(
            ends,
            vec![Pos::new(0, 2)],
            "the lower cap lies off the board"
        );
        assert_eq!(axis(ship, shape), Some(4 + 2));
        let sub = Ship {
            start: Pos::new(0, 0),
            len: 1,
            orientation: Orientation::Horizontal,
        };
        assert_eq!(caps(sub, shape).count(), 2);
        assert_eq!(axis(sub, shape), None);
    }
}
