//! The sequential counter of Sinz, "Towards an Optimal CNF Encoding of Boolean Cardinality
//! Constraints" (CP 2005), made two-way so that it encodes "exactly k" with one set of
//! registers.
//!
//! Register `R(i, j)` means "at least `j` of `x_1..x_i` are true". Each register is defined by
//! both directions of `R(i, j) <-> R(i-1, j) | (R(i-1, j-1) & x_i)`, with `R(i, 0)` true and
//! `R(i, j)` false for `j > i`. The claim is `R(n, k) & !R(n, k+1)`. Only the registers the
//! claim can reach are built: for prefix `i`, `j` runs from `max(1, k - (n - i))` to
//! `min(i, k + 1)`, and `R(1, 1)` is `x_1` itself. See `encodings/sat-cell.md` for the counts.

use super::cardinality::{Cardinality, EncodingSize};
use crate::model::lit::Lit;
use crate::solver::sink::ClauseSink;

/// Two-way sequential counter (Sinz 2005).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct SeqCounter;

/// Range of register indices `j` built for prefix `i` (1-based).
fn range(n: usize, k: usize, i: usize) -> std::ops::RangeInclusive<usize> {
    let lo = (k + i).saturating_sub(n).max(1);
    let hi = i.min(k + 1);
    lo..=hi
}

impl Cardinality for SeqCounter {
    const NAME: &'static str = "seq";

    fn encode<S: ClauseSink + ?Sized>(sink: &mut S, lits: &[Lit], k: usize) {
        let n = lits.len();
        // prev[j] = R(i-1, j) for j in the previous range; None where the register is the
        // constant false (j > i-1). j = 0 is the constant true and never stored.
        let mut prev_lo = 1;
        let mut prev: Vec<Lit> = vec![lits[0]]; // R(1, 1) = x_1
        for (i, &x) in lits.iter().enumerate().skip(1).map(|(i, x)| (i + 1, x)) {
            if sink.is_stopped() {
                return; // the formula is being thrown away
            }
            let r = range(n, k, i);
            let (lo, hi) = (*r.start(), *r.end());
            let get = |j: usize| -> Option<Lit> {
                (j >= prev_lo && j < prev_lo + prev.len()).then(|| prev[j - prev_lo])
            };
            let mut cur = Vec::with_capacity(hi + 1 - lo);
            for j in lo..=hi {
                let reg = sink.new_var().positive();
                let same = get(j); // R(i-1, j); None means false
                match same {
                    Some(s) => {
                        sink.add_clause(&[!s, reg]);
                        sink.add_clause(&[!reg, s, x]);
                    }
                    None => sink.add_clause(&[!reg, x]),
                }
                if j == 1 {
                    sink.add_clause(&[!x, reg]);
                } else {
                    let below = get(j - 1).expect("register R(i-1, j-1) is always built");
                    sink.add_clause(&[!below, !x, reg]);
                    match same {
                        Some(s) => sink.add_clause(&[!reg, s, below]),
                        None => sink.add_clause(&[!reg, below]),
                    }
                }
                cur.push(reg);
            }
            prev = cur;
            prev_lo = lo;
        }
        // Claim: R(n, k) and not R(n, k + 1).
        sink.add_clause(&[prev[k - prev_lo]]);
        sink.add_clause(&[!prev[k + 1 - prev_lo]]);
    }

    fn size_nontrivial(n: usize, k: usize) -> EncodingSize {
        let mut size = EncodingSize {
            vars: 0,
            clauses: 2,
        };
        for i in 2..=n {
            for j in range(n, k, i) {
                size.vars += 1;
                let same_exists = j < i; // R(i-1, j) built (never below the range, see docs)
                size.clauses += if same_exists { 2 } else { 1 };
                size.clauses += if j == 1 { 1 } else { 2 };
            }
        }
        size
    }
}
