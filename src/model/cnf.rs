//! [`CnfFormula`]: a formula in conjunctive normal form held in memory, in the crate's own
//! [`Lit`]s. DIMACS export writes it (`CnfFormula::write_dimacs`), unit propagation, grades
//! and hints read it, and a solver adapter loads it clause by clause. All clauses share one
//! buffer of literals.

use crate::model::lit::{Lit, Var};
use std::{fmt, io};

/// Clauses over variables `0..var_count`, in the order they were added.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct CnfFormula {
    var_count: usize,
    literals: Vec<Lit>,
    /// Where each clause ends in `literals`; it starts where the one before ends.
    ends: Vec<usize>,
}

impl CnfFormula {
    /// An empty formula.
    pub fn new() -> CnfFormula {
        CnfFormula::default()
    }

    /// The number of variables: one more than the highest index a clause or
    /// `CnfFormula::new_var` used, or what `CnfFormula::set_var_count` raised it to.
    pub fn var_count(&self) -> usize {
        self.var_count
    }

    /// Raises the number of variables to `count` (never lowers it).
    #[cfg(test)]
    pub(crate) fn set_var_count(&mut self, count: usize) {
        self.var_count = self.var_count.max(count);
    }

    /// The number of clauses.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether the formula has no clause.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The clauses, in order.
    pub fn iter(&self) -> impl Iterator<Item = &[Lit]> {
        let mut start = 0;
        self.ends.iter().map(move |&end| {
            let clause = &self.literals[start..end];
            start = end;
            clause
        })
    }

    /// A fresh variable.
    pub(crate) fn new_var(&mut self) -> Var {
        let var = Var::from_index(self.var_count);
        self.var_count += 1;
        var
    }

    /// A fresh variable, as its positive literal.
    #[cfg(test)]
    pub(crate) fn new_lit(&mut self) -> Lit {
        self.new_var().positive()
    }

    /// Adds one clause (a disjunction of literals); its variables count as the formula's.
    pub(crate) fn add_clause(&mut self, clause: &[Lit]) {
        self.literals.extend_from_slice(clause);
        self.ends.push(self.literals.len());
        if let Some(max) = clause.iter().map(|lit| lit.index() + 1).max() {
            self.var_count = self.var_count.max(max);
        }
    }

    /// Writes the formula as DIMACS CNF: the `p cnf VARS CLAUSES` line, then each clause as its
    /// literals' numbers, each followed by a space, and `0`.
    pub(crate) fn write_dimacs(&self, out: &mut impl io::Write) -> io::Result<()> {
        writeln!(out, "p cnf {} {}", self.var_count, self.len())?;
        let mut line = Vec::with_capacity(64);
        for clause in self.iter() {
            line.clear();
            for lit in clause {
                push_number(&mut line, lit.to_dimacs());
                line.push(b' ');
            }
            line.extend_from_slice(b"0\n");
            out.write_all(&line)?;
        }
        Ok(())
    }
}

/// Appends `number` in decimal.
fn push_number(out: &mut Vec<u8>, number: isize) {
    if number < 0 {
        out.push(b'-');
    }
    let mut digits = [0u8; 20];
    let mut rest = number.unsigned_abs();
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[at..]);
}

/// The variable count, then the clauses.
impl fmt::Debug for CnfFormula {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        fmt::Debug::fmt(&self.var_count, f)?;
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clauses_variables_and_dimacs() {
        let mut f = CnfFormula::new();
        assert!(f.is_empty());
        let a = f.new_lit();
        let b = f.new_lit();
        f.add_clause(&[a, !b]);
        f.add_clause(&[]);
        f.add_clause(&[Lit::from_dimacs(-12)]);
        assert_eq!(f.var_count(), 12);
        f.set_var_count(3);
        assert_eq!(f.var_count(), 12);
        assert_eq!(f.len(), 3);
        let clauses: Vec<Vec<isize>> = f
            .iter()
            .map(|c| c.iter().map(|l| l.to_dimacs()).collect())
            .collect();
        assert_eq!(clauses, vec![vec![1, -2], vec![], vec![-12]]);
        let mut out = Vec::new();
        f.write_dimacs(&mut out).expect("a Vec takes every byte");
        assert_eq!(
            String::from_utf8(out).expect("ASCII"),
            "p cnf 12 3\n1 -2 0\n0\n-12 0\n"
        );
        assert_eq!(format!("{f:?}"), "12[[1, -2], [], [-12]]");
        let mut number = Vec::new();
        push_number(&mut number, -1_234_567_890);
        push_number(&mut number, 0);
        assert_eq!(number, b"-12345678900");
    }
}
