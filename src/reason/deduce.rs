//! Sound propagation over cells and placements: the one propagation engine of the crate. It
//! applies the rules a person uses first (a line whose count is met is water, a ship cell with
//! one possible ship fixes that ship, a fleet class with as many candidates as ships uses them
//! all, ...) until nothing changes, and can then probe: a candidate ship whose placement leads
//! those rules to a contradiction is struck off. Only forced facts are derived, so the encoders
//! may treat them as constants, and a contradiction proves that there is no solution.
//!
//! Pre-solving ([`deduce`]), the placement model ([`facts`] with [`Rules::Basic`]) and the
//! generator all run this engine. It is event-driven: a change to a cell or a placement queues
//! only the rules it can wake, and every structure is linear in the cells and placements. Changes
//! are recorded on a trail, so assumptions can be undone ([`Propagation::mark`],
//! [`Propagation::undo`]).

use crate::model::deadline::{Deadline, Pulse, TimeLimit};
use crate::model::geometry::{axis, covers, halo};
use crate::model::placement::Placements;
use crate::model::puzzle::{Clue, Dir, Piece, Pos, Puzzle, Shape, Ship};

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

/// Which rules run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Rules {
    /// Every rule, including "the cells that every candidate ship through a ship cell covers
    /// are ship, and the cells in all their halos are water" (pre-solving).
    #[default]
    Full,
    /// Every rule but that one: the placement model's own propagation, whose clause counts
    /// `encodings/sat-placement.md` states.
    Basic,
}

/// What propagation decided about a placement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Undecided.
    Open,
    /// Part of every solution.
    Chosen,
    /// Part of no solution.
    Dead,
}

/// The facts [`facts`] derived, on the placement list it was given.
#[derive(Clone, Debug)]
pub struct Facts {
    /// Per cell, row-major: `Some(true)` ship, `Some(false)` water, `None` open.
    pub cells: Vec<Option<bool>>,
    /// Per placement, in [`Placements::ships`] order.
    pub placements: Vec<Status>,
}

/// A position on the trail to undo back to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mark(usize);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cell {
    Unknown,
    Ship,
    Water,
}

#[derive(Clone, Copy, Debug)]
enum Change {
    /// A cell was decided.
    Cell(usize),
    /// A placement left [`Status::Open`].
    Placement(usize),
}

/// A list of flat index lists (`items[start[i]..start[i + 1]]` for list `i`).
#[derive(Clone, Debug, Default)]
struct Lists {
    start: Vec<usize>,
    items: Vec<usize>,
}

impl Lists {
    /// Groups `keys` (item index -> list, or `None`) into `count` lists.
    fn group(count: usize, keys: impl Iterator<Item = Option<usize>> + Clone) -> Self {
        let mut start = vec![0; count + 1];
        for key in keys.clone().flatten() {
            start[key + 1] += 1;
        }
        for i in 0..count {
            start[i + 1] += start[i];
        }
        let mut next = start.clone();
        let mut items = vec![0; start[count]];
        for (item, key) in keys.enumerate() {
            if let Some(key) = key {
                items[next[key]] = item;
                next[key] += 1;
            }
        }
        Lists { start, items }
    }

    fn get(&self, i: usize) -> &[usize] {
        &self.items[self.start[i]..self.start[i + 1]]
    }
}

/// A work queue that holds each item at most once.
#[derive(Clone, Debug, Default)]
struct Queue {
    items: Vec<usize>,
    queued: Vec<bool>,
}

impl Queue {
    fn new(size: usize) -> Self {
        Queue {
            items: Vec::new(),
            queued: vec![false; size],
        }
    }

    fn push(&mut self, i: usize) {
        if !std::mem::replace(&mut self.queued[i], true) {
            self.items.push(i);
        }
    }

    fn pop(&mut self) -> Option<usize> {
        let i = self.items.pop()?;
        self.queued[i] = false;
        Some(i)
    }

    fn clear(&mut self) {
        for i in self.items.drain(..) {
            self.queued[i] = false;
        }
    }
}

/// A fleet class: its ship count and how many of its placements are alive or chosen.
#[derive(Clone, Copy, Debug)]
struct Class {
    count: usize,
    alive: usize,
    chosen: usize,
}

/// The propagation engine, loaded with one board and its placement list.
#[derive(Clone, Debug)]
pub struct Propagation<'a> {
    shape: Shape,
    placements: &'a Placements,
    rules: Rules,
    /// Count of each line (rows, then columns).
    counts: Vec<Option<usize>>,
    /// Longest ship of the fleet: a line with at least this much room overflows for no ship.
    longest: usize,
    /// Placements per fleet class, and the class of each placement.
    class_members: Lists,
    class_of: Vec<usize>,
    /// Placements of length two or more per line they lie along.
    along: Lists,

    cells: Vec<Cell>,
    status: Vec<Status>,
    line_ship: Vec<usize>,
    line_unknown: Vec<usize>,
    /// Per cell: placements covering it that are not dead.
    cover: Vec<usize>,
    classes: Vec<Class>,
    trail: Vec<Change>,

    decided_cells: Vec<usize>,
    chosen: Vec<usize>,
    line_checks: Queue,
    class_checks: Queue,
    cover_checks: Queue,
    overflow_checks: Queue,
    /// Scratch counters of the shared-candidates rule, zero between uses.
    shared_cells: Vec<u32>,
    shared_halo: Vec<u32>,
    /// Checked every few thousand rule applications ([`Propagation::set_deadline`]).
    pulse: Pulse,
    /// The deadline passed: propagation stopped short of its fixpoint.
    stopped: bool,
}

impl<'a> Propagation<'a> {
    /// The engine for `puzzle`'s board, counts and fleet over `placements` (its clues are not
    /// applied: see [`Propagation::start`]). Nothing is decided yet.
    pub fn new(puzzle: &Puzzle, placements: &'a Placements, rules: Rules) -> Self {
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
        Propagation {
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
            cells: vec![Cell::Unknown; n],
            status: vec![Status::Open; ships.len()],
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
        }
    }

    /// Stops propagating once `deadline` passes. The rules derive only forced facts, so what
    /// is decided when they stop still holds; only less is decided ([`Propagation::stopped`]
    /// tells), and [`Propagation::probe`] stops too.
    pub fn set_deadline(&mut self, deadline: Deadline) {
        self.pulse = deadline.pulse();
    }

    /// Whether the deadline stopped propagation short of its fixpoint.
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// Sets the cells `puzzle`'s clues show (ship or water) and runs every rule to a fixpoint.
    pub fn start(&mut self, puzzle: &Puzzle) -> Result<(), Contradiction> {
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
    pub fn assume(&mut self, pos: Pos, ship: bool) -> Result<(), Contradiction> {
        let cell = self.shape.index(pos);
        self.set(cell, ship).and_then(|()| self.propagate())
    }

    /// Reveals `clue` at `pos` and propagates: its cell, the neighbours its piece fixes (water
    /// around a submarine, the next cell of an end), and no candidate ship that would put another
    /// piece there. The same facts as building the placement list with the clue, at the cost of
    /// the cells it touches.
    pub fn assume_clue(&mut self, pos: Pos, clue: Clue) -> Result<(), Contradiction> {
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
        for &p in placements.covering(pos) {
            let ship = placements.ships()[p];
            let index = ship.cells().position(|c| c == pos).unwrap_or(0);
            if !clue.admits(Piece::of_ship(ship.len, index, ship.orientation)) {
                self.kill(p)?;
            }
        }
        Ok(())
    }

    /// Chooses placement `p` and propagates.
    pub fn choose_placement(&mut self, p: usize) -> Result<(), Contradiction> {
        self.choose(p).and_then(|()| self.propagate())
    }

    /// Strikes placement `p` off and propagates.
    pub fn kill_placement(&mut self, p: usize) -> Result<(), Contradiction> {
        self.kill(p).and_then(|()| self.propagate())
    }

    /// What is decided at `pos`: `Some(true)` ship, `Some(false)` water.
    pub fn cell(&self, pos: Pos) -> Option<bool> {
        match self.cells[self.shape.index(pos)] {
            Cell::Unknown => None,
            Cell::Ship => Some(true),
            Cell::Water => Some(false),
        }
    }

    /// How many cells are still undecided (a sum over the rows, so cheap to ask often).
    pub fn open_cells(&self) -> usize {
        self.line_unknown[..self.shape.rows].iter().sum()
    }

    /// What is decided about placement `p`.
    pub fn status(&self, p: usize) -> Status {
        self.status[p]
    }

    /// A mark to undo back to.
    pub fn mark(&self) -> Mark {
        Mark(self.trail.len())
    }

    /// Takes back every decision made after `mark`.
    pub fn undo(&mut self, mark: Mark) {
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
                        Status::Dead => {
                            class.alive += 1;
                            for pos in self.placements.ships()[p].cells() {
                                self.cover[self.shape.index(pos)] += 1;
                            }
                        }
                        Status::Chosen => class.chosen -= 1,
                        Status::Open => {}
                    }
                    self.status[p] = Status::Open;
                }
                None => break,
            }
        }
    }

    /// Probes each open placement, longest first: if choosing it leads the rules to a
    /// contradiction, it is in no solution and is struck off. Repeats until a round strikes
    /// nothing.
    pub fn probe(&mut self) -> Result<(), Contradiction> {
        let ships = self.placements.ships();
        let mut order: Vec<usize> = (0..ships.len()).collect();
        order.sort_by_key(|&p| std::cmp::Reverse(ships[p].len));
        loop {
            let mut struck = false;
            for &p in &order {
                if self.stopped {
                    return Ok(());
                }
                if self.status[p] != Status::Open {
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
    pub fn propagate(&mut self) -> Result<(), Contradiction> {
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

    fn kill(&mut self, p: usize) -> Result<(), Contradiction> {
        match self.status[p] {
            Status::Dead => return Ok(()),
            Status::Chosen => return Err(Contradiction),
            Status::Open => {}
        }
        self.status[p] = Status::Dead;
        self.trail.push(Change::Placement(p));
        let k = self.class_of[p];
        self.classes[k].alive -= 1;
        self.class_checks.push(k);
        for pos in self.placements.ships()[p].cells() {
            let c = self.shape.index(pos);
            self.cover[c] -= 1;
            self.cover_checks.push(c);
        }
        Ok(())
    }

    fn choose(&mut self, p: usize) -> Result<(), Contradiction> {
        match self.status[p] {
            Status::Chosen => return Ok(()),
            Status::Dead => return Err(Contradiction),
            Status::Open => {}
        }
        self.status[p] = Status::Chosen;
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
                for &p in placements.covering_cell(c) {
                    self.kill(p)?;
                }
            }
            Cell::Ship => {
                let pos = self.shape.pos(c);
                for dr in -1..=1 {
                    for dc in -1..=1 {
                        let Some(n) = pos.offset(dr, dc, self.shape.rows, self.shape.cols) else {
                            continue;
                        };
                        if n == pos {
                            continue;
                        }
                        for &p in placements.covering(n) {
                            if !covers(placements.ships()[p], pos) {
                                self.kill(p)?;
                            }
                        }
                    }
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
        let ship = self.placements.ships()[p];
        for pos in ship.cells() {
            self.set(self.shape.index(pos), true)?;
        }
        for pos in halo(ship, self.shape) {
            self.set(self.shape.index(pos), false)?;
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
            let p = self.class_members.items[i];
            if self.status[p] == Status::Open {
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
            .iter()
            .copied()
            .filter(|&p| self.status[p] != Status::Dead);
        let first = open.next();
        let single = open.next().is_none();
        match first {
            Some(p) if self.status[p] == Status::Open && single => self.choose(p),
            Some(_) if self.rules == Rules::Full => self.shared_rule(c),
            _ => Ok(()),
        }
    }

    fn shared_rule(&mut self, c: usize) -> Result<(), Contradiction> {
        let placements = self.placements;
        let candidates = placements.covering_cell(c);
        if candidates.iter().any(|&p| self.status[p] == Status::Chosen) {
            return Ok(());
        }
        let mut touched: Vec<usize> = Vec::new();
        let mut m = 0u32;
        for &p in candidates {
            if self.status[p] != Status::Open {
                continue;
            }
            m += 1;
            let ship = placements.ships()[p];
            for pos in ship.cells() {
                let x = self.shape.index(pos);
                if self.shared_cells[x] == 0 && self.shared_halo[x] == 0 {
                    touched.push(x);
                }
                self.shared_cells[x] += 1;
            }
            for pos in halo(ship, self.shape) {
                let x = self.shape.index(pos);
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
            let p = self.along.items[i];
            if self.status[p] != Status::Open {
                continue;
            }
            let new = self.placements.ships()[p]
                .cells()
                .filter(|&pos| self.cells[self.shape.index(pos)] != Cell::Ship)
                .count();
            if new > room {
                self.kill(p)?;
            }
        }
        Ok(())
    }

    /// The decided cells, row-major.
    fn cell_values(&self) -> Vec<Option<bool>> {
        self.shape.positions().map(|pos| self.cell(pos)).collect()
    }
}

/// Runs `rules` on `puzzle` (its clues as decided cells) over `placements`, to a fixpoint.
pub fn facts(
    puzzle: &Puzzle,
    placements: &Placements,
    rules: Rules,
) -> Result<Facts, Contradiction> {
    let mut engine = Propagation::new(puzzle, placements, rules);
    engine.start(puzzle)?;
    Ok(Facts {
        cells: engine.cell_values(),
        placements: engine.status,
    })
}

/// Applies the rules to `puzzle` until they change nothing (and probes, with
/// [`Effort::Probing`]), removing dead placements from `placements`. Returns what is decided,
/// aligned with the pruned `placements`.
pub fn deduce_with(
    puzzle: &Puzzle,
    placements: &mut Placements,
    effort: Effort,
) -> Result<Knowledge, Contradiction> {
    match deduce_within(puzzle, placements, effort, Deadline::NONE) {
        Ok(result) => result,
        Err(TimeLimit) => unreachable!("no deadline to pass"),
    }
}

/// [`deduce_with`], giving up with [`TimeLimit`] once `deadline` passes (then `placements`
/// is left as it was).
pub fn deduce_within(
    puzzle: &Puzzle,
    placements: &mut Placements,
    effort: Effort,
    deadline: Deadline,
) -> Result<Result<Knowledge, Contradiction>, TimeLimit> {
    let (cells, status) = {
        let mut engine = Propagation::new(puzzle, placements, Rules::Full);
        engine.set_deadline(deadline);
        let mut run = || {
            engine.start(puzzle)?;
            if effort == Effort::Probing {
                engine.probe()?;
            }
            Ok(())
        };
        let result = run();
        if engine.stopped() || deadline.passed() {
            return Err(TimeLimit);
        }
        if let Err(contradiction) = result {
            return Ok(Err(contradiction));
        }
        (engine.cell_values(), engine.status)
    };
    let alive: Vec<bool> = status.iter().map(|s| *s != Status::Dead).collect();
    let forced = status
        .iter()
        .filter(|s| **s != Status::Dead)
        .map(|s| *s == Status::Chosen)
        .collect();
    placements.retain(&alive);
    Ok(Ok(Knowledge { cells, forced }))
}

/// [`deduce_with`] with the rules alone.
pub fn deduce(puzzle: &Puzzle, placements: &mut Placements) -> Result<Knowledge, Contradiction> {
    deduce_with(puzzle, placements, Effort::Rules)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::ist;
    use crate::model::puzzle::Fleet;

    #[test]
    fn the_ist_example_is_decided_and_agrees_with_its_solution() {
        let text = include_str!("../../puzzles/ist-example.txt");
        let puzzle = ist::parse(text).unwrap();
        let solution = include_str!("../../puzzles/ist-example.out");
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
    fn a_passed_deadline_stops_pre_solving_and_leaves_the_placements_alone() {
        let puzzle = ist::parse(include_str!("../../puzzles/ist-example.txt")).unwrap();
        let mut placements = Placements::new(&puzzle);
        let before = placements.len();
        let passed = Deadline::after(std::time::Duration::ZERO);
        assert_eq!(
            deduce_within(&puzzle, &mut placements, Effort::Probing, passed),
            Err(TimeLimit)
        );
        assert_eq!(placements.len(), before);
        let far = Deadline::after(std::time::Duration::from_secs(3600));
        let k = deduce_within(&puzzle, &mut placements, Effort::Probing, far).unwrap();
        assert!(k.is_ok() && placements.len() < before);
    }

    #[test]
    fn an_overfull_row_is_a_contradiction() {
        let mut p = Puzzle::new(
            vec![Some(1), Some(0)],
            vec![Some(1), Some(0)],
            Fleet::from_counts(vec![1]),
        )
        .unwrap();
        p.add_clue(Pos::new(1, 1), Clue::Piece(Piece::Submarine))
            .unwrap();
        let mut pl = Placements::new(&p);
        assert_eq!(deduce(&p, &mut pl), Err(Contradiction));
    }

    /// Revealing the clues one by one on the clue-free board decides what pre-solving the
    /// puzzle with its clues decides.
    #[test]
    fn assumed_clues_decide_what_presolving_decides() {
        for text in [
            include_str!("../../puzzles/ist-example.txt"),
            include_str!("../../puzzles/generated/10x10/001.txt"),
            include_str!("../../puzzles/generated/10x10/002.txt"),
        ] {
            let puzzle = ist::parse(text).unwrap();
            let mut placements = Placements::new(&puzzle);
            let knowledge = deduce(&puzzle, &mut placements).unwrap();
            let bare = puzzle.without_clues();
            let all = Placements::new(&bare);
            let mut engine = Propagation::new(&bare, &all, Rules::Full);
            engine.start(&bare).unwrap();
            for (pos, clue) in puzzle.clues() {
                engine.assume_clue(pos, clue).unwrap();
            }
            assert_eq!(engine.cell_values(), knowledge.cells);
            let alive = (0..all.len()).filter(|&p| engine.status(p) != Status::Dead);
            assert_eq!(alive.count(), placements.len());
        }
    }

    /// Undoing an assumption restores every count, so the same assumption gives the same
    /// result again, and the opposite one is free to propagate.
    #[test]
    fn undo_restores_the_state() {
        let text = include_str!("../../puzzles/ist-example.txt");
        let puzzle = ist::parse(text).unwrap();
        let bare = crate::model::puzzle::Puzzle::new(
            puzzle.row_counts().to_vec(),
            puzzle.col_counts().to_vec(),
            puzzle.fleet().clone(),
        )
        .unwrap();
        let placements = Placements::new(&bare);
        let mut engine = Propagation::new(&bare, &placements, Rules::Full);
        engine.start(&bare).unwrap();
        let before = (engine.cell_values(), engine.status.clone());
        let mark = engine.mark();
        for (pos, clue) in puzzle.clues() {
            let _ = engine.assume(pos, clue.is_ship());
        }
        let after = engine.cell_values();
        assert!(after.iter().flatten().count() > before.0.iter().flatten().count());
        engine.undo(mark);
        assert_eq!((engine.cell_values(), engine.status.clone()), before);
        assert_eq!(engine.line_ship.iter().sum::<usize>(), {
            before.0.iter().filter(|c| **c == Some(true)).count() * 2
        });
        for (pos, clue) in puzzle.clues() {
            let _ = engine.assume(pos, clue.is_ship());
        }
        assert_eq!(engine.cell_values(), after);
    }
}
