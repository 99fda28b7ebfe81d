//! The hint command: read the puzzle and the cells filled so far, print one forced cell and the
//! rules that force it, and optionally write the state with that cell filled in.

use super::{Exit, Failure, Output, output, read_input};
use crate::cli::HintArgs;
use bimaru_sat::Limits;
use bimaru_sat::error::Error;
use bimaru_sat::hint::{HintError, State};
use bimaru_sat::job::author::hint_step;
use bimaru_sat::solve::SolveError;

/// Runs the hint command.
pub fn run(args: &HintArgs, limits: &Limits) -> Result<Exit, Failure> {
    // The state file may be rewritten in place; the puzzle may not.
    let state_out = args
        .state_out
        .as_deref()
        .map(|p| Output::new(Some(p), &[Some(&args.puzzle)]))
        .transpose()?;
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
    if let Some(target) = &state_out {
        target.write(step.state.write().as_bytes())?;
    }
    output::stdout(step.line.as_bytes())?;
    Ok(Exit::Success)
}
