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
mod input;
mod manual;
mod output;
mod render;
pub mod serve;
mod solve;
mod words;

pub use error::{Exit, Failure, ended, told};
pub(crate) use input::{before, deadline, input_name, read_input, time_limit, timed_out};
pub(crate) use output::Destination;

use crate::app::cli::{Cli, Command, SolveArgs};
use bimaru_sat::Limits;

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
        Some(Command::Serve(args)) => serve::run(args, limits),
        Some(Command::Completions(args)) => manual::completions(args),
        Some(Command::Man(args)) => manual::man(args),
    }
}
