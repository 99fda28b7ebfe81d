//! Difficulty grades. A puzzle is graded by how much deduction it takes to fill every cell,
//! measured on its CNF (the cell model) with our own propagator: unit propagation alone, then
//! failed-literal probing on cell variables one level deep, then two levels deep, else search.
//! The definition is in `docs/grading.md`.

use crate::encode::sat::card::CardKind;
use crate::encode::sat::formula::{ClueFormula, FormulaError, MAX_CLAUSES};
use crate::model::choice::choice;
use crate::model::deadline::{Budget, Deadline};
use crate::model::lit::Var;
use crate::model::puzzle::{Grid, Puzzle};
use crate::model::verify::verify;
use crate::reason::unit::Propagator;
use crate::usecase::solve::{Goal, Outcome, SolveError, SolveOptions, solve};

choice! {
    serde;
    /// Difficulty grades, easiest first (the order is the derived `Ord`).
    #[derive(PartialOrd, Ord)]
    #[non_exhaustive]
    pub enum Grade {
        /// Unit propagation of the clue, count and fleet rules fills every cell.
        Easy,
        /// Needs one-step look-ahead: "if this cell were a ship, a rule would break".
        Medium,
        /// Needs two-step look-ahead: a probe whose contradiction itself needs a probe.
        Hard,
        /// Needs deeper search.
        Fiendish,
    }
}

/// What grading found.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Graded {
    /// The puzzle has one solution; it gets this grade.
    Unique(GradeReport),
    /// The puzzle has no solution.
    Unsat,
    /// The puzzle has more than one solution, so no deduction can finish it.
    NotUnique,
}

/// A grade and the work behind it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct GradeReport {
    /// The grade.
    pub grade: Grade,
    /// Cells decided by unit propagation alone.
    pub by_propagation: usize,
    /// Cells decided by one-step look-ahead (after propagation).
    pub by_probing: usize,
    /// Cells decided by two-step look-ahead.
    pub by_deep_probing: usize,
    /// Cells on the board.
    pub cells: usize,
}

/// Why no grade was given.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum GradeError {
    /// The solver failed, or the time limit passed ([`SolveError::TimeLimit`]).
    #[error(transparent)]
    Solve(#[from] SolveError),
    /// The formula deduction is measured on would pass `MAX_CLAUSES`.
    #[error("{0}; grades measure boards whose formula has at most {MAX_CLAUSES} clauses")]
    TooLarge(FormulaError),
}

impl From<FormulaError> for GradeError {
    fn from(e: FormulaError) -> Self {
        match e {
            FormulaError::TimeLimit => GradeError::Solve(SolveError::TimeLimit),
            e => GradeError::TooLarge(e),
        }
    }
}

/// Grades `puzzle`: first proves it has exactly one solution with `options` (the SAT engine by
/// default; the limit is raised to two solutions), then measures the deduction depth. The
/// options' budget covers the measure of deduction too: [`SolveError::TimeLimit`] when it runs
/// out.
pub fn grade(puzzle: &Puzzle, options: &SolveOptions) -> Result<Graded, GradeError> {
    let options = SolveOptions {
        goal: Goal::Unique,
        ..options.clone()
    };
    let report = solve(puzzle, &options)?;
    if let Some(stop) = report.stop {
        return Err(SolveError::from(stop).into());
    }
    let solution = match report.outcome {
        Outcome::Unsat => return Ok(Graded::Unsat),
        Outcome::Unique(grid) => grid,
        _ => return Ok(Graded::NotUnique),
    };
    Ok(Graded::Unique(depth(
        puzzle,
        Some(&solution),
        options.budget.deadline,
        MAX_CLAUSES,
    )?))
}

/// Measures how deep deduction must go to decide every cell of `puzzle`, without checking
/// uniqueness (a puzzle with several solutions comes out [`Grade::Fiendish`]); `None` when the
/// budget runs out first.
pub fn deduction_depth(puzzle: &Puzzle, budget: &Budget) -> Option<GradeReport> {
    depth(puzzle, None, budget.deadline.clone(), usize::MAX).ok()
}

/// [`deduction_depth`] of a puzzle whose solution (or one of them) is known: the same report,
/// about twice as fast, since look-ahead need not try what the solution shows cannot fail
/// ([`Propagator::probe_fixpoint_knowing`]). A `solution` that the verifier rejects for
/// `puzzle` is ignored.
pub(crate) fn deduction_depth_knowing(
    puzzle: &Puzzle,
    solution: &Grid,
    budget: &Budget,
) -> Option<GradeReport> {
    depth(puzzle, Some(solution), budget.deadline.clone(), usize::MAX).ok()
}

/// [`deduction_depth`], giving up once `deadline` passes or the formula passes `max_clauses`;
/// with a `solution` of `puzzle`, look-ahead tries only what it makes false.
fn depth(
    puzzle: &Puzzle,
    solution: Option<&Grid>,
    deadline: Deadline,
    max_clauses: usize,
) -> Result<GradeReport, FormulaError> {
    // The clue-free encoding plus the clues as clauses of their own (the same formula the
    // generator and the hint engine reason on), so that the grade does not depend on how far
    // the placement list was pruned by the clues.
    let formula =
        ClueFormula::with_clues(puzzle, CardKind::default(), deadline.clone(), max_clauses)?;
    let cells: Vec<Var> = formula.cells().to_vec();
    // Cell variables are true for ship parts, in the order of the board's positions.
    let model: Option<Vec<bool>> = solution
        .filter(|grid| verify(puzzle, grid).is_ok())
        .map(|grid| puzzle.positions().map(|p| grid.is_ship(p)).collect());
    let mut prop = Propagator::within(formula.formula(), deadline.clone())?;
    let measured = measure(&mut prop, &cells, model.as_deref());
    // Freeing a large formula is not the caller's time once the limit is reached.
    deadline.discard((formula, prop));
    measured
}

/// Propagation, then probing one and two levels deep, on `prop` (the puzzle's formula) until
/// every cell of `cells` is decided; `model`, the cells' values in a solution, saves probes.
fn measure(
    prop: &mut Propagator,
    cells: &[Var],
    model: Option<&[bool]>,
) -> Result<GradeReport, FormulaError> {
    let decided = |p: &Propagator| cells.iter().filter(|&&v| p.var_value(v).is_some()).count();
    let total = cells.len();
    let mut report = GradeReport {
        grade: Grade::Fiendish,
        by_propagation: 0,
        by_probing: 0,
        by_deep_probing: 0,
        cells: total,
    };
    // A conflict anywhere means no solution: deduction "finishes" by refuting, which only a
    // puzzle without solutions does; grade it by the depth that found the refutation.
    let root = prop.propagate_root();
    if prop.stopped() {
        return Err(FormulaError::TimeLimit);
    }
    if root.is_err() {
        report.grade = Grade::Easy;
        report.by_propagation = total;
        return Ok(report);
    }
    report.by_propagation = decided(prop);
    if report.by_propagation == total {
        report.grade = Grade::Easy;
        return Ok(report);
    }
    for (depth, grade) in [(1, Grade::Medium), (2, Grade::Hard)] {
        let before = decided(prop);
        let refuted = prop.probe_fixpoint_knowing(cells, model, depth).is_err();
        if prop.stopped() {
            return Err(FormulaError::TimeLimit);
        }
        let now = if refuted { total } else { decided(prop) };
        match depth {
            1 => report.by_probing = now - before,
            _ => report.by_deep_probing = now - before,
        }
        if now == total {
            report.grade = grade;
            return Ok(report);
        }
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::ist;
    use std::time::Instant;
    use strum::VariantArray;

    #[test]
    fn a_passed_deadline_stops_probing() {
        let text = "ROW 2 3 2 2 3 0 1 3 2 2\nCOLUMN 6 0 1 0 2 1 3 1 2 4\n0\n";
        // Without clues the example has many solutions: propagation leaves cells to probe.
        let open = ist::parse(text).unwrap();
        let passed = Budget::until(Deadline::at(Instant::now()));
        assert_eq!(deduction_depth(&open, &passed), None);
        assert_eq!(
            deduction_depth(&open, &Budget::default()).unwrap().grade,
            Grade::Fiendish
        );
        let zero = SolveOptions {
            budget: Budget::within(Some(std::time::Duration::ZERO)),
            ..SolveOptions::default()
        };
        assert!(matches!(
            grade(&open, &zero),
            Err(GradeError::Solve(SolveError::TimeLimit))
        ));
    }

    #[test]
    fn grades_are_ordered() {
        assert!(Grade::Easy < Grade::Medium);
        assert!(Grade::Hard < Grade::Fiendish);
        assert_eq!(Grade::VARIANTS.len(), 4);
    }

    #[test]
    fn the_ist_example_gets_a_grade_and_more_clues_never_make_it_harder() {
        let text = "ROW 2 3 2 2 3 0 1 3 2 2\nCOLUMN 6 0 1 0 2 1 3 1 2 4\n6\n\
                    HINT 0 0 T\nHINT 1 6 M\nHINT 3 2 C\nHINT 6 0 W\nHINT 8 8 B\nHINT 9 5 C\n";
        let puzzle = ist::parse(text).unwrap();
        let Graded::Unique(report) = grade(&puzzle, &SolveOptions::unique()).unwrap() else {
            panic!("the example is unique")
        };
        let solution = solve(&puzzle, &SolveOptions::default())
            .unwrap()
            .outcome
            .grid()
            .cloned()
            .unwrap();
        // Reveal the whole solution: propagation alone then decides everything.
        let mut full = puzzle.clone();
        for pos in puzzle.positions() {
            full.add_clue(pos, crate::model::puzzle::Clue::Piece(solution.get(pos)))
                .unwrap();
        }
        let easy = deduction_depth(&full, &Budget::default()).unwrap();
        assert_eq!(easy.grade, Grade::Easy);
        assert!(easy.grade <= report.grade);
    }
}
