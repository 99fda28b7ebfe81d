//! The names Python passes for formats, backends, encodings and solvers: one [`Wrap`] that
//! reads any of the library's choice enums by its name (the command line's spelling, through
//! `bimaru_sat::usecase::parse_choice`), and the argument each enum is passed as, for the
//! ValueError of an unknown name.

use bimaru_sat::usecase::CardKind;
use bimaru_sat::usecase::Model;
use bimaru_sat::usecase::SolverKind;
use bimaru_sat::usecase::generate::Reduce;
use bimaru_sat::usecase::grade::Grade;
use bimaru_sat::usecase::solve::Backend;
use bimaru_sat::usecase::{Choice, parse_choice};
use bimaru_sat::usecase::{Format, OutputFormat};
use bimaru_sat::usecase::{IlpCut, IlpModel, IlpObjective, IlpSolver};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// A choice enum as a Python argument: a `str` naming one of its values.
pub struct Wrap<T>(pub T);

/// A choice enum Python passes by name, with the argument that names it.
pub trait Argument: Choice {
    /// The argument, as unknown names are reported (`unknown encoding "x"; expected one of ...`).
    const ARGUMENT: &'static str;
}

impl<'a, 'py, T: Argument> FromPyObject<'a, 'py> for Wrap<T> {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        let name: String = obj.extract()?;
        named(&name).map(Wrap)
    }
}

/// The value of `T` called `name`, or a ValueError naming the argument and listing the names.
/// (`backend="sat"` is a `str` parameter read with this, so that its signature keeps its
/// default.)
pub fn named<T: Argument>(name: &str) -> PyResult<T> {
    parse_choice(T::ARGUMENT, name).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// The value of an optional argument, or `default` when it was not given.
pub fn or<T>(given: Option<Wrap<T>>, default: T) -> T {
    given.map_or(default, |w| w.0)
}

macro_rules! arguments {
    ($($choice:ty => $argument:literal,)*) => {
        $(impl Argument for $choice {
            const ARGUMENT: &'static str = $argument;
        })*
    };
}

arguments! {
    Format => "format",
    OutputFormat => "format",
    Backend => "backend",
    Model => "encoding",
    CardKind => "card",
    SolverKind => "solver",
    IlpModel => "ilp_model",
    IlpSolver => "ilp_solver",
    IlpObjective => "ilp_objective",
    IlpCut => "ilp_cuts entry",
    Grade => "grade",
    Reduce => "reduce",
}
