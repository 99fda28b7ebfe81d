//! The ILP engine: hands a [`LinearModel`] to a good_lp solver (microlp, or HiGHS and CBC when
//! built with their features), decodes each optimum into a [`Grid`], and adds a no-good cut so
//! that the next call finds a different solution (for `--unique` and `--count`).

use super::presolve::{PresolveOptions, Presolved, presolve};
use super::{IlpModel, IlpSolver, LinearConstraint, LinearModel, Sense, VarRole};
use crate::puzzle::{Grid, Puzzle};
use crate::solve::{Engine, SolveError, Stats};
use good_lp::{
    Expression, ProblemVariables, ResolutionError, Solution, SolverModel, Variable, WithMipGap,
    variable,
};
use std::time::{Duration, Instant};

/// A puzzle's integer program loaded for one solver, ready to enumerate solutions.
pub struct IlpEngine {
    model: LinearModel,
    solver: IlpSolver,
    cuts: Vec<LinearConstraint>,
    presolve: Option<PresolveOptions>,
    exhausted: bool,
    encode_time: Duration,
    solve_time: Duration,
    calls: usize,
}

impl IlpEngine {
    /// Builds `model` for `puzzle`, to be solved by `solver`.
    pub fn new(puzzle: &Puzzle, model: IlpModel, solver: IlpSolver) -> Self {
        let start = Instant::now();
        let built = model.build(puzzle);
        let mut engine = IlpEngine::from_model(built, solver);
        engine.encode_time = start.elapsed();
        engine
    }

    /// An engine over an already built model.
    pub fn from_model(model: LinearModel, solver: IlpSolver) -> Self {
        IlpEngine {
            model,
            solver,
            cuts: Vec::new(),
            presolve: Some(PresolveOptions::default()),
            exhausted: false,
            encode_time: Duration::ZERO,
            solve_time: Duration::ZERO,
            calls: 0,
        }
    }

    /// Sets the root presolve done before every solver call (`None` hands the whole program
    /// to the solver). On by default.
    pub fn with_presolve(mut self, presolve: Option<PresolveOptions>) -> Self {
        self.presolve = presolve;
        self
    }

    /// The integer program.
    pub fn model(&self) -> &LinearModel {
        &self.model
    }

    /// The no-good cuts added so far, one per solution returned.
    pub fn cuts(&self) -> &[LinearConstraint] {
        &self.cuts
    }
}

impl Engine for IlpEngine {
    fn next_solution(&mut self) -> Result<Option<Grid>, SolveError> {
        if self.exhausted {
            return Ok(None);
        }
        let start = Instant::now();
        let values = match self.presolve {
            Some(options) => match presolve(&self.model, &self.cuts, options) {
                Presolved::Infeasible => Ok(None),
                Presolved::Bounds(bounds) => {
                    solve_model(&self.model, &self.cuts, Some(&bounds), self.solver)
                }
            },
            None => solve_model(&self.model, &self.cuts, None, self.solver),
        };
        self.solve_time += start.elapsed();
        self.calls += 1;
        let Some(values) = values? else {
            self.exhausted = true;
            return Ok(None);
        };
        if let Some(broken) = self
            .model
            .constraints
            .iter()
            .chain(&self.cuts)
            .find(|c| !c.holds(&values))
        {
            return Err(SolveError::Solver {
                message: format!(
                    "{} returned a point that breaks constraint {}",
                    self.solver.name(),
                    broken.name
                ),
            });
        }
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
            model: format!("{}/{}", self.model.model.name(), self.solver.name()),
            variables: self.model.vars.len(),
            constraints: self.model.constraints.len(),
            conflicts: None,
            encode_time: self.encode_time,
            solve_time: self.solve_time,
            solver_calls: self.calls,
        }
    }
}

/// Solves `model` plus `cuts` with `solver`, within `bounds` (one `(lower, upper)` pair per
/// variable; the model's own bounds when `None`): integer values per variable, or `None` when the
/// program is infeasible. Fixed variables are substituted before the solver sees the program.
pub fn solve_model(
    model: &LinearModel,
    cuts: &[LinearConstraint],
    bounds: Option<&[(i64, i64)]>,
    solver: IlpSolver,
) -> Result<Option<Vec<i64>>, SolveError> {
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
            rows.push(Row {
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
        IlpSolver::Microlp => run(good_lp::microlp, &free, &rows, |p| p),
        #[cfg(feature = "highs")]
        IlpSolver::Highs => run(good_lp::highs, &free, &rows, |p| {
            // One thread: these programs are tiny and a thread pool costs more than it saves.
            p.set_threads(1)
        }),
        #[cfg(feature = "coin_cbc")]
        IlpSolver::Cbc => run(good_lp::coin_cbc, &free, &rows, |mut p| {
            p.set_parameter("threads", "1");
            p
        }),
        #[allow(unreachable_patterns)]
        other => Err(SolveError::Solver {
            message: format!(
                "this build has no {} solver (cargo feature `{}`)",
                other.name(),
                other.feature().unwrap_or("?")
            ),
        }),
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

/// A relative MIP gap so large that the first integer point ends the search.
const FIRST_INCUMBENT_GAP: f32 = 1e9;

/// The length that ranks a column in the objective.
///
/// The programs are feasibility problems, but a zero objective leaves microlp's branching blind:
/// its pseudocosts never observe a change in the objective, so every candidate scores the same.
/// Before it has observations, microlp estimates a variable's branching score from its objective
/// coefficient, so the objective `sum (len * n + column) * x` (with `n` free columns) makes it
/// branch on the longest ships first, as people solve these puzzles. Together with a huge MIP
/// gap (the first integer point is accepted) this cut the time for `--unique` on the hardest
/// IST instance (T15) from about 3.3 s to 0.06 s of CPU; see `docs/benchmarks.md`.
fn branching_length(role: VarRole) -> f64 {
    match role {
        VarRole::Placement(ship) => ship.len as f64,
        VarRole::Cell(_) => 1.0,
    }
}

/// A constraint over solver columns.
struct Row {
    terms: Vec<(usize, i64)>,
    sense: Sense,
    rhs: i64,
}

fn run<S, M>(
    solver: S,
    columns: &[(i64, i64, f64)],
    rows: &[Row],
    configure: impl FnOnce(M) -> M,
) -> Result<Option<Vec<i64>>, SolveError>
where
    S: good_lp::Solver<Model = M>,
    M: SolverModel<Error = ResolutionError> + WithMipGap,
{
    let mut vars = ProblemVariables::new();
    let handles: Vec<Variable> = columns
        .iter()
        .map(|&(lower, upper, _)| {
            vars.add(variable().integer().min(lower as f64).max(upper as f64))
        })
        .collect();
    // See `branching_objective`: rank by ship length, then by column order.
    let n = columns.len() as f64;
    let mut objective = Expression::with_capacity(columns.len());
    for (i, (&h, &(_, _, len))) in handles.iter().zip(columns).enumerate() {
        objective.add_mul(len * n + i as f64, h);
    }
    // Any feasible point is a solution: stop at the first incumbent.
    let problem = configure(vars.minimise(objective).using(solver));
    let mut problem =
        problem
            .with_mip_gap(FIRST_INCUMBENT_GAP)
            .map_err(|e| SolveError::Solver {
                message: e.to_string(),
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
        Err(other) => Err(SolveError::Solver {
            message: other.to_string(),
        }),
    }
}
