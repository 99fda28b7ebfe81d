//! The grade command: prove the puzzle unique, then print its grade and how many cells each
//! level of deduction decided.

use super::{Exit, Failure, output, read_input};
use crate::cli::GradeArgs;
use bimaru_sat::Limits;
use bimaru_sat::grade::{Graded, grade};
use bimaru_sat::job::author::grade_line;

/// Runs the grade command.
pub fn run(args: &GradeArgs, limits: &Limits) -> Result<Exit, Failure> {
    let input = read_input(Some(&args.puzzle), limits)?;
    let puzzle = input.puzzle_within(args.format, limits)?;
    match grade(&puzzle)? {
        Graded::Unique(r) => {
            output::stdout(grade_line(&r).as_bytes())?;
            Ok(Exit::Success)
        }
        Graded::Unsat => {
            eprintln!("{}: no solution", input.name);
            Ok(Exit::NoSolution)
        }
        // Graded::NotUnique
        _ => {
            eprintln!(
                "{}: not unique: a puzzle with several solutions has no grade",
                input.name
            );
            Ok(Exit::NotUnique)
        }
    }
}
