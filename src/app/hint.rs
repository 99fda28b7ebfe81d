//! The hint command: read the puzzle and the cells filled so far, print one forced cell and the
//! rules that force it, and optionally write the state with that cell filled in.

use super::{Exit, Failure, read_input, write_atomic, write_output};
use crate::cli::HintArgs;
use bimaru_sat::Limits;
use bimaru_sat::error::Error;
use bimaru_sat::hint::{HintError, State};
use bimaru_sat::job::author::hint_step;
use bimaru_sat::solve::SolveError;

/// Runs the hint command.
pub fn run(args: &HintArgs, limits: &Limits) -> Result<Exit, Failure> {
    let input = read_input(Some(&args.puzzle), limits)?;
    let puzzle = input.puzzle_within(args.format, limits)?;
    let state = match &args.state {
        None => None,
        Some(path) => {
            let text = read_input(Some(path), limits)?;
            Some(
                State::parse(&text.text, puzzle.rows(), puzzle.cols()).map_err(|error| {
                    Error::Parse {
                        source_name: text.name.clone(),
                        error,
                    }
                })?,
            )
        }
    };
    let step = match hint_step(&puzzle, state, None) {
        Ok(step) => step,
        Err(HintError::Contradiction) => {
            eprintln!("{}: {}", input.name, HintError::Contradiction);
            return Ok(Exit::NoSolution);
        }
        Err(HintError::NotUnique) => {
            eprintln!("{}: {}", input.name, HintError::NotUnique);
            return Ok(Exit::NotUnique);
        }
        Err(e) => {
            return Err(SolveError::Solver {
                message: e.to_string(),
            }
            .into());
        }
    };
    if let Some(path) = &args.state_out {
        write_atomic(path, step.state.write().as_bytes())?;
    }
    write_output(None, &step.line)?;
    Ok(Exit::Success)
}
