//! Native search: depth-first branching on candidate ships, with the rules of
//! [`super::deduce`] as the propagation at every node.
//!
//! A node picks an open placement of the longest ship length that still has open ones and
//! tries it twice: chosen, then struck off. The rules then fix what follows (a class with as many
//! candidates as ships uses them all, a line whose count is met is water, ...); a contradiction
//! closes the branch. When every placement is decided, the cells are decided too, and the grid is
//! kept if it passes the independent verifier. This reasons with the fleet and the line counts
//! directly, which the CNF encodings only reach through many conflicts: on the tuning half of
//! `puzzles/hard/` it proves most exactly minimal 25x25 boards unique several times faster than
//! CDCL on the cell model, but it learns nothing, so a few boards need far more nodes than the
//! solver needs conflicts. The SAT engine therefore gives it a node budget
//! ([`crate::encode::sat::engine::NATIVE_NODES`]) and hands what is left to the solver.

use super::deduce::{Mark, PlacementStatus, Propagation, Rules};
use crate::model::deadline::Budget;
use crate::model::placement::Placements;
use crate::model::puzzle::{Grid, Puzzle};
use crate::model::verify::verify;
use std::sync::atomic::Ordering;

/// Why a search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// Every branch was closed: the grids found are all the solutions.
    Exhausted,
    /// The number of grids asked for was found.
    Limit,
    /// The node budget ran out.
    OutOfNodes,
    /// The deadline passed.
    TimeLimit,
    /// The stop flag was set.
    Stopped,
}

/// What a search found and what it cost.
#[derive(Clone, Debug)]
pub struct Searched {
    /// Grids found, in the order found, each passing the verifier.
    pub grids: Vec<Grid>,
    /// Branch nodes visited.
    pub nodes: u64,
    /// Why it ended.
    pub end: End,
}

/// Looks for up to `limit` solutions of `puzzle` (at least one) over `placements` (every
/// placement that can be in a solution must be listed; pre-solving may have removed the others).
pub fn search(puzzle: &Puzzle, placements: &Placements, limit: usize, budget: &Budget) -> Searched {
    let ships = placements.ships();
    let mut order: Vec<usize> = (0..ships.len()).collect();
    order.sort_by_key(|&p| std::cmp::Reverse(ships[p].len));
    let mut walk = Walk {
        puzzle,
        engine: Propagation::new(puzzle, placements, Rules::Full),
        order,
        limit: limit.max(1),
        budget,
        found: Searched {
            grids: Vec::new(),
            nodes: 0,
            end: End::Exhausted,
        },
    };
    walk.engine.set_deadline(budget.deadline);
    if walk.engine.start(puzzle).is_ok() {
        walk.walk();
    }
    if walk.found.end == End::Exhausted && walk.engine.stopped() {
        walk.found.end = End::TimeLimit;
    }
    walk.found
}

/// A node on the path from the root: its branch placement (`order[at]`), the trail mark before
/// it, and whether its second branch (struck off) was taken.
struct Frame {
    at: usize,
    mark: Mark,
    struck: bool,
}

struct Walk<'a, 'b> {
    puzzle: &'b Puzzle,
    engine: Propagation<'a>,
    /// The placements, longest first (stable, so by index within a length): the branching order.
    order: Vec<usize>,
    limit: usize,
    budget: &'b Budget,
    found: Searched,
}

impl Walk<'_, '_> {
    /// Whether the search must stop before visiting another node.
    fn over(&mut self) -> bool {
        if self.found.end != End::Exhausted {
            return true;
        }
        let end = if self.engine.stopped() {
            End::TimeLimit
        } else if self
            .budget
            .stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
        {
            End::Stopped
        } else if self.found.nodes >= self.budget.nodes.unwrap_or(u64::MAX) {
            End::OutOfNodes
        } else {
            return false;
        };
        self.found.end = end;
        true
    }

    /// Depth first from the root, with an explicit stack (a path can hold one level per
    /// placement struck off, thousands on a large board). Each node branches on the first open
    /// placement at or after its parent's in [`Walk::order`] (going down the tree only decides
    /// placements, so none before the parent's is open): chosen first, then struck off.
    fn walk(&mut self) {
        let mut stack: Vec<Frame> = Vec::new();
        let mut enter = Some(0);
        loop {
            if let Some(from) = enter.take() {
                if self.over() {
                    return;
                }
                self.found.nodes += 1;
                let open = (from..self.order.len())
                    .find(|&i| self.engine.status(self.order[i]) == PlacementStatus::Open);
                match open {
                    None => self.leaf(),
                    Some(at) => {
                        stack.push(Frame {
                            at,
                            mark: self.engine.mark(),
                            struck: false,
                        });
                        if self.engine.choose_placement(self.order[at]).is_ok() {
                            enter = Some(at + 1);
                            continue;
                        }
                    }
                }
            }
            // Back to the deepest node with a branch left.
            let Some(frame) = stack.last_mut() else {
                return;
            };
            self.engine.undo(frame.mark);
            if self.over() {
                return;
            }
            if frame.struck {
                stack.pop();
                continue;
            }
            frame.struck = true;
            let at = frame.at;
            if self.engine.kill_placement(self.order[at]).is_ok() {
                enter = Some(at + 1);
            }
        }
    }

    /// Every placement is decided: the grid of the ship cells, if it is a solution.
    fn leaf(&mut self) {
        let shape = self.puzzle.shape();
        let ship: Vec<bool> = shape
            .positions()
            .map(|pos| self.engine.cell(pos) == Some(true))
            .collect();
        let grid = Grid::from_ship_cells(shape.rows, shape.cols, &ship)
            .filter(|g| verify(self.puzzle, g).is_ok());
        if let Some(grid) = grid {
            self.found.grids.push(grid);
            if self.found.grids.len() >= self.limit {
                self.found.end = End::Limit;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::usecase::solve::{Outcome, SolveOptions, solve};
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;

    fn unbounded() -> Budget {
        Budget::default()
    }

    #[test]
    fn the_ist_example_has_its_one_solution() {
        let puzzle = crate::format::ist::parse(include_str!("../../puzzles/ist-example.txt"))
            .expect("the example parses");
        let placements = Placements::new(&puzzle);
        let found = search(&puzzle, &placements, 2, &unbounded());
        assert_eq!(found.end, End::Exhausted);
        let plain = solve(&puzzle, &SolveOptions::unique()).expect("solves");
        assert_eq!(Outcome::Unique(found.grids[0].clone()), plain.outcome);
    }

    #[test]
    fn a_spent_budget_says_so() {
        let puzzle = crate::format::ist::parse(include_str!("../../puzzles/ist-example.txt"))
            .expect("the example parses");
        let placements = Placements::new(&puzzle);
        let budget = Budget {
            nodes: Some(0),
            ..Budget::default()
        };
        let found = search(&puzzle, &placements, 2, &budget);
        assert_eq!((found.end, found.grids.len()), (End::OutOfNodes, 0));
        let stop = Budget {
            stop: Some(Arc::new(AtomicBool::new(true))),
            ..unbounded()
        };
        assert_eq!(search(&puzzle, &placements, 2, &stop).end, End::Stopped);
    }
}
