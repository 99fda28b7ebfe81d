//! The DIMACS side of the solve command: `--emit-dimacs FILE|-`, `--emit-only` and
//! `--exclude-solution`. [`before_solve`] checks the flags and handles `--emit-only`;
//! [`after_solve`] writes the formula, with the blocking clause when asked.

use super::{Exit, Failure, write_output};
use crate::cli::SolveArgs;
use bimaru_sat::error::Error;
use bimaru_sat::puzzle::Puzzle;
use bimaru_sat::sat::dimacs::Formula;
use bimaru_sat::solve::Report;
use std::path::Path;

fn is_stdout(path: Option<&Path>) -> bool {
    path.is_none_or(|p| p == Path::new("-"))
}

/// Checks the DIMACS flags; with `--emit-only`, writes the formula and ends the command.
pub(super) fn before_solve(args: &SolveArgs, puzzle: &Puzzle) -> Result<Option<Exit>, Failure> {
    let Some(target) = args.emit_dimacs.as_deref() else {
        return Ok(None);
    };
    if is_stdout(Some(target)) && !args.emit_only && is_stdout(args.output.as_deref()) {
        return Err(Failure::Conflict {
            first: "--emit-dimacs - (without --emit-only)",
            second: "a solution printed on standard output (give an OUTPUT file)",
        });
    }
    if !args.emit_only {
        return Ok(None);
    }
    let formula = Formula::build(puzzle, args.engine.encoding, args.engine.card);
    emit(target, &formula.write(puzzle))?;
    Ok(Some(Exit::Success))
}

/// Writes the formula after solving; with `--exclude-solution`, adds the clause that blocks the
/// first grid found (none when there is no solution).
pub(super) fn after_solve(args: &SolveArgs, puzzle: &Puzzle, report: &Report) -> Result<(), Error> {
    let Some(target) = args.emit_dimacs.as_deref() else {
        return Ok(());
    };
    let mut formula = Formula::build(puzzle, args.engine.encoding, args.engine.card);
    if args.exclude_solution
        && let Some(grid) = report.outcome.grid()
    {
        formula.exclude(grid);
    }
    emit(target, &formula.write(puzzle))
}

fn emit(target: &Path, bytes: &[u8]) -> Result<(), Error> {
    if is_stdout(Some(target)) {
        // DIMACS is ASCII, so this never fails.
        write_output(None, &String::from_utf8_lossy(bytes))
    } else {
        super::write_atomic(target, bytes)
    }
}
