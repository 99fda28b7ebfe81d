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
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

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

/// One call's decision: the first [`Fact`] a member finds, the stopping of the lead and of the
/// helpers, and the call's [`Schedule`].
pub(crate) struct Decision {
    decided: AtomicBool,
    /// The call has its answer: helpers stop.
    over: AtomicBool,
    /// The first fact.
    fact: Mutex<Option<Fact>>,
    /// The lead's conflict limit (each stage's lead has its own).
    lead: Mutex<Arc<AtomicU64>>,
    /// The helpers' conflict limits, to stop them when the call ends.
    helpers: Mutex<Vec<Arc<AtomicU64>>>,
    schedule: Schedule,
}

impl Decision {
    /// Nothing decided yet; `lead` is the lead's conflict limit.
    pub(crate) fn new(lead: Arc<AtomicU64>, schedule: Schedule) -> Self {
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

    /// Whether a fact has decided the call, or [`Decision::interrupt`] stopped the lead.
    pub(crate) fn decided(&self) -> bool {
        self.decided.load(Ordering::SeqCst)
    }

    /// Records the first fact and stops the lead (later facts state the same solutions), unless
    /// [`Decision::interrupt`] came first.
    pub(crate) fn decide(&self, fact: Fact) {
        self.point(Site::Decide);
        if !self.decided.swap(true, Ordering::SeqCst) {
            *self.fact.lock().unwrap_or_else(|e| e.into_inner()) = Some(fact);
            self.stop_lead();
        }
    }

    /// Stops the lead with no fact, unless one has decided the call already (the call's answer
    /// then comes from the native search's verdict at its budget): the lead answers
    /// [`Decision::decided`] calls as stopped.
    pub(crate) fn interrupt(&self) {
        if !self.decided.swap(true, Ordering::SeqCst) {
            self.stop_lead();
        }
    }

    fn stop_lead(&self) {
        self.lead
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .store(0, Ordering::SeqCst);
    }

    /// A helper with this conflict limit searches the call: [`Decision::end`] stops it. (A
    /// helper joins before its first search, which it starts only if the call is not over.)
    pub(crate) fn join(&self, helper: Arc<AtomicU64>) {
        self.helpers
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(helper);
    }

    /// The call has its answer: a helper between two searches stops, and every helper that
    /// joined is stopped.
    pub(crate) fn end(&self) {
        self.point(Site::Stop);
        self.over.store(true, Ordering::SeqCst);
        for helper in self
            .helpers
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
        {
            helper.store(0, Ordering::SeqCst);
        }
    }

    /// Whether the call has its answer.
    pub(crate) fn is_over(&self) -> bool {
        self.over.load(Ordering::SeqCst)
    }

    /// The lead of a new stage. (A fact that came before it does not stop it: the lead reads
    /// [`Decision::decided`] after setting its limit, before it searches.)
    pub(crate) fn follow(&self, lead: Arc<AtomicU64>) {
        *self.lead.lock().unwrap_or_else(|e| e.into_inner()) = lead;
    }

    /// The fact that decided the call, if any.
    pub(crate) fn fact(self) -> Option<Fact> {
        self.fact.into_inner().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
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
