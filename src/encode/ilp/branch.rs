//! The branch-and-bound above the MIP solver: when the solver fails on a node's program
//! (microlp stops with "Singular matrix" on some boards of the MiniZinc solbat set, microlp
//! issue #48), [`search`] branches on a free variable, fixes it both ways, propagates bounds
//! (`presolve::tighten`) and hands each smaller program to the solver again, checking the
//! deadline and the stop flag between nodes. Both branches together cover every point, so "no
//! solution" stays a proof.

use super::LinearConstraint;
use super::LinearModel;
use super::node::{NodeFailure, NodeLimits};
use super::objective::branching_length;
use super::presolve::{PresolveOptions, Presolved, tighten};
use crate::model::outcome::SolveError;

/// A point of `model` plus `cuts` within `bounds`, or `None` when there is none. `solve` answers
/// each node; a node it fails on ([`NodeFailure::Numerical`], or a point that breaks a row) is split
/// on a free variable (see the module documentation), fixed to 1 first, and each half is
/// propagated before it is tried. `splits` counts the nodes split. The limits (deadline and
/// stop flag) are checked before each node.
pub(crate) fn search(
    model: &LinearModel,
    cuts: &[LinearConstraint],
    bounds: Vec<(i64, i64)>,
    limits: NodeLimits<'_>,
    splits: &mut usize,
    mut solve: impl FnMut(&[(i64, i64)]) -> Result<Option<Vec<i64>>, NodeFailure>,
) -> Result<Option<Vec<i64>>, SolveError> {
    let propagation = PresolveOptions {
        probing: false,
        max_passes: 0,
    };
    let mut open = vec![bounds];
    while let Some(bounds) = open.pop() {
        limits.check()?;
        let failure = match solve(&bounds) {
            Ok(Some(values)) => match model
                .constraints
                .iter()
                .chain(cuts)
                .find(|c| !c.holds(&values))
            {
                None => return Ok(Some(values)),
                // Rounding a point the solver thought integral: split as for a failure.
                Some(c) => format!(
                    "the solver returned a point that breaks constraint {}",
                    c.name
                ),
            },
            Ok(None) => continue,
            Err(NodeFailure::Numerical(message)) => message,
            Err(NodeFailure::Fatal(e)) => return Err(e),
        };
        let Some(var) = branching_variable(model, &bounds) else {
            // Nothing left to split: the solver failed on a program it should not see.
            return Err(SolveError::Solver { message: failure });
        };
        *splits += 1;
        for value in [0, 1] {
            let mut half = bounds.clone();
            half[var] = (value, value);
            if let Presolved::Bounds(half) = tighten(model, cuts, half, propagation) {
                open.push(half);
            }
        }
    }
    Ok(None)
}

/// The free variable to split a node on: the longest ship's first free placement (the cell
/// model's first free variable), as [`branching_length`] ranks them for the solver.
fn branching_variable(model: &LinearModel, bounds: &[(i64, i64)]) -> Option<usize> {
    (0..bounds.len())
        .filter(|&i| bounds[i].0 < bounds[i].1)
        .max_by(|&a, &b| {
            let (la, lb) = (
                branching_length(model.vars[a].role),
                branching_length(model.vars[b].role),
            );
            la.total_cmp(&lb).then(b.cmp(&a))
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::ilp::IlpModel;
    use crate::encode::ilp::IlpSolver;
    use crate::encode::ilp::drive::{SolverCall, solve_model};
    use crate::format::ist;
    use crate::model::deadline::Deadline;
    use crate::model::puzzle::Puzzle;

    fn example() -> (Puzzle, LinearModel, Vec<(i64, i64)>) {
        let puzzle = ist::parse(include_str!("../../../puzzles/ist-example.txt")).unwrap();
        let model = IlpModel::Ship.build(&puzzle);
        let bounds = model.vars.iter().map(|v| (v.lower, v.upper)).collect();
        (puzzle, model, bounds)
    }

    type NodeAnswer = Result<Option<Vec<i64>>, NodeFailure>;

    /// A solver that fails as microlp does on some solbat boards ("Singular matrix") whenever
    /// more than `free` variables are free, and is microlp otherwise.
    fn failing_above(
        model: &LinearModel,
        free: usize,
    ) -> impl FnMut(&[(i64, i64)]) -> NodeAnswer + '_ {
        move |node| {
            if node.iter().filter(|(l, u)| l < u).count() > free {
                return Err(NodeFailure::Numerical("Singular matrix".to_string()));
            }
            solve_model(
                model,
                &[],
                Some(node),
                SolverCall::plain(IlpSolver::Microlp),
            )
        }
    }

    #[test]
    fn a_solver_failure_is_split_until_the_solver_answers() {
        let (puzzle, model, bounds) = example();
        let free = bounds.iter().filter(|(l, u)| l < u).count();
        assert!(free > 20, "{free} free variables");
        let mut splits = 0;
        let values = search(
            &model,
            &[],
            bounds,
            NodeLimits::NONE,
            &mut splits,
            failing_above(&model, free - 10),
        )
        .unwrap()
        .expect("the example has a solution");
        // Propagation after the first split may already bring a half under the threshold.
        assert!(splits >= 1, "{splits} splits");
        let grid = model.decode(&values).unwrap();
        crate::model::verify::verify(&puzzle, &grid).unwrap();
        let sat = crate::solve(&puzzle, &crate::SolveOptions::default()).unwrap();
        assert_eq!(Some(&grid), sat.outcome.grid());
    }

    #[test]
    fn splitting_keeps_no_solution_a_proof_and_a_solver_that_always_fails_an_error() {
        let (_, model, bounds) = example();
        let values = solve_model(&model, &[], None, SolverCall::plain(IlpSolver::Microlp))
            .unwrap()
            .unwrap();
        // The example is unique: with its solution cut off, nothing is left, and the split
        // search must prove that too.
        let cut = model.no_good(&values, 0);
        let mut splits = 0;
        let found = search(
            &model,
            std::slice::from_ref(&cut),
            bounds.clone(),
            NodeLimits::NONE,
            &mut splits,
            |node| {
                if node.iter().filter(|(l, u)| l < u).count() > 15 {
                    return Err(NodeFailure::Numerical("Singular matrix".to_string()));
                }
                solve_model(
                    &model,
                    std::slice::from_ref(&cut),
                    Some(node),
                    SolverCall::plain(IlpSolver::Microlp),
                )
            },
        )
        .unwrap();
        assert_eq!(found, None);
        assert!(splits > 0);
        let always = search(&model, &[], bounds, NodeLimits::NONE, &mut 0, |_| {
            Err(NodeFailure::Numerical("Singular matrix".to_string()))
        });
        assert!(
            matches!(&always, Err(SolveError::Solver { message }) if message == "Singular matrix"),
            "{always:?}"
        );
    }

    #[test]
    fn a_passed_deadline_stops_the_search() {
        let (_, model, bounds) = example();
        let past = Deadline::after(std::time::Duration::ZERO);
        let limits = NodeLimits {
            deadline: &past,
            stop: None,
        };
        let result = search(
            &model,
            &[],
            bounds,
            limits,
            &mut 0,
            failing_above(&model, 0),
        );
        assert!(matches!(result, Err(SolveError::TimeLimit)), "{result:?}");
    }
}
