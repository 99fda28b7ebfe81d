//! The convert command: read a puzzle in one format and write it in another, without solving
//! ([`convert`] refuses formats that cannot express the puzzle).

use super::{Destination, Exit, Failure, read_input};
use crate::app::cli::ConvertArgs;
use bimaru_sat::Limits;
use bimaru_sat::usecase::job::convert::convert;

/// Runs the convert command.
pub fn run(args: &ConvertArgs, limits: &Limits) -> Result<Exit, Failure> {
    let output = Destination::new(args.output.as_deref(), &[args.input.as_deref()])?;
    // No formula is built: the model-size limit does not apply, only the board's.
    let limits = &limits.with_max_model_size(usize::MAX);
    let input = read_input(args.input.as_deref(), limits)?;
    let doc = input.document(args.format, limits)?;
    let text = convert(&doc, &input.name, args.to, args.cells)?;
    output.write(text.as_bytes())?;
    Ok(Exit::Success)
}
