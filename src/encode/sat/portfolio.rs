//! CNF [`Configuration`]s, and the portfolio of hard questions: its [`Member`]s (a configuration, a solver, its tuning, and
//! whether it encodes what pre-solving left or the whole puzzle), the [`specialist`] measured best
//! on hard questions, the [`portfolio`] of a number of threads, and [`default_threads`]. The SAT
//! engine ([`super::engine`]) runs them.

use super::card::CardKind;
use super::model::Model;
use crate::solver::sink::ClauseSink;
use crate::solver::{LearntPool, Mode, SolverKind, Tuning};
use std::sync::Arc;

/// A CNF configuration: the model and the cardinality encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Configuration {
    /// The CNF model.
    pub model: Model,
    /// The cardinality encoding of every count.
    pub card: CardKind,
}

impl Configuration {
    /// The configuration by its choices' names, as [`crate::model::outcome::Stats`] holds it.
    pub(crate) fn setup(&self) -> crate::model::outcome::SatSetup {
        crate::model::outcome::SatSetup {
            model: self.model,
            card: self.card,
        }
    }
}

impl std::fmt::Display for Configuration {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.model, self.card)
    }
}

/// One member of a race: a configuration, the solver and its tuning, and whether it encodes
/// what pre-solving left open or the whole puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Member {
    /// The CNF model and cardinality encoding.
    pub config: Configuration,
    /// The SAT solver.
    pub solver: SolverKind,
    /// Its search mode and seed.
    pub tuning: Tuning,
    /// Encode only what pre-solving left open (the lead's way); otherwise the whole puzzle.
    pub presolved: bool,
}

impl std::fmt::Display for Member {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        crate::model::outcome::SatMember::from(*self).fmt(f)
    }
}

impl Member {
    /// `config` on `solver`, untuned, on the pre-solved formula: the lead on boards under
    /// [`super::engine::LARGE_BOARD_CELLS`], and on larger boards the first helper once the
    /// native search has found a grid.
    pub(crate) fn solo(config: Configuration, solver: SolverKind) -> Member {
        Member {
            config,
            solver,
            tuning: Tuning::default(),
            presolved: true,
        }
    }
}

/// The member measured best on hard questions (the uniqueness proofs of the exactly minimal
/// boards of `puzzles/hard` and `puzzles/generated/30x30-minimal`, `docs/encodings.md`): the
/// placement model with totalizers, the whole encoding (pre-solving makes some of these
/// formulas much harder for CDCL: 218,000 conflicts against 65,000 on `25x25-seed2505`), on
/// CaDiCaL in stable mode. Without CaDiCaL in the build, varisat on the same formula.
pub fn specialist() -> Member {
    let solver = SolverKind::strongest();
    Member {
        config: Configuration {
            model: Model::Placement,
            card: CardKind::Totalizer,
        },
        solver,
        tuning: Tuning {
            // varisat has no modes.
            mode: if solver == SolverKind::Cadical {
                Mode::Stable
            } else {
                Mode::Default
            },
            seed: 0,
        },
        presolved: false,
    }
}

/// Conflicts the specialist on the pre-solved formula gets before the whole encoding takes
/// over. The generated 30x30 boards that reach it need 2,300 to 6,400; the exactly minimal
/// boards of `puzzles/hard` are 1.3-5x faster on the whole encoding (`docs/encodings.md`).
pub(crate) const PRESOLVED_CONFLICTS: u64 = 7_000;

/// The stages a hard question goes through after the chosen configuration's solo phase, each
/// alone and within its conflicts but the last, which is the [`specialist`] (with the rest of
/// the [`portfolio`] beside it): the specialist on the formula pre-solving left, then on the
/// whole encoding.
pub fn stages() -> [(Member, u64); 2] {
    let specialist = specialist();
    [
        (
            Member {
                presolved: true,
                ..specialist
            },
            PRESOLVED_CONFLICTS,
        ),
        (specialist, u64::MAX),
    ]
}

/// The members that answer a hard question with `threads` threads, in order: the
/// [`specialist`] first, then (one a thread) the specialist's formula in stable mode, CaDiCaL's
/// default configuration and focused mode, in turn, each with seeds from 1 on. Only the first
/// member's grids are printed in the order it finds them; the others (the engine's helpers)
/// read the short clauses the lead learns (`LearntReader`) and decide a call only when what
/// is left is a fact: no grid, or exactly one. (After the native search has found a grid on a
/// large board, the engine puts `Member::solo` in the first helper's place.) Without CaDiCaL
/// in the build there is nothing to vary, and the specialist runs alone.
pub fn portfolio(threads: usize) -> Vec<Member> {
    let specialist = specialist();
    let mut members = vec![specialist];
    if specialist.solver != SolverKind::Cadical {
        return members;
    }
    for i in 1..threads {
        // Measured on the hard boards' uniqueness questions, whole process, two threads: a
        // stable helper that reads the lead's clauses is 0.97 of the default configuration's
        // time (`docs/encodings.md`).
        let mode = [Mode::Focused, Mode::Stable, Mode::Default][i % 3];
        let seed = u32::try_from(i.div_ceil(3)).unwrap_or(u32::MAX);
        members.push(Member {
            tuning: Tuning { mode, seed },
            ..specialist
        });
    }
    members
}

/// The number of threads a hard question uses by default: the logical cores the system
/// reports (at least one). Two CaDiCaL runs side by side on the two cores of the reference
/// machine each keep their speed (4.82 and 4.84 s against 4.93 s alone, `docs/benchmarks.md`).
/// The system is asked once a process (it reads cgroup files), since every `SolveOptions`
/// starts from this default.
pub fn default_threads() -> usize {
    static THREADS: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *THREADS.get_or_init(|| std::thread::available_parallelism().map_or(1, usize::from))
}

/// The most threads a front end accepts for a hard question ([`usable_threads`] runs at most
/// the machine's cores of them).
pub const MAX_THREADS: usize = 1024;

/// The threads a hard question asked to run on `asked` threads uses: at least one, and no more
/// than the machine's logical cores ([`default_threads`]). Each member of the [`portfolio`]
/// builds the whole encoding and searches without pause, so members beyond the cores only
/// share them: `--threads 64` on two cores took 27 s where two threads took 1.4 s, and
/// `--threads 65535` ran out of threads to spawn. The grids printed do not depend on the
/// number of threads, so running fewer changes no answer.
pub fn usable_threads(asked: usize) -> usize {
    asked.clamp(1, default_threads())
}

/// The longest clause the lead hands its helpers. Short clauses are the ones that prune most;
/// measured on the hard boards' uniqueness questions (`docs/encodings.md`).
pub(crate) const SHARED_LENGTH: usize = 8;

/// Conflicts a helper searches between two looks at what the lead has learnt.
pub(crate) const IMPORT_CONFLICTS: u64 = 2_000;

/// A helper's view of the clauses the lead learns: the lead's formula is the helper's less the
/// grids the helper holds of its own, so each such clause holds in the helper's formula too, and
/// a helper that adds them keeps every grid it may still find. The lead itself takes nothing
/// from the helpers: its search, and so the order of the grids it finds, stays its own.
pub(crate) struct LearntReader {
    pool: Arc<LearntPool>,
    read: usize,
}

impl LearntReader {
    /// Reads `pool` from its start.
    pub(crate) fn new(pool: Arc<LearntPool>) -> Self {
        LearntReader { pool, read: 0 }
    }

    /// Adds to `solver` the clauses learnt since the last look.
    pub(crate) fn import(&mut self, solver: &mut (impl ClauseSink + ?Sized)) {
        for clause in self.pool.since(&mut self.read) {
            solver.add_clause(&clause);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_portfolio_has_one_member_a_thread_and_the_specialist_first() {
        for threads in 1..=8 {
            let members = portfolio(threads);
            assert_eq!(members[0], specialist());
            if SolverKind::Cadical.is_available() {
                assert_eq!(members.len(), threads);
            } else {
                assert_eq!(members.len(), 1);
            }
            for (i, a) in members.iter().enumerate() {
                assert!(!members[i + 1..].contains(a), "{a} twice");
            }
        }
    }
}
