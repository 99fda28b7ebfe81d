//! The hint command: read the puzzle and the cells filled so far, print one forced cell and the
//! rules that force it, and optionally write the state with that cell filled in.

use super::{Exit, parse_puzzle, read_input, write_atomic, write_output};
use crate::cli::HintArgs;
use crate::error::Error;
use crate::hint::{HintError, HintOutcome, State, hint};
use crate::solve::SolveError;

/// Runs the hint command.
pub fn run(args: &HintArgs) -> Result<Exit, Error> {
    let input = read_input(Some(&args.puzzle))?;
    let (puzzle, _) = parse_puzzle(&input, args.format)?;
    let mut state = match &args.state {
        None => State::from_puzzle(&puzzle),
        Some(path) => {
            let text = read_input(Some(path))?;
            State::parse(&text.text, puzzle.rows(), puzzle.cols()).map_err(|error| {
                Error::Parse {
                    source_name: text.name.clone(),
                    error,
                }
            })?
        }
    };
    for (pos, clue) in puzzle.clues() {
        if state.get(pos).is_none() {
            state.set(pos, clue);
        }
    }
    let outcome = match hint(&puzzle, &state) {
        Ok(outcome) => outcome,
        Err(HintError::Contradiction) => {
            eprintln!("{}: {}", input.name, HintError::Contradiction);
            return Ok(Exit::NoSolution);
        }
        Err(HintError::NotUnique) => {
            eprintln!("{}: {}", input.name, HintError::NotUnique);
            return Ok(Exit::NotUnique);
        }
        Err(e) => {
            return Err(Error::Solve(SolveError::Solver {
                message: e.to_string(),
            }));
        }
    };
    let line = match outcome {
        HintOutcome::Complete => "complete: no open cell left\n".to_string(),
        HintOutcome::Hint(h) => {
            state.set(h.pos, h.content);
            format!("{h}\n")
        }
    };
    if let Some(path) = &args.state_out {
        write_atomic(path, state.write().as_bytes())?;
    }
    write_output(None, &line)?;
    Ok(Exit::Success)
}
