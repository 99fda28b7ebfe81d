//! The `bimaru-sat` binary: parse the command line, run, turn the result into an exit code.

use bimaru_sat::{Error, app, cli::Cli};
use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    match run() {
        Ok(code) => code,
        Err(err) => {
            eprintln!("bimaru-sat: {err}");
            let code = err.downcast_ref::<Error>().map_or(2, Error::exit_code);
            ExitCode::from(code)
        }
    }
}

fn run() -> anyhow::Result<ExitCode> {
    let cli = Cli::parse();
    let exit = app::run(&cli)?;
    Ok(ExitCode::from(exit.code()))
}
