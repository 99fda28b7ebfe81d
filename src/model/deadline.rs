//! Time limits that hold: a [`Deadline`] is passed down to every phase that can run long
//! (placement enumeration, pre-solving, encoding, solving, hints, grades, posteriors), and each
//! checks it at the granularity of its loops (`Deadline::check`, or `Pulse` in tight
//! loops, which reads the clock once every few thousand steps so that the check costs
//! nothing measurable). A phase that finds the deadline passed stops with [`TimeLimit`]. The
//! deadline carries the call's stop flag too ([`Deadline::stopped_by`]): Ctrl-C in Python or a
//! server whose client went away sets it, and every phase stops at its next check.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The time limit was reached before the work was done.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, thiserror::Error)]
#[error("time limit reached")]
pub struct TimeLimit;

/// A point in time after which work gives up, or none (never), and the stop flag of the call
/// it belongs to, if any: once another thread sets the flag (Ctrl-C in Python, a server whose
/// client went away), the deadline counts as passed, so that every phase that checks its
/// deadline stops at its next check.
#[derive(Clone, Debug, Default)]
pub struct Deadline {
    at: Option<Instant>,
    stop: Option<Arc<AtomicBool>>,
}

/// Two deadlines are equal when they end at the same instant and read the same flag.
impl PartialEq for Deadline {
    fn eq(&self, other: &Self) -> bool {
        self.at == other.at
            && match (&self.stop, &other.stop) {
                (Some(a), Some(b)) => Arc::ptr_eq(a, b),
                (None, None) => true,
                _ => false,
            }
    }
}

impl Eq for Deadline {}

impl Deadline {
    /// No deadline: `Deadline::check` always passes.
    pub const NONE: Deadline = Deadline {
        at: None,
        stop: None,
    };

    /// The deadline `limit` from now. A limit too far away for the clock is no deadline.
    pub fn after(limit: Duration) -> Self {
        Deadline {
            at: Instant::now().checked_add(limit),
            stop: None,
        }
    }

    /// The deadline at `instant`.
    pub fn at(instant: Instant) -> Self {
        Deadline {
            at: Some(instant),
            stop: None,
        }
    }

    /// `limit` from now when given, else none.
    pub fn within(limit: Option<Duration>) -> Self {
        limit.map_or(Deadline::NONE, Deadline::after)
    }

    /// This deadline, passed also once `flag` is set.
    pub fn stopped_by(self, flag: Arc<AtomicBool>) -> Self {
        Deadline {
            stop: Some(flag),
            ..self
        }
    }

    /// The stop flag this deadline reads, if any.
    pub(crate) fn stop_flag(&self) -> Option<&Arc<AtomicBool>> {
        self.stop.as_ref()
    }

    /// Whether the stop flag is set (not whether the time is up).
    pub(crate) fn stopped(&self) -> bool {
        self.stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
    }

    /// The earlier of two deadlines, reading this one's stop flag, else the other's.
    pub(crate) fn min(&self, other: &Deadline) -> Self {
        let at = match (self.at, other.at) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        Deadline {
            at,
            stop: self.stop.clone().or_else(|| other.stop.clone()),
        }
    }

    /// Whether there is a deadline at all (a stop flag alone is none).
    pub(crate) fn is_set(&self) -> bool {
        self.at.is_some()
    }

    /// Whether the deadline has passed, or its stop flag is set.
    pub(crate) fn passed(&self) -> bool {
        self.stopped() || self.time_is_up()
    }

    /// Whether the time has come (whatever the stop flag says).
    pub(crate) fn time_is_up(&self) -> bool {
        self.at.is_some_and(|at| Instant::now() >= at)
    }

    /// `Err(TimeLimit)` once the deadline has passed or its stop flag is set (the caller that
    /// set the flag knows it was not the time).
    pub(crate) fn check(&self) -> Result<(), TimeLimit> {
        if self.passed() {
            Err(TimeLimit)
        } else {
            Ok(())
        }
    }

    /// The time left (zero once passed), `None` without a deadline.
    pub fn remaining(&self) -> Option<Duration> {
        self.at
            .map(|at| at.saturating_duration_since(Instant::now()))
    }

    /// The deadline `share` of the way from now to this one (`share` in 0..=1); none stays
    /// none. Used to give one part of a job its share of the time left.
    pub fn share(&self, share: f64) -> Self {
        let at = self
            .remaining()
            .and_then(|left| Instant::now().checked_add(left.mul_f64(share.clamp(0.0, 1.0))));
        Deadline {
            at,
            stop: self.stop.clone(),
        }
    }

    /// A timer that sets `flag` at this deadline (a SAT solver checks such a flag at every
    /// conflict); no timer without a deadline. Dropping the alarm stops its timer.
    pub(crate) fn alarm(&self, flag: Arc<AtomicBool>) -> Alarm {
        let fired = Arc::new(AtomicBool::new(false));
        let Some(left) = self.remaining() else {
            return Alarm {
                cancel: None,
                timer: None,
                fired,
            };
        };
        let (cancel, wait) = mpsc::channel::<()>();
        let timer = {
            let fired = fired.clone();
            std::thread::spawn(move || {
                // Dropping `cancel` ends the wait early.
                if let Err(mpsc::RecvTimeoutError::Timeout) = wait.recv_timeout(left) {
                    fired.store(true, Ordering::Relaxed);
                    flag.store(true, Ordering::Relaxed);
                }
            })
        };
        Alarm {
            cancel: Some(cancel),
            timer: Some(timer),
            fired,
        }
    }

    /// Frees `value` on a thread of its own if this deadline has passed, else here: a large
    /// formula takes a while to free (a third of a second for a 50x50 board's), which is no
    /// longer the caller's time once the limit is reached.
    pub(crate) fn discard<T: Send + 'static>(&self, value: T) {
        if self.passed() {
            std::thread::spawn(move || drop(value));
        }
    }

    /// A checker for a tight loop: reads the clock every [`Pulse::EVERY`] beats.
    pub(crate) fn pulse(&self) -> Pulse {
        Pulse {
            deadline: self.clone(),
            beats: 0,
        }
    }
}

/// What a call may spend before it gives up: a [`Deadline`], which carries the call's
/// interrupt flag that any thread may set (a timer, Ctrl-C, a server whose client went away),
/// and a cap on search nodes. Every use case that can run long takes one budget; none comes
/// in twins, one with a limit and one without (`Budget::default()` is no limit at all).
#[derive(Clone, Debug, Default)]
pub struct Budget {
    /// When to give up, and the stop flag; none by default. Once the flag is set, the work
    /// stops at its next check (a SAT solver at its next conflict).
    pub deadline: Deadline,
    /// At most this many branch nodes, where a native search runs
    /// ([`crate::reason::search`]).
    pub nodes: Option<u64>,
    /// At most this many conflicts for each SAT question, where a use case asks many (the
    /// generator's uniqueness checks): a question that runs out is left unanswered, not failed.
    pub conflicts: Option<u64>,
}

impl Budget {
    /// A budget that ends at `deadline`.
    pub fn until(deadline: Deadline) -> Self {
        Budget {
            deadline,
            ..Budget::default()
        }
    }

    /// A budget that ends `limit` from now, when a limit is given; else no limit.
    pub fn within(limit: Option<Duration>) -> Self {
        Budget::until(Deadline::within(limit))
    }

    /// This budget, ending at `deadline` if that comes first.
    pub(crate) fn until_earlier(&self, deadline: &Deadline) -> Self {
        Budget {
            deadline: self.deadline.min(deadline),
            ..self.clone()
        }
    }

    /// This budget, stopped also by `flag` (in place of the flag it had).
    pub fn stopped_by(self, flag: Arc<AtomicBool>) -> Self {
        Budget {
            deadline: self.deadline.stopped_by(flag),
            ..self
        }
    }

    /// The stop flag, if the budget has one.
    pub(crate) fn stop(&self) -> Option<&Arc<AtomicBool>> {
        self.deadline.stop_flag()
    }
}

/// Sets its flag when dropped: work on another thread that reads the flag (through a
/// [`Deadline::stopped_by`]) stops once the call that started it returns, gives up, or is
/// dropped (a server's request future when its client goes away).
#[derive(Debug)]
pub struct StopOnDrop(pub Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// A timer thread that raises a flag at a deadline ([`Deadline::alarm`]).
#[derive(Debug)]
pub(crate) struct Alarm {
    cancel: Option<mpsc::Sender<()>>,
    timer: Option<JoinHandle<()>>,
    fired: Arc<AtomicBool>,
}

impl Alarm {
    /// Whether the deadline came and the flag was set.
    pub(crate) fn fired(&self) -> bool {
        self.fired.load(Ordering::Relaxed)
    }
}

impl Drop for Alarm {
    fn drop(&mut self) {
        drop(self.cancel.take());
        if let Some(timer) = self.timer.take() {
            let _ = timer.join();
        }
    }
}

/// A deadline checked every [`Pulse::EVERY`] calls of [`Pulse::beat`]: cheap enough for the
/// innermost loop of a phase, and still far finer than the 100 ms a limit may be overshot.
#[derive(Clone, Debug)]
pub(crate) struct Pulse {
    deadline: Deadline,
    beats: u32,
}

impl Pulse {
    /// Beats between two readings of the clock.
    pub(crate) const EVERY: u32 = 4096;

    /// Counts one step; every [`Pulse::EVERY`] steps, `Err(TimeLimit)` if the deadline passed.
    #[inline]
    pub(crate) fn beat(&mut self) -> Result<(), TimeLimit> {
        self.beats += 1;
        if self.beats < Self::EVERY {
            return Ok(());
        }
        self.beats = 0;
        self.deadline.check()
    }

    /// The deadline it checks.
    pub(crate) fn deadline(&self) -> &Deadline {
        &self.deadline
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn none_never_passes_and_zero_always_does() {
        assert_eq!(Deadline::NONE.check(), Ok(()));
        assert_eq!(Deadline::NONE.remaining(), None);
        assert_eq!(Deadline::after(Duration::ZERO).check(), Err(TimeLimit));
        let far = Deadline::after(Duration::from_secs(3600));
        assert_eq!(far.check(), Ok(()));
        assert!(
            far.remaining()
                .is_some_and(|r| r > Duration::from_secs(3500))
        );
    }

    #[test]
    fn a_limit_beyond_the_clock_is_no_deadline() {
        assert_eq!(Deadline::after(Duration::MAX), Deadline::NONE);
    }

    #[test]
    fn min_and_share_pick_the_earlier_point() {
        let soon = Deadline::after(Duration::ZERO);
        let late = Deadline::after(Duration::from_secs(3600));
        assert_eq!(soon.min(&late), soon);
        assert_eq!(late.min(&Deadline::NONE), late);
        assert_eq!(Deadline::NONE.min(&soon), soon);
        assert!(late.share(0.5).remaining().unwrap() <= Duration::from_secs(1800));
        assert_eq!(Deadline::NONE.share(0.5), Deadline::NONE);
    }

    #[test]
    fn an_alarm_raises_its_flag_at_the_deadline_and_not_before() {
        let flag = Arc::new(AtomicBool::new(false));
        let alarm = Deadline::after(Duration::ZERO).alarm(flag.clone());
        while !flag.load(Ordering::Relaxed) {
            std::thread::yield_now();
        }
        assert!(alarm.fired());
        let quiet = Arc::new(AtomicBool::new(false));
        let alarm = Deadline::after(Duration::from_secs(3600)).alarm(quiet.clone());
        drop(alarm);
        assert!(!quiet.load(Ordering::Relaxed));
    }

    #[test]
    fn a_pulse_reads_the_clock_once_in_a_while() {
        let mut pulse = Deadline::after(Duration::ZERO).pulse();
        for _ in 1..Pulse::EVERY {
            assert_eq!(pulse.beat(), Ok(()));
        }
        assert_eq!(pulse.beat(), Err(TimeLimit));
    }
}

/// A number of seconds as messages print it: as written for ordinary limits (`2`, `0.5`,
/// `0.000000001`), in scientific notation when that is over 16 characters (`1e-300`, not three
/// hundred digits).
pub fn seconds_text(seconds: f64) -> String {
    let plain = format!("{seconds}");
    if plain.len() > 16 {
        format!("{seconds:e}")
    } else {
        plain
    }
}

#[cfg(test)]
mod seconds_tests {
    use super::seconds_text;

    #[test]
    fn seconds_are_short_whatever_their_size() {
        assert_eq!(seconds_text(2.0), "2");
        assert_eq!(seconds_text(0.5), "0.5");
        assert_eq!(seconds_text(31_536_000.0), "31536000");
        assert_eq!(seconds_text(1e-300), "1e-300");
        assert_eq!(seconds_text(1e-9), "0.000000001");
        assert_eq!(seconds_text(1e-20), "1e-20");
    }
}
