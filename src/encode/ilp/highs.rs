//! HiGHS driven directly (cargo feature `highs`), so that a stop flag reaches into a running
//! solve: HiGHS asks an interrupt callback between its branch-and-bound nodes and simplex
//! iterations, and the callback here answers with the flag. Its own time limit is the time left
//! before the deadline, and one thread solves (these programs are small, and a thread pool costs
//! more than it saves).
//!
//! The callback is the only `unsafe` code of the ILP side: a C function pointer and a pointer to
//! the flag, registered with `Highs_setCallback` on the model that is solved right after, while
//! the flag is borrowed for the whole call.

use super::linear::Sense;
use super::node::{FIRST_INCUMBENT_GAP, NodeFailure, NodeRow};
use crate::model::deadline::Deadline;
use crate::model::outcome::SolveError;
use highs::{HighsModelStatus, HighsSolutionStatus, Model, RowProblem};
use highs_sys::{
    Highs_setCallback, Highs_startCallback, HighsCallbackDataIn, HighsCallbackDataOut,
    kHighsCallbackIpmInterrupt, kHighsCallbackMipInterrupt, kHighsCallbackSimplexInterrupt,
    kHighsStatusError,
};
use std::ffi::{c_char, c_int, c_void};
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicBool, Ordering};

/// Solves the program over `columns` (`(lower, upper, objective)`) and `rows` with HiGHS:
/// integer values per column, or `None` when it is infeasible. Stops with
/// [`SolveError::Interrupted`] once `stop` is set, or [`SolveError::TimeLimit`] at `deadline`.
pub(super) fn run(
    columns: &[(i64, i64, f64)],
    rows: &[NodeRow],
    deadline: Deadline,
    stop: Option<&AtomicBool>,
) -> Result<Option<Vec<i64>>, NodeFailure> {
    let mut problem = RowProblem::default();
    let cols: Vec<_> = columns
        .iter()
        .map(|&(lower, upper, objective)| {
            problem.add_integer_column(objective, lower as f64..=upper as f64)
        })
        .collect();
    for row in rows {
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
    if let Some(left) = deadline.remaining() {
        model
            .try_set_option("time_limit", left.as_secs_f64())
            .map_err(failed("time_limit"))?;
    }
    let never = AtomicBool::new(false);
    let flag = stop.unwrap_or(&never);
    interrupt_on(&mut model, flag).map_err(failed("the interrupt callback"))?;
    let solved = model.try_solve().map_err(failed("solving"))?;
    let status = solved.status();
    if solved.primal_solution_status() == HighsSolutionStatus::Feasible
        && !matches!(
            status,
            HighsModelStatus::Infeasible | HighsModelStatus::UnboundedOrInfeasible
        )
    {
        // Any incumbent is an answer: the program has no objective of its own.
        let values = solved.get_solution();
        return Ok(Some(
            values.columns().iter().map(|v| v.round() as i64).collect(),
        ));
    }
    match status {
        HighsModelStatus::Infeasible | HighsModelStatus::UnboundedOrInfeasible => Ok(None),
        HighsModelStatus::ReachedInterrupt => Err(NodeFailure::Fatal(SolveError::Interrupted)),
        // The solver's own limit is the time left, so it has passed when HiGHS gave up for
        // that reason (HiGHS measures from a later start).
        HighsModelStatus::ReachedTimeLimit => Err(NodeFailure::Fatal(SolveError::TimeLimit)),
        _ if deadline.passed() => Err(NodeFailure::Fatal(SolveError::TimeLimit)),
        other => Err(NodeFailure::Numerical(format!("{other:?}"))),
    }
}

/// A HiGHS call that failed with `status` while doing `what`: nothing to retry.
fn failed<E: std::fmt::Debug>(what: &'static str) -> impl Fn(E) -> NodeFailure {
    move |status| {
        NodeFailure::Fatal(SolveError::Solver {
            message: format!("highs: {what}: {status:?}"),
        })
    }
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
    use super::super::engine::{SolverCall, solve_model};
    use super::super::node::NodeLimits;
    use super::super::{IlpModel, IlpSolver};
    use super::*;

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
