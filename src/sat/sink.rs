//! The clause sink. Encoders write variables and clauses through [`ClauseSink`], so one encoder
//! fills a varisat solver directly, or an in-memory [`varisat::CnfFormula`] for DIMACS export
//! (the pattern of varisat's `ExtendFormula` and rustsat's `CollectClauses`).

use varisat::{CnfFormula, ExtendFormula, Lit, SendSolver, Solver, Var};

/// Something that takes fresh variables and clauses.
pub trait ClauseSink {
    /// A fresh variable.
    fn new_var(&mut self) -> Var;
    /// Adds one clause (a disjunction of literals).
    fn add_clause(&mut self, clause: &[Lit]);
}

impl ClauseSink for Solver<'_> {
    fn new_var(&mut self) -> Var {
        ExtendFormula::new_var(self)
    }
    fn add_clause(&mut self, clause: &[Lit]) {
        ExtendFormula::add_clause(self, clause)
    }
}

impl ClauseSink for SendSolver {
    fn new_var(&mut self) -> Var {
        ExtendFormula::new_var(self)
    }
    fn add_clause(&mut self, clause: &[Lit]) {
        ExtendFormula::add_clause(self, clause)
    }
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
}
