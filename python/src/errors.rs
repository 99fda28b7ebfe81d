//! The one place where the library's errors become Python exceptions: `BimaruError` and its
//! subclasses `ParseError` (with `file`, `line` and `column`), `LimitError` and
//! `TimeLimitError`. Messages are the command line's, with the Python argument to change
//! where the CLI names a flag.

use bimaru_sat::Error;
use bimaru_sat::usecase::ParseErrorKind;
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

/// A library error as the command line tells it, naming the Python argument where the CLI
/// names a flag.
pub fn message(error: &Error) -> String {
    match error {
        Error::UnknownFormat { .. } => format!("{error}; name it with format="),
        Error::MultipleBoards {
            source_name,
            boards,
        } => {
            format!("{source_name} holds {boards} boards; read them with read_all or read_file_all")
        }
        Error::SolverUnavailable { solver, feature } => {
            format!("this build has no {solver} solver; rebuild with the cargo feature `{feature}`")
        }
        _ => error.to_string(),
    }
}

/// The exception for `error`.
pub fn to_py(error: &Error) -> PyErr {
    let text = message(error);
    match error {
        Error::Parse {
            error:
                bimaru_sat::usecase::ParseError {
                    kind: ParseErrorKind::Limit(_),
                    ..
                },
            ..
        } => LimitError::new_err(text),
        Error::Parse { source_name, error } => Python::attach(|py| {
            let err = ParseError::new_err(text);
            let value = err.value(py);
            let line = (error.line > 0).then_some(error.line);
            // Attributes on a fresh exception object cannot fail to be set.
            let _ = value.setattr("file", source_name.as_str());
            let _ = value.setattr("line", line);
            let _ = value.setattr("column", error.column);
            err
        }),
        Error::Solve(SolveError::TimeLimit) => TimeLimitError::new_err(text),
        _ => BimaruError::new_err(text),
    }
}

/// The CLI's words when the time limit of `seconds` stops work on `name` `during` what.
pub fn time_limit_error(name: &str, seconds: f64, during: &str) -> PyErr {
    TimeLimitError::new_err(format!(
        "{name}: time limit of {seconds} s reached {during}"
    ))
}
