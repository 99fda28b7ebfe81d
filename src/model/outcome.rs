//! What a solve returns and what produces it: the [`Outcome`] (`Unsat`, `Unique`, `Multiple`,
//! `Found`) and its [`Report`], the [`Engine`] trait every backend implements (a backend loaded
//! with one puzzle, returning one new solution per call), the [`Stats`] it keeps and the
//! [`SolveError`] it may fail with. [`crate::usecase::solve`] chooses an engine and verifies
//! its grids.
//!
//! Time-outs take one channel each way, never both: a solve that the time limit (or the stop
//! flag) ends before any grid fails with the error of its [`Stop`] (`SolveError::TimeLimit`,
//! `SolveError::Interrupted`); one that it ends after some grids returns them in a [`Report`]
//! whose [`Report::stop`] says why the search is not complete. A partial answer is never an
//! error and an empty one never a report, so no caller has to look in two places.

use crate::model::puzzle::Grid;
use crate::model::setup::{
    Backend, CardKind, IlpModel, IlpSolver, Mode, Model, SolverKind, Tuning,
};
use crate::model::verify::Violation;
use serde::Serialize;
use std::time::Duration;

/// Sizes and times of one solve.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Stats {
    /// The backend (its text `sat` or `ilp`).
    pub backend: Backend,
    /// What answered: the configuration (model and cardinality encoding, or program and MIP
    /// solver) and how; its text is `cell/seq`, `ship/microlp` and the like.
    pub model: SolvedBy,
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

/// A SAT configuration: the CNF model and the cardinality encoding (`cell/seq`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SatSetup {
    /// The CNF model (`cell`, `placement`).
    pub model: Model,
    /// The cardinality encoding (`seq`, `totalizer`, ...).
    pub card: CardKind,
}

impl std::fmt::Display for SatSetup {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.model, self.card)
    }
}

/// A member of the SAT engine's portfolio of hard questions: a configuration, the solver and its
/// tuning, and whether it encodes what pre-solving left open or the whole puzzle (`cell/seq on
/// cadical, stable, seed 3, whole encoding`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SatMember {
    /// The CNF model and cardinality encoding.
    pub setup: SatSetup,
    /// The SAT solver.
    pub solver: SolverKind,
    /// Its search mode and seed.
    pub tuning: Tuning,
    /// Whether it encodes only what pre-solving left open; otherwise the whole puzzle.
    pub presolved: bool,
}

impl std::fmt::Display for SatMember {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} on {}", self.setup, self.solver)?;
        match self.tuning.mode {
            Mode::Default => {}
            Mode::Stable => f.write_str(", stable")?,
            Mode::Focused => f.write_str(", focused")?,
        }
        if self.tuning.seed != 0 {
            write!(f, ", seed {}", self.tuning.seed)?;
        }
        if !self.presolved {
            f.write_str(", whole encoding")?;
        }
        Ok(())
    }
}

/// What answered a solve ([`Stats::model`]). Its text is what `--stats` and the JSON results
/// print.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum SolvedBy {
    /// Not known: the solve stopped before its engine reported (the empty text).
    #[default]
    Unknown,
    /// The SAT configuration chosen (`cell/seq`).
    Sat(SatSetup),
    /// Pre-solving decided the puzzle before any formula (`cell/seq, decided by pre-solving`).
    Presolving(SatSetup),
    /// The native search found every answer (`native search, 12 nodes`).
    NativeSearch {
        /// Its branch nodes.
        nodes: u64,
    },
    /// A member of the hard-question portfolio answered for the configuration chosen
    /// (`placement/totalizer on cadical, stable: portfolio member for cell/seq`).
    Member {
        /// The member.
        member: SatMember,
        /// The configuration chosen.
        chosen: SatSetup,
    },
    /// An integer program and its MIP solver (`ship/microlp`).
    Ilp {
        /// The program (`ship`, `cell`).
        model: IlpModel,
        /// The MIP solver (`microlp`, ...).
        solver: IlpSolver,
    },
}

impl std::fmt::Display for SolvedBy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SolvedBy::Unknown => Ok(()),
            SolvedBy::Sat(setup) => write!(f, "{setup}"),
            SolvedBy::Presolving(setup) => write!(f, "{setup}, decided by pre-solving"),
            SolvedBy::NativeSearch { nodes } => write!(f, "native search, {nodes} nodes"),
            SolvedBy::Member { member, chosen } => {
                write!(f, "{member}: portfolio member for {chosen}")
            }
            SolvedBy::Ilp { model, solver } => write!(f, "{model}/{solver}"),
        }
    }
}

impl Serialize for SolvedBy {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// Errors while solving. These are failures of the tool, not properties of the puzzle.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SolveError {
    /// The solver itself failed, in its own words (an ILP solver's, a thread's).
    #[error("solver failure: {message}")]
    Solver {
        /// What the solver said.
        message: String,
    },
    /// A solver failed; its own error (a SAT solver's, a proof's) is the source.
    #[error("solver failure: {0}")]
    Failed(#[source] Box<dyn std::error::Error + Send + Sync>),
    /// The SAT backend's stop flag ([`crate::usecase::solve::SolveOptions::budget`]) was set before an answer.
    #[error("stopped before an answer")]
    Interrupted,
    /// The deadline of [`crate::usecase::solve::SolveOptions::budget`] passed before an answer.
    #[error("time limit reached")]
    TimeLimit,
    /// A model could not be decoded into a grid.
    #[error("internal error: the solver's model does not decode into straight ships")]
    Decode,
    /// The verifier rejected a grid a backend produced: a bug in that backend.
    #[error("internal error: the verifier rejected a solver's grid: {0}")]
    Rejected(#[from] Violation),
}

impl SolveError {
    /// A solver's own failure `error`, kept as the source.
    pub(crate) fn failed(error: impl std::error::Error + Send + Sync + 'static) -> Self {
        SolveError::Failed(Box::new(error))
    }

    /// Why the solve stopped, when this error is a stop (the time limit or the stop flag)
    /// rather than a failure.
    pub(crate) fn stop(&self) -> Option<Stop> {
        match self {
            SolveError::TimeLimit => Some(Stop::TimeLimit),
            SolveError::Interrupted => Some(Stop::Interrupted),
            _ => None,
        }
    }
}

/// Why a solve stopped before its search was done: in [`Report::stop`] when it had found some
/// grids, as the error ([`SolveError::from`]) when it had found none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The deadline passed.
    TimeLimit,
    /// The caller's stop flag was set (Ctrl-C in Python, a client that went away).
    Interrupted,
}

impl From<Stop> for SolveError {
    fn from(stop: Stop) -> Self {
        match stop {
            Stop::TimeLimit => SolveError::TimeLimit,
            Stop::Interrupted => SolveError::Interrupted,
        }
    }
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

/// What solving found.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Outcome {
    /// No grid satisfies the puzzle.
    Unsat,
    /// Exactly one grid satisfies the puzzle (proved).
    Unique(Grid),
    /// Two or more grids; `complete` tells whether these are all of them.
    Multiple {
        /// The grids found, in the order found.
        grids: Vec<Grid>,
        /// True when the search was exhausted below the limit.
        complete: bool,
    },
    /// One grid, with uniqueness not examined (limit 1).
    Found(Grid),
}

impl Outcome {
    /// The first grid found, if any.
    pub fn grid(&self) -> Option<&Grid> {
        match self {
            Outcome::Unsat => None,
            Outcome::Unique(g) | Outcome::Found(g) => Some(g),
            Outcome::Multiple { grids, .. } => grids.first(),
        }
    }

    /// All grids found.
    pub fn grids(&self) -> Vec<&Grid> {
        match self {
            Outcome::Unsat => Vec::new(),
            Outcome::Unique(g) | Outcome::Found(g) => vec![g],
            Outcome::Multiple { grids, .. } => grids.iter().collect(),
        }
    }

    /// Number of solutions found.
    pub fn count(&self) -> usize {
        self.grids().len()
    }

    /// Whether the count is exact (the search space was exhausted).
    pub fn is_complete(&self) -> bool {
        match self {
            Outcome::Unsat | Outcome::Unique(_) => true,
            Outcome::Found(_) => false,
            Outcome::Multiple { complete, .. } => *complete,
        }
    }
}

/// A solver report: the outcome and what it cost.
#[derive(Clone, Debug)]
pub struct Report {
    /// What was found.
    pub outcome: Outcome,
    /// Sizes and times.
    pub stats: Stats,
    /// Why the search ended early, after some grids were found (`None`: it ran to its goal or
    /// was exhausted): `outcome` holds them and is not complete (a count is a lower bound,
    /// uniqueness is not proved). A solve stopped before any grid is an error instead.
    pub stop: Option<Stop>,
}

/// The outcome of `grids` found, `complete` when the search was exhausted.
pub(crate) fn outcome_of(mut grids: Vec<Grid>, complete: bool) -> Outcome {
    match (grids.len(), complete) {
        (0, _) => Outcome::Unsat,
        (1, true) => Outcome::Unique(grids.remove(0)),
        (1, false) => Outcome::Found(grids.remove(0)),
        _ => Outcome::Multiple { grids, complete },
    }
}
