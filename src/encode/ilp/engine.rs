//! The ILP engine: builds the program over the placements that pre-solving leaves
//! ([`crate::reason::deduce`] with probing, the reasoning engine the SAT engine pre-solves with:
//! struck placements get no variable, proved ships and cells are fixed by their bounds), hands
//! each node of its search to the MIP solver asked for (through its adapter, `drive.rs`), decodes
//! each point into a [`Grid`], and adds a no-good cut so that the next call finds a different
//! solution (for `--unique` and `--count`).
//!
//! Two safeguards make every call end in an answer or the time limit, never a solver error:
//! - the solver gets the time left before the engine's [`Deadline`] as its own time limit
//!   (microlp and HiGHS both stop themselves), so a solve past its limit does not keep a core
//!   busy;
//! - when the solver fails on a program, the branch-and-bound above it (`branch.rs`) splits the
//!   node and hands each half to the solver again, checking the deadline between nodes.
//!
//! A stop flag (`IlpEngine::with_stop`) is read with the deadline between nodes, by microlp
//! between its slices, and by HiGHS at its interrupt checks.

use super::branch::search;
use super::cuts::IlpCuts;
use super::drive::{SolverCall, solve_model};
use super::node::NodeLimits;
use super::objective::IlpObjective;
use super::presolve::{PresolveOptions, Presolved, presolve};
use super::{IlpModel, IlpSolver, LinearConstraint, LinearModel, VarRole};
use crate::model::deadline::{Budget, Deadline, TimeLimit};
use crate::model::outcome::{Engine, SolveError, SolvedBy, Stats};
use crate::model::placement::Placements;
use crate::model::puzzle::{Grid, Puzzle};
use crate::model::setup::Backend;
use crate::reason::deduce::{Effort, Knowledge, deduce};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// How the ILP engine builds its program and calls the solver: the ILP fields of
/// `SolveOptions` (`--ilp-model`, `--ilp-solver`, `--ilp-cuts`, `--ilp-objective`,
/// `--no-presolve`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IlpOptions {
    /// The integer program.
    pub model: IlpModel,
    /// The MIP solver.
    pub solver: IlpSolver,
    /// Valid inequalities added to the program (none by default).
    pub cuts: IlpCuts,
    /// The objective of each solver call.
    pub objective: IlpObjective,
    /// Pre-solve: the reasoning engine ([`crate::reason::deduce`], the rules the SAT engine
    /// pre-solves with) strikes placements and fixes the ships and cells it proves, and a root
    /// presolve ([`super::presolve`]) propagates bounds through the rows and probes before every
    /// solver call. On by default; off hands the whole program to the solver.
    pub presolve: bool,
}

impl Default for IlpOptions {
    fn default() -> Self {
        IlpOptions {
            model: IlpModel::default(),
            solver: IlpSolver::default(),
            cuts: IlpCuts::NONE,
            objective: IlpObjective::default(),
            presolve: true,
        }
    }
}

/// A puzzle's integer program loaded for one solver, ready to enumerate solutions.
pub struct IlpEngine {
    model: LinearModel,
    solver: IlpSolver,
    objective: IlpObjective,
    cuts: Vec<LinearConstraint>,
    presolve: Option<PresolveOptions>,
    deadline: Deadline,
    stop: Option<Arc<AtomicBool>>,
    exhausted: bool,
    /// Building the program ran out of time: every call fails with the time limit.
    timed_out: bool,
    fallbacks: usize,
    encode_time: Duration,
    solve_time: Duration,
    calls: usize,
}

impl IlpEngine {
    /// Builds `model` for `puzzle`, to be solved by `solver`, with the other options at their
    /// defaults and no budget.
    pub fn new(puzzle: &Puzzle, model: IlpModel, solver: IlpSolver) -> Self {
        let options = IlpOptions {
            model,
            solver,
            ..IlpOptions::default()
        };
        IlpEngine::build(puzzle, &options, &Budget::default())
    }

    /// Builds the program `options` ask for, within `budget` (its deadline and stop flag also
    /// bound every later call): the legal placements, with `options.presolve` the facts of
    /// [`crate::reason::deduce`] (struck placements left out, proved ships and cells fixed by
    /// their bounds; a contradiction leaves nothing to find), then the model and its cuts.
    pub(crate) fn build(puzzle: &Puzzle, options: &IlpOptions, budget: &Budget) -> Self {
        let start = Instant::now();
        let (model, unsolvable, timed_out) = match prepare(puzzle, options, budget) {
            Ok((model, unsolvable)) => (model, unsolvable, false),
            Err(TimeLimit) => (
                LinearModel::new(options.model, puzzle.rows(), puzzle.cols()),
                false,
                true,
            ),
        };
        let mut engine = IlpEngine::from_model(model, options.solver)
            .with_presolve(options.presolve.then(PresolveOptions::default))
            .with_deadline(budget.deadline.clone())
            .with_stop(budget.stop().cloned());
        engine.objective = options.objective;
        engine.exhausted = unsolvable;
        engine.timed_out = timed_out;
        engine.encode_time = start.elapsed();
        engine
    }

    /// An engine over an already built model.
    pub(crate) fn from_model(model: LinearModel, solver: IlpSolver) -> Self {
        IlpEngine {
            model,
            solver,
            objective: IlpObjective::default(),
            cuts: Vec::new(),
            presolve: Some(PresolveOptions::default()),
            deadline: Deadline::NONE,
            stop: None,
            exhausted: false,
            timed_out: false,
            fallbacks: 0,
            encode_time: Duration::ZERO,
            solve_time: Duration::ZERO,
            calls: 0,
        }
    }

    /// Sets the root presolve done before every solver call (`None` hands the whole program
    /// to the solver). On by default.
    pub(crate) fn with_presolve(mut self, presolve: Option<PresolveOptions>) -> Self {
        self.presolve = presolve;
        self
    }

    /// Gives up at `deadline`: each call then fails with [`SolveError::TimeLimit`], and the
    /// solver is told the time left so that it stops by itself.
    pub(crate) fn with_deadline(mut self, deadline: Deadline) -> Self {
        self.deadline = deadline;
        self
    }

    /// Stops once `stop` is set (from any thread): each call then fails with
    /// [`SolveError::Interrupted`]. The flag is read between the nodes of `branch.rs` and, with
    /// microlp, between slices of its branch-and-bound ([`super::sliced`]), with HiGHS at every
    /// check of its interrupt callback (nodes and simplex iterations); CBC reads only its time
    /// limit, so with it the flag takes effect when the solver call returns.
    pub(crate) fn with_stop(mut self, stop: Option<Arc<AtomicBool>>) -> Self {
        self.stop = stop;
        self
    }

    /// A point of the program (with the cuts) within `bounds`, or `None` when there is none
    /// (the branch-and-bound of `branch.rs` with this engine's solver).
    fn search(&mut self, bounds: Vec<(i64, i64)>) -> Result<Option<Vec<i64>>, SolveError> {
        let (model, cuts, solver, deadline) =
            (&self.model, &self.cuts, self.solver, &self.deadline);
        let stop = self.stop.as_deref();
        let limits = NodeLimits { deadline, stop };
        let call = SolverCall {
            solver,
            objective: self.objective,
            limits,
        };
        search(model, cuts, bounds, limits, &mut self.fallbacks, |node| {
            solve_model(model, cuts, Some(node), call)
        })
    }
}

impl Engine for IlpEngine {
    fn next_solution(&mut self) -> Result<Option<Grid>, SolveError> {
        if self.timed_out {
            return Err(SolveError::TimeLimit);
        }
        if self.exhausted {
            return Ok(None);
        }
        let limits = NodeLimits {
            deadline: &self.deadline,
            stop: self.stop.as_deref(),
        };
        limits.check()?;
        let start = Instant::now();
        let values = match self.presolve {
            Some(options) => match presolve(&self.model, &self.cuts, options) {
                Presolved::Infeasible => Ok(None),
                Presolved::Bounds(bounds) => self.search(bounds),
            },
            None => {
                let bounds = self.model.vars.iter().map(|v| (v.lower, v.upper)).collect();
                self.search(bounds)
            }
        };
        self.solve_time += start.elapsed();
        self.calls += 1;
        let Some(values) = values? else {
            self.exhausted = true;
            return Ok(None);
        };
        let cut = self.model.no_good(&values, self.cuts.len());
        if cut.terms.is_empty() {
            // Nothing to flip: this was the only assignment (an empty fleet).
            self.exhausted = true;
        }
        self.cuts.push(cut);
        self.model
            .decode(&values)
            .map(Some)
            .ok_or(SolveError::Decode)
    }

    fn stats(&self) -> Stats {
        Stats {
            backend: Backend::Ilp,
            model: SolvedBy::Ilp {
                model: self.model.model,
                solver: self.solver,
            },
            variables: self.model.vars.len(),
            constraints: self.model.constraints.len(),
            conflicts: None,
            encode_time: self.encode_time,
            solve_time: self.solve_time,
            solver_calls: self.calls,
        }
    }
}

/// The program `options` ask for: the legal placements, pre-solved by
/// [`crate::reason::deduce`] when `options.presolve` is set, the model over them with its cuts,
/// and the proved ships and cells fixed by their bounds; `true` when pre-solving proved that
/// there is no solution. Fails once the budget's deadline passes.
fn prepare(
    puzzle: &Puzzle,
    options: &IlpOptions,
    budget: &Budget,
) -> Result<(LinearModel, bool), TimeLimit> {
    let mut placements = Placements::within(puzzle, &budget.deadline)?;
    // A contradiction (`Err`) proves that there is no solution.
    let knowledge = if options.presolve {
        deduce(puzzle, &mut placements, Effort::Probing, budget)?.ok()
    } else {
        None
    };
    let unsolvable = options.presolve && knowledge.is_none();
    let mut model = options.model.build_over(puzzle, &placements);
    options.cuts.add_to(&mut model, puzzle);
    if let Some(k) = &knowledge {
        fix(&mut model, k, puzzle);
    }
    Ok((model, unsolvable))
}

/// Narrows the bounds of `model` (built over the placements `knowledge` is aligned with) to
/// what pre-solving proved: a forced placement is 1, and a decided cell is ship or water.
fn fix(model: &mut LinearModel, knowledge: &Knowledge, puzzle: &Puzzle) {
    let shape = puzzle.shape();
    let mut placement = 0;
    for var in &mut model.vars {
        let value = match var.role {
            VarRole::Placement(_) => {
                let forced = knowledge.forced.get(placement).copied();
                placement += 1;
                forced.filter(|&f| f).map(|_| 1)
            }
            VarRole::Cell(pos) => knowledge.cells[shape.index(pos)].map(i64::from),
        };
        if let Some(v) = value {
            var.lower = var.lower.max(v);
            var.upper = var.upper.min(v);
        }
    }
}
