//! Jobs: what a command asks for, as plain values, and the code that runs them. The binary
//! resolves its flags once into one of these values and writes what comes back; nothing here
//! knows a flag, a terminal or an exit code.

pub mod author;
pub mod batch;
pub mod convert;
pub mod decode;
pub mod generate;
mod solve;

pub use solve::{
    BoardSolved, BoardsSolved, Dimacs, Goal, SolveJob, Solved, Tally, board_name, by_board,
};

use crate::error::Error;
use crate::ilp::IlpSolver;

/// Refuses a MIP solver that this build does not link.
pub fn require_solver(solver: IlpSolver) -> Result<(), Error> {
    match solver.feature() {
        Some(feature) if !solver.is_available() => Err(Error::SolverUnavailable {
            solver: solver.name(),
            feature,
        }),
        _ => Ok(()),
    }
}
