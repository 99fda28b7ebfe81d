//! Jobs: what a command asks for, as plain values, and the code that runs them. The binary
//! resolves its flags once into one of these values and writes what comes back; nothing here
//! knows a flag, a terminal or an exit code.

pub mod advise;
pub mod author;
pub mod batch;
pub mod check_proof;
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
use crate::format::Document;
use crate::model::limits::Limits;
use crate::solver::SolverKind;
use crate::usecase::error::{Error, Subject};
use crate::usecase::solve::{Backend, SolveOptions};

/// Holds every board of `doc` to `limits` ([`Error::Limit`] of [`Subject::Puzzle`]), for a
/// front end that reads within wider limits of its own: the server reads every request within
/// the largest board it takes, then holds each to the limits it was started with.
pub fn check_boards(doc: &Document, limits: &Limits) -> Result<(), Error> {
    for board in &doc.boards {
        limits.puzzle(&board.puzzle).map_err(|error| Error::Limit {
            subject: Subject::Puzzle,
            error,
        })?;
    }
    Ok(())
}

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
