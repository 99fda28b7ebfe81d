//! The library's error type. Bad input, unusable files and tool failures are errors; "no
//! solution" and "not unique" are outcomes (see [`crate::usecase::solve::Outcome`]). Messages speak of
//! puzzles, formats and solvers, never of flags: the binary adds what to type.

use crate::format::{Inexpressible, ParseError};
use crate::model::puzzle::PuzzleError;
use crate::usecase::solve::SolveError;
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
        error: crate::encode::sat::dimacs::DecodeError,
    },
    /// Format detection could not decide.
    #[error("{source_name}: cannot tell the input format ({reason})")]
    UnknownFormat {
        /// The file (or `<stdin>`).
        source_name: String,
        /// Why detection failed.
        reason: &'static str,
    },
    /// A file holds several boards where one is needed.
    #[error("{source_name} holds {boards} boards where one is needed")]
    MultipleBoards {
        /// The file (or `<stdin>`).
        source_name: String,
        /// How many boards it holds.
        boards: usize,
    },
    /// An output format cannot express a puzzle.
    #[error(transparent)]
    Inexpressible(#[from] Inexpressible),
    /// The requested MIP solver is not linked into this build.
    #[error("this build has no {solver} solver (cargo feature `{feature}`)")]
    SolverUnavailable {
        /// Solver name.
        solver: &'static str,
        /// The cargo feature that links it.
        feature: &'static str,
    },
    /// The solver failed (a bug or a resource limit, never a property of the puzzle).
    #[error(transparent)]
    Solve(#[from] SolveError),
}
