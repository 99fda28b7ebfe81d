//! The propagation engine ([`Propagation`]): the rules run event-driven over cells and placements
//! to a fixpoint, with a trail to undo assumptions and probing of candidate ships.

use super::index::{Lists, Queue};
use super::knowledge::{Contradiction, Mark, PlacementStatus, Rules};
use crate::model::deadline::{Deadline, Pulse, TimeLimit};
use crate::model::geometry::{axis, cell_indices, halo_indices};
use crate::model::placement::{HaloIndex, Placements};
use crate::model::puzzle::{Clue, Dir, Piece, Pos, Puzzle, Shape, Ship};
use std::sync::Arc;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Cell {
    Unknown,
    Ship,
    Water,
}

#[derive(Clone, Copy, Debug)]
pub(super) enum Change {
    /// A cell was decided.
    Cell(usize),
    /// A placement left [`PlacementStatus::Open`].
    Placement(usize),
}

/// A fleet class: its ship count and how many of its placements are alive or chosen.
#[derive(Clone, Copy, Debug)]
pub(super) struct Class {
    pub(super) count: usize,
    pub(super) alive: usize,
    pub(super) chosen: usize,
}

/// The propagation engine, loaded with one board and its placement list.
#[derive(Clone, Debug)]
pub(crate) struct Propagation<'a> {
    pub(super) shape: Shape,
    pub(super) placements: &'a Placements,
    pub(super) rules: Rules,
    /// Count of each line (rows, then columns).
    pub(super) counts: Vec<Option<usize>>,
    /// Longest ship of the fleet: a line with at least this much room overflows for no ship.
    pub(super) longest: usize,
    /// Placements per fleet class, and the class of each placement.
    pub(super) class_members: Lists,
    pub(super) class_of: Vec<usize>,
    /// Placements of length two or more per line they lie along.
    pub(super) along: Lists,
    /// Per cell: the placements whose halo holds it (a ship there strikes them off), shared
    /// with every engine over the same placements. A placement's own cells and halo are
    /// computed from its ship when needed ([`Propagation::cells_of`], [`Propagation::halo_of`]):
    /// lists of them would be the bulk of the engine's memory on large open boards.
    pub(super) halo_holding: Arc<HaloIndex>,

    pub(super) cells: Vec<Cell>,
    pub(super) status: Vec<PlacementStatus>,
    pub(super) line_ship: Vec<usize>,
    pub(super) line_unknown: Vec<usize>,
    /// Per cell: placements covering it that are not dead.
    pub(super) cover: Vec<usize>,
    pub(super) classes: Vec<Class>,
    pub(super) trail: Vec<Change>,

    pub(super) decided_cells: Vec<usize>,
    pub(super) chosen: Vec<usize>,
    pub(super) line_checks: Queue,
    pub(super) class_checks: Queue,
    pub(super) cover_checks: Queue,
    pub(super) overflow_checks: Queue,
    /// Scratch counters of the shared-candidates rule, zero between uses.
    pub(super) shared_cells: Vec<u32>,
    pub(super) shared_halo: Vec<u32>,
    /// Checked every few thousand rule applications ([`Propagation::set_deadline`]).
    pub(super) pulse: Pulse,
    /// The deadline passed: propagation stopped short of its fixpoint.
    pub(super) stopped: bool,
}

impl<'a> Propagation<'a> {
    /// The engine for `puzzle`'s board, counts and fleet over `placements` (its clues are not
    /// applied: see [`Propagation::start`]). Nothing is decided yet.
    pub(crate) fn new(puzzle: &Puzzle, placements: &'a Placements, rules: Rules) -> Self {
        match Propagation::within(puzzle, placements, rules, &Deadline::NONE) {
            Ok(engine) => engine,
            Err(TimeLimit) => unreachable!("no deadline to pass"),
        }
    }

    /// [`Propagation::new`], giving up once `deadline` passes (its index of the placements'
    /// cells and halos is linear in them, and large on large open boards).
    pub(crate) fn within(
        puzzle: &Puzzle,
        placements: &'a Placements,
        rules: Rules,
        deadline: &Deadline,
    ) -> Result<Self, TimeLimit> {
        let shape = puzzle.shape();
        let n = shape.cells();
        let ships = placements.ships();
        let fleet = puzzle.fleet();
        let lens: Vec<usize> = fleet.classes().map(|c| c.len).collect();
        let class_key = |s: &Ship| lens.iter().position(|&l| l == s.len);
        let class_members = Lists::group(lens.len(), ships.iter().map(class_key));
        let class_of = ships
            .iter()
            .map(|s| class_key(s).unwrap_or(usize::MAX))
            .collect();
        let along = Lists::group(shape.lines(), ships.iter().map(|s| axis(*s, shape)));
        let halo_holding = placements.halo_index(deadline)?;
        let mut cover = vec![0; n];
        for (c, slot) in cover.iter_mut().enumerate() {
            *slot = placements.covering_cell(c).len();
        }
        let classes = fleet
            .classes()
            .enumerate()
            .map(|(k, class)| Class {
                count: class.count,
                alive: class_members.get(k).len(),
                chosen: 0,
            })
            .collect();
        let line_unknown = (0..shape.lines())
            .map(|l| {
                if l < shape.rows {
                    shape.cols
                } else {
                    shape.rows
                }
            })
            .collect();
        Ok(Propagation {
            shape,
            placements,
            rules,
            counts: puzzle
                .row_counts()
                .iter()
                .chain(puzzle.col_counts())
                .copied()
                .collect(),
            longest: fleet.max_len(),
            class_members,
            class_of,
            along,
            halo_holding,
            cells: vec![Cell::Unknown; n],
            status: vec![PlacementStatus::Open; ships.len()],
            line_ship: vec![0; shape.lines()],
            line_unknown,
            cover,
            classes,
            trail: Vec::new(),
            decided_cells: Vec::new(),
            chosen: Vec::new(),
            line_checks: Queue::new(shape.lines()),
            class_checks: Queue::new(lens.len()),
            cover_checks: Queue::new(n),
            overflow_checks: Queue::new(shape.lines()),
            shared_cells: vec![0; n],
            shared_halo: vec![0; n],
            pulse: Deadline::NONE.pulse(),
            stopped: false,
        })
    }

    /// Stops propagating once `deadline` passes. The rules derive only forced facts, so what
    /// is decided when they stop still holds; only less is decided ([`Propagation::stopped`]
    /// tells), and [`Propagation::probe`] stops too.
    pub(crate) fn set_deadline(&mut self, deadline: Deadline) {
        self.pulse = deadline.pulse();
    }

    /// Whether the deadline stopped propagation short of its fixpoint.
    pub(crate) fn stopped(&self) -> bool {
        self.stopped
    }

    /// Sets the cells `puzzle`'s clues show (ship or water) and runs every rule to a fixpoint.
    pub(crate) fn start(&mut self, puzzle: &Puzzle) -> Result<(), Contradiction> {
        for l in 0..self.shape.lines() {
            self.line_checks.push(l);
            self.overflow_checks.push(l);
        }
        for k in 0..self.classes.len() {
            self.class_checks.push(k);
        }
        for c in 0..self.shape.cells() {
            self.cover_checks.push(c);
        }
        let facts = puzzle.clues().try_for_each(|(pos, clue)| {
            let cell = self.shape.index(pos);
            self.set(cell, clue.is_ship())
        });
        facts.and_then(|()| self.propagate())
    }

    /// Decides the cell at `pos` and propagates.
    #[cfg(test)]
    pub(crate) fn assume(&mut self, pos: Pos, ship: bool) -> Result<(), Contradiction> {
        let cell = self.shape.index(pos);
        self.set(cell, ship).and_then(|()| self.propagate())
    }

    /// Reveals `clue` at `pos` and propagates: its cell, the neighbours its piece fixes (water
    /// around a submarine, the next cell of an end), and no candidate ship that would put another
    /// piece there. The same facts as building the placement list with the clue, at the cost of
    /// the cells it touches.
    pub(crate) fn assume_clue(&mut self, pos: Pos, clue: Clue) -> Result<(), Contradiction> {
        let cell = self.shape.index(pos);
        self.set(cell, clue.is_ship())
            .and_then(|()| self.clue_facts(pos, clue))
            .and_then(|()| self.propagate())
    }

    fn clue_facts(&mut self, pos: Pos, clue: Clue) -> Result<(), Contradiction> {
        let Clue::Piece(piece) = clue else {
            return Ok(());
        };
        for dir in Dir::ALL {
            let value = match piece {
                Piece::Submarine => Some(false),
                Piece::End(toward) => Some(dir == toward),
                Piece::Water | Piece::Middle => None,
            };
            match (self.shape.step(pos, dir), value) {
                (Some(n), Some(ship)) => self.set(self.shape.index(n), ship)?,
                (None, Some(true)) => return Err(Contradiction),
                _ => {}
            }
        }
        let placements = self.placements;
        for p in placements.covering(pos) {
            let ship = placements.ships()[p];
            let index = ship.cells().position(|c| c == pos).unwrap_or(0);
            if !clue.admits(Piece::of_ship(ship.len, index, ship.orientation)) {
                self.kill(p)?;
            }
        }
        Ok(())
    }

    /// Chooses placement `p` and propagates.
    pub(crate) fn choose_placement(&mut self, p: usize) -> Result<(), Contradiction> {
        self.choose(p).and_then(|()| self.propagate())
    }

    /// Strikes placement `p` off and propagates.
    pub(crate) fn kill_placement(&mut self, p: usize) -> Result<(), Contradiction> {
        self.kill(p).and_then(|()| self.propagate())
    }

    /// What is decided at `pos`: `Some(true)` ship, `Some(false)` water.
    pub(crate) fn cell(&self, pos: Pos) -> Option<bool> {
        match self.cells[self.shape.index(pos)] {
            Cell::Unknown => None,
            Cell::Ship => Some(true),
            Cell::Water => Some(false),
        }
    }

    /// How many cells are still undecided (a sum over the rows, so cheap to ask often).
    pub(crate) fn open_cells(&self) -> usize {
        self.line_unknown[..self.shape.rows].iter().sum()
    }

    /// What is decided about placement `p`.
    pub(crate) fn status(&self, p: usize) -> PlacementStatus {
        self.status[p]
    }

    /// A mark to undo back to.
    pub(crate) fn mark(&self) -> Mark {
        Mark(self.trail.len())
    }

    /// Takes back every decision made after `mark`.
    pub(crate) fn undo(&mut self, mark: Mark) {
        while self.trail.len() > mark.0 {
            match self.trail.pop() {
                Some(Change::Cell(c)) => {
                    let ship = self.cells[c] == Cell::Ship;
                    for l in self.lines_of(c) {
                        self.line_unknown[l] += 1;
                        self.line_ship[l] -= usize::from(ship);
                    }
                    self.cells[c] = Cell::Unknown;
                }
                Some(Change::Placement(p)) => {
                    let class = &mut self.classes[self.class_of[p]];
                    match self.status[p] {
                        PlacementStatus::Dead => {
                            class.alive += 1;
                            for c in self.cells_of(p) {
                                self.cover[c] += 1;
                            }
                        }
                        PlacementStatus::Chosen => class.chosen -= 1,
                        PlacementStatus::Open => {}
                    }
                    self.status[p] = PlacementStatus::Open;
                }
                None => break,
            }
        }
    }

    /// Probes each open placement, longest first: if choosing it leads the rules to a
    /// contradiction, it is in no solution and is struck off. Repeats until a round strikes
    /// nothing.
    pub(crate) fn probe(&mut self) -> Result<(), Contradiction> {
        let ships = self.placements.ships();
        let mut order: Vec<usize> = (0..ships.len()).collect();
        order.sort_by_key(|&p| std::cmp::Reverse(ships[p].len));
        loop {
            let mut struck = false;
            for &p in &order {
                if self.stopped {
                    return Ok(());
                }
                if self.status[p] != PlacementStatus::Open {
                    continue;
                }
                let mark = self.mark();
                let fails = self.choose_placement(p).is_err();
                self.undo(mark);
                if fails {
                    self.kill_placement(p)?;
                    struck = true;
                }
            }
            if !struck {
                return Ok(());
            }
        }
    }

    /// Runs the queued rules until nothing changes. On a contradiction the queues are emptied;
    /// the decisions made stay on the trail until undone.
    pub(crate) fn propagate(&mut self) -> Result<(), Contradiction> {
        let result = self.run();
        if result.is_err() || self.stopped {
            self.decided_cells.clear();
            self.chosen.clear();
            self.line_checks.clear();
            self.class_checks.clear();
            self.cover_checks.clear();
            self.overflow_checks.clear();
        }
        result
    }

    fn run(&mut self) -> Result<(), Contradiction> {
        loop {
            if self.stopped || self.pulse.beat().is_err() {
                self.stopped = true;
                return Ok(());
            }
            if let Some(c) = self.decided_cells.pop() {
                self.cell_decided(c)?;
            } else if let Some(p) = self.chosen.pop() {
                self.placement_chosen(p)?;
            } else if let Some(l) = self.line_checks.pop() {
                self.line_rule(l)?;
            } else if let Some(k) = self.class_checks.pop() {
                self.class_rule(k)?;
            } else if let Some(c) = self.cover_checks.pop() {
                self.cover_rule(c)?;
            } else if let Some(l) = self.overflow_checks.pop() {
                self.overflow_rule(l)?;
            } else {
                return Ok(());
            }
        }
    }

    /// The row and the column of cell `c`, as line numbers.
    fn lines_of(&self, c: usize) -> [usize; 2] {
        let pos = self.shape.pos(c);
        [pos.row, self.shape.rows + pos.col]
    }

    fn set(&mut self, c: usize, ship: bool) -> Result<(), Contradiction> {
        let value = if ship { Cell::Ship } else { Cell::Water };
        match self.cells[c] {
            Cell::Unknown => {}
            v if v == value => return Ok(()),
            _ => return Err(Contradiction),
        }
        self.cells[c] = value;
        self.trail.push(Change::Cell(c));
        for l in self.lines_of(c) {
            self.line_unknown[l] -= 1;
            self.line_ship[l] += usize::from(ship);
            self.line_checks.push(l);
        }
        self.decided_cells.push(c);
        Ok(())
    }

    /// Strikes placement `p` off (a contradiction if it was chosen). Most calls find it dead
    /// already, so that test is inlined at every call.
    #[inline(always)]
    fn kill(&mut self, p: usize) -> Result<(), Contradiction> {
        match self.status[p] {
            PlacementStatus::Dead => Ok(()),
            PlacementStatus::Chosen => Err(Contradiction),
            PlacementStatus::Open => {
                self.strike(p);
                Ok(())
            }
        }
    }

    /// [`Propagation::kill`] of an open placement.
    fn strike(&mut self, p: usize) {
        self.status[p] = PlacementStatus::Dead;
        self.trail.push(Change::Placement(p));
        let k = self.class_of[p];
        self.classes[k].alive -= 1;
        self.class_checks.push(k);
        for c in self.cells_of(p) {
            self.cover[c] -= 1;
            self.cover_checks.push(c);
        }
    }

    fn choose(&mut self, p: usize) -> Result<(), Contradiction> {
        match self.status[p] {
            PlacementStatus::Chosen => return Ok(()),
            PlacementStatus::Dead => return Err(Contradiction),
            PlacementStatus::Open => {}
        }
        self.status[p] = PlacementStatus::Chosen;
        self.trail.push(Change::Placement(p));
        let k = self.class_of[p];
        self.classes[k].chosen += 1;
        self.class_checks.push(k);
        self.chosen.push(p);
        Ok(())
    }

    /// A water cell kills the placements over it; a ship cell kills those whose halo holds it
    /// (they cover a neighbour but not the cell), and wakes the rules about its candidates and
    /// the lines through it.
    fn cell_decided(&mut self, c: usize) -> Result<(), Contradiction> {
        let placements = self.placements;
        match self.cells[c] {
            Cell::Water => {
                for p in placements.covering_cell(c) {
                    self.kill(p)?;
                }
            }
            Cell::Ship => {
                let halo_holding = Arc::clone(&self.halo_holding);
                for &p in halo_holding.holding(c) {
                    self.kill(p as usize)?;
                }
                self.cover_checks.push(c);
                for l in self.lines_of(c) {
                    self.overflow_checks.push(l);
                }
            }
            Cell::Unknown => {}
        }
        Ok(())
    }

    /// A chosen ship makes its cells ship and its halo water.
    fn placement_chosen(&mut self, p: usize) -> Result<(), Contradiction> {
        for c in self.cells_of(p) {
            self.set(c, true)?;
        }
        for c in self.halo_of(p) {
            self.set(c, false)?;
        }
        Ok(())
    }

    /// A line whose count is met is water elsewhere; one that needs all its undecided cells
    /// gets them all.
    fn line_rule(&mut self, l: usize) -> Result<(), Contradiction> {
        let Some(k) = self.counts[l] else {
            return Ok(());
        };
        let (ship, unknown) = (self.line_ship[l], self.line_unknown[l]);
        if ship > k || ship + unknown < k {
            return Err(Contradiction);
        }
        if unknown == 0 || (ship != k && ship + unknown != k) {
            return Ok(());
        }
        let value = ship != k;
        let cells: Vec<usize> = if l < self.shape.rows {
            self.shape.row(l).collect()
        } else {
            self.shape.col(l - self.shape.rows).collect()
        };
        for c in cells {
            if self.cells[c] == Cell::Unknown {
                self.set(c, value)?;
            }
        }
        Ok(())
    }

    /// As many chosen ships as the fleet has of a length rule out the other candidates; as many
    /// candidates as ships makes them all chosen.
    fn class_rule(&mut self, k: usize) -> Result<(), Contradiction> {
        let Class {
            count,
            alive,
            chosen,
        } = self.classes[k];
        if chosen > count || alive < count {
            return Err(Contradiction);
        }
        let decide = if chosen == count && alive > chosen {
            Self::kill
        } else if alive == count && chosen < alive {
            Self::choose
        } else {
            return Ok(());
        };
        for i in self.class_members.start[k]..self.class_members.start[k + 1] {
            let p = self.class_members.items[i] as usize;
            if self.status[p] == PlacementStatus::Open {
                decide(self, p)?;
            }
        }
        Ok(())
    }

    /// A cell no live candidate covers is water. A ship cell with a single open candidate (and
    /// none chosen) chooses it; with several, under [`Rules::Full`], the cells all of them cover
    /// are ship and the cells in all their halos are water.
    fn cover_rule(&mut self, c: usize) -> Result<(), Contradiction> {
        if self.cells[c] == Cell::Water {
            return Ok(());
        }
        if self.cover[c] == 0 {
            return self.set(c, false);
        }
        if self.cells[c] != Cell::Ship {
            return Ok(());
        }
        let placements = self.placements;
        let mut open = placements
            .covering_cell(c)
            .filter(|&p| self.status[p] != PlacementStatus::Dead);
        let first = open.next();
        let single = open.next().is_none();
        match first {
            Some(p) if self.status[p] == PlacementStatus::Open && single => self.choose(p),
            Some(_) if self.rules == Rules::Full => self.shared_rule(c),
            _ => Ok(()),
        }
    }

    fn shared_rule(&mut self, c: usize) -> Result<(), Contradiction> {
        let placements = self.placements;
        let candidates = placements.covering_cell(c);
        if candidates
            .clone()
            .any(|p| self.status[p] == PlacementStatus::Chosen)
        {
            return Ok(());
        }
        let mut touched: Vec<usize> = Vec::new();
        let mut m = 0u32;
        for p in candidates {
            if self.status[p] != PlacementStatus::Open {
                continue;
            }
            m += 1;
            for x in self.cells_of(p) {
                if self.shared_cells[x] == 0 && self.shared_halo[x] == 0 {
                    touched.push(x);
                }
                self.shared_cells[x] += 1;
            }
            for x in self.halo_of(p) {
                if self.shared_cells[x] == 0 && self.shared_halo[x] == 0 {
                    touched.push(x);
                }
                self.shared_halo[x] += 1;
            }
        }
        let mut decided: Vec<(usize, bool)> = Vec::new();
        for &x in &touched {
            if self.shared_cells[x] == m {
                decided.push((x, true));
            } else if self.shared_halo[x] == m {
                decided.push((x, false));
            }
            self.shared_cells[x] = 0;
            self.shared_halo[x] = 0;
        }
        decided
            .into_iter()
            .try_for_each(|(x, ship)| self.set(x, ship))
    }

    /// A candidate ship dies when, with the ship cells already known in the line it lies along,
    /// it would put more ship cells there than the count allows. (Across its line each cell adds
    /// one, which the line rule already covers.)
    fn overflow_rule(&mut self, l: usize) -> Result<(), Contradiction> {
        let Some(k) = self.counts[l] else {
            return Ok(());
        };
        let room = k.saturating_sub(self.line_ship[l]);
        if room >= self.longest {
            return Ok(());
        }
        for i in self.along.start[l]..self.along.start[l + 1] {
            let p = self.along.items[i] as usize;
            if self.status[p] != PlacementStatus::Open {
                continue;
            }
            let new = self
                .cells_of(p)
                .filter(|&c| self.cells[c] != Cell::Ship)
                .count();
            if new > room {
                self.kill(p)?;
            }
        }
        Ok(())
    }

    /// The cells of placement `p` (row-major indices), from its start.
    pub(super) fn cells_of(&self, p: usize) -> impl Iterator<Item = usize> + Clone + use<> {
        cell_indices(self.placements.ships()[p], self.shape)
    }

    /// The cells of placement `p`'s halo (row-major indices).
    pub(super) fn halo_of(&self, p: usize) -> impl Iterator<Item = usize> + Clone + use<> {
        halo_indices(self.placements.ships()[p], self.shape)
    }

    /// The decided cells, row-major.
    pub(super) fn cell_values(&self) -> Vec<Option<bool>> {
        self.shape.positions().map(|pos| self.cell(pos)).collect()
    }
}
