//! The grade command: prove the puzzle unique, then print its grade and how many cells each
//! level of deduction decided, within `--time-limit`.

use super::{Exit, Failure, output, read_input};
use crate::app::cli::GradeArgs;
use bimaru_sat::Limits;
use bimaru_sat::usecase::Budget;
use bimaru_sat::usecase::error::Error;
use bimaru_sat::usecase::grade::Graded;
use bimaru_sat::usecase::job::author::{GradeJob, grade_line};

/// Runs the grade command.
pub fn run(args: &GradeArgs, limits: &Limits) -> Result<Exit, Failure> {
    let deadline = super::deadline(args.time_limit);
    let seconds = args.time_limit.unwrap_or_default();
    let (path, format, within) = (args.puzzle.clone(), args.format, *limits);
    let read = super::before(deadline.clone(), move || -> Result<_, Error> {
        let input = read_input(Some(&path), &within)?;
        let puzzle = input.puzzle(format, &within)?;
        Ok((input, puzzle))
    });
    let Some(read) = read else {
        let name = super::input_name(Some(&args.puzzle));
        return Ok(super::timed_out(&name, seconds, "while reading the input"));
    };
    let (input, puzzle) = read?;
    let job = GradeJob {
        budget: Budget::until(deadline),
    };
    match job.run(&puzzle) {
        Ok(Graded::Unique(r)) => {
            output::stdout(grade_line(&r).as_bytes())?;
            Ok(Exit::Success)
        }
        Ok(Graded::Unsat) => {
            note!("{}: no solution", input.name);
            Ok(Exit::NoSolution)
        }
        Err(e) => {
            let during = "before the grade was found";
            super::ended(Error::from(e).met_on(&input.name, seconds, during))
        }
        // Graded::NotUnique
        Ok(_) => {
            note!(
                "{}: not unique: a puzzle with several solutions has no grade",
                input.name
            );
            Ok(Exit::NotUnique)
        }
    }
}
