//! An independent rule checker. It shares no code with the encoders or the placement list: it
//! walks the grid, groups ship cells by eight-connectivity and checks shapes, pieces, fleet,
//! counts and clues from the rules alone. Every grid is checked here before it is printed.

use crate::model::puzzle::{Grid, Piece, Pos, Puzzle};
use std::fmt;

/// The first rule a grid breaks.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Violation {
    /// The grid and the puzzle differ in size.
    #[error("grid is {grid_rows}x{grid_cols} but the puzzle is {rows}x{cols}")]
    Size {
        /// Grid rows.
        grid_rows: usize,
        /// Grid columns.
        grid_cols: usize,
        /// Puzzle rows.
        rows: usize,
        /// Puzzle columns.
        cols: usize,
    },
    /// Ship cells that touch each other (also diagonally) without forming one straight ship.
    #[error("ship cells around {at} touch without forming one straight ship")]
    Shape {
        /// A cell of the bad group.
        at: Pos,
    },
    /// A cell's piece does not fit the ship it belongs to.
    #[error("cell {at} holds {found} but its ship needs {expected}")]
    Piece {
        /// The cell.
        at: Pos,
        /// What the ship shape requires.
        expected: PieceName,
        /// What the grid holds.
        found: PieceName,
    },
    /// A ship longer than any in the fleet, or too many or too few of one length.
    #[error("{found} ships of length {len}, fleet needs {expected}")]
    Fleet {
        /// Ship length.
        len: usize,
        /// Required count.
        expected: usize,
        /// Count on the grid.
        found: usize,
    },
    /// A row or column count is not met.
    #[error("{line} {index} holds {found} ship cells, count is {expected}")]
    Count {
        /// "row" or "column".
        line: &'static str,
        /// 0-based line index.
        index: usize,
        /// The count.
        expected: usize,
        /// Ship cells on the grid.
        found: usize,
    },
    /// A clue is contradicted.
    #[error("clue at {at} is not respected (grid holds {found})")]
    Clue {
        /// The clue's cell.
        at: Pos,
        /// What the grid holds.
        found: PieceName,
    },
}

/// A piece, named for messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceName(pub Piece);

impl fmt::Display for PieceName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use crate::model::puzzle::Dir::*;
        f.write_str(match self.0 {
            Piece::Water => "water",
            Piece::Submarine => "a submarine",
            Piece::Middle => "a middle",
            Piece::End(Down) => "a top end",
            Piece::End(Up) => "a bottom end",
            Piece::End(Right) => "a left end",
            Piece::End(Left) => "a right end",
        })
    }
}

/// Checks `grid` against every rule of `puzzle`.
pub fn verify(puzzle: &Puzzle, grid: &Grid) -> Result<(), Violation> {
    let (rows, cols) = (puzzle.rows(), puzzle.cols());
    if grid.rows() != rows || grid.cols() != cols {
        return Err(Violation::Size {
            grid_rows: grid.rows(),
            grid_cols: grid.cols(),
            rows,
            cols,
        });
    }
    let mut lengths = vec![0usize; rows.max(cols) + 1];
    let shape = puzzle.shape();
    let mut seen = vec![false; shape.cells()];
    for start in puzzle.positions() {
        if seen[shape.index(start)] || !grid.is_ship(start) {
            continue;
        }
        // Flood fill over the eight-neighbourhood.
        let mut group = vec![start];
        seen[shape.index(start)] = true;
        let mut next = 0;
        while next < group.len() {
            let at = group[next];
            next += 1;
            for dr in -1..=1 {
                for dc in -1..=1 {
                    if let Some(n) = at.offset(dr, dc, rows, cols)
                        && grid.is_ship(n)
                        && !seen[shape.index(n)]
                    {
                        seen[shape.index(n)] = true;
                        group.push(n);
                    }
                }
            }
        }
        let len = check_straight(grid, &group)?;
        lengths[len] += 1;
    }
    let fleet = puzzle.fleet();
    for (len, &found) in lengths.iter().enumerate().skip(1) {
        if found != fleet.count(len) {
            return Err(Violation::Fleet {
                len,
                expected: fleet.count(len),
                found,
            });
        }
    }
    if let Some(class) = fleet.classes().find(|c| c.len >= lengths.len()) {
        return Err(Violation::Fleet {
            len: class.len,
            expected: class.count,
            found: 0,
        });
    }
    let rows_found = (0..rows).map(|r| grid.row_total(r));
    let cols_found = (0..cols).map(|c| grid.col_total(c));
    let lines = puzzle
        .row_counts()
        .iter()
        .zip(rows_found)
        .enumerate()
        .map(|(i, (e, f))| ("row", i, *e, f))
        .chain(
            puzzle
                .col_counts()
                .iter()
                .zip(cols_found)
                .enumerate()
                .map(|(i, (e, f))| ("column", i, *e, f)),
        );
    for (line, index, expected, found) in lines {
        if let Some(expected) = expected
            && found != expected
        {
            return Err(Violation::Count {
                line,
                index,
                expected,
                found,
            });
        }
    }
    for (at, clue) in puzzle.clues() {
        if !clue.admits(grid.get(at)) {
            return Err(Violation::Clue {
                at,
                found: PieceName(grid.get(at)),
            });
        }
    }
    Ok(())
}

/// Checks that an eight-connected group is a 1xL or Lx1 line with the right pieces; returns L.
fn check_straight(grid: &Grid, group: &[Pos]) -> Result<usize, Violation> {
    let min_r = group.iter().map(|p| p.row).min().unwrap_or(0);
    let max_r = group.iter().map(|p| p.row).max().unwrap_or(0);
    let min_c = group.iter().map(|p| p.col).min().unwrap_or(0);
    let max_c = group.iter().map(|p| p.col).max().unwrap_or(0);
    let (h, w) = (max_r - min_r + 1, max_c - min_c + 1);
    if (h > 1 && w > 1) || group.len() != h * w {
        return Err(Violation::Shape { at: group[0] });
    }
    let len = group.len();
    for pos in group {
        let index = (pos.row - min_r) + (pos.col - min_c);
        let expected = match (len, index) {
            (1, _) => Piece::Submarine,
            (_, 0) if w > 1 => Piece::End(crate::model::puzzle::Dir::Right),
            (_, 0) => Piece::End(crate::model::puzzle::Dir::Down),
            (_, i) if i + 1 == len && w > 1 => Piece::End(crate::model::puzzle::Dir::Left),
            (_, i) if i + 1 == len => Piece::End(crate::model::puzzle::Dir::Up),
            _ => Piece::Middle,
        };
        let found = grid.get(*pos);
        if found != expected {
            return Err(Violation::Piece {
                at: *pos,
                expected: PieceName(expected),
                found: PieceName(found),
            });
        }
    }
    Ok(len)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::puzzle::{Clue, Dir, Fleet, Orientation, Ship};

    fn puzzle_for(grid: &Grid, fleet: Fleet) -> Puzzle {
        let rows = (0..grid.rows()).map(|r| Some(grid.row_total(r))).collect();
        let cols = (0..grid.cols()).map(|c| Some(grid.col_total(c))).collect();
        Puzzle::new(rows, cols, fleet).unwrap()
    }

    fn ship(r: usize, c: usize, len: usize, o: Orientation) -> Ship {
        Ship {
            start: Pos::new(r, c),
            len,
            orientation: o,
        }
    }

    #[test]
    fn accepts_a_legal_grid_and_rejects_breaks() {
        let ships = [
            ship(0, 0, 3, Orientation::Horizontal),
            ship(2, 0, 1, Orientation::Horizontal),
            ship(2, 2, 2, Orientation::Vertical),
        ];
        let grid = Grid::from_ships(4, 4, &ships);
        let fleet = Fleet::from_counts(vec![1, 1, 1]);
        let mut puzzle = puzzle_for(&grid, fleet.clone());
        assert_eq!(verify(&puzzle, &grid), Ok(()));

        puzzle
            .add_clue(Pos::new(0, 0), Clue::Piece(Piece::End(Dir::Right)))
            .unwrap();
        assert_eq!(verify(&puzzle, &grid), Ok(()));
        puzzle.remove_clue(Pos::new(0, 0));
        puzzle.add_clue(Pos::new(3, 3), Clue::Ship).unwrap();
        assert!(matches!(
            verify(&puzzle, &grid),
            Err(Violation::Clue { .. })
        ));

        // Diagonal touch.
        let touching = Grid::from_ships(
            4,
            4,
            &[
                ship(0, 0, 3, Orientation::Horizontal),
                ship(1, 3, 1, Orientation::Horizontal),
                ship(3, 0, 2, Orientation::Horizontal),
            ],
        );
        let p = puzzle_for(&touching, fleet.clone());
        assert!(matches!(
            verify(&p, &touching),
            Err(Violation::Shape { .. })
        ));

        // Wrong fleet.
        let p = puzzle_for(&grid, Fleet::from_counts(vec![2, 1]));
        assert!(matches!(verify(&p, &grid), Err(Violation::Fleet { .. })));

        // Inconsistent pieces.
        let mut bad = grid.clone();
        bad.set(Pos::new(0, 1), Piece::End(Dir::Left));
        let p = puzzle_for(&grid, fleet);
        assert!(matches!(verify(&p, &bad), Err(Violation::Piece { .. })));
    }
}
