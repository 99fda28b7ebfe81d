//! Every legal placement of every ship length, pruned by the clues and the counts. The SAT and ILP
//! encoders, the generator and the hint engine all start from this list, so a rule learnt here
//! (see the CSC384 heuristics report: whole ships, pre-assigned pieces, row and column budgets)
//! helps every backend at once.

use crate::puzzle::{Clue, Orientation, Pos, Puzzle, Ship};

/// The legal placements of a puzzle, with an index from cells to the placements covering them.
#[derive(Clone, Debug)]
pub struct Placements {
    ships: Vec<Ship>,
    covering: Vec<Vec<usize>>,
    cols: usize,
}

impl Placements {
    /// Enumerates the placements of `puzzle`'s fleet that no clue or count rules out.
    ///
    /// A placement is kept when:
    /// - it lies on the board and its length occurs in the fleet;
    /// - every clue under it admits the piece the ship puts there (an end clue only under the
    ///   matching end, a submarine clue only under a submarine, water never);
    /// - no cell of its halo (the eight-neighbourhood around it) holds a ship clue;
    /// - in every row and column it touches, its own cells plus the ship clues outside it do not
    ///   exceed the count.
    pub fn new(puzzle: &Puzzle) -> Self {
        let (rows, cols) = (puzzle.rows(), puzzle.cols());
        let row_clued = clued_ship_cells(puzzle, |p| p.row, rows);
        let col_clued = clued_ship_cells(puzzle, |p| p.col, cols);
        let mut ships = Vec::new();
        for class in puzzle.fleet().classes() {
            let orientations: &[Orientation] = if class.len == 1 {
                &[Orientation::Horizontal]
            } else {
                &[Orientation::Horizontal, Orientation::Vertical]
            };
            for &orientation in orientations {
                let (max_r, max_c) = match orientation {
                    Orientation::Horizontal => (rows, (cols + 1).saturating_sub(class.len)),
                    Orientation::Vertical => ((rows + 1).saturating_sub(class.len), cols),
                };
                for r in 0..max_r {
                    for c in 0..max_c {
                        let ship = Ship {
                            start: Pos::new(r, c),
                            len: class.len,
                            orientation,
                        };
                        if is_legal(puzzle, ship, &row_clued, &col_clued) {
                            ships.push(ship);
                        }
                    }
                }
            }
        }
        Placements::from_ships(rows, cols, ships)
    }

    fn from_ships(rows: usize, cols: usize, ships: Vec<Ship>) -> Self {
        let mut covering = vec![Vec::new(); rows * cols];
        for (i, ship) in ships.iter().enumerate() {
            for pos in ship.cells() {
                covering[pos.row * cols + pos.col].push(i);
            }
        }
        Placements {
            ships,
            covering,
            cols,
        }
    }

    /// Keeps the placements whose flag in `keep` is true (one flag per placement, in order).
    pub fn retain(&mut self, keep: &[bool]) {
        let rows = self.covering.len() / self.cols.max(1);
        let ships = self
            .ships
            .iter()
            .zip(keep)
            .filter(|(_, k)| **k)
            .map(|(s, _)| *s)
            .collect();
        *self = Placements::from_ships(rows, self.cols, ships);
    }

    /// All placements, grouped by length (shortest first), then orientation, then start.
    pub fn ships(&self) -> &[Ship] {
        &self.ships
    }

    /// Number of placements.
    pub fn len(&self) -> usize {
        self.ships.len()
    }

    /// Whether there are no placements at all.
    pub fn is_empty(&self) -> bool {
        self.ships.is_empty()
    }

    /// Indices of the placements covering `pos`.
    pub fn covering(&self, pos: Pos) -> &[usize] {
        &self.covering[pos.row * self.cols + pos.col]
    }

    /// Indices of the placements of length `len`.
    pub fn of_len(&self, len: usize) -> impl Iterator<Item = usize> + '_ {
        self.ships
            .iter()
            .enumerate()
            .filter(move |(_, s)| s.len == len)
            .map(|(i, _)| i)
    }
}

/// The cells around `ship` (its eight-neighbourhood, less its own cells) that lie on the board.
pub fn halo(ship: Ship, rows: usize, cols: usize) -> impl Iterator<Item = Pos> {
    let (h, w) = match ship.orientation {
        Orientation::Horizontal => (1, ship.len),
        Orientation::Vertical => (ship.len, 1),
    };
    let top = ship.start.row as isize - 1;
    let left = ship.start.col as isize - 1;
    (top..top + h as isize + 2).flat_map(move |r| {
        (left..left + w as isize + 2).filter_map(move |c| {
            let inside = r > top && r <= top + h as isize && c > left && c <= left + w as isize;
            let on_board = r >= 0 && c >= 0 && (r as usize) < rows && (c as usize) < cols;
            (!inside && on_board).then(|| Pos::new(r as usize, c as usize))
        })
    })
}

/// Ship clues per line (row or column, chosen by `line`).
fn clued_ship_cells(puzzle: &Puzzle, line: impl Fn(Pos) -> usize, n: usize) -> Vec<usize> {
    let mut counts = vec![0; n];
    for (pos, clue) in puzzle.clues() {
        if clue.is_ship() {
            counts[line(pos)] += 1;
        }
    }
    counts
}

fn is_legal(puzzle: &Puzzle, ship: Ship, row_clued: &[usize], col_clued: &[usize]) -> bool {
    let (rows, cols) = (puzzle.rows(), puzzle.cols());
    // Cells under the ship: clues must admit the piece; count ship clues per line under it.
    let mut clued_inside = 0;
    for (pos, piece) in ship.pieces() {
        match puzzle.clue(pos) {
            Some(clue) if !clue.admits(piece) => return false,
            Some(_) => clued_inside += 1,
            None => {}
        }
    }
    if halo(ship, rows, cols).any(|p| puzzle.clue(p).is_some_and(Clue::is_ship)) {
        return false;
    }
    // Budgets. Along the ship's own line, its cells plus the other ship clues must fit; across,
    // each crossed line needs room for one more cell unless a clue there is this very cell.
    let (along, along_clued, across, across_clued) = match ship.orientation {
        Orientation::Horizontal => (
            puzzle.row_counts(),
            row_clued,
            puzzle.col_counts(),
            col_clued,
        ),
        Orientation::Vertical => (
            puzzle.col_counts(),
            col_clued,
            puzzle.row_counts(),
            row_clued,
        ),
    };
    let line = |p: Pos| match ship.orientation {
        Orientation::Horizontal => (p.row, p.col),
        Orientation::Vertical => (p.col, p.row),
    };
    let (main, _) = line(ship.start);
    if along[main].is_some_and(|count| ship.len + along_clued[main] - clued_inside > count) {
        return false;
    }
    for pos in ship.cells() {
        let (_, cross) = line(pos);
        if let Some(count) = across[cross] {
            let here = usize::from(puzzle.clue(pos).is_some_and(Clue::is_ship));
            if 1 + across_clued[cross] - here > count {
                return false;
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::{Dir, Fleet, Piece};

    fn open(rows: usize, cols: usize, fleet: Fleet) -> Puzzle {
        Puzzle::new(vec![None; rows], vec![None; cols], fleet).unwrap()
    }

    #[test]
    fn counts_on_an_open_board_match_the_formula() {
        // Length 1: R*C; length L >= 2: R*(C-L+1) + C*(R-L+1).
        let p = open(7, 12, Fleet::from_counts(vec![1, 1, 0, 0, 0, 1]));
        let pl = Placements::new(&p);
        assert_eq!(pl.of_len(1).count(), 84);
        assert_eq!(pl.of_len(2).count(), 7 * 11 + 12 * 6);
        assert_eq!(pl.of_len(6).count(), 7 * 7 + 12 * 2);
        assert_eq!(pl.of_len(3).count(), 0);
    }

    #[test]
    fn halo_of_a_corner_ship() {
        let ship = Ship {
            start: Pos::new(0, 0),
            len: 2,
            orientation: Orientation::Horizontal,
        };
        let mut h: Vec<_> = halo(ship, 5, 5).collect();
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
    fn clues_prune_placements() {
        let mut p = open(5, 5, Fleet::from_counts(vec![1, 1, 1]));
        p.add_clue(Pos::new(2, 2), Clue::Piece(Piece::End(Dir::Down)))
            .unwrap();
        let pl = Placements::new(&p);
        // Every placement covering (2,2) is vertical and starts there.
        for &i in pl.covering(Pos::new(2, 2)) {
            let s = pl.ships()[i];
            assert_eq!(s.start, Pos::new(2, 2));
            assert_eq!(s.orientation, Orientation::Vertical);
        }
        assert_eq!(pl.covering(Pos::new(2, 2)).len(), 2); // lengths 2 and 3
        // Nothing sits in the halo of the clue's cell except ships through it.
        assert!(pl.covering(Pos::new(1, 1)).is_empty());
    }

    #[test]
    fn zero_count_lines_hold_nothing() {
        let mut p = Puzzle::new(
            vec![Some(0), Some(2), Some(0)],
            vec![Some(1), Some(1), Some(0)],
            Fleet::from_counts(vec![0, 1]),
        )
        .unwrap();
        p.add_clue(Pos::new(1, 0), Clue::Ship).unwrap();
        let pl = Placements::new(&p);
        assert_eq!(pl.ships().len(), 1);
        assert_eq!(pl.ships()[0].start, Pos::new(1, 0));
    }
}
