//! The objective handed to the MIP solver. The programs are feasibility problems (any point is
//! a solution), so the objective is only a branching device: [`IlpObjective`] chooses it
//! (`--ilp-objective`), and `rank` writes it into the solver's columns.

use super::linear::VarRole;
use super::node::Column;
use crate::model::choice::choice;

choice! {
    serde;
    /// The objective of each solver call (`--ilp-objective`).
    #[derive(Default)]
    #[non_exhaustive]
    pub enum IlpObjective {
        /// The measured choice: the length ranking for microlp and CBC, zero for HiGHS
        /// (`encodings/ilp-ship.md`).
        #[default]
        Auto,
        /// The length ranking `Σ (L·n + j) x` on every call and with every solver.
        Rank,
        /// A zero objective on every call and with every solver.
        Zero,
    }
}

impl IlpObjective {
    /// Whether a call ranks its columns, with a solver that ranks them `by_default` or not
    /// (`MipSolver::ranks_by_default`).
    fn ranks(self, by_default: bool) -> bool {
        match self {
            IlpObjective::Auto => by_default,
            IlpObjective::Rank => true,
            IlpObjective::Zero => false,
        }
    }
}

/// The length that ranks a column in the objective.
///
/// A zero objective leaves microlp's branching blind: its pseudocosts never observe a change in
/// the objective, so every candidate scores the same. Before it has observations, microlp
/// estimates a variable's branching score from its objective coefficient, so the objective
/// `sum (len * n + column) * x` (with `n` free columns) makes it branch on the longest ships
/// first, as people solve these puzzles. Together with a huge MIP gap (the first integer point
/// is accepted) this cut the time for `--unique` on the hardest IST instance (T15) from about
/// 3.3 s to 0.06 s of CPU; see `docs/benchmarks/2026-11-21-ilp-backend.md`.
pub(super) fn branching_length(role: VarRole) -> f64 {
    match role {
        VarRole::Placement(ship) => ship.len as f64,
        VarRole::Cell(_) => 1.0,
    }
}

/// Writes the objective coefficient of `choice` over `columns`, whose objective holds each
/// column's [`branching_length`] until then: `len * n + column` where it ranks (see
/// [`branching_length`]), zero where it does not. [`IlpObjective::Auto`] ranks for the solvers
/// that rank `by_default` (microlp and CBC) and gives HiGHS a zero objective: HiGHS branches on
/// its own pseudocosts and runs its primal heuristics from the start, and the ranking only sends
/// it after a point with the longest ships at the lowest columns. With zero it found first points
/// on six hard solbat boards in 28 s of CPU against 75 s, and proved the 20 boards of
/// `puzzles/generated/20x20` unique in 26 s against 43 s with the ranking once a no-good cut is
/// in (`docs/benchmarks/2026-11-25-issue-25-ilp-second-round.md`,
/// `docs/benchmarks/2026-11-26-issue-25-third-round.md`, `encodings/ilp-ship.md`).
pub(super) fn rank(choice: IlpObjective, by_default: bool, columns: &mut [Column]) {
    let n = columns.len() as f64;
    let ranks = choice.ranks(by_default);
    for (i, column) in columns.iter_mut().enumerate() {
        column.objective = if ranks {
            column.objective * n + i as f64
        } else {
            0.0
        };
    }
}
