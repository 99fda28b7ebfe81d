//! Sound pre-solving on cells and placements, before any formula is built. It applies the rules
//! a person uses first (a line whose count is met is water, a ship cell with one possible ship
//! fixes that ship, a fleet class with as many candidates as ships uses them all, ...) until
//! nothing changes, and can then probe: a candidate ship whose placement leads those rules to a
//! contradiction is struck off. Only forced facts are derived, so the encoders may treat them as
//! constants: the formula shrinks to the undecided rest of the puzzle, and a contradiction
//! proves that there is no solution.
//!
//! Cells are kept as bit sets (one bit per cell, row-major), so a rule over a placement or a
//! line is a handful of word operations.

use crate::placement::{Placements, halo};
use crate::puzzle::{Pos, Puzzle};

/// What pre-solving decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Knowledge {
    /// Per cell, row-major: `Some(true)` ship, `Some(false)` water, `None` undecided.
    pub cells: Vec<Option<bool>>,
    /// Per placement of the pruned list: whether the ship is certainly there.
    pub forced: Vec<bool>,
}

impl Knowledge {
    /// Whether every cell is decided.
    pub fn is_complete(&self) -> bool {
        self.cells.iter().all(Option::is_some)
    }

    /// Number of decided cells.
    pub fn decided(&self) -> usize {
        self.cells.iter().filter(|c| c.is_some()).count()
    }
}

/// The rules found the puzzle unsolvable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Contradiction;

/// How hard to try.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Effort {
    /// The rules alone, to a fixpoint.
    #[default]
    Rules,
    /// The rules, then probing every candidate ship (longest first) until a round strikes
    /// nothing.
    Probing,
}

/// Fixed-size bit sets stored back to back in one vector.
#[derive(Clone)]
struct Masks {
    words: usize,
    data: Vec<u64>,
}

impl Masks {
    fn new(words: usize, count: usize) -> Self {
        Masks {
            words,
            data: vec![0; words * count],
        }
    }
    fn get(&self, i: usize) -> &[u64] {
        &self.data[i * self.words..(i + 1) * self.words]
    }
    fn set_bit(&mut self, i: usize, bit: usize) {
        self.data[i * self.words + bit / 64] |= 1 << (bit % 64);
    }
}

fn intersects(a: &[u64], b: &[u64]) -> bool {
    a.iter().zip(b).any(|(x, y)| x & y != 0)
}

fn count_and(a: &[u64], b: &[u64]) -> usize {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x & y).count_ones() as usize)
        .sum()
}

fn has(a: &[u64], bit: usize) -> bool {
    a[bit / 64] >> (bit % 64) & 1 == 1
}

/// The static part: masks of placements and lines, counts, fleet.
struct Board<'a> {
    puzzle: &'a Puzzle,
    placements: &'a Placements,
    words: usize,
    /// Cells of each placement.
    cells: Masks,
    /// Halo of each placement.
    halos: Masks,
    /// Lines (rows, then columns) each placement touches.
    lines_of: Vec<Vec<usize>>,
    /// Cells of each line: rows first, then columns.
    lines: Masks,
    /// Count of each line, rows first.
    counts: Vec<Option<usize>>,
    /// Placement indices per fleet class, with the class's ship count.
    classes: Vec<(usize, Vec<usize>)>,
    /// All cells of the board.
    all: Vec<u64>,
}

/// The changing part.
#[derive(Clone)]
struct State {
    ship: Vec<u64>,
    water: Vec<u64>,
    alive: Vec<bool>,
    forced: Vec<bool>,
    changed: bool,
}

impl State {
    fn set_ship(&mut self, mask: &[u64]) -> Result<(), Contradiction> {
        for (i, &m) in mask.iter().enumerate() {
            if m & self.water[i] != 0 {
                return Err(Contradiction);
            }
            if m & !self.ship[i] != 0 {
                self.ship[i] |= m;
                self.changed = true;
            }
        }
        Ok(())
    }

    fn set_water(&mut self, mask: &[u64]) -> Result<(), Contradiction> {
        for (i, &m) in mask.iter().enumerate() {
            if m & self.ship[i] != 0 {
                return Err(Contradiction);
            }
            if m & !self.water[i] != 0 {
                self.water[i] |= m;
                self.changed = true;
            }
        }
        Ok(())
    }

    fn kill(&mut self, p: usize) -> Result<(), Contradiction> {
        if self.forced[p] {
            return Err(Contradiction);
        }
        if self.alive[p] {
            self.alive[p] = false;
            self.changed = true;
        }
        Ok(())
    }

    fn force(&mut self, p: usize) -> Result<(), Contradiction> {
        if !self.alive[p] {
            return Err(Contradiction);
        }
        if !self.forced[p] {
            self.forced[p] = true;
            self.changed = true;
        }
        Ok(())
    }
}

impl<'a> Board<'a> {
    fn new(puzzle: &'a Puzzle, placements: &'a Placements) -> Self {
        let (rows, cols) = (puzzle.rows(), puzzle.cols());
        let n = rows * cols;
        let words = n.div_ceil(64);
        let bit = |p: Pos| p.row * cols + p.col;
        let ships = placements.ships();
        let mut cells = Masks::new(words, ships.len());
        let mut halos = Masks::new(words, ships.len());
        let mut lines_of = Vec::with_capacity(ships.len());
        for (i, ship) in ships.iter().enumerate() {
            let mut lines = Vec::new();
            for pos in ship.cells() {
                cells.set_bit(i, bit(pos));
                for line in [pos.row, rows + pos.col] {
                    if !lines.contains(&line) {
                        lines.push(line);
                    }
                }
            }
            for pos in halo(*ship, rows, cols) {
                halos.set_bit(i, bit(pos));
            }
            lines_of.push(lines);
        }
        let mut lines = Masks::new(words, rows + cols);
        for r in 0..rows {
            for c in 0..cols {
                lines.set_bit(r, r * cols + c);
                lines.set_bit(rows + c, r * cols + c);
            }
        }
        let mut all = vec![0u64; words];
        for b in 0..n {
            all[b / 64] |= 1 << (b % 64);
        }
        Board {
            puzzle,
            placements,
            words,
            cells,
            halos,
            lines_of,
            lines,
            counts: puzzle
                .row_counts()
                .iter()
                .chain(puzzle.col_counts())
                .copied()
                .collect(),
            classes: puzzle
                .fleet()
                .classes()
                .map(|c| (c.count, placements.of_len(c.len).collect()))
                .collect(),
            all,
        }
    }

    /// Runs the rules until nothing changes.
    fn propagate(&self, state: &mut State) -> Result<(), Contradiction> {
        state.changed = true;
        while state.changed {
            state.changed = false;
            self.kill_placements(state)?;
            self.fleet_rules(state)?;
            self.cell_rules(state)?;
            self.line_rules(state)?;
        }
        Ok(())
    }

    /// A placement dies when a cell under it is water, a halo cell is ship, or it would
    /// overflow a row or column count together with the ship cells already known there.
    fn kill_placements(&self, state: &mut State) -> Result<(), Contradiction> {
        let mut union = vec![0u64; self.words];
        for p in 0..state.alive.len() {
            if !state.alive[p] || state.forced[p] {
                continue;
            }
            let cells = self.cells.get(p);
            let mut dead =
                intersects(cells, &state.water) || intersects(self.halos.get(p), &state.ship);
            if !dead {
                for (u, (s, c)) in union.iter_mut().zip(state.ship.iter().zip(cells)) {
                    *u = s | c;
                }
                dead = self.lines_of[p].iter().any(|&l| {
                    self.counts[l].is_some_and(|k| count_and(&union, self.lines.get(l)) > k)
                });
            }
            if dead {
                state.kill(p)?;
            }
        }
        Ok(())
    }

    /// Per ship length: as many certain ships as the fleet has rules out the other candidates;
    /// as many candidates as the fleet has makes them all certain. A certain ship fixes its
    /// cells and its halo.
    fn fleet_rules(&self, state: &mut State) -> Result<(), Contradiction> {
        for (count, members) in &self.classes {
            let alive = members.iter().filter(|&&p| state.alive[p]).count();
            let forced = members.iter().filter(|&&p| state.forced[p]).count();
            if forced > *count || alive < *count {
                return Err(Contradiction);
            }
            if forced == *count && alive > forced {
                for &p in members {
                    if !state.forced[p] {
                        state.kill(p)?;
                    }
                }
            } else if alive == *count && forced < alive {
                for &p in members {
                    if state.alive[p] {
                        state.force(p)?;
                    }
                }
            }
        }
        for p in 0..state.forced.len() {
            if state.forced[p] {
                state.set_ship(self.cells.get(p))?;
                state.set_water(self.halos.get(p))?;
            }
        }
        Ok(())
    }

    /// An undecided cell no candidate covers is water. For a ship cell, the cells every
    /// candidate through it covers are ship, the cells in every candidate's halo are water, and
    /// a single candidate is certain.
    fn cell_rules(&self, state: &mut State) -> Result<(), Contradiction> {
        let words = self.words;
        let mut cover = vec![0u64; words];
        for p in 0..state.alive.len() {
            if state.alive[p] {
                for (c, m) in cover.iter_mut().zip(self.cells.get(p)) {
                    *c |= m;
                }
            }
        }
        let uncovered: Vec<u64> = cover.iter().zip(&self.all).map(|(c, a)| a & !c).collect();
        state.set_water(&uncovered)?;
        let cols = self.puzzle.cols();
        let mut common_cells = vec![0u64; words];
        let mut common_halo = vec![0u64; words];
        for w in 0..words {
            let mut bits = state.ship[w];
            while bits != 0 {
                let b = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let pos = Pos::new(b / cols, b % cols);
                let mut candidates = self
                    .placements
                    .covering(pos)
                    .iter()
                    .copied()
                    .filter(|&p| state.alive[p]);
                let Some(first) = candidates.next() else {
                    return Err(Contradiction);
                };
                if state.forced[first] {
                    continue;
                }
                common_cells.copy_from_slice(self.cells.get(first));
                common_halo.copy_from_slice(self.halos.get(first));
                let mut single = true;
                for p in candidates {
                    single = false;
                    for i in 0..words {
                        common_cells[i] &= self.cells.get(p)[i];
                        common_halo[i] &= self.halos.get(p)[i];
                    }
                }
                if single {
                    state.force(first)?;
                }
                state.set_ship(&common_cells)?;
                state.set_water(&common_halo)?;
            }
        }
        Ok(())
    }

    /// A row or column whose count is met is water elsewhere; one that needs all its undecided
    /// cells gets them all.
    fn line_rules(&self, state: &mut State) -> Result<(), Contradiction> {
        let mut open = vec![0u64; self.words];
        for (l, count) in self.counts.iter().enumerate() {
            let Some(k) = *count else { continue };
            let line = self.lines.get(l);
            let ships = count_and(&state.ship, line);
            for (o, ((s, w), m)) in open
                .iter_mut()
                .zip(state.ship.iter().zip(&state.water).zip(line))
            {
                *o = m & !s & !w;
            }
            let unknown: usize = open.iter().map(|o| o.count_ones() as usize).sum();
            if ships > k || ships + unknown < k {
                return Err(Contradiction);
            }
            if unknown > 0 {
                if ships == k {
                    state.set_water(&open)?;
                } else if ships + unknown == k {
                    state.set_ship(&open)?;
                }
            }
        }
        Ok(())
    }

    /// Probes each candidate ship, longest first: if placing it leads the rules to a
    /// contradiction, it cannot be in any solution. Repeats until a round strikes nothing.
    fn probe(&self, state: &mut State) -> Result<(), Contradiction> {
        let mut order: Vec<usize> = (0..state.alive.len()).collect();
        order.sort_by_key(|&p| std::cmp::Reverse(self.placements.ships()[p].len));
        loop {
            let mut struck = false;
            for &p in &order {
                if !state.alive[p] || state.forced[p] {
                    continue;
                }
                let mut trial = state.clone();
                let fails = trial
                    .force(p)
                    .and_then(|()| self.propagate(&mut trial))
                    .is_err();
                if fails {
                    state.kill(p)?;
                    self.propagate(state)?;
                    struck = true;
                }
            }
            if !struck {
                return Ok(());
            }
        }
    }
}

/// Applies the rules to `puzzle` until they change nothing (and probes, with
/// [`Effort::Probing`]), removing dead placements from `placements`. Returns what is decided,
/// aligned with the pruned `placements`.
pub fn deduce_with(
    puzzle: &Puzzle,
    placements: &mut Placements,
    effort: Effort,
) -> Result<Knowledge, Contradiction> {
    let board = Board::new(puzzle, placements);
    let words = board.words;
    let mut state = State {
        ship: vec![0; words],
        water: vec![0; words],
        alive: vec![true; placements.len()],
        forced: vec![false; placements.len()],
        changed: false,
    };
    for (pos, clue) in puzzle.clues() {
        let b = pos.row * puzzle.cols() + pos.col;
        let target = if clue.is_ship() {
            &mut state.ship
        } else {
            &mut state.water
        };
        target[b / 64] |= 1 << (b % 64);
    }
    board.propagate(&mut state)?;
    if effort == Effort::Probing {
        board.probe(&mut state)?;
    }
    let n = puzzle.rows() * puzzle.cols();
    let cells = (0..n)
        .map(|b| {
            if has(&state.ship, b) {
                Some(true)
            } else if has(&state.water, b) {
                Some(false)
            } else {
                None
            }
        })
        .collect();
    let forced: Vec<bool> = state
        .forced
        .iter()
        .zip(&state.alive)
        .filter(|(_, a)| **a)
        .map(|(f, _)| *f)
        .collect();
    placements.retain(&state.alive);
    Ok(Knowledge { cells, forced })
}

/// [`deduce_with`] with the rules alone.
pub fn deduce(puzzle: &Puzzle, placements: &mut Placements) -> Result<Knowledge, Contradiction> {
    deduce_with(puzzle, placements, Effort::Rules)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::ist;

    #[test]
    fn the_ist_example_is_decided_and_agrees_with_its_solution() {
        let text = include_str!("../puzzles/ist-example.txt");
        let puzzle = ist::parse(text).unwrap();
        let solution = include_str!("../puzzles/ist-example.out");
        for effort in [Effort::Rules, Effort::Probing] {
            let mut placements = Placements::new(&puzzle);
            let before = placements.len();
            let k = deduce_with(&puzzle, &mut placements, effort).unwrap();
            assert!(placements.len() < before);
            assert_eq!(k.forced.len(), placements.len());
            for (i, ch) in solution.lines().flat_map(|l| l.chars()).enumerate() {
                if let Some(ship) = k.cells[i] {
                    assert_eq!(ship, ch != '.' && ch != 'W', "cell {i}");
                }
            }
        }
    }

    #[test]
    fn an_overfull_row_is_a_contradiction() {
        let mut p = Puzzle::new(
            vec![Some(1), Some(0)],
            vec![Some(1), Some(0)],
            crate::puzzle::Fleet::from_counts(vec![1]),
        )
        .unwrap();
        p.add_clue(
            Pos::new(1, 1),
            crate::puzzle::Clue::Piece(crate::puzzle::Piece::Submarine),
        )
        .unwrap();
        let mut pl = Placements::new(&p);
        assert_eq!(deduce(&p, &mut pl), Err(Contradiction));
    }
}
