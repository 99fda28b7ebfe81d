//! `decode PUZZLE SOLUTION --backend ilp`: rebuild the integer program from the puzzle, read a
//! CBC solution file or a glpsol report, map its values onto the model's variables by name,
//! decode and verify the grid, and print it like the solve command would.

use super::{Exit, read_input, write_output};
use crate::cli::DecodeArgs;
use bimaru_sat::error::Error;
use bimaru_sat::format::Writer;
use bimaru_sat::format::{Found, ParseError, ParseErrorKind};
use bimaru_sat::ilp::solution::{self, SolutionStatus};
use bimaru_sat::solve::SolveError;
use bimaru_sat::verify::verify;

/// Decodes an ILP solution file (see the module docs).
pub fn run(args: &DecodeArgs) -> Result<Exit, Error> {
    let input = read_input(Some(&args.puzzle))?;
    let doc = input.document(args.format)?;
    let puzzle = &doc.single(&input.name)?.puzzle;
    let sol_input = read_input(Some(&args.model))?;
    let parse_error = |error| Error::Parse {
        source_name: sol_input.name.clone(),
        error,
    };
    let external = solution::parse(&sol_input.text).map_err(parse_error)?;
    if external.status == SolutionStatus::Infeasible {
        eprintln!("{}: no solution", input.name);
        return Ok(Exit::NoSolution);
    }
    let kind = args
        .ilp_model
        .or_else(|| external.model())
        .unwrap_or_default();
    let model = kind.build(puzzle);
    let values = external.values_for(&model).map_err(parse_error)?;
    // Values that break the model are a wrong or foreign solution file, not a bug here.
    if let Some(broken) = model.constraints.iter().find(|c| !c.holds(&values)) {
        return Err(parse_error(ParseError::at_line(
            0,
            ParseErrorKind::Expected {
                expected: "values that satisfy every constraint of the model",
                found: Found::new(&format!("a point breaking {}", broken.name)),
            },
        )));
    }
    let grid = model.decode(&values).ok_or(SolveError::Decode)?;
    verify(puzzle, &grid).map_err(SolveError::Rejected)?;
    let text = Writer::choose(None, None, &doc).solved_puzzle(puzzle, &grid);
    write_output(args.output.as_deref(), &text)?;
    Ok(Exit::Success)
}
