//! Solving within a time limit ([`SolveOptions::time_limit`], [`SolveOptions::deadline`]). The
//! SAT engine checks the deadline while it enumerates placements, pre-solves and encodes, and an
//! alarm ([`Deadline::alarm`]) sets the solver's stop flag at the deadline. An ILP solve runs on a
//! worker thread that is left at the deadline, or when the caller's stop flag is set (the grids
//! it found by then are kept); it ends by itself soon after, because the engine hands the solver
//! the time left as its own limit, and a flag raised as the call returns stops the engine between
//! its nodes and microlp between slices of its branch-and-bound ([`crate::ilp::engine`]). An answer that is complete is never thrown away, even if
//! it comes a moment after the deadline.

use super::{
    Backend, Report, SolveError, SolveOptions, Stats, engine, outcome_of, run_each, sat_config,
};
use crate::deadline::Deadline;
use crate::puzzle::{Grid, Puzzle};
use crate::sat::engine::SatEngine;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{RecvTimeoutError, channel};
use std::time::Duration;

/// How often an ILP solve on its worker thread looks at the caller's stop flag.
const STOP_POLL: Duration = Duration::from_millis(50);

/// Raises its flag when dropped: the worker thread of an ILP solve stops once the call returns.
struct RaiseOnDrop(Arc<AtomicBool>);

impl Drop for RaiseOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Solves `puzzle` with `options` (whose own limits are replaced by `deadline`), giving up at
/// `deadline` with [`SolveError::TimeLimit`], or with the grids found so far.
pub(super) fn solve_within(
    puzzle: &Puzzle,
    options: &SolveOptions,
    deadline: Deadline,
) -> Result<Report, SolveError> {
    let options = SolveOptions {
        time_limit: None,
        deadline,
        ..options.clone()
    };
    if options.backend == Backend::Sat {
        let stop = options.stop.clone().unwrap_or_default();
        let alarm = deadline.alarm(stop.clone());
        let options = SolveOptions {
            stop: Some(stop),
            ..options
        };
        let mut engine = SatEngine::new(puzzle, &sat_config(&options));
        let result = run_each(puzzle, &mut engine, options.limit, |_| {});
        // Freeing a large solver takes a while (0.3 s on a 200x200 board): not on the
        // caller's time once the limit is reached.
        deadline.discard(engine);
        let fired = alarm.fired();
        drop(alarm);
        return match result {
            Err(SolveError::Interrupted) if fired => Err(SolveError::TimeLimit),
            r => r,
        };
    }
    enum Message {
        Grid(Grid),
        Done(Result<Report, SolveError>),
    }
    let (tx, rx) = channel();
    let puzzle = puzzle.clone();
    let limit = options.limit;
    // The worker's own flag: raised when this call gives up (deadline or the caller's flag), so
    // that the engine stops between nodes instead of running on, abandoned.
    let caller_stop = options.stop.clone();
    let stop = Arc::new(AtomicBool::new(false));
    let options = SolveOptions {
        stop: Some(stop.clone()),
        ..options
    };
    let _raise = RaiseOnDrop(stop);
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
                        backend: "ilp",
                        ..Stats::default()
                    },
                    stopped: true,
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::solve;
    use super::*;
    use crate::format::ist;
    use std::time::Duration;

    #[test]
    fn a_zero_limit_is_always_reached_and_a_long_one_never() {
        let puzzle = ist::parse(include_str!("../../puzzles/ist-example.txt")).unwrap();
        for backend in [Backend::Sat, Backend::Ilp] {
            let options = |limit| SolveOptions {
                backend,
                time_limit: Some(limit),
                ..SolveOptions::unique()
            };
            assert!(matches!(
                solve(&puzzle, &options(Duration::ZERO)),
                Err(SolveError::TimeLimit)
            ));
            let report = solve(&puzzle, &options(Duration::from_secs(600))).unwrap();
            assert!(matches!(report.outcome, crate::Outcome::Unique(_)));
            assert!(!report.stopped);
        }
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
            deadline: Deadline::after(Duration::ZERO),
            ..SolveOptions::default()
        };
        assert!(matches!(
            solve(&puzzle, &options),
            Err(SolveError::TimeLimit)
        ));
    }
}
