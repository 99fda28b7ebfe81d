//! The SAT solver interface. The engine, the generator, hints and grades ask a solver only for
//! what [`Solver`] offers: clauses in (it is a [`ClauseSink`]), solving under assumptions, the
//! model, the failed assumptions, a conflict limit and an interrupt. Each solver implements it
//! in one adapter file: [`varisat`] (pure Rust, always built). A patched or `unsafe` detail of a
//! solver never leaks past its adapter, and a new solver is one new file behind a cargo feature
//! plus a [`SolverKind`] value.

pub mod varisat;

use crate::sat::sink::ClauseSink;
use ::varisat::{CnfFormula, Lit};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64};

/// How a solver call ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// The clauses and assumptions are satisfiable; the model is readable.
    Sat,
    /// They are not; under assumptions, the failed ones are readable.
    Unsat,
    /// The conflict limit was reached or the interrupt flag was set before an answer. A later
    /// call resumes the search.
    Stopped,
}

/// The solver itself failed (never a property of the formula).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{solver}: {message}")]
pub struct SolverError {
    /// The solver's name.
    pub solver: &'static str,
    /// What went wrong.
    pub message: String,
}

/// A SAT solver behind the crate's interface.
pub trait Solver: ClauseSink + Send {
    /// The solver's name, as `--solver` spells it.
    fn name(&self) -> &'static str;

    /// Solves the clauses added so far, with `assumptions` taken as true for this call only.
    fn solve(&mut self, assumptions: &[Lit]) -> Result<Answer, SolverError>;

    /// The value of `lit` in the model of the last call that answered [`Answer::Sat`]
    /// (`None` for a variable the model does not mention).
    fn value(&self, lit: Lit) -> Option<bool>;

    /// After [`Answer::Unsat`] under assumptions: a subset of the assumptions that the clauses
    /// alone refute (a failed-assumption core). Empty when the clauses are unsatisfiable
    /// without any assumption.
    fn failed_assumptions(&self) -> Vec<Lit>;

    /// Conflicts over all calls so far.
    fn conflicts(&self) -> u64;

    /// A shared conflict cap: a call stops with [`Answer::Stopped`] once [`Solver::conflicts`]
    /// reaches the value it holds. Another thread may lower it while the solver runs.
    fn set_conflict_limit(&mut self, limit: Option<Arc<AtomicU64>>);

    /// A flag that, once set from any thread, stops the running call with [`Answer::Stopped`].
    fn set_interrupt(&mut self, flag: Option<Arc<AtomicBool>>);
}

/// Adds every clause of `formula` to `solver`.
pub fn load(solver: &mut dyn Solver, formula: &CnfFormula) {
    for clause in formula.iter() {
        solver.add_clause(clause);
    }
}

/// The SAT solvers this crate can use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum SolverKind {
    /// varisat, pure Rust (the default).
    #[default]
    Varisat,
}

impl SolverKind {
    /// Every solver this build links.
    pub const ALL: &'static [SolverKind] = &[SolverKind::Varisat];

    /// The solver's name.
    pub fn name(self) -> &'static str {
        match self {
            SolverKind::Varisat => "varisat",
        }
    }

    /// A new, empty solver of this kind.
    pub fn new_solver(self) -> Box<dyn Solver> {
        match self {
            SolverKind::Varisat => Box::new(varisat::Varisat::new()),
        }
    }
}

impl std::fmt::Display for SolverKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
