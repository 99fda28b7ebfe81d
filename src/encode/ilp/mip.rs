//! The MIP solver interface: the trait [`MipSolver`] that each solver's adapter implements in a
//! file of its own (`sliced.rs`: microlp in node slices; `highs.rs`: HiGHS with its interrupt
//! callback, feature `highs`; `cbc.rs`: CBC through good_lp, feature `coin_cbc`). The driving
//! code they share is written once, in `drive.rs`.
//!
//! An adapter only loads the program, sets the solver's limits (the time left, the stop flag
//! where the solver can read one, one thread, a huge MIP gap so that the first integer point
//! ends the search) and says how the call ended in its solver's terms ([`Ended`]). Rounding the
//! point, "no point" as a proof, a failure past the deadline as the time limit, and the solver's
//! name in its messages are the driver's, the same for every solver.

use super::IlpSolver;
use super::node::{Ended, NodeLimits, Program};

/// A MIP solver as the ILP engine drives it. One adapter file per solver implements it, and
/// `drive.rs` lists them; a solver's own types and any `unsafe` detail stay in its file.
pub(crate) trait MipSolver: Sync {
    /// Which solver this is: its name in messages.
    fn kind(&self) -> IlpSolver;

    /// Whether `IlpObjective::Auto` ranks this solver's columns by ship length (see
    /// `objective.rs`), or gives it a zero objective. Measured per solver; ranking by default.
    fn ranks_by_default(&self) -> bool {
        true
    }

    /// Solves `program` once, within `limits`: the solver's own time limit is the time left
    /// before `limits.deadline`, and where it can read a flag while it runs, `limits.stop` ends
    /// it ([`Ended::Interrupted`]). Any integer point is an answer.
    fn solve(&self, program: &Program, limits: NodeLimits<'_>) -> Ended;
}
