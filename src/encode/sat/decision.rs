//! What decides a call of the SAT engine beside its lead: a [`Fact`], and the call's
//! [`Decision`], where the first fact is kept and the lead stopped.
//!
//! **The promise.** What the engine prints never depends on timing, the machine's load or the
//! number of threads. The lead's answers are deterministic on their own (its stages switch at
//! conflict counts, and it imports no clause from anyone); every other member (a helper, the
//! native search past its budget) may end a call only with a [`Fact`], a statement about the
//! solutions left that holds whatever the timing. These are the rules that keep it, each with
//! where it is kept:
//!
//! 1. A lead's stage ends at a conflict count, never at a time (`Search::lead_step`).
//! 2. The lead imports no clause: its search, and so the order of its grids, is its own
//!    (`LearntReader` is read by helpers only).
//! 3. A helper decides only on UNSAT, holding at most one grid that the lead has not returned:
//!    [`Fact::refuted`] is the one way a helper builds a fact.
//! 4. The native search decides only once it has searched its whole tree, with at most one
//!    grid left beyond those returned: [`Fact::exhausted`].
//! 5. The first fact wins ([`Decision::decide`]); any later one states the same solutions, as
//!    each is a fact.
//! 6. The lead's grid counts only when no fact has decided the call (the engine's `answer`
//!    takes the decision's [`Decision::fact`] first), and a grid found by a member that is not
//!    the lead is printed only as [`Fact::Only`].
//!
//! A [`Fact`] is built in this module alone, from a member's complete answer.

use super::schedule::{Schedule, Site};
// Under `--cfg bimaru_loom` the decision's own flags and locks are loom's, so that
// `loom_tests` can check it over every interleaving (`.ci/run` runs them).
#[cfg(bimaru_loom)]
use loom::sync::{Mutex, MutexGuard, atomic::AtomicBool};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
#[cfg(not(bimaru_loom))]
use std::sync::{Mutex, MutexGuard, atomic::AtomicBool};

/// What is left of a call's solutions beyond the grids already returned, known whatever the
/// timing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Fact {
    /// No solution is left.
    NoneLeft,
    /// Exactly this grid (its ship cells) is left: the call's answer, and the last.
    Only(Vec<bool>),
}

impl Fact {
    /// A helper's formula is UNSAT while it holds `own`, the grids it found that the lead has
    /// not returned (its formula is the lead's less those grids, and it blocked each): the
    /// solutions left are exactly `own`. A fact when they are at most one; with two or more the
    /// order is the lead's to give.
    pub(crate) fn refuted(own: &[Vec<bool>]) -> Option<Fact> {
        match own {
            [] => Some(Fact::NoneLeft),
            [only] => Some(Fact::Only(only.clone())),
            _ => None,
        }
    }

    /// A search that has visited its whole tree found `all`, every solution: the solutions left
    /// beyond `returned`. A fact when they are at most one.
    pub(crate) fn exhausted(
        all: impl IntoIterator<Item = Vec<bool>>,
        returned: &[Vec<bool>],
    ) -> Option<Fact> {
        let mut left = all.into_iter().filter(|ship| !returned.contains(ship));
        match (left.next(), left.next()) {
            (None, _) => Some(Fact::NoneLeft),
            (Some(only), None) => Some(Fact::Only(only)),
            (Some(_), Some(_)) => None,
        }
    }

    /// The planted fault of the engine's hostile-schedule test: a helper's first grid taken as
    /// the only one left, while others may be.
    #[cfg(test)]
    pub(crate) fn planted(first: Vec<bool>) -> Fact {
        Fact::Only(first)
    }
}

/// A member's conflict limit, as a decision sets and stops it.
pub(crate) trait ConflictCap {
    /// Sets the limit: the member's search stops once its conflicts reach `conflicts`.
    fn set(&self, conflicts: u64);

    /// Lowers the limit to nothing: the member's search stops at its next conflict.
    fn stop(&self) {
        self.set(0);
    }
}

impl ConflictCap for Arc<AtomicU64> {
    fn set(&self, conflicts: u64) {
        self.store(conflicts, Ordering::SeqCst);
    }
}

/// One call's decision: the first [`Fact`] a member finds, the stopping of the lead and of the
/// helpers, and the call's [`Schedule`]. `L` is a member's conflict limit (another type only in
/// the model checks).
///
/// A member sets its limit through the decision ([`Decision::arm_lead`],
/// [`Decision::arm_helper`]), under the lock by which a fact or the call's end stops it: so a
/// member either sees that it must not search, or is stopped after it set its limit, in every
/// interleaving (checked with loom: `loom_tests`).
pub(crate) struct Decision<L: ConflictCap = Arc<AtomicU64>> {
    /// A fact or an interrupt has stopped the lead (set under `lead`).
    decided: AtomicBool,
    /// The call has its answer: helpers stop (set under `helpers`).
    over: AtomicBool,
    /// The first fact.
    fact: Mutex<Option<Fact>>,
    /// The lead's conflict limit (each stage's lead has its own).
    lead: Mutex<L>,
    /// The helpers' conflict limits, to stop them when the call ends.
    helpers: Mutex<Vec<L>>,
    schedule: Schedule,
}

impl<L: ConflictCap> Decision<L> {
    /// Nothing decided yet; `lead` is the lead's conflict limit.
    pub(crate) fn new(lead: L, schedule: Schedule) -> Self {
        Decision {
            decided: AtomicBool::new(false),
            over: AtomicBool::new(false),
            fact: Mutex::new(None),
            lead: Mutex::new(lead),
            helpers: Mutex::new(Vec::new()),
            schedule,
        }
    }

    /// A member of the call passes `site` (see [`Schedule::point`]).
    pub(crate) fn point(&self, site: Site) {
        self.schedule.point(site);
    }

    /// The call's schedule.
    #[cfg(test)]
    pub(crate) fn schedule(&self) -> &Schedule {
        &self.schedule
    }

    fn lead(&self) -> MutexGuard<'_, L> {
        self.lead.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn helpers(&self) -> MutexGuard<'_, Vec<L>> {
        self.helpers.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether a fact has decided the call, or [`Decision::interrupt`] stopped the lead.
    pub(crate) fn decided(&self) -> bool {
        self.decided.load(Ordering::SeqCst)
    }

    /// Records the first fact and stops the lead (later facts state the same solutions), unless
    /// [`Decision::interrupt`] came first.
    pub(crate) fn decide(&self, fact: Fact) {
        self.point(Site::Decide);
        let lead = self.lead();
        if !self.decided.swap(true, Ordering::SeqCst) {
            *self.fact.lock().unwrap_or_else(|e| e.into_inner()) = Some(fact);
            lead.stop();
        }
    }

    /// Stops the lead with no fact, unless one has decided the call already (the call's answer
    /// then comes from the native search's verdict at its budget): the lead answers
    /// [`Decision::decided`] calls as stopped.
    pub(crate) fn interrupt(&self) {
        let lead = self.lead();
        if !self.decided.swap(true, Ordering::SeqCst) {
            lead.stop();
        }
    }

    /// The lead of a new stage. (It sets its limit through [`Decision::arm_lead`], which a
    /// fact that came before stops.)
    pub(crate) fn follow(&self, lead: L) {
        *self.lead() = lead;
    }

    /// Sets the lead's `limit` to `conflicts` before it searches, unless the call is decided:
    /// whether it may search.
    pub(crate) fn arm_lead(&self, limit: &L, conflicts: u64) -> bool {
        let _lead = self.lead();
        arm(&self.decided, limit, conflicts)
    }

    /// A helper with this conflict limit searches the call: [`Decision::end`] stops it, and so
    /// does joining a call that is over.
    pub(crate) fn join(&self, helper: L) {
        let mut helpers = self.helpers();
        if self.over.load(Ordering::SeqCst) {
            helper.stop();
        }
        helpers.push(helper);
    }

    /// Sets a helper's `limit` to `conflicts` before it searches on, unless the call is over:
    /// whether it may search.
    pub(crate) fn arm_helper(&self, limit: &L, conflicts: u64) -> bool {
        let _helpers = self.helpers();
        arm(&self.over, limit, conflicts)
    }

    /// The call has its answer: every helper that joined is stopped, and none searches again.
    pub(crate) fn end(&self) {
        self.point(Site::Stop);
        let helpers = self.helpers();
        self.over.store(true, Ordering::SeqCst);
        for helper in helpers.iter() {
            helper.stop();
        }
    }

    /// Whether the call has its answer.
    pub(crate) fn is_over(&self) -> bool {
        self.over.load(Ordering::SeqCst)
    }

    /// The fact that decided the call, if any.
    pub(crate) fn fact(self) -> Option<Fact> {
        self.fact.into_inner().unwrap_or_else(|e| e.into_inner())
    }
}

/// Sets `limit` to `conflicts` unless `done` (read under the lock that guards it): whether the
/// member may search.
fn arm<L: ConflictCap>(done: &AtomicBool, limit: &L, conflicts: u64) -> bool {
    if done.load(Ordering::SeqCst) {
        return false;
    }
    limit.set(conflicts);
    true
}

#[cfg(all(test, not(bimaru_loom)))]
mod tests {
    use super::*;

    #[test]
    fn the_first_fact_counts_and_stops_the_lead_of_the_moment() {
        let first = Arc::new(AtomicU64::new(u64::MAX));
        let decision = Decision::new(first.clone(), Schedule::default());
        assert!(!decision.decided());
        // A new stage leads.
        let second = Arc::new(AtomicU64::new(u64::MAX));
        decision.follow(second.clone());
        decision.decide(Fact::Only(vec![true, false]));
        decision.decide(Fact::NoneLeft);
        assert!(decision.decided());
        assert_eq!(second.load(Ordering::SeqCst), 0);
        assert_eq!(first.load(Ordering::SeqCst), u64::MAX);
        assert_eq!(decision.fact(), Some(Fact::Only(vec![true, false])));
    }

    #[test]
    fn an_interrupt_stops_the_lead_and_no_fact_counts_after_it() {
        let lead = Arc::new(AtomicU64::new(u64::MAX));
        let decision = Decision::new(lead.clone(), Schedule::default());
        decision.interrupt();
        assert!(decision.decided());
        assert_eq!(lead.load(Ordering::SeqCst), 0);
        decision.decide(Fact::NoneLeft);
        assert_eq!(decision.fact(), None);
    }

    #[test]
    fn facts_are_built_only_where_at_most_one_grid_is_left() {
        let (a, b) = (vec![true, false], vec![false, true]);
        assert_eq!(Fact::refuted(&[]), Some(Fact::NoneLeft));
        assert_eq!(
            Fact::refuted(std::slice::from_ref(&a)),
            Some(Fact::Only(a.clone()))
        );
        assert_eq!(Fact::refuted(&[a.clone(), b.clone()]), None);
        let all = [a.clone(), b.clone()];
        assert_eq!(Fact::exhausted(all.clone(), &[]), None);
        assert_eq!(
            Fact::exhausted(all.clone(), std::slice::from_ref(&a)),
            Some(Fact::Only(b.clone()))
        );
        assert_eq!(Fact::exhausted(all, &[a, b]), Some(Fact::NoneLeft));
    }
}

/// The decision over every interleaving of its users (loom), with the lead and helpers as they
/// use it: a search sets its limit, then reads whether the call is decided or over, before it
/// searches. `RUSTFLAGS="--cfg bimaru_loom" cargo test --lib --no-default-features loom_tests`.
#[cfg(all(test, bimaru_loom))]
mod loom_tests {
    use super::*;
    use loom::sync::Arc;
    use loom::sync::atomic::AtomicU64;

    /// A member's conflict limit, of loom's atomics.
    #[derive(Clone)]
    struct Cap(Arc<AtomicU64>);

    impl ConflictCap for Cap {
        fn set(&self, conflicts: u64) {
            self.0.store(conflicts, Ordering::SeqCst);
        }
    }

    impl Cap {
        fn new() -> Self {
            Cap(Arc::new(AtomicU64::new(u64::MAX)))
        }

        fn stopped(&self) -> bool {
            self.0.load(Ordering::SeqCst) == 0
        }
    }

    #[test]
    fn a_fact_stops_the_lead_of_any_stage() {
        loom::model(|| {
            let first = Cap::new();
            let decision = Arc::new(Decision::new(first.clone(), Schedule::default()));
            let helper = {
                let decision = decision.clone();
                loom::thread::spawn(move || decision.decide(Fact::NoneLeft))
            };
            // The lead: a new stage follows, sets its limit, then looks whether the call is
            // decided before it searches.
            let second = Cap::new();
            decision.follow(second.clone());
            let searches = decision.arm_lead(&second, 1_000);
            helper.join().unwrap();
            assert!(!searches || second.stopped(), "the new stage searches on");
            let decision = Arc::try_unwrap(decision).ok().unwrap();
            assert_eq!(decision.fact(), Some(Fact::NoneLeft));
        });
    }

    #[test]
    fn the_first_fact_wins_and_an_interrupt_keeps_out_later_ones() {
        loom::model(|| {
            let lead = Cap::new();
            let decision = Arc::new(Decision::new(lead.clone(), Schedule::default()));
            let one = {
                let decision = decision.clone();
                loom::thread::spawn(move || decision.decide(Fact::Only(vec![true])))
            };
            let two = {
                let decision = decision.clone();
                loom::thread::spawn(move || decision.decide(Fact::Only(vec![true])))
            };
            decision.interrupt();
            one.join().unwrap();
            two.join().unwrap();
            assert!(lead.stopped());
            let decision = Arc::try_unwrap(decision).ok().unwrap();
            // Either a fact came first (and is kept, once), or the interrupt did (and none is).
            let fact = decision.fact();
            assert!(fact.is_none() || fact == Some(Fact::Only(vec![true])));
        });
    }

    #[test]
    fn the_end_of_a_call_stops_every_helper_that_joined() {
        loom::model(|| {
            let decision = Arc::new(Decision::new(Cap::new(), Schedule::default()));
            let limit = Cap::new();
            let helper = {
                let (decision, limit) = (decision.clone(), limit.clone());
                loom::thread::spawn(move || {
                    // A helper joins, searches, then sets its limit to search on.
                    decision.join(limit.clone());
                    decision.arm_helper(&limit, 2_000)
                })
            };
            decision.end();
            let again = helper.join().unwrap();
            // Joined before or after the end, it does not search on after it.
            assert!(
                !again || limit.stopped(),
                "a helper searches after the call"
            );
        });
    }
}
