//! Puzzles made from a given solution (`generate --from`): the board, fleet and counts are the
//! solution's, the clues given with it are kept (locked), and clues of the solution are added
//! and removed again as the reduction asks, so that the set is minimal among those that hold
//! the given clues.

use super::reduced_clues;
use super::spec::{GenerateError, GenerateOptions, Generated, Phase, Size, report};
use crate::model::puzzle::{Grid, Pos, Puzzle};
use crate::model::verify::verify;
use rand_chacha::ChaCha8Rng;

/// A solution to make a puzzle of, with the clues to keep: checked against the puzzle it came
/// with ([`Given::new`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Given {
    puzzle: Puzzle,
    solution: Grid,
}

impl Given {
    /// `solution` with the clues of `puzzle` to keep, once the solution satisfies every rule of
    /// `puzzle` (its counts, where given, its fleet and its clues); the violation otherwise.
    pub fn new(puzzle: &Puzzle, solution: Grid) -> Result<Self, GenerateError> {
        verify(puzzle, &solution).map_err(GenerateError::BrokenSolution)?;
        Ok(Given {
            puzzle: puzzle.clone(),
            solution,
        })
    }

    /// The solution.
    pub fn solution(&self) -> &Grid {
        &self.solution
    }

    /// The board size.
    pub fn size(&self) -> Size {
        Size {
            rows: self.solution.rows(),
            cols: self.solution.cols(),
        }
    }

    /// The cells of the clues kept, in reading order. A clue that names a ship part of
    /// unknown kind is kept as the solution's piece there.
    pub fn locked(&self) -> Vec<Pos> {
        let mut cells: Vec<Pos> = self.puzzle.clues().map(|(pos, _)| pos).collect();
        cells.sort();
        cells
    }

    /// `options` for this solution: its size and its puzzle's fleet, the rest as given.
    pub fn options(&self, options: &GenerateOptions) -> GenerateOptions {
        GenerateOptions {
            size: self.size(),
            fleet: self.puzzle.fleet().clone(),
            ..options.clone()
        }
    }
}

/// A puzzle whose only solution is `given`'s, with every row and column count, the given
/// clues, and clues of the solution added to them as `options.reduce` needs, each added clue
/// needed for it. `options.size` and `options.fleet` are not read: the
/// solution's size and the given puzzle's fleet are used.
pub fn generate_from(
    options: &GenerateOptions,
    given: &Given,
    rng: &mut ChaCha8Rng,
) -> Result<Generated, GenerateError> {
    let options = given.options(options);
    report(&options, Phase::Revealing);
    let solution = given.solution.clone();
    let locked = given.locked();
    let (clues, undecided) = reduced_clues(&solution, &options, &locked, rng)?;
    Ok(Generated::of(solution, &options.fleet, &clues, undecided))
}
