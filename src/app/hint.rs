//! The hint command: read the puzzle and the cells filled so far, print one forced cell and the
//! rules that force it, and optionally write the state with that cell filled in; all within
//! `--time-limit`.

use super::{Destination, Exit, Failure, output, read_input};
use crate::app::cli::HintArgs;
use bimaru_sat::Limits;
use bimaru_sat::usecase::Budget;
use bimaru_sat::usecase::error::Error;
use bimaru_sat::usecase::hint::State;
use bimaru_sat::usecase::job::author::HintJob;

/// Runs the hint command.
pub fn run(args: &HintArgs, limits: &Limits) -> Result<Exit, Failure> {
    // The state file may be rewritten in place; the puzzle may not.
    let state_out = args
        .state_out
        .as_deref()
        .map(|p| Destination::new(Some(p), &[Some(&args.puzzle)]))
        .transpose()?;
    let deadline = super::deadline(args.time_limit);
    let seconds = args.time_limit.unwrap_or_default();
    let (path, format, state_path) = (args.puzzle.clone(), args.format, args.state.clone());
    let within = *limits;
    let read = super::before(deadline.clone(), move || -> Result<_, Error> {
        let input = read_input(Some(&path), &within)?;
        let puzzle = input.puzzle(format, &within)?;
        let state = match state_path {
            None => None,
            Some(path) => {
                let text = read_input(Some(&path), &within)?;
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
        Ok((input, puzzle, state))
    });
    let Some(read) = read else {
        let name = super::input_name(Some(&args.puzzle));
        return Ok(super::timed_out(&name, seconds, "while reading the input"));
    };
    let (input, puzzle, state) = read?;
    let job = HintJob {
        state,
        budget: Budget::until(deadline),
    };
    let step = match job.run(&puzzle) {
        Ok(step) => step,
        Err(e) => {
            let during = "before a hint was found";
            return super::ended(Error::from(e).met_on(&input.name, seconds, during));
        }
    };
    if let Some(target) = &state_out {
        target.write(step.state.write().as_bytes())?;
    }
    output::stdout(step.line.as_bytes())?;
    Ok(Exit::Success)
}
