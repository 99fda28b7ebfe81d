//! The render command: read a puzzle, solve it when asked, and write the SVG picture through a
//! temporary file.

use super::{Exit, Failure, read_input, write_atomic};
use crate::cli::RenderArgs;
use bimaru_sat::Limits;
use bimaru_sat::render::svg;
use bimaru_sat::solve::{SolveOptions, solve};

/// Runs the render command.
pub fn run(args: &RenderArgs, limits: &Limits) -> Result<Exit, Failure> {
    let input = read_input(Some(&args.puzzle), limits)?;
    let puzzle = input.puzzle_within(args.format, limits)?;
    let solution = if args.solve {
        let report = solve(&puzzle, &SolveOptions::default())?;
        match report.outcome.grid() {
            Some(grid) => Some(grid.clone()),
            None => {
                eprintln!("{}: no solution", input.name);
                return Ok(Exit::NoSolution);
            }
        }
    } else {
        None
    };
    write_atomic(&args.svg, svg(&puzzle, solution.as_ref()).as_bytes())?;
    Ok(Exit::Success)
}
