//! The cardinality network of Asín, Nieuwenhuis, Oliveras and Rodríguez-Carbonell,
//! "Cardinality Networks: a theoretical and empirical study" (Constraints 16(2), 2011).
//!
//! A cardinality network with `m` outputs (`m` a power of two, the smallest above `k`) returns
//! the `m` largest of its inputs, sorted. It is built from half sorters and half mergers on
//! blocks of `m` inputs, and from simplified mergers that keep only `m + 1` of the `2m` merged
//! outputs. Every 2-comparator is encoded both ways (six clauses), so each wire is a function of
//! the inputs and the claim `out_k & !out_(k+1)` encodes "exactly k". Inputs are padded to a
//! multiple of `m` with the constant false, which the comparators propagate for free (a
//! comparator with a constant input adds nothing). Sizes are in `encodings/card-cardnet.md`.

use super::cardinality::{Cardinality, EncodingSize};
use crate::model::lit::{Lit, Var};
use crate::solver::sink::ClauseSink;

/// Cardinality network (Asín et al. 2011), with two-way comparators.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct CardNetwork;

/// A wire of the network: a literal, or the constant false (`None`, from padding).
type Wire = Option<Lit>;

impl Cardinality for CardNetwork {
    const NAME: &'static str = "cardnet";

    fn encode<S: ClauseSink + ?Sized>(sink: &mut S, lits: &[Lit], k: usize) {
        let m = (k + 1).next_power_of_two();
        let padded = lits.len().div_ceil(m) * m;
        let mut wires: Vec<Wire> = lits.iter().copied().map(Some).collect();
        wires.resize(padded, None);
        let out = card(sink, &wires, m);
        match out[k - 1] {
            Some(l) => sink.add_clause(&[l]),
            None => sink.add_clause(&[]),
        }
        if let Some(l) = out[k] {
            sink.add_clause(&[!l]);
        }
    }

    /// The network's size depends on where the padding constants meet the comparators, so it
    /// is counted by running the same construction into a sink that only counts.
    fn size_nontrivial(n: usize, k: usize) -> EncodingSize {
        let mut counter = CountOnly::default();
        let lits: Vec<Lit> = (0..n).map(|i| Var::from_index(i).positive()).collect();
        counter.next = n;
        Self::encode(&mut counter, &lits, k);
        counter.size
    }
}

/// A sink that hands out fresh variable numbers and counts, storing nothing.
#[derive(Default)]
struct CountOnly {
    next: usize,
    size: EncodingSize,
}

impl ClauseSink for CountOnly {
    fn new_var(&mut self) -> Var {
        self.next += 1;
        self.size.vars += 1;
        Var::from_index(self.next - 1)
    }
    fn add_clause(&mut self, _clause: &[Lit]) {
        self.size.clauses += 1;
    }
}

/// A 2-comparator: `(a | b, a & b)`, both directions.
fn comparator<S: ClauseSink + ?Sized>(sink: &mut S, a: Wire, b: Wire) -> (Wire, Wire) {
    match (a, b) {
        (None, x) | (x, None) => (x, None),
        (Some(a), Some(b)) => {
            let max = sink.new_var().positive();
            let min = sink.new_var().positive();
            sink.add_clause(&[!a, max]);
            sink.add_clause(&[!b, max]);
            sink.add_clause(&[!a, !b, min]);
            sink.add_clause(&[!max, a, b]);
            sink.add_clause(&[!min, a]);
            sink.add_clause(&[!min, b]);
            (Some(max), Some(min))
        }
    }
}

fn odd(w: &[Wire]) -> Vec<Wire> {
    w.iter().step_by(2).copied().collect()
}

fn even(w: &[Wire]) -> Vec<Wire> {
    w.iter().skip(1).step_by(2).copied().collect()
}

/// Half merger: merges two sorted sequences of the same power-of-two length.
fn hmerge<S: ClauseSink + ?Sized>(sink: &mut S, a: &[Wire], b: &[Wire]) -> Vec<Wire> {
    let n = a.len();
    if n == 1 {
        let (x, y) = comparator(sink, a[0], b[0]);
        return vec![x, y];
    }
    let d = hmerge(sink, &odd(a), &odd(b));
    let e = hmerge(sink, &even(a), &even(b));
    let mut out = Vec::with_capacity(2 * n);
    out.push(d[0]);
    for i in 0..n - 1 {
        let (x, y) = comparator(sink, d[i + 1], e[i]);
        out.push(x);
        out.push(y);
    }
    out.push(e[n - 1]);
    out
}

/// Half sorter: sorts a power-of-two number of wires.
fn hsort<S: ClauseSink + ?Sized>(sink: &mut S, a: &[Wire]) -> Vec<Wire> {
    if a.len() == 1 {
        return a.to_vec();
    }
    let (l, r) = a.split_at(a.len() / 2);
    let l = hsort(sink, l);
    let r = hsort(sink, r);
    hmerge(sink, &l, &r)
}

/// Simplified merger: the `n + 1` largest of two sorted sequences of power-of-two length `n`.
fn smerge<S: ClauseSink + ?Sized>(sink: &mut S, a: &[Wire], b: &[Wire]) -> Vec<Wire> {
    let n = a.len();
    if n == 1 {
        let (x, y) = comparator(sink, a[0], b[0]);
        return vec![x, y];
    }
    let d = smerge(sink, &odd(a), &odd(b));
    let e = smerge(sink, &even(a), &even(b));
    let mut out = Vec::with_capacity(n + 1);
    out.push(d[0]);
    for i in 1..=n / 2 {
        let (x, y) = comparator(sink, d[i], e[i - 1]);
        out.push(x);
        out.push(y);
    }
    out
}

/// The `m` largest inputs, sorted; `a.len()` is a multiple of `m`.
fn card<S: ClauseSink + ?Sized>(sink: &mut S, a: &[Wire], m: usize) -> Vec<Wire> {
    if a.len() == m {
        return hsort(sink, a);
    }
    let d = card(sink, &a[..m], m);
    let e = card(sink, &a[m..], m);
    let mut out = smerge(sink, &d, &e);
    out.truncate(m);
    out
}
