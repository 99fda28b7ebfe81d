//! The SAT solver interface. A solver's capabilities are one trait each ([`Solve`],
//! [`SolveIncremental`], [`Interrupt`], [`LimitConflicts`], [`ExportLearnt`], [`WriteProof`]; see
//! `interface.rs`), and the engine, the generator, hints, grades and proofs ask only for the ones
//! they use. Each solver implements what it can in one adapter file: [`varisat`] (pure Rust,
//! always built: `varisat::Varisat` and the proof-writing `varisat::ProvingVarisat`) and
//! `cadical` (CaDiCaL 3.0.1, C++ compiled by cargo, feature `cadical`, on by default: `Cadical`
//! and `ProvingCadical`). A patched or `unsafe` detail of a solver never leaks past its adapter,
//! and a new solver is one new file behind a cargo feature plus a [`SolverKind`] value.
//! [`SolverKind::new_solver`] and `SolverKind::new_proof_solver` turn a user's choice into a
//! solver, or into [`SolverFailure::NotLinked`] for a kind this build does not link.

#[cfg(feature = "cadical")]
pub mod cadical;
mod interface;
pub mod sink;
pub mod varisat;

pub use interface::{
    Answer, ExportLearnt, Incremental, Interrupt, LearntPool, LimitConflicts, Mode, ProofFormat,
    Proved, Solve, SolveIncremental, SolverError, SolverFailure, Tuning, WriteProof, load,
};

pub use crate::model::setup::SolverKind;

/// Fails to compile unless `$solver` lacks every trait listed: the capabilities an adapter must
/// not have, checked in every build. (Were `$solver` to implement one, the second impl below
/// would apply too, and the item's name would be ambiguous.)
macro_rules! lacks {
    ($solver:ty: $($capability:path),+) => {
        $(const _: fn() = || {
            trait Ambiguous<A> {
                fn item() {}
            }
            impl<T: ?Sized> Ambiguous<()> for T {}
            struct Has;
            impl<T: ?Sized + $capability> Ambiguous<Has> for T {}
            let _ = <$solver as Ambiguous<_>>::item;
        };)+
    };
}

// A proving solver searches once, without assumptions; a searching one writes no proof.
lacks!(varisat::ProvingVarisat: Solve, SolveIncremental, Interrupt, LimitConflicts, ExportLearnt);
lacks!(varisat::Varisat: WriteProof);
#[cfg(feature = "cadical")]
lacks!(cadical::ProvingCadical: Solve, SolveIncremental, Interrupt, LimitConflicts, ExportLearnt);
#[cfg(feature = "cadical")]
lacks!(cadical::Cadical: WriteProof);

impl SolverKind {
    /// The solvers this build links: a subset of `VARIANTS` (which lists every kind, linked or
    /// not), since CaDiCaL is behind the `cadical` feature.
    pub const LINKED: &'static [SolverKind] = &[
        SolverKind::Varisat,
        #[cfg(feature = "cadical")]
        SolverKind::Cadical,
    ];

    /// The strongest solver this build links, for hard questions (the generator's uniqueness
    /// checks): CaDiCaL, or varisat in a build without it.
    pub fn strongest() -> SolverKind {
        if SolverKind::Cadical.is_available() {
            SolverKind::Cadical
        } else {
            SolverKind::Varisat
        }
    }

    /// Whether this build links the solver.
    pub fn is_available(self) -> bool {
        SolverKind::LINKED.contains(&self)
    }

    /// The cargo feature that links the solver, if it is optional.
    pub(crate) fn feature(self) -> Option<&'static str> {
        match self {
            SolverKind::Varisat => None,
            SolverKind::Cadical => Some("cadical"),
        }
    }

    /// The error of a solver of this kind that this build does not link.
    fn not_linked(self) -> SolverError {
        SolverError {
            solver: self.into(),
            kind: SolverFailure::NotLinked {
                feature: self.feature().unwrap_or("?"),
            },
        }
    }

    /// A new, empty solver of this kind that writes a DRAT proof in `format` of its one call
    /// ([`WriteProof`]); [`SolverFailure::NotLinked`] for a kind this build does not link.
    pub(crate) fn new_proof_solver(
        self,
        format: ProofFormat,
    ) -> Result<Box<dyn WriteProof>, SolverError> {
        match self {
            SolverKind::Varisat => Ok(Box::new(varisat::ProvingVarisat::new(format))),
            #[cfg(feature = "cadical")]
            SolverKind::Cadical => Ok(Box::new(cadical::ProvingCadical::new(format)?)),
            #[allow(unreachable_patterns)]
            missing => Err(missing.not_linked()),
        }
    }

    /// A new, empty solver of this kind with every capability but proofs ([`Incremental`]);
    /// [`SolverFailure::NotLinked`] for a kind this build does not link (see
    /// [`SolverKind::is_available`]).
    pub fn new_solver(self) -> Result<Box<dyn Incremental>, SolverError> {
        self.new_tuned(Tuning::default())
    }

    /// A new, empty solver of this kind, set up for the questions `tuning` names (varisat
    /// has no such settings and ignores it); see [`SolverKind::new_solver`].
    pub(crate) fn new_tuned(self, tuning: Tuning) -> Result<Box<dyn Incremental>, SolverError> {
        let _ = tuning;
        match self {
            SolverKind::Varisat => Ok(Box::new(varisat::Varisat::new())),
            #[cfg(feature = "cadical")]
            SolverKind::Cadical => Ok(Box::new(cadical::Cadical::tuned(tuning))),
            #[allow(unreachable_patterns)]
            missing => Err(missing.not_linked()),
        }
    }
}

/// Tests every linked solver must pass, written once and run for each of [`SolverKind::LINKED`].
#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::lit::{Lit, Var};
    use crate::solver::sink::ClauseSink;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
    use std::time::Duration;

    /// Pigeonhole: `n + 1` pigeons in `n` holes; unsatisfiable, and hard enough for CDCL to
    /// need many conflicts.
    pub(super) fn pigeonhole<S: ClauseSink + ?Sized>(solver: &mut S, n: usize) {
        let p: Vec<Vec<Lit>> = (0..=n)
            .map(|_| (0..n).map(|_| solver.new_var().positive()).collect())
            .collect();
        for row in &p {
            solver.add_clause(row);
        }
        for h in 0..n {
            for (a, first) in p.iter().enumerate() {
                for second in &p[a + 1..] {
                    solver.add_clause(&[!first[h], !second[h]]);
                }
            }
        }
    }

    /// How far past its cap a solver may stop: varisat checks before every conflict, CaDiCaL
    /// between search steps (see `cadical.rs`).
    fn slack(kind: SolverKind) -> u64 {
        match kind {
            SolverKind::Varisat => 0,
            SolverKind::Cadical => 10,
        }
    }

    #[test]
    fn every_kind_solves_when_linked_and_names_its_feature_when_not() {
        assert_eq!(
            SolverKind::Cadical.is_available(),
            cfg!(feature = "cadical")
        );
        for kind in [SolverKind::Varisat, SolverKind::Cadical] {
            let proving = kind.new_proof_solver(ProofFormat::Text).map(|_| ());
            let mut solver = match kind.new_solver() {
                Ok(solver) => {
                    assert!(kind.is_available(), "{kind}");
                    assert_eq!(proving, Ok(()), "{kind}");
                    solver
                }
                Err(e) => {
                    assert!(!kind.is_available(), "{kind}: {e}");
                    let feature = kind.feature().expect("an optional solver");
                    assert_eq!(e.kind, SolverFailure::NotLinked { feature }, "{e}");
                    assert!(e.to_string().contains(feature), "{e}");
                    assert_eq!(proving, Err(e), "{kind}");
                    continue;
                }
            };
            assert_eq!(solver.name(), <&str>::from(kind));
            let a = solver.new_var().positive();
            let b = solver.new_var().positive();
            solver.add_clause(&[a, b]);
            solver.add_clause(&[!a]);
            assert_eq!(solver.solve(), Ok(Answer::Sat), "{kind}");
            assert_eq!(solver.value(b), Some(true));
        }
    }

    #[test]
    fn every_linked_kind_proves_a_refutation_and_answers_a_satisfiable_formula_without_one() {
        for &kind in SolverKind::LINKED {
            for format in [ProofFormat::Text, ProofFormat::Binary] {
                let mut prover = kind.new_proof_solver(format).expect("linked");
                assert_eq!(prover.name(), <&str>::from(kind));
                pigeonhole(prover.as_mut(), 4);
                let proved = prover.prove().expect("proves");
                assert_eq!(proved.answer, Answer::Unsat, "{kind}");
                assert!(proved.conflicts > 0, "{kind}");
                assert!(!proved.proof.is_empty(), "{kind}");
                let mut prover = kind.new_proof_solver(format).expect("linked");
                let a = prover.new_var().positive();
                prover.add_clause(&[a]);
                let proved = prover.prove().expect("answers");
                assert_eq!(proved.answer, Answer::Sat, "{kind}");
                assert!(proved.proof.is_empty(), "{kind}");
            }
        }
    }

    #[test]
    fn the_conflict_limit_stops_the_solver_and_a_later_call_resumes() {
        for &kind in SolverKind::LINKED {
            let mut solver = kind.new_solver().expect("linked");
            pigeonhole(solver.as_mut(), 7);
            let limit = Arc::new(AtomicU64::new(50));
            solver.set_conflict_limit(Some(limit.clone()));
            let within = |cap: u64, conflicts: u64| (cap..=cap + slack(kind)).contains(&conflicts);
            assert_eq!(solver.solve(), Ok(Answer::Stopped), "{kind}");
            let first = solver.conflicts();
            assert!(within(50, first), "{kind}: {first}");
            assert_eq!(
                solver.solve(),
                Ok(Answer::Stopped),
                "{kind}: the cap stands"
            );
            assert_eq!(solver.conflicts(), first, "{kind}");
            limit.store(120, Ordering::Relaxed);
            assert_eq!(solver.solve(), Ok(Answer::Stopped), "{kind}");
            let second = solver.conflicts();
            assert!(within(120, second), "{kind}: {second}");
            limit.store(u64::MAX, Ordering::Relaxed);
            assert_eq!(solver.solve(), Ok(Answer::Unsat), "{kind}");
            assert!(solver.conflicts() > second, "{kind}");
        }
    }

    /// What the configuration race of `src/encode/sat/engine.rs` relies on.
    #[test]
    fn stops_and_answers_come_at_the_same_conflict_counts_on_every_run() {
        for &kind in SolverKind::LINKED {
            let run = || {
                let mut solver = kind.new_solver().expect("linked");
                pigeonhole(solver.as_mut(), 7);
                let limit = Arc::new(AtomicU64::new(0));
                solver.set_conflict_limit(Some(limit.clone()));
                let mut counts = Vec::new();
                for cap in [30, 200, 1_000, u64::MAX] {
                    limit.store(cap, Ordering::Relaxed);
                    let answer = solver.solve();
                    counts.push((answer, solver.conflicts()));
                }
                counts
            };
            let first = run();
            assert_eq!(
                first.last().map(|(a, _)| a.clone()),
                Some(Ok(Answer::Unsat))
            );
            assert_eq!(run(), first, "{kind}");
        }
    }

    #[test]
    fn a_cap_lowered_from_another_thread_stops_the_call_but_never_before_the_cap() {
        for &kind in SolverKind::LINKED {
            let mut solver = kind.new_solver().expect("linked");
            pigeonhole(solver.as_mut(), 10);
            let limit = Arc::new(AtomicU64::new(u64::MAX));
            solver.set_conflict_limit(Some(limit.clone()));
            let lowered = limit.clone();
            let lowering = std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(20));
                lowered.store(2_000, Ordering::Relaxed);
            });
            assert_eq!(solver.solve(), Ok(Answer::Stopped), "{kind}");
            lowering.join().expect("the lowering thread");
            assert!(
                solver.conflicts() >= 2_000,
                "{kind}: {}",
                solver.conflicts()
            );
        }
    }

    #[test]
    fn the_interrupt_flag_stops_the_call_from_another_thread() {
        for &kind in SolverKind::LINKED {
            let mut solver = kind.new_solver().expect("linked");
            pigeonhole(solver.as_mut(), 11);
            let flag = Arc::new(AtomicBool::new(true));
            solver.set_interrupt(Some(flag.clone()));
            assert_eq!(solver.solve(), Ok(Answer::Stopped), "{kind}: set before");
            flag.store(false, Ordering::Relaxed);
            let setter = flag.clone();
            let interrupting = std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(50));
                setter.store(true, Ordering::Relaxed);
            });
            assert_eq!(solver.solve(), Ok(Answer::Stopped), "{kind}: set during");
            interrupting.join().expect("the interrupting thread");
        }
    }

    #[test]
    fn assumptions_models_and_failed_cores() {
        for &kind in SolverKind::LINKED {
            let mut solver = kind.new_solver().expect("linked");
            let (a, b, c) = (
                solver.new_var().positive(),
                solver.new_var().positive(),
                solver.new_var().positive(),
            );
            solver.add_clause(&[!a, b]);
            solver.add_clause(&[!b, !c]);
            assert_eq!(solver.solve_assuming(&[a]), Ok(Answer::Sat), "{kind}");
            assert_eq!(solver.value(b), Some(true), "{kind}");
            assert_eq!(solver.value(!c), Some(true), "{kind}");
            assert_eq!(solver.solve_assuming(&[a, c]), Ok(Answer::Unsat), "{kind}");
            let mut core = solver.failed_assumptions();
            core.sort();
            assert_eq!(core, vec![a, c], "{kind}");
            assert_eq!(
                solver.solve(),
                Ok(Answer::Sat),
                "{kind}: assumptions last one call"
            );
            solver.add_clause(&[!a]);
            solver.add_clause(&[a, !b]);
            assert_eq!(solver.solve_assuming(&[b]), Ok(Answer::Unsat), "{kind}");
            assert_eq!(solver.failed_assumptions(), vec![b], "{kind}");
            solver.add_clause(&[b]);
            assert_eq!(solver.solve(), Ok(Answer::Unsat), "{kind}");
            assert!(solver.failed_assumptions().is_empty(), "{kind}");
        }
    }

    #[test]
    fn variables_keep_their_index_in_the_model() {
        for &kind in SolverKind::LINKED {
            let mut solver = kind.new_solver().expect("linked");
            let vars: Vec<Var> = (0..5).map(|_| solver.new_var()).collect();
            solver.add_clause(&[vars[3].negative()]);
            solver.add_clause(&[vars[1].positive()]);
            assert_eq!(
                solver.solve_assuming(&[vars[4].positive()]),
                Ok(Answer::Sat),
                "{kind}"
            );
            assert_eq!(solver.value(vars[3].positive()), Some(false), "{kind}");
            assert_eq!(solver.value(vars[1].positive()), Some(true), "{kind}");
            assert_eq!(solver.value(vars[4].negative()), Some(false), "{kind}");
            assert_eq!(solver.value(Var::from_index(9).positive()), None, "{kind}");
        }
    }
}
