//! What each command does, between the parsed command line and the exit code: resolve the
//! flags, read the input, call the library, write the output. `main.rs` only parses arguments,
//! calls [`run`] and turns the result into a process exit.

mod advise;
mod batch;
mod check_proof;
pub mod cli;
mod compare;
mod convert;
mod decode;
mod error;
#[cfg(feature = "plant-fault")]
mod fault;
mod generate;
mod grade;
mod hint;
mod manual;
mod output;
mod render;
pub mod serve;
mod solve;

pub use error::Failure;
use output::Destination;

use crate::app::cli::{Cli, Command, SolveArgs};
use bimaru_sat::Limits;
use bimaru_sat::model::deadline::{Deadline, seconds_text};
use bimaru_sat::usecase::Source;
use bimaru_sat::usecase::error::Error;
use std::io;
use std::path::Path;
use std::time::Duration;

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

/// The default command: one input, or batch mode over a directory's files.
fn solve_or_folder(args: &SolveArgs, limits: &Limits) -> Result<Exit, Failure> {
    match args.input.as_ref().filter(|p| p.is_dir()) {
        Some(dir) => batch::run_folder(args, dir, limits),
        None => solve::run(args, limits),
    }
}

/// Runs the command line.
pub fn run(cli: &Cli) -> Result<Exit, Failure> {
    let limits = &cli.limits();
    match &cli.command {
        None => solve_or_folder(&cli.solve, limits),
        Some(Command::Solve(args)) => solve_or_folder(args, limits),
        Some(Command::Batch(args)) => batch::run(args, limits),
        Some(Command::Convert(args)) => convert::run(args, limits),
        Some(Command::Advise(args)) => advise::run_advise(args, limits),
        Some(Command::Simulate(args)) => advise::run_simulate(args),
        Some(Command::Decode(args)) => decode::run(args, limits),
        Some(Command::Compare(args)) => compare::run(args, limits),
        Some(Command::Generate(args)) => generate::run(args, limits),
        Some(Command::Grade(args)) => grade::run(args, limits),
        Some(Command::Hint(args)) => hint::run(args, limits),
        Some(Command::Render(args)) => render::run(args, limits),
        Some(Command::CheckProof(args)) => check_proof::run(args, limits),
        Some(Command::Serve(args)) => serve::run(args),
        Some(Command::Completions(args)) => manual::completions(args),
        Some(Command::Man(args)) => manual::man(args),
    }
}

/// The library's time limit for `--time-limit SECONDS` (which `cli::parse_seconds` has
/// checked: positive, finite, at most a year).
fn time_limit(seconds: Option<f64>) -> Option<Duration> {
    seconds.and_then(|s| Duration::try_from_secs_f64(s).ok())
}

/// The deadline of `--time-limit SECONDS`, counted from now.
fn deadline(seconds: Option<f64>) -> Deadline {
    Deadline::within(time_limit(seconds))
}

/// Runs `work` (reading and parsing the input, which the library cannot interrupt) on a
/// thread of its own and waits for it until `deadline`: `None` if the deadline comes first.
/// The thread is then left behind, and the process ends soon after with exit 4.
fn before<T: Send + 'static>(
    deadline: Deadline,
    work: impl FnOnce() -> T + Send + 'static,
) -> Option<T> {
    let Some(left) = deadline.remaining() else {
        return Some(work());
    };
    let (tx, rx) = std::sync::mpsc::channel();
    let worker = std::thread::spawn(move || {
        // The receiver is gone after a time-out; nothing is lost then.
        let _ = tx.send(work());
    });
    match rx.recv_timeout(left) {
        Ok(value) => Some(value),
        Err(std::sync::mpsc::RecvTimeoutError::Timeout) => None,
        Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => match worker.join() {
            Err(panic) => std::panic::resume_unwind(panic),
            Ok(()) => None,
        },
    }
}

/// Says on stderr that the time limit of `seconds` was reached (`while` what), and gives the
/// exit.
fn timed_out(name: &str, seconds: f64, during: &str) -> Exit {
    let seconds = seconds_text(seconds);
    note!("{name}: time limit of {seconds} s reached {during}");
    Exit::TimeLimit
}

/// The name of an input path in messages.
fn input_name(path: Option<&Path>) -> String {
    match path {
        Some(p) if p != Path::new("-") => p.display().to_string(),
        _ => "<stdin>".to_string(),
    }
}

/// Reads `path` (standard input for `None` or `-`) as text, within `limits`.
pub fn read_input(path: Option<&Path>, limits: &Limits) -> Result<Source, Error> {
    if let Some(source) = path.and_then(url_argument) {
        return Ok(source);
    }
    match path {
        Some(p) if p != Path::new("-") => Source::read_within(p, limits),
        _ => Source::read_from("<stdin>", io::stdin().lock(), limits),
    }
}

/// A puzz.link URL given where a file name goes (`bimaru-sat 'https://puzz.link/p?battleship/...'`):
/// when no file of that name exists and the argument looks like a URL, the argument is the text
/// and its own name in messages.
fn url_argument(path: &Path) -> Option<Source> {
    let text = path.to_str()?;
    (!path.exists() && bimaru_sat::format::puzzlink::looks_like_url(text)).then(|| Source {
        name: text.to_string(),
        text: text.to_string(),
    })
}
