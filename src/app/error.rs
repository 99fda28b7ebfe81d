//! The binary's errors: the library's, told with what to type to get past them, flag
//! combinations that cannot work, and the generator's failures. Each has its exit code: 2 for
//! bad input or usage, 70 for a failure of the tool.

use bimaru_sat::usecase::DecodeError;
use bimaru_sat::usecase::advise::game::AdviseError;
use bimaru_sat::usecase::advise::posterior::PosteriorError;
use bimaru_sat::usecase::error::{Error, Export, Subject};
use bimaru_sat::usecase::generate::GenerateError;
use bimaru_sat::usecase::hint::HintError;
use bimaru_sat::usecase::seconds_text;
use bimaru_sat::usecase::solve::SolveError;
use bimaru_sat::usecase::{Limit, LimitExceeded};
use bimaru_sat::usecase::{ParseError, ParseErrorKind};
use std::path::PathBuf;

/// Why a command failed.
#[derive(Debug, thiserror::Error)]
pub enum Failure {
    /// Two flags exclude each other.
    #[error("{first} cannot be combined with {second}")]
    Conflict {
        /// One flag.
        first: &'static str,
        /// The other.
        second: &'static str,
    },
    /// A flag asks for more work than one run does (`simulate --games`).
    #[error("{flag}: {message}")]
    TooMuch {
        /// The flag.
        flag: &'static str,
        /// What it asks for, and the most a run does.
        message: String,
    },
    /// `man` was asked for a command that does not exist.
    #[error("man: no command {name:?}; the commands are {known}")]
    UnknownCommand {
        /// The name given.
        name: String,
        /// The commands there are.
        known: String,
    },
    /// A batch read no file that holds a puzzle: every file it was given is of unknown format
    /// or a solution.
    #[error(
        "batch: no file holds a puzzle ({unknown} of unknown format, {solutions} with a solved \
         grid); expected puzzle files, in a format that is detected or named with --format"
    )]
    NoPuzzle {
        /// Files of unknown format.
        unknown: usize,
        /// Files that hold a solved grid.
        solutions: usize,
    },
    /// An output path that must not be written.
    #[error(transparent)]
    Output(#[from] Refusal),
    /// The server cannot listen on its address (taken, or not this machine's).
    #[error("cannot listen on {address}: {source}")]
    Listen {
        /// The address asked for.
        address: String,
        /// The system's reason.
        source: std::io::Error,
    },
    /// The library refused or failed.
    #[error("{}", told(.0).text)]
    Library(#[from] Error),
}

impl Failure {
    /// The process exit code: 2 for bad input or usage, 70 for internal failures; a library
    /// error's is [`told`]'s.
    pub fn exit_code(&self) -> u8 {
        match self {
            Failure::Library(error) => told(error).code,
            _ => 2,
        }
    }
}

impl From<GenerateError> for Failure {
    fn from(e: GenerateError) -> Self {
        Failure::Library(e.into())
    }
}

impl From<HintError> for Failure {
    fn from(e: HintError) -> Self {
        Failure::Library(e.into())
    }
}

impl From<SolveError> for Failure {
    fn from(e: SolveError) -> Self {
        Failure::Library(e.into())
    }
}

impl From<bimaru_sat::usecase::Inexpressible> for Failure {
    fn from(e: bimaru_sat::usecase::Inexpressible) -> Self {
        Failure::Library(e.into())
    }
}

/// The flag that raises the limit `error` exceeds, if there is one.
fn raise(error: &LimitExceeded) -> &'static str {
    match error.limit {
        Limit::Cells | Limit::Side => " (--max-cells raises it)",
        Limit::ModelSize => " (--max-model-size raises it)",
        _ => "",
    }
}

/// A library error as the command line tells it (for a file's line of `batch`).
pub fn message(error: &Error) -> String {
    told(error).text
}

/// How a run that met the library's `error` ends: an outcome (a time limit, no solution, not
/// unique) told on standard error as a note, with its exit code, or else a failure.
pub fn ended(error: Error) -> Result<Exit, Failure> {
    let told = told(&error);
    match told.ends {
        Some(exit) => {
            note!("{}", told.text);
            Ok(exit)
        }
        None => Err(Failure::Library(error)),
    }
}

/// How the command line tells a library error.
pub struct Told {
    /// The line, with the flag or build that gets past it.
    pub text: String,
    /// The exit code: 2 for bad input or usage, 70 for a failure of the tool, 1 and 3 when
    /// the puzzle `generate --from` reads has no solution or several.
    pub code: u8,
    /// How the run ends when the error is an outcome of it rather than a failure: a time
    /// limit, a puzzle without a solution or with several (told without the program's name).
    pub ends: Option<Exit>,
}

/// The command line's one map of the library's error: its line (with the flag or build that
/// gets past it), its exit code, and whether it ends the run as an outcome.
pub fn told(error: &Error) -> Told {
    let ends = match error.innermost() {
        Error::TimeLimit { .. }
        | Error::Advise(AdviseError::Posterior(PosteriorError::TimeLimit { .. })) => {
            Some(Exit::TimeLimit)
        }
        Error::Hint(HintError::Contradiction | HintError::NoSolution) | Error::Advise(_) => {
            Some(Exit::NoSolution)
        }
        Error::Hint(HintError::NotUnique) => Some(Exit::NotUnique),
        _ => None,
    };
    let code = match error.innermost() {
        Error::Generate(GenerateError::GivenUnsat) => Exit::NoSolution.code(),
        Error::Generate(GenerateError::GivenNotUnique) => Exit::NotUnique.code(),
        _ if error.is_failure() => 70,
        _ => ends.map_or(2, Exit::code),
    };
    let text = match error {
        Error::TimeLimit {
            source_name,
            seconds,
            during,
        } => format!(
            "{source_name}: time limit of {} s reached {during}",
            seconds_text(*seconds)
        ),
        Error::Advise(AdviseError::Posterior(e @ PosteriorError::SamplingStalled { .. })) => {
            format!("{e}; use --method exact")
        }
        Error::Simulate(e) => format!("--games: {e}"),
        Error::UnknownFormat { .. } => format!("{error}; name it with --format"),
        Error::MultipleBoards {
            source_name,
            boards,
        } => format!("{source_name} holds {boards} boards; this command takes one"),
        // A solve job refused for its document: the flags that conflict with it.
        Error::CheckOfBoards { .. } => Failure::Conflict {
            first: "--proof and --cross-check (one board)",
            second: "a file of several boards (use `batch --unique --proof-dir DIR`)",
        }
        .to_string(),
        Error::ExportOfBoards { export, .. } => Failure::Conflict {
            first: match export {
                Export::Dimacs => "--emit-dimacs",
                Export::Lp => "--emit-lp",
            },
            second: "a Rubin file of boards, even of one board: convert the board to another format first",
        }
        .to_string(),
        Error::SolverUnavailable { solver, feature } => format!(
            "this build has no {solver} solver; rebuild with `cargo build --release --features {feature}`"
        ),
        Error::Parse {
            error:
                ParseError {
                    kind: ParseErrorKind::Limit(limit),
                    ..
                },
            ..
        } => format!("{error}{}", raise(limit)),
        // A job's own checks: what it is given is the flag's.
        Error::HeaderMismatch {
            source_name,
            subject,
            header,
            given,
        } => {
            let flag = match subject {
                Subject::Card => "--card",
                _ => "--encoding",
            };
            format!(
                "{source_name}: {flag} {given} disagrees with the formula's header, which says {header}"
            )
        }
        Error::Limit {
            subject,
            error: limit,
        } => match subject {
            Subject::Size => format!("--size: {limit}{}", raise(limit)),
            Subject::Fleet => format!("--fleet: {limit}{}", raise(limit)),
            _ => format!("{error}{}", raise(limit)),
        },
        // Two formats get the command line's own reason, which names the flag that gets the
        // answer out another way.
        Error::Inexpressible(why) => match why.format {
            "pretty" => inexpressible(why, "it draws solutions; solve with --to pretty instead"),
            "puzzlink" => inexpressible(
                why,
                "a URL holds a puzzle, not its solution; use --to pretty or json",
            ),
            _ => error.to_string(),
        },
        // The generator cannot make what was asked (a fleet that does not fit, no puzzle of
        // the wanted grade), or its solver failed.
        Error::Generate(GenerateError::Solver(_) | GenerateError::Inconsistent(_))
        | Error::Hint(HintError::Solver(_) | HintError::Solve(_)) => {
            format!("solver failure: {error}")
        }
        Error::Generate(_) => format!("generate: {error}"),
        // What to type when an external solver's answer does not decode.
        Error::Decode {
            error: DecodeError::MipSolution,
            ..
        } => format!("{error}; decode it with --backend ilp"),
        Error::Decode {
            error: DecodeError::SatAnswer,
            ..
        } => format!("{error}; decode it without --backend ilp"),
        Error::Decode {
            error:
                DecodeError::UnknownVariable { .. }
                | DecodeError::Incomplete { .. }
                | DecodeError::Falsified { .. },
            ..
        } => format!(
            "{error}; give the DIMACS file the solver read with --cnf (its header names the model and encoding), or the --encoding and --card it was written with"
        ),
        _ => error.to_string(),
    };
    Told { text, code, ends }
}

/// [`Inexpressible`](bimaru_sat::usecase::Inexpressible)'s sentence with the command line's
/// `reason`.
fn inexpressible(why: &bimaru_sat::usecase::Inexpressible, reason: &'static str) -> String {
    bimaru_sat::usecase::Inexpressible { reason, ..*why }.to_string()
}

/// How a run ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Exit {
    /// 0: solved (or the command did its job).
    Success,
    /// 1: the puzzle has no solution.
    NoSolution,
    /// 3: uniqueness was demanded and there are several solutions.
    NotUnique,
    /// 2: some input could not be read (batch mode, where the other inputs still run).
    BadInput,
    /// 4: the time limit was reached.
    TimeLimit,
    /// 1: `compare` or `--cross-check` found configurations that disagree or fail.
    Disagreement,
    /// 1: `check-proof` rejected a certificate.
    Rejected,
}

impl Exit {
    /// The process exit code.
    pub fn code(self) -> u8 {
        match self {
            Exit::Success => 0,
            Exit::NoSolution => 1,
            Exit::NotUnique => 3,
            Exit::BadInput => 2,
            Exit::TimeLimit => 4,
            Exit::Disagreement => 1,
            Exit::Rejected => 1,
        }
    }
}

/// Why an output path is refused.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Refusal {
    /// The path names something other than a regular file.
    #[error(
        "{}: is {kind}, not a regular file; output is written only to regular files (`-` for standard output)",
        path.display()
    )]
    NotRegular {
        /// The output path as given.
        path: PathBuf,
        /// What it is ("a directory", "a character device", ...).
        kind: &'static str,
    },
    /// The path names something other than a directory where a folder of files is written.
    #[error(
        "{}: is {kind}, not a directory; the files are written into a folder (a new one, or an existing directory)",
        path.display()
    )]
    NotADirectory {
        /// The folder as given.
        path: PathBuf,
        /// What it is ("a regular file", "a character device", ...).
        kind: &'static str,
    },
    /// The path names a file that is also read by the run.
    #[error(
        "{}: is the input {}; write the output to another file",
        output.display(),
        input.display()
    )]
    SameAsInput {
        /// The output path as given.
        output: PathBuf,
        /// The input it names.
        input: PathBuf,
    },
    /// Two outputs of one run name the same file.
    #[error("{} and {} name the same output file", first.display(), second.display())]
    SameOutput {
        /// One output path.
        first: PathBuf,
        /// The other.
        second: PathBuf,
    },
    /// The chain of symbolic links does not end.
    #[error("{}: too many levels of symbolic links", path.display())]
    LinkLoop {
        /// The output path as given.
        path: PathBuf,
    },
}
