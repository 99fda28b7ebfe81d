//! microlp driven directly, in slices of branch-and-bound nodes, so that a stop flag (Ctrl-C,
//! a caller giving up) ends a solve within one slice, not only the time limit.
//!
//! microlp's own time limit stops it at the deadline, but nothing else can reach into a running
//! solve. microlp can stop after a number of nodes and resume the same search later (its state,
//! incumbent and open nodes are kept), so the solve here runs [`SLICE_NODES`] nodes at a time and
//! reads the stop flag and the deadline in between. The search is the same as one long call:
//! same objective, same huge MIP gap, same node order; only its pauses are new.

use super::Sense;
use super::node::{FIRST_INCUMBENT_GAP, NodeFailure, NodeRow};
use crate::model::deadline::Deadline;
use crate::model::outcome::SolveError;
use microlp::{ComparisonOp, LinearExpr, OptimizationDirection, Problem, ResumeOptions};
use std::sync::atomic::{AtomicBool, Ordering};

/// Branch-and-bound nodes per slice. A node of a 15x15 solbat board's program takes well under a
/// millisecond to a few milliseconds, so a slice ends far within the second that a stop may take.
pub(crate) const SLICE_NODES: u64 = 64;

/// Solves the program over `columns` (`(lower, upper, objective)`) and `rows` with microlp:
/// integer values per column, or `None` when it is infeasible. Stops with
/// [`SolveError::Interrupted`] once `stop` is set, or [`SolveError::TimeLimit`] at `deadline`.
pub(super) fn run(
    columns: &[(i64, i64, f64)],
    rows: &[NodeRow],
    deadline: Deadline,
    stop: Option<&AtomicBool>,
) -> Result<Option<Vec<i64>>, NodeFailure> {
    let mut problem = Problem::new(OptimizationDirection::Minimize);
    let mut vars = Vec::with_capacity(columns.len());
    for &(lower, upper, objective) in columns {
        let (Ok(lower), Ok(upper)) = (i32::try_from(lower), i32::try_from(upper)) else {
            return Err(NodeFailure::Fatal(SolveError::Solver {
                message: "microlp: a bound outside the 32-bit range".to_string(),
            }));
        };
        vars.push(problem.add_integer_var(objective, (lower, upper)));
    }
    for row in rows {
        let mut expr = LinearExpr::empty();
        for &(col, coef) in &row.terms {
            expr.add(vars[col], coef as f64);
        }
        let op = match row.sense {
            Sense::Le => ComparisonOp::Le,
            Sense::Eq => ComparisonOp::Eq,
            Sense::Ge => ComparisonOp::Ge,
        };
        problem.add_constraint(expr, op, row.rhs as f64);
    }
    let stopped = || stop.is_some_and(|s| s.load(Ordering::Relaxed));
    let numerical = |e: microlp::Error| match e {
        microlp::Error::Infeasible => Ok(None),
        other => Err(NodeFailure::Numerical(other.to_string())),
    };
    let mut options = microlp::SolveOptions::default();
    options.mip_gap = FIRST_INCUMBENT_GAP as f64;
    options.time_limit = deadline.remaining();
    options.node_limit = Some(SLICE_NODES);
    let mut outcome = match problem.solve_with(options) {
        Ok(outcome) => outcome,
        Err(e) => return numerical(e),
    };
    loop {
        if let Some(solution) = outcome.solution() {
            // Any incumbent is an answer: the program has no objective of its own.
            return Ok(Some(
                vars.iter()
                    .map(|&v| solution.var_value(v).round() as i64)
                    .collect(),
            ));
        }
        if stopped() {
            return Err(NodeFailure::Fatal(SolveError::Interrupted));
        }
        if deadline.passed() {
            return Err(NodeFailure::Fatal(SolveError::TimeLimit));
        }
        let mut resume: ResumeOptions = outcome.last_resume_options();
        resume.time_limit = deadline.remaining();
        resume.node_limit = Some(SLICE_NODES);
        resume.mip_gap = Some(FIRST_INCUMBENT_GAP as f64);
        outcome = match outcome.resume_with(resume) {
            Ok(outcome) => outcome,
            Err(e) => return numerical(e),
        };
    }
}
