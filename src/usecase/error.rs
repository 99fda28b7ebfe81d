//! The library's error type. Bad input, unusable files and tool failures are errors; "no
//! solution" and "not unique" are outcomes (see [`crate::usecase::solve::Outcome`]). Messages speak of
//! puzzles, formats and solvers, never of flags: the binary adds what to type. Every use
//! case's error is one of its typed sources, the advisor's included, so that each front end
//! maps this one type in one place.

use crate::format::{Inexpressible, ParseError};
use crate::model::limits::LimitExceeded;
use crate::model::puzzle::PuzzleError;
use crate::usecase::advise::game::{AdviseError, GameError};
use crate::usecase::advise::posterior::PosteriorError;
use crate::usecase::advise::simulate::SimulateError;
use crate::usecase::generate::GenerateError;
use crate::usecase::grade::GradeError;
use crate::usecase::hint::HintError;
use crate::usecase::proof::ProofError;
use crate::usecase::solve::SolveError;
use std::path::PathBuf;

/// An export of a solve job ([`crate::usecase::job::SolveJob`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Export {
    /// The DIMACS formula.
    Dimacs,
    /// The CPLEX LP program.
    Lp,
}

impl std::fmt::Display for Export {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Export::Dimacs => "DIMACS formula",
            Export::Lp => "LP program",
        })
    }
}

/// What part of a job a check refuses ([`Error::Limit`], [`Error::HeaderMismatch`]): each
/// front end names it in its own words (a flag, a request field, an argument).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Subject {
    /// The board size asked for.
    Size,
    /// The fleet asked for.
    Fleet,
    /// A puzzle read (held to limits stricter than those it was read within).
    Puzzle,
    /// The CNF model of a formula.
    Encoding,
    /// The cardinality encoding of a formula.
    Card,
}

impl std::fmt::Display for Subject {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Subject::Size => "size",
            Subject::Fleet => "fleet",
            Subject::Puzzle => "puzzle",
            Subject::Encoding => "encoding",
            Subject::Card => "cardinality encoding",
        })
    }
}

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
    /// A setting given for an external solver's answer disagrees with the header of the
    /// DIMACS file the solver read ([`crate::usecase::job::decode::DecodeJob::check`]).
    #[error(
        "{source_name}: the {subject} {given} disagrees with the formula's header, which says {header}"
    )]
    HeaderMismatch {
        /// The DIMACS file.
        source_name: String,
        /// The setting.
        subject: Subject,
        /// What the header says.
        header: &'static str,
        /// What was given.
        given: &'static str,
    },
    /// Format detection could not decide.
    #[error("{source_name}: cannot tell the input format ({reason})")]
    UnknownFormat {
        /// The file (or `<stdin>`).
        source_name: String,
        /// Why detection failed.
        reason: &'static str,
    },
    /// The text holds nothing, or white space and nothing else, where a puzzle was expected.
    #[error("{source_name}: {}; expected a puzzle", emptiness(*.bytes))]
    EmptyInput {
        /// The file (or `<stdin>`).
        source_name: String,
        /// Its length in bytes (0 when empty).
        bytes: usize,
    },
    /// A folder given to read puzzles from holds no file.
    #[error("{}: the folder holds no file; expected puzzle files directly inside it", path.display())]
    EmptyFolder {
        /// The folder.
        path: PathBuf,
    },
    /// A file holds several boards where one is needed.
    #[error("{source_name} holds {boards} boards where one is needed")]
    MultipleBoards {
        /// The file (or `<stdin>`).
        source_name: String,
        /// How many boards it holds.
        boards: usize,
    },
    /// A certificate or a cross-check was asked of a document solved board by board (a Rubin
    /// file, or several boards): they are made for one board.
    #[error(
        "{source_name}: a certificate or a cross-check is made for one board, not for a file of several boards"
    )]
    CheckOfBoards {
        /// The file (or `<stdin>`).
        source_name: String,
    },
    /// An export was asked of a Rubin file, even of one board: a formula or a program is
    /// written for one board of a one-board format.
    #[error(
        "{source_name}: the {export} is written for one board of a one-board format, not a Rubin file"
    )]
    ExportOfBoards {
        /// The file (or `<stdin>`).
        source_name: String,
        /// The export asked for.
        export: Export,
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
    /// A puzzle could not be graded.
    #[error(transparent)]
    Grade(#[from] GradeError),
    /// No hint could be given.
    #[error(transparent)]
    Hint(#[from] HintError),
    /// The generator could not make what was asked.
    #[error(transparent)]
    Generate(#[from] GenerateError),
    /// A certificate could not be written.
    #[error(transparent)]
    Proof(#[from] ProofError),
    /// No advice on a Battleship position: a salvo that does not fit it, or a posterior that
    /// failed (no fleet fits, or the deadline passed).
    #[error(transparent)]
    Advise(#[from] AdviseError),
    /// A game record that does not make a position.
    #[error(transparent)]
    Game(#[from] GameError),
    /// Self-play refused or stopped.
    #[error(transparent)]
    Simulate(#[from] SimulateError),
    /// A value a job asks for exceeds a limit (found by the job's check, such as
    /// [`crate::usecase::job::generate::GenerateJob::check`]).
    #[error("{subject}: {error}")]
    Limit {
        /// What exceeds it (a size, a fleet, a puzzle).
        subject: Subject,
        /// The limit it exceeds.
        #[source]
        error: LimitExceeded,
    },
    /// The time limit of `seconds` was reached before the work on `source_name` was done.
    #[error("{source_name}: time limit of {seconds} s reached {during}")]
    TimeLimit {
        /// The puzzle's name.
        source_name: String,
        /// The time limit.
        seconds: f64,
        /// Before what (`before a solution was found`), or after what.
        during: std::borrow::Cow<'static, str>,
    },
    /// An error met on the puzzle `source_name`.
    #[error("{source_name}: {error}")]
    On {
        /// The puzzle's name.
        source_name: String,
        /// The error.
        #[source]
        error: Box<Error>,
    },
}

impl From<PosteriorError> for Error {
    fn from(error: PosteriorError) -> Self {
        Error::Advise(error.into())
    }
}

/// What an input of `bytes` bytes of white space is: empty, or how much white space.
fn emptiness(bytes: usize) -> String {
    match bytes {
        0 => "the input is empty".to_string(),
        1 => "the input is 1 byte of white space and nothing else".to_string(),
        n if n >= 10_000_000 => {
            format!(
                "the input is {} MB of white space and nothing else",
                n / 1_000_000
            )
        }
        n => format!("the input is {n} bytes of white space and nothing else"),
    }
}

impl Error {
    /// This error, told as met on the puzzle `source_name`.
    pub fn on(self, source_name: &str) -> Self {
        Error::On {
            source_name: source_name.to_string(),
            error: Box::new(self),
        }
    }

    /// Whether this error is a time limit (or a stop) of some use case, under any
    /// [`Error::On`] names.
    pub fn is_time_limit(&self) -> bool {
        matches!(
            self.innermost(),
            Error::TimeLimit { .. }
                | Error::Solve(SolveError::TimeLimit)
                | Error::Grade(GradeError::Solve(SolveError::TimeLimit))
                | Error::Hint(HintError::TimeLimit)
                | Error::Generate(GenerateError::OutOfTime | GenerateError::TimeLimit { .. })
                | Error::Simulate(SimulateError::TimeLimit { .. })
                | Error::Advise(AdviseError::Posterior(PosteriorError::TimeLimit { .. }))
        )
    }

    /// Whether this error is a failure of the tool (a solver's, or the generator's own
    /// reasoning), never a property of the input.
    pub fn is_failure(&self) -> bool {
        matches!(
            self,
            Error::Solve(_)
                | Error::Grade(GradeError::Solve(_))
                | Error::Generate(GenerateError::Solver(_) | GenerateError::Inconsistent(_))
                | Error::Hint(HintError::Solver(_) | HintError::Solve(_))
        )
    }

    /// This error as the time limit of `seconds` reached `during` the work on `source_name`
    /// ([`Error::TimeLimit`]) when it is a use case's time limit (a self-play run's is reached
    /// after the games it played); any other error as it is.
    pub fn timed(self, source_name: &str, seconds: f64, during: &'static str) -> Self {
        let during: std::borrow::Cow<'static, str> = match &self {
            Error::Simulate(SimulateError::TimeLimit { played, games }) => {
                format!("after {played} of {games} games").into()
            }
            Error::Solve(SolveError::TimeLimit)
            | Error::Grade(GradeError::Solve(SolveError::TimeLimit))
            | Error::Hint(HintError::TimeLimit)
            | Error::Generate(GenerateError::OutOfTime) => during.into(),
            _ => return self,
        };
        Error::TimeLimit {
            source_name: source_name.to_string(),
            seconds,
            during,
        }
    }

    /// This error as met on the puzzle `source_name` under a time limit of `seconds`: a time
    /// limit as [`Error::timed`], a failure of the tool ([`Error::is_failure`]) as it is, any
    /// other error named after the puzzle ([`Error::On`]).
    pub fn met_on(self, source_name: &str, seconds: f64, during: &'static str) -> Self {
        match self.timed(source_name, seconds, during) {
            e @ Error::TimeLimit { .. } => e,
            e if e.is_failure() => e,
            e => e.on(source_name),
        }
    }

    /// The error under any [`Error::On`] names.
    pub fn innermost(&self) -> &Error {
        match self {
            Error::On { error, .. } => error.innermost(),
            e => e,
        }
    }
}
