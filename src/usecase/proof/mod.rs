//! Certified answers. [`certify`] turns "no solution", "unique" or "exactly N solutions" into a
//! pair of files a sceptic can check: the whole CNF encoding of the puzzle plus one blocking
//! clause per solution found (`sat/dimacs.rs`'s [`crate::encode::sat::dimacs::Formula`], as `--emit-dimacs
//! --exclude-solution` writes it), and a DRAT proof that this formula is unsatisfiable. The
//! proof opens with pre-solving's facts as unit lemmas, each implied by unit propagation over
//! the formula and the lemmas before it, and goes on with what a fresh proof-writing solver
//! ([`crate::solver::WriteProof`]) writes while it refutes the formula and those units in one call.
//! [`check`] is the other side: it re-derives the formula from the puzzle, compares it clause
//! for clause with the file, has the independent verifier accept every blocked grid, and runs
//! the DRAT checker of [`drat`], which shares no code with any solver. `docs/proofs.md` says
//! what is still trusted (the encoder) and how [`cross_check`] narrows that.

pub mod drat;

mod certify;
mod check;
mod cross;

pub use crate::solver::ProofFormat;
pub use certify::{
    Certificate, Claim, DEFAULT_CONFIG, ProofError, ProofOptions, certify, formula, presolved_units,
};
pub use check::{Certified, Rejection, check, named_puzzle};
pub use cross::{
    CrossCheck, LEG_BUDGET, Leg, LegTally, Standing, Verdict, cross_check, cross_configs,
};

#[cfg(test)]
mod tests {
    use super::cross::standing;
    use super::*;

    use crate::encode::sat::card::CardKind;

    use crate::encode::sat::engine::Configuration;
    use crate::encode::sat::model::Model;

    use crate::model::puzzle::{Grid, Puzzle};

    use crate::usecase::compare::Config;
    use crate::usecase::solve::{Outcome, SolveError};

    use crate::format::ist;
    use std::time::Duration;
    use strum::VariantArray;

    const EXAMPLE: &str = "ROW 2 3 2 2 3 0 1 3 2 2\nCOLUMN 6 0 1 0 2 1 3 1 2 4\n6\n\
        HINT 0 0 T\nHINT 1 6 M\nHINT 3 2 C\nHINT 6 0 W\nHINT 8 8 B\nHINT 9 5 C\n";

    fn solved() -> (Puzzle, Grid) {
        let puzzle = ist::parse(EXAMPLE).expect("valid");
        let report = crate::solve(&puzzle, &crate::SolveOptions::unique()).expect("solves");
        let Outcome::Unique(grid) = report.outcome else {
            panic!("unique")
        };
        (puzzle, grid)
    }

    #[test]
    fn a_certificate_of_uniqueness_checks_in_every_configuration_and_format() {
        let (puzzle, grid) = solved();
        let configs = Model::VARIANTS.iter().flat_map(|&model| {
            CardKind::VARIANTS
                .iter()
                .map(move |&card| Configuration { model, card })
        });
        for config in configs {
            for format in [ProofFormat::Text, ProofFormat::Binary] {
                let options = ProofOptions {
                    config,
                    format,
                    ..ProofOptions::default()
                };
                let cert =
                    certify(&puzzle, std::slice::from_ref(&grid), &options).expect("certified");
                assert_eq!(cert.claim, Claim::Unique);
                assert_eq!(cert.config, config);
                let text = String::from_utf8(cert.cnf).expect("ASCII");
                let certified = check(&puzzle, &text, &cert.proof).expect("accepted");
                assert_eq!(certified.claim, Claim::Unique);
                assert_eq!(certified.solutions, vec![grid.clone()]);
                assert_eq!(certified.stats.binary, format == ProofFormat::Binary);
            }
        }
    }

    #[test]
    fn a_missed_solution_is_no_certificate() {
        let (puzzle, _) = solved();
        let err =
            certify(&puzzle, &[], &ProofOptions::default()).expect_err("the puzzle has a solution");
        assert!(matches!(err, ProofError::NotRefuted { found: 0, .. }));
    }

    #[test]
    fn a_tampered_header_or_formula_is_rejected_at_its_step() {
        let (puzzle, grid) = solved();
        let cert = certify(
            &puzzle,
            std::slice::from_ref(&grid),
            &ProofOptions::default(),
        )
        .expect("certified");
        let text = String::from_utf8(cert.cnf).expect("ASCII");
        // Blocking the solution twice would claim two solutions.
        let line = text
            .lines()
            .find(|l| l.starts_with("c solution 1: "))
            .expect("listed");
        let twice = text.replace(
            line,
            &format!("{line}\n{}", line.replace("solution 1", "solution 2")),
        );
        let err = check(&puzzle, &twice, &cert.proof).unwrap_err();
        assert!(matches!(err, Rejection::Solution { index: 2, .. }), "{err}");
        // Another card in the header: the re-derived formula differs.
        let other = text.replace("c card: totalizer", "c card: seq");
        let err = check(&puzzle, &other, &cert.proof).unwrap_err();
        assert!(matches!(err, Rejection::Formula(_)), "{err}");
        let err = check(&puzzle, "p cnf 1 0\n", &cert.proof).unwrap_err();
        assert!(matches!(err, Rejection::Header(_)), "{err}");
    }

    /// An engine that returns `grids` one per call, then runs out of time.
    struct OutOfTime(Vec<Grid>);

    impl crate::usecase::solve::Engine for OutOfTime {
        fn next_solution(&mut self) -> Result<Option<Grid>, SolveError> {
            if self.0.is_empty() {
                Err(SolveError::TimeLimit)
            } else {
                Ok(Some(self.0.remove(0)))
            }
        }
        fn stats(&self) -> crate::usecase::solve::Stats {
            crate::usecase::solve::Stats::default()
        }
    }

    #[test]
    fn a_leg_out_of_time_is_unconfirmed_unless_what_it_found_contradicts() {
        let (puzzle, grid) = solved();
        let slow = |grids: Vec<Grid>| {
            Config::custom("slow", crate::usecase::solve::Backend::Ilp, move |_| {
                Box::new(OutOfTime(grids.clone())) as Box<dyn crate::usecase::solve::Engine>
            })
        };
        let mut configs = cross_configs(CardKind::Seq);
        configs.push(slow(Vec::new()));
        configs.push(slow(vec![grid.clone()]));
        let checked = cross_check(&puzzle, &configs, Some(Duration::from_secs(60)));
        assert_eq!(checked.disagreement(), None);
        assert_eq!(
            checked.tally(),
            LegTally {
                agree: 3,
                disagree: 0,
                unconfirmed: 2
            }
        );
        assert_eq!(
            checked.unconfirmed(),
            [
                "slow (custom): not confirmed within 60 s",
                "slow (custom): not confirmed within 60 s"
            ]
        );
        // A grid found in time (verified by `solve::run`) other than the unique one
        // contradicts it: a disagreement, never an agreement.
        let other = Grid::water(grid.rows(), grid.cols());
        let leg = Verdict {
            config: "slow".to_string(),
            solver: "custom".to_string(),
            leg: Leg::Unconfirmed(vec![other]),
        };
        let reference = &checked.verdicts[0];
        assert!(matches!(
            standing(&leg, Some(reference)),
            Standing::Disagrees(_)
        ));
    }
}
