//! The ILP engine: hands a [`LinearModel`] to a good_lp solver (microlp, or HiGHS and CBC when
//! built with their features), decodes each optimum into a [`Grid`], and adds a no-good cut so
//! that the next call finds a different solution (for `--unique` and `--count`).

use super::{IlpModel, IlpSolver, LinearConstraint, LinearModel, Sense};
use crate::puzzle::{Grid, Puzzle};
use crate::solve::{Engine, SolveError, Stats};
use good_lp::{
    Expression, ProblemVariables, ResolutionError, Solution, SolverModel, Variable, variable,
};
use std::time::{Duration, Instant};

/// A puzzle's integer program loaded for one solver, ready to enumerate solutions.
pub struct IlpEngine {
    model: LinearModel,
    solver: IlpSolver,
    cuts: Vec<LinearConstraint>,
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
            exhausted: false,
            encode_time: Duration::ZERO,
            solve_time: Duration::ZERO,
            calls: 0,
        }
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
        let values = solve_model(&self.model, &self.cuts, self.solver);
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
        self.model.decode(&values).map(Some).ok_or(SolveError::Decode)
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

/// Solves `model` plus `cuts` with `solver`: integer values per variable, or `None` when the
/// program is infeasible.
pub fn solve_model(
    model: &LinearModel,
    cuts: &[LinearConstraint],
    solver: IlpSolver,
) -> Result<Option<Vec<i64>>, SolveError> {
    // A constraint without variables is decided here (good_lp backends differ on empty rows).
    let mut rows = Vec::with_capacity(model.constraints.len() + cuts.len());
    for c in model.constraints.iter().chain(cuts) {
        if c.terms.is_empty() {
            if !c.holds(&[]) {
                return Ok(None);
            }
        } else {
            rows.push(c);
        }
    }
    if model.vars.iter().any(|v| v.lower > v.upper) {
        return Ok(None);
    }
    match solver {
        IlpSolver::Microlp => run(good_lp::microlp, model, &rows, |p| p),
        #[cfg(feature = "highs")]
        IlpSolver::Highs => run(good_lp::highs, model, &rows, |p| {
            // One thread: these programs are tiny and a thread pool costs more than it saves.
            p.set_threads(1)
        }),
        #[cfg(feature = "coin_cbc")]
        IlpSolver::Cbc => run(good_lp::coin_cbc, model, &rows, |mut p| {
            p.set_parameter("threads", "1");
            p
        }),
        #[allow(unreachable_patterns)]
        other => Err(SolveError::Solver {
            message: format!(
                "this build has no {} solver; rebuild with `--features {}`",
                other.name(),
                other.feature().unwrap_or("?")
            ),
        }),
    }
}

fn run<S, M>(
    solver: S,
    model: &LinearModel,
    rows: &[&LinearConstraint],
    configure: impl FnOnce(M) -> M,
) -> Result<Option<Vec<i64>>, SolveError>
where
    S: good_lp::Solver<Model = M>,
    M: SolverModel<Error = ResolutionError>,
{
    let mut vars = ProblemVariables::new();
    let handles: Vec<Variable> = model
        .vars
        .iter()
        .map(|v| {
            vars.add(
                variable()
                    .integer()
                    .min(v.lower as f64)
                    .max(v.upper as f64),
            )
        })
        .collect();
    let mut problem = configure(vars.minimise(Expression::default()).using(solver));
    for c in rows {
        let mut lhs = Expression::with_capacity(c.terms.len());
        for t in &c.terms {
            lhs.add_mul(t.coef as f64, handles[t.var]);
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
