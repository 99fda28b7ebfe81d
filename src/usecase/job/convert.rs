//! The convert job: a parsed document written as puzzles in another format, without solving.
//! Formats that cannot express a puzzle (an IST board that is not 10x10, a CSC384 count of 10
//! or more, an unknown count in `.dzn`, any solution drawing) refuse instead of writing a lie.

use crate::format::csc384::Dialect;
use crate::format::{Document, Inexpressible, OutputFormat, Writer};
use crate::usecase::error::Error;

/// Writes the puzzles of `doc` (read from `source_name`) in `to`, with the CSC384 cell alphabet
/// `cells` (by default the input's, else symbols). Only Rubin files hold several boards.
pub fn convert(
    doc: &Document,
    source_name: &str,
    to: OutputFormat,
    cells: Option<Dialect>,
) -> Result<String, Error> {
    if doc.boards.len() != 1 && to != OutputFormat::Rubin {
        return Err(Error::MultipleBoards {
            source_name: source_name.to_string(),
            boards: doc.boards.len(),
        });
    }
    if to == OutputFormat::Pretty {
        return Err(Inexpressible {
            format: "pretty",
            reason: "it draws solutions, not puzzles",
        }
        .into());
    }
    Ok(Writer::choose(Some(to), cells, doc).puzzles(&doc.boards)?)
}
