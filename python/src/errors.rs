//! The one place where the library's errors become Python exceptions: `BimaruError` and its
//! subclasses `ParseError` (with `file`, `line` and `column`), `LimitError` and
//! `TimeLimitError`. Messages are the command line's, with the Python argument to change
//! where the CLI names a flag.

use bimaru_sat::Error;
use bimaru_sat::usecase::ParseErrorKind;
use bimaru_sat::usecase::grade::GradeError;
use bimaru_sat::usecase::hint::HintError;
use bimaru_sat::usecase::solve::SolveError;
use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;

create_exception!(
    bimaru_sat,
    BimaruError,
    PyException,
    "Every error of bimaru_sat: bad input, unusable files, solver failures."
);
create_exception!(
    bimaru_sat,
    ParseError,
    BimaruError,
    "A text breaks its format; `file`, `line` and `column` (None when unknown) say where."
);
create_exception!(
    bimaru_sat,
    LimitError,
    BimaruError,
    "An input exceeds a size limit (board cells, ships, model size, input bytes)."
);
create_exception!(
    bimaru_sat,
    TimeLimitError,
    BimaruError,
    "The time limit was reached before an answer."
);

/// The exception for `error`.
pub fn to_py(error: impl Into<Error>) -> PyErr {
    raise(mapped(&error.into(), None))
}

/// The exception for `error`, met on the puzzle `name` with the time limit `time_limit`: the
/// time limit told with both, every other error named after the puzzle, but for a solver's own
/// failure in `solve`, which the command line tells without it.
pub fn on_puzzle(error: impl Into<Error>, name: &str, time_limit: Option<f64>) -> PyErr {
    raise(mapped(&error.into(), Some((name, time_limit))))
}

/// A library error as the command line tells it, naming the Python argument where the CLI
/// names a flag (the message of [`to_py`]'s exception).
pub fn message(error: &Error) -> String {
    mapped(error, None).text
}

/// The exception class an error maps to.
enum Class {
    Bimaru,
    Limit,
    TimeLimit,
    /// A `ParseError`, with where.
    Parse {
        file: String,
        line: Option<usize>,
        column: Option<usize>,
    },
}

/// An error mapped: its exception class and message.
struct Mapped {
    class: Class,
    text: String,
}

/// The one map from the library's error to a Python exception: its class, and its message as
/// the command line tells it, naming the Python argument where the CLI names a flag. `met` is
/// the puzzle the error was met on, with the call's time limit ([`on_puzzle`]).
fn mapped(error: &Error, met: Option<(&str, Option<f64>)>) -> Mapped {
    let time_limit = matches!(
        error,
        Error::Solve(SolveError::TimeLimit)
            | Error::Grade(GradeError::Solve(SolveError::TimeLimit))
            | Error::Hint(HintError::TimeLimit)
    );
    // The names the error was met under, outermost first, then the error itself.
    let mut names: Vec<&str> = Vec::new();
    match met {
        Some((name, seconds)) if time_limit => {
            let told = Error::TimeLimit {
                source_name: name.to_string(),
                seconds: seconds.unwrap_or_default(),
                during: "before a solution was found".into(),
            };
            return Mapped {
                class: Class::TimeLimit,
                text: told.to_string(),
            };
        }
        Some((name, _)) if !matches!(error, Error::Solve(e) if !matches!(e, SolveError::Interrupted)) => {
            names.push(name)
        }
        _ => {}
    }
    let mut inner = error;
    while let Error::On { source_name, error } = inner {
        names.push(source_name.as_str());
        inner = error;
    }
    let words = match inner {
        // Ctrl-C's own word.
        Error::Solve(SolveError::Interrupted) if !names.is_empty() => "interrupted".to_string(),
        Error::UnknownFormat { .. } => format!("{inner}; name it with format="),
        Error::MultipleBoards {
            source_name,
            boards,
        } => {
            format!("{source_name} holds {boards} boards; read them with read_all or read_file_all")
        }
        Error::SolverUnavailable { solver, feature } => {
            format!("this build has no {solver} solver; rebuild with the cargo feature `{feature}`")
        }
        Error::Generate(e) => format!("generate: {e}"),
        _ => inner.to_string(),
    };
    let text = names
        .iter()
        .map(|name| format!("{name}: "))
        .chain([words])
        .collect::<String>();
    let class = match inner {
        Error::Parse {
            error:
                bimaru_sat::usecase::ParseError {
                    kind: ParseErrorKind::Limit(_),
                    ..
                },
            ..
        }
        | Error::Limit { .. }
        | Error::Grade(GradeError::TooLarge(_))
        | Error::Hint(HintError::TooLarge(_)) => Class::Limit,
        Error::Parse { source_name, error } => Class::Parse {
            file: source_name.clone(),
            line: (error.line > 0).then_some(error.line),
            column: error.column,
        },
        Error::TimeLimit { .. }
        | Error::Solve(SolveError::TimeLimit)
        | Error::Grade(GradeError::Solve(SolveError::TimeLimit))
        | Error::Hint(HintError::TimeLimit) => Class::TimeLimit,
        _ => Class::Bimaru,
    };
    Mapped { class, text }
}

/// The exception of a mapped error.
fn raise(mapped: Mapped) -> PyErr {
    match mapped.class {
        Class::Bimaru => BimaruError::new_err(mapped.text),
        Class::Limit => LimitError::new_err(mapped.text),
        Class::TimeLimit => TimeLimitError::new_err(mapped.text),
        Class::Parse { file, line, column } => Python::attach(|py| {
            let err = ParseError::new_err(mapped.text);
            let value = err.value(py);
            // Attributes on a fresh exception object cannot fail to be set.
            let _ = value.setattr("file", file);
            let _ = value.setattr("line", line);
            let _ = value.setattr("column", column);
            err
        }),
    }
}

/// A failure of the bridge itself (a thread, a conversion), not of the library.
pub fn internal(text: impl Into<String>) -> PyErr {
    BimaruError::new_err(text.into())
}
