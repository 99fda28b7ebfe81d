//! Native search: depth-first branching on candidate ships, with the rules of
//! [`super::deduce`] as the propagation at every node.
//!
//! A node picks an open placement of the longest ship length that still has open ones and
//! tries it twice: chosen, then struck off (`search_toward` takes the branch that agrees with
//! a given grid first). The rules then fix what follows (a class with as many
//! candidates as ships uses them all, a line whose count is met is water, ...); a contradiction
//! closes the branch. When every placement is decided, the cells are decided too, and the grid is
//! kept if it passes the independent verifier. This reasons with the fleet and the line counts
//! directly, which the CNF encodings only reach through many conflicts: on the tuning half of
//! `puzzles/hard/` it proves most exactly minimal 25x25 boards unique several times faster than
//! CDCL on the cell model, but it learns nothing, so a few boards need far more nodes than the
//! solver needs conflicts. The SAT engine therefore gives it a node budget
//! ([`crate::encode::sat::engine::NATIVE_NODES`]) and hands what is left to the solver; beside
//! the solver, `search_past` reports at that budget and goes on for a fact of its own.

use super::deduce::{Contradiction, Mark, PlacementStatus, Propagation, Rules};
use crate::model::deadline::{Budget, TimeLimit};
use crate::model::placement::Placements;
use crate::model::puzzle::{Grid, Puzzle, Ship};
use crate::model::verify::verify;
use std::collections::HashSet;
use std::sync::atomic::AtomicBool;
use std::sync::atomic::Ordering::Relaxed;

/// Why a search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum End {
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
pub(crate) struct Searched {
    /// Grids found, in the order found, each passing the verifier.
    pub grids: Vec<Grid>,
    /// Branch nodes visited.
    pub nodes: u64,
    /// Why it ended.
    pub end: End,
}

/// Looks for up to `limit` solutions of `puzzle` (at least one) over `placements` (every
/// placement that can be in a solution must be listed; pre-solving may have removed the others).
pub(crate) fn search(
    puzzle: &Puzzle,
    placements: &Placements,
    limit: usize,
    budget: &Budget,
) -> Searched {
    depth_first(puzzle, placements, limit, budget, None, None)
}

/// How a search goes on past its node budget ([`search_past`]).
pub(crate) struct Past<'a> {
    /// The nodes it may visit in all (at least the budget's).
    pub nodes: u64,
    /// Stops it, as the budget's stop flag does.
    pub halt: &'a AtomicBool,
    /// Told, once, what [`search`] within the budget would have returned: at the budget's
    /// last node, or at the end if the search ends before.
    pub at_budget: AtBudget<'a>,
}

/// What hears a search's findings at its budget ([`Past::at_budget`]).
pub(crate) type AtBudget<'a> = Box<dyn FnOnce(&Searched) + 'a>;

/// [`search`], going on past the budget's nodes to `past.nodes`: `past.at_budget` hears what
/// the search within the budget finds, and the search goes on for a fact of its own (every
/// solution found, or `limit` of them). The tree and its order are those of [`search`], so the
/// report at the budget is the same whatever follows.
pub(crate) fn search_past(
    puzzle: &Puzzle,
    placements: &Placements,
    limit: usize,
    budget: &Budget,
    past: Past,
) -> Searched {
    depth_first(puzzle, placements, limit, budget, None, Some(past))
}

/// [`search`] that tries first, at every node, the branch that agrees with `guide` (a grid of
/// the same board, typically a known solution of a puzzle with one clue more or changed): a
/// placement that is a ship of `guide` is chosen first, any other struck off first. The tree is
/// the same, so a search that runs out of branches costs what [`search`] costs, but the
/// solutions found first are those the search reaches with the fewest changes to `guide`'s
/// ships on the way. The generator's uniqueness questions look for such a second solution: on
/// exact 30x30 seed 1 the native search then settles 45 of 70 questions instead of 35
/// (`docs/benchmarks/2026-11-26-issue-21-fifth-pass.md`).
pub(crate) fn search_toward(
    puzzle: &Puzzle,
    placements: &Placements,
    limit: usize,
    budget: &Budget,
    guide: &Grid,
) -> Searched {
    depth_first(puzzle, placements, limit, budget, Some(guide), None)
}

fn depth_first(
    puzzle: &Puzzle,
    placements: &Placements,
    limit: usize,
    budget: &Budget,
    guide: Option<&Grid>,
    past: Option<Past>,
) -> Searched {
    let ships = placements.ships();
    // Per placement: whether its first branch chooses it (else it is struck off first).
    let choose_first = match guide {
        None => vec![true; ships.len()],
        Some(guide) => {
            let wanted: HashSet<Ship> = guide.ships().into_iter().collect();
            ships.iter().map(|s| wanted.contains(s)).collect()
        }
    };
    let mut order: Vec<usize> = (0..ships.len()).collect();
    order.sort_by_key(|&p| std::cmp::Reverse(ships[p].len));
    let nodes = budget.nodes.unwrap_or(u64::MAX);
    let (cap, halt, at_budget) = match past {
        Some(past) => (past.nodes.max(nodes), Some(past.halt), Some(past.at_budget)),
        None => (nodes, None, None),
    };
    let engine = match Propagation::within(puzzle, placements, Rules::Full, &budget.deadline) {
        Ok(engine) => engine,
        Err(TimeLimit) => {
            let found = Searched {
                grids: Vec::new(),
                nodes: 0,
                end: End::TimeLimit,
            };
            if let Some(at_budget) = at_budget {
                at_budget(&found);
            }
            return found;
        }
    };
    let mut walk = Walk {
        puzzle,
        engine,
        order,
        limit: limit.max(1),
        choose_first,
        budget,
        cap,
        halt,
        at_budget,
        found: Searched {
            grids: Vec::new(),
            nodes: 0,
            end: End::Exhausted,
        },
    };
    walk.engine.set_deadline(budget.deadline.clone());
    if walk.engine.start(puzzle).is_ok() {
        walk.walk();
    }
    if walk.found.end == End::Exhausted && walk.engine.stopped() {
        walk.found.end = End::TimeLimit;
    }
    if let Some(at_budget) = walk.at_budget.take() {
        at_budget(&walk.found);
    }
    walk.found
}

/// A node on the path from the root: its branch placement (`order[at]`), the trail mark before
/// it, and whether its second branch was taken.
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
    /// Per placement: chosen in the first branch (else struck off first, chosen second).
    choose_first: Vec<bool>,
    budget: &'b Budget,
    /// The nodes it may visit: the budget's, or more ([`search_past`]).
    cap: u64,
    /// Stops the search past its budget.
    halt: Option<&'b AtomicBool>,
    /// Hears what the search found once it reaches the budget's nodes ([`search_past`]).
    at_budget: Option<AtBudget<'b>>,
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
        } else if self.budget.deadline.stopped() || self.halt.is_some_and(|h| h.load(Relaxed)) {
            End::Stopped
        } else {
            // Where a search within the budget would stop.
            if self.found.nodes >= self.budget.nodes.unwrap_or(u64::MAX)
                && let Some(at_budget) = self.at_budget.take()
            {
                at_budget(&Searched {
                    end: End::OutOfNodes,
                    ..self.found.clone()
                });
            }
            if self.found.nodes < self.cap {
                return false;
            }
            End::OutOfNodes
        };
        self.found.end = end;
        true
    }

    /// Depth first from the root, with an explicit stack (a path can hold one level per
    /// placement struck off, thousands on a large board). Each node branches on the first open
    /// placement at or after its parent's in [`Walk::order`] (going down the tree only decides
    /// placements, so none before the parent's is open): chosen first, then struck off (the
    /// other way round for a placement [`search_toward`]'s guide does not hold).
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
                        if self.branch(self.order[at], true).is_ok() {
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
            if self.branch(self.order[at], false).is_ok() {
                enter = Some(at + 1);
            }
        }
    }

    /// The first or the second branch at placement `p`: chosen, or struck off.
    fn branch(&mut self, p: usize, first: bool) -> Result<(), Contradiction> {
        if first == self.choose_first[p] {
            self.engine.choose_placement(p)
        } else {
            self.engine.kill_placement(p)
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

    /// The search toward a grid walks the same tree: the same solutions and nodes when it runs
    /// to the end, and the guide itself first when it is a solution.
    #[test]
    fn the_search_toward_a_grid_finds_the_same_solutions_and_the_grid_first() {
        let example = crate::format::ist::parse(include_str!("../../puzzles/ist-example.txt"))
            .expect("the example parses");
        let solution = match solve(&example, &SolveOptions::unique())
            .expect("solves")
            .outcome
        {
            Outcome::Unique(grid) => grid,
            other => panic!("the example is unique: {other:?}"),
        };
        // Without its clues the example has many solutions.
        let open = example.without_clues();
        let placements = Placements::new(&open);
        let all = search(&open, &placements, 100_000, &unbounded());
        let toward = search_toward(&open, &placements, 100_000, &unbounded(), &solution);
        assert_eq!((all.end, toward.end), (End::Exhausted, End::Exhausted));
        assert!(all.grids.len() > 1);
        assert_eq!(all.nodes, toward.nodes);
        let sorted = |grids: &[Grid]| {
            let mut text: Vec<String> = grids.iter().map(|g| format!("{g:?}")).collect();
            text.sort();
            text
        };
        assert_eq!(sorted(&all.grids), sorted(&toward.grids));
        assert_ne!(
            all.grids[0], solution,
            "the plain order meets another grid first"
        );
        let first = search_toward(&open, &placements, 1, &unbounded(), &solution);
        assert_eq!((first.end, first.grids), (End::Limit, vec![solution]));
    }

    /// Past its budget, the search reports at the budget what the search within it finds,
    /// and ends as the search with the larger budget does.
    #[test]
    fn a_search_past_its_budget_reports_the_search_within_it() {
        let example = crate::format::ist::parse(include_str!("../../puzzles/ist-example.txt"))
            .expect("the example parses");
        let open = example.without_clues();
        let placements = Placements::new(&open);
        let within = |nodes| Budget {
            nodes: Some(nodes),
            ..unbounded()
        };
        let summary = |s: &Searched| (s.grids.clone(), s.nodes, s.end);
        let halt = AtomicBool::new(false);
        for (budget, past, limit) in [(40, 300, 100_000), (300, 40, 100_000), (40, 10_000, 3)] {
            let reported = std::cell::RefCell::new(None);
            let found = search_past(
                &open,
                &placements,
                limit,
                &within(budget),
                Past {
                    nodes: past,
                    halt: &halt,
                    at_budget: Box::new(|s| *reported.borrow_mut() = Some(summary(s))),
                },
            );
            let alone = search(&open, &placements, limit, &within(budget));
            assert_eq!(reported.into_inner(), Some(summary(&alone)));
            let larger = search(&open, &placements, limit, &within(past.max(budget)));
            assert_eq!(summary(&found), summary(&larger));
        }
        // The first ends at its limit before the budget, the second runs out past it.
        let few = search(&open, &placements, 3, &within(40));
        assert_eq!(few.end, End::Limit);
        assert_eq!(
            search(&open, &placements, 100_000, &within(300)).end,
            End::OutOfNodes
        );
        halt.store(true, Relaxed);
        let halted = search_past(
            &open,
            &placements,
            100_000,
            &within(40),
            Past {
                nodes: 300,
                halt: &halt,
                at_budget: Box::new(|_| {}),
            },
        );
        assert_eq!(halted.end, End::Stopped);
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
            deadline: crate::model::deadline::Deadline::NONE
                .stopped_by(Arc::new(AtomicBool::new(true))),
            ..unbounded()
        };
        assert_eq!(search(&puzzle, &placements, 2, &stop).end, End::Stopped);
    }
}
