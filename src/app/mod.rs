//! What each command does, between the parsed command line and the exit code: resolve the
//! flags, read the input, call the library, write the output. `main.rs` only parses arguments,
//! calls [`run`] and turns the result into a process exit.

mod advise;
mod batch;
mod check_proof;
mod compare;
mod convert;
mod decode;
mod error;
mod generate;
mod grade;
mod hint;
mod manual;
mod output;
mod render;
pub mod serve;
mod solve;

pub use error::Failure;
use output::Output;

use crate::cli::{Cli, Command};
use bimaru_sat::Limits;
use bimaru_sat::error::Error;
use bimaru_sat::format::Source;
use std::io;
use std::path::Path;

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

/// Runs the command line.
pub fn run(cli: &Cli) -> Result<Exit, Failure> {
    let limits = &cli.limits();
    match &cli.command {
        None => solve::run(&cli.solve, limits),
        Some(Command::Solve(args)) => solve::run(args, limits),
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

/// The library's time limit for `--time-limit SECONDS` (a negative limit counts as zero).
fn time_limit(seconds: Option<f64>) -> Option<std::time::Duration> {
    seconds.map(|s| std::time::Duration::from_secs_f64(s.max(0.0)))
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
