//! The largest inputs the crate accepts, as part of the model. Every reader checks a board's
//! size, its fleet and the number of boards in a file against a [`Limits`] value before it
//! allocates anything sized by them, and refuses what exceeds one with a [`LimitExceeded`] that
//! names the limit, so hostile or mistyped input is a clear error instead of an exhausted
//! memory. The defaults keep every board they allow solvable in reasonable memory (see
//! `docs/reliability.md`); callers that really need more raise a limit field by field.

use crate::model::puzzle::{Fleet, Puzzle};
use std::fmt;

/// Default [`Limits::max_cells`]: a 1000x1000 board, or 1x1,000,000.
pub const MAX_CELLS: usize = 1_000_000;
/// Default [`Limits::max_ship_len`].
pub(crate) const MAX_SHIP_LEN: usize = 1_000;
/// Default [`Limits::max_ships`].
pub(crate) const MAX_SHIPS: usize = 100_000;
/// Default [`Limits::max_model_size`]: the SAT backend needs 400 to 450 bytes per variable of
/// the estimate (`docs/reliability.md`), so a puzzle at this limit solves in about 3.6 GB.
pub const MAX_MODEL_SIZE: usize = 8_000_000;
/// Default [`Limits::max_boards`].
pub(crate) const MAX_BOARDS: usize = 100_000;
/// Default [`Limits::max_file_cells`]: ten boards of the largest size.
pub(crate) const MAX_FILE_CELLS: usize = 10_000_000;
/// Default [`Limits::max_input_bytes`]: 256 MiB.
pub(crate) const MAX_INPUT_BYTES: u64 = 256 << 20;
/// Default [`Limits::max_variable`]: the largest variable an answer file may name when the
/// formula it answers is not at hand (with the formula, its own variable count is the limit).
pub(crate) const MAX_VARIABLE: usize = 1 << 26;

/// Named maximums on what input may ask for. [`Limits::default`] holds the constants of this
/// module.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// Cells of one board (rows x columns). Rows and columns are each bounded by it too.
    pub max_cells: usize,
    /// Length of the longest ship of a fleet.
    pub max_ship_len: usize,
    /// Ships in a fleet, all lengths together.
    pub max_ships: usize,
    /// The estimated size of a puzzle's model (`model_size`: cells, the placements its counts
    /// leave, and the registers of its count constraints), which the solvers' memory grows with.
    pub max_model_size: usize,
    /// Boards in one file (Rubin and Krazydad files, JSON Lines).
    pub max_boards: usize,
    /// Cells of all the boards of one file together.
    pub max_file_cells: usize,
    /// Bytes of one input file.
    pub max_input_bytes: u64,
    /// The largest variable number a solver's answer may name.
    pub max_variable: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_cells: MAX_CELLS,
            max_ship_len: MAX_SHIP_LEN,
            max_ships: MAX_SHIPS,
            max_model_size: MAX_MODEL_SIZE,
            max_boards: MAX_BOARDS,
            max_file_cells: MAX_FILE_CELLS,
            max_input_bytes: MAX_INPUT_BYTES,
            max_variable: MAX_VARIABLE,
        }
    }
}

/// Which limit a value exceeded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Limit {
    /// [`Limits::max_cells`].
    Cells,
    /// [`Limits::max_cells`], for one side of the board.
    Side,
    /// [`Limits::max_ship_len`].
    ShipLen,
    /// [`Limits::max_ships`].
    Ships,
    /// [`Limits::max_model_size`].
    ModelSize,
    /// [`Limits::max_boards`].
    Boards,
    /// [`Limits::max_file_cells`].
    FileCells,
    /// [`Limits::max_input_bytes`].
    InputBytes,
    /// [`Limits::max_variable`], or the variable count of the formula an answer belongs to.
    Variable,
}

/// A value over a limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub struct LimitExceeded {
    /// The limit.
    pub limit: Limit,
    /// The value the input asks for (saturated at `u64::MAX`).
    pub value: u64,
    /// The limit's value.
    pub max: u64,
}

impl fmt::Display for LimitExceeded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let LimitExceeded { value, max, .. } = *self;
        match self.limit {
            Limit::Cells => write!(
                f,
                "the board has {value} cells (rows x columns), over the limit of {max}"
            ),
            Limit::Side => write!(
                f,
                "the board has {value} rows or columns, over the limit of {max}"
            ),
            Limit::ShipLen => write!(f, "a ship of length {value} is over the limit of {max}"),
            Limit::Ships => write!(f, "the fleet has {value} ships, over the limit of {max}"),
            Limit::ModelSize => write!(
                f,
                "the puzzle's model would have about {value} variables (cells, placements \
                 and counters), over the limit of {max}"
            ),
            Limit::Boards => write!(f, "the file holds more than {max} boards (the limit)"),
            Limit::FileCells => write!(
                f,
                "the boards of the file have {value} cells together, over the limit of {max}"
            ),
            Limit::InputBytes => write!(f, "the input is over the limit of {max} bytes"),
            Limit::Variable => write!(f, "variable {value} is over the limit of {max}"),
        }
    }
}

/// `value` against `max` for `limit`.
fn check(limit: Limit, value: u64, max: u64) -> Result<(), LimitExceeded> {
    if value > max {
        Err(LimitExceeded { limit, value, max })
    } else {
        Ok(())
    }
}

fn wide(n: usize) -> u64 {
    u64::try_from(n).unwrap_or(u64::MAX)
}

impl Limits {
    /// Limits with `max_cells` changed.
    pub fn with_max_cells(self, max_cells: usize) -> Self {
        Limits { max_cells, ..self }
    }

    /// Limits with `max_ships` changed.
    #[cfg(test)]
    pub(crate) fn with_max_ships(self, max_ships: usize) -> Self {
        Limits { max_ships, ..self }
    }

    /// Limits with `max_model_size` changed.
    pub fn with_max_model_size(self, max_model_size: usize) -> Self {
        Limits {
            max_model_size,
            ..self
        }
    }

    /// Limits with `max_input_bytes` changed.
    pub fn with_max_input_bytes(self, max_input_bytes: u64) -> Self {
        Limits {
            max_input_bytes,
            ..self
        }
    }

    /// Limits with `max_boards` changed.
    pub fn with_max_boards(self, max_boards: usize) -> Self {
        Limits { max_boards, ..self }
    }

    /// A board of `rows` x `cols` (numbers read from the input, not yet allocated).
    pub fn board(&self, rows: usize, cols: usize) -> Result<(), LimitExceeded> {
        let max = wide(self.max_cells);
        check(Limit::Side, wide(rows.max(cols)), max)?;
        check(Limit::Cells, wide(rows).saturating_mul(wide(cols)), max)
    }

    /// A ship of length `len` in a fleet.
    pub(crate) fn ship_len(&self, len: usize) -> Result<(), LimitExceeded> {
        check(Limit::ShipLen, wide(len), wide(self.max_ship_len))
    }

    /// A ship length given as a (possibly huge) 64-bit number.
    #[cfg(test)]
    pub(crate) fn ship_len_u64(&self, len: u64) -> Result<(), LimitExceeded> {
        check(Limit::ShipLen, len, wide(self.max_ship_len))
    }

    /// A fleet of `ships` ships in all.
    pub(crate) fn ships(&self, ships: u64) -> Result<(), LimitExceeded> {
        check(Limit::Ships, ships, wide(self.max_ships))
    }

    /// A file holding `boards` boards so far.
    pub(crate) fn boards(&self, boards: usize) -> Result<(), LimitExceeded> {
        check(Limit::Boards, wide(boards), wide(self.max_boards))
    }

    /// Boards of `cells` cells together in one file.
    pub(crate) fn file_cells(&self, cells: u64) -> Result<(), LimitExceeded> {
        check(Limit::FileCells, cells, wide(self.max_file_cells))
    }

    /// An input of `bytes` bytes.
    pub(crate) fn input_bytes(&self, bytes: u64) -> Result<(), LimitExceeded> {
        check(Limit::InputBytes, bytes, self.max_input_bytes)
    }

    /// A variable number `var` in a solver's answer, against the formula's `vars` variables when
    /// known, else [`Limits::max_variable`].
    pub(crate) fn variable(&self, var: u64, vars: Option<usize>) -> Result<(), LimitExceeded> {
        check(
            Limit::Variable,
            var,
            wide(vars.unwrap_or(self.max_variable)),
        )
    }

    /// A fleet: its longest ship and its number of ships.
    pub fn fleet(&self, fleet: &Fleet) -> Result<(), LimitExceeded> {
        self.ship_len(fleet.max_len())?;
        let ships = fleet
            .counts()
            .iter()
            .fold(0u64, |sum, &c| sum.saturating_add(wide(c)));
        self.ships(ships)
    }

    /// A whole puzzle, once built: its board, its fleet and the size of its model (the parsers
    /// check each part before allocating; this catches what a part alone cannot show, such as
    /// the total ship count, a fleet of many lengths on a large board, or counts that need
    /// large counters).
    pub fn puzzle(&self, puzzle: &Puzzle) -> Result<(), LimitExceeded> {
        self.board(puzzle.rows(), puzzle.cols())?;
        self.fleet(puzzle.fleet())?;
        check(
            Limit::ModelSize,
            model_size(puzzle),
            wide(self.max_model_size),
        )
    }
}

/// An upper bound, computed without enumerating them, on the placements of `puzzle`'s fleet
/// that its counts allow: a ship lies in a line whose count (when known) is at least its
/// length, across lines whose counts are not 0. This is the pruning the counts make in
/// [`crate::model::placement::Placements::new`], without the clues; on an open board it is the exact
/// number of positions. O(lines) per ship length.
#[cfg(test)]
pub(crate) fn placements_bound(puzzle: &Puzzle) -> u64 {
    class_placements(puzzle)
        .iter()
        .fold(0, |sum, &(_, p)| sum.saturating_add(p))
}

/// An estimate, made without building anything, of the variables of `puzzle`'s model: one per
/// cell, one per placement its counts leave ([`placements_bound`]), and the registers of an
/// "exactly k of n" counter for each known row and column count and each fleet class (about
/// n x (min(k, n - k) + 1), as the sequential counter builds them). The solvers' memory grows
/// with it.
pub(crate) fn model_size(puzzle: &Puzzle) -> u64 {
    let counter = |n: u64, k: u64| -> u64 {
        if k == 0 || k >= n {
            0
        } else {
            n.saturating_mul(k.min(n - k) + 1)
        }
    };
    let lines = |counts: &[Option<usize>], n: usize| -> u64 {
        counts.iter().flatten().fold(0u64, |sum, &k| {
            sum.saturating_add(counter(wide(n), wide(k)))
        })
    };
    let fleet = class_placements(puzzle)
        .iter()
        .fold(0u64, |sum, &(count, p)| {
            sum.saturating_add(p)
                .saturating_add(counter(p, wide(count)))
        });
    wide(puzzle.shape().cells())
        .saturating_add(lines(puzzle.row_counts(), puzzle.cols()))
        .saturating_add(lines(puzzle.col_counts(), puzzle.rows()))
        .saturating_add(fleet)
}

/// Each fleet class's ship count and the placements its counts leave ([`placements_bound`]).
fn class_placements(puzzle: &Puzzle) -> Vec<(usize, u64)> {
    let open = |c: &Option<usize>| *c != Some(0);
    // Runs of consecutive lines whose count is not 0, across which a ship may lie.
    let runs = |counts: &[Option<usize>]| -> Vec<u64> {
        let mut runs = Vec::new();
        let mut run = 0u64;
        for c in counts {
            if open(c) {
                run += 1;
            } else if run > 0 {
                runs.push(std::mem::take(&mut run));
            }
        }
        if run > 0 {
            runs.push(run);
        }
        runs
    };
    let (row_runs, col_runs) = (runs(puzzle.row_counts()), runs(puzzle.col_counts()));
    // Positions of a ship of `len` in a line: windows of `len` lines inside one run.
    let windows =
        |runs: &[u64], len: u64| -> u64 { runs.iter().map(|&r| (r + 1).saturating_sub(len)).sum() };
    // Lines (of `counts`) that can hold `len` cells.
    let roomy = |counts: &[Option<usize>], len: usize| -> u64 {
        wide(counts.iter().filter(|c| c.is_none_or(|k| k >= len)).count())
    };
    puzzle
        .fleet()
        .classes()
        .map(|class| {
            let len = wide(class.len);
            let across =
                roomy(puzzle.row_counts(), class.len).saturating_mul(windows(&col_runs, len));
            let down =
                roomy(puzzle.col_counts(), class.len).saturating_mul(windows(&row_runs, len));
            // A submarine has one position per cell, counted once.
            let p = if class.len == 1 {
                across
            } else {
                across.saturating_add(down)
            };
            (class.count, p)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::placement::Placements;
    use crate::model::puzzle::{Clue, Pos};

    #[test]
    fn the_placement_bound_is_exact_on_open_boards_and_an_upper_bound_with_counts() {
        let fleet = Fleet::from_counts(vec![2, 1, 1, 1]);
        let open = Puzzle::new(vec![None; 7], vec![None; 9], fleet.clone()).unwrap();
        let exact = Placements::new(&open).len() as u64;
        assert_eq!(placements_bound(&open), exact);
        let rows = vec![Some(0), Some(4), None, Some(1), Some(0), Some(2), Some(3)];
        let cols = vec![
            Some(1),
            Some(0),
            None,
            Some(2),
            Some(2),
            Some(0),
            Some(1),
            None,
            Some(3),
        ];
        let mut counted = Puzzle::new(rows, cols, fleet).unwrap();
        assert_eq!(
            placements_bound(&counted),
            Placements::new(&counted).len() as u64,
            "without clues the counts prune alike"
        );
        counted.add_clue(Pos::new(1, 2), Clue::Ship).unwrap();
        assert!(placements_bound(&counted) >= Placements::new(&counted).len() as u64);
        assert!(placements_bound(&counted) < exact);
        // 1000 x 1000 open with one submarine: a million placements, and a model of four
        // million (cells, placements, the counter); with the standard fleet, over the limit.
        let big = |fleet| Puzzle::new(vec![None; 1000], vec![None; 1000], fleet).unwrap();
        let one = big(Fleet::from_counts(vec![1]));
        assert_eq!(placements_bound(&one), 1_000_000);
        assert_eq!(model_size(&one), 1_000_000 + 1_000_000 + 2 * 1_000_000);
        assert!(Limits::default().puzzle(&one).is_ok());
        let e = Limits::default()
            .puzzle(&big(Fleet::standard()))
            .unwrap_err();
        assert_eq!(e.limit, Limit::ModelSize);
        // Many ships need wide counters: 20,000 submarines on 300 x 300.
        let subs = Puzzle::new(
            vec![None; 300],
            vec![None; 300],
            Fleet::from_counts(vec![20_000]),
        );
        assert_eq!(
            Limits::default().puzzle(&subs.unwrap()).unwrap_err().limit,
            Limit::ModelSize
        );
        // So do large row and column counts.
        let dense = Puzzle::new(
            vec![Some(300); 1000],
            vec![Some(300); 1000],
            Fleet::from_counts(vec![0, 0, 100_000]),
        );
        assert!(model_size(dense.as_ref().unwrap()) > 500_000_000);
    }

    #[test]
    fn boards_are_checked_without_overflow() {
        let l = Limits::default();
        assert!(l.board(1000, 1000).is_ok());
        assert!(l.board(1, 1_000_000).is_ok());
        assert_eq!(
            l.board(100_000, 100_000).unwrap_err().limit,
            Limit::Cells,
            "10^10 cells"
        );
        assert_eq!(
            l.board(usize::MAX, usize::MAX).unwrap_err().limit,
            Limit::Side
        );
        assert!(l.with_max_cells(4_000_000).board(2000, 2000).is_ok());
        let e = l.board(2000, 2000).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the board has 4000000 cells (rows x columns), over the limit of 1000000"
        );
    }

    #[test]
    fn fleets_are_checked_as_a_whole() {
        let l = Limits::default().with_max_ships(5);
        let p = Puzzle::new(vec![None; 3], vec![None; 3], Fleet::from_counts(vec![3, 3])).unwrap();
        assert_eq!(l.puzzle(&p).unwrap_err().limit, Limit::Ships);
        assert!(Limits::default().puzzle(&p).is_ok());
        assert_eq!(l.ship_len_u64(1 << 63).unwrap_err().limit, Limit::ShipLen);
        assert!(l.variable(5, Some(10)).is_ok());
        assert!(l.variable(11, Some(10)).is_err());
        assert!(l.variable(u64::MAX, None).is_err());
    }
}
