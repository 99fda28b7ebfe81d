//! A solution: the placed [`Ship`]s and the [`Grid`] of pieces they make, with the checks a
//! grid of a solver or a file must pass before it is one.

use super::puzzle::{Dir, Orientation, Piece, Pos, Shape};
use serde::{Deserialize, Serialize};

/// A placed ship: its first (top or left) cell, length and orientation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Ship {
    /// Top or left cell.
    pub start: Pos,
    /// Number of cells.
    pub len: usize,
    /// Axis; submarines are recorded as horizontal.
    pub orientation: Orientation,
}

impl Ship {
    /// The cells of the ship, from its start.
    pub fn cells(self) -> impl Iterator<Item = Pos> {
        let (dr, dc) = match self.orientation {
            Orientation::Horizontal => (0, 1),
            Orientation::Vertical => (1, 0),
        };
        (0..self.len).map(move |i| Pos::new(self.start.row + dr * i, self.start.col + dc * i))
    }

    /// The piece at each cell, from its start.
    pub(crate) fn pieces(self) -> impl Iterator<Item = (Pos, Piece)> {
        self.cells()
            .enumerate()
            .map(move |(i, p)| (p, Piece::of_ship(self.len, i, self.orientation)))
    }
}

/// A fully decided board: every cell is water or a ship piece.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Grid {
    rows: usize,
    cols: usize,
    cells: Vec<Piece>,
}

impl Grid {
    /// An all-water grid.
    pub fn water(rows: usize, cols: usize) -> Self {
        Grid {
            rows,
            cols,
            cells: vec![Piece::Water; rows * cols],
        }
    }

    /// A grid holding the given ships, water elsewhere. Ships must lie on the board.
    pub fn from_ships(rows: usize, cols: usize, ships: &[Ship]) -> Self {
        let mut grid = Grid::water(rows, cols);
        for ship in ships {
            for (pos, piece) in ship.pieces() {
                grid.set(pos, piece);
            }
        }
        grid
    }

    /// A grid from ship-cell flags, row-major: each maximal straight run becomes a ship. Returns
    /// `None` when the flags hold a shape that is not a straight line (which the verifier would
    /// reject anyway).
    pub fn from_ship_cells(rows: usize, cols: usize, ship: &[bool]) -> Option<Self> {
        let shape = Shape::new(rows, cols);
        let is = |r: usize, c: usize| {
            let pos = Pos::new(r, c);
            shape.contains(pos) && ship[shape.index(pos)]
        };
        let mut grid = Grid::water(rows, cols);
        for r in 0..rows {
            for c in 0..cols {
                if !is(r, c) {
                    continue;
                }
                let h = (c > 0 && is(r, c - 1)) || is(r, c + 1);
                let v = (r > 0 && is(r - 1, c)) || is(r + 1, c);
                let piece = match (h, v) {
                    (true, true) => return None,
                    (false, false) => Piece::Submarine,
                    (true, false) => match (c > 0 && is(r, c - 1), is(r, c + 1)) {
                        (true, true) => Piece::Middle,
                        (false, _) => Piece::End(Dir::Right),
                        (true, false) => Piece::End(Dir::Left),
                    },
                    (false, true) => match (r > 0 && is(r - 1, c), is(r + 1, c)) {
                        (true, true) => Piece::Middle,
                        (false, _) => Piece::End(Dir::Down),
                        (true, false) => Piece::End(Dir::Up),
                    },
                };
                grid.set(Pos::new(r, c), piece);
            }
        }
        Some(grid)
    }

    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Number of columns.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// The board's size and cell numbering.
    pub(crate) fn shape(&self) -> Shape {
        Shape::new(self.rows, self.cols)
    }

    /// The piece at `pos`; positions off the board read as water.
    pub fn get(&self, pos: Pos) -> Piece {
        let shape = self.shape();
        if shape.contains(pos) {
            self.cells[shape.index(pos)]
        } else {
            Piece::Water
        }
    }

    /// Sets the piece at `pos`, which must lie on the board.
    pub fn set(&mut self, pos: Pos, piece: Piece) {
        let shape = self.shape();
        assert!(shape.contains(pos), "{pos} off the board");
        self.cells[shape.index(pos)] = piece;
    }

    /// Whether `pos` holds a ship part.
    pub fn is_ship(&self, pos: Pos) -> bool {
        self.get(pos).is_ship()
    }

    /// Row-major ship-cell flags.
    pub fn ship_cells(&self) -> Vec<bool> {
        self.cells.iter().map(|p| p.is_ship()).collect()
    }

    /// The ships on the grid, in row-major order of their first cell. Cells that do not form
    /// straight ships (which the verifier rejects) are skipped.
    pub fn ships(&self) -> Vec<Ship> {
        let mut ships = Vec::new();
        for r in 0..self.rows {
            for c in 0..self.cols {
                let pos = Pos::new(r, c);
                match self.get(pos) {
                    Piece::Submarine => ships.push(Ship {
                        start: pos,
                        len: 1,
                        orientation: Orientation::Horizontal,
                    }),
                    Piece::End(dir @ (Dir::Right | Dir::Down)) => {
                        let mut len = 1;
                        let mut at = pos;
                        while let Some(next) = at.step(dir, self.rows, self.cols) {
                            match self.get(next) {
                                Piece::Middle => len += 1,
                                Piece::End(d) if d == dir.opposite() => {
                                    len += 1;
                                    ships.push(Ship {
                                        start: pos,
                                        len,
                                        orientation: dir.orientation(),
                                    });
                                    break;
                                }
                                _ => break,
                            }
                            at = next;
                        }
                    }
                    _ => {}
                }
            }
        }
        ships
    }

    /// Number of ship cells in row `r`.
    pub fn row_total(&self, r: usize) -> usize {
        (0..self.cols)
            .filter(|&c| self.is_ship(Pos::new(r, c)))
            .count()
    }

    /// Number of ship cells in column `c`.
    pub fn col_total(&self, c: usize) -> usize {
        (0..self.rows)
            .filter(|&r| self.is_ship(Pos::new(r, c)))
            .count()
    }
}
