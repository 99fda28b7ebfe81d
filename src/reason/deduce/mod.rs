//! Sound propagation over cells and placements: the one propagation engine of the crate. It
//! applies the rules a person uses first (a line whose count is met is water, a ship cell with
//! one possible ship fixes that ship, a fleet class with as many candidates as ships uses them
//! all, ...) until nothing changes, and can then probe: a candidate ship whose placement leads
//! those rules to a contradiction is struck off. Only forced facts are derived, so the encoders
//! may treat them as constants, and a contradiction proves that there is no solution.
//!
//! Pre-solving ([`deduce`]), the placement model (`facts` with [`Rules::Basic`]) and the
//! generator all run this engine. It is event-driven: a change to a cell or a placement queues
//! only the rules it can wake, and every structure is linear in the cells and placements. Changes
//! are recorded on a trail, so assumptions can be undone (`Propagation::mark`,
//! `Propagation::undo`).

mod index;
mod knowledge;
mod propagation;

pub use knowledge::{Contradiction, Effort, Facts, Knowledge, Mark, PlacementStatus, Rules};
pub(crate) use propagation::Propagation;

use crate::model::deadline::{Budget, Deadline, TimeLimit};
use crate::model::placement::Placements;
use crate::model::puzzle::Puzzle;

/// Runs `rules` on `puzzle` (its clues as decided cells) over `placements`, to a fixpoint,
/// giving up once `deadline` passes.
pub(crate) fn facts(
    puzzle: &Puzzle,
    placements: &Placements,
    rules: Rules,
    deadline: &Deadline,
) -> Result<Result<Facts, Contradiction>, TimeLimit> {
    let mut engine = Propagation::within(puzzle, placements, rules, deadline)?;
    engine.set_deadline(deadline.clone());
    let started = engine.start(puzzle);
    if engine.stopped() || deadline.passed() {
        return Err(TimeLimit);
    }
    Ok(started.map(|()| Facts {
        cells: engine.cell_values(),
        placements: engine.status,
    }))
}

/// Applies the rules to `puzzle` until they change nothing (and probes, with
/// [`Effort::Probing`]), removing dead placements from `placements`. Returns what is decided,
/// aligned with the pruned `placements`, or gives up with [`TimeLimit`] once the budget's
/// deadline passes (then `placements` is left as it was).
pub fn deduce(
    puzzle: &Puzzle,
    placements: &mut Placements,
    effort: Effort,
    budget: &Budget,
) -> Result<Result<Knowledge, Contradiction>, TimeLimit> {
    let deadline = budget.deadline.clone();
    let (cells, status) = {
        let mut engine = Propagation::within(puzzle, placements, Rules::Full, &deadline)?;
        engine.set_deadline(deadline.clone());
        let mut run = || {
            engine.start(puzzle)?;
            if effort == Effort::Probing {
                engine.probe()?;
            }
            Ok(())
        };
        let result = run();
        if engine.stopped() || deadline.passed() {
            return Err(TimeLimit);
        }
        if let Err(contradiction) = result {
            return Ok(Err(contradiction));
        }
        (engine.cell_values(), engine.status)
    };
    let alive: Vec<bool> = status.iter().map(|s| *s != PlacementStatus::Dead).collect();
    let forced = status
        .iter()
        .filter(|s| **s != PlacementStatus::Dead)
        .map(|s| *s == PlacementStatus::Chosen)
        .collect();
    placements.retain(&alive, &deadline)?;
    Ok(Ok(Knowledge { cells, forced }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::ist;
    use crate::model::deadline::Deadline;
    use crate::model::puzzle::{Clue, Fleet, Piece, Pos};

    /// [`deduce`] without a budget to run out.
    fn unbounded(
        puzzle: &Puzzle,
        placements: &mut Placements,
        effort: Effort,
    ) -> Result<Knowledge, Contradiction> {
        deduce(puzzle, placements, effort, &Budget::default()).expect("no budget to run out")
    }

    #[test]
    fn the_ist_example_is_decided_and_agrees_with_its_solution() {
        let text = include_str!("../../../puzzles/ist-example.txt");
        let puzzle = ist::parse(text).unwrap();
        let solution = include_str!("../../../puzzles/ist-example.out");
        for effort in [Effort::Rules, Effort::Probing] {
            let mut placements = Placements::new(&puzzle);
            let before = placements.len();
            let k = unbounded(&puzzle, &mut placements, effort).unwrap();
            assert!(placements.len() < before);
            assert_eq!(k.forced.len(), placements.len());
            for (i, ch) in solution.lines().flat_map(|l| l.chars()).enumerate() {
                if let Some(ship) = k.cells[i] {
                    assert_eq!(ship, ch != '.' && ch != 'W', "cell {i}");
                }
            }
        }
    }

    #[test]
    fn a_passed_deadline_stops_pre_solving_and_leaves_the_placements_alone() {
        let puzzle = ist::parse(include_str!("../../../puzzles/ist-example.txt")).unwrap();
        let mut placements = Placements::new(&puzzle);
        let before = placements.len();
        let passed = Deadline::after(std::time::Duration::ZERO);
        assert_eq!(
            deduce(
                &puzzle,
                &mut placements,
                Effort::Probing,
                &Budget::until(passed)
            ),
            Err(TimeLimit)
        );
        assert_eq!(placements.len(), before);
        let far = Deadline::after(std::time::Duration::from_secs(3600));
        let k = deduce(
            &puzzle,
            &mut placements,
            Effort::Probing,
            &Budget::until(far),
        )
        .unwrap();
        assert!(k.is_ok() && placements.len() < before);
    }

    #[test]
    fn an_overfull_row_is_a_contradiction() {
        let mut p = Puzzle::new(
            vec![Some(1), Some(0)],
            vec![Some(1), Some(0)],
            Fleet::from_counts(vec![1]),
        )
        .unwrap();
        p.add_clue(Pos::new(1, 1), Clue::Piece(Piece::Submarine))
            .unwrap();
        let mut pl = Placements::new(&p);
        assert_eq!(unbounded(&p, &mut pl, Effort::Rules), Err(Contradiction));
    }

    /// Revealing the clues one by one on the clue-free board decides what pre-solving the
    /// puzzle with its clues decides.
    #[test]
    fn assumed_clues_decide_what_presolving_decides() {
        for text in [
            include_str!("../../../puzzles/ist-example.txt"),
            include_str!("../../../puzzles/generated/10x10/001.txt"),
            include_str!("../../../puzzles/generated/10x10/002.txt"),
        ] {
            let puzzle = ist::parse(text).unwrap();
            let mut placements = Placements::new(&puzzle);
            let knowledge = unbounded(&puzzle, &mut placements, Effort::Rules).unwrap();
            let bare = puzzle.without_clues();
            let all = Placements::new(&bare);
            let mut engine = Propagation::new(&bare, &all, Rules::Full);
            engine.start(&bare).unwrap();
            for (pos, clue) in puzzle.clues() {
                engine.assume_clue(pos, clue).unwrap();
            }
            assert_eq!(engine.cell_values(), knowledge.cells);
            let alive = (0..all.len()).filter(|&p| engine.status(p) != PlacementStatus::Dead);
            assert_eq!(alive.count(), placements.len());
        }
    }

    /// Undoing an assumption restores every count, so the same assumption gives the same
    /// result again, and the opposite one is free to propagate.
    #[test]
    fn undo_restores_the_state() {
        let text = include_str!("../../../puzzles/ist-example.txt");
        let puzzle = ist::parse(text).unwrap();
        let bare = crate::model::puzzle::Puzzle::new(
            puzzle.row_counts().to_vec(),
            puzzle.col_counts().to_vec(),
            puzzle.fleet().clone(),
        )
        .unwrap();
        let placements = Placements::new(&bare);
        let mut engine = Propagation::new(&bare, &placements, Rules::Full);
        engine.start(&bare).unwrap();
        let before = (engine.cell_values(), engine.status.clone());
        let mark = engine.mark();
        for (pos, clue) in puzzle.clues() {
            let _ = engine.assume(pos, clue.is_ship());
        }
        let after = engine.cell_values();
        assert!(after.iter().flatten().count() > before.0.iter().flatten().count());
        engine.undo(mark);
        assert_eq!((engine.cell_values(), engine.status.clone()), before);
        assert_eq!(engine.line_ship.iter().sum::<usize>(), {
            before.0.iter().filter(|c| **c == Some(true)).count() * 2
        });
        for (pos, clue) in puzzle.clues() {
            let _ = engine.assume(pos, clue.is_ship());
        }
        assert_eq!(engine.cell_values(), after);
    }
}
