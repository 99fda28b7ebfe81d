//! A DRAT proof checker of its own: it reads the DIMACS formula and the proof (text or binary
//! DRAT) with its own parsers and checks every lemma forward, by unit propagation (RUP) and,
//! failing that, the RAT property on the lemma's first literal (Wetzler, Heule and Hunt,
//! "DRAT-trim: efficient checking and trimming using expressive clausal proofs", SAT 2014).
//! It shares no code with any solver, nor with the formulas the crate writes: it uses not even
//! the crate's literal type ([`crate::model::lit::Lit`]), only DIMACS numbers.
//!
//! **Semantics.** A deletion of a clause that is the reason of a top-level assignment, or of a
//! unit clause, is ignored (as drat-trim does); a deletion of a clause that is not in the
//! database is ignored too. Both keep more clauses than the proof asks for, which is sound:
//! every step keeps "the original formula is satisfiable ⇒ the database is", since a RUP or RAT
//! lemma preserves satisfiability and removing clauses (or not removing them) does too. The
//! proof is accepted when the database becomes refutable by unit propagation (normally when
//! the proof adds the empty clause).

mod checker;
mod cnf;
mod read;

use checker::{Checker, Derivation};
pub(crate) use cnf::{CheckStats, Cnf, DratError, Step, parse_dimacs};
pub(crate) use read::is_binary;
use read::{ProofItem, read_binary, read_text};

/// Checks that `proof` (text or binary DRAT, told apart by `is_binary`) refutes `cnf`.
pub fn check(cnf: &Cnf, proof: &[u8]) -> Result<CheckStats, DratError> {
    let mut checker = Checker::default();
    for clause in &cnf.clauses {
        checker.add(clause);
    }
    let mut stats = CheckStats {
        binary: is_binary(proof),
        ..CheckStats::default()
    };
    let mut steps = 0;
    let mut step = |at: Step, item: ProofItem| -> Result<(), DratError> {
        steps += 1;
        match item {
            ProofItem::Add(lemma) => {
                stats.lemmas += 1;
                match checker.implied(&lemma) {
                    Derivation::Rup => {}
                    Derivation::Rat => stats.rat += 1,
                    Derivation::No => return Err(DratError::NotImplied { at, lemma }),
                }
                checker.add(&lemma);
            }
            ProofItem::Delete(clause) => {
                if checker.delete(&clause) {
                    stats.deletions += 1;
                } else {
                    stats.ignored_deletions += 1;
                }
            }
        }
        Ok(())
    };
    if stats.binary {
        read_binary(proof, &mut step)?;
    } else {
        read_text(proof, &mut step)?;
    }
    if checker.refuted {
        Ok(stats)
    } else {
        Err(DratError::NoRefutation { steps })
    }
}

#[cfg(test)]
mod tests {
    use super::cnf::DimacsLit;
    use super::*;

    fn cnf(clauses: &[&[DimacsLit]]) -> Cnf {
        let vars = clauses
            .iter()
            .flat_map(|c| c.iter())
            .map(|l| l.unsigned_abs() as usize)
            .max()
            .unwrap_or(0);
        Cnf {
            vars,
            clauses: clauses.iter().map(|c| c.to_vec()).collect(),
            comments: Vec::new(),
        }
    }

    /// All four clauses over two variables: unsatisfiable.
    fn square() -> Cnf {
        cnf(&[&[1, 2], &[-1, 2], &[1, -2], &[-1, -2]])
    }

    #[test]
    fn a_rup_proof_is_accepted_in_text_and_binary() {
        // (1 2) needs 3 split both ways; then 2 refutes the formula by propagation.
        let formula = cnf(&[&[1, 2, 3], &[1, 2, -3], &[-1, 2], &[1, -2], &[-1, -2]]);
        let stats = check(&formula, b"1 2 0\nd 1 2 3 0\n2 0\n0\n").expect("valid");
        assert_eq!((stats.lemmas, stats.deletions, stats.binary), (3, 1, false));
        // a 1 2 0 (codes 2, 4), d 1 2 3 0 (codes 2, 4, 6), a 2 0 (code 4), a 0.
        let binary = [b'a', 2, 4, 0, b'd', 2, 4, 6, 0, b'a', 4, 0, b'a', 0];
        let stats = check(&formula, &binary).expect("valid");
        assert_eq!((stats.lemmas, stats.deletions, stats.binary), (3, 1, true));
        // Once refuted, later steps are not checked: the deletion is ignored.
        let stats = check(&square(), b"2 0\nd 1 2 0\n0\n").expect("valid");
        assert_eq!((stats.deletions, stats.ignored_deletions), (0, 1));
    }

    #[test]
    fn a_lemma_that_does_not_follow_is_rejected_with_its_line() {
        let formula = cnf(&[&[1, 2], &[-1, 2], &[1, -2], &[-1, -2], &[3, 4]]);
        let err = check(&formula, b"c a comment\n-3 0\n0\n").unwrap_err();
        assert!(
            matches!(
                &err,
                DratError::NotImplied { at: Step::Line(2), lemma } if lemma == &vec![-3]
            ),
            "{err}"
        );
    }

    #[test]
    fn a_proof_without_the_empty_clause_refutes_nothing() {
        let formula = cnf(&[&[1, 2], &[-1, 2], &[1, -2]]);
        assert!(matches!(
            check(&formula, b"2 0\n"),
            Err(DratError::NoRefutation { steps: 1 })
        ));
        // A formula refuted by unit propagation needs no lemma.
        assert!(check(&cnf(&[&[1], &[-1]]), b"").is_ok());
    }

    #[test]
    fn rat_lemmas_over_new_variables_are_accepted() {
        // Extended resolution: 5 <-> (1 and 2), defined by RAT clauses on 5 (none of them RUP),
        // then the square over 3 and 4 refuted.
        let formula = cnf(&[&[1, 2], &[3, 4], &[-3, 4], &[3, -4], &[-3, -4]]);
        let proof = b"5 -1 -2 0\n-5 1 0\n-5 2 0\n4 0\n0\n";
        let stats = check(&formula, proof).expect("valid");
        assert_eq!((stats.lemmas, stats.rat), (5, 3));
        // Not RAT: -1 resolves with (1 2) and (1 -2) into tautology-free clauses that UP
        // cannot refute in a satisfiable formula.
        let open = cnf(&[&[1, 2], &[1, -2], &[3, 4]]);
        assert!(matches!(
            check(&open, b"-1 0\n0\n"),
            Err(DratError::NotImplied { .. })
        ));
    }

    #[test]
    fn deleting_a_reason_or_a_unit_is_ignored() {
        let formula = cnf(&[&[1], &[-1, 2], &[-2, 3], &[-3, -1, 4], &[-4, -2]]);
        // (-1 2) is the reason of 2: its deletion is ignored, so the formula stays refuted.
        let stats = check(&formula, b"d -1 2 0\nd 1 0\n0\n").expect("valid");
        assert_eq!(stats.ignored_deletions, 2);
    }

    #[test]
    fn dimacs_files_are_read_and_checked_against_their_p_line() {
        let text = "c hello\nc model: cell\np cnf 3 2\n1 -2 0\n3\n0\n";
        let cnf = parse_dimacs(text).expect("valid");
        assert_eq!(cnf.vars, 3);
        assert_eq!(cnf.clauses, vec![vec![1, -2], vec![3]]);
        assert_eq!(cnf.comments, vec!["hello", "model: cell"]);
        assert!(parse_dimacs("p cnf 2 2\n1 0\n").is_err());
        assert!(parse_dimacs("p cnf 2 1\n3 0\n").is_err());
        assert!(parse_dimacs("1 0\n").is_err());
    }

    #[test]
    fn malformed_proofs_are_syntax_errors() {
        assert!(matches!(
            check(&square(), b"2 x 0\n"),
            Err(DratError::Syntax {
                at: Step::Line(1),
                ..
            })
        ));
        assert!(matches!(
            check(&square(), b"2\n"),
            Err(DratError::Syntax { .. })
        ));
        assert!(matches!(
            check(&square(), &[b'x', 0]),
            Err(DratError::Syntax {
                at: Step::Binary(1),
                ..
            })
        ));
    }
}
