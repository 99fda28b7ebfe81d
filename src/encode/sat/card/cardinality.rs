//! What every cardinality encoding is: the [`Cardinality`] trait, its [`EncodingSize`], and
//! [`exactly`], which handles the trivial cases before calling an encoding.

use crate::model::lit::Lit;
use crate::solver::sink::ClauseSink;

/// Variables and clauses an encoding adds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
pub struct EncodingSize {
    /// Auxiliary variables.
    pub vars: usize,
    /// Clauses.
    pub clauses: usize,
}

impl std::ops::Add for EncodingSize {
    type Output = EncodingSize;
    fn add(self, other: EncodingSize) -> EncodingSize {
        EncodingSize {
            vars: self.vars + other.vars,
            clauses: self.clauses + other.clauses,
        }
    }
}

impl std::iter::Sum for EncodingSize {
    fn sum<I: Iterator<Item = EncodingSize>>(iter: I) -> Self {
        iter.fold(EncodingSize::default(), |a, b| a + b)
    }
}

/// An exactly-k encoding.
pub trait Cardinality {
    /// Short name used on the command line and in DIMACS headers.
    const NAME: &'static str;

    /// Adds clauses that hold exactly when `k` of `lits` are true. The trivial cases (`k = 0`,
    /// `k >= n`) are handled by [`exactly`] before an encoding is called, so implementations
    /// may assume `1 <= k < n`.
    fn encode<S: ClauseSink + ?Sized>(sink: &mut S, lits: &[Lit], k: usize);

    /// What [`Cardinality::encode`] adds for `1 <= k < n`.
    fn size_nontrivial(n: usize, k: usize) -> EncodingSize;

    /// What [`exactly`] adds for any `n` and `k` with this encoding.
    fn size(n: usize, k: usize) -> EncodingSize {
        match trivial_size(n, k) {
            Some(size) => size,
            None => Self::size_nontrivial(n, k),
        }
    }
}

/// Adds "exactly `k` of `lits`" with encoding `C`, handling the trivial cases with unit clauses
/// (or one empty clause when `k > n`).
pub fn exactly<C: Cardinality, S: ClauseSink + ?Sized>(sink: &mut S, lits: &[Lit], k: usize) {
    let n = lits.len();
    if k > n {
        sink.add_clause(&[]);
    } else if k == 0 {
        for &l in lits {
            sink.add_clause(&[!l]);
        }
    } else if k == n {
        for &l in lits {
            sink.add_clause(&[l]);
        }
    } else {
        C::encode(sink, lits, k);
    }
}

fn trivial_size(n: usize, k: usize) -> Option<EncodingSize> {
    if k > n {
        Some(EncodingSize {
            vars: 0,
            clauses: 1,
        })
    } else if k == 0 || k == n {
        Some(EncodingSize {
            vars: 0,
            clauses: n,
        })
    } else {
        None
    }
}
