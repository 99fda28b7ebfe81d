//! The CBC adapter ([`MipSolver`]): COIN-OR CBC linked as a library through good_lp (cargo
//! feature `coin_cbc`; needs coinor-libcbc-dev), one thread, the time left as its limit. CBC
//! reads no stop flag: with it the flag takes effect when the call returns.

use super::IlpSolver;
use super::linear::Sense;
use super::mip::MipSolver;
use super::node::{Ended, FIRST_INCUMBENT_GAP, NodeLimits, Program};
use good_lp::{
    Expression, ProblemVariables, ResolutionError, Solution, SolverModel, Variable, WithMipGap,
    WithTimeLimit, variable,
};

/// CBC, through good_lp's `coin_cbc` backend.
pub(crate) struct Cbc;

impl MipSolver for Cbc {
    fn kind(&self) -> IlpSolver {
        IlpSolver::Cbc
    }

    fn solve(&self, program: &Program, limits: NodeLimits<'_>) -> Ended {
        let mut vars = ProblemVariables::new();
        let handles: Vec<Variable> = program
            .columns
            .iter()
            .map(|c| vars.add(variable().integer().min(c.lower as f64).max(c.upper as f64)))
            .collect();
        let mut objective = Expression::with_capacity(handles.len());
        for (&h, c) in handles.iter().zip(&program.columns) {
            objective.add_mul(c.objective, h);
        }
        let mut problem = vars.minimise(objective).using(good_lp::coin_cbc);
        problem.set_parameter("threads", "1");
        if let Some(left) = limits.deadline.remaining() {
            // The solver stops by itself at the deadline instead of running on, abandoned.
            problem = problem.with_time_limit(left.as_secs_f64());
        }
        // Any feasible point is a solution: stop at the first incumbent.
        let mut problem = match problem.with_mip_gap(FIRST_INCUMBENT_GAP) {
            Ok(problem) => problem,
            Err(e) => return Ended::Refused(e.to_string()),
        };
        for row in &program.rows {
            let mut lhs = Expression::with_capacity(row.terms.len());
            for &(col, coef) in &row.terms {
                lhs.add_mul(coef as f64, handles[col]);
            }
            let rhs = row.rhs as f64;
            problem.add_constraint(match row.sense {
                Sense::Le => lhs.leq(rhs),
                Sense::Eq => lhs.eq(rhs),
                Sense::Ge => lhs.geq(rhs),
            });
        }
        match problem.solve() {
            Ok(solution) => Ended::Point(handles.iter().map(|&h| solution.value(h)).collect()),
            Err(ResolutionError::Infeasible) => Ended::Infeasible,
            Err(other) => Ended::Failed(other.to_string()),
        }
    }
}
