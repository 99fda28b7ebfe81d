//! The `bimaru_sat._native` extension: the Python package's bridge to the library. It converts
//! and delegates; every answer comes from the `bimaru_sat` crate (its `job` functions, `solve`,
//! `format`, `render`), the values Python holds are in [`types`], errors are mapped to Python
//! exceptions in one place ([`errors`]), and every long call runs on a thread of its own with
//! the GIL released while the calling thread checks for Ctrl-C ([`interruptible`]).

mod errors;
mod names;
mod types;

use bimaru_sat::usecase::CardKind;
use bimaru_sat::usecase::Format;
use bimaru_sat::usecase::Formula;
use bimaru_sat::usecase::Model;
use bimaru_sat::usecase::SolverKind;
use bimaru_sat::usecase::compare::{self, Config, NamedPuzzle};
use bimaru_sat::usecase::generate::{GenerateOptions, Reduce, Size, parse_fleet};
use bimaru_sat::usecase::grade::Grade;
use bimaru_sat::usecase::job::author::{GradeJob, HintJob, grade_line};
use bimaru_sat::usecase::job::batch::{BatchFile, BatchJob};
use bimaru_sat::usecase::job::generate::{GenerateJob, write_generated};
use bimaru_sat::usecase::job::{Goal, SolveJob, require_solvers};
use bimaru_sat::usecase::json::{ResultJson, Status};
use bimaru_sat::usecase::solve::{Backend, Report, SolveError, SolveOptions, solve};
use bimaru_sat::usecase::{Budget, Deadline};
use bimaru_sat::usecase::{IlpCut, IlpModel, IlpObjective, IlpSolver};
use bimaru_sat::{Error, Limits};
use errors::{BimaruError, LimitError, ParseError, TimeLimitError, internal, on_puzzle, to_py};
use names::{Wrap, named, or};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{RecvTimeoutError, channel};
use std::time::Duration;
use types::{
    PyGrid, PyPuzzle, PyResult_, file_text, json_value, piece_name, puzzles_of, read_doc, read_one,
};

/// The name of the thread a long call works on.
const WORKER: &str = "bimaru-call";

/// How often a waiting call looks for Ctrl-C.
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// Runs `work` on a thread of its own and waits for it with the GIL released, checking for
/// signals (Ctrl-C) every [`SIGNAL_POLL`]. On a signal the stop flag handed to `work` is set
/// (the SAT solver stops at its next conflict) and the signal's exception is raised at once;
/// work that cannot be stopped finishes on its thread and its answer is dropped.
fn interruptible<T: Send + 'static>(
    py: Python<'_>,
    work: impl FnOnce(Arc<AtomicBool>) -> T + Send + 'static,
) -> PyResult<T> {
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let (tx, rx) = channel();
    // Named, so that a test can see it end (/proc/self/task/*/comm).
    std::thread::Builder::new()
        .name(WORKER.into())
        .spawn(move || {
            // The receiver is gone after an interrupt; nothing is lost then.
            let _ = tx.send(work(flag));
        })
        .map_err(|e| internal(format!("cannot start a worker thread: {e}")))?;
    let mut rx = rx;
    loop {
        // The receiver goes along and comes back: it may be used from one thread at a time.
        let (got, back) = py.detach(move || (rx.recv_timeout(SIGNAL_POLL), rx));
        rx = back;
        match got {
            Ok(value) => return Ok(value),
            Err(RecvTimeoutError::Timeout) => {
                if let Err(signal) = py.check_signals() {
                    stop.store(true, Ordering::Relaxed);
                    return Err(signal);
                }
            }
            Err(RecvTimeoutError::Disconnected) => {
                return Err(internal("internal error: the worker thread panicked"));
            }
        }
    }
}

/// The seconds of `time_limit=` as a duration (positive and finite).
fn seconds(time_limit: Option<f64>) -> PyResult<Option<Duration>> {
    match time_limit {
        None => Ok(None),
        Some(s) if s > 0.0 => Duration::try_from_secs_f64(s)
            .map(Some)
            .map_err(|_| PyValueError::new_err(format!("time_limit={s}: too large"))),
        Some(s) => Err(PyValueError::new_err(format!(
            "time_limit={s}: give a positive number of seconds"
        ))),
    }
}

/// Reads one puzzle from `text` in `format` (None: detect it; a puzz.link URL too).
#[pyfunction]
#[pyo3(signature = (text, format=None))]
fn read(text: &str, format: Option<Wrap<Format>>) -> PyResult<PyPuzzle> {
    read_one(text, or(format, Format::Auto), "<text>")
}

/// Reads every board of `text` (a Rubin file holds many).
#[pyfunction]
#[pyo3(signature = (text, format=None))]
fn read_all(text: &str, format: Option<Wrap<Format>>) -> PyResult<Vec<PyPuzzle>> {
    let (doc, _) = read_doc(text, or(format, Format::Auto), "<text>").map_err(to_py)?;
    Ok(puzzles_of(doc, "<text>"))
}

/// Reads the one puzzle of the file at `path`.
#[pyfunction]
#[pyo3(signature = (path, format=None))]
fn read_file(path: PathBuf, format: Option<Wrap<Format>>) -> PyResult<PyPuzzle> {
    let (text, name) = file_text(&path)?;
    read_one(&text, or(format, Format::Auto), &name)
}

/// Reads every board of the file at `path`.
#[pyfunction]
#[pyo3(signature = (path, format=None))]
fn read_file_all(path: PathBuf, format: Option<Wrap<Format>>) -> PyResult<Vec<PyPuzzle>> {
    let (text, name) = file_text(&path)?;
    let (doc, _) = read_doc(&text, or(format, Format::Auto), &name).map_err(to_py)?;
    Ok(puzzles_of(doc, &name))
}

/// A puzzle from its JSON text, with its name and ID (unpickling).
#[pyfunction]
#[pyo3(signature = (text, name="<Puzzle>", id=None))]
fn _puzzle_from_json(text: &str, name: &str, id: Option<String>) -> PyResult<PyPuzzle> {
    let mut puzzle = read_one(text, Format::Json, name)?;
    puzzle.board.id = id;
    Ok(puzzle)
}

/// The ILP backend's keywords: `--ilp-model`, `--ilp-solver`, `--ilp-cuts`, `--ilp-objective`.
struct IlpArgs {
    model: Option<Wrap<IlpModel>>,
    solver: Option<Wrap<IlpSolver>>,
    cuts: Option<Vec<Wrap<IlpCut>>>,
    objective: Option<Wrap<IlpObjective>>,
}

/// The engine flags of `solve` and `compare`, resolved.
#[allow(clippy::too_many_arguments)]
fn options(
    backend: &str,
    encoding: Option<Wrap<Model>>,
    card: Option<Wrap<CardKind>>,
    solver: Option<Wrap<SolverKind>>,
    ilp: IlpArgs,
    presolve: bool,
    race: bool,
    threads: Option<i128>,
    time_limit: Option<f64>,
) -> PyResult<SolveOptions> {
    let defaults = SolveOptions::default();
    let threads = match threads
        .map(|n| natural::<usize>("threads", n))
        .transpose()?
    {
        Some(0) => return Err(PyValueError::new_err("threads= must be at least 1")),
        Some(n) => n,
        None => defaults.threads,
    };
    let options = SolveOptions {
        backend: named(backend)?,
        model: or(encoding, defaults.model),
        card: or(card, defaults.card),
        solver: or(solver, defaults.solver),
        ilp_model: or(ilp.model, defaults.ilp_model),
        ilp_solver: or(ilp.solver, defaults.ilp_solver),
        ilp_cuts: ilp.cuts.map_or(defaults.ilp_cuts, |cuts| {
            cuts.into_iter().map(|cut| cut.0).collect()
        }),
        ilp_objective: or(ilp.objective, defaults.ilp_objective),
        presolve,
        race,
        threads,
        budget: Budget::within(seconds(time_limit)?),
        ..defaults
    };
    require_solvers(&options).map_err(to_py)?;
    Ok(options)
}

/// A whole number argument of at least 0 that fits `T`, or `ValueError` naming the argument
/// (Python passes any int; an unsigned parameter would raise an `OverflowError` naming none).
pub(crate) fn natural<T: TryFrom<i128>>(name: &str, value: i128) -> PyResult<T> {
    if value < 0 {
        return Err(PyValueError::new_err(format!(
            "{name}: {value} is negative; expected a whole number of at least 0"
        )));
    }
    T::try_from(value).map_err(|_| {
        PyValueError::new_err(format!(
            "{name}: {value} is too large; expected a whole number that fits in {} bits",
            8 * std::mem::size_of::<T>()
        ))
    })
}

fn goal(unique: bool, count: Option<i128>) -> PyResult<Goal> {
    if let Some(n) = count.filter(|&n| n < 1) {
        return Err(PyValueError::new_err(format!(
            "count: {n} is less than 1; expected a whole number of at least 1"
        )));
    }
    let count = count.map(|n| natural::<usize>("count", n)).transpose()?;
    match (unique, count) {
        (true, Some(_)) => Err(PyValueError::new_err(
            "unique=True cannot be combined with count=",
        )),
        (_, Some(n)) => Ok(Goal::Count(n)),
        (true, None) => Ok(Goal::Unique),
        (false, None) => Ok(Goal::First),
    }
}

/// Solves `puzzle`: one solution (`unique=False`), a proof of uniqueness (`unique=True`) or
/// every solution up to `count`. Raises TimeLimitError when `time_limit` seconds pass before
/// any solution is found.
#[pyfunction(name = "solve")]
#[pyo3(signature = (puzzle, *, backend="sat", unique=false, count=None, time_limit=None, encoding=None, card=None, solver=None, ilp_model=None, ilp_solver=None, ilp_cuts=None, ilp_objective=None, presolve=true, race=true, threads=None))]
#[allow(clippy::too_many_arguments)]
fn solve_puzzle(
    py: Python<'_>,
    puzzle: &PyPuzzle,
    backend: &str,
    unique: bool,
    count: Option<i128>,
    time_limit: Option<f64>,
    encoding: Option<Wrap<Model>>,
    card: Option<Wrap<CardKind>>,
    solver: Option<Wrap<SolverKind>>,
    ilp_model: Option<Wrap<IlpModel>>,
    ilp_solver: Option<Wrap<IlpSolver>>,
    ilp_cuts: Option<Vec<Wrap<IlpCut>>>,
    ilp_objective: Option<Wrap<IlpObjective>>,
    presolve: bool,
    race: bool,
    threads: Option<i128>,
) -> PyResult<PyResult_> {
    let goal = goal(unique, count)?;
    let mut options = options(
        backend,
        encoding,
        card,
        solver,
        IlpArgs {
            model: ilp_model,
            solver: ilp_solver,
            cuts: ilp_cuts,
            objective: ilp_objective,
        },
        presolve,
        race,
        threads,
        time_limit,
    )?;
    options.goal = goal;
    let board = puzzle.board.clone();
    let report = interruptible(py, move |stop| {
        options.budget = options.budget.clone().stopped_by(stop);
        solve(&board.puzzle, &options)
    })?;
    let report = report.map_err(|e| on_puzzle(e, &puzzle.name, time_limit))?;
    Ok(result_of(puzzle, &report, matches!(goal, Goal::Count(_))))
}

fn result_of(puzzle: &PyPuzzle, report: &Report, counting: bool) -> PyResult_ {
    let json = ResultJson::from_report(report, puzzle.board.embedded.as_ref(), counting);
    let status = match Status::of(&report.outcome) {
        Status::Unique => "unique",
        Status::Found => "found",
        Status::Multiple => "several",
        _ => "unsat",
    };
    PyResult_ {
        status,
        grids: report
            .outcome
            .grids()
            .into_iter()
            .map(|g| puzzle.grid(g.clone()))
            .collect(),
        complete: report.outcome.is_complete(),
        stopped: report.stop.is_some(),
        json,
    }
}

/// Generates one puzzle with a unique solution (carried as `puzzle.solution`): puzzle `index`
/// of `bimaru-sat generate --size SIZE --fleet FLEET --seed SEED --count index+1`.
#[pyfunction]
#[pyo3(signature = (size="10x10", *, fleet=None, seed=1, index=0, grade=None))]
fn generate(
    py: Python<'_>,
    size: &str,
    fleet: Option<&str>,
    seed: i128,
    index: i128,
    grade: Option<Wrap<Grade>>,
) -> PyResult<PyPuzzle> {
    let text = generated_line(py, size, fleet, seed, index, grade)?;
    read_one(
        &text,
        Format::Json,
        &format!("<generated seed {seed} #{index}>"),
    )
}

/// The line `bimaru-sat generate --count N` writes for puzzle `index` (JSON, one line).
#[pyfunction]
#[pyo3(signature = (size="10x10", fleet=None, seed=1, index=0, grade=None))]
fn generated_line(
    py: Python<'_>,
    size: &str,
    fleet: Option<&str>,
    seed: i128,
    index: i128,
    grade: Option<Wrap<Grade>>,
) -> PyResult<String> {
    let seed: u64 = natural("seed", seed)?;
    let index: u64 = natural("index", index)?;
    let size: Size = size
        .parse()
        .map_err(|e: bimaru_sat::usecase::generate::SizeSpecError| {
            PyValueError::new_err(e.to_string())
        })?;
    let mut options = GenerateOptions::new(size);
    if let Some(spec) = fleet {
        options.fleet = parse_fleet(spec).map_err(|e| PyValueError::new_err(e.to_string()))?;
    }
    let grade = grade.map(|g| g.0);
    // The generate command's own request; `index` picks the seed's stream.
    let mut job = GenerateJob {
        options,
        grade,
        seed,
        count: 1,
        to: Format::Json,
        one_line: true,
        from: None,
        // The size and fleet are checked by the job, as the command line's are.
        limits: Limits::default(),
    };
    let made = interruptible(py, move |stop| {
        job.options.budget = job.options.budget.clone().stopped_by(stop);
        job.puzzle(index)
    })?
    .map_err(to_py)?;
    let written = write_generated(&made, Format::Json, true).map_err(to_py)?;
    Ok(written.puzzle.trim_end().to_string())
}

/// Makes a puzzle from `puzzle`'s solution as `bimaru-sat generate --from FILE --reduce
/// REDUCE --seed SEED` does (puzzle `index` of `--count index+1`): its size, fleet and counts,
/// its clues kept, clues of the solution added as `reduce` needs, each of them needed for it.
/// A puzzle without a solution is solved first (no solution or several: `BimaruError`).
#[pyfunction]
#[pyo3(signature = (puzzle, *, reduce=None, seed=1, index=0))]
fn generate_from(
    py: Python<'_>,
    puzzle: &PyPuzzle,
    reduce: Option<Wrap<Reduce>>,
    seed: i128,
    index: i128,
) -> PyResult<PyPuzzle> {
    let seed: u64 = natural("seed", seed)?;
    let index: u64 = natural("index", index)?;
    let board = puzzle.board.clone();
    let size = Size {
        rows: board.puzzle.rows(),
        cols: board.puzzle.cols(),
    };
    // The generate command's own request, from the board.
    let mut job = GenerateJob {
        options: GenerateOptions {
            reduce: or(reduce, Reduce::default()),
            ..GenerateOptions::new(size)
        },
        grade: None,
        seed,
        count: 1,
        to: Format::Json,
        one_line: true,
        from: Some(board),
        limits: Limits::default(),
    };
    let made = interruptible(py, move |stop| {
        job.options.budget = job.options.budget.clone().stopped_by(stop);
        job.puzzle(index)
    })?
    .map_err(|e| to_py(e.on(&puzzle.name)))?;
    let written = write_generated(&made, Format::Json, true).map_err(to_py)?;
    read_one(
        written.puzzle.trim_end(),
        Format::Json,
        &format!("<generated from {} seed {seed} #{index}>", puzzle.name),
    )
}

/// Grades `puzzle` as `bimaru-sat grade` does: a dict with `status` (unique, several, unsat),
/// and for a unique puzzle `grade` (easy, medium, hard, fiendish), the cells decided by each
/// level of deduction and the CLI's `line`.
#[pyfunction]
#[pyo3(signature = (puzzle, *, time_limit=None))]
fn grade<'py>(
    py: Python<'py>,
    puzzle: &PyPuzzle,
    time_limit: Option<f64>,
) -> PyResult<Bound<'py, PyAny>> {
    let deadline = Deadline::within(seconds(time_limit)?);
    let board = puzzle.board.clone();
    let graded = interruptible(py, move |stop| {
        let budget = Budget::until(deadline.stopped_by(stop));
        GradeJob { budget }.run(&board.puzzle)
    })?;
    use bimaru_sat::usecase::grade::Graded;
    let dict = PyDict::new(py);
    match graded.map_err(|e| on_puzzle(e, &puzzle.name, time_limit))? {
        Graded::Unique(report) => {
            dict.set_item("status", "unique")?;
            dict.set_item("grade", <&str>::from(report.grade))?;
            dict.set_item("by_propagation", report.by_propagation)?;
            dict.set_item("by_probing", report.by_probing)?;
            dict.set_item("by_deep_probing", report.by_deep_probing)?;
            dict.set_item("cells", report.cells)?;
            dict.set_item("line", grade_line(&report).trim_end())?;
        }
        Graded::Unsat => dict.set_item("status", "unsat")?,
        Graded::NotUnique => dict.set_item("status", "several")?,
        _ => return Err(internal("internal error: unknown grade outcome")),
    }
    Ok(dict.into_any())
}

/// One hint, as `bimaru-sat hint` gives it: a dict with the CLI's `text`, the cell (`row`,
/// `col`, 0-based) and its `piece` (None when no cell is open), and the `state` with the
/// cell filled in (`?` open, `.` water, pieces `c t b l r m`), to pass back as `state=`.
#[pyfunction]
#[pyo3(signature = (puzzle, state=None, *, time_limit=None))]
fn hint<'py>(
    py: Python<'py>,
    puzzle: &PyPuzzle,
    state: Option<&str>,
    time_limit: Option<f64>,
) -> PyResult<Bound<'py, PyAny>> {
    use bimaru_sat::usecase::hint::State;
    let p = puzzle.puzzle();
    let state = state
        .map(|text| State::parse(text, p.rows(), p.cols()))
        .transpose()
        .map_err(|error| {
            to_py(Error::Parse {
                source_name: "state".into(),
                error,
            })
        })?;
    let deadline = Deadline::within(seconds(time_limit)?);
    let board = puzzle.board.clone();
    let step = interruptible(py, move |stop| {
        let budget = Budget::until(deadline.stopped_by(stop));
        HintJob { state, budget }.run(&board.puzzle)
    })?;
    let step = step.map_err(|e| on_puzzle(e, &puzzle.name, time_limit))?;
    let dict = PyDict::new(py);
    dict.set_item("text", step.line.trim_end())?;
    match &step.hint {
        Some(h) => {
            dict.set_item("row", h.pos.row)?;
            dict.set_item("col", h.pos.col)?;
            dict.set_item("piece", piece_name(h.content.into())?)?;
        }
        None => {
            dict.set_item("row", py.None())?;
            dict.set_item("col", py.None())?;
            dict.set_item("piece", py.None())?;
        }
    }
    dict.set_item("state", step.state.write())?;
    Ok(dict.into_any())
}

/// The CNF formula of `puzzle` in DIMACS, as `bimaru-sat --emit-dimacs FILE --emit-only`
/// writes it.
#[pyfunction]
#[pyo3(signature = (puzzle, *, encoding=None, card=None))]
fn to_dimacs(
    puzzle: &PyPuzzle,
    encoding: Option<Wrap<Model>>,
    card: Option<Wrap<CardKind>>,
) -> PyResult<String> {
    let defaults = SolveOptions::default();
    let model = or(encoding, defaults.model);
    let card = or(card, defaults.card);
    let bytes = Formula::build(puzzle.puzzle(), model, card).write(puzzle.puzzle());
    String::from_utf8(bytes).map_err(|e| internal(e.to_string()))
}

/// The integer program of `puzzle` in CPLEX LP format, as `bimaru-sat --emit-lp FILE
/// --emit-only` writes it.
#[pyfunction]
#[pyo3(signature = (puzzle, *, ilp_model=None))]
fn to_lp(puzzle: &PyPuzzle, ilp_model: Option<Wrap<IlpModel>>) -> PyResult<String> {
    let mut job = SolveJob::default();
    if let Some(model) = ilp_model {
        job.options.ilp_model = model.0;
    }
    job.options.backend = Backend::Ilp;
    // The command line's own comment line, so that the two exports are the same file.
    let how = "solve: cbc FILE solve solu SOL; read: bimaru-sat decode PUZZLE SOL --backend ilp";
    Ok(job.lp_program(puzzle.puzzle(), &puzzle.name, how))
}

/// The puzzle (and a solution) as an SVG picture, as `bimaru-sat render` draws it.
#[pyfunction]
#[pyo3(signature = (puzzle, solution=None))]
fn svg(puzzle: &PyPuzzle, solution: Option<&PyGrid>) -> String {
    bimaru_sat::usecase::svg(puzzle.puzzle(), solution.map(|g| &g.grid))
}

/// The configuration names `compare` runs by default (every one this build links).
#[pyfunction]
fn configs() -> Vec<String> {
    config_names(&compare::all_options())
}

/// The name of each configuration of `all`, each name given once: the library's name
/// (`sat/cell/seq`), followed by `/SOLVER` when a configuration before it has that name
/// (`sat/cell/seq/cadical`).
fn config_names(all: &[SolveOptions]) -> Vec<String> {
    let mut seen = std::collections::HashSet::new();
    all.iter()
        .map(|options| {
            let config = Config::from_options(options.clone());
            if seen.insert(config.name.clone()) {
                config.name
            } else {
                format!("{}/{}", config.name, config.solver)
            }
        })
        .collect()
}

/// Runs configurations (names from `configs()`; None: all) on every puzzle, as
/// `bimaru-sat compare` does: one dict per puzzle and configuration with `puzzle`,
/// `reference`, `config`, `solver`, `verdict`, `grid`, `ms`, `variables`, `constraints` and
/// `agrees`, ready for `pandas.DataFrame(rows)`.
#[pyfunction]
#[pyo3(signature = (puzzles, *, configs=None, limit=2, repeat=1))]
fn compare_puzzles<'py>(
    py: Python<'py>,
    puzzles: Vec<PyPuzzle>,
    configs: Option<Vec<String>>,
    limit: i128,
    repeat: i128,
) -> PyResult<Bound<'py, PyList>> {
    let limit: usize = natural("limit", limit)?;
    let repeat: usize = natural("repeat", repeat)?;
    let all = compare::all_options();
    let names = config_names(&all);
    let chosen: Vec<(String, SolveOptions)> = match configs {
        None => names.into_iter().zip(all).collect(),
        Some(wanted) => wanted
            .iter()
            .map(|name| {
                names
                    .iter()
                    .position(|n| n == name)
                    .map(|i| (name.clone(), all[i].clone()))
                    .ok_or_else(|| {
                        PyValueError::new_err(format!(
                            "no configuration {name:?}; bimaru_sat.configs() lists them"
                        ))
                    })
            })
            .collect::<PyResult<_>>()?,
    };
    let named: Vec<NamedPuzzle> = puzzles
        .iter()
        .enumerate()
        .map(|(i, p)| NamedPuzzle {
            name: match &p.board.id {
                Some(id) => format!("{}#{id}", p.name),
                None if puzzles.len() > 1 => format!("{}#{}", p.name, i + 1),
                None => p.name.clone(),
            },
            puzzle: p.board.puzzle.clone(),
        })
        .collect();
    let comparison = interruptible(py, move |stop| {
        let configs: Vec<Config> = chosen
            .into_iter()
            .map(|(name, options)| {
                let mut config = Config::from_options(options);
                config.name = name;
                config
            })
            .collect();
        let budget = Budget::default().stopped_by(stop);
        compare::compare(&named, &configs, limit, repeat, &budget, &mut || {}).json()
    })?;
    let doc: serde_json::Value =
        serde_json::from_str(&comparison).map_err(|e| internal(e.to_string()))?;
    let rows = PyList::empty(py);
    for p in doc["puzzles"].as_array().into_iter().flatten() {
        for run in p["runs"].as_array().into_iter().flatten() {
            let mut row = serde_json::Map::new();
            row.insert("puzzle".into(), p["name"].clone());
            row.insert("reference".into(), p["reference"].clone());
            if let Some(fields) = run.as_object() {
                row.extend(fields.clone());
            }
            rows.append(json_value(py, &serde_json::Value::Object(row).to_string())?)?;
        }
    }
    Ok(rows)
}

/// The files `bimaru-sat batch PATHS` reads, in order: `(path, listed)`, where a listed file
/// (found in a folder) is skipped when it holds no puzzle.
#[pyfunction]
fn batch_files(paths: Vec<PathBuf>) -> PyResult<Vec<(String, bool)>> {
    let job = BatchJob {
        paths,
        ..BatchJob::default()
    };
    Ok(job
        .files()
        .map_err(to_py)?
        .into_iter()
        .map(|f| (f.path.display().to_string(), f.listed))
        .collect())
}

/// The JSON lines `bimaru-sat batch` writes for one file (none for a skipped one), with the
/// same engine options as `solve`.
#[pyfunction]
#[pyo3(signature = (path, listed=false, *, format=None, backend="sat", unique=false, count=None, time_limit=None, encoding=None, card=None, solver=None, ilp_model=None, ilp_solver=None, ilp_cuts=None, ilp_objective=None, presolve=true, race=true, threads=None))]
#[allow(clippy::too_many_arguments)]
fn batch_lines(
    py: Python<'_>,
    path: PathBuf,
    listed: bool,
    format: Option<Wrap<Format>>,
    backend: &str,
    unique: bool,
    count: Option<i128>,
    time_limit: Option<f64>,
    encoding: Option<Wrap<Model>>,
    card: Option<Wrap<CardKind>>,
    solver: Option<Wrap<SolverKind>>,
    ilp_model: Option<Wrap<IlpModel>>,
    ilp_solver: Option<Wrap<IlpSolver>>,
    ilp_cuts: Option<Vec<Wrap<IlpCut>>>,
    ilp_objective: Option<Wrap<IlpObjective>>,
    presolve: bool,
    race: bool,
    threads: Option<i128>,
) -> PyResult<Vec<String>> {
    let mut job = BatchJob {
        paths: vec![path.clone()],
        format: or(format, Format::Auto),
        options: SolveOptions {
            goal: goal(unique, count)?,
            ..options(
                backend,
                encoding,
                card,
                solver,
                IlpArgs {
                    model: ilp_model,
                    solver: ilp_solver,
                    cuts: ilp_cuts,
                    objective: ilp_objective,
                },
                presolve,
                race,
                threads,
                time_limit,
            )?
        },
        ..BatchJob::default()
    };
    let file = BatchFile { path, listed };
    interruptible(py, move |stop| {
        job.options.budget = job.options.budget.clone().stopped_by(stop);
        let mut lines = Vec::new();
        job.run(std::slice::from_ref(&file), |path, result| {
            lines = result
                .lines(path, time_limit, errors::message)
                .iter()
                .map(ResultJson::to_line)
                .collect();
        });
        lines
    })
}

/// Measurement hook for `docs/benchmarks.md` ("Python package"): solves every puzzle one after
/// another in Rust, as `solve` would with the same options but with no Python between the
/// calls, and returns the seconds it took (the in-process Rust time that `solve`'s overhead is
/// measured against).
#[pyfunction]
#[pyo3(signature = (puzzles, *, unique=false))]
fn _solve_all_in_rust(py: Python<'_>, puzzles: Vec<PyPuzzle>, unique: bool) -> PyResult<f64> {
    let options = SolveOptions {
        goal: goal(unique, None)?,
        ..SolveOptions::default()
    };
    let took = interruptible(py, move |stop| -> Result<f64, SolveError> {
        let options = SolveOptions {
            budget: options.budget.clone().stopped_by(stop),
            ..options
        };
        let start = std::time::Instant::now();
        for p in &puzzles {
            solve(p.puzzle(), &options)?;
        }
        Ok(start.elapsed().as_secs_f64())
    })?;
    took.map_err(to_py)
}

/// The Python package's native half.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("BimaruError", py.get_type::<BimaruError>())?;
    m.add("ParseError", py.get_type::<ParseError>())?;
    m.add("LimitError", py.get_type::<LimitError>())?;
    m.add("TimeLimitError", py.get_type::<TimeLimitError>())?;
    m.add_class::<PyPuzzle>()?;
    m.add_class::<PyGrid>()?;
    m.add_class::<PyResult_>()?;
    m.add_function(wrap_pyfunction!(read, m)?)?;
    m.add_function(wrap_pyfunction!(read_all, m)?)?;
    m.add_function(wrap_pyfunction!(read_file, m)?)?;
    m.add_function(wrap_pyfunction!(read_file_all, m)?)?;
    m.add_function(wrap_pyfunction!(_puzzle_from_json, m)?)?;
    m.add_function(wrap_pyfunction!(solve_puzzle, m)?)?;
    m.add_function(wrap_pyfunction!(generate, m)?)?;
    m.add_function(wrap_pyfunction!(generated_line, m)?)?;
    m.add_function(wrap_pyfunction!(generate_from, m)?)?;
    m.add_function(wrap_pyfunction!(grade, m)?)?;
    m.add_function(wrap_pyfunction!(hint, m)?)?;
    m.add_function(wrap_pyfunction!(to_dimacs, m)?)?;
    m.add_function(wrap_pyfunction!(to_lp, m)?)?;
    m.add_function(wrap_pyfunction!(svg, m)?)?;
    m.add_function(wrap_pyfunction!(configs, m)?)?;
    m.add_function(wrap_pyfunction!(compare_puzzles, m)?)?;
    m.add_function(wrap_pyfunction!(batch_files, m)?)?;
    m.add_function(wrap_pyfunction!(batch_lines, m)?)?;
    m.add_function(wrap_pyfunction!(_solve_all_in_rust, m)?)?;
    Ok(())
}
