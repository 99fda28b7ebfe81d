//! Cardinality encodings: clauses forcing exactly `k` of `n` literals true. Each encoding is a
//! type of its own behind [`Cardinality`], cites its paper, and states its size; [`CardKind`]
//! picks one at run time (`--card`).

mod cardinality;
mod cardnet;
mod seq;
mod totalizer;

pub use cardinality::{Cardinality, EncodingSize, exactly};
pub(crate) use cardnet::CardNetwork;
pub(crate) use seq::SeqCounter;
pub(crate) use totalizer::Totalizer;

use crate::model::lit::Lit;
pub use crate::model::setup::CardKind;
use crate::solver::sink::ClauseSink;

impl CardKind {
    /// Adds "exactly `k` of `lits`" with this encoding.
    pub fn exactly<S: ClauseSink + ?Sized>(self, sink: &mut S, lits: &[Lit], k: usize) {
        match self {
            CardKind::Seq => exactly::<SeqCounter, S>(sink, lits, k),
            CardKind::Totalizer => exactly::<Totalizer, S>(sink, lits, k),
            CardKind::Cardnet => exactly::<CardNetwork, S>(sink, lits, k),
        }
    }

    /// What [`CardKind::exactly`] adds.
    pub fn size(self, n: usize, k: usize) -> EncodingSize {
        match self {
            CardKind::Seq => SeqCounter::size(n, k),
            CardKind::Totalizer => Totalizer::size(n, k),
            CardKind::Cardnet => CardNetwork::size(n, k),
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::model::cnf::CnfFormula;
    use crate::solver::sink::Counted;
    use crate::solver::varisat::Varisat;
    use crate::solver::{Answer, SolveIncremental, load};
    use strum::VariantArray;

    /// Checks `kind` against brute force: for every assignment of `n <= 8` inputs, the formula
    /// with those inputs fixed is satisfiable exactly when `k` of them are true; and the size
    /// formula matches what was emitted.
    pub(crate) fn agrees_with_brute_force(kind: CardKind, n: usize, k: usize) {
        agrees_with_brute_force_signed(kind, n, k, 0);
    }

    /// [`agrees_with_brute_force`] with the inputs negated where bit `i` of `negated` is set,
    /// so that the encoding also sees negative literals.
    pub(crate) fn agrees_with_brute_force_signed(kind: CardKind, n: usize, k: usize, negated: u32) {
        let mut formula = CnfFormula::new();
        let lits: Vec<Lit> = (0..n)
            .map(|i| formula.new_lit() ^ (negated >> i & 1 == 1))
            .collect();
        let mut counted = Counted::new(&mut formula);
        kind.exactly(&mut counted, &lits, k);
        let (vars, clauses) = (counted.vars, counted.clauses);
        assert_eq!(
            kind.size(n, k),
            EncodingSize { vars, clauses },
            "{kind:?} size n={n} k={k}"
        );
        for mask in 0u32..(1 << n) {
            let mut solver = Varisat::new();
            load(&mut solver, &formula);
            let assumptions: Vec<Lit> = lits
                .iter()
                .enumerate()
                .map(|(i, &l)| if mask >> i & 1 == 1 { l } else { !l })
                .collect();
            let sat = solver.solve_assuming(&assumptions).expect("solver error") == Answer::Sat;
            assert_eq!(
                sat,
                mask.count_ones() as usize == k,
                "{kind:?} n={n} k={k} mask={mask:b}"
            );
        }
    }

    #[test]
    fn every_encoding_agrees_with_brute_force_up_to_8() {
        for &kind in CardKind::VARIANTS {
            for n in 0..=8 {
                for k in 0..=n + 1 {
                    agrees_with_brute_force(kind, n, k);
                }
            }
        }
    }

    proptest::proptest! {
        /// Item 2 of issue 4: any encoding, any `n <= 8`, any `k` (also `k > n`), inputs of
        /// either sign: satisfiable under an assignment exactly when `k` inputs are true.
        #[test]
        fn any_encoding_agrees_with_brute_force(
            kind in proptest::sample::select(CardKind::VARIANTS),
            n in 0usize..=8,
            k_offset in 0usize..=9,
            negated in 0u32..256,
        ) {
            let k = k_offset.min(n + 1);
            agrees_with_brute_force_signed(kind, n, k, negated);
        }
    }
}
