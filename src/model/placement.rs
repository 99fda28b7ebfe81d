//! Every legal placement of every ship length, pruned by the clues and the counts. The SAT and ILP
//! encoders, the generator and the hint engine all start from this list, so a rule learnt here
//! (see the CSC384 heuristics report: whole ships, pre-assigned pieces, row and column budgets)
//! helps every backend at once.

use crate::model::deadline::{Deadline, TimeLimit};
use crate::model::geometry::{all_ships, halo, halo_indices};
use crate::model::puzzle::{Clue, Orientation, Pos, Puzzle, Shape, Ship};
use std::sync::{Arc, Mutex, MutexGuard};

/// The legal placements of a puzzle, with an index from cells to the placements covering them
/// (one flat list for the whole board, so its size is linear in the placements' cells).
#[derive(Clone, Debug)]
pub struct Placements {
    ships: Vec<Ship>,
    shape: Shape,
    /// `covering[cover_start[c]..cover_start[c + 1]]`: the placements covering cell `c`, as
    /// `u32` to halve the index (3.4 * 10^7 items on an open 100x100 board with every length).
    cover_start: Vec<usize>,
    covering: Vec<u32>,
    /// The halo index ([`Placements::halo_index`]) once built, shared by the clones of these
    /// placements (a clone is the same list: only [`Placements::retain`] changes it, and that
    /// makes a new value).
    halo: Arc<Mutex<Option<Arc<HaloIndex>>>>,
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
        match Placements::within(puzzle, &Deadline::NONE) {
            Ok(placements) => placements,
            Err(TimeLimit) => unreachable!("no deadline to pass"),
        }
    }

    /// [`Placements::new`], giving up once `deadline` passes.
    pub(crate) fn within(puzzle: &Puzzle, deadline: &Deadline) -> Result<Self, TimeLimit> {
        let shape = puzzle.shape();
        let row_clued = clued_ship_cells(puzzle, |p| p.row, shape.rows);
        let col_clued = clued_ship_cells(puzzle, |p| p.col, shape.cols);
        // Per cell, whether a clue there says ship (`None` when no clue does: no halo to check).
        let ship_clued: Option<Vec<bool>> = (row_clued.iter().sum::<usize>() > 0).then(|| {
            shape
                .positions()
                .map(|p| puzzle.clue(p).is_some_and(Clue::is_ship))
                .collect()
        });
        let clued = Clued {
            rows: &row_clued,
            cols: &col_clued,
            ship: ship_clued.as_deref(),
        };
        let mut pulse = deadline.pulse();
        let mut ships = Vec::new();
        for class in puzzle.fleet().classes() {
            for ship in all_ships(class.len, shape) {
                pulse.beat()?;
                if is_legal(puzzle, ship, &clued) {
                    ships.push(ship);
                }
            }
        }
        deadline.check()?;
        Placements::from_ships(shape, ships, deadline)
    }

    /// The placements `ships` with their cover index, built within `deadline` (on an open
    /// 100x100 board with ships of every length up to 100, tens of millions of entries).
    fn from_ships(shape: Shape, ships: Vec<Ship>, deadline: &Deadline) -> Result<Self, TimeLimit> {
        let mut pulse = deadline.pulse();
        // Counting sort of (cell, placement) pairs by cell: the flat cover index.
        let mut cover_start = vec![0usize; shape.cells() + 1];
        for ship in &ships {
            pulse.beat()?;
            for pos in ship.cells() {
                cover_start[shape.index(pos) + 1] += 1;
            }
        }
        for c in 0..shape.cells() {
            cover_start[c + 1] += cover_start[c];
        }
        let mut next = cover_start.clone();
        let mut covering = vec![0; cover_start[shape.cells()]];
        for (i, ship) in ships.iter().enumerate() {
            if pulse.beat().is_err() {
                // A large index takes a while to free: not on the caller's time.
                deadline.discard((covering, ships));
                return Err(TimeLimit);
            }
            let i = u32::try_from(i).expect("fewer than 2^32 placements");
            for pos in ship.cells() {
                let slot = &mut next[shape.index(pos)];
                covering[*slot] = i;
                *slot += 1;
            }
        }
        Ok(Placements {
            ships,
            shape,
            cover_start,
            covering,
            halo: Arc::default(),
        })
    }

    /// Keeps the placements whose flag in `keep` is true (one flag per placement, in order),
    /// giving up once `deadline` passes (then `self` is left as it was).
    pub(crate) fn retain(&mut self, keep: &[bool], deadline: &Deadline) -> Result<(), TimeLimit> {
        if keep.len() >= self.len() && keep[..self.len()].iter().all(|&k| k) {
            // Nothing to drop (pre-solving an open board): the indexes stay as they are.
            return Ok(());
        }
        // The halo index no longer fits: let it go before the new cover index is built (a
        // clone of the old list keeps it).
        self.halo = Arc::default();
        let ships = self
            .ships
            .iter()
            .zip(keep)
            .filter(|(_, k)| **k)
            .map(|(s, _)| *s)
            .collect();
        let old = std::mem::replace(self, Placements::from_ships(self.shape, ships, deadline)?);
        // A large index takes a while to free: not on the caller's time once it is out.
        deadline.discard(old);
        Ok(())
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

    /// Per cell, the placements whose halo holds it, built within `deadline` on first use and
    /// shared from then on: every engine reasoning over these placements (pre-solving, the
    /// native search, the placement model's facts, on other threads too) uses the same index,
    /// the largest of the reasoning core (7 * 10^7 items on an open 100x100 board with every
    /// ship length). A caller that finds it being built waits for it.
    pub(crate) fn halo_index(&self, deadline: &Deadline) -> Result<Arc<HaloIndex>, TimeLimit> {
        let mut slot = self.halo_slot();
        if let Some(index) = &*slot {
            return Ok(index.clone());
        }
        let index = Arc::new(HaloIndex::build(self, deadline)?);
        *slot = Some(index.clone());
        Ok(index)
    }

    fn halo_slot(&self) -> MutexGuard<'_, Option<Arc<HaloIndex>>> {
        self.halo.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The sum of the placements' lengths: the size of the cover index, and a measure of the
    /// formulas built over them.
    pub(crate) fn cover_len(&self) -> usize {
        self.covering.len()
    }

    /// Indices of the placements covering `pos`, in increasing order.
    pub(crate) fn covering(&self, pos: Pos) -> Covering<'_> {
        self.covering_cell(self.shape.index(pos))
    }

    /// Indices of the placements covering the cell of row-major index `cell`.
    pub(crate) fn covering_cell(&self, cell: usize) -> Covering<'_> {
        Covering(self.covering[self.cover_start[cell]..self.cover_start[cell + 1]].iter())
    }

    /// Indices of the placements of length `len`.
    pub(crate) fn of_len(&self, len: usize) -> impl Iterator<Item = usize> + '_ {
        self.ships
            .iter()
            .enumerate()
            .filter(move |(_, s)| s.len == len)
            .map(|(i, _)| i)
    }
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

/// The ship clues of a puzzle, counted per row and column, and by cell when there are any.
struct Clued<'a> {
    rows: &'a [usize],
    cols: &'a [usize],
    ship: Option<&'a [bool]>,
}

fn is_legal(puzzle: &Puzzle, ship: Ship, clued: &Clued) -> bool {
    let (row_clued, col_clued) = (clued.rows, clued.cols);
    // Cells under the ship: clues must admit the piece; count ship clues per line under it.
    let mut clued_inside = 0;
    for (pos, piece) in ship.pieces() {
        match puzzle.clue(pos) {
            Some(clue) if !clue.admits(piece) => return false,
            Some(_) => clued_inside += 1,
            None => {}
        }
    }
    let shape = puzzle.shape();
    if clued
        .ship
        .is_some_and(|ship_clued| halo(ship, shape).any(|p| ship_clued[shape.index(p)]))
    {
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

/// The placements covering one cell ([`Placements::covering`]), in increasing order.
#[derive(Clone, Debug)]
pub(crate) struct Covering<'a>(std::slice::Iter<'a, u32>);

impl Iterator for Covering<'_> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        self.0.next().map(|&p| p as usize)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl ExactSizeIterator for Covering<'_> {}

impl Covering<'_> {
    /// Whether no placement covers the cell.
    pub(crate) fn is_empty(&self) -> bool {
        self.0.len() == 0
    }
}

/// Per cell, the placements whose halo holds it (a ship on the cell rules them out), in
/// increasing order: `items[start[c]..start[c + 1]]` for cell `c`, as `u32` to keep it small.
#[derive(Debug, Default)]
pub(crate) struct HaloIndex {
    start: Vec<usize>,
    items: Vec<u32>,
}

impl HaloIndex {
    /// Counting sort of (halo cell, placement) pairs by cell, allocated once at its size,
    /// giving up once `deadline` passes.
    fn build(placements: &Placements, deadline: &Deadline) -> Result<Self, TimeLimit> {
        let (shape, ships) = (placements.shape, &placements.ships);
        let mut pulse = deadline.pulse();
        let mut start = vec![0usize; shape.cells() + 1];
        for ship in ships {
            pulse.beat()?;
            for c in halo_indices(*ship, shape) {
                start[c + 1] += 1;
            }
        }
        for c in 0..shape.cells() {
            start[c + 1] += start[c];
        }
        let mut next = start.clone();
        let mut items = vec![0u32; start[shape.cells()]];
        for (i, ship) in ships.iter().enumerate() {
            if pulse.beat().is_err() {
                // A large index takes a while to free: not on the caller's time.
                deadline.discard(items);
                return Err(TimeLimit);
            }
            let i = u32::try_from(i).expect("fewer than 2^32 placements");
            for c in halo_indices(*ship, shape) {
                items[next[c]] = i;
                next[c] += 1;
            }
        }
        Ok(HaloIndex { start, items })
    }

    /// The placements whose halo holds cell `c` (row-major index), in increasing order.
    pub(crate) fn holding(&self, c: usize) -> &[u32] {
        &self.items[self.start[c]..self.start[c + 1]]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::puzzle::{Dir, Fleet, Piece};

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
    fn clues_prune_placements() {
        let mut p = open(5, 5, Fleet::from_counts(vec![1, 1, 1]));
        p.add_clue(Pos::new(2, 2), Clue::Piece(Piece::End(Dir::Down)))
            .unwrap();
        let pl = Placements::new(&p);
        // Every placement covering (2,2) is vertical and starts there.
        for i in pl.covering(Pos::new(2, 2)) {
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
