//! The cell-based integer program, after the cell model of Meuffels & den Hertog (2010): one 0-1
//! variable per cell ("holds a ship part") carries the counts and the no-touch rule, and one
//! indicator per legal placement recognises the ship segments so the fleet can be counted. The
//! statement, the argument that it is exact, and its size formulas are in `encodings/ilp-cell.md`.

use super::linear::{IlpModel, LinearModel, Sense, Term, VarRole, placement_name};
use crate::model::geometry::caps;
use crate::model::placement::Placements;
use crate::model::puzzle::{Pos, Puzzle};

/// Builds the cell model of `puzzle` over its legal `placements` ([`Placements::new`]).
///
/// Variables: `y_r_c` per cell, fixed by bounds to 1 under a ship clue and to 0 where no legal
/// placement reaches (water clues among them), with the empty domain `1..=0` when both hold;
/// `z_...` per legal placement.
///
/// - `row_r` / `col_c`: the cells of each line with a known count sum to it;
/// - `diag`: two diagonal neighbours are never both ship (two rows per 2x2 block), so ship cells
///   form straight segments and different segments never touch;
/// - `part`, `cap`: a placement's indicator implies its cells are ship and the cells capping it
///   (beyond its ends, or the four neighbours of a submarine) are water, i.e. it is a whole
///   segment;
/// - `cover_r_c`: a ship cell lies under at least one placement indicator (redundant given
///   `cells`, but it tightens the LP relaxation a lot: the median IST time fell fifteenfold);
/// - `fleet_L`: the indicators of length `L` sum to the number of such ships;
/// - `cells`: the cells sum to the fleet's total size. With the fleet rows this forces every
///   segment on the board to be one of the counted placements.
pub(crate) fn build(puzzle: &Puzzle, placements: &Placements) -> LinearModel {
    let (rows, cols) = (puzzle.rows(), puzzle.cols());
    let mut m = LinearModel::new(IlpModel::Cell, rows, cols);
    for pos in puzzle.positions() {
        let reachable = !placements.covering(pos).is_empty();
        let clued = puzzle.clue(pos).is_some_and(|c| c.is_ship());
        let (lower, upper) = match (clued, reachable) {
            (true, true) => (1, 1),
            // A ship clue that no legal placement covers: empty domain, no solution.
            (true, false) => (1, 0),
            (false, false) => (0, 0),
            (false, true) => (0, 1),
        };
        let v = m.add_var(
            format!("y_{}_{}", pos.row, pos.col),
            lower,
            upper,
            VarRole::Cell(pos),
        );
        m.primary.push(v);
    }
    let y = |pos: Pos| puzzle.shape().index(pos);
    let first_z = m.vars.len();
    for &ship in placements.ships() {
        m.add_var(placement_name('z', ship), 0, 1, VarRole::Placement(ship));
    }
    let one = |var: usize| Term { var, coef: 1 };

    m.add_line_counts(
        puzzle,
        |r| (0..cols).map(|c| one(y(Pos::new(r, c)))).collect(),
        |c| (0..rows).map(|r| one(y(Pos::new(r, c)))).collect(),
    );

    for r in 0..rows.saturating_sub(1) {
        for c in 0..cols.saturating_sub(1) {
            let pairs = [
                ("a", Pos::new(r, c), Pos::new(r + 1, c + 1)),
                ("b", Pos::new(r, c + 1), Pos::new(r + 1, c)),
            ];
            for (tag, a, b) in pairs {
                m.add(
                    "diag",
                    format!("diag{tag}_{r}_{c}"),
                    vec![one(y(a)), one(y(b))],
                    Sense::Le,
                    1,
                );
            }
        }
    }

    for (i, &ship) in placements.ships().iter().enumerate() {
        let z = first_z + i;
        let zname = &m.vars[z].name[2..].to_string();
        for (k, pos) in ship.cells().enumerate() {
            m.add(
                "part",
                format!("part_{zname}_{k}"),
                vec![
                    one(z),
                    Term {
                        var: y(pos),
                        coef: -1,
                    },
                ],
                Sense::Le,
                0,
            );
        }
        for (k, pos) in caps(ship, puzzle.shape()).enumerate() {
            m.add(
                "cap",
                format!("cap_{zname}_{k}"),
                vec![one(z), one(y(pos))],
                Sense::Le,
                1,
            );
        }
    }

    for pos in puzzle.positions() {
        let mut terms = vec![one(y(pos))];
        terms.extend(placements.covering(pos).map(|i| Term {
            var: first_z + i,
            coef: -1,
        }));
        m.add(
            "cover",
            format!("cover_{}_{}", pos.row, pos.col),
            terms,
            Sense::Le,
            0,
        );
    }

    m.add_fleet(puzzle, placements, first_z);

    let terms = (0..rows * cols).map(one).collect();
    m.add(
        "cells",
        "cells".to_string(),
        terms,
        Sense::Eq,
        puzzle.fleet().total_cells() as i64,
    );
    m
}
