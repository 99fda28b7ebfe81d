//! Jobs: what a command asks for, as plain values, and the code that runs them. The binary
//! resolves its flags once into one of these values and writes what comes back; nothing here
//! knows a flag, a terminal or an exit code.

pub mod author;
pub mod batch;
pub mod convert;
pub mod decode;
pub mod generate;
mod solve;

pub use crate::usecase::solve::Goal;
pub use solve::{
    BoardSolved, BoardsSolved, CheckedSolve, CountEnd, CrossCheckOptions, Dimacs, LpExport,
    SolveJob, Solved, Tally, board_name, by_board,
};

use crate::encode::ilp::IlpSolver;
use crate::solver::SolverKind;
use crate::usecase::error::Error;
use crate::usecase::solve::{Backend, SolveOptions};

/// Refuses a MIP solver that this build does not link.
pub fn require_solver(solver: IlpSolver) -> Result<(), Error> {
    unavailable(solver.into(), solver.feature(), solver.is_available())
}

/// Refuses a SAT solver that this build does not link.
pub fn require_sat_solver(solver: SolverKind) -> Result<(), Error> {
    unavailable(solver.into(), solver.feature(), solver.is_available())
}

/// Refuses the solvers `options` name (the SAT or the MIP solver of its backend) when this
/// build does not link them.
pub fn require_solvers(options: &SolveOptions) -> Result<(), Error> {
    match options.backend {
        Backend::Sat => require_sat_solver(options.solver),
        Backend::Ilp => require_solver(options.ilp_solver),
    }
}

fn unavailable(
    solver: &'static str,
    feature: Option<&'static str>,
    linked: bool,
) -> Result<(), Error> {
    match feature {
        Some(feature) if !linked => Err(Error::SolverUnavailable { solver, feature }),
        _ => Ok(()),
    }
}
