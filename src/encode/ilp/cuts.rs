//! Valid inequalities added to an integer program (`--ilp-cuts`): rows every solution already
//! satisfies, stated over the placement variables, which in both models are one exactly for the
//! ships of the solution. Each is argued in `encodings/ilp-ship.md`, and `tests/ilp/mod.rs`
//! checks on random boards that they keep every solution; they go into the engine only, and
//! `--emit-lp` writes the plain program.

use super::linear::{LinearModel, Sense, Term, VarRole};
use crate::model::choice::{Flags, choice};
use crate::model::puzzle::{Orientation, Puzzle, Ship};

choice! {
    /// One family of valid inequalities, as named on the command line (`--ilp-cuts`).
    #[non_exhaustive]
    pub enum IlpCut {
        /// Per row or column with a count `k` and each length `L >= 2` that does not divide `k`: the
        /// ships along the line weighted by `floor(len / L)` sum to at most `floor(k / L)` (a
        /// Chvátal–Gomory rounding of the line's count row).
        LineLengths,
        /// Per row or column: the ship segments in it (one start each) are at most `n + 1 - k` on `n`
        /// cells with count `k`; with no count, segments plus ship cells are at most `n + 1`.
        Segments,
        /// The placements weighted by their length sum to the fleet's ship cells.
        ShipCells,
    }
}

/// Which valid inequalities to add (see [`IlpCut`]); none by default.
pub type IlpCuts = Flags<IlpCut>;

impl IlpCuts {
    /// Adds the chosen rows to `model`, a program of `puzzle`, over its placement variables.
    pub fn add_to(self, model: &mut LinearModel, puzzle: &Puzzle) {
        if !self.any() {
            return;
        }
        let lines = Lines::of(model, puzzle);
        if self.has(IlpCut::LineLengths) {
            line_lengths(model, &lines);
        }
        if self.has(IlpCut::Segments) {
            segments(model, &lines);
        }
        if self.has(IlpCut::ShipCells) {
            let terms = placements(model)
                .map(|(var, ship)| Term {
                    var,
                    coef: ship.len as i64,
                })
                .collect();
            let total = puzzle.fleet().total_cells() as i64;
            model.add(
                "ship_cells",
                "ship_cells".to_string(),
                terms,
                Sense::Eq,
                total,
            );
        }
    }
}

/// The placement variables of `model`, each with its ship.
fn placements(model: &LinearModel) -> impl Iterator<Item = (usize, Ship)> + '_ {
    model
        .vars
        .iter()
        .enumerate()
        .filter_map(|(i, v)| match v.role {
            VarRole::Placement(ship) => Some((i, ship)),
            VarRole::Cell(_) => None,
        })
}

/// One row or column: its name, its number of cells, its count if known, and the placements
/// that meet it, each as `(variable, length, cells in the line, along the line)`.
struct BoardLine {
    name: String,
    cells: usize,
    count: Option<usize>,
    meets: Vec<(usize, usize, usize, bool)>,
}

/// Every row, then every column.
struct Lines(Vec<BoardLine>);

impl Lines {
    fn of(model: &LinearModel, puzzle: &Puzzle) -> Lines {
        let (rows, cols) = (puzzle.rows(), puzzle.cols());
        let mut lines: Vec<BoardLine> = (0..rows)
            .map(|r| BoardLine {
                name: format!("row_{r}"),
                cells: cols,
                count: puzzle.row_counts()[r],
                meets: Vec::new(),
            })
            .chain((0..cols).map(|c| BoardLine {
                name: format!("col_{c}"),
                cells: rows,
                count: puzzle.col_counts()[c],
                meets: Vec::new(),
            }))
            .collect();
        for (var, ship) in placements(model) {
            let (r, c, len) = (ship.start.row, ship.start.col, ship.len);
            if len == 1 {
                // A submarine has one cell in its row and one in its column.
                lines[r].meets.push((var, 1, 1, false));
                lines[rows + c].meets.push((var, 1, 1, false));
                continue;
            }
            let (along, across) = match ship.orientation {
                Orientation::Horizontal => (r, rows + c..rows + c + len),
                Orientation::Vertical => (rows + c, r..r + len),
            };
            lines[along].meets.push((var, len, len, true));
            for line in across {
                lines[line].meets.push((var, len, 1, false));
            }
        }
        Lines(lines)
    }
}

/// `IlpCut::LineLengths`: for a line with count `k` and `L >= 2` not dividing `k`,
/// `Σ_{p along, len_p >= L} floor(len_p / L) x_p <= floor(k / L)`, when the row can bind.
fn line_lengths(model: &mut LinearModel, lines: &Lines) {
    let longest = placements(model)
        .map(|(_, ship)| ship.len)
        .max()
        .unwrap_or(0);
    for line in &lines.0 {
        let Some(k) = line.count else { continue };
        for l in 2..=longest {
            if k % l == 0 {
                continue;
            }
            let terms: Vec<Term> = line
                .meets
                .iter()
                .filter(|&&(_, len, _, along)| along && len >= l)
                .map(|&(var, len, _, _)| Term {
                    var,
                    coef: (len / l) as i64,
                })
                .collect();
            let rhs = (k / l) as i64;
            if terms.iter().map(|t| t.coef).sum::<i64>() > rhs {
                model.add(
                    "cut_lengths",
                    format!("lengths_{}_{l}", line.name),
                    terms,
                    Sense::Le,
                    rhs,
                );
            }
        }
    }
}

/// `IlpCut::Segments`: for a line of `n` cells with count `k`, `Σ_{p meets} x_p <= n + 1 - k`;
/// with no count, `Σ_{p meets} (cells in the line + 1) x_p <= n + 1`; when the row can bind.
fn segments(model: &mut LinearModel, lines: &Lines) {
    for line in &lines.0 {
        let n = line.cells as i64;
        let (terms, rhs): (Vec<Term>, i64) = match line.count {
            Some(k) => (
                line.meets
                    .iter()
                    .map(|&(var, ..)| Term { var, coef: 1 })
                    .collect(),
                n + 1 - k as i64,
            ),
            None => (
                line.meets
                    .iter()
                    .map(|&(var, _, inside, _)| Term {
                        var,
                        coef: inside as i64 + 1,
                    })
                    .collect(),
                n + 1,
            ),
        };
        if terms.iter().map(|t| t.coef).sum::<i64>() > rhs {
            model.add(
                "cut_segments",
                format!("segments_{}", line.name),
                terms,
                Sense::Le,
                rhs,
            );
        }
    }
}
