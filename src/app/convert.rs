//! The convert command: read a puzzle in one format and write it in another, without solving.
//! Formats that cannot express the puzzle (an IST board that is not 10x10, a CSC384 count of
//! 10 or more, an unknown count in `.dzn`) refuse with a usage error instead of writing a lie.

use super::{Exit, read_input, write_output};
use crate::cli::ConvertArgs;
use bimaru_sat::error::{Error, UsageError};
use bimaru_sat::format::{OutputFormat, Writer};

/// Runs the convert command.
pub fn run(args: &ConvertArgs) -> Result<Exit, Error> {
    let input = read_input(args.input.as_deref())?;
    let doc = input.document(args.format)?;
    if doc.boards.len() != 1 && args.to != OutputFormat::Rubin {
        return Err(Error::Usage(UsageError::MultipleBoards {
            source_name: input.name.clone(),
            boards: doc.boards.len(),
        }));
    }
    if args.to == OutputFormat::Pretty {
        return Err(Error::Usage(UsageError::Inexpressible {
            format: "pretty",
            reason: "it draws solutions; solve with --to pretty instead",
        }));
    }
    let text = Writer::choose(Some(args.to), args.cells, &doc)
        .puzzles(&doc.boards)
        .map_err(Error::Usage)?;
    write_output(args.output.as_deref(), &text)?;
    Ok(Exit::Success)
}
