//! The HiGHS adapter ([`MipSolver`]): HiGHS driven directly (cargo feature `highs`), so that a stop flag reaches into a running
//! solve: HiGHS asks an interrupt callback between its branch-and-bound nodes and simplex
//! iterations, and the callback here answers with the flag. Its own time limit is the time left
//! before the deadline, and one thread solves (these programs are small, and a thread pool costs
//! more than it saves).
//!
//! The callback is the only `unsafe` code of the ILP side: a C function pointer and a pointer to
//! the flag, registered with `Highs_setCallback` on the model that is solved right after, while
//! the flag is borrowed for the whole call.

use super::IlpSolver;
use super::linear::Sense;
use super::mip::MipSolver;
use super::node::{Ended, FIRST_INCUMBENT_GAP, NodeLimits, Program};
use highs::{HighsModelStatus, HighsSolutionStatus, Model, RowProblem};
use highs_sys::{
    Highs_setCallback, Highs_startCallback, HighsCallbackDataIn, HighsCallbackDataOut,
    kHighsCallbackIpmInterrupt, kHighsCallbackMipInterrupt, kHighsCallbackSimplexInterrupt,
    kHighsStatusError,
};
use std::ffi::{c_char, c_int, c_void};
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicBool, Ordering};

/// HiGHS, through the `highs` crate (cargo feature `highs`).
pub(crate) struct Highs;

impl MipSolver for Highs {
    fn kind(&self) -> IlpSolver {
        IlpSolver::Highs
    }

    /// HiGHS gets a zero objective by default: it branches on its own pseudocosts
    /// (`objective.rs`).
    fn ranks_by_default(&self) -> bool {
        false
    }

    fn solve(&self, program: &Program, limits: NodeLimits<'_>) -> Ended {
        match solve(program, limits) {
            Ok(ended) => ended,
            Err((what, status)) => Ended::Refused(format!("{what}: {status}")),
        }
    }
}

/// [`Highs::solve`], with a HiGHS call that failed as `Err((what it was doing, its status))`.
fn solve(program: &Program, limits: NodeLimits<'_>) -> Result<Ended, (&'static str, String)> {
    let mut problem = RowProblem::default();
    let cols: Vec<_> = program
        .columns
        .iter()
        .map(|c| problem.add_integer_column(c.objective, c.lower as f64..=c.upper as f64))
        .collect();
    for row in &program.rows {
        let factors = row
            .terms
            .iter()
            .map(|&(col, coef)| (cols[col], coef as f64));
        let rhs = row.rhs as f64;
        match row.sense {
            Sense::Le => problem.add_row(..=rhs, factors),
            Sense::Eq => problem.add_row(rhs..=rhs, factors),
            Sense::Ge => problem.add_row(rhs.., factors),
        }
    }
    let mut model = problem
        .try_optimise(highs::Sense::Minimise)
        .map_err(failed("loading the program"))?;
    model.make_quiet();
    model.set_threads(NonZeroU32::MIN);
    // Any feasible point is a solution: stop at the first incumbent.
    model
        .try_set_option("mip_rel_gap", f64::from(FIRST_INCUMBENT_GAP))
        .map_err(failed("mip_rel_gap"))?;
    if let Some(left) = limits.deadline.remaining() {
        model
            .try_set_option("time_limit", left.as_secs_f64())
            .map_err(failed("time_limit"))?;
    }
    let never = AtomicBool::new(false);
    let flag = limits.stop.unwrap_or(&never);
    interrupt_on(&mut model, flag).map_err(failed("the interrupt callback"))?;
    let solved = model.try_solve().map_err(failed("solving"))?;
    let status = solved.status();
    let infeasible = matches!(
        status,
        HighsModelStatus::Infeasible | HighsModelStatus::UnboundedOrInfeasible
    );
    if solved.primal_solution_status() == HighsSolutionStatus::Feasible && !infeasible {
        return Ok(Ended::Point(solved.get_solution().columns().to_vec()));
    }
    Ok(match status {
        _ if infeasible => Ended::Infeasible,
        HighsModelStatus::ReachedInterrupt => Ended::Interrupted,
        HighsModelStatus::ReachedTimeLimit => Ended::TimeLimit,
        other => Ended::Failed(format!("{other:?}")),
    })
}

/// A HiGHS call that failed with `status` while doing `what`: nothing to retry.
fn failed<E: std::fmt::Debug>(what: &'static str) -> impl Fn(E) -> (&'static str, String) {
    move |status| (what, format!("{status:?}"))
}

/// The interrupt callback: HiGHS stops at its next check once the flag is set.
///
/// # Safety
///
/// HiGHS calls it with `data_in` null or valid for writing, and with the `user_data` registered
/// by [`interrupt_on`], a pointer to an `AtomicBool` that outlives the solve.
#[allow(unsafe_code)]
unsafe extern "C" fn interrupt(
    _kind: c_int,
    _message: *const c_char,
    _data_out: *const HighsCallbackDataOut,
    data_in: *mut HighsCallbackDataIn,
    user_data: *mut c_void,
) {
    if data_in.is_null() || user_data.is_null() {
        return;
    }
    // SAFETY: `user_data` is the `&AtomicBool` that `interrupt_on` registered, borrowed for the
    // whole solve; `data_in` is HiGHS's own input record for this call, not null.
    let (flag, data_in) = unsafe { (&*(user_data as *const AtomicBool), &mut *data_in) };
    if flag.load(Ordering::Relaxed) {
        data_in.user_interrupt = 1;
    }
}

/// Registers [`interrupt`] with `flag` on `model`, for the MIP, simplex and interior-point
/// interrupt checks. `flag` must outlive the solve of `model`: the caller borrows it for as long
/// as it holds the model.
#[allow(unsafe_code)]
fn interrupt_on(model: &mut Model, flag: &AtomicBool) -> Result<(), c_int> {
    let ptr = model.as_mut_ptr();
    let data = flag as *const AtomicBool as *mut c_void;
    // SAFETY: `ptr` is the live HiGHS instance of `model`; the callback only reads `data` as an
    // `&AtomicBool` during calls HiGHS makes while `model` is solved, and the caller keeps `flag`
    // alive that long.
    unsafe {
        if Highs_setCallback(ptr, Some(interrupt), data) == kHighsStatusError {
            return Err(kHighsStatusError);
        }
        for kind in [
            kHighsCallbackMipInterrupt,
            kHighsCallbackSimplexInterrupt,
            kHighsCallbackIpmInterrupt,
        ] {
            let status = Highs_startCallback(ptr, kind);
            if status == kHighsStatusError {
                return Err(status);
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::drive::{SolverCall, solve_model};
    use super::super::node::NodeFailure;
    use super::super::{IlpModel, IlpSolver};
    use super::*;
    use crate::model::deadline::Deadline;
    use crate::model::outcome::SolveError;

    /// A raised flag reaches into HiGHS: the plain program of a 20x20 board, which HiGHS solves
    /// in branch-and-bound (not in its presolve), ends interrupted at HiGHS's first check instead
    /// of in a solution. The engine reads the flag only between solver calls, so nothing else
    /// could stop this call.
    #[test]
    fn a_raised_flag_interrupts_highs() {
        let text = include_str!("../../../puzzles/generated/20x20/013.json");
        let puzzle = crate::format::json::parse(text, &crate::Limits::default()).unwrap();
        let model = IlpModel::Ship.build(&puzzle);
        let raised = AtomicBool::new(true);
        let call = |stop| SolverCall {
            limits: NodeLimits {
                deadline: &Deadline::NONE,
                stop,
            },
            ..SolverCall::plain(IlpSolver::Highs)
        };
        let result = solve_model(&model, &[], None, call(Some(&raised)));
        assert!(
            matches!(result, Err(NodeFailure::Fatal(SolveError::Interrupted))),
            "{result:?}"
        );
        let lowered = AtomicBool::new(false);
        let values = solve_model(&model, &[], None, call(Some(&lowered))).unwrap();
        assert!(values.is_some());
    }
}
