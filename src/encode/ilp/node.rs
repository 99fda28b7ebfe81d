//! What one node of the ILP engine's branch-and-bound is solved with and may end in: its
//! program as a MIP solver sees it (`Program`: integer `Column`s and `NodeRow`s over them),
//! its limits (`NodeLimits`: a deadline and a stop flag), how a solver's call ended
//! (`Ended`, what every adapter of `mip.rs`'s `MipSolver` answers) and why a call gave the
//! engine no answer (`NodeFailure`).

use super::linear::Sense;
use crate::model::deadline::Deadline;
use crate::model::outcome::SolveError;
use std::sync::atomic::{AtomicBool, Ordering};

/// When a solve gives up: at a deadline, or once a stop flag is set.
#[derive(Clone, Copy, Debug)]
pub(crate) struct NodeLimits<'a> {
    /// Give up with [`SolveError::TimeLimit`] at this point.
    pub deadline: &'a Deadline,
    /// Give up with [`SolveError::Interrupted`] once this flag is set.
    pub stop: Option<&'a AtomicBool>,
}

impl NodeLimits<'_> {
    /// No limit.
    #[cfg(test)]
    pub(crate) const NONE: NodeLimits<'static> = NodeLimits {
        deadline: &Deadline::NONE,
        stop: None,
    };

    /// Whether the stop flag is set.
    pub(crate) fn stopped(&self) -> bool {
        self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
    }

    /// `Err` once the flag is set or the deadline has passed.
    pub(crate) fn check(&self) -> Result<(), SolveError> {
        if self.stopped() {
            return Err(SolveError::Interrupted);
        }
        Ok(self.deadline.check()?)
    }
}

/// Why a solver call gave no answer.
#[derive(Debug)]
pub(crate) enum NodeFailure {
    /// The solver failed on this program (a singular basis, a lost incumbent): another program
    /// with the same points may still be solved.
    Numerical(String),
    /// Nothing to retry: the time limit, or a solver this build lacks.
    Fatal(SolveError),
}

impl From<NodeFailure> for SolveError {
    fn from(f: NodeFailure) -> Self {
        match f {
            NodeFailure::Numerical(message) => SolveError::Solver { message },
            NodeFailure::Fatal(e) => e,
        }
    }
}

/// A relative MIP gap so large that the first integer point ends the search.
pub(super) const FIRST_INCUMBENT_GAP: f32 = 1e9;

/// One node's program as a MIP solver sees it: an integer column per free variable (fixed
/// ones are substituted), the rows over them, and an objective to minimise that is only a
/// branching device (`objective.rs`): any point is an answer.
pub(crate) struct Program {
    /// The columns, numbered by position.
    pub(super) columns: Vec<Column>,
    /// The constraints over them.
    pub(super) rows: Vec<NodeRow>,
}

/// An integer column of a [`Program`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Column {
    /// Its lower bound.
    pub(super) lower: i64,
    /// Its upper bound.
    pub(super) upper: i64,
    /// Its objective coefficient.
    pub(super) objective: f64,
}

/// A constraint over a [`Program`]'s columns: `Σ coef · column  sense  rhs`.
pub(crate) struct NodeRow {
    /// `(column, coefficient)` pairs.
    pub(super) terms: Vec<(usize, i64)>,
    /// `≤`, `=` or `≥`.
    pub(super) sense: Sense,
    /// The right-hand side.
    pub(super) rhs: i64,
}

/// How one call of a MIP solver ended, in the solver's terms; the driver (`drive.rs`) turns it
/// into the engine's answer, the same way for every solver.
#[derive(Debug)]
pub(crate) enum Ended {
    /// A point: a value per column, as the solver holds it (any incumbent will do; the driver
    /// rounds it).
    Point(Vec<f64>),
    /// No point: the program is infeasible.
    Infeasible,
    /// The solver saw the stop flag.
    Interrupted,
    /// The solver stopped at its own time limit (the time left before the deadline).
    TimeLimit,
    /// The solver failed on this program, in its own words (a singular basis, an unexpected
    /// status): the engine splits the node and tries again, unless the deadline has passed.
    Failed(String),
    /// The solver refused the program or an option, in its own words: nothing to retry.
    Refused(String),
}
