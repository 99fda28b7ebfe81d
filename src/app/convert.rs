//! The convert command: read a puzzle in one format and write it in another, without solving
//! ([`ConvertJob`] refuses formats that cannot express the puzzle).

use super::{Destination, Exit, Failure, read_input};
use crate::app::cli::ConvertArgs;
use bimaru_sat::Limits;
use bimaru_sat::usecase::job::convert::ConvertJob;

/// Runs the convert command.
pub fn run(args: &ConvertArgs, limits: &Limits) -> Result<Exit, Failure> {
    let output = Destination::new(args.output.as_deref(), &[args.input.as_deref()])?;
    // No formula is built: the model-size limit does not apply, only the board's.
    let limits = &ConvertJob::reading(limits);
    let input = read_input(args.input.as_deref(), limits)?;
    let doc = input.document(args.format, limits)?;
    let job = ConvertJob {
        to: args.to,
        cells: args.cells,
    };
    let text = job.run(&doc, &input.name)?;
    output.write(text.as_bytes())?;
    Ok(Exit::Success)
}
