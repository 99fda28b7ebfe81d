//! The clause sink. Encoders write variables and clauses through [`ClauseSink`], so one encoder
//! fills a solver directly (through [`crate::solver`]), an in-memory [`varisat::CnfFormula`] for
//! DIMACS export, or a [`TaggedFormula`] that remembers which rule of the puzzle each clause
//! states (the pattern of varisat's `ExtendFormula` and rustsat's `CollectClauses`).

use crate::rule::Rule;
use varisat::{CnfFormula, ExtendFormula, Lit, Var};

/// Something that takes fresh variables and clauses.
pub trait ClauseSink {
    /// A fresh variable.
    fn new_var(&mut self) -> Var;
    /// Adds one clause (a disjunction of literals).
    fn add_clause(&mut self, clause: &[Lit]);
    /// Names the rule of the puzzle that the clauses added from now on state. Encoders call it
    /// before each group of clauses; sinks that keep no tags ignore it.
    fn set_rule(&mut self, _rule: Rule) {}
}

impl ClauseSink for CnfFormula {
    fn new_var(&mut self) -> Var {
        ExtendFormula::new_var(self)
    }
    fn add_clause(&mut self, clause: &[Lit]) {
        ExtendFormula::add_clause(self, clause)
    }
}

/// A sink wrapper that counts what passes through it.
#[derive(Debug)]
pub struct Counted<'s, S: ?Sized> {
    inner: &'s mut S,
    /// Variables created so far.
    pub vars: usize,
    /// Clauses added so far.
    pub clauses: usize,
}

impl<'s, S: ClauseSink + ?Sized> Counted<'s, S> {
    /// Wraps `inner`, counting from zero.
    pub fn new(inner: &'s mut S) -> Self {
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
}

/// An in-memory formula that records, for every clause, the rule it states.
#[derive(Debug, Default)]
pub struct TaggedFormula {
    /// The clauses.
    pub formula: CnfFormula,
    /// The rule of each clause, in clause order.
    pub rules: Vec<Rule>,
    current: Option<Rule>,
}

impl TaggedFormula {
    /// An empty formula.
    pub fn new() -> Self {
        TaggedFormula::default()
    }
}

impl ClauseSink for TaggedFormula {
    fn new_var(&mut self) -> Var {
        ExtendFormula::new_var(&mut self.formula)
    }
    fn add_clause(&mut self, clause: &[Lit]) {
        ExtendFormula::add_clause(&mut self.formula, clause);
        self.rules.push(self.current.unwrap_or(Rule::Other));
    }
    fn set_rule(&mut self, rule: Rule) {
        self.current = Some(rule);
    }
}
