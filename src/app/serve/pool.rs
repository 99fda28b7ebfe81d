//! Puzzles on tap (`serve --pool N`): one background thread makes up to N puzzles of every size of
//! the page's menu (6x6 to 30x30, square) at every grade (any, easy, medium, hard, fiendish),
//! with the size's default fleet, so that `/api/generate` without a seed answers at once.
//!
//! Each puzzle is made by the function [`Pool::start`] is given (`api::pool_puzzle`: the very
//! call `/api/generate` makes), for a random seed that is kept with it: the answer names the
//! seed, and a request with that seed gets the same puzzle. The pool's work never delays a
//! request: its thread (and the one-thread rayon pool its generation runs on) is in the idle
//! scheduling class on Linux, so it only ever gets a core nobody else wants; it starts no new
//! puzzle while a request is in flight (nor within [`QUIET`] of one); it holds no permit of the
//! request lanes; and it stops at once (its deadline's stop flag) when the server shuts down. A
//! generation stopped on the way is thrown away, so that a pooled puzzle is always the
//! generator's whole answer for its seed.
//!
//! Cheap first, likely first: the next puzzle made is the one with the lowest estimated time
//! times (puzzles held + 1), the key last asked for (10x10 of any grade at first, the page's
//! default) counting a hundredth of that; the estimate is the last measured time of the key,
//! else a table of times measured with the CLI. Slow keys (a 30x30 fiendish takes 10 s or more)
//! simply fill later. When a request takes the last puzzle of a key cheaper than a second while
//! the thread has spent more than a second on another key, that generation is stopped and the
//! cheap key made first. A key whose generation fails (a 6x6 or 8x8 is rarely or never
//! fiendish) is tried again later with another seed, its estimate four times longer, and not
//! after the fifth failure.
//!
//! While a key holds no puzzle, [`Pool::take`] answers from its stock (`stock.rs`): puzzles
//! of the same recipe made in advance and built into the binary, served in turn.
//!
//! Memory: at most N puzzles of each of the 40 keys, each its JSON text (about 6 KB at 30x30),
//! and the stock's (about 1 MB).

use super::stock::stocked;
use bimaru_sat::usecase::Deadline;
use bimaru_sat::usecase::grade::Grade;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// The sides of the page's size menu.
pub const SIDES: [usize; 8] = [6, 8, 10, 12, 15, 20, 25, 30];

/// The grades of the page's grade menu (`None`: any).
const GRADES: [Option<Grade>; 5] = [
    None,
    Some(Grade::Easy),
    Some(Grade::Medium),
    Some(Grade::Hard),
    Some(Grade::Fiendish),
];

/// First estimates of one puzzle's time, in ms, per grade (as [`GRADES`]) and side (as
/// [`SIDES`]): the CLI's `generate` with `--max-conflicts 2000` on two shared cores; 25x25 and
/// 30x30 as measured after the faster unit propagator (`docs/benchmarks/2026-11-28-session-41.md`,
/// one seed each, times 1.5 for the idle class).
const FIRST_ESTIMATE_MS: [[u64; 8]; 5] = [
    [10, 10, 15, 15, 15, 20, 20, 30],
    [20, 10, 20, 20, 70, 400, 150, 1_200],
    [15, 15, 40, 40, 160, 3_400, 1_500, 8_500],
    [1_700, 70, 240, 50, 240, 2_500, 2_300, 14_000],
    [500, 2_400, 360, 350, 3_800, 2_000, 5_000, 15_000],
];

/// How long after a request the pool waits before it starts a puzzle.
const QUIET: Duration = Duration::from_millis(50);

/// A key cheaper than this whose last puzzle is taken stops a longer generation.
const CHEAP: Duration = Duration::from_secs(1);

/// Failed generations after which a key is not tried again.
const MAX_FAILURES: u32 = 5;

/// What the pool holds puzzles of: a board size and a grade (`None`: any), default fleet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PoolKey {
    pub rows: usize,
    pub cols: usize,
    pub grade: Option<Grade>,
}

/// How the pool makes the puzzle of a kind and a seed, stopping at the deadline: the answer's
/// body, or `None` when the generator finds no puzzle.
pub type Make = fn(PoolKey, u64, Deadline) -> Option<String>;

/// A random seed: below 2^53, so that JavaScript's numbers hold it.
pub fn random_seed() -> u64 {
    rand::random::<u64>() >> 11
}

/// A puzzle of the pool: its seed and its answer's body.
#[derive(Clone, Debug)]
pub struct Pooled {
    pub seed: u64,
    pub body: String,
}

/// Where a puzzle [`Pool::take`] gave comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Supply {
    /// Made by the pool's thread since the server started.
    Made,
    /// The stock built into the binary.
    Stock,
}

/// The pool: cloned into the router's state; the thread holds another handle.
#[derive(Clone, Debug)]
pub struct Pool {
    shared: Arc<Shared>,
}

#[derive(Debug)]
struct Shared {
    /// Puzzles kept per key.
    per_key: usize,
    state: Mutex<PoolState>,
    /// Signalled when a puzzle is taken, a request ends, or the server stops.
    changed: Condvar,
    /// API requests in flight.
    in_flight: AtomicUsize,
    /// Set when the server stops.
    stop: AtomicBool,
}

#[derive(Debug)]
struct PoolState {
    slots: Vec<Slot>,
    /// The slot last asked for.
    wanted: usize,
    /// The generation under way.
    current: Option<Current>,
    /// When the last request ended.
    last_request: Instant,
}

#[derive(Debug)]
struct Slot {
    key: PoolKey,
    held: VecDeque<Pooled>,
    estimate: Duration,
    /// Generations that failed (no puzzle of the grade in the generator's tries).
    failed: u32,
    /// The key's stock, and the next of it to give.
    stock: Vec<Pooled>,
    next_stock: usize,
}

#[derive(Debug)]
struct Current {
    slot: usize,
    started: Instant,
    stop: Arc<AtomicBool>,
}

/// Counts a request in flight while it lives.
pub struct InFlight(Arc<Shared>);

impl Drop for InFlight {
    fn drop(&mut self) {
        if self.0.in_flight.fetch_sub(1, Ordering::SeqCst) == 1 {
            self.0.lock().last_request = Instant::now();
            self.0.changed.notify_all();
        }
    }
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, PoolState> {
        // A panic while holding the lock leaves plain data behind: go on with it.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Pool {
    /// A pool of `per_key` puzzles a key, filled by a background thread from now on.
    pub fn start(per_key: usize, make: Make) -> Pool {
        let mut slots = GRADES
            .iter()
            .enumerate()
            .flat_map(|(g, &grade)| {
                SIDES.iter().enumerate().map(move |(s, &side)| {
                    let key = PoolKey {
                        rows: side,
                        cols: side,
                        grade,
                    };
                    Slot {
                        key,
                        held: VecDeque::new(),
                        estimate: Duration::from_millis(FIRST_ESTIMATE_MS[g][s]),
                        failed: 0,
                        stock: Vec::new(),
                        next_stock: 0,
                    }
                })
            })
            .collect::<Vec<_>>();
        for entry in stocked() {
            let key = PoolKey {
                rows: entry.rows,
                cols: entry.cols,
                grade: entry.grade,
            };
            if let Some(slot) = slots.iter_mut().find(|s| s.key == key) {
                slot.stock.push(Pooled {
                    seed: entry.seed,
                    body: entry.puzzle,
                });
            }
        }
        for slot in &mut slots {
            // Servers started together begin at different places of the stock.
            slot.next_stock = rand::random_range(0..slot.stock.len().max(1));
        }
        let wanted = slots
            .iter()
            .position(|s| s.key.rows == 10 && s.key.grade.is_none())
            .unwrap_or(0);
        let shared = Arc::new(Shared {
            per_key,
            state: Mutex::new(PoolState {
                slots,
                wanted,
                current: None,
                last_request: Instant::now(),
            }),
            changed: Condvar::new(),
            in_flight: AtomicUsize::new(0),
            stop: AtomicBool::new(false),
        });
        let pool = Pool { shared };
        let worker = pool.clone();
        let spawned = std::thread::Builder::new()
            .name("bimaru-pool".into())
            .spawn(move || worker.fill(make));
        if let Err(e) = spawned {
            note!("bimaru-sat: serve: cannot start the puzzle pool's thread: {e}");
        }
        pool
    }

    /// Counts a request in flight until the guard is dropped.
    pub fn in_flight(&self) -> InFlight {
        self.shared.in_flight.fetch_add(1, Ordering::SeqCst);
        InFlight(self.shared.clone())
    }

    /// A puzzle of `key`, when the pool holds one, else the next of its stock, if any; the
    /// key becomes the one made first.
    pub fn take(&self, key: PoolKey) -> Option<(Pooled, Supply)> {
        let mut state = self.shared.lock();
        let slot = state.slots.iter().position(|s| s.key == key)?;
        state.wanted = slot;
        let taken = match state.slots[slot].held.pop_front() {
            Some(made) => Some((made, Supply::Made)),
            None => state.slots[slot].next_stock().map(|p| (p, Supply::Stock)),
        };
        let cheap = state.slots[slot].estimate < CHEAP;
        if state.slots[slot].held.is_empty()
            && cheap
            && let Some(current) = &state.current
            && current.slot != slot
            && current.started.elapsed() > CHEAP
        {
            current.stop.store(true, Ordering::SeqCst);
        }
        drop(state);
        self.shared.changed.notify_all();
        taken
    }

    /// Stops the thread, and the generation under way.
    pub fn stop(&self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        if let Some(current) = &self.shared.lock().current {
            current.stop.store(true, Ordering::SeqCst);
        }
        self.shared.changed.notify_all();
    }

    /// The thread: makes the neediest puzzle whenever no request is in flight, until stopped.
    fn fill(self, make: Make) {
        let shared = &self.shared;
        // One thread for the generator's rayon work, in the idle class like this one.
        idle_priority();
        let threads = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .thread_name(|_| "bimaru-pool-work".into())
            .start_handler(|_| idle_priority())
            .build();
        let threads = match threads {
            Ok(threads) => threads,
            Err(e) => {
                note!("bimaru-sat: serve: cannot start the puzzle pool's worker: {e}");
                return;
            }
        };
        loop {
            let (slot, key, stop) = {
                let mut state = shared.lock();
                loop {
                    if shared.stop.load(Ordering::SeqCst) {
                        return;
                    }
                    let quiet = shared.in_flight.load(Ordering::SeqCst) == 0
                        && state.last_request.elapsed() >= QUIET;
                    if quiet && let Some(slot) = state.neediest(shared.per_key) {
                        let stop = Arc::new(AtomicBool::new(false));
                        state.current = Some(Current {
                            slot,
                            started: Instant::now(),
                            stop: stop.clone(),
                        });
                        break (slot, state.slots[slot].key, stop);
                    }
                    state = shared
                        .changed
                        .wait_timeout(state, QUIET)
                        .unwrap_or_else(|e| e.into_inner())
                        .0;
                }
            };
            let seed = random_seed();
            let started = Instant::now();
            let deadline = Deadline::within(None).stopped_by(stop.clone());
            let made = threads.install(|| make(key, seed, deadline));
            let took = started.elapsed();
            let mut state = shared.lock();
            state.current = None;
            let slot = &mut state.slots[slot];
            if stop.load(Ordering::SeqCst) {
                // Stopped on the way: not the generator's whole answer; thrown away.
                slot.estimate = slot.estimate.max(took);
                continue;
            }
            match made {
                Some(body) => {
                    slot.estimate = took;
                    slot.held.push_back(Pooled { seed, body });
                }
                None => {
                    // Another seed may do (a 6x6 is rarely hard): tried again later, less
                    // eagerly each time, and not after the fifth failure.
                    slot.failed += 1;
                    slot.estimate = slot.estimate.max(took) * 4;
                }
            }
        }
    }
}

impl Slot {
    /// The next puzzle of the stock, in turn.
    fn next_stock(&mut self) -> Option<Pooled> {
        let n = self.stock.len();
        let pooled = self.stock.get(self.next_stock % n.max(1))?.clone();
        self.next_stock = (self.next_stock + 1) % n;
        Some(pooled)
    }
}

impl PoolState {
    /// The slot to fill next, if any is short.
    fn neediest(&self, per_key: usize) -> Option<usize> {
        let score = |(i, slot): (usize, &Slot)| {
            let cost = slot.estimate.as_secs_f64() * (slot.held.len() + 1) as f64;
            if i == self.wanted { cost / 100.0 } else { cost }
        };
        self.slots
            .iter()
            .enumerate()
            .filter(|(_, s)| s.failed < MAX_FAILURES && s.held.len() < per_key)
            .min_by(|a, b| score(*a).total_cmp(&score(*b)))
            .map(|(i, _)| i)
    }
}

/// Puts the calling thread in the idle scheduling class (Linux): it runs only on a core that
/// nothing else wants; where that is refused, its nice value goes to 19. Elsewhere it stays as
/// it is (the pool then relies on starting no puzzle while a request is in flight).
#[allow(unsafe_code)]
fn idle_priority() {
    #[cfg(target_os = "linux")]
    {
        let param = libc::sched_param { sched_priority: 0 };
        // SAFETY: pid 0 is the calling thread; `param` is a valid sched_param.
        if unsafe { libc::sched_setscheduler(0, libc::SCHED_IDLE, &param) } == 0 {
            return;
        }
        // SAFETY: on Linux, PRIO_PROCESS with 0 sets the calling thread's nice value.
        unsafe {
            libc::setpriority(libc::PRIO_PROCESS, 0, 19);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state() -> PoolState {
        let slot = |side, grade, ms| Slot {
            key: PoolKey {
                rows: side,
                cols: side,
                grade,
            },
            held: VecDeque::new(),
            estimate: Duration::from_millis(ms),
            failed: 0,
            stock: Vec::new(),
            next_stock: 0,
        };
        PoolState {
            slots: vec![
                slot(10, None, 15),
                slot(20, Some(Grade::Hard), 2_500),
                slot(20, Some(Grade::Fiendish), 100_000),
            ],
            wanted: 0,
            current: None,
            last_request: Instant::now(),
        }
    }

    fn pooled() -> Pooled {
        Pooled {
            seed: 1,
            body: String::new(),
        }
    }

    /// Every kind of the menu has stock, but a 6x6 fiendish (none exists with the default
    /// fleet; see docs/web.md).
    #[test]
    fn every_kind_is_stocked_but_6x6_fiendish() {
        for side in SIDES {
            for grade in GRADES {
                let n = stocked()
                    .filter(|e| (e.rows, e.cols, e.grade) == (side, side, grade))
                    .count();
                if side == 6 && grade == Some(Grade::Fiendish) {
                    assert_eq!(n, 0);
                } else {
                    assert!(n >= 1, "no stock of {side}x{side} {grade:?}");
                }
            }
        }
    }

    /// Cheap kinds fill before an expensive one gets its first puzzle; the kind last asked for
    /// comes first; a full kind and a kind that failed five times are left.
    #[test]
    fn the_neediest_kind_is_the_cheapest_and_the_one_asked_for_first() {
        let mut state = state();
        assert_eq!(state.neediest(3), Some(0));
        for _ in 0..3 {
            state.slots[0].held.push_back(pooled());
        }
        assert_eq!(state.neediest(3), Some(1), "10x10 is full");
        state.slots[1].held.push_back(pooled());
        assert_eq!(
            state.neediest(3),
            Some(1),
            "a second 20x20 hard before a 20x20 fiendish"
        );
        state.wanted = 2;
        assert_eq!(
            state.neediest(3),
            Some(2),
            "the kind asked for counts a hundredth"
        );
        state.slots[2].failed = MAX_FAILURES;
        assert_eq!(state.neediest(3), Some(1));
        assert_eq!(
            state.neediest(1),
            None,
            "every kind that may be made is full"
        );
    }
}
