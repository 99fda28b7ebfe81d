//! One member's solver in the SAT engine ([`super::engine`]): the [`Racer`] that leads or helps,
//! what one of its calls ends with, and the [`Helper`] beside the lead on hard questions.

use super::instance::Encoding;
use super::portfolio::{Decision, IMPORT_CONFLICTS, LearntReader, Member};
use crate::model::lit::Lit;
use crate::model::outcome::SolveError;
use crate::solver::{self, Incremental, SolverError};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// One member's solver.
pub(super) struct Racer {
    pub(super) member: Member,
    pub(super) solver: Box<dyn Incremental>,
    pub(super) encoding: Encoding,
    pub(super) limit: Arc<AtomicU64>,
}

/// What one solver call ended with.
pub(super) enum CallAnswer {
    /// A model, as ship cells.
    Sat(Vec<bool>),
    Unsat,
    /// The conflict limit or the stop flag stopped it.
    Stopped,
}

impl Racer {
    pub(super) fn conflicts(&self) -> u64 {
        self.solver.conflicts()
    }

    /// Adds the clause that rules out the grid with these ship cells: the fleet fixes the number
    /// of ship cells, so another solution must turn one of them into water.
    pub(super) fn block(&mut self, ship: &[bool]) {
        let clause: Vec<Lit> = self
            .encoding
            .cells
            .iter()
            .zip(ship)
            .filter(|(_, s)| **s)
            .map(|(v, _)| v.negative())
            .collect();
        self.solver.add_clause(&clause);
    }

    /// Solves until an answer or until the solver's conflict count reaches `limit` (or a helper
    /// of `decision` decides the call).
    pub(super) fn run(
        &mut self,
        limit: u64,
        decision: Option<&Decision>,
    ) -> Result<CallAnswer, SolveError> {
        self.limit.store(limit, Ordering::SeqCst);
        // After the store: a helper that decides later stops this run through the limit.
        if decision.is_some_and(Decision::decided) {
            return Ok(CallAnswer::Stopped);
        }
        self.solve()
    }

    /// Solves until an answer or until the conflict limit, as it stands, stops it.
    pub(super) fn solve(&mut self) -> Result<CallAnswer, SolveError> {
        let answer = self.solver.solve().map_err(SolveError::failed)?;
        Ok(match answer {
            solver::Answer::Sat => CallAnswer::Sat(
                self.encoding
                    .cells
                    .iter()
                    .map(|v| self.solver.value(v.positive()) == Some(true))
                    .collect(),
            ),
            solver::Answer::Unsat => CallAnswer::Unsat,
            solver::Answer::Stopped => CallAnswer::Stopped,
        })
    }
}

/// A member beside the lead on hard questions. It searches the same question on its own
/// thread and blocks every grid it finds; `own` holds those the lead has not returned yet, so
/// that once its formula is UNSAT the solutions left are exactly `own`. With at most one, that
/// is the call's answer whatever the timing (the lead would find the same grid, or none); with
/// two or more, the order is the lead's to give, and the helper waits for the lead. A helper of
/// the whole-encoding specialist's formula adds, every [`IMPORT_CONFLICTS`], the short clauses
/// the lead has learnt ([`LearntReader`]).
pub(super) struct Helper {
    pub(super) racer: Racer,
    pub(super) own: Vec<Vec<bool>>,
    pub(super) reader: Option<LearntReader>,
}

impl Helper {
    /// Searches until it decides the call (see [`Helper`]), the call is over, or it holds two
    /// grids of its own.
    pub(super) fn hunt(&mut self, decision: &Decision) {
        while self.own.len() < 2 {
            if let Some(reader) = &mut self.reader {
                reader.import(self.racer.solver.as_mut());
                let next = self.racer.conflicts().saturating_add(IMPORT_CONFLICTS);
                self.racer.limit.store(next, Ordering::SeqCst);
            }
            // After the store: a call that ends later stops this search through the limit.
            if decision.is_over() {
                return;
            }
            let before = self.racer.conflicts();
            match self.racer.solve() {
                Ok(CallAnswer::Sat(ship)) => {
                    self.racer.block(&ship);
                    self.own.push(ship);
                }
                Ok(CallAnswer::Unsat) => {
                    decision.decide(self.own.first().cloned());
                    return;
                }
                // Time to read the lead's clauses again (stopped with no conflict: the call
                // is over, or the stop flag is set).
                Ok(CallAnswer::Stopped)
                    if self.reader.is_some() && self.racer.conflicts() > before => {}
                // Stopped, or failed: the lead answers.
                Ok(CallAnswer::Stopped) | Err(_) => return,
            }
        }
    }
}

/// Why a member's solver was not built.
pub(super) enum Unbuilt {
    /// The deadline passed while encoding.
    TimeLimit,
    /// The solver could not be made (not linked into this build).
    Solver(SolverError),
}

impl From<Unbuilt> for SolveError {
    fn from(unbuilt: Unbuilt) -> Self {
        match unbuilt {
            Unbuilt::TimeLimit => SolveError::TimeLimit,
            Unbuilt::Solver(e) => SolveError::failed(e),
        }
    }
}
