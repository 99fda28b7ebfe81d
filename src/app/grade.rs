//! The grade command: prove the puzzle unique, then print its grade and how many cells each
//! level of deduction decided.

use super::{Exit, parse_puzzle, read_input, write_output};
use crate::cli::GradeArgs;
use crate::error::Error;
use crate::grade::{Graded, grade};

/// Runs the grade command.
pub fn run(args: &GradeArgs) -> Result<Exit, Error> {
    let input = read_input(Some(&args.puzzle))?;
    let (puzzle, _) = parse_puzzle(&input, args.format)?;
    match grade(&puzzle)? {
        Graded::Unsat => {
            eprintln!("{}: no solution", input.name);
            Ok(Exit::NoSolution)
        }
        Graded::NotUnique => {
            eprintln!(
                "{}: not unique: a puzzle with several solutions has no grade",
                input.name
            );
            Ok(Exit::NotUnique)
        }
        Graded::Unique(r) => {
            write_output(
                None,
                &format!(
                    "{}: {} of {} cells by propagation, {} by one-step look-ahead, {} by two-step look-ahead\n",
                    r.grade, r.by_propagation, r.cells, r.by_probing, r.by_deep_probing
                ),
            )?;
            Ok(Exit::Success)
        }
    }
}
