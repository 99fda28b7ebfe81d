//! What each command does, between the parsed command line and the exit code: resolve the
//! flags, read the input, call the library, write the output. `main.rs` only parses arguments,
//! calls [`run`] and turns the result into a process exit.

mod advise;
mod batch;
mod compare;
mod convert;
mod decode;
mod error;
mod generate;
mod grade;
mod hint;
mod render;
pub mod serve;
mod solve;

pub use error::Failure;

use crate::cli::{Cli, Command};
use bimaru_sat::Limits;
use bimaru_sat::error::Error;
use bimaru_sat::format::Source;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

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
    /// 1: `compare` found configurations that disagree or fail.
    Disagreement,
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
        Some(Command::Serve(args)) => serve::run(args),
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

/// Writes `text` to `path` (standard output for `None` or `-`). A file is written through a
/// temporary file in the same folder and renamed, so a failure never leaves a truncated file.
/// A closed pipe on standard output is not an error.
pub fn write_output(path: Option<&Path>, text: &str) -> Result<(), Error> {
    match path {
        Some(p) if p != Path::new("-") => write_atomic(p, text.as_bytes()),
        _ => {
            let mut out = io::stdout().lock();
            match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
                Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(Error::Io {
                    path: PathBuf::from("<stdout>"),
                    source: e,
                }),
                _ => Ok(()),
            }
        }
    }
}

/// Writes `bytes` to `path` through a temporary file and a rename.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    let io_err = |source| Error::Io {
        path: path.to_path_buf(),
        source,
    };
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut tmp = tempfile::Builder::new()
        .prefix(".bimaru-sat-")
        .tempfile_in(dir)
        .map_err(io_err)?;
    // A replaced file keeps its mode; a new one gets rw-r--r-- (the temporary file is 0600).
    let mode = std::fs::metadata(path).map(|m| m.permissions());
    #[cfg(unix)]
    let mode = mode.or_else(|_| {
        use std::os::unix::fs::PermissionsExt;
        Ok::<_, std::io::Error>(std::fs::Permissions::from_mode(0o644))
    });
    if let Ok(mode) = mode {
        tmp.as_file().set_permissions(mode).map_err(io_err)?;
    }
    tmp.write_all(bytes).map_err(io_err)?;
    tmp.as_file().sync_all().map_err(io_err)?;
    tmp.persist(path).map_err(|e| io_err(e.error))?;
    Ok(())
}
