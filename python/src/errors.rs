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
        Error::Generate(e) => format!("generate: {e}"),
        Error::On { source_name, error } => match **error {
            // Ctrl-C's own word.
            Error::Solve(SolveError::Interrupted) => format!("{source_name}: interrupted"),
            ref inner => format!("{source_name}: {}", message(inner)),
        },
        _ => error.to_string(),
    }
}

/// The exception for `error`.
pub fn to_py(error: impl Into<Error>) -> PyErr {
    let error = error.into();
    let text = message(&error);
    match error.innermost() {
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
        | Error::Hint(HintError::TooLarge(_)) => LimitError::new_err(text),
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
        Error::TimeLimit { .. }
        | Error::Solve(SolveError::TimeLimit)
        | Error::Grade(GradeError::Solve(SolveError::TimeLimit))
        | Error::Hint(HintError::TimeLimit) => TimeLimitError::new_err(text),
        _ => BimaruError::new_err(text),
    }
}

/// The exception for `error`, met on the puzzle `name` with the time limit `time_limit`: the
/// time limit told with both, every other error named after the puzzle, but for a solver's own
/// failure in `solve`, which the command line tells without it.
pub fn on_puzzle(error: impl Into<Error>, name: &str, time_limit: Option<f64>) -> PyErr {
    let error = error.into();
    to_py(match error {
        Error::Solve(SolveError::TimeLimit)
        | Error::Grade(GradeError::Solve(SolveError::TimeLimit))
        | Error::Hint(HintError::TimeLimit) => Error::TimeLimit {
            source_name: name.to_string(),
            seconds: time_limit.unwrap_or_default(),
            during: "before a solution was found",
        },
        Error::Solve(SolveError::Interrupted) => error.on(name),
        Error::Solve(_) => error,
        error => error.on(name),
    })
}

/// A failure of the bridge itself (a thread, a conversion), not of the library.
pub fn internal(text: impl Into<String>) -> PyErr {
    BimaruError::new_err(text.into())
}
