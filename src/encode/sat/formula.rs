//! The clue-free formula of a puzzle plus clues, built in one place. Grading, hints and the
//! generator reason on the same formula: the cell model of the puzzle without its clues (so
//! that the placement list does not depend on which clues are shown), then each clue as clauses
//! over the cell variables, plain, tagged with the rule it is, or guarded by a selector literal
//! so that an incremental solver or propagator can switch it on by assumption.

use crate::encode::sat::card::CardKind;
use crate::encode::sat::clue;
use crate::encode::sat::instance::Instance;
use crate::encode::sat::model::Model;
use crate::model::cnf::CnfFormula;
use crate::model::deadline::{Deadline, TimeLimit};
use crate::model::lit::{Lit, Var};
use crate::model::placement::Placements;
use crate::model::puzzle::{Clue, Pos, Puzzle, Shape};
use crate::model::rule::Rule;
use crate::solver::sink::{Capped, ClauseSink, TaggedFormula, Timed};

/// The most clauses [`ClueFormula::bounded`] lets hints and grades build: a formula is held
/// three times over (the clauses with their rules, the propagator's copy with its watch lists,
/// and a SAT solver's copy when a hint needs a search), about 250 bytes a clause in all, so
/// this keeps them under about 1 GB. A 100x100 board without counts needs 1.3 million clauses.
pub(crate) const MAX_CLAUSES: usize = 4_000_000;

/// Why a formula was not built.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FormulaError {
    /// The deadline passed.
    #[error("time limit reached")]
    TimeLimit,
    /// The formula would have more than `max` clauses.
    #[error("the board is too large: its formula would have more than {max} clauses")]
    TooLarge {
        /// The cap.
        max: usize,
    },
}

impl From<TimeLimit> for FormulaError {
    fn from(_: TimeLimit) -> Self {
        FormulaError::TimeLimit
    }
}

/// The clue-free cell-model formula of a puzzle, with clues added as the caller chooses.
#[derive(Debug)]
pub(crate) struct ClueFormula {
    tagged: TaggedFormula,
    cells: Vec<Var>,
    shape: Shape,
}

impl ClueFormula {
    /// [`ClueFormula::new`] in the CNF model `model` (the placement model has no rule tags of
    /// its own: hints and grading use the cell model).
    pub(crate) fn with_model(puzzle: &Puzzle, model: Model, card: CardKind) -> Self {
        match ClueFormula::bounded(puzzle, model, card, Deadline::NONE, usize::MAX) {
            Ok(formula) => formula,
            Err(e) => unreachable!("no deadline and no cap to pass: {e}"),
        }
    }

    /// [`ClueFormula::with_model`], giving up once `deadline` passes or the formula passes
    /// `max_clauses` clauses (see [`MAX_CLAUSES`]).
    pub(crate) fn bounded(
        puzzle: &Puzzle,
        model: Model,
        card: CardKind,
        deadline: Deadline,
        max_clauses: usize,
    ) -> Result<Self, FormulaError> {
        let bare = puzzle.without_clues();
        let placements = Placements::within(&bare, &deadline)?;
        let mut tagged = TaggedFormula::new();
        let mut capped = Capped::new(&mut tagged, max_clauses);
        let mut sink = Timed::new(&mut capped, deadline.clone());
        let encoding = model.encode(&Instance::plain(&bare, &placements, card), &mut sink);
        let timed_out = sink.finish().is_err();
        if timed_out || capped.overflowed() {
            // A large formula takes a while to free: not on the caller's time once the limit
            // is reached.
            deadline.discard((tagged, placements));
            return Err(if timed_out {
                FormulaError::TimeLimit
            } else {
                FormulaError::TooLarge { max: max_clauses }
            });
        }
        Ok(ClueFormula {
            tagged,
            cells: encoding.cells,
            shape: bare.shape(),
        })
    }

    /// The formula (cell model) with `puzzle`'s clues added, each tagged as a clue, within the
    /// bounds of [`ClueFormula::bounded`].
    pub(crate) fn with_clues(
        puzzle: &Puzzle,
        card: CardKind,
        deadline: Deadline,
        max_clauses: usize,
    ) -> Result<Self, FormulaError> {
        let mut formula = ClueFormula::bounded(puzzle, Model::Cell, card, deadline, max_clauses)?;
        formula.add_clues_of(puzzle);
        Ok(formula)
    }

    fn add_clues_of(&mut self, puzzle: &Puzzle) {
        for (pos, c) in puzzle.clues() {
            self.add_clue(pos, c, Rule::Clue { pos, clue: c });
        }
    }

    /// The literal "the cell at `pos` holds a ship part".
    pub(crate) fn cell(&self, pos: Pos) -> Lit {
        self.cells[self.shape.index(pos)].positive()
    }

    /// The cell variables, row-major.
    pub(crate) fn cells(&self) -> &[Var] {
        &self.cells
    }

    /// Adds the clauses stating `clue` at `pos`, each tagged `rule`.
    pub(crate) fn add_clue(&mut self, pos: Pos, clue: Clue, rule: Rule) {
        self.tagged.set_rule(rule);
        for c in self.clue_clauses(pos, clue) {
            self.tagged.add_clause(&c);
        }
    }

    /// Adds the clauses stating `clue` at `pos`, each guarded by a fresh selector literal, and
    /// returns the selector: assuming it switches the clue on.
    pub(crate) fn add_guarded_clue(&mut self, pos: Pos, clue: Clue) -> Lit {
        let selector = self.tagged.new_var().positive();
        self.tagged.set_rule(Rule::Clue { pos, clue });
        for mut c in self.clue_clauses(pos, clue) {
            c.push(!selector);
            self.tagged.add_clause(&c);
        }
        selector
    }

    fn clue_clauses(&self, pos: Pos, c: Clue) -> Vec<Vec<Lit>> {
        clue::clauses(pos, c, self.shape, |p| self.cell(p))
    }

    /// The clauses.
    pub fn formula(&self) -> &CnfFormula {
        &self.tagged.formula
    }

    /// The rule each clause states, in clause order.
    pub(crate) fn rules(&self) -> &[Rule] {
        &self.tagged.rules
    }
}
