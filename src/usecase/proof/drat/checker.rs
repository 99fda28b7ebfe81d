//! The checker: a clause database with watched literals, RUP by unit propagation and RAT on
//! the lemma's first literal.

use super::cnf::*;
use std::collections::HashMap;

/// A literal inside the checker: `2 * (variable - 1) + negative`.
pub(super) type CheckerLit = u32;

pub(super) const NO_REASON: u32 = u32::MAX;

pub(super) fn lit_of(l: DimacsLit) -> CheckerLit {
    let var = l.unsigned_abs() - 1;
    2 * var + u32::from(l < 0)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Derivation {
    Rup,
    Rat,
    No,
}

/// One clause of the database: its literals are `lits[start..start + len]`, the first two
/// watched.
#[derive(Clone, Copy)]
pub(super) struct Meta {
    pub(super) start: u32,
    pub(super) len: u32,
    pub(super) deleted: bool,
}

/// The clause database, with watched literals and the top-level assignment.
#[derive(Default)]
pub(super) struct Checker {
    pub(super) lits: Vec<CheckerLit>,
    pub(super) clauses: Vec<Meta>,
    /// Clauses by their sorted literals, for deletions.
    pub(super) index: HashMap<Vec<CheckerLit>, Vec<u32>>,
    /// Per literal, the clauses watching it.
    pub(super) watches: Vec<Vec<u32>>,
    /// Per variable: 0 open, 1 true, 2 false.
    pub(super) values: Vec<u8>,
    /// Per variable, the clause that set it at the top level.
    pub(super) reasons: Vec<u32>,
    pub(super) trail: Vec<CheckerLit>,
    pub(super) head: usize,
    /// The database is refuted by unit propagation: every later lemma follows.
    pub(super) refuted: bool,
}

impl Checker {
    fn ensure(&mut self, lit: CheckerLit) {
        let var = (lit >> 1) as usize;
        if var >= self.values.len() {
            self.values.resize(var + 1, 0);
            self.reasons.resize(var + 1, NO_REASON);
            self.watches.resize(2 * (var + 1), Vec::new());
        }
    }

    /// 1 true, 2 false, 0 open.
    fn value(&self, lit: CheckerLit) -> u8 {
        match self.values[(lit >> 1) as usize] {
            0 => 0,
            v if (v == 1) == (lit & 1 == 0) => 1,
            _ => 2,
        }
    }

    fn assign(&mut self, lit: CheckerLit, reason: u32) {
        let var = (lit >> 1) as usize;
        self.values[var] = if lit & 1 == 0 { 1 } else { 2 };
        self.reasons[var] = reason;
        self.trail.push(lit);
    }

    fn backtrack(&mut self, to: usize) {
        for &lit in &self.trail[to..] {
            let var = (lit >> 1) as usize;
            self.values[var] = 0;
            self.reasons[var] = NO_REASON;
        }
        self.trail.truncate(to);
        self.head = to;
    }

    /// Unit propagation from `head`; true on a conflict.
    fn propagate(&mut self) -> bool {
        while self.head < self.trail.len() {
            let falsified = self.trail[self.head] ^ 1;
            self.head += 1;
            let mut watching = std::mem::take(&mut self.watches[falsified as usize]);
            let (mut i, mut j) = (0, 0);
            let mut conflict = false;
            while i < watching.len() {
                let id = watching[i];
                i += 1;
                let meta = self.clauses[id as usize];
                if meta.deleted {
                    continue;
                }
                let s = meta.start as usize;
                let len = meta.len as usize;
                if self.lits[s] == falsified {
                    self.lits.swap(s, s + 1);
                }
                let first = self.lits[s];
                if self.value(first) == 1 {
                    watching[j] = id;
                    j += 1;
                    continue;
                }
                let mut moved = false;
                for k in s + 2..s + len {
                    if self.value(self.lits[k]) != 2 {
                        self.lits.swap(s + 1, k);
                        let new = self.lits[s + 1];
                        self.watches[new as usize].push(id);
                        moved = true;
                        break;
                    }
                }
                if moved {
                    continue;
                }
                watching[j] = id;
                j += 1;
                if self.value(first) == 2 {
                    conflict = true;
                    while i < watching.len() {
                        watching[j] = watching[i];
                        i += 1;
                        j += 1;
                    }
                    break;
                }
                self.assign(first, id);
            }
            watching.truncate(j);
            self.watches[falsified as usize] = watching;
            if conflict {
                return true;
            }
        }
        false
    }

    /// Adds a clause of the formula or a checked lemma, and propagates at the top level.
    pub(super) fn add(&mut self, clause: &[DimacsLit]) {
        let mut lits: Vec<CheckerLit> = clause.iter().map(|&l| lit_of(l)).collect();
        lits.sort_unstable();
        lits.dedup();
        for &l in &lits {
            self.ensure(l);
        }
        let id = self.clauses.len() as u32;
        self.index.entry(lits.clone()).or_default().push(id);
        let tautology = lits.windows(2).any(|w| w[0] ^ 1 == w[1]);
        // Non-false literals first: they are the watches.
        lits.sort_by_key(|&l| self.value(l) == 2);
        let start = self.lits.len() as u32;
        self.lits.extend_from_slice(&lits);
        self.clauses.push(Meta {
            start,
            len: lits.len() as u32,
            deleted: false,
        });
        if tautology || self.refuted {
            return;
        }
        let open = lits.iter().take_while(|&&l| self.value(l) != 2).count();
        if lits.len() >= 2 {
            self.watches[lits[0] as usize].push(id);
            self.watches[lits[1] as usize].push(id);
        }
        match open {
            0 => self.refuted = true,
            1 if self.value(lits[0]) == 0 => {
                self.assign(lits[0], id);
                if self.propagate() {
                    self.refuted = true;
                }
            }
            _ => {}
        }
    }

    /// Deletes a clause with these literals; false when the deletion is ignored.
    pub(super) fn delete(&mut self, clause: &[DimacsLit]) -> bool {
        let mut key: Vec<CheckerLit> = clause.iter().map(|&l| lit_of(l)).collect();
        key.sort_unstable();
        key.dedup();
        if self.refuted || key.len() < 2 {
            return false;
        }
        let Some(&id) = self.index.get(&key).and_then(|ids| ids.last()) else {
            return false;
        };
        let meta = self.clauses[id as usize];
        let first = self.lits[meta.start as usize];
        let var = (first >> 1) as usize;
        if self.reasons[var] == id && self.value(first) == 1 {
            return false;
        }
        if let Some(ids) = self.index.get_mut(&key) {
            ids.pop();
            if ids.is_empty() {
                self.index.remove(&key);
            }
        }
        self.clauses[id as usize].deleted = true;
        true
    }

    /// Whether assigning the negation of `clause` (on top of the top-level assignment) leads
    /// to a conflict by unit propagation; the assignment is undone.
    fn rup(&mut self, clause: &[CheckerLit]) -> bool {
        let saved = self.trail.len();
        let mut implied = false;
        for &l in clause {
            match self.value(l) {
                1 => {
                    implied = true;
                    break;
                }
                2 => {}
                _ => self.assign(l ^ 1, NO_REASON),
            }
        }
        if !implied {
            implied = self.propagate();
        }
        self.backtrack(saved);
        implied
    }

    pub(super) fn implied(&mut self, lemma: &[DimacsLit]) -> Derivation {
        if self.refuted {
            return Derivation::Rup;
        }
        let lits: Vec<CheckerLit> = lemma.iter().map(|&l| lit_of(l)).collect();
        for &l in &lits {
            self.ensure(l);
        }
        if self.rup(&lits) {
            return Derivation::Rup;
        }
        let Some(&pivot) = lits.first() else {
            return Derivation::No;
        };
        // RAT on the pivot: every resolvent with a clause holding its negation is RUP.
        let negated = pivot ^ 1;
        let mut resolvent = Vec::new();
        for id in 0..self.clauses.len() {
            let meta = self.clauses[id];
            let s = meta.start as usize;
            let other = &self.lits[s..s + meta.len as usize];
            if meta.deleted || !other.contains(&negated) {
                continue;
            }
            resolvent.clear();
            resolvent.extend_from_slice(&lits);
            resolvent.extend(other.iter().copied().filter(|&l| l != negated));
            if !self.rup(&resolvent) {
                return Derivation::No;
            }
        }
        Derivation::Rat
    }
}
