//! Which cells a set of revealed clues decides, asked of the crate's one reasoning engine
//! ([`crate::reason::deduce`]): the count, fleet, shape and clue rules over cells and
//! placements, optionally with placement probing as look-ahead. No formula is built, so memory
//! grows with the cells and the placements (cells × fleet), and every question is answered on
//! one engine whose trail undoes what a question revealed.
//!
//! The generator's default clue sets come from here: clues revealed at random until the rules
//! decide every cell (which proves the solution unique, without search), then reduced with
//! QuickXplain (Junker, "QuickXplain: preferred explanations and relaxations for
//! over-constrained problems", AAAI 2004) to a set in which every clue is needed: dropping any
//! one leaves a cell the rules cannot decide. Deduction only adds facts when clues are added,
//! so "decides every cell" is monotone in the clues, which is all QuickXplain needs.

use crate::model::deadline::Budget;
use crate::model::deadline::{Deadline, TimeLimit};
use crate::model::placement::Placements;
use crate::model::puzzle::{Clue, Grid, Pos, Puzzle};
use crate::reason::deduce::{Effort, Propagation, Rules, deduce};
use rand::RngExt;
use rand_chacha::ChaCha8Rng;

/// Which open cell [`Deducer::reveal_until_decided`] reveals next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reveal {
    /// A ship part while one is open (it tells more than water): few clues.
    ShipFirst,
    /// Water while some is open: clues that tell little each, so more of them and puzzles that
    /// need deeper reasoning (the start of `--grade fiendish`).
    WaterFirst,
}

/// The reasoning engine loaded with one solution's clue-free puzzle, asked which clue sets of
/// that solution decide every cell.
pub(crate) struct Deducer<'a> {
    engine: Propagation<'a>,
    solution: &'a Grid,
    look_ahead: bool,
    deadline: Deadline,
    first: Reveal,
}

impl<'a> Deducer<'a> {
    /// The engine for `puzzle` (the clue-free puzzle of `solution`, with its `placements`),
    /// with the rules alone, or with placement probing on top when `look_ahead`; the reveal
    /// and the reduction give up with [`TimeLimit`] once `deadline` passes.
    pub(crate) fn new(
        puzzle: &Puzzle,
        placements: &'a Placements,
        solution: &'a Grid,
        look_ahead: bool,
        deadline: Deadline,
    ) -> Self {
        let mut engine = Propagation::new(puzzle, placements, Rules::Full);
        let started = engine.start(puzzle);
        debug_assert!(started.is_ok(), "the solution satisfies its own counts");
        Deducer {
            engine,
            solution,
            look_ahead,
            deadline,
            first: Reveal::ShipFirst,
        }
    }

    /// Reveals `first` kind of cell first ([`Reveal::ShipFirst`] unless told).
    pub(crate) fn revealing(self, first: Reveal) -> Self {
        Deducer { first, ..self }
    }

    /// Gives up the reveal and the reduction with [`TimeLimit`] once `deadline` passes.
    pub(crate) fn set_deadline(&mut self, deadline: Deadline) {
        self.deadline = deadline;
    }

    /// Reveals the solution's piece at `pos` (until undone).
    fn reveal(&mut self, pos: Pos) {
        let clue = Clue::Piece(self.solution.get(pos));
        let revealed = self.engine.assume_clue(pos, clue);
        debug_assert!(revealed.is_ok(), "a clue of the solution cannot refute it");
    }

    /// Probes, when look-ahead is on and a cell is open; the struck placements stay until
    /// undone.
    fn look(&mut self) {
        if self.look_ahead && self.engine.open_cells() > 0 {
            let probed = self.engine.probe();
            debug_assert!(probed.is_ok(), "probing is sound on the solution's clues");
        }
    }

    /// Whether what is revealed decides every cell (probing first, and undoing it, with
    /// look-ahead).
    fn complete(&mut self) -> bool {
        let mark = self.engine.mark();
        self.look();
        let done = self.engine.open_cells() == 0;
        self.engine.undo(mark);
        done
    }

    /// Reveals clues at random among the open cells (of the kind [`Deducer::revealing`] names
    /// while one is open) until every cell is decided; returns them in the order revealed and
    /// leaves the engine as it found it.
    pub(crate) fn reveal_until_decided(
        &mut self,
        rng: &mut ChaCha8Rng,
    ) -> Result<Vec<Pos>, TimeLimit> {
        let root = self.engine.mark();
        let shape = self.solution.shape();
        let mut clues = Vec::new();
        let mut open = Vec::new();
        loop {
            if self.deadline.passed() {
                self.engine.undo(root);
                return Err(TimeLimit);
            }
            self.look();
            if self.engine.open_cells() == 0 {
                break;
            }
            open.clear();
            open.extend(shape.positions().filter(|&p| self.engine.cell(p).is_none()));
            let want_ship = self.first == Reveal::ShipFirst;
            let ships = open
                .iter()
                .filter(|&&p| self.solution.is_ship(p) == want_ship)
                .count();
            let pick = if ships > 0 {
                let k = rng.random_range(0..ships);
                open.iter()
                    .copied()
                    .filter(|&p| self.solution.is_ship(p) == want_ship)
                    .nth(k)
            } else {
                Some(open[rng.random_range(0..open.len())])
            };
            let Some(pos) = pick else { break };
            self.reveal(pos);
            clues.push(pos);
        }
        self.engine.undo(root);
        Ok(clues)
    }

    /// A subset of `clues` (which together decide every cell) that still decides every cell
    /// and from which no clue can be dropped: QuickXplain, which prefers to keep clues early in
    /// `clues` and asks O(k log(n/k)) questions for k kept out of n. Returned sorted.
    pub(crate) fn minimal(&mut self, clues: &[Pos]) -> Result<Vec<Pos>, TimeLimit> {
        let mut kept = if self.complete() {
            Vec::new()
        } else {
            self.quick_xplain(false, clues)
        };
        self.deadline.check()?;
        kept.sort();
        Ok(kept)
    }

    /// QuickXplain's recursion: what is revealed plus `clues` decides every cell; returns a
    /// minimal subset of `clues` that, with what is revealed, still does. `added` says whether
    /// the caller revealed something since the last completeness check.
    fn quick_xplain(&mut self, added: bool, clues: &[Pos]) -> Vec<Pos> {
        if self.deadline.passed() {
            return Vec::new(); // the caller reports the time limit
        }
        if added && self.complete() {
            return Vec::new();
        }
        if clues.len() <= 1 {
            return clues.to_vec();
        }
        let (first, second) = clues.split_at(clues.len() / 2);
        let mark = self.engine.mark();
        for &pos in first {
            self.reveal(pos);
        }
        let mut kept_second = self.quick_xplain(true, second);
        self.engine.undo(mark);
        for &pos in &kept_second {
            self.reveal(pos);
        }
        let mut kept = self.quick_xplain(!kept_second.is_empty(), first);
        self.engine.undo(mark);
        kept.append(&mut kept_second);
        kept
    }
}

/// A clue set of `solution` that the rules (with placement probing when `look_ahead`) decide
/// completely, in which every clue is needed for that: revealed at random, then reduced in a
/// random order. Sorted. [`TimeLimit`] once `deadline` passes.
pub(crate) fn deduction_minimal(
    solution: &Grid,
    puzzle: &Puzzle,
    look_ahead: bool,
    deadline: Deadline,
    rng: &mut ChaCha8Rng,
) -> Result<Vec<Pos>, TimeLimit> {
    use rand::seq::SliceRandom;
    let placements = Placements::new(puzzle);
    let mut deducer = Deducer::new(puzzle, &placements, solution, look_ahead, deadline);
    let mut clues = deducer.reveal_until_decided(rng)?;
    clues.shuffle(rng);
    deducer.minimal(&clues)
}

/// Whether the rules with placement probing decide every cell of `puzzle` (which proves it
/// unique): the generator's cheap test that a `--grade fiendish` candidate is not fiendish.
pub(crate) fn probing_decides(puzzle: &Puzzle) -> bool {
    let mut placements = Placements::new(puzzle);
    matches!(
        deduce(puzzle, &mut placements, Effort::Probing, &Budget::default()),
        Ok(Ok(knowledge)) if knowledge.is_complete()
    )
}
