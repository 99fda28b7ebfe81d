//! The microlp adapter ([`MipSolver`]): microlp driven directly, in slices of branch-and-bound
//! nodes, so that a stop flag (Ctrl-C, a caller giving up) ends a solve within one slice, not
//! only the time limit.
//!
//! microlp's own time limit stops it at the deadline, but nothing else can reach into a running
//! solve. microlp can stop after a number of nodes and resume the same search later (its state,
//! incumbent and open nodes are kept), so the solve here runs [`SLICE_NODES`] nodes at a time and
//! reads the stop flag and the deadline in between. The search is the same as one long call:
//! same objective, same huge MIP gap, same node order; only its pauses are new.

use super::IlpSolver;
use super::Sense;
use super::mip::MipSolver;
use super::node::{Ended, FIRST_INCUMBENT_GAP, NodeLimits, Program};
use microlp::{ComparisonOp, LinearExpr, OptimizationDirection, Problem, ResumeOptions};

/// Branch-and-bound nodes per slice. A node of a 15x15 solbat board's program takes well under a
/// millisecond to a few milliseconds, so a slice ends far within the second that a stop may take.
pub(crate) const SLICE_NODES: u64 = 64;

/// microlp, pure Rust, always built.
pub(crate) struct Microlp;

impl MipSolver for Microlp {
    fn kind(&self) -> IlpSolver {
        IlpSolver::Microlp
    }

    fn solve(&self, program: &Program, limits: NodeLimits<'_>) -> Ended {
        let mut problem = Problem::new(OptimizationDirection::Minimize);
        let mut vars = Vec::with_capacity(program.columns.len());
        for column in &program.columns {
            let (Ok(lower), Ok(upper)) = (i32::try_from(column.lower), i32::try_from(column.upper))
            else {
                return Ended::Refused("a bound outside the 32-bit range".to_string());
            };
            vars.push(problem.add_integer_var(column.objective, (lower, upper)));
        }
        for row in &program.rows {
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
        let deadline = limits.deadline;
        let mut options = microlp::SolveOptions::default();
        options.mip_gap = FIRST_INCUMBENT_GAP as f64;
        options.time_limit = deadline.remaining();
        options.node_limit = Some(SLICE_NODES);
        let mut outcome = match problem.solve_with(options) {
            Ok(outcome) => outcome,
            Err(e) => return failed(e),
        };
        loop {
            if let Some(solution) = outcome.solution() {
                return Ended::Point(vars.iter().map(|&v| solution.var_value(v)).collect());
            }
            if limits.stopped() {
                return Ended::Interrupted;
            }
            if deadline.passed() {
                return Ended::TimeLimit;
            }
            let mut resume: ResumeOptions = outcome.last_resume_options();
            resume.time_limit = deadline.remaining();
            resume.node_limit = Some(SLICE_NODES);
            resume.mip_gap = Some(FIRST_INCUMBENT_GAP as f64);
            outcome = match outcome.resume_with(resume) {
                Ok(outcome) => outcome,
                Err(e) => return failed(e),
            };
        }
    }
}

/// How a microlp error ends the call: infeasibility is an answer, anything else a failure.
fn failed(e: microlp::Error) -> Ended {
    match e {
        microlp::Error::Infeasible => Ended::Infeasible,
        other => Ended::Failed(other.to_string()),
    }
}
