//! The convert command: read a puzzle in one format and write it in another, without solving.
//! Formats that cannot express the puzzle (an IST board that is not 10x10, a CSC384 count of
//! 10 or more, an unknown count in `.dzn`) refuse with a usage error instead of writing a lie.

use super::{Exit, parse_document, read_input, write_output};
use crate::cli::ConvertArgs;
use crate::error::{Error, UsageError};
use crate::format::csc384::Dialect;
use crate::format::{self, OutputFormat};

/// Runs the convert command.
pub fn run(args: &ConvertArgs) -> Result<Exit, Error> {
    let input = read_input(args.input.as_deref())?;
    let doc = parse_document(&input, args.format)?;
    let dialect = args
        .cells
        .or(doc.dialect.map(|d| d.dialect))
        .unwrap_or(Dialect::Symbols);
    if doc.boards.len() != 1 && args.to != OutputFormat::Rubin {
        return Err(Error::Usage(UsageError::MultipleBoards {
            source_name: input.name.clone(),
            boards: doc.boards.len(),
        }));
    }
    let mut text = String::new();
    for (index, board) in doc.boards.iter().enumerate() {
        let puzzle = &board.puzzle;
        let part = match args.to {
            OutputFormat::Ist => format::ist::write_puzzle(puzzle).ok_or(UsageError::Inexpressible {
                format: "ist",
                reason: "its boards are 10x10 with the standard fleet, known counts and typed clues",
            }),
            OutputFormat::Csc384 => format::csc384::write_puzzle(puzzle, dialect),
            OutputFormat::Rubin => {
                let id = board.id.clone().unwrap_or_else(|| (index + 1).to_string());
                let mut part = String::new();
                if index > 0 {
                    part.push_str("====================================================\n\n");
                }
                format::rubin::write_board(&id, puzzle, board.embedded.as_ref()).map(|b| {
                    part.push_str(&b);
                    part
                })
            }
            OutputFormat::Dzn => format::dzn::write_puzzle(puzzle),
            OutputFormat::Json => Ok(format::json::write_puzzle(puzzle, board.embedded.as_ref())),
            OutputFormat::Puzzlink => format::puzzlink::write_puzzle(puzzle),
            OutputFormat::Pretty => Err(UsageError::Inexpressible {
                format: "pretty",
                reason: "it draws solutions; solve with --to pretty instead",
            }),
            OutputFormat::Rpi => Err(UsageError::Inexpressible {
                format: "rpi",
                reason: "bimaru-sat writes its solutions only; solve with --to rpi instead",
            }),
        }
        .map_err(Error::Usage)?;
        text.push_str(&part);
    }
    write_output(args.output.as_deref(), &text)?;
    Ok(Exit::Success)
}
