//! The names Python passes for formats, backends, encodings and solvers, read through each
//! library enum's own `name()` (the command line's spelling).

use bimaru_sat::encode::ilp::{IlpCut, IlpCuts, IlpModel, IlpObjective, IlpSolver};
use bimaru_sat::encode::sat::card::CardKind;
use bimaru_sat::encode::sat::model::Model;
use bimaru_sat::format::{Format, OutputFormat};
use bimaru_sat::solver::SolverKind;
use bimaru_sat::usecase::grade::Grade;
use bimaru_sat::usecase::solve::Backend;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// The value of `all` named `given`, or a ValueError listing the names.
fn pick<T: Copy>(
    what: &str,
    given: &str,
    all: &[T],
    name: impl Fn(T) -> &'static str,
) -> PyResult<T> {
    all.iter()
        .copied()
        .find(|&v| name(v) == given)
        .ok_or_else(|| {
            let names: Vec<&str> = all.iter().map(|&v| name(v)).collect();
            PyValueError::new_err(format!(
                "unknown {what} {given:?}; one of {}",
                names.join(", ")
            ))
        })
}

/// An input format (None: detect it).
pub fn input_format(given: Option<&str>) -> PyResult<Format> {
    given.map_or(Ok(Format::Auto), |g| {
        pick("format", g, Format::ALL, Format::name)
    })
}

pub fn output_format(given: &str) -> PyResult<OutputFormat> {
    pick("format", given, OutputFormat::ALL, OutputFormat::name)
}

pub fn backend(given: &str) -> PyResult<Backend> {
    pick(
        "backend",
        given,
        &[Backend::Sat, Backend::Ilp],
        |b| match b {
            Backend::Ilp => "ilp",
            _ => "sat",
        },
    )
}

pub fn model(given: &str) -> PyResult<Model> {
    pick("encoding", given, Model::ALL, Model::name)
}

pub fn card(given: &str) -> PyResult<CardKind> {
    pick("card", given, CardKind::ALL, CardKind::name)
}

pub fn solver(given: &str) -> PyResult<SolverKind> {
    pick("solver", given, SolverKind::ALL, SolverKind::name)
}

pub fn ilp_model(given: &str) -> PyResult<IlpModel> {
    pick("ilp_model", given, IlpModel::ALL, IlpModel::name)
}

pub fn ilp_solver(given: &str) -> PyResult<IlpSolver> {
    pick("ilp_solver", given, IlpSolver::ALL, IlpSolver::name)
}

pub fn ilp_objective(given: &str) -> PyResult<IlpObjective> {
    pick(
        "ilp_objective",
        given,
        IlpObjective::ALL,
        IlpObjective::name,
    )
}

/// The cut families named in `given` (`--ilp-cuts`).
pub fn ilp_cuts(given: &[String]) -> PyResult<IlpCuts> {
    let kinds = given
        .iter()
        .map(|name| pick("ilp_cuts entry", name, IlpCut::ALL, |c: IlpCut| c.into()))
        .collect::<PyResult<Vec<IlpCut>>>()?;
    Ok(IlpCuts::of(&kinds))
}

pub fn grade(given: &str) -> PyResult<Grade> {
    pick(
        "grade",
        given,
        &[Grade::Easy, Grade::Medium, Grade::Hard, Grade::Fiendish],
        Grade::name,
    )
}
