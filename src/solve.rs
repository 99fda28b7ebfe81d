//! Choosing a backend and running it: every engine enumerates grids, every grid passes the
//! independent verifier, and the result is an [`Outcome`] (`Unsat`, `Unique`, `Multiple`,
//! `Found`) with [`Stats`]. "No solution" and "not unique" are outcomes, not errors.

pub use crate::backend::{Engine, SolveError, Stats};
use crate::deadline::Deadline;
use crate::ilp::presolve::PresolveOptions;
use crate::ilp::{IlpEngine, IlpModel, IlpSolver};
use crate::puzzle::{Grid, Puzzle};
use crate::sat::card::CardKind;
use crate::sat::engine::{SatConfig, SatEngine};
use crate::sat::model::Model;
use crate::sat::redundant::Redundant;
use crate::solver::SolverKind;
use crate::verify::verify;
use serde::Serialize;
use std::time::Duration;

mod limit;

/// The solving backends.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Backend {
    /// CNF solved by the embedded varisat solver.
    #[default]
    Sat,
    /// An integer program solved through good_lp (see `--ilp-model`, `--ilp-solver`).
    Ilp,
}

/// How to solve.
#[derive(Clone, Debug)]
pub struct SolveOptions {
    /// Which backend.
    pub backend: Backend,
    /// Cardinality encoding for the SAT backend.
    pub card: CardKind,
    /// CNF model for the SAT backend.
    pub model: Model,
    /// Stop after this many solutions: 1 finds one, 2 proves uniqueness, N counts up to N.
    pub limit: usize,
    /// SAT backend: let a second configuration race the chosen one on calls that need many
    /// conflicts (see [`crate::sat::engine`]); the answer stays deterministic.
    pub race: bool,
    /// SAT backend: a flag that, once set (from any thread, for example by a timer), stops the
    /// solver at its next conflict; the call then fails with [`SolveError::Interrupted`].
    pub stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    /// Give up after this long, counted from the call of [`solve`]: it then fails with
    /// [`SolveError::TimeLimit`], or returns the grids found so far with [`Report::stopped`]
    /// set. Placement enumeration, pre-solving and encoding check the time as they go; the SAT
    /// solver is stopped at its next conflict (a timer sets `stop`); the MIP solver is given the
    /// time left as its own limit and the ILP engine checks the deadline between solver calls.
    pub time_limit: Option<Duration>,
    /// Give up at this point in time, as with `time_limit` (the earlier of the two counts):
    /// a caller that spent part of its time already (reading, parsing) passes what is left.
    pub deadline: Deadline,
    /// Integer program for the ILP backend.
    pub ilp_model: IlpModel,
    /// MIP solver for the ILP backend.
    pub ilp_solver: IlpSolver,
    /// SAT solver for the SAT backend.
    pub solver: SolverKind,
    /// Apply the sound pre-solving rules of [`crate::reason::deduce`] before encoding (on by default;
    /// off gives the plain encoding, for encoding research).
    pub presolve: bool,
    /// SAT backend: after pre-solving, the native search ([`crate::reason::search`]) looks for
    /// the solutions within this many branch nodes before a solver is built; the solver carries
    /// on from what it found. 0 turns it off; the default is
    /// [`crate::sat::engine::NATIVE_NODES`]. Needs `presolve`.
    pub native: u64,
    /// SAT backend: redundant constraints added to the encoding (none by default; see
    /// `encodings/redundant.md`).
    pub redundant: Redundant,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            backend: Backend::Sat,
            card: CardKind::default(),
            model: Model::default(),
            limit: 1,
            race: true,
            stop: None,
            time_limit: None,
            deadline: Deadline::NONE,
            ilp_model: IlpModel::default(),
            ilp_solver: IlpSolver::default(),
            solver: SolverKind::default(),
            presolve: true,
            native: crate::sat::engine::NATIVE_NODES,
            redundant: Redundant::NONE,
        }
    }
}

impl SolveOptions {
    /// Options that find one solution and prove it unique.
    pub fn unique() -> Self {
        SolveOptions {
            limit: 2,
            ..SolveOptions::default()
        }
    }
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
    /// The time limit (or the stop flag) ended the search after some grids were found:
    /// `outcome` holds them and is not complete (a count is a lower bound, uniqueness is not
    /// proved).
    pub stopped: bool,
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

/// The SAT engine's configuration in `options`.
fn sat_config(options: &SolveOptions) -> SatConfig {
    SatConfig {
        model: options.model,
        card: options.card,
        solver: options.solver,
        race: options.race,
        presolve: options.presolve,
        native: if options.presolve { options.native } else { 0 },
        limit: options.limit,
        redundant: options.redundant,
        stop: options.stop.clone(),
        deadline: options.deadline,
    }
}

/// Builds the engine for `options.backend`.
pub fn engine(puzzle: &Puzzle, options: &SolveOptions) -> Box<dyn Engine> {
    match options.backend {
        Backend::Sat => Box::new(SatEngine::new(puzzle, &sat_config(options))),
        Backend::Ilp => Box::new(
            IlpEngine::new(puzzle, options.ilp_model, options.ilp_solver)
                .with_presolve(options.presolve.then(PresolveOptions::default))
                .with_deadline(options.deadline),
        ),
    }
}

/// Solves `puzzle`, looking for up to `options.limit` solutions, and verifies every grid;
/// within `options.time_limit` when one is set.
pub fn solve(puzzle: &Puzzle, options: &SolveOptions) -> Result<Report, SolveError> {
    let deadline = options.deadline.min(Deadline::within(options.time_limit));
    if deadline.is_set() {
        return limit::solve_within(puzzle, options, deadline);
    }
    let mut engine = engine(puzzle, options);
    run(puzzle, engine.as_mut(), options.limit)
}

/// Enumerates up to `limit` solutions with `engine`, verifying each.
pub fn run(puzzle: &Puzzle, engine: &mut dyn Engine, limit: usize) -> Result<Report, SolveError> {
    run_each(puzzle, engine, limit, |_| {})
}

/// [`run`], handing each verified grid to `each` as it is found. When the engine is stopped
/// (time limit or stop flag) after some grids, they are reported with [`Report::stopped`].
pub(crate) fn run_each(
    puzzle: &Puzzle,
    engine: &mut dyn Engine,
    limit: usize,
    mut each: impl FnMut(&Grid),
) -> Result<Report, SolveError> {
    let limit = limit.max(1);
    let mut grids = Vec::new();
    let mut complete = false;
    let mut stopped = false;
    while grids.len() < limit {
        match engine.next_solution() {
            Ok(Some(grid)) => {
                verify(puzzle, &grid)?;
                each(&grid);
                grids.push(grid);
            }
            Ok(None) => {
                complete = true;
                break;
            }
            Err(SolveError::TimeLimit | SolveError::Interrupted) if !grids.is_empty() => {
                stopped = true;
                break;
            }
            Err(e) => return Err(e),
        }
    }
    Ok(Report {
        outcome: outcome_of(grids, complete),
        stats: engine.stats(),
        stopped,
    })
}
