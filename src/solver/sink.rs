//! The clause sink. Encoders write variables and clauses through [`ClauseSink`], so one encoder
//! fills a solver directly (through [`crate::solver`]), an in-memory [`CnfFormula`] for
//! DIMACS export, or a `TaggedFormula` that remembers which rule of the puzzle each clause
//! states (the pattern of varisat's `ExtendFormula` and rustsat's `CollectClauses`).

use crate::model::cnf::CnfFormula;
use crate::model::deadline::{Deadline, Pulse, TimeLimit};
use crate::model::lit::{Lit, Var};
use crate::model::rule::Rule;

/// Something that takes fresh variables and clauses.
pub trait ClauseSink {
    /// A fresh variable.
    fn new_var(&mut self) -> Var;
    /// Adds one clause (a disjunction of literals).
    fn add_clause(&mut self, clause: &[Lit]);
    /// Names the rule of the puzzle that the clauses added from now on state. Encoders call it
    /// before each group of clauses; sinks that keep no tags ignore it.
    fn set_rule(&mut self, _rule: Rule) {}
    /// Whether the sink drops every clause from now on (`Timed` past its deadline, `Capped`
    /// past its cap): the formula is then thrown away, so an encoder may stop early. Never
    /// true for a sink that keeps every clause.
    fn is_stopped(&self) -> bool {
        false
    }
    /// The deadline past which the sink stops ([`ClauseSink::is_stopped`]), for work an
    /// encoder does before its clauses (its pre-solving facts); none for a sink that keeps
    /// every clause.
    fn deadline(&self) -> Deadline {
        Deadline::NONE
    }
}

impl ClauseSink for CnfFormula {
    fn new_var(&mut self) -> Var {
        CnfFormula::new_var(self)
    }
    fn add_clause(&mut self, clause: &[Lit]) {
        CnfFormula::add_clause(self, clause)
    }
}

/// A sink wrapper that counts what passes through it.
#[derive(Debug)]
pub(crate) struct Counted<'s, S: ?Sized> {
    inner: &'s mut S,
    /// Variables created so far.
    pub vars: usize,
    /// Clauses added so far.
    pub clauses: usize,
}

impl<'s, S: ClauseSink + ?Sized> Counted<'s, S> {
    /// Wraps `inner`, counting from zero.
    pub(crate) fn new(inner: &'s mut S) -> Self {
        Counted {
            inner,
            vars: 0,
            clauses: 0,
        }
    }
}

impl<S: ClauseSink + ?Sized> ClauseSink for Counted<'_, S> {
    fn new_var(&mut self) -> Var {
        self.vars += 1;
        self.inner.new_var()
    }
    fn add_clause(&mut self, clause: &[Lit]) {
        self.clauses += 1;
        self.inner.add_clause(clause)
    }
    fn set_rule(&mut self, rule: Rule) {
        self.inner.set_rule(rule)
    }
    fn is_stopped(&self) -> bool {
        self.inner.is_stopped()
    }
    fn deadline(&self) -> Deadline {
        self.inner.deadline()
    }
}

/// A sink wrapper that stops passing clauses on once a deadline has passed, so that encoding
/// a huge board gives up within the time limit ([`Timed::finish`] then tells; the formula
/// is incomplete and must be thrown away). The clock is read every few thousand clauses. Once
/// stopped it hands out variables without asking the sink inside (numbered as the sink would
/// have numbered them), and [`ClauseSink::is_stopped`] tells encoders that they may stop.
#[derive(Debug)]
pub(crate) struct Timed<'s, S: ?Sized> {
    inner: &'s mut S,
    pulse: Pulse,
    stopped: bool,
    /// The index the next variable gets.
    next_var: usize,
}

impl<'s, S: ClauseSink + ?Sized> Timed<'s, S> {
    /// Wraps `inner`, stopping at `deadline`.
    pub(crate) fn new(inner: &'s mut S, deadline: Deadline) -> Self {
        Timed {
            inner,
            pulse: deadline.pulse(),
            stopped: false,
            next_var: 0,
        }
    }

    /// `Err(TimeLimit)` if the deadline passed while encoding (clauses were dropped).
    pub(crate) fn finish(self) -> Result<(), TimeLimit> {
        if self.stopped || self.pulse.deadline().passed() {
            Err(TimeLimit)
        } else {
            Ok(())
        }
    }
}

impl<S: ClauseSink + ?Sized> ClauseSink for Timed<'_, S> {
    fn new_var(&mut self) -> Var {
        let var = if self.stopped {
            // The formula is thrown away: the sink inside need not grow.
            Var::from_index(self.next_var)
        } else {
            self.inner.new_var()
        };
        self.next_var = var.index() + 1;
        var
    }
    fn add_clause(&mut self, clause: &[Lit]) {
        if self.stopped || self.pulse.beat().is_err() {
            self.stopped = true;
            return;
        }
        self.inner.add_clause(clause)
    }
    fn set_rule(&mut self, rule: Rule) {
        self.inner.set_rule(rule)
    }
    fn deadline(&self) -> Deadline {
        self.pulse.deadline().clone()
    }
    fn is_stopped(&self) -> bool {
        self.stopped || self.inner.is_stopped()
    }
}

/// A sink wrapper that passes at most `max` clauses on, so that a formula held in memory stays
/// bounded: [`Capped::overflowed`] tells when clauses were dropped (the formula is then
/// incomplete and must be thrown away).
#[derive(Debug)]
pub(crate) struct Capped<'s, S: ?Sized> {
    inner: &'s mut S,
    left: usize,
    overflowed: bool,
}

impl<'s, S: ClauseSink + ?Sized> Capped<'s, S> {
    /// Wraps `inner`, passing on at most `max` clauses.
    pub(crate) fn new(inner: &'s mut S, max: usize) -> Self {
        Capped {
            inner,
            left: max,
            overflowed: false,
        }
    }

    /// Whether more than `max` clauses came.
    pub(crate) fn overflowed(&self) -> bool {
        self.overflowed
    }
}

impl<S: ClauseSink + ?Sized> ClauseSink for Capped<'_, S> {
    fn new_var(&mut self) -> Var {
        self.inner.new_var()
    }
    fn add_clause(&mut self, clause: &[Lit]) {
        match self.left.checked_sub(1) {
            Some(left) => {
                self.left = left;
                self.inner.add_clause(clause);
            }
            None => self.overflowed = true,
        }
    }
    fn set_rule(&mut self, rule: Rule) {
        self.inner.set_rule(rule)
    }
    fn is_stopped(&self) -> bool {
        self.overflowed || self.inner.is_stopped()
    }
    fn deadline(&self) -> Deadline {
        self.inner.deadline()
    }
}

/// An in-memory formula that records, for every clause, the rule it states.
#[derive(Debug, Default)]
pub(crate) struct TaggedFormula {
    /// The clauses.
    pub formula: CnfFormula,
    /// The rule of each clause, in clause order.
    pub rules: Vec<Rule>,
    current: Option<Rule>,
}

impl TaggedFormula {
    /// An empty formula.
    pub(crate) fn new() -> Self {
        TaggedFormula::default()
    }
}

impl ClauseSink for TaggedFormula {
    fn new_var(&mut self) -> Var {
        self.formula.new_var()
    }
    fn add_clause(&mut self, clause: &[Lit]) {
        self.formula.add_clause(clause);
        self.rules.push(self.current.unwrap_or(Rule::Other));
    }
    fn set_rule(&mut self, rule: Rule) {
        self.current = Some(rule);
    }
}
