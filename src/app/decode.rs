//! The decode command: read an external solver's answer to an exported formula, check the grid
//! with the verifier, and print it in the puzzle's format. Each backend's reader lives in its
//! own module; this file only dispatches.

use super::Exit;
use crate::cli::DecodeArgs;
use crate::error::{Error, UsageError};
use crate::solve::Backend;

/// Runs the decode command.
pub fn run(args: &DecodeArgs) -> Result<Exit, Error> {
    match args.backend {
        Backend::Ilp => super::decode_ilp::run(args),
        _ => Err(Error::Usage(UsageError::Conflict {
            first: "decode",
            second: "--backend sat (DIMACS models are not read by this build)",
        })),
    }
}
