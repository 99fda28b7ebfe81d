//! The clue-free formula of a puzzle plus clues, built in one place. Grading, hints and the
//! generator reason on the same formula: the cell model of the puzzle without its clues (so
//! that the placement list does not depend on which clues are shown), then each clue as clauses
//! over the cell variables, plain, tagged with the rule it is, or guarded by a selector literal
//! so that an incremental solver or propagator can switch it on by assumption.

use crate::placement::Placements;
use crate::puzzle::{Clue, Pos, Puzzle, Shape};
use crate::rule::Rule;
use crate::sat::card::CardKind;
use crate::sat::clue;
use crate::sat::model::{Instance, Model};
use crate::sat::sink::{ClauseSink, TaggedFormula};
use varisat::{CnfFormula, Lit, Var};

/// The clue-free cell-model formula of a puzzle, with clues added as the caller chooses.
#[derive(Debug)]
pub struct ClueFormula {
    tagged: TaggedFormula,
    cells: Vec<Var>,
    shape: Shape,
}

impl ClueFormula {
    /// The formula of `puzzle`'s board, counts and fleet, with the cardinality encoding `card`
    /// and without any clue (`puzzle`'s own clues are left out: add them with
    /// [`ClueFormula::add_clue`]).
    pub fn new(puzzle: &Puzzle, card: CardKind) -> Self {
        ClueFormula::with_model(puzzle, Model::Cell, card)
    }

    /// [`ClueFormula::new`] in the CNF model `model` (the placement model has no rule tags of
    /// its own: hints and grading use the cell model).
    pub fn with_model(puzzle: &Puzzle, model: Model, card: CardKind) -> Self {
        let bare = puzzle.without_clues();
        let placements = Placements::new(&bare);
        let mut tagged = TaggedFormula::new();
        let encoding = model.encode(&Instance::plain(&bare, &placements, card), &mut tagged);
        ClueFormula {
            tagged,
            cells: encoding.cells,
            shape: bare.shape(),
        }
    }

    /// The formula with `puzzle`'s clues added, each tagged as a clue.
    pub fn with_clues(puzzle: &Puzzle, card: CardKind) -> Self {
        let mut formula = ClueFormula::new(puzzle, card);
        for (pos, c) in puzzle.clues() {
            formula.add_clue(pos, c, Rule::Clue { pos, clue: c });
        }
        formula
    }

    /// The literal "the cell at `pos` holds a ship part".
    pub fn cell(&self, pos: Pos) -> Lit {
        self.cells[self.shape.index(pos)].positive()
    }

    /// The cell variables, row-major.
    pub fn cells(&self) -> &[Var] {
        &self.cells
    }

    /// Adds the clauses stating `clue` at `pos`, each tagged `rule`.
    pub fn add_clue(&mut self, pos: Pos, clue: Clue, rule: Rule) {
        self.tagged.set_rule(rule);
        for c in self.clue_clauses(pos, clue) {
            self.tagged.add_clause(&c);
        }
    }

    /// Adds the clauses stating `clue` at `pos`, each guarded by a fresh selector literal, and
    /// returns the selector: assuming it switches the clue on.
    pub fn add_guarded_clue(&mut self, pos: Pos, clue: Clue) -> Lit {
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
    pub fn rules(&self) -> &[Rule] {
        &self.tagged.rules
    }
}
