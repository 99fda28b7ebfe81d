//! The puzzle model: board size, row and column counts, the fleet, the clues, and the solved
//! [`Grid`]. Nothing here assumes a 10x10 board or the standard fleet; every format parser builds a
//! [`Puzzle`] and every solver returns a [`Grid`].

pub use super::grid::{Grid, Ship};
use serde::{Deserialize, Serialize};
use std::fmt;

/// A cell position, 0-based, row first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Pos {
    /// Row index, 0 at the top.
    pub row: usize,
    /// Column index, 0 at the left.
    pub col: usize,
}

impl Pos {
    /// A position from a row and a column.
    pub const fn new(row: usize, col: usize) -> Self {
        Pos { row, col }
    }

    /// The neighbouring position one step in `dir`, if it lies on a `rows` x `cols` board.
    pub fn step(self, dir: Dir, rows: usize, cols: usize) -> Option<Pos> {
        let (dr, dc) = dir.delta();
        self.offset(dr, dc, rows, cols)
    }

    /// The position moved by `(dr, dc)`, if it lies on a `rows` x `cols` board.
    pub fn offset(self, dr: isize, dc: isize, rows: usize, cols: usize) -> Option<Pos> {
        let row = self.row.checked_add_signed(dr)?;
        let col = self.col.checked_add_signed(dc)?;
        (row < rows && col < cols).then_some(Pos { row, col })
    }
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.row, self.col)
    }
}

/// The size of a board and the row-major numbering of its cells: cell `row * cols + col`. Every
/// per-cell vector in the crate is indexed this way, through these helpers only.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shape {
    /// Number of rows.
    pub rows: usize,
    /// Number of columns.
    pub cols: usize,
}

impl Shape {
    /// A `rows` x `cols` board.
    pub(crate) const fn new(rows: usize, cols: usize) -> Self {
        Shape { rows, cols }
    }

    /// Number of cells.
    pub const fn cells(self) -> usize {
        self.rows * self.cols
    }

    /// Number of lines: rows, then columns.
    pub(crate) const fn lines(self) -> usize {
        self.rows + self.cols
    }

    /// Whether `pos` lies on the board.
    pub(crate) const fn contains(self, pos: Pos) -> bool {
        pos.row < self.rows && pos.col < self.cols
    }

    /// The row-major index of `pos`, which must lie on the board.
    pub(crate) const fn index(self, pos: Pos) -> usize {
        debug_assert!(self.contains(pos));
        pos.row * self.cols + pos.col
    }

    /// The position of row-major index `index`.
    pub(crate) const fn pos(self, index: usize) -> Pos {
        Pos::new(index / self.cols, index % self.cols)
    }

    /// All positions, row-major.
    pub(crate) fn positions(self) -> impl Iterator<Item = Pos> {
        (0..self.cells()).map(move |i| self.pos(i))
    }

    /// The cell indices of row `row`, left to right.
    pub(crate) fn row(self, row: usize) -> impl Iterator<Item = usize> + Clone {
        (0..self.cols).map(move |c| row * self.cols + c)
    }

    /// The cell indices of column `col`, top to bottom.
    pub(crate) fn col(self, col: usize) -> impl Iterator<Item = usize> + Clone {
        (0..self.rows).map(move |r| r * self.cols + col)
    }

    /// The neighbouring position one step in `dir`, if it lies on the board.
    pub(crate) fn step(self, pos: Pos, dir: Dir) -> Option<Pos> {
        pos.step(dir, self.rows, self.cols)
    }
}

/// One of the four board directions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Dir {
    /// Towards row 0.
    Up,
    /// Towards the last row.
    Down,
    /// Towards column 0.
    Left,
    /// Towards the last column.
    Right,
}

impl Dir {
    /// All four directions.
    pub const ALL: [Dir; 4] = [Dir::Up, Dir::Down, Dir::Left, Dir::Right];

    /// Row and column step of this direction.
    pub(crate) const fn delta(self) -> (isize, isize) {
        match self {
            Dir::Up => (-1, 0),
            Dir::Down => (1, 0),
            Dir::Left => (0, -1),
            Dir::Right => (0, 1),
        }
    }

    /// The opposite direction.
    pub(crate) const fn opposite(self) -> Dir {
        match self {
            Dir::Up => Dir::Down,
            Dir::Down => Dir::Up,
            Dir::Left => Dir::Right,
            Dir::Right => Dir::Left,
        }
    }

    /// The axis this direction runs along.
    pub(crate) const fn orientation(self) -> Orientation {
        match self {
            Dir::Up | Dir::Down => Orientation::Vertical,
            Dir::Left | Dir::Right => Orientation::Horizontal,
        }
    }
}

/// The axis a ship lies along.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Orientation {
    /// Along a row.
    Horizontal,
    /// Along a column.
    Vertical,
}

impl Orientation {
    /// The direction from a ship's first cell towards its last.
    pub(crate) const fn forward(self) -> Dir {
        match self {
            Orientation::Horizontal => Dir::Right,
            Orientation::Vertical => Dir::Down,
        }
    }
}

/// What a solved cell holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Piece {
    /// No ship.
    Water,
    /// A ship of length one.
    Submarine,
    /// The end of a longer ship; the rest of the ship lies in the given direction
    /// (`End(Dir::Down)` is the top end of a vertical ship).
    End(Dir),
    /// An inner cell of a ship of length three or more.
    Middle,
}

impl Piece {
    /// Whether the cell is part of a ship.
    pub const fn is_ship(self) -> bool {
        !matches!(self, Piece::Water)
    }

    /// The piece at `index` of a ship of `len` cells lying along `orientation`.
    pub(crate) fn of_ship(len: usize, index: usize, orientation: Orientation) -> Piece {
        let forward = orientation.forward();
        match (len, index) {
            (1, _) => Piece::Submarine,
            (_, 0) => Piece::End(forward),
            (_, i) if i + 1 == len => Piece::End(forward.opposite()),
            _ => Piece::Middle,
        }
    }
}

/// A revealed cell of a puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Clue {
    /// The cell holds exactly this piece.
    Piece(Piece),
    /// The cell holds some ship part, of unknown kind (krazydad `?`, jolyonb `#`).
    Ship,
}

impl Clue {
    /// Whether the clue says the cell is part of a ship.
    pub const fn is_ship(self) -> bool {
        match self {
            Clue::Piece(p) => p.is_ship(),
            Clue::Ship => true,
        }
    }

    /// Whether a solved cell holding `piece` agrees with this clue.
    pub(crate) fn admits(self, piece: Piece) -> bool {
        match self {
            Clue::Piece(p) => p == piece,
            Clue::Ship => piece.is_ship(),
        }
    }
}

/// The fleet: how many ships of each length must be placed.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Fleet {
    /// `counts[i]` is the number of ships of length `i + 1`; no trailing zeros.
    counts: Vec<usize>,
}

/// One class of ships in a fleet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShipClass {
    /// Cells per ship.
    pub len: usize,
    /// Number of ships of this length.
    pub count: usize,
}

impl Fleet {
    /// A fleet from counts by length: `counts[0]` submarines, `counts[1]` ships of length 2, ...
    pub fn from_counts(mut counts: Vec<usize>) -> Self {
        while counts.last() == Some(&0) {
            counts.pop();
        }
        Fleet { counts }
    }

    /// The standard fleet: one of length 4, two of 3, three of 2, four submarines.
    pub fn standard() -> Self {
        Fleet::from_counts(vec![4, 3, 2, 1])
    }

    /// Number of ships of length `len`.
    pub fn count(&self, len: usize) -> usize {
        len.checked_sub(1)
            .and_then(|i| self.counts.get(i))
            .copied()
            .unwrap_or(0)
    }

    /// The longest ship length, 0 for an empty fleet.
    pub(crate) fn max_len(&self) -> usize {
        self.counts.len()
    }

    /// Counts by length, starting with submarines.
    pub(crate) fn counts(&self) -> &[usize] {
        &self.counts
    }

    /// The ship classes with at least one ship, shortest first.
    pub fn classes(&self) -> impl Iterator<Item = ShipClass> + '_ {
        self.counts
            .iter()
            .enumerate()
            .filter(|(_, c)| **c > 0)
            .map(|(i, &count)| ShipClass { len: i + 1, count })
    }

    /// Total number of ships.
    pub(crate) fn total_ships(&self) -> usize {
        self.counts.iter().sum()
    }

    /// Total number of ship cells.
    pub fn total_cells(&self) -> usize {
        self.classes().map(|c| c.len * c.count).sum()
    }
}

impl fmt::Display for Fleet {
    /// Compact form `1x4,2x3,3x2,4x1`, longest first.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self
            .classes()
            .collect::<Vec<_>>()
            .iter()
            .rev()
            .map(|c| format!("{}x{}", c.count, c.len))
            .collect();
        f.write_str(&parts.join(","))
    }
}

/// Why a puzzle could not be built from its parts.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PuzzleError {
    /// The board has no cells.
    #[error("the board must have at least one row and one column")]
    EmptyBoard,
    /// A count vector has the wrong length.
    #[error("expected {expected} {what} counts, found {found}")]
    CountLength {
        /// "row" or "column".
        what: &'static str,
        /// Board dimension.
        expected: usize,
        /// Length given.
        found: usize,
    },
    /// A clue lies outside the board.
    #[error("clue at {pos} lies outside the {rows}x{cols} board")]
    ClueOutside {
        /// Where the clue is.
        pos: Pos,
        /// Board rows.
        rows: usize,
        /// Board columns.
        cols: usize,
    },
    /// Two different clues name the same cell.
    #[error("two different clues for cell {pos}")]
    ConflictingClues {
        /// The cell.
        pos: Pos,
    },
}

/// A Battleship-solitaire puzzle on any rectangular board.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Puzzle {
    rows: usize,
    cols: usize,
    row_counts: Vec<Option<usize>>,
    col_counts: Vec<Option<usize>>,
    fleet: Fleet,
    /// Row-major, one entry per cell.
    clues: Vec<Option<Clue>>,
}

impl Puzzle {
    /// A puzzle without clues. `None` counts are unknown.
    pub fn new(
        row_counts: Vec<Option<usize>>,
        col_counts: Vec<Option<usize>>,
        fleet: Fleet,
    ) -> Result<Self, PuzzleError> {
        let (rows, cols) = (row_counts.len(), col_counts.len());
        if rows == 0 || cols == 0 {
            return Err(PuzzleError::EmptyBoard);
        }
        Ok(Puzzle {
            rows,
            cols,
            row_counts,
            col_counts,
            fleet,
            clues: vec![None; rows * cols],
        })
    }

    /// Adds a clue. The same clue twice is accepted; two different clues for one cell are not.
    pub fn add_clue(&mut self, pos: Pos, clue: Clue) -> Result<(), PuzzleError> {
        let index = self.index(pos).ok_or(PuzzleError::ClueOutside {
            pos,
            rows: self.rows,
            cols: self.cols,
        })?;
        match self.clues[index] {
            Some(old) if old != clue => Err(PuzzleError::ConflictingClues { pos }),
            _ => {
                self.clues[index] = Some(clue);
                Ok(())
            }
        }
    }

    /// The same board, counts and fleet, with no clue.
    pub(crate) fn without_clues(&self) -> Puzzle {
        Puzzle {
            clues: vec![None; self.clues.len()],
            ..self.clone()
        }
    }

    /// Removes the clue of a cell, if any.
    pub fn remove_clue(&mut self, pos: Pos) {
        if let Some(i) = self.index(pos) {
            self.clues[i] = None;
        }
    }

    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Number of columns.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Ship cells required in each row (`None` = unknown).
    pub fn row_counts(&self) -> &[Option<usize>] {
        &self.row_counts
    }

    /// Ship cells required in each column (`None` = unknown).
    pub fn col_counts(&self) -> &[Option<usize>] {
        &self.col_counts
    }

    /// The fleet to place.
    pub fn fleet(&self) -> &Fleet {
        &self.fleet
    }

    /// The clue at `pos`, if any.
    pub fn clue(&self, pos: Pos) -> Option<Clue> {
        self.index(pos).and_then(|i| self.clues[i])
    }

    /// All clues in row-major order.
    pub fn clues(&self) -> impl Iterator<Item = (Pos, Clue)> + '_ {
        self.clues
            .iter()
            .enumerate()
            .filter_map(|(i, c)| c.map(|c| (self.shape().pos(i), c)))
    }

    /// Number of clues.
    pub fn clue_count(&self) -> usize {
        self.clues.iter().flatten().count()
    }

    /// The board's size and cell numbering.
    pub fn shape(&self) -> Shape {
        Shape::new(self.rows, self.cols)
    }

    /// Row-major index of `pos`, if it lies on the board.
    pub(crate) fn index(&self, pos: Pos) -> Option<usize> {
        let shape = self.shape();
        shape.contains(pos).then(|| shape.index(pos))
    }

    /// All positions, row-major.
    pub fn positions(&self) -> impl Iterator<Item = Pos> + use<> {
        self.shape().positions()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_of_a_vertical_ship() {
        let ship = Ship {
            start: Pos::new(1, 2),
            len: 3,
            orientation: Orientation::Vertical,
        };
        let pieces: Vec<_> = ship.pieces().collect();
        assert_eq!(pieces[0], (Pos::new(1, 2), Piece::End(Dir::Down)));
        assert_eq!(pieces[1], (Pos::new(2, 2), Piece::Middle));
        assert_eq!(pieces[2], (Pos::new(3, 2), Piece::End(Dir::Up)));
    }

    #[test]
    fn ships_round_trip_through_grid() {
        let ships = vec![
            Ship {
                start: Pos::new(0, 0),
                len: 4,
                orientation: Orientation::Horizontal,
            },
            Ship {
                start: Pos::new(2, 0),
                len: 1,
                orientation: Orientation::Horizontal,
            },
            Ship {
                start: Pos::new(2, 2),
                len: 2,
                orientation: Orientation::Vertical,
            },
        ];
        let grid = Grid::from_ships(5, 5, &ships);
        assert_eq!(grid.ships(), ships);
        let again = Grid::from_ship_cells(5, 5, &grid.ship_cells()).unwrap();
        assert_eq!(again, grid);
    }

    #[test]
    fn fleet_display_and_totals() {
        let fleet = Fleet::standard();
        assert_eq!(fleet.to_string(), "1x4,2x3,3x2,4x1");
        assert_eq!(fleet.total_cells(), 20);
        assert_eq!(fleet.total_ships(), 10);
        assert_eq!(Fleet::from_counts(vec![1, 0, 0]).max_len(), 1);
    }

    #[test]
    fn conflicting_clues_are_rejected() {
        let mut p = Puzzle::new(vec![Some(1); 3], vec![Some(1); 3], Fleet::standard()).unwrap();
        p.add_clue(Pos::new(0, 0), Clue::Piece(Piece::Water))
            .unwrap();
        p.add_clue(Pos::new(0, 0), Clue::Piece(Piece::Water))
            .unwrap();
        assert_eq!(
            p.add_clue(Pos::new(0, 0), Clue::Ship),
            Err(PuzzleError::ConflictingClues {
                pos: Pos::new(0, 0)
            })
        );
        assert!(matches!(
            p.add_clue(Pos::new(3, 0), Clue::Ship),
            Err(PuzzleError::ClueOutside { .. })
        ));
    }
}
