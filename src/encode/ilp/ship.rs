//! The ship-based integer program of Meuffels & den Hertog (2010): one 0-1 variable per legal
//! placement of a ship (length, orientation, first cell), taken from the clue-pruned
//! [`Placements`] list, so clues and counts have already fixed many variables to zero before the
//! solver starts. The statement and its size formulas are in `encodings/ilp-ship.md`.

use super::linear::{IlpModel, LinearModel, Sense, Term, VarRole, placement_name, windows};
use crate::model::placement::Placements;
use crate::model::puzzle::{Orientation, Puzzle};

/// Builds the ship model of `puzzle` over its legal `placements` ([`Placements::new`]).
///
/// - `fleet_L`: for each ship length `L` in the fleet, the placements of length `L` sum to the
///   number of such ships;
/// - `row_r` / `col_c`: for each known count, the cells the placements put in that line sum to it;
/// - `window_r_c`: at most one placement meets each 2x2 window. This one family says both "each
///   cell is covered at most once" and "no two ships touch, not even diagonally", since any two
///   cells at most one step apart lie in a common window;
/// - `clue_r_c`: each cell with a ship clue is covered by exactly one placement. Only placements
///   that agree with every clue have variables, so the kind of piece (end, middle, submarine)
///   and water clues need no constraint of their own.
pub(crate) fn build(puzzle: &Puzzle, placements: &Placements) -> LinearModel {
    let (rows, cols) = (puzzle.rows(), puzzle.cols());
    let mut m = LinearModel::new(IlpModel::Ship, rows, cols);
    for &ship in placements.ships() {
        let v = m.add_var(placement_name('x', ship), 0, 1, VarRole::Placement(ship));
        m.primary.push(v);
    }
    let one = |var: usize| Term { var, coef: 1 };

    m.add_fleet(puzzle, placements, 0);

    // Cells each placement puts in each row and column.
    let mut row_terms = vec![Vec::new(); rows];
    let mut col_terms = vec![Vec::new(); cols];
    for (var, ship) in placements.ships().iter().enumerate() {
        let len = ship.len as i64;
        let (r, c) = (ship.start.row, ship.start.col);
        match ship.orientation {
            Orientation::Horizontal => {
                row_terms[r].push(Term { var, coef: len });
                for line in &mut col_terms[c..c + ship.len] {
                    line.push(one(var));
                }
            }
            Orientation::Vertical => {
                col_terms[c].push(Term { var, coef: len });
                for line in &mut row_terms[r..r + ship.len] {
                    line.push(one(var));
                }
            }
        }
    }
    m.add_line_counts(
        puzzle,
        |r| std::mem::take(&mut row_terms[r]),
        |c| std::mem::take(&mut col_terms[c]),
    );

    let mut meets = Vec::new();
    for (corner, cells) in windows(rows, cols) {
        meets.clear();
        for pos in cells {
            meets.extend(placements.covering(pos));
        }
        meets.sort_unstable();
        meets.dedup();
        let terms = meets.iter().copied().map(one).collect();
        m.add(
            "window",
            format!("window_{}_{}", corner.row, corner.col),
            terms,
            Sense::Le,
            1,
        );
    }

    for (pos, clue) in puzzle.clues() {
        if clue.is_ship() {
            let terms = placements.covering(pos).map(one).collect();
            m.add(
                "clue",
                format!("clue_{}_{}", pos.row, pos.col),
                terms,
                Sense::Eq,
                1,
            );
        }
    }
    m
}
