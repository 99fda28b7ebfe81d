//! The ILP engine: builds the program over the placements that pre-solving leaves
//! ([`crate::reason::deduce`] with probing, the reasoning engine the SAT engine pre-solves with:
//! struck placements get no variable, proved ships and cells are fixed by their bounds), hands
//! it to microlp (driven directly, in node slices: `sliced.rs`), to HiGHS (driven
//! directly, with its interrupt callback: `highs.rs`, feature `highs`) or to CBC through good_lp
//! (feature `coin_cbc`), decodes each optimum into a [`Grid`], and
//! adds a no-good cut so that the next call finds a different solution (for `--unique` and
//! `--count`).
//!
//! Two safeguards make every call end in an answer or the time limit, never a solver error:
//! - the solver gets the time left before the engine's [`Deadline`] as its own time limit
//!   (microlp and HiGHS both stop themselves), so a solve past its limit does not keep a core
//!   busy;
//! - when the solver fails on a program (microlp stops with "Singular matrix" on some boards of
//!   the MiniZinc solbat set, microlp issue #48), `search` branches on a free variable, fixes
//!   it both ways, propagates bounds (`tighten`) and hands each smaller program to the solver
//!   again: a small depth-first branch-and-bound above the solver, which checks the deadline
//!   between nodes. Both branches together cover every point, so "no solution" stays a proof.
//!
//! A stop flag (`IlpEngine::with_stop`) is read with the deadline between nodes, by microlp
//! between its slices, and by HiGHS at its interrupt checks.

use super::cuts::IlpCuts;
#[cfg(feature = "coin_cbc")]
use super::node::FIRST_INCUMBENT_GAP;
use super::node::{NodeFailure, NodeLimits, NodeRow};
use super::objective::{IlpObjective, branching_length, columns};
use super::presolve::{PresolveOptions, Presolved, presolve, tighten};
use super::{IlpModel, IlpSolver, LinearConstraint, LinearModel, Sense, VarRole};
use crate::model::deadline::{Budget, Deadline, TimeLimit};
use crate::model::outcome::{Engine, SolveError, SolvedBy, Stats};
use crate::model::placement::Placements;
use crate::model::puzzle::{Grid, Puzzle};
use crate::reason::deduce::{Effort, Knowledge, deduce};
#[cfg(feature = "coin_cbc")]
use good_lp::{
    Expression, ProblemVariables, ResolutionError, Solution, SolverModel, Variable, WithMipGap,
    WithTimeLimit, variable,
};
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
    /// [`SolveError::Interrupted`]. The flag is read between the nodes of [`search`] and, with
    /// microlp, between slices of its branch-and-bound ([`super::sliced`]), with HiGHS at every
    /// check of its interrupt callback (nodes and simplex iterations); CBC reads only its time
    /// limit, so with it the flag takes effect when the solver call returns.
    pub(crate) fn with_stop(mut self, stop: Option<Arc<AtomicBool>>) -> Self {
        self.stop = stop;
        self
    }

    /// A point of the program (with the cuts) within `bounds`, or `None` when there is none
    /// ([`search`] with this engine's solver).
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
            solve_model(model, cuts, Some(node), call).map_err(|f| match f {
                NodeFailure::Numerical(message) => {
                    NodeFailure::Numerical(format!("{solver}: {message}"))
                }
                fatal => fatal,
            })
        })
    }
}

/// A point of `model` plus `cuts` within `bounds`, or `None` when there is none. `solve` answers
/// each node; a node it fails on ([`NodeFailure::Numerical`], or a point that breaks a row) is split
/// on a free variable (see the module documentation), fixed to 1 first, and each half is
/// propagated before it is tried. `splits` counts the nodes split. The limits (deadline and
/// stop flag) are checked before each node.
pub(crate) fn search(
    model: &LinearModel,
    cuts: &[LinearConstraint],
    bounds: Vec<(i64, i64)>,
    limits: NodeLimits<'_>,
    splits: &mut usize,
    mut solve: impl FnMut(&[(i64, i64)]) -> Result<Option<Vec<i64>>, NodeFailure>,
) -> Result<Option<Vec<i64>>, SolveError> {
    let propagation = PresolveOptions {
        probing: false,
        max_passes: 0,
    };
    let mut open = vec![bounds];
    while let Some(bounds) = open.pop() {
        limits.check()?;
        let failure = match solve(&bounds) {
            Ok(Some(values)) => match model
                .constraints
                .iter()
                .chain(cuts)
                .find(|c| !c.holds(&values))
            {
                None => return Ok(Some(values)),
                // Rounding a point the solver thought integral: split as for a failure.
                Some(c) => format!(
                    "the solver returned a point that breaks constraint {}",
                    c.name
                ),
            },
            Ok(None) => continue,
            Err(NodeFailure::Numerical(message)) => message,
            Err(NodeFailure::Fatal(e)) => return Err(e),
        };
        let Some(var) = branching_variable(model, &bounds) else {
            // Nothing left to split: the solver failed on a program it should not see.
            return Err(SolveError::Solver { message: failure });
        };
        *splits += 1;
        for value in [0, 1] {
            let mut half = bounds.clone();
            half[var] = (value, value);
            if let Presolved::Bounds(half) = tighten(model, cuts, half, propagation) {
                open.push(half);
            }
        }
    }
    Ok(None)
}

/// The free variable to split a node on: the longest ship's first free placement (the cell
/// model's first free variable), as [`branching_length`] ranks them for the solver.
fn branching_variable(model: &LinearModel, bounds: &[(i64, i64)]) -> Option<usize> {
    (0..bounds.len())
        .filter(|&i| bounds[i].0 < bounds[i].1)
        .max_by(|&a, &b| {
            let (la, lb) = (
                branching_length(model.vars[a].role),
                branching_length(model.vars[b].role),
            );
            la.total_cmp(&lb).then(b.cmp(&a))
        })
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
            backend: "ilp",
            model: SolvedBy::Ilp {
                model: self.model.model.into(),
                solver: self.solver.into(),
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

/// What one solver call is made with: the solver, the objective, the limits.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SolverCall<'a> {
    /// The MIP solver.
    pub solver: IlpSolver,
    /// Its objective ([`super::objective`]).
    pub objective: IlpObjective,
    /// The deadline and stop flag.
    pub limits: NodeLimits<'a>,
}

#[cfg(test)]
impl SolverCall<'static> {
    /// `solver` with the default objective and no limit.
    pub(crate) fn plain(solver: IlpSolver) -> Self {
        SolverCall {
            solver,
            objective: IlpObjective::default(),
            limits: NodeLimits::NONE,
        }
    }
}

/// Solves `model` plus `cuts` with `call.solver`, within `bounds` (one `(lower, upper)` pair per
/// variable; the model's own bounds when `None`) and within `limits`: integer values per
/// variable, or `None` when the program is infeasible. Fixed variables are substituted before the solver
/// sees the program. One solver call: a numerical failure is returned, not retried (the
/// engine's search retries).
pub(crate) fn solve_model(
    model: &LinearModel,
    cuts: &[LinearConstraint],
    bounds: Option<&[(i64, i64)]>,
    call: SolverCall<'_>,
) -> Result<Option<Vec<i64>>, NodeFailure> {
    let SolverCall {
        solver,
        objective,
        limits,
    } = call;
    let deadline = limits.deadline;
    let bounds: Vec<(i64, i64)> = match bounds {
        Some(b) => b.to_vec(),
        None => model.vars.iter().map(|v| (v.lower, v.upper)).collect(),
    };
    if bounds.iter().any(|(l, u)| l > u) {
        return Ok(None);
    }
    // Free variables get solver columns; fixed ones become constants.
    let mut column = vec![None; bounds.len()];
    let mut free = Vec::new();
    for (i, &(l, u)) in bounds.iter().enumerate() {
        if l < u {
            column[i] = Some(free.len());
            free.push((l, u, branching_length(model.vars[i].role)));
        }
    }
    let mut values: Vec<i64> = bounds.iter().map(|&(l, _)| l).collect();
    let mut rows = Vec::with_capacity(model.constraints.len() + cuts.len());
    for c in model.constraints.iter().chain(cuts) {
        let mut terms = Vec::new();
        let mut constant = 0;
        for t in &c.terms {
            match column[t.var] {
                Some(col) => terms.push((col, t.coef)),
                None => constant += t.coef * values[t.var],
            }
        }
        let rhs = c.rhs - constant;
        if terms.is_empty() {
            // Decided here (good_lp backends differ on empty rows).
            let holds = match c.sense {
                Sense::Le => 0 <= rhs,
                Sense::Eq => 0 == rhs,
                Sense::Ge => 0 >= rhs,
            };
            if !holds {
                return Ok(None);
            }
        } else {
            rows.push(NodeRow {
                terms,
                sense: c.sense,
                rhs,
            });
        }
    }
    if free.is_empty() {
        return Ok(Some(values));
    }
    let solved = match solver {
        IlpSolver::Microlp => super::sliced::run(
            &columns(objective, solver, &free),
            &rows,
            deadline.clone(),
            limits.stop,
        ),
        #[cfg(feature = "highs")]
        IlpSolver::Highs => super::highs::run(
            &columns(objective, solver, &free),
            &rows,
            deadline.clone(),
            limits.stop,
        ),
        #[cfg(feature = "coin_cbc")]
        IlpSolver::Cbc => run(
            good_lp::coin_cbc,
            &columns(objective, solver, &free),
            &rows,
            deadline.clone(),
            |mut p| {
                p.set_parameter("threads", "1");
                p
            },
        ),
        #[allow(unreachable_patterns)]
        other => Err(NodeFailure::Fatal(SolveError::Solver {
            message: format!(
                "this build has no {} solver (cargo feature `{}`)",
                other,
                other.feature().unwrap_or("?")
            ),
        })),
    }?;
    let Some(solved) = solved else {
        return Ok(None);
    };
    for (i, col) in column.iter().enumerate() {
        if let Some(col) = *col {
            values[i] = solved[col];
        }
    }
    Ok(Some(values))
}

#[cfg(feature = "coin_cbc")]
fn run<S, M>(
    solver: S,
    columns: &[(i64, i64, f64)],
    rows: &[NodeRow],
    deadline: Deadline,
    configure: impl FnOnce(M) -> M,
) -> Result<Option<Vec<i64>>, NodeFailure>
where
    S: good_lp::Solver<Model = M>,
    M: SolverModel<Error = ResolutionError> + WithMipGap + WithTimeLimit,
{
    let mut vars = ProblemVariables::new();
    let handles: Vec<Variable> = columns
        .iter()
        .map(|&(lower, upper, _)| {
            vars.add(variable().integer().min(lower as f64).max(upper as f64))
        })
        .collect();
    // The objective of each column is given (see `objective`).
    let mut objective = Expression::with_capacity(columns.len());
    for (&h, &(_, _, coef)) in handles.iter().zip(columns) {
        objective.add_mul(coef, h);
    }
    // Any feasible point is a solution: stop at the first incumbent.
    let mut problem = configure(vars.minimise(objective).using(solver));
    if let Some(left) = deadline.remaining() {
        // The solver stops by itself at the deadline instead of running on, abandoned.
        problem = problem.with_time_limit(left.as_secs_f64());
    }
    let mut problem = problem.with_mip_gap(FIRST_INCUMBENT_GAP).map_err(|e| {
        NodeFailure::Fatal(SolveError::Solver {
            message: e.to_string(),
        })
    })?;
    for c in rows {
        let mut lhs = Expression::with_capacity(c.terms.len());
        for &(col, coef) in &c.terms {
            lhs.add_mul(coef as f64, handles[col]);
        }
        let rhs = c.rhs as f64;
        problem.add_constraint(match c.sense {
            Sense::Le => lhs.leq(rhs),
            Sense::Eq => lhs.eq(rhs),
            Sense::Ge => lhs.geq(rhs),
        });
    }
    match problem.solve() {
        Ok(solution) => Ok(Some(
            handles
                .iter()
                .map(|&h| solution.value(h).round() as i64)
                .collect(),
        )),
        Err(ResolutionError::Infeasible) => Ok(None),
        // The solver's own limit is the time left, so it has passed when the solver gave up
        // for that reason (microlp and HiGHS both measure from a later start).
        Err(_) if deadline.passed() => Err(NodeFailure::Fatal(SolveError::TimeLimit)),
        Err(other) => Err(NodeFailure::Numerical(other.to_string())),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::ist;

    fn example() -> (Puzzle, LinearModel, Vec<(i64, i64)>) {
        let puzzle = ist::parse(include_str!("../../../puzzles/ist-example.txt")).unwrap();
        let model = IlpModel::Ship.build(&puzzle);
        let bounds = model.vars.iter().map(|v| (v.lower, v.upper)).collect();
        (puzzle, model, bounds)
    }

    type NodeAnswer = Result<Option<Vec<i64>>, NodeFailure>;

    /// A solver that fails as microlp does on some solbat boards ("Singular matrix") whenever
    /// more than `free` variables are free, and is microlp otherwise.
    fn failing_above(
        model: &LinearModel,
        free: usize,
    ) -> impl FnMut(&[(i64, i64)]) -> NodeAnswer + '_ {
        move |node| {
            if node.iter().filter(|(l, u)| l < u).count() > free {
                return Err(NodeFailure::Numerical("Singular matrix".to_string()));
            }
            solve_model(
                model,
                &[],
                Some(node),
                SolverCall::plain(IlpSolver::Microlp),
            )
        }
    }

    #[test]
    fn a_solver_failure_is_split_until_the_solver_answers() {
        let (puzzle, model, bounds) = example();
        let free = bounds.iter().filter(|(l, u)| l < u).count();
        assert!(free > 20, "{free} free variables");
        let mut splits = 0;
        let values = search(
            &model,
            &[],
            bounds,
            NodeLimits::NONE,
            &mut splits,
            failing_above(&model, free - 10),
        )
        .unwrap()
        .expect("the example has a solution");
        // Propagation after the first split may already bring a half under the threshold.
        assert!(splits >= 1, "{splits} splits");
        let grid = model.decode(&values).unwrap();
        crate::model::verify::verify(&puzzle, &grid).unwrap();
        let sat = crate::solve(&puzzle, &crate::SolveOptions::default()).unwrap();
        assert_eq!(Some(&grid), sat.outcome.grid());
    }

    #[test]
    fn splitting_keeps_no_solution_a_proof_and_a_solver_that_always_fails_an_error() {
        let (_, model, bounds) = example();
        let values = solve_model(&model, &[], None, SolverCall::plain(IlpSolver::Microlp))
            .unwrap()
            .unwrap();
        // The example is unique: with its solution cut off, nothing is left, and the split
        // search must prove that too.
        let cut = model.no_good(&values, 0);
        let mut splits = 0;
        let found = search(
            &model,
            std::slice::from_ref(&cut),
            bounds.clone(),
            NodeLimits::NONE,
            &mut splits,
            |node| {
                if node.iter().filter(|(l, u)| l < u).count() > 15 {
                    return Err(NodeFailure::Numerical("Singular matrix".to_string()));
                }
                solve_model(
                    &model,
                    std::slice::from_ref(&cut),
                    Some(node),
                    SolverCall::plain(IlpSolver::Microlp),
                )
            },
        )
        .unwrap();
        assert_eq!(found, None);
        assert!(splits > 0);
        let always = search(&model, &[], bounds, NodeLimits::NONE, &mut 0, |_| {
            Err(NodeFailure::Numerical("Singular matrix".to_string()))
        });
        assert!(
            matches!(&always, Err(SolveError::Solver { message }) if message == "Singular matrix"),
            "{always:?}"
        );
    }

    #[test]
    fn a_passed_deadline_stops_the_search() {
        let (_, model, bounds) = example();
        let past = Deadline::after(std::time::Duration::ZERO);
        let limits = NodeLimits {
            deadline: &past,
            stop: None,
        };
        let result = search(
            &model,
            &[],
            bounds,
            limits,
            &mut 0,
            failing_above(&model, 0),
        );
        assert!(matches!(result, Err(SolveError::TimeLimit)), "{result:?}");
    }
}
