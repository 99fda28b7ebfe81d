//! The crate's error type. Bad input, unusable files and tool failures are errors; "no
//! solution" and "not unique" are outcomes (see [`crate::solve::Outcome`]).

use crate::format::ParseError;
use crate::puzzle::PuzzleError;
use crate::solve::SolveError;
use std::path::PathBuf;

/// Everything that can go wrong in the library.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A file's text breaks its format.
    #[error("{source_name}: {error}")]
    Parse {
        /// The file (or `<stdin>`).
        source_name: String,
        /// Where and what.
        error: ParseError,
    },
    /// The parts of a puzzle do not fit together.
    #[error("{source_name}: {error}")]
    Puzzle {
        /// The file (or `<stdin>`).
        source_name: String,
        /// What does not fit.
        error: PuzzleError,
    },
    /// A file could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The system's reason.
        source: std::io::Error,
    },
    /// An external solver's model does not decode for the puzzle (`decode`).
    #[error("{source_name}: {error}")]
    Decode {
        /// The model file (or `<stdin>`).
        source_name: String,
        /// Why it does not decode.
        error: crate::sat::dimacs::DecodeError,
    },
    /// The command line asks for something impossible.
    #[error("{0}")]
    Usage(UsageError),
    /// The solver failed (a bug or a resource limit, never a property of the puzzle).
    #[error(transparent)]
    Solve(#[from] SolveError),
}

/// Command-line combinations that cannot work.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum UsageError {
    /// Format detection could not decide.
    #[error("{source_name}: cannot tell the input format ({reason}); name it with --format")]
    UnknownFormat {
        /// The file.
        source_name: String,
        /// Why detection failed.
        reason: &'static str,
    },
    /// Two flags exclude each other.
    #[error("{first} cannot be combined with {second}")]
    Conflict {
        /// One flag.
        first: &'static str,
        /// The other.
        second: &'static str,
    },
    /// The requested solver is not linked into this build.
    #[error(
        "this build has no {solver} solver; rebuild with `cargo build --release --features {feature}`"
    )]
    SolverUnavailable {
        /// Solver name.
        solver: &'static str,
        /// The cargo feature that links it.
        feature: &'static str,
    },
    /// A file holds several boards where one is needed.
    #[error("{source_name} holds {boards} boards; this command takes one")]
    MultipleBoards {
        /// The file.
        source_name: String,
        /// How many boards it holds.
        boards: usize,
    },
    /// The generator cannot make what was asked (a fleet that does not fit, no puzzle of the
    /// wanted grade).
    #[error("generate: {0}")]
    Generate(crate::generate::GenerateError),
    /// An output format cannot express this puzzle.
    #[error("the {format} format cannot express this puzzle ({reason})")]
    Inexpressible {
        /// Format name.
        format: &'static str,
        /// What is missing.
        reason: &'static str,
    },
}

impl Error {
    /// The process exit code for this error: 2 for bad input or usage, 70 for internal
    /// failures.
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::Parse { .. }
            | Error::Puzzle { .. }
            | Error::Io { .. }
            | Error::Usage(_)
            | Error::Decode { .. } => 2,
            Error::Solve(_) => 70,
        }
    }
}
