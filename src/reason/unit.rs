//! Unit propagation over a CNF formula, with reasons and failed-literal probing. No solver
//! exposes its propagation, and grading and hints need to know exactly what unit propagation
//! (and one or two levels of look-ahead) derives, and from which clauses.
//!
//! Two watched literals per clause; a trail with the reason clause of every implied literal, so
//! that a caller can walk back from a literal to the clauses that forced it.

use crate::model::cnf::CnfFormula;
use crate::model::deadline::{Deadline, Pulse, TimeLimit};
use crate::model::lit::{Lit, Var};

/// A propagation conflict: the index of a clause whose literals are all false.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Conflict {
    /// The falsified clause.
    pub clause: usize,
}

/// A mark on the trail to undo back to ([`Propagator::mark`], [`Propagator::undo`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TrailMark(usize);

/// A clause watching a literal, with a literal of the clause to look at first (its blocker):
/// while that is true, the clause is satisfied and is not read. A binary clause's blocker is its
/// other literal, so visiting it reads neither the clause nor its span.
#[derive(Clone, Copy, Debug)]
struct ClauseWatch {
    clause: u32,
    blocker: Lit,
    binary: bool,
}

/// Unit propagation with two watched literals over a fixed set of clauses.
#[derive(Clone, Debug)]
pub(crate) struct Propagator {
    /// Every clause's literals, one after another; the first two of a clause are its watches.
    lits: Vec<Lit>,
    /// Per clause: where its literals start in `lits`, and how many there are.
    spans: Vec<(u32, u32)>,
    /// The clauses watching each literal (by [`Lit::code`]): visited when it becomes false.
    watches: Vec<Vec<ClauseWatch>>,
    /// Per literal (by [`Lit::code`]): 0 unassigned, 1 true, -1 false.
    values: Vec<i8>,
    /// Per variable: the clause that implied it (`None` for assumptions and unassigned).
    reasons: Vec<Option<usize>>,
    trail: Vec<Lit>,
    head: usize,
    /// Unit and empty clauses, applied by [`Propagator::propagate_root`].
    units: Vec<usize>,
    /// Propagation and probing stop once it passes ([`Propagator::set_deadline`]).
    pulse: Pulse,
    stopped: bool,
    /// Per probing depth, by [`Lit::code`]: the stamp of the round whose probe assigned the
    /// literal without a conflict ([`Propagator::probe_fixpoint`]).
    dominated: [Vec<u32>; MAX_PROBE_DEPTH + 1],
    stamps: [u32; MAX_PROBE_DEPTH + 1],
}

impl Propagator {
    /// A propagator over the clauses of `formula`, nothing assigned yet.
    pub(crate) fn new(formula: &CnfFormula) -> Self {
        match Propagator::within(formula, Deadline::NONE) {
            Ok(p) => p,
            Err(TimeLimit) => unreachable!("no deadline to pass"),
        }
    }

    /// Adds a clause (before propagating). Returns its index.
    pub(crate) fn add_clause(&mut self, clause: &[Lit]) -> usize {
        let index = self.spans.len();
        let start = self.lits.len();
        let mut lits = clause.to_vec();
        lits.sort_unstable();
        lits.dedup();
        self.lits.extend_from_slice(&lits);
        for lit in &lits {
            let need = lit.index() + 1;
            if self.reasons.len() < need {
                self.values.resize(2 * need, 0);
                self.reasons.resize(need, None);
                self.watches.resize(2 * need, Vec::new());
            }
        }
        let clause = u32::try_from(index).expect("fewer than 2^32 clauses");
        match lits[..] {
            [a, b, ..] => {
                let binary = lits.len() == 2;
                self.watches[a.code()].push(ClauseWatch {
                    clause,
                    blocker: b,
                    binary,
                });
                self.watches[b.code()].push(ClauseWatch {
                    clause,
                    blocker: a,
                    binary,
                });
            }
            _ => self.units.push(index),
        }
        let at = |n: usize| u32::try_from(n).expect("fewer than 2^32 literals");
        self.spans.push((at(start), at(lits.len())));
        index
    }

    /// [`Propagator::new`], giving up once `deadline` passes; the propagator then keeps
    /// checking it ([`Propagator::set_deadline`]).
    pub(crate) fn within(formula: &CnfFormula, deadline: Deadline) -> Result<Self, TimeLimit> {
        let mut p = Propagator {
            lits: Vec::new(),
            spans: Vec::with_capacity(formula.len()),
            watches: vec![Vec::new(); 2 * formula.var_count()],
            values: vec![0; 2 * formula.var_count()],
            reasons: vec![None; formula.var_count()],
            trail: Vec::new(),
            head: 0,
            units: Vec::new(),
            pulse: deadline.pulse(),
            stopped: false,
            dominated: Default::default(),
            stamps: [0; MAX_PROBE_DEPTH + 1],
        };
        let mut pulse = deadline.pulse();
        for clause in formula.iter() {
            if pulse.beat().is_err() {
                // Freeing the clauses so far is not the caller's time any more.
                deadline.discard(p);
                return Err(TimeLimit);
            }
            p.add_clause(clause);
        }
        deadline.check()?;
        Ok(p)
    }

    /// Makes propagation and probing ([`Propagator::probe_fixpoint`]) stop once `deadline`
    /// passes, with what they found so far (every literal set is still implied, only fewer
    /// are); [`Propagator::stopped`] tells, and from then on nothing more is propagated.
    #[cfg(test)]
    pub(crate) fn set_deadline(&mut self, deadline: Deadline) {
        self.pulse = deadline.pulse();
    }

    /// Whether the deadline stopped propagation or probing short of its fixpoint.
    pub(crate) fn stopped(&self) -> bool {
        self.stopped
    }

    /// The literals of clause `index`.
    pub(crate) fn clause(&self, index: usize) -> &[Lit] {
        let (start, len) = self.spans[index];
        &self.lits[start as usize..(start + len) as usize]
    }

    /// The literals of clause `index`, `None` past the last clause.
    pub(crate) fn try_clause(&self, index: usize) -> Option<&[Lit]> {
        (index < self.spans.len()).then(|| self.clause(index))
    }

    /// The value of `lit`, `None` while unassigned.
    pub(crate) fn value(&self, lit: Lit) -> Option<bool> {
        match self.values.get(lit.code()).copied().unwrap_or(0) {
            0 => None,
            v => Some(v > 0),
        }
    }

    /// The value of variable `var`.
    pub(crate) fn var_value(&self, var: Var) -> Option<bool> {
        self.value(var.positive())
    }

    /// The clause that implied `var`, `None` for assumptions or unassigned variables.
    pub(crate) fn reason(&self, var: Var) -> Option<usize> {
        self.reasons.get(var.index()).copied().flatten()
    }

    /// The assigned literals, in the order assigned.
    pub(crate) fn trail(&self) -> &[Lit] {
        &self.trail
    }

    /// A mark to undo back to.
    pub(crate) fn mark(&self) -> TrailMark {
        TrailMark(self.trail.len())
    }

    /// Unassigns everything assigned after `mark`.
    pub(crate) fn undo(&mut self, mark: TrailMark) {
        for lit in self.trail.drain(mark.0..) {
            self.values[lit.code()] = 0;
            self.values[(!lit).code()] = 0;
            self.reasons[lit.index()] = None;
        }
        self.head = self.head.min(mark.0);
    }

    fn set(&mut self, lit: Lit, reason: Option<usize>) {
        self.values[lit.code()] = 1;
        self.values[(!lit).code()] = -1;
        self.reasons[lit.index()] = reason;
        self.trail.push(lit);
    }

    /// Applies the unit clauses and propagates.
    pub(crate) fn propagate_root(&mut self) -> Result<(), Conflict> {
        for i in 0..self.units.len() {
            let index = self.units[i];
            match self.clause(index).first().copied() {
                None => return Err(Conflict { clause: index }),
                Some(lit) => match self.value(lit) {
                    Some(true) => {}
                    Some(false) => return Err(Conflict { clause: index }),
                    None => self.set(lit, Some(index)),
                },
            }
        }
        self.propagate()
    }

    /// Assumes `lit` (no reason clause) and propagates. A literal already false is a conflict
    /// reported as clause `usize::MAX`.
    pub(crate) fn assume(&mut self, lit: Lit) -> Result<(), Conflict> {
        match self.value(lit) {
            Some(true) => Ok(()),
            Some(false) => Err(Conflict { clause: usize::MAX }),
            None => {
                self.set(lit, None);
                self.propagate()
            }
        }
    }

    /// Sets `lit` as implied by clause `reason` (which the caller vouches for) and propagates.
    pub(crate) fn imply(&mut self, lit: Lit, reason: Option<usize>) -> Result<(), Conflict> {
        match self.value(lit) {
            Some(true) => Ok(()),
            Some(false) => Err(Conflict {
                clause: reason.unwrap_or(usize::MAX),
            }),
            None => {
                self.set(lit, reason);
                self.propagate()
            }
        }
    }

    /// Propagates every assigned literal not propagated yet.
    pub(crate) fn propagate(&mut self) -> Result<(), Conflict> {
        while self.head < self.trail.len() {
            if self.stopped || self.pulse.beat().is_err() {
                self.stopped = true;
                return Ok(());
            }
            let lit = self.trail[self.head];
            self.head += 1;
            let false_lit = !lit;
            let mut watching = std::mem::take(&mut self.watches[false_lit.code()]);
            let mut i = 0;
            let mut conflict = None;
            while i < watching.len() {
                let watch = watching[i];
                let ci = watch.clause as usize;
                let blocked = self.values[watch.blocker.code()];
                if blocked > 0 {
                    i += 1;
                    continue;
                }
                if watch.binary {
                    // No other literal to watch instead.
                    let other = watch.blocker;
                    i += 1;
                    match blocked {
                        0 => {
                            self.order_binary(ci, other);
                            self.set(other, Some(ci));
                        }
                        -1 => {
                            self.order_binary(ci, other);
                            conflict = Some(ci);
                            break;
                        }
                        _ => {}
                    }
                    continue;
                }
                let (start, len) = self.spans[ci];
                let clause = &mut self.lits[start as usize..(start + len) as usize];
                if clause[0] == false_lit {
                    clause.swap(0, 1);
                }
                // clause[1] is the false watch.
                let first = clause[0];
                let values = &self.values;
                if values[first.code()] > 0 {
                    watching[i].blocker = first;
                    i += 1;
                    continue;
                }
                let replacement = (2..clause.len()).find(|&k| values[clause[k].code()] >= 0);
                if let Some(k) = replacement {
                    clause.swap(1, k);
                    let new_watch = clause[1];
                    self.watches[new_watch.code()].push(ClauseWatch {
                        clause: watch.clause,
                        blocker: first,
                        binary: false,
                    });
                    watching.swap_remove(i);
                    continue;
                }
                i += 1;
                match self.values[first.code()] {
                    0 => self.set(first, Some(ci)),
                    -1 => {
                        conflict = Some(ci);
                        break;
                    }
                    _ => {}
                }
            }
            // Put back the watches (some may have been added to this list meanwhile? no: a
            // clause never moves a watch onto a false literal).
            let slot = &mut self.watches[false_lit.code()];
            if slot.is_empty() {
                *slot = watching;
            } else {
                slot.extend(watching);
            }
            if let Some(clause) = conflict {
                self.head = self.trail.len();
                return Err(Conflict { clause });
            }
        }
        Ok(())
    }

    /// Puts binary clause `index`'s literal `first` first, as a clause visited through its
    /// other (false) literal is ordered by the watch scheme: a reason clause then starts with
    /// the literal it implied.
    fn order_binary(&mut self, index: usize, first: Lit) {
        let start = self.spans[index].0 as usize;
        if self.lits[start] != first {
            self.lits.swap(start, start + 1);
        }
    }

    /// Whether assuming `lit` leads to a conflict by unit propagation. Nothing stays assigned.
    pub(crate) fn probe(&mut self, lit: Lit) -> bool {
        let mark = self.mark();
        let failed = self.assume(lit).is_err();
        self.undo(mark);
        failed
    }

    /// Failed-literal probing on `vars` to a fixpoint: whenever assuming a literal of one of
    /// them leads to a conflict, its negation is set (as implied, with no reason clause) and
    /// propagated. With `depth` 2, each probe itself runs depth-1 probing before giving up.
    /// Returns the number of literals set by probing, or the conflict that shows the formula
    /// unsatisfiable under the current assignment.
    ///
    /// The fixpoint is unique (a literal that fails keeps failing as more is assigned), so the
    /// order of the probes changes only the work, never the result. Two shortcuts use that:
    /// - a literal that a successful probe assigned in the same round is not probed (its own
    ///   consequences are a subset of that probe's, which had no conflict); a round that finds
    ///   nothing is therefore still a full check;
    /// - with `depth` 2 or more, each failed literal found is followed by the cheaper
    ///   shallower fixpoint, which the deep one would reach anyway.
    pub(crate) fn probe_fixpoint(&mut self, vars: &[Var], depth: usize) -> Result<usize, Conflict> {
        self.probe_fixpoint_knowing(vars, None, depth)
    }

    /// [`Propagator::probe_fixpoint`] for a caller that knows a `model`: the value of each of
    /// `vars` (in their order) in an assignment that satisfies every clause and agrees with
    /// everything assigned now. A literal true in it cannot fail at any depth (everything it
    /// leads to is true in the model too), so at this level only the literals it makes false
    /// are probed; the fixpoint is the same, for about half the probes. Probes inside an
    /// assumption try both literals, since the model need not agree with the assumption.
    pub(crate) fn probe_fixpoint_knowing(
        &mut self,
        vars: &[Var],
        model: Option<&[bool]>,
        depth: usize,
    ) -> Result<usize, Conflict> {
        if let Some(model) = model {
            assert_eq!(model.len(), vars.len(), "one model value per variable");
        }
        let level = depth.min(MAX_PROBE_DEPTH);
        let mut found = 0;
        loop {
            let mut progress = false;
            // A new stamp forgets the literals implied in earlier rounds and deeper calls.
            let stamp = self.next_stamp(level);
            for (i, &var) in vars.iter().enumerate() {
                if self.stopped || self.pulse.deadline().passed() {
                    self.stopped = true;
                    return Ok(found);
                }
                for lit in [var.positive(), var.negative()] {
                    if self.var_value(var).is_some() {
                        break;
                    }
                    if model.is_some_and(|m| m[i] == lit.is_positive()) {
                        continue; // true in the model: cannot fail
                    }
                    if self.dominated[level][lit.code()] == stamp {
                        continue;
                    }
                    if self.failed_noting(lit, depth, vars, Some(stamp)) {
                        self.imply(!lit, None)?;
                        found += 1;
                        progress = true;
                        if depth > 1 {
                            found += self.probe_fixpoint_knowing(vars, model, depth - 1)?;
                        }
                    }
                }
            }
            if !progress {
                return Ok(found);
            }
        }
    }

    /// Whether `lit` fails at `depth`: depth 1 is plain propagation, depth `d` also runs
    /// probing of depth `d - 1` on `vars` under the assumption. Nothing stays assigned.
    #[cfg(test)]
    pub(crate) fn failed(&mut self, lit: Lit, depth: usize, vars: &[Var]) -> bool {
        self.failed_noting(lit, depth, vars, None)
    }

    /// [`Propagator::failed`]; when `lit` does not fail and `stamp` is given, every literal it
    /// led to is stamped as implied at `depth`'s level.
    fn failed_noting(&mut self, lit: Lit, depth: usize, vars: &[Var], stamp: Option<u32>) -> bool {
        let mark = self.mark();
        let failed = self.assume(lit).is_err()
            || (depth > 1 && self.probe_fixpoint(vars, depth - 1).is_err());
        if let (false, Some(stamp)) = (failed, stamp) {
            // The round that handed out `stamp` sized this level's table ([`next_stamp`]).
            let dominated = &mut self.dominated[depth.min(MAX_PROBE_DEPTH)];
            for l in &self.trail[mark.0..] {
                dominated[l.code()] = stamp;
            }
        }
        self.undo(mark);
        failed
    }

    /// A fresh stamp for the probing rounds at `level` (the table grown to the variables).
    fn next_stamp(&mut self, level: usize) -> u32 {
        let dominated = &mut self.dominated[level];
        if dominated.len() < 2 * self.values.len() {
            dominated.resize(2 * self.values.len(), 0);
        }
        self.stamps[level] = self.stamps[level].wrapping_add(1);
        if self.stamps[level] == 0 {
            // Wrapped: stamps from before could repeat.
            dominated.fill(0);
            self.stamps[level] = 1;
        }
        self.stamps[level]
    }
}

/// Probing depths with a table of their own for [`Propagator::probe_fixpoint`]'s shortcut;
/// deeper probing shares the last one (correct, since a round only trusts its own stamp).
const MAX_PROBE_DEPTH: usize = 3;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn propagates_chains_and_undoes() {
        let mut f = CnfFormula::new();
        let v: Vec<Lit> = (0..4).map(|_| f.new_lit()).collect();
        f.add_clause(&[!v[0], v[1]]);
        f.add_clause(&[!v[1], !v[2], v[3]]);
        f.add_clause(&[v[2]]);
        let mut p = Propagator::new(&f);
        p.propagate_root().unwrap();
        assert_eq!(p.value(v[2]), Some(true));
        assert_eq!(p.value(v[0]), None);
        let mark = p.mark();
        p.assume(v[0]).unwrap();
        assert_eq!(p.value(v[3]), Some(true));
        assert_eq!(p.reason(v[3].var()), Some(1));
        p.undo(mark);
        assert_eq!(p.value(v[3]), None);
        assert!(!p.probe(!v[3]));
        // Backwards through both clauses: !v3 gives !v1, then !v0.
        p.assume(!v[3]).unwrap();
        assert_eq!(p.value(v[0]), Some(false));
        assert_eq!(p.reason(v[0].var()), Some(0));
        assert!(p.probe(v[0]), "a false literal fails at once");
        let vars: Vec<Var> = v.iter().map(|l| l.var()).collect();
        assert_eq!(p.probe_fixpoint(&vars, 1), Ok(0), "nothing left to probe");
    }

    #[test]
    fn finds_root_conflicts() {
        let mut f = CnfFormula::new();
        let a = f.new_lit();
        let b = f.new_lit();
        f.add_clause(&[a, b]);
        f.add_clause(&[a, !b]);
        f.add_clause(&[!a, b]);
        f.add_clause(&[!a, !b]);
        let mut p = Propagator::new(&f);
        p.propagate_root().unwrap();
        // Plain propagation sees nothing; probing one level deep finds the contradiction.
        assert_eq!(p.value(a), None);
        assert!(p.failed(a, 1, &[]));
        assert!(p.probe_fixpoint(&[a.var(), b.var()], 1).is_err());
    }

    #[test]
    fn a_passed_deadline_stops_probing_with_what_it_found() {
        let mut f = CnfFormula::new();
        let a = f.new_lit();
        let b = f.new_lit();
        f.add_clause(&[a, b]);
        f.add_clause(&[a, !b]);
        let mut p = Propagator::new(&f);
        p.set_deadline(Deadline::after(std::time::Duration::ZERO));
        assert_eq!(p.probe_fixpoint(&[a.var(), b.var()], 2), Ok(0));
        assert!(p.stopped());
        assert_eq!(p.value(a), None);
    }

    #[test]
    fn probing_finds_what_propagation_misses() {
        // (a | b) (a | !b) forces a, but only a probe of !a sees it.
        let mut f = CnfFormula::new();
        let a = f.new_lit();
        let b = f.new_lit();
        let c = f.new_lit();
        f.add_clause(&[a, b]);
        f.add_clause(&[a, !b]);
        f.add_clause(&[!a, c]);
        let mut p = Propagator::new(&f);
        p.propagate_root().unwrap();
        assert_eq!(p.value(a), None);
        assert_eq!(p.probe_fixpoint(&[a.var()], 1), Ok(1));
        assert_eq!(p.value(a), Some(true));
        assert_eq!(p.value(c), Some(true), "the probe's result is propagated");
    }

    /// Probing without the shortcuts of [`Propagator::probe_fixpoint`]: every literal of
    /// every variable, every round, at every depth.
    fn plain_fixpoint(p: &mut Propagator, vars: &[Var], depth: usize) -> Result<(), Conflict> {
        loop {
            let mut progress = false;
            for &var in vars {
                for lit in [var.positive(), var.negative()] {
                    if p.var_value(var).is_some() {
                        break;
                    }
                    let mark = p.mark();
                    let failed = p.assume(lit).is_err()
                        || (depth > 1 && plain_fixpoint(p, vars, depth - 1).is_err());
                    p.undo(mark);
                    if failed {
                        p.imply(!lit, None)?;
                        progress = true;
                    }
                }
            }
            if !progress {
                return Ok(());
            }
        }
    }

    /// The values of `vars` after `how` probes the root-propagated formula, or `None` for a
    /// conflict.
    fn probed(
        formula: &CnfFormula,
        vars: &[Var],
        how: &dyn Fn(&mut Propagator) -> Result<(), Conflict>,
    ) -> Option<Vec<Option<bool>>> {
        let mut p = Propagator::new(formula);
        p.propagate_root().ok()?;
        how(&mut p).ok()?;
        Some(vars.iter().map(|&v| p.var_value(v)).collect())
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]

        /// The shortcuts (skipping literals a successful probe implied, the shallower fixpoint
        /// after each find, and the literals a model makes true) reach the plain fixpoint.
        #[test]
        fn shortcuts_reach_the_plain_fixpoint(
            n in 3usize..12,
            clauses in proptest::collection::vec(
                proptest::collection::vec((0usize..12, proptest::prelude::any::<bool>()), 1..4),
                1..40,
            ),
            depth in 1usize..=3,
        ) {
            let mut f = CnfFormula::new();
            let vars: Vec<Var> = (0..n).map(|_| f.new_var()).collect();
            for clause in &clauses {
                let lits: Vec<Lit> = clause.iter().map(|&(v, pol)| vars[v % n].lit(pol)).collect();
                f.add_clause(&lits);
            }
            let plain = probed(&f, &vars, &|p| plain_fixpoint(p, &vars, depth));
            let fast = probed(&f, &vars, &|p| p.probe_fixpoint(&vars, depth).map(|_| ()));
            proptest::prop_assert_eq!(&fast, &plain);
            // Every model of the formula gives the same fixpoint too.
            for bits in 0u32..(1 << n) {
                let model: Vec<bool> = (0..n).map(|i| bits >> i & 1 == 1).collect();
                let satisfied = clauses.iter().all(|c| c.iter().any(|&(v, pol)| model[v % n] == pol));
                if satisfied {
                    let knowing = probed(&f, &vars, &|p| {
                        p.probe_fixpoint_knowing(&vars, Some(&model), depth).map(|_| ())
                    });
                    proptest::prop_assert_eq!(&knowing, &plain);
                }
            }
        }
    }
}
