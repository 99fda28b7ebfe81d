//! The render command: read a puzzle, solve it when asked (a puzzle with several solutions is
//! refused, exit 3, as `grade` and `hint` refuse it: a picture of one of them would pass for
//! the solution), and write the SVG picture through a temporary file.

use super::{Destination, Exit, Failure, read_input};
use crate::app::cli::RenderArgs;
use bimaru_sat::Limits;
use bimaru_sat::usecase::job::convert::ConvertJob;
use bimaru_sat::usecase::solve::{Outcome, SolveOptions, solve};
use bimaru_sat::usecase::svg;

/// Runs the render command.
pub fn run(args: &RenderArgs, limits: &Limits) -> Result<Exit, Failure> {
    let output = Destination::new(Some(&args.svg), &[Some(&args.puzzle)])?;
    // Without --solve no formula is built: the model-size limit does not apply then.
    let limits = &if args.solve {
        *limits
    } else {
        ConvertJob::reading(limits)
    };
    let input = read_input(Some(&args.puzzle), limits)?;
    let puzzle = input.puzzle(args.format, limits)?;
    let solution = if args.solve {
        let options = SolveOptions::unique();
        match solve(&puzzle, &options)?.outcome {
            Outcome::Multiple { .. } => {
                note!(
                    "{}: not unique: at least 2 solutions; render --solve draws only a unique \
                     solution (render without --solve draws the puzzle)",
                    input.name
                );
                return Ok(Exit::NotUnique);
            }
            outcome => match outcome.grid() {
                Some(grid) => Some(grid.clone()),
                None => {
                    note!("{}: no solution", input.name);
                    return Ok(Exit::NoSolution);
                }
            },
        }
    } else {
        None
    };
    output.write(svg(&puzzle, solution.as_ref()).as_bytes())?;
    Ok(Exit::Success)
}
