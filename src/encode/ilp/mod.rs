//! Integer programs for Bimaru after Meuffels & den Hertog (2010, "Puzzle—Solving the Battleship
//! puzzle as an integer programming problem", INFORMS Transactions on Education 10(3)): a
//! ship-based model ([`ship`]) and a cell-based model ([`cell`]). Both are built as a plain
//! [`LinearModel`] (0-1 variables, integer coefficients) that [`engine`] hands to a MIP solver
//! and [`lp`] writes as a CPLEX LP file; [`solution`] reads external solvers' answers back.
//!
//! Each MIP solver is one adapter file implementing the trait of `mip.rs` (`sliced.rs`
//! microlp, `highs.rs` HiGHS, `cbc.rs` CBC); `drive.rs` lists them and drives every one the same
//! way, and `branch.rs` retries a node a solver fails on.

mod branch;
#[cfg(feature = "coin_cbc")]
mod cbc;
pub mod cell;
pub mod cuts;
mod drive;
pub mod engine;
#[cfg(feature = "highs")]
mod highs;
mod linear;
pub mod lp;
mod mip;
pub mod node;
pub mod objective;
pub mod presolve;
pub mod ship;
mod sliced;
pub mod solution;

pub use cuts::{IlpCut, IlpCuts};
pub use engine::{IlpEngine, IlpOptions};
pub use linear::{
    Families, IlpModel, LinearConstraint, LinearModel, Sense, Term, VarDef, VarRole, window_count,
};
pub use objective::IlpObjective;

use crate::model::placement::Placements;
use crate::model::puzzle::Puzzle;
pub use crate::model::setup::IlpSolver;

impl IlpModel {
    /// Builds this model for `puzzle`, over its clue-pruned legal placements.
    pub fn build(self, puzzle: &Puzzle) -> LinearModel {
        self.build_over(puzzle, &Placements::new(puzzle))
    }

    /// Builds this model for `puzzle` over `placements` (the legal ones, or those pre-solving
    /// left).
    pub(crate) fn build_over(self, puzzle: &Puzzle, placements: &Placements) -> LinearModel {
        match self {
            IlpModel::Ship => ship::build(puzzle, placements),
            IlpModel::Cell => cell::build(puzzle, placements),
        }
    }
}

impl IlpSolver {
    /// Whether this build links the solver (has its adapter).
    pub fn is_available(self) -> bool {
        drive::adapter(self).is_some()
    }

    /// The cargo feature that links the solver, if it is optional.
    pub(crate) fn feature(self) -> Option<&'static str> {
        match self {
            IlpSolver::Microlp => None,
            IlpSolver::Highs => Some("highs"),
            IlpSolver::Cbc => Some("coin_cbc"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::linear::windows;
    use super::*;

    #[test]
    fn windows_cover_every_close_pair() {
        for (rows, cols) in [(1, 1), (1, 4), (4, 1), (3, 5)] {
            let ws: Vec<_> = windows(rows, cols).collect();
            assert_eq!(ws.len(), window_count(rows, cols));
            let shape = crate::model::puzzle::Shape::new(rows, cols);
            for pa in shape.positions() {
                for pb in shape.positions() {
                    if pa.row.abs_diff(pb.row) <= 1 && pa.col.abs_diff(pb.col) <= 1 {
                        assert!(
                            ws.iter().any(|(_, w)| w.contains(&pa) && w.contains(&pb)),
                            "{pa} {pb} on {rows}x{cols}"
                        );
                    }
                }
            }
        }
    }
}
