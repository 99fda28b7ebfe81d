//! The `bimaru-sat` binary: parse the command line, run, turn the result into an exit code.
//! The binary owns every flag: [`app::cli`] declares them, [`app`] resolves them into the library's
//! plain values and writes what the library returns. The library never sees a flag.

/// A line on standard error, as `eprintln!` writes it, but never a panic: when standard error
/// is closed (a pipe whose reader has gone, `2>/dev/full`) the line is dropped and the run ends
/// with its own exit code.
macro_rules! note {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

mod app;

use app::cli::Cli;
use std::io::{self, Write};
use std::process::ExitCode;

fn main() -> ExitCode {
    match run() {
        Ok(code) => code,
        Err(err) => {
            note!("bimaru-sat: {err}");
            let code = err
                .downcast_ref::<app::Failure>()
                .map_or(2, app::Failure::exit_code);
            ExitCode::from(code)
        }
    }
}

fn run() -> anyhow::Result<ExitCode> {
    let cli = match Cli::from_args() {
        Ok(cli) => cli,
        // `--help` and `--version` go to standard output, whose errors count as everywhere.
        Err(e) if !e.use_stderr() => match e.print().and_then(|()| io::stdout().flush()) {
            Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
                return Err(anyhow::anyhow!("<stdout>: {e}"));
            }
            _ => return Ok(ExitCode::SUCCESS),
        },
        Err(e) => e.exit(),
    };
    let exit = app::run(&cli)?;
    Ok(ExitCode::from(exit.code()))
}
