//! One member's solver in the SAT engine ([`super::engine`]): the [`Racer`] that leads or helps,
//! what one of its calls ends with, and the [`Helper`] beside the lead on hard questions.

use super::decision::{Decision, Fact};
use super::instance::{Encoding, Instance};
use super::portfolio::{IMPORT_CONFLICTS, LearntReader, Member, specialist};
use super::redundant::Redundant;
use super::schedule::Site;
use crate::model::deadline::{Deadline, TimeLimit};
use crate::model::lit::Lit;
use crate::model::outcome::SolveError;
use crate::model::placement::Placements;
use crate::model::puzzle::{Grid, Puzzle};
use crate::reason::deduce::Knowledge;
use crate::reason::search::{End, Searched};
use crate::solver::sink::Timed;
use crate::solver::{self, Incremental, LearntPool, SolverError};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// One member's solver.
pub(super) struct Racer {
    pub(super) member: Member,
    pub(super) solver: Box<dyn Incremental>,
    pub(super) encoding: Encoding,
    pub(super) limit: Arc<AtomicU64>,
}

/// What one solver call ended with.
pub(super) enum CallAnswer {
    /// A model, as ship cells.
    Sat(Vec<bool>),
    Unsat,
    /// The conflict limit or the stop flag stopped it.
    Stopped,
}

/// What a member's solver is built from.
pub(super) struct Ground<'a> {
    pub(super) puzzle: &'a Puzzle,
    /// The placements it encodes: those pre-solving left, or all the clues allow.
    pub(super) placements: &'a Placements,
    /// What pre-solving decided, with the placements it left.
    pub(super) knowledge: Option<&'a Knowledge>,
    pub(super) stop: Option<Arc<AtomicBool>>,
    /// Encoding gives up once it passes.
    pub(super) deadline: &'a Deadline,
    pub(super) redundant: Redundant,
    /// Ship cells of the grids to block.
    pub(super) found: &'a [Vec<bool>],
}

impl Racer {
    /// Builds `member`'s solver on `ground`, with every grid found so far blocked.
    pub(super) fn build(member: Member, ground: &Ground) -> Result<Self, Unbuilt> {
        let mut solver = member
            .solver
            .new_tuned(member.tuning)
            .map_err(Unbuilt::Solver)?;
        solver.set_interrupt(ground.stop.clone());
        let instance = Instance {
            puzzle: ground.puzzle,
            placements: ground.placements,
            knowledge: ground.knowledge,
            card: member.config.card,
        };
        let mut sink = Timed::new(solver.as_mut(), ground.deadline.clone());
        let encoding = member.config.model.encode(&instance, &mut sink);
        let encoding = super::redundant::encode(&instance, encoding, ground.redundant, &mut sink);
        if let Err(TimeLimit) = sink.finish() {
            // Freeing a large solver takes a while: not on the caller's time.
            ground.deadline.discard(solver);
            return Err(Unbuilt::TimeLimit);
        }
        let limit = Arc::new(AtomicU64::new(u64::MAX));
        solver.set_conflict_limit(Some(limit.clone()));
        let mut racer = Racer {
            member,
            solver,
            encoding,
            limit,
        };
        for ship in ground.found {
            racer.block(ship);
        }
        Ok(racer)
    }

    pub(super) fn conflicts(&self) -> u64 {
        self.solver.conflicts()
    }

    /// Adds the clause that rules out the grid with these ship cells: the fleet fixes the number
    /// of ship cells, so another solution must turn one of them into water.
    pub(super) fn block(&mut self, ship: &[bool]) {
        let clause: Vec<Lit> = self
            .encoding
            .cells
            .iter()
            .zip(ship)
            .filter(|(_, s)| **s)
            .map(|(v, _)| v.negative())
            .collect();
        self.solver.add_clause(&clause);
    }

    /// Solves until an answer or until the solver's conflict count reaches `limit` (or a helper
    /// of `decision` decides the call).
    pub(super) fn run(
        &mut self,
        limit: u64,
        decision: Option<&Decision>,
    ) -> Result<CallAnswer, SolveError> {
        match decision {
            // Set under the decision's lock: a fact that comes later stops this run.
            Some(decision) if !decision.arm_lead(&self.limit, limit) => {
                return Ok(CallAnswer::Stopped);
            }
            Some(_) => {}
            None => self.limit.store(limit, Ordering::SeqCst),
        }
        self.solve()
    }

    /// Solves until an answer or until the conflict limit, as it stands, stops it.
    pub(super) fn solve(&mut self) -> Result<CallAnswer, SolveError> {
        let answer = self.solver.solve().map_err(SolveError::failed)?;
        Ok(match answer {
            solver::Answer::Sat => CallAnswer::Sat(
                self.encoding
                    .cells
                    .iter()
                    .map(|v| self.solver.value(v.positive()) == Some(true))
                    .collect(),
            ),
            solver::Answer::Unsat => CallAnswer::Unsat,
            solver::Answer::Stopped => CallAnswer::Stopped,
        })
    }
}

/// A member beside the lead on hard questions. It searches the same question on its own
/// thread and blocks every grid it finds; `own` holds those the lead has not returned yet, so
/// that once its formula is UNSAT the solutions left are exactly `own`. With at most one, that
/// is the call's answer whatever the timing (the lead would find the same grid, or none); with
/// two or more, the order is the lead's to give, and the helper waits for the lead. A helper of
/// the whole-encoding specialist's formula adds, every [`IMPORT_CONFLICTS`], the short clauses
/// the lead has learnt ([`LearntReader`]).
pub(super) struct Helper {
    pub(super) racer: Racer,
    pub(super) own: Vec<Vec<bool>>,
    pub(super) reader: Option<LearntReader>,
}

impl Helper {
    /// Searches until it decides the call (see [`Helper`]), the call is over, or it holds two
    /// grids of its own.
    pub(super) fn hunt(&mut self, decision: &Decision) {
        while self.own.len() < 2 {
            if let Some(reader) = &mut self.reader {
                decision.point(Site::Share);
                reader.import(self.racer.solver.as_mut());
                let next = self.racer.conflicts().saturating_add(IMPORT_CONFLICTS);
                // Set under the decision's lock: a call that ends later stops this search.
                if !decision.arm_helper(&self.racer.limit, next) {
                    return;
                }
            }
            // (A call that ended before the helper joined stopped its limit then.)
            if decision.is_over() {
                return;
            }
            let before = self.racer.conflicts();
            match self.racer.solve() {
                Ok(CallAnswer::Sat(ship)) => {
                    decision.point(Site::Publish);
                    self.racer.block(&ship);
                    #[cfg(test)]
                    if decision.schedule().planted() {
                        decision.decide(Fact::planted(ship));
                        return;
                    }
                    self.own.push(ship);
                }
                Ok(CallAnswer::Unsat) => {
                    if let Some(fact) = Fact::refuted(&self.own) {
                        decision.decide(fact);
                    }
                    return;
                }
                // Time to read the lead's clauses again (stopped with no conflict: the call
                // is over, or the stop flag is set).
                Ok(CallAnswer::Stopped)
                    if self.reader.is_some() && self.racer.conflicts() > before => {}
                // Stopped, or failed: the lead answers.
                Ok(CallAnswer::Stopped) | Err(_) => return,
            }
        }
    }
}

/// What the helpers of a search's first hard call are built from, each on its own thread
/// while the lead searches: a helper encodes the whole puzzle, unless its member is of the
/// pre-solved formula ([`Member::solo`], after a native grid).
pub(super) struct HelperSeed {
    pub(super) puzzle: Puzzle,
    /// The placements pre-solving left and what it decided, for helpers of the pre-solved
    /// formula.
    pub(super) presolved: Option<(Arc<Placements>, Option<Knowledge>)>,
    /// Stops the helper's solver.
    pub(super) stop: Option<Arc<AtomicBool>>,
    /// Building gives up once it passes.
    pub(super) deadline: Deadline,
    pub(super) redundant: Redundant,
    /// Ship cells of the grids returned so far.
    pub(super) found: Vec<Vec<bool>>,
    /// What the lead learns, for helpers of its formula.
    pub(super) learnt: Arc<LearntPool>,
}

impl HelperSeed {
    /// Builds `member` as a helper, with the placements of the whole puzzle it encodes (none
    /// for a helper of the pre-solved formula).
    pub(super) fn helper(&self, member: Member) -> Result<(Helper, Option<Placements>), Unbuilt> {
        let presolved = self.presolved.as_ref().filter(|_| member.presolved);
        let mut whole = None;
        let (placements, knowledge) = match presolved {
            Some((placements, knowledge)) => (&**placements, knowledge.as_ref()),
            None => {
                let all = Placements::within(&self.puzzle, &self.deadline)
                    .map_err(|TimeLimit| Unbuilt::TimeLimit)?;
                (&*whole.insert(all), None)
            }
        };
        let member = Member {
            presolved: presolved.is_some(),
            ..member
        };
        let racer = Racer::build(
            member,
            &Ground {
                puzzle: &self.puzzle,
                placements,
                knowledge,
                stop: self.stop.clone(),
                deadline: &self.deadline,
                redundant: self.redundant,
                found: &self.found,
            },
        )?;
        // A helper of the lead's whole formula reads what the lead learns.
        let reader = (member.config == specialist().config && !member.presolved)
            .then(|| LearntReader::new(self.learnt.clone()));
        let helper = Helper {
            racer,
            own: Vec::new(),
            reader,
        };
        Ok((helper, whole))
    }
}

/// The native search beside the solvers (the engine's `race_native`): its verdict at its node
/// budget, for the first call, and what it finds past the budget, a fact for any call.
pub(super) struct NativeGate {
    /// When the search started.
    start: Instant,
    /// What the search found within its budget, and what that took, once it got there.
    ran: Mutex<Option<(Searched, Duration)>>,
    /// What it found in all, once it has ended past its budget.
    past: Mutex<Option<Searched>>,
    /// Signalled when it reaches its budget (waited on with `ran`).
    done: Condvar,
    /// Signalled when it ends, and when a call it may decide is over (waited on with `past`).
    ended: Condvar,
    /// Set when it has run and settled the call, for work that checks a [`Deadline`].
    settled: Arc<AtomicBool>,
    /// Stops the search past its budget ([`NativeHold`]).
    pub(super) halt: AtomicBool,
}

impl NativeGate {
    pub(super) fn new() -> Self {
        NativeGate {
            start: Instant::now(),
            ran: Mutex::default(),
            past: Mutex::default(),
            done: Condvar::new(),
            ended: Condvar::new(),
            settled: Arc::default(),
            halt: AtomicBool::new(false),
        }
    }

    /// What a search that could not answer leaves: the question open, no grid.
    fn unanswered() -> Searched {
        Searched {
            grids: Vec::new(),
            nodes: 0,
            end: End::OutOfNodes,
        }
    }

    fn ran(&self) -> std::sync::MutexGuard<'_, Option<(Searched, Duration)>> {
        self.ran.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn past(&self) -> std::sync::MutexGuard<'_, Option<Searched>> {
        self.past.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Runs the search, which calls [`NativeGate::at_budget`] at its budget, and records what
    /// it found in all. If it panics, it is recorded as having found nothing (before its budget,
    /// the lead waiting for the verdict goes on; past it, nothing waits for it any more), and
    /// the panic goes on too.
    pub(super) fn run(&self, search: impl FnOnce() -> Searched) {
        let found = std::panic::catch_unwind(std::panic::AssertUnwindSafe(search));
        let (found, panic) = match found {
            Ok(found) => (found, None),
            Err(panic) => (NativeGate::unanswered(), Some(panic)),
        };
        if self.ran().is_none() {
            self.at_budget(&found);
        }
        *self.past() = Some(found);
        self.ended.notify_all();
        if let Some(panic) = panic {
            std::panic::resume_unwind(panic);
        }
    }

    /// Records what the search found within its budget: the first call's verdict.
    pub(super) fn at_budget(&self, found: &Searched) {
        if !leaves_open(found) {
            self.settled.store(true, Ordering::SeqCst);
        }
        *self.ran() = Some((found.clone(), self.start.elapsed()));
        self.done.notify_all();
    }

    /// Whether the search settles the call (its grids come first, or none is left: the
    /// solvers' work is of no use) within `wait` (zero: whether it has); it may run on.
    pub(super) fn settled(&self, wait: Duration) -> bool {
        let ran = self
            .done
            .wait_timeout_while(self.ran(), wait, |ran| ran.is_none())
            .unwrap_or_else(|e| e.into_inner())
            .0;
        ran.as_ref().is_some_and(|(found, _)| !leaves_open(found))
    }

    /// `deadline`'s time, with the search's verdict in place of the call's stop flag: building
    /// the lead beside the search gives up once the search has settled the call. The call's
    /// flag is not read during that build (a few milliseconds), but it interrupts the lead's
    /// solver as soon as the solver runs.
    pub(super) fn or_settled(&self, deadline: &Deadline) -> Deadline {
        deadline.clone().stopped_by(self.settled.clone())
    }

    /// Waits for the search's verdict at its budget; whether it left the call open.
    pub(super) fn open(&self) -> bool {
        let mut ran = self.ran();
        loop {
            if let Some((found, _)) = &*ran {
                return leaves_open(found);
            }
            ran = self.done.wait(ran).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// What the search found within its budget and what it took, once it got there.
    pub(super) fn verdict(&self) -> Option<(Searched, Duration)> {
        self.ran().clone()
    }

    /// The solutions left beyond `returned`, once the search has found them all past its
    /// budget and they are at most one ([`Fact::exhausted`]).
    pub(super) fn fact(&self, returned: &[Vec<bool>]) -> Option<Fact> {
        let past = self.past();
        let found = past.as_ref().filter(|found| found.end == End::Exhausted)?;
        Fact::exhausted(found.grids.iter().map(Grid::ship_cells), returned)
    }

    /// The nodes the search has visited, once it has ended past its budget.
    pub(super) fn nodes(&self) -> u64 {
        self.past().as_ref().map_or(0, |found| found.nodes)
    }

    /// Decides the call once the search past its budget has found a [`NativeGate::fact`], or
    /// returns when the call is over or the search ended without one.
    pub(super) fn decide(&self, decision: &Decision, returned: &[Vec<bool>]) {
        self.wait_past(decision);
        if let Some(fact) = self.fact(returned)
            && !decision.is_over()
        {
            decision.decide(fact);
        }
    }

    /// Waits until the search has ended past its budget, or the call is over (its end calls
    /// [`NativeGate::wake`]).
    pub(super) fn wait_past(&self, decision: &Decision) {
        let mut past = self.past();
        while past.is_none() && !decision.is_over() {
            past = self
                .ended
                .wait_timeout(past, FACT_POLL)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }

    /// Wakes the call's waiters for the search past its budget ([`NativeGate::wait_past`]), to
    /// see that the call is over.
    pub(super) fn wake(&self) {
        let _past = self.past();
        self.ended.notify_all();
    }

    /// Whether the search has ended past its budget.
    pub(super) fn ended(&self) -> bool {
        self.past().is_some()
    }
}

/// How often a call's waiter for the native search's fact looks whether the call is over.
/// (A fallback: the end of the call wakes them.)
const FACT_POLL: Duration = Duration::from_millis(20);

/// The engine's hold on the native search past its budget, and the search's thread: once the
/// last hold is dropped the search stops (it reads `halt` at every node) and its thread is
/// joined there, so no thread of the engine outlives it.
pub(super) struct NativeHold(
    pub(super) Arc<NativeGate>,
    pub(super) Option<std::thread::JoinHandle<()>>,
);

impl Drop for NativeHold {
    fn drop(&mut self) {
        self.0.halt.store(true, Ordering::SeqCst);
        if let Some(thread) = self.1.take() {
            // A panic of the search was recorded by `NativeGate::run` and reported by its
            // thread; the engine goes on without it.
            let _ = thread.join();
        }
    }
}

/// Whether the native search left the question to the solver with no grid of its own: it ran
/// out of nodes (or was stopped, which the solver sees too) before finding one.
pub(super) fn leaves_open(found: &Searched) -> bool {
    found.grids.is_empty() && !matches!(found.end, End::Exhausted | End::TimeLimit)
}

/// Why a member's solver was not built.
pub(super) enum Unbuilt {
    /// The deadline passed while encoding.
    TimeLimit,
    /// The solver could not be made (not linked into this build).
    Solver(SolverError),
}

impl From<Unbuilt> for SolveError {
    fn from(unbuilt: Unbuilt) -> Self {
        match unbuilt {
            Unbuilt::TimeLimit => SolveError::TimeLimit,
            Unbuilt::Solver(e) => SolveError::failed(e),
        }
    }
}
