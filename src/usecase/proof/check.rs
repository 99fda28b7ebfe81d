//! Checking a certificate: the formula re-derived and compared clause for clause, every blocked
//! grid verified, the proof checked by [`super::drat`].

use super::certify::*;
use super::drat;
use crate::encode::sat::dimacs::{Formula, fingerprint, read_header, read_solutions};
use crate::encode::sat::engine::Configuration;
use crate::model::puzzle::{Grid, Puzzle};
use crate::model::verify::verify;

/// What [`check`] accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Certified {
    /// What the pair establishes.
    pub claim: Claim,
    /// The blocked grids, each accepted by the verifier.
    pub solutions: Vec<Grid>,
    /// The encoding of the formula.
    pub config: Configuration,
    /// What the DRAT checker saw.
    pub stats: drat::CheckStats,
}

/// The step of [`check`] that refused a certificate, and why. Each names its step first.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Rejection {
    /// The formula file's header does not say how it was made, or names another puzzle.
    #[error("step 1 (the formula's header): {0}")]
    Header(String),
    /// A blocked grid is not a solution of the puzzle, or is blocked twice.
    #[error("step 2 (the blocked solutions): solution {index}: {reason}")]
    Solution {
        /// 1-based.
        index: usize,
        /// What is wrong with it.
        reason: String,
    },
    /// The formula file is not the puzzle's formula.
    #[error("step 3 (the formula, clause for clause): {0}")]
    Formula(String),
    /// The proof does not refute the formula.
    #[error("step 4 (the DRAT proof): {0}")]
    Proof(drat::DratError),
}

/// The puzzle among `puzzles` whose fingerprint the formula's header names (`c puzzle:`), for a
/// file of several boards; `None` when the header names none of them.
pub fn named_puzzle<'a>(
    puzzles: impl IntoIterator<Item = &'a Puzzle>,
    cnf: &str,
) -> Option<&'a Puzzle> {
    let print = read_header(cnf).ok()?.fingerprint?;
    puzzles.into_iter().find(|p| fingerprint(p) == print)
}

pub(super) fn show(clause: impl IntoIterator<Item = i64>) -> String {
    let mut s: String = clause.into_iter().map(|l| format!("{l} ")).collect();
    s.push('0');
    s
}

/// Checks a certificate of `puzzle`: `cnf` (the text of `FILE.cnf`) and `proof` (text or
/// binary DRAT). In order: the header names the puzzle's fingerprint, a model and a
/// cardinality encoding; every blocked grid it lists solves the puzzle (the independent
/// verifier) and is listed once; the formula re-derived from the puzzle, those choices and
/// those grids equals the file clause for clause; and the proof refutes the file's clauses.
pub fn check(puzzle: &Puzzle, cnf: &str, proof: &[u8]) -> Result<Certified, Rejection> {
    let header = read_header(cnf).map_err(|e| Rejection::Header(e.to_string()))?;
    let (Some(model), Some(card), Some(print)) = (header.model, header.card, header.fingerprint)
    else {
        return Err(Rejection::Header(
            "it lacks a `c model:`, `c card:` or `c puzzle:` line (it was not written by bimaru-sat)"
                .into(),
        ));
    };
    if print != fingerprint(puzzle) {
        return Err(Rejection::Header(format!(
            "it was written for another puzzle (puzzle {print:016x}; this puzzle is {:016x})",
            fingerprint(puzzle)
        )));
    }
    let config = Configuration { model, card };
    let solutions = read_solutions(cnf, puzzle.rows(), puzzle.cols())
        .map_err(|e| Rejection::Header(e.to_string()))?;
    for (i, grid) in solutions.iter().enumerate() {
        let index = i + 1;
        if let Err(violation) = verify(puzzle, grid) {
            return Err(Rejection::Solution {
                index,
                reason: format!("the verifier rejects it: {violation}"),
            });
        }
        if let Some(j) = solutions[..i].iter().position(|g| g == grid) {
            return Err(Rejection::Solution {
                index,
                reason: format!("the same grid as solution {}", j + 1),
            });
        }
    }
    let file = drat::parse_dimacs(cnf).map_err(|e| Rejection::Formula(e.to_string()))?;
    compare_formula(&formula(puzzle, &solutions, config), &file)?;
    let stats = drat::check(&file, proof).map_err(Rejection::Proof)?;
    Ok(Certified {
        claim: Claim::of(solutions.len()),
        solutions,
        config,
        stats,
    })
}

/// The re-derived formula against the file's, clause for clause.
pub(super) fn compare_formula(expected: &Formula, file: &drat::Cnf) -> Result<(), Rejection> {
    let vars = expected.cnf.var_count();
    if file.vars != vars {
        return Err(Rejection::Formula(format!(
            "the file declares {} variables; the puzzle's {} formula has {vars}",
            file.vars,
            Configuration {
                model: expected.model,
                card: expected.card
            }
        )));
    }
    let ours: Vec<Vec<i64>> = expected
        .cnf
        .iter()
        .map(|c| c.iter().map(|l| l.to_dimacs() as i64).collect())
        .collect();
    for (i, (want, got)) in ours.iter().zip(&file.clauses).enumerate() {
        let got: Vec<i64> = got.iter().map(|&l| i64::from(l)).collect();
        if *want != got {
            return Err(Rejection::Formula(format!(
                "clause {} of the file is `{}`; the puzzle's formula has `{}`",
                i + 1,
                show(got),
                show(want.iter().copied())
            )));
        }
    }
    if ours.len() != file.clauses.len() {
        let (fewer, more) = (ours.len().min(file.clauses.len()), ours.len());
        return Err(Rejection::Formula(format!(
            "the file holds {} clauses; the puzzle's formula has {more} (they agree on the first {fewer})",
            file.clauses.len()
        )));
    }
    Ok(())
}
