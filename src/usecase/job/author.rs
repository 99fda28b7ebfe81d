//! The puzzle-author jobs' steps and texts: a hint step (the clues filled into the player's
//! state, one forced cell, the state with it filled) and the grade line.

use crate::model::deadline::{Budget, Deadline};
use crate::model::puzzle::Puzzle;
use crate::usecase::grade::GradeReport;
use crate::usecase::hint::{Hint, HintError, HintOutcome, State, hint};

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

/// One hint for `puzzle` from `state` (the clues alone when `None`), found by `deadline`; the
/// puzzle's clues are filled into the state where it leaves their cells open.
pub fn hint_step(
    puzzle: &Puzzle,
    state: Option<State>,
    deadline: Deadline,
) -> Result<HintStep, HintError> {
    let mut state = state.unwrap_or_else(|| State::from_puzzle(puzzle));
    for (pos, clue) in puzzle.clues() {
        if state.get(pos).is_none() {
            state.set(pos, clue);
        }
    }
    let (line, hint) = match hint(puzzle, &state, &Budget::until(deadline))? {
        HintOutcome::Complete => ("complete: no open cell left\n".to_string(), None),
        HintOutcome::Hint(h) => {
            state.set(h.pos, h.content);
            (format!("{h}\n"), Some(h))
        }
    };
    Ok(HintStep { line, state, hint })
}

/// The grade line: the grade, then how many cells each level of deduction decided.
pub fn grade_line(r: &GradeReport) -> String {
    format!(
        "{}: {} of {} cells by propagation, {} by one-step look-ahead, {} by two-step look-ahead\n",
        r.grade, r.by_propagation, r.cells, r.by_probing, r.by_deep_probing
    )
}
