//! Redundant constraints: clauses every solution of the model already satisfies, added so that
//! the solver sees the counting a human does without having to learn it conflict by conflict.
//! Each one is argued in `encodings/redundant.md`; `tests/properties.rs` checks on random small
//! boards that adding them keeps the solution count of the plain model.
//!
//! They are stated over the placement variables of an [`Encoding`], which in both models are
//! true exactly for the ships of the solution (a placement variable of the cell model is tied
//! to its cells and caps both ways; one of the placement model makes its cells ship and its halo
//! water), so they fit either model.

use super::card::CardKind;
use super::instance::{Encoding, Instance};
use crate::model::choice::{Flags, choice};
use crate::model::lit::Lit;
use crate::model::puzzle::Orientation;
use crate::model::rule::Rule;
use crate::solver::sink::ClauseSink;

choice! {
    /// One kind of redundant constraint, as named on the command line (`--redundant`).
    #[non_exhaustive]
    pub enum Implied {
        /// Per row or column with a count: the count is the sum, over the placements, of the cells
        /// each has in the line (a ship along the line gives its length, one across it gives 1).
        LinePlacements,
        /// Per cell: at most one placement covers it.
        CoverOnce,
        /// Per row or column with a count `k` and each ship length `L >= 2`: at most `k / L` ships
        /// of length `L` lie along the line.
        LineLengths,
    }
}

/// Which redundant constraints to add (see `encodings/redundant.md`); none by default, since
/// none paid on the hard boards (`docs/benchmarks/2026-11-25-issue-22-hard-boards.md`).
pub type Redundant = Flags<Implied>;

/// Adds the constraints of `which` to `sink` over the variables of `encoding` (made by either
/// model from `instance`). Returns the encoding with the added variables and clauses counted in.
pub(crate) fn encode<S: ClauseSink + ?Sized>(
    instance: &Instance<'_>,
    encoding: Encoding,
    which: Redundant,
    sink: &mut S,
) -> Encoding {
    if which.is_none() {
        return encoding;
    }
    let (puzzle, placements) = (instance.puzzle, instance.placements);
    let shape = puzzle.shape();
    let forced = |p: usize| instance.knowledge.is_some_and(|k| k.forced[p]);
    let pv = |p: usize| encoding.placements[p].positive();
    let mut sink = crate::solver::sink::Counted::new(sink);
    sink.set_rule(Rule::Other);
    let card = instance.card;

    // Per line: (placement, cells in the line, lies along the line).
    let n_rows = shape.rows;
    let mut lines: Vec<Vec<(usize, usize, bool)>> = vec![Vec::new(); shape.rows + shape.cols];
    for (p, ship) in placements.ships().iter().enumerate() {
        let along_row = ship.len == 1 || ship.orientation == Orientation::Horizontal;
        if along_row {
            lines[ship.start.row].push((p, ship.len, true));
            for pos in ship.cells() {
                lines[n_rows + pos.col].push((p, 1, ship.len == 1));
            }
        } else {
            lines[n_rows + ship.start.col].push((p, ship.len, true));
            for pos in ship.cells() {
                lines[pos.row].push((p, 1, false));
            }
        }
    }
    let counts: Vec<Option<usize>> = puzzle
        .row_counts()
        .iter()
        .chain(puzzle.col_counts())
        .copied()
        .collect();

    let mut lits: Vec<Lit> = Vec::new();
    if which.has(Implied::LinePlacements) {
        for (members, count) in lines.iter().zip(&counts) {
            let Some(k) = *count else { continue };
            lits.clear();
            let mut fixed = 0;
            for &(p, w, _) in members {
                if forced(p) {
                    fixed += w;
                } else {
                    lits.extend(std::iter::repeat_n(pv(p), w));
                }
            }
            match k.checked_sub(fixed) {
                Some(rest) => card.exactly(&mut sink, &lits, rest),
                None => sink.add_clause(&[]),
            }
        }
    }
    if which.has(Implied::LineLengths) {
        for (members, count) in lines.iter().zip(&counts) {
            let Some(k) = *count else { continue };
            for class in puzzle.fleet().classes().filter(|c| c.len >= 2) {
                lits.clear();
                lits.extend(
                    members
                        .iter()
                        .filter(|&&(p, w, along)| along && w == class.len && !forced(p))
                        .map(|&(p, _, _)| pv(p)),
                );
                let cap = k / class.len;
                if lits.len() > cap {
                    at_most(&mut sink, card, &lits, cap);
                }
            }
        }
    }
    if which.has(Implied::CoverOnce) {
        for c in 0..shape.cells() {
            lits.clear();
            lits.extend(placements.covering_cell(c).map(pv));
            at_most_one(&mut sink, &lits);
        }
    }
    let Encoding {
        cells,
        placements,
        vars,
        clauses,
    } = encoding;
    Encoding {
        cells,
        placements,
        vars: vars + sink.vars,
        clauses: clauses + sink.clauses,
    }
}

/// At most `k` of `lits`: exactly `k` of `lits` and `k` free slack variables.
fn at_most<S: ClauseSink + ?Sized>(sink: &mut S, card: CardKind, lits: &[Lit], k: usize) {
    let mut all = lits.to_vec();
    all.extend((0..k).map(|_| sink.new_var().positive()));
    card.exactly(sink, &all, k);
}

/// At most one of `lits`: pairwise up to six literals, a sequential ladder above.
fn at_most_one<S: ClauseSink + ?Sized>(sink: &mut S, lits: &[Lit]) {
    if lits.len() <= 6 {
        for (i, &a) in lits.iter().enumerate() {
            for &b in &lits[i + 1..] {
                sink.add_clause(&[!a, !b]);
            }
        }
        return;
    }
    // s_i: some of lits[..=i] is true.
    let mut prev: Option<Lit> = None;
    for (i, &l) in lits.iter().enumerate() {
        if let Some(s) = prev {
            sink.add_clause(&[!s, !l]);
        }
        if i + 1 < lits.len() {
            let s = sink.new_var().positive();
            sink.add_clause(&[!l, s]);
            if let Some(p) = prev {
                sink.add_clause(&[!p, s]);
            }
            prev = Some(s);
        }
    }
}
