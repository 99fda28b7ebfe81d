//! Choosing a backend and running it: every engine enumerates grids, every grid passes the
//! independent verifier, and the result is an [`Outcome`] (`Unsat`, `Unique`, `Multiple`,
//! `Found`) with [`Stats`]. "No solution" and "not unique" are outcomes, not errors.
//!
//! Solving within a time limit ([`SolveOptions::budget`]). The
//! SAT engine checks the deadline while it enumerates placements, pre-solves and encodes, and an
//! alarm (`Deadline::alarm`) sets the solver's stop flag at the
//! deadline. An ILP solve runs on a worker thread that is left at the deadline, or when the
//! caller's stop flag is set (the grids it found by then are kept); it ends by itself soon
//! after, because the engine hands the solver the time left as its own limit, and a flag raised
//! as the call returns stops the engine between its nodes and microlp between slices of its
//! branch-and-bound ([`crate::encode::ilp::engine`]). An answer that is complete is never
//! thrown away, even if it comes a moment after the deadline.

use crate::encode::ilp::{IlpCuts, IlpEngine, IlpModel, IlpObjective, IlpOptions, IlpSolver};
use crate::encode::sat::card::CardKind;
use crate::encode::sat::engine::{SatConfig, SatEngine};
use crate::encode::sat::model::Model;
use crate::encode::sat::redundant::Redundant;
use crate::model::deadline::{Budget, StopOnDrop};
use crate::model::outcome::outcome_of;
pub use crate::model::outcome::{
    Engine, Outcome, Report, SatSetup, SolveError, SolvedBy, Stats, Stop,
};
use crate::model::puzzle::{Grid, Puzzle};
pub use crate::model::setup::Backend;
use crate::model::verify::verify;
use crate::solver::SolverKind;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{RecvTimeoutError, channel};
use std::time::Duration;

/// How often an ILP solve on its worker thread looks at the caller's stop flag.
const STOP_POLL: Duration = Duration::from_millis(50);

/// What solving is to establish.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Goal {
    /// One solution, uniqueness not examined.
    #[default]
    First,
    /// One solution, proved unique: several solutions are reported, not shown.
    Unique,
    /// Every solution up to this many, each shown, then how many there are.
    Count(usize),
}

impl Goal {
    /// How many solutions the engine looks for.
    pub(crate) fn limit(self) -> usize {
        match self {
            Goal::First => 1,
            Goal::Unique => 2,
            Goal::Count(n) => n.max(1),
        }
    }
}

/// How to solve.
#[derive(Clone, Debug)]
pub struct SolveOptions {
    /// Which backend.
    pub backend: Backend,
    /// Cardinality encoding for the SAT backend.
    pub card: CardKind,
    /// CNF model for the SAT backend.
    pub model: Model,
    /// What to establish, and so how many solutions to look for (`Goal::limit`): one finds
    /// one, two prove uniqueness, N count up to N.
    pub goal: Goal,
    /// SAT backend: give calls that need more than the chosen configuration's solo conflicts
    /// to the hard-question stages (see [`crate::encode::sat::engine`]); the answer stays
    /// deterministic. Off: the chosen configuration answers every call.
    pub race: bool,
    /// SAT backend: threads a hard call's portfolio may use (the lead, the specialist and more;
    /// see [`crate::encode::sat::engine`]). 1 gives hard calls to the specialist alone. The
    /// default is every core of the machine, and more than that runs as many threads as there
    /// are cores ([`crate::usecase::usable_threads`]; 0 counts as 1).
    pub threads: usize,
    /// What the solve may spend: past its deadline it fails with [`SolveError::TimeLimit`], or
    /// returns the grids found so far with [`Report::stop`] set; once its stop flag is set
    /// (from any thread, for example by a timer or a Ctrl-C handler) the solve stops — the SAT
    /// solver at its next conflict, the ILP engine between its nodes (with microlp also between
    /// slices of microlp's own branch-and-bound) — and the call fails with
    /// [`SolveError::Interrupted`] (or returns the grids found with [`Report::stop`] set). Placement enumeration, pre-solving and
    /// encoding check the deadline as they go; the SAT solver is stopped at its next conflict
    /// (a timer sets the stop flag); the MIP solver is given the time left as its own limit and
    /// the ILP engine checks the deadline between solver calls.
    pub budget: Budget,
    /// Integer program for the ILP backend.
    pub ilp_model: IlpModel,
    /// MIP solver for the ILP backend.
    pub ilp_solver: IlpSolver,
    /// ILP backend: valid inequalities added to the program (none by default; see
    /// `encodings/ilp-ship.md`).
    pub ilp_cuts: IlpCuts,
    /// ILP backend: the objective of each solver call (a branching device).
    pub ilp_objective: IlpObjective,
    /// SAT solver for the SAT backend.
    pub solver: SolverKind,
    /// Apply the sound pre-solving rules of [`crate::reason::deduce`] before encoding, with
    /// either backend, and the ILP backend's root presolve (on by default; off gives the plain
    /// encoding, for encoding research).
    pub presolve: bool,
    /// SAT backend: after pre-solving, the native search ([`crate::reason::search`]) looks for
    /// the solutions within this many branch nodes before a solver is built; the solver carries
    /// on from what it found. 0 turns it off; the default is
    /// [`crate::encode::sat::engine::NATIVE_NODES`]. Needs `presolve`.
    pub native: u64,
    /// SAT backend: redundant constraints added to the encoding (none by default; see
    /// `encodings/redundant.md`).
    pub redundant: Redundant,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            backend: Backend::Sat,
            card: CardKind::default(),
            model: Model::default(),
            goal: Goal::First,
            race: true,
            threads: crate::encode::sat::engine::default_threads(),
            budget: Budget::default(),
            ilp_model: IlpModel::default(),
            ilp_solver: IlpSolver::default(),
            ilp_cuts: IlpCuts::NONE,
            ilp_objective: IlpObjective::default(),
            solver: SolverKind::default(),
            presolve: true,
            native: crate::encode::sat::engine::NATIVE_NODES,
            redundant: Redundant::NONE,
        }
    }
}

impl SolveOptions {
    /// Options that find one solution and prove it unique.
    pub fn unique() -> Self {
        SolveOptions {
            goal: Goal::Unique,
            ..SolveOptions::default()
        }
    }
}

/// The SAT engine's configuration in `options`.
fn sat_config(options: &SolveOptions) -> SatConfig {
    SatConfig {
        model: options.model,
        card: options.card,
        solver: options.solver,
        race: options.race,
        threads: crate::encode::sat::engine::usable_threads(options.threads),
        presolve: options.presolve,
        native: if options.presolve { options.native } else { 0 },
        limit: options.goal.limit(),
        redundant: options.redundant,
        budget: options.budget.clone(),
        schedule: Default::default(),
    }
}

/// The ILP engine's options in `options`.
pub(crate) fn ilp_options(options: &SolveOptions) -> IlpOptions {
    IlpOptions {
        model: options.ilp_model,
        solver: options.ilp_solver,
        cuts: options.ilp_cuts,
        objective: options.ilp_objective,
        presolve: options.presolve,
    }
}

/// Builds the engine for `options.backend`.
pub(crate) fn engine(puzzle: &Puzzle, options: &SolveOptions) -> Box<dyn Engine> {
    match options.backend {
        Backend::Sat => Box::new(SatEngine::new(puzzle, &sat_config(options))),
        Backend::Ilp => Box::new(IlpEngine::build(
            puzzle,
            &ilp_options(options),
            &options.budget,
        )),
    }
}

/// Solves `puzzle`, looking for as many solutions as `options.goal` needs, and verifies every grid;
/// within `options.budget`.
pub fn solve(puzzle: &Puzzle, options: &SolveOptions) -> Result<Report, SolveError> {
    let result = if options.budget.deadline.is_set() {
        solve_by_deadline(puzzle, options)
    } else {
        let mut engine = engine(puzzle, options);
        run(puzzle, engine.as_mut(), options.goal.limit())
    };
    // The phases before the solver (placements, pre-solving, encoding) read the stop flag
    // through the deadline and answer `TimeLimit`: the caller set the flag, not the clock.
    let flagged = options.budget.deadline.stopped() && !options.budget.deadline.time_is_up();
    match result {
        Err(SolveError::TimeLimit) if flagged => Err(SolveError::Interrupted),
        Ok(Report {
            outcome,
            stats,
            stop: Some(Stop::TimeLimit),
        }) if flagged => Ok(Report {
            outcome,
            stats,
            stop: Some(Stop::Interrupted),
        }),
        other => other,
    }
}

/// Enumerates up to `limit` solutions with `engine`, verifying each.
pub(crate) fn run(
    puzzle: &Puzzle,
    engine: &mut dyn Engine,
    limit: usize,
) -> Result<Report, SolveError> {
    run_each(puzzle, engine, limit, |_| {})
}

/// [`run`], handing each verified grid to `each` as it is found. When the engine is stopped
/// (time limit or stop flag) after some grids, they are reported with [`Report::stop`]; before
/// any, the stop is the error.
pub(crate) fn run_each(
    puzzle: &Puzzle,
    engine: &mut dyn Engine,
    limit: usize,
    mut each: impl FnMut(&Grid),
) -> Result<Report, SolveError> {
    let limit = limit.max(1);
    let mut grids = Vec::new();
    let mut complete = false;
    let mut stop = None;
    while grids.len() < limit {
        match engine.next_solution() {
            Ok(Some(grid)) => {
                verify(puzzle, &grid)?;
                each(&grid);
                grids.push(grid);
            }
            Ok(None) => {
                complete = true;
                break;
            }
            Err(e) if e.stop().is_some() && !grids.is_empty() => {
                stop = e.stop();
                break;
            }
            Err(e) => return Err(e),
        }
    }
    Ok(Report {
        outcome: outcome_of(grids, complete),
        stats: engine.stats(),
        stop,
    })
}

/// Solves `puzzle` with `options`, giving up at the budget's deadline with
/// [`SolveError::TimeLimit`], or with the grids found so far.
fn solve_by_deadline(puzzle: &Puzzle, options: &SolveOptions) -> Result<Report, SolveError> {
    let deadline = options.budget.deadline.clone();
    let options = options.clone();
    if options.backend == Backend::Sat {
        let stop = options.budget.stop().cloned().unwrap_or_default();
        let alarm = deadline.alarm(stop.clone());
        let options = SolveOptions {
            budget: options.budget.clone().stopped_by(stop),
            ..options
        };
        let mut engine = SatEngine::new(puzzle, &sat_config(&options));
        let result = run_each(puzzle, &mut engine, options.goal.limit(), |_| {});
        // Freeing a large solver takes a while (0.3 s on a 200x200 board): not on the
        // caller's time once the limit is reached.
        deadline.discard(engine);
        let fired = alarm.fired();
        drop(alarm);
        return match result {
            Err(SolveError::Interrupted) if fired => Err(SolveError::TimeLimit),
            Ok(report) if fired && report.stop == Some(Stop::Interrupted) => Ok(Report {
                stop: Some(Stop::TimeLimit),
                ..report
            }),
            r => r,
        };
    }
    enum Message {
        Grid(Grid),
        Done(Result<Report, SolveError>),
    }
    let (tx, rx) = channel();
    let puzzle = puzzle.clone();
    let limit = options.goal.limit();
    // The worker's own flag: raised when this call gives up (deadline or the caller's flag), so
    // that the engine stops between nodes instead of running on, abandoned.
    let caller_stop = options.budget.stop().cloned();
    let stop = Arc::new(AtomicBool::new(false));
    let options = SolveOptions {
        budget: options.budget.clone().stopped_by(stop.clone()),
        ..options
    };
    let _raise = StopOnDrop(stop);
    std::thread::spawn(move || {
        // The receiver may be gone after a time-out; nothing is lost then.
        let mut engine = engine(&puzzle, &options);
        let done = run_each(&puzzle, engine.as_mut(), limit, |grid| {
            let _ = tx.send(Message::Grid(grid.clone()));
        });
        let _ = tx.send(Message::Done(done));
    });
    let mut grids = Vec::new();
    let stopped = || {
        caller_stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
    };
    loop {
        let left = deadline.remaining().unwrap_or_default();
        match rx.recv_timeout(left.min(STOP_POLL)) {
            Ok(Message::Grid(grid)) => grids.push(grid),
            Ok(Message::Done(r)) => return r,
            Err(RecvTimeoutError::Timeout) if !deadline.passed() && !stopped() => continue,
            Err(_) if grids.is_empty() && stopped() => return Err(SolveError::Interrupted),
            Err(_) if grids.is_empty() => return Err(SolveError::TimeLimit),
            Err(_) => {
                return Ok(Report {
                    outcome: outcome_of(grids, false),
                    stats: Stats {
                        backend: Backend::Ilp,
                        ..Stats::default()
                    },
                    stop: Some(if stopped() {
                        Stop::Interrupted
                    } else {
                        Stop::TimeLimit
                    }),
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {

    use super::*;
    use crate::format::ist;
    use std::time::Duration;

    #[test]
    fn a_zero_limit_is_always_reached_and_a_long_one_never() {
        let puzzle = ist::parse(include_str!("../../../puzzles/ist-example.txt")).unwrap();
        for backend in [Backend::Sat, Backend::Ilp] {
            let options = |limit| SolveOptions {
                backend,
                budget: Budget::within(Some(limit)),
                ..SolveOptions::unique()
            };
            assert!(matches!(
                solve(&puzzle, &options(Duration::ZERO)),
                Err(SolveError::TimeLimit)
            ));
            let report = solve(&puzzle, &options(Duration::from_secs(600))).unwrap();
            assert!(matches!(report.outcome, crate::Outcome::Unique(_)));
            assert_eq!(report.stop, None);
        }
    }

    /// An engine that hands out its grids, then runs out of time.
    struct TimesOutAfter(Vec<Grid>);

    impl Engine for TimesOutAfter {
        fn next_solution(&mut self) -> Result<Option<Grid>, SolveError> {
            if self.0.is_empty() {
                Err(SolveError::TimeLimit)
            } else {
                Ok(Some(self.0.remove(0)))
            }
        }
        fn stats(&self) -> Stats {
            Stats::default()
        }
    }

    #[test]
    fn a_time_out_is_the_error_before_any_grid_and_the_report_s_stop_after_some() {
        let puzzle = ist::parse(include_str!("../../../puzzles/ist-example.txt")).unwrap();
        let grid = solve(&puzzle, &SolveOptions::default())
            .unwrap()
            .outcome
            .grid()
            .cloned()
            .unwrap();
        let none = run(&puzzle, &mut TimesOutAfter(Vec::new()), 2);
        assert!(matches!(none, Err(SolveError::TimeLimit)));
        let some = run(&puzzle, &mut TimesOutAfter(vec![grid.clone()]), 2).unwrap();
        assert_eq!(some.stop, Some(Stop::TimeLimit));
        assert_eq!(some.outcome, Outcome::Found(grid));
    }

    #[test]
    fn a_passed_deadline_stops_placement_enumeration_on_a_large_board() {
        let puzzle = crate::Puzzle::new(
            vec![Some(1); 400],
            vec![Some(1); 400],
            crate::Fleet::from_counts(vec![400]),
        )
        .unwrap();
        let options = SolveOptions {
            budget: Budget::within(Some(Duration::ZERO)),
            ..SolveOptions::default()
        };
        assert!(matches!(
            solve(&puzzle, &options),
            Err(SolveError::TimeLimit)
        ));
    }
}
