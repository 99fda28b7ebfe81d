//! One call of the SAT engine: the lead alone for its budget, then, once the call is hard, the
//! stages with the helpers beside them, and what decides the call (the lead's answer, or a
//! [`Fact`] of a helper or of the native search past its budget).

use super::*;

impl Search {
    pub(super) fn lead(&mut self) -> &mut Racer {
        self.lead.as_mut().expect("a lead between calls")
    }

    /// One call's answer: the lead alone for its budget, then (with `race`) the later
    /// [`stages`], each within its conflicts; with more threads, the helpers (the rest of the
    /// [`portfolio`]) run beside the lead from the moment the call turns out hard. With
    /// `native` (the first call, beside the native search), the lead waits for the search's
    /// verdict and runs only if it leaves the call open.
    pub(super) fn answer(&mut self, native: Option<&NativeGate>) -> Result<CallAnswer, SolveError> {
        if self.exhausted {
            return Ok(CallAnswer::Unsat);
        }
        // The native search past its budget while it runs (looked at before its fact: one that
        // ends in between is waited for, and its fact taken, below).
        let past = self.native.clone().filter(|n| !n.0.ended());
        if let Some(fact) = self.native.as_ref().and_then(|n| n.0.fact(&self.found)) {
            return Ok(self.settled(fact));
        }
        if !self.race || portfolio(self.threads).len() < 2 {
            loop {
                if let Some(answer) = self.lead_step(None)? {
                    return Ok(answer);
                }
            }
        }
        // The chosen configuration's solo phase, alone: it settles almost every puzzle a
        // person makes. A lead that is one of the stages (on a large board, or once a call
        // was hard) makes the call a hard question at once, and so does a schedule with no solo
        // conflicts (a test's, to force every call through the race).
        let lead = self.lead().member;
        if stages().iter().all(|(member, _)| *member != lead)
            && self.solo_conflicts() > 0
            && let Some(answer) = self.lead_step(None)?
        {
            return Ok(self.returned(answer));
        }
        // A hard question: the helpers beside the lead. On the first, each helper is built on
        // its own thread while the lead searches (or waits for the native search), and kept for
        // the calls after; one still being built when the call ends gives up.
        let built_late = Arc::new(AtomicBool::new(false));
        let mut members = portfolio(self.threads);
        if let (Some(solo), Some(first)) = (self.solo_helper, members.get_mut(1)) {
            *first = solo;
        }
        let presolved = members.iter().skip(1).any(|m| m.presolved);
        let seed = self.helpers.is_empty().then(|| HelperSeed {
            presolved: presolved.then(|| (self.placements.clone(), self.knowledge.clone())),
            puzzle: self.puzzle.clone(),
            stop: self.stop.clone(),
            deadline: self.deadline.clone().stopped_by(built_late.clone()),
            redundant: self.redundant,
            found: self.found.clone(),
            learnt: self.learnt.clone(),
        });
        let mut helpers = std::mem::take(&mut self.helpers);
        let decision = Decision::new(self.lead().limit.clone(), self.schedule.clone());
        // The last helper gives its thread to the native search past its budget, until that
        // search ends or the call is over: on two cores, a third search would slow the lead.
        let yields = |last: bool, decision: &Decision| {
            if last && let Some(past) = &past {
                past.0.wait_past(decision);
            }
        };
        let (answer, built) = std::thread::scope(|s| {
            let mut building = Vec::new();
            let new = seed.as_ref().map_or(&[][..], |_| &members[1..]);
            for (i, &member) in new.iter().enumerate() {
                let (decision, seed, yields) = (&decision, seed.as_ref(), &yields);
                building.push(s.spawn(move || {
                    decision.point(Site::Start);
                    let mut built = seed?.helper(member).ok()?;
                    decision.join(built.0.racer.limit.clone());
                    yields(i + 1 == new.len(), decision);
                    built.0.hunt(decision);
                    Some(built)
                }));
            }
            let kept = helpers.len();
            for (i, helper) in helpers.iter_mut().enumerate() {
                helper.racer.limit.store(u64::MAX, Ordering::SeqCst);
                decision.join(helper.racer.limit.clone());
                let (decision, yields) = (&decision, &yields);
                s.spawn(move || {
                    decision.point(Site::Start);
                    yields(i + 1 == kept, decision);
                    helper.hunt(decision);
                });
            }
            // The native search past its budget decides the call with its fact, if it finds one.
            if let Some(past) = &past {
                let (decision, found) = (&decision, self.found.clone());
                s.spawn(move || past.0.decide(decision, &found));
            }
            // Beside the native search, the lead waits for its verdict.
            if native.is_some_and(|native| !native.open()) {
                decision.interrupt();
            }
            decision.point(Site::Start);
            let answer = loop {
                match self.lead_step(Some(&decision)) {
                    Ok(Some(answer)) => break Ok(answer),
                    Ok(None) => {}
                    Err(e) => break Err(e),
                }
            };
            decision.end();
            if let Some(past) = &past {
                past.0.wake();
            }
            built_late.store(true, Ordering::SeqCst);
            let built: Vec<_> = building
                .into_iter()
                .filter_map(|b| b.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                .collect();
            (answer, built)
        });
        // A helper that could not be built leaves the call to the others and the lead.
        for (helper, whole) in built {
            helpers.push(helper);
            if let Some(whole) = whole {
                self.whole.get_or_insert(whole);
            }
        }
        self.helpers = helpers;
        match decision.fact() {
            // A fact, whatever the lead answered meanwhile: the grids left are this one or none.
            Some(fact) => Ok(self.settled(fact)),
            None => answer.map(|answer| self.returned(answer)),
        }
    }

    /// [`SOLO_CONFLICTS`], or what the schedule says (a test's, forcing calls through the race).
    fn solo_conflicts(&self) -> u64 {
        self.schedule.solo_conflicts().unwrap_or(SOLO_CONFLICTS)
    }

    /// The call's answer from a [`Fact`]: no grid is left after it.
    fn settled(&mut self, fact: Fact) -> CallAnswer {
        self.exhausted = true;
        match fact {
            Fact::NoneLeft => CallAnswer::Unsat,
            Fact::Only(ship) => CallAnswer::Sat(ship),
        }
    }

    /// The lead's `answer`, after telling the helpers of a grid it returns: one that holds it
    /// already drops it from its own, the others block it.
    pub(super) fn returned(&mut self, answer: CallAnswer) -> CallAnswer {
        if let CallAnswer::Sat(ship) = &answer {
            for helper in &mut self.helpers {
                match helper.own.iter().position(|own| own == ship) {
                    Some(i) => {
                        helper.own.remove(i);
                    }
                    None => helper.racer.block(ship),
                }
            }
        }
        answer
    }

    /// Runs the lead for its budget (all it needs in the last stage, or without `race`).
    /// `None`: the budget ran out and the next stage leads now; otherwise the answer, which is
    /// [`CallAnswer::Stopped`] when the stop flag or a helper of `decision` stopped it.
    fn lead_step(&mut self, decision: Option<&Decision>) -> Result<Option<CallAnswer>, SolveError> {
        let stages = stages();
        let race = self.race;
        let solo = self.solo_conflicts();
        let lead = self.lead();
        let stage = stages.iter().position(|(member, _)| *member == lead.member);
        let budget = match stage {
            _ if !race => u64::MAX,
            Some(stage) => stages[stage].1,
            None => solo,
        };
        let answer = lead.run(lead.conflicts().saturating_add(budget), decision)?;
        let stopped = self
            .stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed));
        let last = stage == Some(stages.len() - 1);
        if !matches!(answer, CallAnswer::Stopped)
            || stopped
            || !race
            || last
            || decision.is_some_and(Decision::decided)
        {
            return Ok(Some(answer));
        }
        // The next stage takes over. Each stage before the last runs within its conflicts; the
        // whole-encoding specialist, once it leads, is never stopped before its answer (a stop
        // and a restart would change the grid it finds), so that its grids are the same with
        // any number of threads.
        let (member, _) = stages[stage.map_or(0, |stage| stage + 1)];
        let mut racer = self.racer(member)?;
        if member == specialist() {
            racer
                .solver
                .export_learnt(self.learnt.clone(), SHARED_LENGTH);
        }
        if let Some(decision) = decision {
            decision.follow(racer.limit.clone());
        }
        let retired = self.lead.replace(racer).map_or(0, |r| r.conflicts());
        self.retired_conflicts += retired;
        Ok(None)
    }
}
