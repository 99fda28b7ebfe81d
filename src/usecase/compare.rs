//! Every selected configuration (backend x model x encoding x solver) on every puzzle: sizes,
//! times, and whether all configurations agree. This is the machinery behind `bimaru-sat
//! compare` and the figures in `docs/benchmarks.md`; the binary only picks the configurations
//! and prints [`Comparison::table`] or [`Comparison::json`].
//!
//! [`compare`] takes [`Config`]s: ordinary ones come from [`Config::from_options`] (see
//! [`all_options`]), and tests can plant their own engine with [`Config::custom`].

use crate::encode::ilp::{IlpModel, IlpObjective, IlpSolver};
use crate::encode::sat::card::CardKind;
use crate::encode::sat::model::Model;
use crate::format::Format;
use crate::model::deadline::Budget;
use crate::model::limits::Limits;
use crate::model::puzzle::{Grid, Pos, Puzzle};
use crate::solver::SolverKind;
use crate::usecase::error::Error;
use crate::usecase::solve::{self, Backend, Engine, Goal, Outcome, SolveOptions};
use crate::usecase::{Source, folder_files};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use strum::VariantArray;

/// Builds an engine for a puzzle.
type Build = Box<dyn Fn(&Puzzle) -> Box<dyn Engine>>;

/// One way of solving that `compare` runs: a name for the tables and an engine factory.
pub struct Config {
    /// Name in tables, e.g. `sat/cell/seq` (backend/model/encoding) or `ilp/ship`
    /// (backend/model).
    pub name: String,
    /// The solver that answers: `varisat`, `cadical`, `microlp`, `highs` or `cbc`.
    pub solver: String,
    /// The backend it belongs to.
    pub backend: Backend,
    /// The options it solves with, for [`Config::run`]; none for a custom engine.
    options: Option<SolveOptions>,
    build: Build,
}

impl Config {
    /// The configuration that solves with `options` (as `solve` would).
    pub fn from_options(options: SolveOptions) -> Config {
        let name = config_name(&options);
        let backend = options.backend;
        let solver: &str = match backend {
            Backend::Sat => options.solver.into(),
            Backend::Ilp => options.ilp_solver.into(),
        };
        Config {
            name,
            solver: solver.to_string(),
            backend,
            options: Some(options.clone()),
            build: Box::new(move |puzzle| solve::engine(puzzle, &options)),
        }
    }

    /// A configuration with an engine of the caller's making (a test hook: a planted faulty
    /// decoder must make [`compare`] report a disagreement).
    pub fn custom(
        name: impl Into<String>,
        backend: Backend,
        build: impl Fn(&Puzzle) -> Box<dyn Engine> + 'static,
    ) -> Config {
        Config {
            name: name.into(),
            solver: "custom".to_string(),
            backend,
            options: None,
            build: Box::new(build),
        }
    }
}

impl Config {
    /// Runs this configuration's engine on `puzzle`, looking for up to `limit` solutions, each
    /// verified, within `budget` (its deadline and stop flag), as [`solve::solve`] keeps one:
    /// it fails with [`solve::SolveError::TimeLimit`] when the deadline passes before the first
    /// grid ([`solve::SolveError::Interrupted`] when the flag is set), or reports the grids
    /// found by then with [`solve::Report::stop`] set. A custom configuration has no options
    /// to pass a budget through and runs without one.
    pub(crate) fn run(
        &self,
        puzzle: &Puzzle,
        limit: usize,
        budget: &Budget,
    ) -> Result<solve::Report, solve::SolveError> {
        let bounded = budget.deadline.is_set() || budget.stop().is_some();
        match &self.options {
            Some(options) if bounded => solve::solve(
                puzzle,
                &SolveOptions {
                    goal: Goal::Count(limit),
                    budget: budget.clone(),
                    ..options.clone()
                },
            ),
            _ => {
                let mut engine = self.engine(puzzle);
                solve::run(puzzle, engine.as_mut(), limit)
            }
        }
    }

    /// A new engine of this configuration for `puzzle`.
    pub fn engine(&self, puzzle: &Puzzle) -> Box<dyn Engine> {
        (self.build)(puzzle)
    }
}

/// `backend/model/encoding` (SAT) or `backend/model` (ILP, with `+` and each cut family and an
/// objective other than `auto`: `ilp/ship+segments+zero-objective`) for tables; the solver has
/// a column of its own.
fn config_name(options: &SolveOptions) -> String {
    match options.backend {
        Backend::Sat => format!("sat/{}/{}", options.model, options.card),
        Backend::Ilp => {
            let mut name = format!("ilp/{}", options.ilp_model);
            for cut in options.ilp_cuts.iter() {
                name.push_str(&format!("+{cut}"));
            }
            if options.ilp_objective != IlpObjective::Auto {
                name.push_str(&format!("+{}-objective", options.ilp_objective));
            }
            name
        }
    }
}

/// Every configuration this build can run, in table order: each SAT model with each
/// cardinality encoding, then each ILP model with each linked solver. New models, encodings
/// and solvers slot in by appending values to their enums: every value is picked up here.
pub fn all_options() -> Vec<SolveOptions> {
    let mut all = Vec::new();
    for &solver in SolverKind::LINKED {
        for &model in Model::VARIANTS {
            for &card in CardKind::VARIANTS {
                // Each configuration on its own: no race partner, so the table compares
                // encodings.
                all.push(SolveOptions {
                    backend: Backend::Sat,
                    model,
                    card,
                    solver,
                    race: false,
                    ..SolveOptions::default()
                });
            }
        }
    }
    for &ilp_model in IlpModel::VARIANTS {
        for &ilp_solver in IlpSolver::VARIANTS {
            if ilp_solver.is_available() {
                all.push(SolveOptions {
                    backend: Backend::Ilp,
                    ilp_model,
                    ilp_solver,
                    ..SolveOptions::default()
                });
            }
        }
    }
    all
}

/// A puzzle and the name it is reported under.
pub struct NamedPuzzle {
    /// File name (or any label).
    pub name: String,
    /// The puzzle.
    pub puzzle: Puzzle,
}

/// One configuration on one puzzle.
#[derive(Clone, Debug, Serialize)]
pub struct RunResult {
    /// Configuration name.
    pub config: String,
    /// The solver that answered.
    pub solver: String,
    /// `unsat`, `unique`, `found`, `multiple (N)`, `multiple (N+)`, `timeout` or `error: ...`.
    pub verdict: String,
    /// The first grid found, one string per row (`#` ship, `.` water).
    pub grid: Option<Vec<String>>,
    /// Median wall time over the repeats, encoding included, in milliseconds.
    pub ms: f64,
    /// Repeats run: fewer than asked when the run's share of the time limit, which covers all
    /// its repeats, ran out first (at least one).
    pub repeats: usize,
    /// Variables in the formula or program.
    pub variables: usize,
    /// Clauses or constraints.
    pub constraints: usize,
    /// Whether the verdict and grid match the puzzle's reference.
    pub agrees: bool,
}

/// All configurations on one puzzle.
#[derive(Clone, Debug, Serialize)]
pub struct PuzzleResult {
    /// Puzzle name.
    pub name: String,
    /// The verdict most configurations reached (the first configuration's on a tie).
    pub reference: String,
    /// One entry per configuration, in configuration order.
    pub runs: Vec<RunResult>,
}

/// One configuration over all puzzles.
#[derive(Clone, Debug, Serialize)]
pub struct ConfigSummary {
    /// Configuration name.
    pub name: String,
    /// The solver that answers.
    pub solver: String,
    /// Puzzles decided without error.
    pub solved: usize,
    /// Puzzles run.
    pub total: usize,
    /// Median time per puzzle, milliseconds.
    pub median_ms: f64,
    /// Largest time per puzzle, milliseconds.
    pub max_ms: f64,
    /// Median time relative to the first configuration's (the ratio of the medians).
    pub ratio: f64,
    /// The median over puzzles of this configuration's time divided by the first
    /// configuration's on the same puzzle (a run out of time counts with the time it was given,
    /// so its ratio is a lower bound); what "how many times slower" means per puzzle.
    pub median_ratio: f64,
    /// Median variables per puzzle.
    pub median_variables: usize,
    /// Median clauses or constraints per puzzle.
    pub median_constraints: usize,
    /// Puzzles where this configuration agrees with the reference.
    pub agree: usize,
}

/// The whole comparison.
#[derive(Clone, Debug, Serialize)]
pub struct Comparison {
    /// Solutions looked for per puzzle.
    pub limit: usize,
    /// Runs per puzzle and configuration.
    pub repeat: usize,
    /// Per configuration, in order.
    pub configs: Vec<ConfigSummary>,
    /// Per puzzle.
    pub puzzles: Vec<PuzzleResult>,
}

impl Comparison {
    /// Puzzles on which some configuration disagrees or failed.
    pub fn disagreements(&self) -> Vec<&PuzzleResult> {
        self.puzzles
            .iter()
            .filter(|p| p.runs.iter().any(|r| !r.agrees))
            .collect()
    }

    /// Whether every configuration agrees with the reference on every puzzle (none failed).
    pub fn agrees(&self) -> bool {
        self.disagreements().is_empty()
    }

    /// The whole comparison as pretty-printed JSON, with a final newline.
    pub fn json(&self) -> String {
        serde_json::to_string_pretty(self).expect("comparisons always serialize") + "\n"
    }

    /// The table, one row per configuration, then the disagreements. `ratio` is the ratio of
    /// the medians to the first configuration's, `per-board` the median of the per-puzzle
    /// ratios.
    pub fn table(&self) -> String {
        let done = self.puzzles.iter().flat_map(|p| &p.runs).map(|r| r.repeats);
        let (fewest, most) = (done.clone().min(), done.max());
        let runs = match (fewest, most) {
            (Some(fewest), Some(most)) if fewest < self.repeat => {
                let done = if fewest == most {
                    format!("{fewest}")
                } else {
                    format!("{fewest} to {most}")
                };
                format!(
                    "median of {done} run(s) (of {} asked: the time limit came first)",
                    self.repeat
                )
            }
            _ => format!("median of {} run(s)", self.repeat),
        };
        let mut out = format!(
            "{} puzzles, limit {}, {runs}; times include encoding\n\n",
            self.puzzles.len(),
            self.limit,
        );
        let width = self
            .configs
            .iter()
            .map(|c| c.name.len())
            .max()
            .unwrap_or(0)
            .max("configuration".len());
        let solver_width = self
            .configs
            .iter()
            .map(|c| c.solver.len())
            .max()
            .unwrap_or(0)
            .max("solver".len());
        out.push_str(&format!(
            "{:<width$}  {:<solver_width$}  {:>7}  {:>9}  {:>9}  {:>6}  {:>9}  {:>9}  {:>11}  {:>7}\n",
            "configuration",
            "solver",
            "solved",
            "median ms",
            "max ms",
            "ratio",
            "per-board",
            "variables",
            "constraints",
            "agree"
        ));
        for c in &self.configs {
            out.push_str(&format!(
                "{:<width$}  {:<solver_width$}  {:>7}  {:>9.3}  {:>9.3}  {:>6.2}  {:>9.2}  {:>9}  {:>11}  {:>7}\n",
                c.name,
                c.solver,
                format!("{}/{}", c.solved, c.total),
                c.median_ms,
                c.max_ms,
                c.ratio,
                c.median_ratio,
                c.median_variables,
                c.median_constraints,
                format!("{}/{}", c.agree, c.total),
            ));
        }
        let bad = self.disagreements();
        if bad.is_empty() {
            out.push_str("\nall configurations agree\n");
        } else {
            out.push_str(&format!("\n{} puzzle(s) with disagreements:\n", bad.len()));
            for p in bad {
                out.push_str(&format!("  {} (reference: {})\n", p.name, p.reference));
                for r in p.runs.iter().filter(|r| !r.agrees) {
                    out.push_str(&format!("    {} ({}): {}\n", r.config, r.solver, r.verdict));
                }
            }
        }
        out
    }
}

/// Runs every configuration on every puzzle, `repeat` times each, looking for up to `limit`
/// solutions, the whole comparison within `budget` (`Budget::default()`: no limit). Each run
/// (one configuration on one puzzle, all its repeats) gets an equal share of the time left, so
/// that what a quick run leaves goes to the runs after it; a run whose first repeat is cut
/// short has the verdict `timeout` (see `Config::run`). Once the budget's stop flag is set,
/// every run left ends at once. `step` is called after each puzzle-configuration pair.
pub fn compare(
    puzzles: &[NamedPuzzle],
    configs: &[Config],
    limit: usize,
    repeat: usize,
    budget: &Budget,
    step: &mut dyn FnMut(),
) -> Comparison {
    let (limit, repeat) = (limit.max(1), repeat.max(1));
    let mut runs_left = puzzles.len() * configs.len();
    let mut results = Vec::with_capacity(puzzles.len());
    for p in puzzles {
        let mut runs = Vec::with_capacity(configs.len());
        let mut keys = Vec::with_capacity(configs.len());
        for config in configs {
            // This run's share of what is left; `runs_left` counts this run, so it is >= 1.
            let share = Budget {
                deadline: budget.deadline.share(1.0 / runs_left as f64),
                ..budget.clone()
            };
            runs_left -= 1;
            let (run, key) = run_one(&p.puzzle, config, limit, repeat, &share);
            runs.push(run);
            keys.push(key);
            step();
        }
        let reference = reference(&keys);
        for (run, key) in runs.iter_mut().zip(&keys) {
            run.agrees = key.is_some() && *key == reference;
        }
        results.push(PuzzleResult {
            name: p.name.clone(),
            reference: reference
                .as_ref()
                .map_or("none (every configuration failed)".to_string(), |k| {
                    k.verdict.clone()
                }),
            runs,
        });
    }
    let first_median = summary_times(&results, 0).0;
    let configs = configs
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let runs: Vec<&RunResult> = results.iter().map(|p| &p.runs[i]).collect();
            let (median_ms, max_ms) = summary_times(&results, i);
            ConfigSummary {
                name: c.name.clone(),
                solver: c.solver.clone(),
                solved: runs
                    .iter()
                    .filter(|r| !r.verdict.starts_with("error") && r.verdict != TIMEOUT)
                    .count(),
                total: runs.len(),
                median_ms,
                max_ms,
                ratio: if first_median > 0.0 {
                    median_ms / first_median
                } else {
                    f64::NAN
                },
                median_ratio: median_ratio(&results, i),
                median_variables: median_usize(runs.iter().map(|r| r.variables).collect()),
                median_constraints: median_usize(runs.iter().map(|r| r.constraints).collect()),
                agree: runs.iter().filter(|r| r.agrees).count(),
            }
        })
        .collect();
    Comparison {
        limit,
        repeat,
        configs,
        puzzles: results,
    }
}

/// The verdict of a run that the budget stopped.
pub(crate) const TIMEOUT: &str = "timeout";

/// What two configurations must share to agree.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Key {
    verdict: String,
    /// The grid, when the verdict pins it down (a unique solution).
    grid: Option<Grid>,
}

fn run_one(
    puzzle: &Puzzle,
    config: &Config,
    limit: usize,
    repeat: usize,
    budget: &Budget,
) -> (RunResult, Option<Key>) {
    // The budget is the run's share, all its repeats together: the first repeat has all of it,
    // each later one what is left, and the repeats stop once it is spent (a repeat cut short by
    // it is not timed).
    let mut times = Vec::with_capacity(repeat.min(1024));
    let mut first = None;
    for _ in 0..repeat {
        if first.is_some() && budget.deadline.passed() {
            break;
        }
        let start = Instant::now();
        let report = config.run(puzzle, limit, budget);
        let time = start.elapsed();
        match first {
            None => {
                times.push(time);
                first = Some(report);
            }
            Some(_) if stopped(&report) => break,
            Some(_) => times.push(time),
        }
    }
    let repeats = times.len();
    let ms = median_duration(&mut times).as_secs_f64() * 1e3;
    let mut run = RunResult {
        config: config.name.clone(),
        solver: config.solver.clone(),
        verdict: String::new(),
        grid: None,
        ms,
        repeats,
        variables: 0,
        constraints: 0,
        agrees: false,
    };
    let key = match first {
        // Out of time, before the first grid or after some: no verdict to compare.
        Some(Err(solve::SolveError::TimeLimit | solve::SolveError::Interrupted)) => {
            run.verdict = TIMEOUT.to_string();
            None
        }
        Some(Ok(report)) if report.stop.is_some() => {
            run.verdict = TIMEOUT.to_string();
            run.variables = report.stats.variables;
            run.constraints = report.stats.constraints;
            None
        }
        Some(Ok(report)) => {
            run.variables = report.stats.variables;
            run.constraints = report.stats.constraints;
            run.grid = report.outcome.grid().map(grid_rows);
            let (verdict, grid) = match &report.outcome {
                Outcome::Unsat => ("unsat".to_string(), None),
                Outcome::Unique(g) => ("unique".to_string(), Some(g.clone())),
                Outcome::Found(_) => ("found".to_string(), None),
                Outcome::Multiple { grids, complete } => {
                    let more = if *complete { "" } else { "+" };
                    (format!("multiple ({}{more})", grids.len()), None)
                }
            };
            run.verdict = verdict.clone();
            Some(Key { verdict, grid })
        }
        Some(Err(e)) => {
            run.verdict = format!("error: {e}");
            None
        }
        None => unreachable!("repeat is at least 1"),
    };
    (run, key)
}

/// Whether a run's time budget stopped it.
fn stopped(report: &Result<solve::Report, solve::SolveError>) -> bool {
    match report {
        Err(solve::SolveError::TimeLimit | solve::SolveError::Interrupted) => true,
        Ok(report) => report.stop.is_some(),
        Err(_) => false,
    }
}

/// The key most configurations share; the earliest on a tie.
fn reference(keys: &[Option<Key>]) -> Option<Key> {
    let mut best: Option<(&Key, usize)> = None;
    for key in keys.iter().flatten() {
        let n = keys.iter().filter(|k| k.as_ref() == Some(key)).count();
        if best.is_none_or(|(_, m)| n > m) {
            best = Some((key, n));
        }
    }
    best.map(|(k, _)| k.clone())
}

fn grid_rows(grid: &Grid) -> Vec<String> {
    (0..grid.rows())
        .map(|r| {
            (0..grid.cols())
                .map(|c| {
                    if grid.is_ship(Pos::new(r, c)) {
                        '#'
                    } else {
                        '.'
                    }
                })
                .collect()
        })
        .collect()
}

fn summary_times(results: &[PuzzleResult], i: usize) -> (f64, f64) {
    let mut ms: Vec<f64> = results
        .iter()
        .filter_map(|p| p.runs.get(i))
        .map(|r| r.ms)
        .collect();
    ms.sort_by(f64::total_cmp);
    let max = ms.last().copied().unwrap_or(0.0);
    let median = match ms.len() {
        0 => 0.0,
        n if n % 2 == 1 => ms[n / 2],
        n => (ms[n / 2 - 1] + ms[n / 2]) / 2.0,
    };
    (median, max)
}

/// The median over puzzles of configuration `i`'s time over the first configuration's (puzzles
/// where the first took no measurable time left out; NaN when none is left).
fn median_ratio(results: &[PuzzleResult], i: usize) -> f64 {
    let mut ratios: Vec<f64> = results
        .iter()
        .filter_map(|p| Some((p.runs.first()?.ms, p.runs.get(i)?.ms)))
        .filter(|&(first, _)| first > 0.0)
        .map(|(first, this)| this / first)
        .collect();
    ratios.sort_by(f64::total_cmp);
    match ratios.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => ratios[n / 2],
        n => (ratios[n / 2 - 1] + ratios[n / 2]) / 2.0,
    }
}

fn median_usize(mut v: Vec<usize>) -> usize {
    v.sort_unstable();
    v.get(v.len() / 2).copied().unwrap_or(0)
}

fn median_duration(v: &mut [Duration]) -> Duration {
    v.sort_unstable();
    v.get(v.len() / 2).copied().unwrap_or_default()
}

fn has_ext(path: &Path, ext: &[String]) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| ext.iter().any(|x| x.trim_start_matches('.') == e))
}

/// The puzzles of a comparison, and how many files of the folders were skipped.
#[derive(Default)]
pub struct PuzzleSet {
    /// Every board read, in file order.
    pub puzzles: Vec<NamedPuzzle>,
    /// Files of the folders that hold no puzzle (solutions, notes, archives): not text, or of
    /// no known format.
    pub skipped: usize,
}

/// Reads every board of the files named by `paths` in `format`. Folders give their files with
/// one of the extensions `ext`, sorted by name; those that are not text or whose format is not
/// detected (solution files beside the puzzles) are skipped, as `batch` skips them. A file named
/// in `paths` must be a puzzle. A file of one board is named by its path; a file of several
/// boards (Rubin) contributes each, named `path#ID` (or `path#N`). Files are read within
/// `limits`.
pub fn read_puzzles(
    paths: &[PathBuf],
    ext: &[String],
    format: Format,
    limits: &Limits,
) -> Result<PuzzleSet, Error> {
    let mut set = PuzzleSet::default();
    for path in paths {
        let read: Vec<(Source, Format)> = if path.is_dir() {
            let mut read = Vec::new();
            for file in folder_files(path)?.into_iter().filter(|p| has_ext(p, ext)) {
                match Source::read_listed(&file, format, limits)? {
                    Some(found) => read.push(found),
                    None => set.skipped += 1,
                }
            }
            read
        } else {
            let source = Source::read(path, limits)?;
            let format = source.format(format)?;
            vec![(source, format)]
        };
        for (source, format) in read {
            let doc = source.document(format, limits)?;
            let several = doc.boards.len() > 1;
            for (i, board) in doc.boards.into_iter().enumerate() {
                let name = match (several, board.id) {
                    (false, _) => source.name.clone(),
                    (true, Some(id)) => format!("{}#{id}", source.name),
                    (true, None) => format!("{}#{}", source.name, i + 1),
                };
                set.puzzles.push(NamedPuzzle {
                    name,
                    puzzle: board.puzzle,
                });
            }
        }
    }
    Ok(set)
}
