//! The CNF deduction oracle of `--reduce propagation`, `look-ahead` and the grades: which cells
//! unit propagation (with look-ahead) decides for a set of the solution's clues.

use super::spec::clue_free_puzzle;
use crate::encode::sat::card::CardKind;
use crate::encode::sat::formula::{ClueFormula, FormulaError};
use crate::encode::sat::model::Model;
use crate::model::deadline::Deadline;
use crate::model::lit::{Lit, Var};
use crate::model::puzzle::{Clue, Fleet, Grid, Pos, Shape};
use crate::reason::unit::{Propagator, TrailMark};

/// Decides which cells unit propagation plus one-step look-ahead (failed-literal probing on
/// cells) fixes for a set of revealed clues of a known solution. The clue-free formula is loaded
/// once with every cell's clue behind a selector; a check assumes the selectors and undoes them.
pub(crate) struct DeductionOracle {
    pub(super) prop: Propagator,
    depth: usize,
    cells: Vec<Var>,
    /// The cells' values in the solution (true for ship parts): probing skips what they show
    /// cannot fail.
    model: Vec<bool>,
    selectors: Vec<Lit>,
    shape: Shape,
}

impl DeductionOracle {
    /// Loads the clue-free puzzle of `solution`; `depth` 0 is unit propagation alone, 1 adds
    /// failed-literal probing. Gives up once `deadline` passes or the formula passes
    /// `max_clauses` clauses; propagation and probing then keep checking the deadline
    /// ([`DeductionOracle::stopped`]).
    pub(crate) fn new(
        solution: &Grid,
        fleet: &Fleet,
        card: CardKind,
        depth: usize,
        deadline: Deadline,
        max_clauses: usize,
    ) -> Result<Self, FormulaError> {
        let puzzle = clue_free_puzzle(solution, fleet);
        let mut formula =
            ClueFormula::bounded(&puzzle, Model::Cell, card, deadline.clone(), max_clauses)?;
        let selectors = puzzle
            .positions()
            .map(|pos| formula.add_guarded_clue(pos, Clue::Piece(solution.get(pos))))
            .collect();
        let prop = Propagator::within(formula.formula(), deadline.clone());
        let cells = formula.cells().to_vec();
        deadline.discard(formula);
        let mut prop = prop?;
        // The solution satisfies the formula, so the root cannot conflict.
        let _ = prop.propagate_root();
        Ok(DeductionOracle {
            prop,
            depth,
            cells,
            model: puzzle.positions().map(|p| solution.is_ship(p)).collect(),
            selectors,
            shape: puzzle.shape(),
        })
    }

    /// Whether the deadline stopped propagation or probing short of its fixpoint (what
    /// [`DeductionOracle::open_cells`] then says is not to be trusted).
    pub(crate) fn stopped(&self) -> bool {
        self.prop.stopped()
    }

    /// The cells that deduction leaves open when `clues` are revealed (empty: the clues decide
    /// the whole board, so the solution is unique).
    pub(crate) fn open_cells(&mut self, clues: &[Pos]) -> Vec<Pos> {
        let mark = self.prop.mark();
        let mut ok = clues.iter().all(|&p| {
            self.prop
                .assume(self.selectors[self.shape.index(p)])
                .is_ok()
        });
        ok = ok
            && (self.depth == 0
                || self
                    .prop
                    .probe_fixpoint_knowing(&self.cells, Some(&self.model), self.depth)
                    .is_ok());
        let open = if ok {
            self.cells
                .iter()
                .enumerate()
                .filter(|(_, v)| self.prop.var_value(**v).is_none())
                .map(|(i, _)| self.shape.pos(i))
                .collect()
        } else {
            Vec::new() // a contradiction cannot happen: the solution satisfies every clue
        };
        self.prop.undo(mark);
        open
    }

    /// Reveals the clue at `pos` until undone, so that later checks build on it; returns the
    /// mark to undo it (and everything revealed after it).
    pub(crate) fn reveal(&mut self, pos: Pos) -> TrailMark {
        let mark = self.prop.mark();
        // The solution satisfies every clue, so this cannot conflict.
        let _ = self.prop.assume(self.selectors[self.shape.index(pos)]);
        mark
    }

    /// Takes back what was revealed since `mark`.
    pub(crate) fn undo(&mut self, mark: TrailMark) {
        self.prop.undo(mark);
    }
}
