//! What one node of the ILP engine's branch-and-bound is solved with and may end in: its rows
//! (`NodeRow`), its limits (`NodeLimits`: a deadline and a stop flag), and why a solver call
//! gave no answer (`NodeFailure`); shared by the engine and microlp's sliced driver.

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

    /// `Err` once the flag is set or the deadline has passed.
    pub(crate) fn check(&self) -> Result<(), SolveError> {
        if self.stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
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

/// A constraint over solver columns.
pub(super) struct NodeRow {
    pub(super) terms: Vec<(usize, i64)>,
    pub(super) sense: Sense,
    pub(super) rhs: i64,
}
