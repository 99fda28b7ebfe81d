//! Solving within a time limit ([`SolveOptions::time_limit`]). The SAT backend is stopped by a
//! timer thread that sets its stop flag; good_lp's solvers cannot be stopped, so an ILP solve
//! runs on a worker thread that is abandoned at the limit. A report that arrives after the
//! limit counts as too late.

use super::{Backend, Report, SolveError, SolveOptions, solve};
use crate::puzzle::Puzzle;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// Solves `puzzle` with `options` (whose own time limit is ignored), giving up after `limit`
/// with [`SolveError::TimeLimit`].
pub(super) fn solve_within(
    puzzle: &Puzzle,
    options: &SolveOptions,
    limit: Duration,
) -> Result<Report, SolveError> {
    let start = Instant::now();
    let in_time = |r| {
        if start.elapsed() < limit {
            r
        } else {
            Err(SolveError::TimeLimit)
        }
    };
    let options = SolveOptions {
        time_limit: None,
        ..options.clone()
    };
    if options.backend == Backend::Sat {
        let stop = options.stop.clone().unwrap_or_default();
        let fired = Arc::new(AtomicBool::new(false));
        let (done, wait) = channel::<()>();
        let timer = {
            let (stop, fired) = (stop.clone(), fired.clone());
            std::thread::spawn(move || {
                // Dropping `done` ends the wait early when the solve finishes in time.
                if let Err(RecvTimeoutError::Timeout) = wait.recv_timeout(limit) {
                    fired.store(true, Ordering::Relaxed);
                    stop.store(true, Ordering::Relaxed);
                }
            })
        };
        let options = SolveOptions {
            stop: Some(stop),
            ..options
        };
        let result = solve(puzzle, &options);
        drop(done);
        let _ = timer.join();
        return match result {
            Err(SolveError::Interrupted) if fired.load(Ordering::Relaxed) => {
                Err(SolveError::TimeLimit)
            }
            r => in_time(r),
        };
    }
    let (tx, rx) = channel();
    let puzzle = puzzle.clone();
    std::thread::spawn(move || {
        // The receiver may be gone after a time-out; nothing is lost then.
        let _ = tx.send(solve(&puzzle, &options));
    });
    match rx.recv_timeout(limit) {
        Ok(r) => in_time(r),
        Err(_) => Err(SolveError::TimeLimit),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::ist;

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
        }
    }
}
