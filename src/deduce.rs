//! Sound pre-solving on cells and placements, before any formula is built. It applies the rules
//! a person uses first (a line whose count is met is water, a ship cell with one possible ship
//! fixes that ship, a fleet class with as many candidates as ships uses them all, ...) until
//! nothing changes. Only forced facts are derived, so the encoders may treat them as constants:
//! the formula shrinks to the undecided rest of the puzzle, and a contradiction proves that
//! there is no solution.

use crate::placement::{Placements, halo};
use crate::puzzle::{Orientation, Puzzle};

/// What pre-solving decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Knowledge {
    /// Per cell, row-major: `Some(true)` ship, `Some(false)` water, `None` undecided.
    pub cells: Vec<Option<bool>>,
    /// Per placement of the pruned list: whether the ship is certainly there.
    pub forced: Vec<bool>,
}

impl Knowledge {
    /// Whether every cell is decided.
    pub fn is_complete(&self) -> bool {
        self.cells.iter().all(Option::is_some)
    }

    /// Number of decided cells.
    pub fn decided(&self) -> usize {
        self.cells.iter().filter(|c| c.is_some()).count()
    }
}

/// The rules found the puzzle unsolvable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Contradiction;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Cell {
    Unknown,
    Ship,
    Water,
}

struct State<'a> {
    puzzle: &'a Puzzle,
    cells: Vec<Cell>,
    /// Cell indices of each placement.
    ship_cells: Vec<Vec<usize>>,
    /// Halo cell indices of each placement.
    halos: Vec<Vec<usize>>,
    alive: Vec<bool>,
    forced: Vec<bool>,
    changed: bool,
}

impl State<'_> {
    fn set(&mut self, cell: usize, value: Cell) -> Result<(), Contradiction> {
        match self.cells[cell] {
            Cell::Unknown => {
                self.cells[cell] = value;
                self.changed = true;
                Ok(())
            }
            v if v == value => Ok(()),
            _ => Err(Contradiction),
        }
    }

    fn kill(&mut self, p: usize) -> Result<(), Contradiction> {
        if self.forced[p] {
            return Err(Contradiction);
        }
        if self.alive[p] {
            self.alive[p] = false;
            self.changed = true;
        }
        Ok(())
    }

    fn force(&mut self, p: usize) -> Result<(), Contradiction> {
        if !self.alive[p] {
            return Err(Contradiction);
        }
        if !self.forced[p] {
            self.forced[p] = true;
            self.changed = true;
        }
        Ok(())
    }
}

/// Applies the rules to `puzzle` until they change nothing, removing dead placements from
/// `placements`. Returns what is decided, aligned with the pruned `placements`.
pub fn deduce(puzzle: &Puzzle, placements: &mut Placements) -> Result<Knowledge, Contradiction> {
    let (rows, cols) = (puzzle.rows(), puzzle.cols());
    let idx = |p: crate::puzzle::Pos| p.row * cols + p.col;
    let ships = placements.ships();
    let mut state = State {
        puzzle,
        cells: vec![Cell::Unknown; rows * cols],
        ship_cells: ships.iter().map(|s| s.cells().map(idx).collect()).collect(),
        halos: ships
            .iter()
            .map(|s| halo(*s, rows, cols).map(idx).collect())
            .collect(),
        alive: vec![true; ships.len()],
        forced: vec![false; ships.len()],
        changed: true,
    };
    for (pos, clue) in puzzle.clues() {
        state.cells[idx(pos)] = if clue.is_ship() {
            Cell::Ship
        } else {
            Cell::Water
        };
    }
    let mut scratch = vec![0u32; rows * cols];
    while state.changed {
        state.changed = false;
        kill_placements(&mut state, placements)?;
        fleet_rules(&mut state, placements)?;
        cell_rules(&mut state, placements, &mut scratch)?;
        line_rules(&mut state)?;
    }
    let forced: Vec<bool> = state
        .forced
        .iter()
        .zip(&state.alive)
        .filter(|(_, a)| **a)
        .map(|(f, _)| *f)
        .collect();
    placements.retain(&state.alive);
    Ok(Knowledge {
        cells: state
            .cells
            .iter()
            .map(|c| match c {
                Cell::Unknown => None,
                Cell::Ship => Some(true),
                Cell::Water => Some(false),
            })
            .collect(),
        forced,
    })
}

/// Counts ship cells per row and per column.
fn line_ships(state: &State<'_>) -> (Vec<usize>, Vec<usize>) {
    let (rows, cols) = (state.puzzle.rows(), state.puzzle.cols());
    let mut r = vec![0; rows];
    let mut c = vec![0; cols];
    for (i, cell) in state.cells.iter().enumerate() {
        if *cell == Cell::Ship {
            r[i / cols] += 1;
            c[i % cols] += 1;
        }
    }
    (r, c)
}

/// A placement dies when a cell under it is water, a halo cell is ship, or it would overflow a
/// row or column count together with the ship cells already known there.
fn kill_placements(state: &mut State<'_>, placements: &Placements) -> Result<(), Contradiction> {
    let cols = state.puzzle.cols();
    let (row_ships, col_ships) = line_ships(state);
    let row_counts = state.puzzle.row_counts();
    let col_counts = state.puzzle.col_counts();
    for (p, ship) in placements.ships().iter().enumerate() {
        if !state.alive[p] {
            continue;
        }
        let cells = &state.ship_cells[p];
        let dead = cells.iter().any(|&c| state.cells[c] == Cell::Water)
            || state.halos[p].iter().any(|&c| state.cells[c] == Cell::Ship)
            || {
                let known_here = cells
                    .iter()
                    .filter(|&&c| state.cells[c] == Cell::Ship)
                    .count();
                let (r0, c0) = (ship.start.row, ship.start.col);
                match ship.orientation {
                    Orientation::Horizontal => {
                        row_counts[r0].is_some_and(|k| row_ships[r0] - known_here + ship.len > k)
                            || cells.iter().any(|&c| {
                                let col = c % cols;
                                let known = usize::from(state.cells[c] == Cell::Ship);
                                col_counts[col].is_some_and(|k| col_ships[col] - known + 1 > k)
                            })
                    }
                    Orientation::Vertical => {
                        col_counts[c0].is_some_and(|k| col_ships[c0] - known_here + ship.len > k)
                            || cells.iter().any(|&c| {
                                let row = c / cols;
                                let known = usize::from(state.cells[c] == Cell::Ship);
                                row_counts[row].is_some_and(|k| row_ships[row] - known + 1 > k)
                            })
                    }
                }
            };
        if dead {
            state.kill(p)?;
        }
    }
    Ok(())
}

/// Per ship length: as many certain ships as the fleet has rules out the other candidates; as
/// many candidates as the fleet has makes them all certain. A certain ship fixes its cells and
/// its halo.
fn fleet_rules(state: &mut State<'_>, placements: &Placements) -> Result<(), Contradiction> {
    for class in state.puzzle.fleet().classes() {
        let of_len: Vec<usize> = placements
            .of_len(class.len)
            .filter(|&p| state.alive[p])
            .collect();
        let forced = of_len.iter().filter(|&&p| state.forced[p]).count();
        if forced > class.count || of_len.len() < class.count {
            return Err(Contradiction);
        }
        if forced == class.count {
            for &p in &of_len {
                if !state.forced[p] {
                    state.kill(p)?;
                }
            }
        } else if of_len.len() == class.count {
            for &p in &of_len {
                state.force(p)?;
            }
        }
    }
    for p in 0..state.forced.len() {
        if state.forced[p] {
            for i in 0..state.ship_cells[p].len() {
                state.set(state.ship_cells[p][i], Cell::Ship)?;
            }
            for i in 0..state.halos[p].len() {
                state.set(state.halos[p][i], Cell::Water)?;
            }
        }
    }
    Ok(())
}

/// An undecided cell no candidate covers is water. For a ship cell, the cells every candidate
/// through it covers are ship, the cells in every candidate's halo are water, and a single
/// candidate is certain.
fn cell_rules(
    state: &mut State<'_>,
    placements: &Placements,
    scratch: &mut [u32],
) -> Result<(), Contradiction> {
    let cols = state.puzzle.cols();
    for cell in 0..state.cells.len() {
        let pos = crate::puzzle::Pos::new(cell / cols, cell % cols);
        let mut alive = placements
            .covering(pos)
            .iter()
            .copied()
            .filter(|&p| state.alive[p]);
        match state.cells[cell] {
            Cell::Water => {}
            Cell::Unknown => {
                if alive.next().is_none() {
                    state.set(cell, Cell::Water)?;
                }
            }
            Cell::Ship => {
                let candidates: Vec<usize> = alive.collect();
                match candidates.len() {
                    0 => return Err(Contradiction),
                    1 => state.force(candidates[0])?,
                    n => {
                        // Count, per cell, the candidates covering it (low half) and the
                        // candidates with it in their halo (high half).
                        let mut touched = Vec::new();
                        for &p in &candidates {
                            for &c in &state.ship_cells[p] {
                                if scratch[c] == 0 {
                                    touched.push(c);
                                }
                                scratch[c] += 1;
                            }
                            for &c in &state.halos[p] {
                                if scratch[c] == 0 {
                                    touched.push(c);
                                }
                                scratch[c] += 1 << 16;
                            }
                        }
                        let n = n as u32;
                        for &c in &touched {
                            if scratch[c] & 0xffff == n {
                                state.set(c, Cell::Ship)?;
                            } else if scratch[c] >> 16 == n {
                                state.set(c, Cell::Water)?;
                            }
                            scratch[c] = 0;
                        }
                    }
                }
            }
        }
    }
    Ok(())
}

/// A row or column whose count is met is water elsewhere; one that needs all its undecided
/// cells gets them all.
fn line_rules(state: &mut State<'_>) -> Result<(), Contradiction> {
    let (rows, cols) = (state.puzzle.rows(), state.puzzle.cols());
    let lines = (0..rows)
        .map(|r| {
            (
                state.puzzle.row_counts()[r],
                (0..cols).map(move |c| r * cols + c).collect(),
            )
        })
        .chain((0..cols).map(|c| {
            (
                state.puzzle.col_counts()[c],
                (0..rows).map(move |r| r * cols + c).collect(),
            )
        }))
        .collect::<Vec<(Option<usize>, Vec<usize>)>>();
    for (count, cells) in lines {
        let Some(k) = count else { continue };
        let ships = cells
            .iter()
            .filter(|&&c| state.cells[c] == Cell::Ship)
            .count();
        let unknown = cells
            .iter()
            .filter(|&&c| state.cells[c] == Cell::Unknown)
            .count();
        if ships > k || ships + unknown < k {
            return Err(Contradiction);
        }
        if unknown > 0 && (ships == k || ships + unknown == k) {
            let value = if ships == k { Cell::Water } else { Cell::Ship };
            for c in cells {
                if state.cells[c] == Cell::Unknown {
                    state.set(c, value)?;
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::ist;

    #[test]
    fn the_ist_example_is_solved_by_the_rules_alone_or_nearly() {
        let text = include_str!("../puzzles/ist-example.txt");
        let puzzle = ist::parse(text).unwrap();
        let mut placements = Placements::new(&puzzle);
        let before = placements.len();
        let k = deduce(&puzzle, &mut placements).unwrap();
        assert!(placements.len() < before);
        assert_eq!(k.forced.len(), placements.len());
        // Every decided cell agrees with the known solution.
        let solution = include_str!("../puzzles/ist-example.out");
        for (i, ch) in solution.lines().flat_map(|l| l.chars()).enumerate() {
            if let Some(ship) = k.cells[i] {
                assert_eq!(ship, ch != '.' && ch != 'W', "cell {i}");
            }
        }
    }

    #[test]
    fn an_overfull_row_is_a_contradiction() {
        let mut p = Puzzle::new(
            vec![Some(1), Some(0)],
            vec![Some(1), Some(0)],
            crate::puzzle::Fleet::from_counts(vec![1]),
        )
        .unwrap();
        p.add_clue(
            crate::puzzle::Pos::new(1, 1),
            crate::puzzle::Clue::Piece(crate::puzzle::Piece::Submarine),
        )
        .unwrap();
        let mut pl = Placements::new(&p);
        assert_eq!(deduce(&p, &mut pl), Err(Contradiction));
    }
}
