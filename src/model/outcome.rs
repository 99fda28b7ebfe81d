//! What every backend offers: the [`Engine`] trait (a backend loaded with one puzzle, returning
//! one new solution per call), the [`Stats`] it keeps and the [`SolveError`] it may fail with.
//! The SAT and ILP engines implement it; [`mod@crate::solve`] chooses one and verifies its grids.

use crate::model::puzzle::Grid;
use crate::model::verify::Violation;
use serde::Serialize;
use std::time::Duration;

/// Sizes and times of one solve.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Stats {
    /// Backend name.
    pub backend: &'static str,
    /// Configuration: model and cardinality encoding or MIP solver (for example `cell/seq`,
    /// `ship/microlp`).
    pub model: String,
    /// Variables in the formula or program.
    pub variables: usize,
    /// Clauses or linear constraints.
    pub constraints: usize,
    /// Conflicts (learnt clauses), when counted.
    pub conflicts: Option<u64>,
    /// Time spent building the formula.
    pub encode_time: Duration,
    /// Time spent in the solver.
    pub solve_time: Duration,
    /// Number of solver calls.
    pub solver_calls: usize,
}

/// Errors while solving. These are failures of the tool, not properties of the puzzle.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SolveError {
    /// The solver itself failed.
    #[error("solver failure: {message}")]
    Solver {
        /// What the solver said.
        message: String,
    },
    /// The SAT backend's stop flag ([`crate::usecase::solve::SolveOptions::stop`]) was set before an answer.
    #[error("stopped before an answer")]
    Interrupted,
    /// [`crate::usecase::solve::SolveOptions::time_limit`] passed before an answer.
    #[error("time limit reached")]
    TimeLimit,
    /// A model could not be decoded into a grid.
    #[error("internal error: the solver's model does not decode into straight ships")]
    Decode,
    /// The verifier rejected a grid a backend produced: a bug in that backend.
    #[error("internal error: the verifier rejected a solver's grid: {0}")]
    Rejected(#[from] Violation),
}

impl From<crate::model::deadline::TimeLimit> for SolveError {
    fn from(_: crate::model::deadline::TimeLimit) -> Self {
        SolveError::TimeLimit
    }
}

/// A backend loaded with one puzzle. Each call returns a solution not returned before.
pub trait Engine {
    /// The next solution, or `None` when there is no other.
    fn next_solution(&mut self) -> Result<Option<Grid>, SolveError>;
    /// Sizes and times so far.
    fn stats(&self) -> Stats;
}
