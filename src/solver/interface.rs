//! What a SAT solver can do, one capability a trait (after rustsat's solver traits): [`Solve`]
//! (clauses in, a call, the model, the conflicts), [`SolveIncremental`] (assumptions and the
//! failed ones), [`Interrupt`] (a stop flag), [`LimitConflicts`] (a shared conflict cap) and
//! [`WriteProof`] (one call that writes a DRAT proof, in a [`ProofFormat`]); [`Incremental`], all
//! of them but proofs. An adapter implements only what its solver can, so that a caller that
//! asks for a capability a solver lacks does not compile. A call's [`Answer`]; a solver's
//! [`SolverError`] (with its [`SolverFailure`]).

use crate::model::choice::choice;
use crate::model::cnf::CnfFormula;
use crate::model::lit::Lit;
use crate::solver::sink::ClauseSink;
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
#[error("{solver}: {kind}")]
pub struct SolverError {
    /// The solver's name.
    pub solver: &'static str,
    /// What went wrong.
    pub kind: SolverFailure,
}

impl SolverError {
    /// `solver` failed with its own words `text` (an error it returned).
    pub(crate) fn failed(solver: &'static str, text: impl std::fmt::Display) -> Self {
        SolverError {
            solver,
            kind: SolverFailure::Failed(text.to_string()),
        }
    }
}

/// What went wrong in a solver: the cases the crate itself tells, and the solver's own words.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SolverFailure {
    /// The solver is not linked into this build.
    #[error("not linked into this build (cargo feature `{feature}`)")]
    NotLinked {
        /// The cargo feature that links it.
        feature: &'static str,
    },
    /// The solver answered SAT but has no model.
    #[error("SAT without a model")]
    NoModel,
    /// The solver stopped without an answer where one was needed.
    #[error("stopped without an answer")]
    Stopped,
    /// The solver (or the system under it) failed, in its own words.
    #[error("{0}")]
    Failed(String),
}

/// The first capability, which every solver has: clauses in (it is a [`ClauseSink`]), a call on
/// the clauses added so far, the model, and the conflicts. Clauses may come between calls, and a
/// call after [`Answer::Stopped`] resumes the search.
pub trait Solve: ClauseSink + Send {
    /// The solver's name, as `--solver` spells it.
    fn name(&self) -> &'static str;

    /// Solves the clauses added so far.
    fn solve(&mut self) -> Result<Answer, SolverError>;

    /// The value of `lit` in the model of the last call that answered [`Answer::Sat`]
    /// (`None` for a variable the model does not mention).
    fn value(&self, lit: Lit) -> Option<bool>;

    /// Conflicts over all calls so far.
    fn conflicts(&self) -> u64;
}

/// Solving under assumptions, and the failed ones: what hints, the generator's oracle and the
/// solver tests ask for.
pub trait SolveIncremental: Solve {
    /// Solves the clauses added so far, with `assumptions` taken as true for this call only.
    fn solve_assuming(&mut self, assumptions: &[Lit]) -> Result<Answer, SolverError>;

    /// After [`Answer::Unsat`] under assumptions: a subset of the assumptions that the clauses
    /// alone refute (a failed-assumption core). Empty when the clauses are unsatisfiable
    /// without any assumption.
    fn failed_assumptions(&self) -> Vec<Lit>;
}

/// A stop flag read while a call runs.
pub trait Interrupt {
    /// A flag that, once set from any thread, stops the running call with [`Answer::Stopped`].
    fn set_interrupt(&mut self, flag: Option<Arc<AtomicBool>>);
}

/// A conflict cap read while a call runs.
pub trait LimitConflicts {
    /// A shared conflict cap: a call stops with [`Answer::Stopped`] once [`Solve::conflicts`]
    /// reaches the value it holds. Another thread may lower it while the solver runs.
    fn set_conflict_limit(&mut self, limit: Option<Arc<AtomicU64>>);
}

/// Learnt clauses handed on: what one solver learns, for another solver of a formula that
/// implies its own (the SAT engine's helpers read what the lead learns).
pub trait ExportLearnt {
    /// From now on, appends every clause of at most `max_len` literals that the solver learns
    /// to `pool`. `false`: this solver cannot (the pool stays as it is).
    fn export_learnt(&mut self, pool: Arc<LearntPool>, max_len: usize) -> bool;
}

/// Clauses one solver learnt, in the order it learnt them, for others to read
/// ([`ExportLearnt`]). It holds at most [`LearntPool::CAPACITY`] clauses; later ones are dropped.
#[derive(Debug, Default)]
pub struct LearntPool {
    clauses: std::sync::Mutex<Vec<Vec<Lit>>>,
}

impl LearntPool {
    /// The most clauses a pool holds (about 40 MB of eight-literal clauses).
    pub const CAPACITY: usize = 1_000_000;

    /// Appends a learnt clause (dropped once the pool is full).
    pub fn push(&self, clause: Vec<Lit>) {
        let mut clauses = self.clauses.lock().unwrap_or_else(|e| e.into_inner());
        if clauses.len() < Self::CAPACITY {
            clauses.push(clause);
        }
    }

    /// The clauses from index `read` on; `read` moves past them.
    pub fn since(&self, read: &mut usize) -> Vec<Vec<Lit>> {
        let clauses = self.clauses.lock().unwrap_or_else(|e| e.into_inner());
        let fresh = clauses.get(*read..).unwrap_or_default().to_vec();
        *read = clauses.len();
        fresh
    }
}

/// Every capability but proofs: what [`crate::solver::SolverKind::new_solver`] builds, for any
/// linked kind. Callers that need less take the narrower trait (a `&mut dyn Solve`, a bound
/// `S: Solve + LimitConflicts`).
pub trait Incremental: SolveIncremental + Interrupt + LimitConflicts + ExportLearnt {}

impl<S: SolveIncremental + Interrupt + LimitConflicts + ExportLearnt + ?Sized> Incremental for S {}

pub use crate::model::setup::{Mode, Tuning};

choice! {
    serde;
    /// How a DRAT proof is written.
    #[derive(Default)]
    #[non_exhaustive]
    pub enum ProofFormat {
        /// Text DRAT: one clause a line, `d` before a deletion (what drat-trim and rate read).
        #[default]
        Text,
        /// Binary DRAT: `a`/`d`, then variable-length literals, each clause ending with a 0 byte.
        Binary,
    }
}

/// A solver that writes a DRAT proof when it answers [`Answer::Unsat`]: the capability that
/// certified answers need (`crate::usecase::proof`). It takes clauses, then answers one call,
/// without assumptions: [`WriteProof::prove`] consumes it, so that no clause, call or assumption
/// can follow (what a DRAT proof of one refutation needs, checked by the compiler). It is no
/// [`Solve`]: a solver that searches again, or under assumptions, writes no proof.
pub trait WriteProof: ClauseSink + Send {
    /// The solver's name, as `--solver` spells it.
    fn name(&self) -> &'static str;

    /// Solves the clauses added, once, and ends the proof.
    fn prove(self: Box<Self>) -> Result<Proved, SolverError>;
}

/// What a [`WriteProof`] call answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proved {
    /// The answer.
    pub answer: Answer,
    /// Conflicts of the call.
    pub conflicts: u64,
    /// After [`Answer::Unsat`], the DRAT proof that refutes the clauses added; empty after any
    /// other answer.
    pub proof: Vec<u8>,
}

/// Adds every clause of `formula` to `sink`.
pub fn load<S: ClauseSink + ?Sized>(sink: &mut S, formula: &CnfFormula) {
    for clause in formula.iter() {
        sink.add_clause(clause);
    }
}
