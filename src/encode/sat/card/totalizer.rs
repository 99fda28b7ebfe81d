//! The totalizer of Bailleux and Boufkhad, "Efficient CNF Encoding of Boolean Cardinality
//! Constraints" (CP 2003), cut at `k + 1` outputs per node so that it encodes "exactly k".
//!
//! The inputs are the leaves of a balanced binary tree. Every inner node holds a unary counter
//! `r_1..r_m` ("at least `s` of the leaves below are true") over its two children `a_1..a_p` and
//! `b_1..b_q`, with `m = min(p + q, k + 1)`. Both directions of the sum are clauses:
//! `a_i & b_j -> r_(i+j)` for `1 <= i + j <= m`, and `r_(i+j+1) -> a_(i+1) | b_(j+1)` for
//! `i + j + 1 <= m` (with `a_0 = b_0 = true` and `a_(p+1) = b_(q+1) = false`, so those literals
//! drop out). The claim is `r_k & !r_(k+1)` at the root. Sizes are in `encodings/card-totalizer.md`.

use super::cardinality::{Cardinality, EncodingSize};
use crate::model::lit::Lit;
use crate::solver::sink::ClauseSink;

/// Totalizer (Bailleux & Boufkhad 2003), outputs cut at `k + 1`.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Totalizer;

impl Cardinality for Totalizer {
    const NAME: &'static str = "totalizer";

    fn encode<S: ClauseSink + ?Sized>(sink: &mut S, lits: &[Lit], k: usize) {
        let mut clause = Vec::with_capacity(3);
        let root = node(sink, lits, k + 1, &mut clause);
        if sink.is_stopped() {
            return; // the formula is being thrown away
        }
        sink.add_clause(&[root[k - 1]]);
        sink.add_clause(&[!root[k]]);
    }

    fn size_nontrivial(n: usize, k: usize) -> EncodingSize {
        let (_, size) = node_size(n, k + 1);
        size + EncodingSize {
            vars: 0,
            clauses: 2,
        }
    }
}

/// Builds the counter over `lits`, returning its outputs: `out[s - 1]` is "at least `s`", for
/// `s` up to `min(lits.len(), cap)`.
fn node<S: ClauseSink + ?Sized>(
    sink: &mut S,
    lits: &[Lit],
    cap: usize,
    clause: &mut Vec<Lit>,
) -> Vec<Lit> {
    if lits.len() == 1 || sink.is_stopped() {
        // Stopped: the formula is being thrown away; any outputs of the right length do.
        return lits.iter().copied().take(cap).collect();
    }
    let (left, right) = lits.split_at(lits.len() / 2);
    let a = node(sink, left, cap, clause);
    let b = node(sink, right, cap, clause);
    let (p, q) = (a.len(), b.len());
    let m = (p + q).min(cap);
    let r: Vec<Lit> = (0..m).map(|_| sink.new_var().positive()).collect();
    for i in 0..=p {
        for j in 0..=q {
            // Upward: a_i & b_j -> r_(i+j).
            if (1..=m).contains(&(i + j)) {
                clause.clear();
                if i > 0 {
                    clause.push(!a[i - 1]);
                }
                if j > 0 {
                    clause.push(!b[j - 1]);
                }
                clause.push(r[i + j - 1]);
                sink.add_clause(clause);
            }
            // Downward: r_(i+j+1) -> a_(i+1) | b_(j+1).
            if i + j < m {
                clause.clear();
                clause.push(!r[i + j]);
                if i < p {
                    clause.push(a[i]);
                }
                if j < q {
                    clause.push(b[j]);
                }
                sink.add_clause(clause);
            }
        }
    }
    r
}

/// Outputs and size of [`node`] over `n` leaves.
fn node_size(n: usize, cap: usize) -> (usize, EncodingSize) {
    if n <= 1 {
        return (n, EncodingSize::default());
    }
    let (p, left) = node_size(n / 2, cap);
    let (q, right) = node_size(n - n / 2, cap);
    let m = (p + q).min(cap);
    // Pairs (i, j) in [0, p] x [0, q] with i + j = s number min(s, p) - max(0, s - q) + 1.
    let pairs = |s: usize| (s.min(p) + 1).saturating_sub(s.saturating_sub(q));
    let up: usize = (1..=m).map(pairs).sum();
    let down: usize = (0..m).map(pairs).sum();
    (
        m,
        left + right
            + EncodingSize {
                vars: m,
                clauses: up + down,
            },
    )
}
