//! The convert command: read a puzzle in one format and write it in another, without solving.
//! Formats that cannot express the puzzle (an IST board that is not 10x10, a CSC384 count of
//! 10 or more, an unknown count in `.dzn`) refuse with a usage error instead of writing a lie.

use super::{Exit, Failure, read_input, write_output};
use crate::cli::ConvertArgs;
use bimaru_sat::Limits;
use bimaru_sat::error::Error;
use bimaru_sat::format::{Inexpressible, OutputFormat, Writer};

/// Runs the convert command.
pub fn run(args: &ConvertArgs, limits: &Limits) -> Result<Exit, Failure> {
    let input = read_input(args.input.as_deref(), limits)?;
    let doc = input.document_within(args.format, limits)?;
    if doc.boards.len() != 1 && args.to != OutputFormat::Rubin {
        return Err(Error::MultipleBoards {
            source_name: input.name.clone(),
            boards: doc.boards.len(),
        }
        .into());
    }
    if args.to == OutputFormat::Pretty {
        return Err(Inexpressible {
            format: "pretty",
            reason: "it draws solutions; solve with --to pretty instead",
        }
        .into());
    }
    let text = Writer::choose(Some(args.to), args.cells, &doc).puzzles(&doc.boards)?;
    write_output(args.output.as_deref(), &text)?;
    Ok(Exit::Success)
}
