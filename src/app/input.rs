//! What every command shares before its work: input read from a file, standard input or a
//! puzz.link URL argument, and `--time-limit` turned into the library's deadline, with reading
//! and parsing on a thread abandoned at the deadline.

use super::error::Exit;
use bimaru_sat::Limits;
use bimaru_sat::usecase::Source;
use bimaru_sat::usecase::error::Error;
use bimaru_sat::usecase::{Deadline, seconds_text};
use std::io;
use std::path::Path;
use std::time::Duration;

/// The library's time limit for `--time-limit SECONDS` (which `cli::parse_seconds` has
/// checked: positive, finite, at most a year).
pub fn time_limit(seconds: Option<f64>) -> Option<Duration> {
    seconds.and_then(|s| Duration::try_from_secs_f64(s).ok())
}

/// The deadline of `--time-limit SECONDS`, counted from now.
pub fn deadline(seconds: Option<f64>) -> Deadline {
    Deadline::within(time_limit(seconds))
}

/// Runs `work` (reading and parsing the input, which the library cannot interrupt) on a
/// thread of its own and waits for it until `deadline`: `None` if the deadline comes first.
/// The thread is then left behind, and the process ends soon after with exit 4.
pub fn before<T: Send + 'static>(
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
pub fn timed_out(name: &str, seconds: f64, during: &str) -> Exit {
    let seconds = seconds_text(seconds);
    note!("{name}: time limit of {seconds} s reached {during}");
    Exit::TimeLimit
}

/// The name of an input path in messages.
pub fn input_name(path: Option<&Path>) -> String {
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
        Some(p) if p != Path::new("-") => Source::read(p, limits),
        _ => Source::read_from("<stdin>", io::stdin().lock(), limits),
    }
}

/// A puzz.link URL given where a file name goes (`bimaru-sat 'https://puzz.link/p?battleship/...'`):
/// when no file of that name exists and the argument looks like a URL, the argument is the text
/// and its own name in messages.
pub fn url_argument(path: &Path) -> Option<Source> {
    let text = path.to_str()?;
    (!path.exists() && bimaru_sat::usecase::looks_like_url(text)).then(|| Source {
        name: text.to_string(),
        text: text.to_string(),
    })
}
