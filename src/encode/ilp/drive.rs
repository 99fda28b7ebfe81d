//! Driving a MIP solver, written once for every adapter of [`MipSolver`]: [`adapter`] lists
//! the adapters this build links, and [`solve_model`] turns one node of the engine's
//! branch-and-bound into a [`Program`] (fixed variables substituted, the objective written),
//! hands it to the adapter of the solver asked for, and reads how the call ended ([`Ended`]) as
//! an answer, a failure to retry or a stop.

use super::mip::MipSolver;
use super::node::{Column, Ended, NodeFailure, NodeLimits, NodeRow, Program};
use super::objective::{IlpObjective, branching_length, rank};
use super::{IlpSolver, LinearConstraint, LinearModel, Sense};
use crate::model::outcome::SolveError;

/// The adapter of `solver`, or `None` when this build does not link it (its cargo feature is
/// off).
pub(crate) fn adapter(solver: IlpSolver) -> Option<&'static dyn MipSolver> {
    match solver {
        IlpSolver::Microlp => Some(&super::sliced::Microlp),
        #[cfg(feature = "highs")]
        IlpSolver::Highs => Some(&super::highs::Highs),
        #[cfg(feature = "coin_cbc")]
        IlpSolver::Cbc => Some(&super::cbc::Cbc),
        #[allow(unreachable_patterns)]
        _ => None,
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
/// variable; the model's own bounds when `None`) and within `call.limits`: integer values per
/// variable, or `None` when the program is infeasible. Fixed variables are substituted before
/// the solver sees the program. One solver call: a numerical failure is returned, not retried
/// (the engine's branch-and-bound, `branch.rs`, retries).
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
    let bounds: Vec<(i64, i64)> = match bounds {
        Some(b) => b.to_vec(),
        None => model.vars.iter().map(|v| (v.lower, v.upper)).collect(),
    };
    if bounds.iter().any(|(l, u)| l > u) {
        return Ok(None);
    }
    // Free variables get solver columns (their objective the branching length, for now); fixed
    // ones become constants.
    let mut column = vec![None; bounds.len()];
    let mut columns = Vec::new();
    for (i, &(lower, upper)) in bounds.iter().enumerate() {
        if lower < upper {
            column[i] = Some(columns.len());
            columns.push(Column {
                lower,
                upper,
                objective: branching_length(model.vars[i].role),
            });
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
            // Decided here (solvers differ on empty rows).
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
    if columns.is_empty() {
        return Ok(Some(values));
    }
    let Some(adapter) = adapter(solver) else {
        return Err(NodeFailure::Fatal(SolveError::Solver {
            message: format!(
                "this build has no {} solver (cargo feature `{}`)",
                solver,
                solver.feature().unwrap_or("?")
            ),
        }));
    };
    rank(objective, adapter.ranks_by_default(), &mut columns);
    let Some(solved) = run(adapter, &Program { columns, rows }, limits)? else {
        return Ok(None);
    };
    for (i, col) in column.iter().enumerate() {
        if let Some(col) = *col {
            values[i] = solved[col];
        }
    }
    Ok(Some(values))
}

/// One call of `adapter` on `program`: integer values per column, or `None` when there is no
/// point. How the call ended becomes the engine's answer the same way for every solver.
fn run(
    adapter: &dyn MipSolver,
    program: &Program,
    limits: NodeLimits<'_>,
) -> Result<Option<Vec<i64>>, NodeFailure> {
    let fatal = |e| Err(NodeFailure::Fatal(e));
    match adapter.solve(program, limits) {
        Ended::Point(values) => Ok(Some(values.iter().map(|v| v.round() as i64).collect())),
        Ended::Infeasible => Ok(None),
        Ended::Interrupted => fatal(SolveError::Interrupted),
        Ended::TimeLimit => fatal(SolveError::TimeLimit),
        // The solver's own limit is the time left, so a failure past the deadline is the time
        // limit (the solver measures from a later start).
        Ended::Failed(_) if limits.deadline.passed() => fatal(SolveError::TimeLimit),
        Ended::Failed(message) => Err(NodeFailure::Numerical(format!(
            "{}: {message}",
            adapter.kind()
        ))),
        Ended::Refused(message) => fatal(SolveError::Solver {
            message: format!("{}: {message}", adapter.kind()),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::deadline::Deadline;
    use std::time::Duration;

    /// An adapter whose every call ends as its function says.
    struct Scripted(fn() -> Ended);

    impl MipSolver for Scripted {
        fn kind(&self) -> IlpSolver {
            IlpSolver::Cbc
        }

        fn solve(&self, _: &Program, _: NodeLimits<'_>) -> Ended {
            (self.0)()
        }
    }

    fn call(ended: fn() -> Ended, deadline: &Deadline) -> Result<Option<Vec<i64>>, NodeFailure> {
        let column = Column {
            lower: 0,
            upper: 1,
            objective: 0.0,
        };
        let program = Program {
            columns: vec![column; 2],
            rows: Vec::new(),
        };
        let limits = NodeLimits {
            deadline,
            stop: None,
        };
        run(&Scripted(ended), &program, limits)
    }

    /// Every adapter's ending is read the same way: the point rounded, infeasible as no point,
    /// a failure as a retry (the time limit once the deadline has passed), a refusal as fatal,
    /// and the solver's name in front of its words.
    #[test]
    fn how_a_call_ended_is_read_once_for_every_solver() {
        let none = &Deadline::NONE;
        let point = call(|| Ended::Point(vec![0.999_999, 1e-7]), none).unwrap();
        assert_eq!(point, Some(vec![1, 0]));
        assert_eq!(call(|| Ended::Infeasible, none).unwrap(), None);
        let stopped = call(|| Ended::Interrupted, none);
        assert!(
            matches!(stopped, Err(NodeFailure::Fatal(SolveError::Interrupted))),
            "{stopped:?}"
        );
        let timed_out = call(|| Ended::TimeLimit, none);
        assert!(
            matches!(timed_out, Err(NodeFailure::Fatal(SolveError::TimeLimit))),
            "{timed_out:?}"
        );
        let singular = || Ended::Failed("Singular matrix".to_string());
        let failed = call(singular, none);
        assert!(
            matches!(&failed, Err(NodeFailure::Numerical(m)) if m == "cbc: Singular matrix"),
            "{failed:?}"
        );
        let late = call(singular, &Deadline::after(Duration::ZERO));
        assert!(
            matches!(late, Err(NodeFailure::Fatal(SolveError::TimeLimit))),
            "{late:?}"
        );
        let refused = call(|| Ended::Refused("mip_rel_gap: Error".to_string()), none);
        assert!(
            matches!(
                &refused,
                Err(NodeFailure::Fatal(SolveError::Solver { message }))
                    if message == "cbc: mip_rel_gap: Error"
            ),
            "{refused:?}"
        );
    }
}
