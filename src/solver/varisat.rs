//! The varisat adapter: [`Varisat`] implements [`Solver`] with the vendored varisat 0.2.2
//! (`vendor/varisat`, patched with a shared conflict limit, a stop flag and a conflict counter;
//! see its `PATCH.md`). This is the one file of the crate that names the patched functions, and
//! the one place with `unsafe` code: the `Send` promise below.

use super::{Answer, Solver, SolverError};
use crate::sat::sink::ClauseSink;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64};
use varisat::solver::SolverError as VarisatError;
use varisat::{ExtendFormula, Lit, Var};

/// varisat behind the crate's solver interface.
pub struct Varisat {
    solver: varisat::Solver<'static>,
    /// Per variable, the value in the last model.
    model: Vec<bool>,
    /// The assumptions varisat holds. varisat restarts its search whenever they are set, so
    /// they are set only when they change: a call that resumes a stopped search with the same
    /// assumptions goes on where it stopped.
    assumed: Vec<Lit>,
}

// SAFETY: a varisat `Solver` is not `Send` only because a proof writer (`Box<dyn Write>`) or
// proof processors (`&mut dyn ProofProcessor`) may be attached to it. `Varisat` offers no way to
// attach either, so the solver inside holds plain data only and may move between threads.
#[allow(unsafe_code)]
unsafe impl Send for Varisat {}

impl Varisat {
    /// A new, empty solver.
    pub fn new() -> Self {
        Varisat {
            solver: varisat::Solver::new(),
            model: Vec::new(),
            assumed: Vec::new(),
        }
    }
}

impl Default for Varisat {
    fn default() -> Self {
        Varisat::new()
    }
}

impl ClauseSink for Varisat {
    fn new_var(&mut self) -> Var {
        self.solver.new_var()
    }
    fn add_clause(&mut self, clause: &[Lit]) {
        self.solver.add_clause(clause)
    }
}

impl Solver for Varisat {
    fn name(&self) -> &'static str {
        "varisat"
    }

    fn solve(&mut self, assumptions: &[Lit]) -> Result<Answer, SolverError> {
        if assumptions != self.assumed.as_slice() {
            self.solver.assume(assumptions);
            self.assumed = assumptions.to_vec();
        }
        match self.solver.solve() {
            Ok(true) => {
                let model = self.solver.model().ok_or_else(|| SolverError {
                    solver: "varisat",
                    message: "SAT without a model".into(),
                })?;
                self.model.clear();
                self.model.resize(model.len(), false);
                for lit in model {
                    if let Some(slot) = self.model.get_mut(lit.index()) {
                        *slot = lit.is_positive();
                    }
                }
                Ok(Answer::Sat)
            }
            Ok(false) => Ok(Answer::Unsat),
            Err(VarisatError::Interrupted) => Ok(Answer::Stopped),
            Err(e) => Err(SolverError {
                solver: "varisat",
                message: e.to_string(),
            }),
        }
    }

    fn value(&self, lit: Lit) -> Option<bool> {
        self.model.get(lit.index()).map(|&v| v == lit.is_positive())
    }

    fn failed_assumptions(&self) -> Vec<Lit> {
        self.solver
            .failed_core()
            .map(<[Lit]>::to_vec)
            .unwrap_or_default()
    }

    fn conflicts(&self) -> u64 {
        self.solver.conflicts()
    }

    fn set_conflict_limit(&mut self, limit: Option<Arc<AtomicU64>>) {
        self.solver.set_conflict_limit(limit);
    }

    fn set_interrupt(&mut self, flag: Option<Arc<AtomicBool>>) {
        self.solver.set_stop_flag(flag);
    }
}
