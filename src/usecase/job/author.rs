//! The puzzle-author jobs: a hint step ([`HintJob`]: checked once against its puzzle, the
//! clues filled into the player's state, then one forced cell and the state with it filled)
//! and a grade ([`GradeJob`]) with its line.

use crate::model::deadline::Budget;
use crate::model::puzzle::Puzzle;
use crate::usecase::grade::{GradeError, GradeReport, Graded, grade};
use crate::usecase::hint::{Hint, HintError, HintOutcome, State, check_state, hint};
use crate::usecase::solve::SolveOptions;

/// A resolved hint job: the cells filled so far and what the search may spend.
#[derive(Clone, Debug)]
pub struct HintJob {
    /// The cells filled so far (the puzzle's clues alone when `None`).
    pub state: Option<State>,
    /// The time (and stop flag) the search may take.
    pub budget: Budget,
}

/// A [`HintJob`] checked against its puzzle ([`HintJob::check`]): ready to run.
#[derive(Clone, Debug)]
pub struct CheckedHint<'a> {
    job: &'a HintJob,
    puzzle: &'a Puzzle,
    state: State,
}

/// What one hint step gives: the line to print and the state with the hinted cell filled in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HintStep {
    /// The hint (the cell, its content and the rules that force it) or `complete: ...`, with
    /// a final newline.
    pub line: String,
    /// The state with the puzzle's clues and the hinted cell filled in.
    pub state: State,
    /// The hint; `None` when no cell is open.
    pub hint: Option<Hint>,
}

impl HintJob {
    /// Checks the job against `puzzle`, once: a state of the puzzle's size
    /// ([`HintError::WrongSize`]), into which the puzzle's clues are filled where it leaves
    /// their cells open.
    pub fn check<'a>(&'a self, puzzle: &'a Puzzle) -> Result<CheckedHint<'a>, HintError> {
        let mut state = match &self.state {
            Some(state) => {
                check_state(puzzle, state)?;
                state.clone()
            }
            None => State::from_puzzle(puzzle),
        };
        for (pos, clue) in puzzle.clues() {
            if state.get(pos).is_none() {
                state.set(pos, clue);
            }
        }
        Ok(CheckedHint {
            job: self,
            puzzle,
            state,
        })
    }

    /// Checks the job against `puzzle` ([`HintJob::check`]) and runs it.
    pub fn run(&self, puzzle: &Puzzle) -> Result<HintStep, HintError> {
        self.check(puzzle)?.run()
    }
}

impl CheckedHint<'_> {
    /// One hint for the puzzle from the checked state, found within the job's budget.
    pub fn run(self) -> Result<HintStep, HintError> {
        let mut state = self.state;
        let (line, hint) = match hint(self.puzzle, &state, &self.job.budget)? {
            HintOutcome::Complete => ("complete: no open cell left\n".to_string(), None),
            HintOutcome::Hint(h) => {
                state.set(h.pos, h.content);
                (format!("{h}\n"), Some(h))
            }
        };
        Ok(HintStep { line, state, hint })
    }
}

/// A resolved grade job: what proving the puzzle unique and grading it may spend. It has
/// nothing to check before it runs: a board too large to grade is found as its formula is
/// built ([`GradeError::TooLarge`]).
#[derive(Clone, Debug)]
pub struct GradeJob {
    /// The time (and stop flag) the proof and the grade may take.
    pub budget: Budget,
}

impl GradeJob {
    /// Proves `puzzle` unique with the default engine, then grades it, within the budget.
    pub fn run(&self, puzzle: &Puzzle) -> Result<Graded, GradeError> {
        let options = SolveOptions {
            budget: self.budget.clone(),
            ..SolveOptions::unique()
        };
        grade(puzzle, &options)
    }
}

/// The grade line: the grade, then how many cells each level of deduction decided.
pub fn grade_line(r: &GradeReport) -> String {
    format!(
        "{}: {} of {} cells by propagation, {} by one-step look-ahead, {} by two-step look-ahead\n",
        r.grade, r.by_propagation, r.cells, r.by_probing, r.by_deep_probing
    )
}
