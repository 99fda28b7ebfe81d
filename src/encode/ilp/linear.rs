//! The integer program every ILP model builds ([`LinearModel`]: variables with their roles,
//! linear constraints by family) and the choice of model ([`IlpModel`]); shared by the ship and
//! cell models, the engine and the LP writer.

use crate::model::placement::Placements;
use crate::model::puzzle::{Grid, Orientation, Pos, Puzzle, Ship};
use std::collections::HashMap;

pub use crate::model::setup::IlpModel;

/// A 0-1 (or small integer) variable of a [`LinearModel`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VarDef {
    /// Name in LP files and solution files (`x_4h_2_5`, `y_2_5`, ...).
    pub name: String,
    /// Lower bound.
    pub lower: i64,
    /// Upper bound.
    pub upper: i64,
    /// What the variable stands for.
    pub role: VarRole,
}

/// What a variable stands for, for decoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum VarRole {
    /// This ship is placed here.
    Placement(Ship),
    /// This cell holds a ship part.
    Cell(Pos),
}

/// The sense of a linear constraint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Sense {
    /// Left side at most the right side.
    Le,
    /// Left side equal to the right side.
    Eq,
    /// Left side at least the right side.
    Ge,
}

/// One term `coef * var` of a linear expression.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Term {
    /// Index into [`LinearModel::vars`].
    pub var: usize,
    /// Integer coefficient.
    pub coef: i64,
}

/// A linear constraint `sum(terms) sense rhs`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinearConstraint {
    /// Name in LP files (`row_3`, `window_2_5`, ...).
    pub name: String,
    /// The left side; may be empty (then the constraint is a fact about the constant 0).
    pub terms: Vec<Term>,
    /// The sense.
    pub sense: Sense,
    /// The right side.
    pub rhs: i64,
}

impl LinearConstraint {
    /// Whether the constraint holds for 0-1 `values` (indexed like the model's variables).
    pub fn holds(&self, values: &[i64]) -> bool {
        let lhs: i64 = self
            .terms
            .iter()
            .map(|t| t.coef * values.get(t.var).copied().unwrap_or(0))
            .sum();
        match self.sense {
            Sense::Le => lhs <= self.rhs,
            Sense::Eq => lhs == self.rhs,
            Sense::Ge => lhs >= self.rhs,
        }
    }
}

/// Constraint counts by family, for the size formulas in `encodings/ilp-*.md`.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Families {
    /// `(family name, number of constraints)`, in the order built.
    pub counts: Vec<(&'static str, usize)>,
}

impl Families {
    /// Constraints of `family`, 0 when absent.
    pub fn get(&self, family: &str) -> usize {
        self.counts
            .iter()
            .filter(|(f, _)| *f == family)
            .map(|(_, n)| n)
            .sum()
    }
}

/// An integer program over bounded integer variables, with no objective (any feasible point is a
/// solution). Built by `ship::build` or `cell::build`.
#[derive(Clone, Debug)]
pub struct LinearModel {
    /// Which model this is.
    pub model: IlpModel,
    /// Board rows.
    pub rows: usize,
    /// Board columns.
    pub cols: usize,
    /// The variables.
    pub vars: Vec<VarDef>,
    /// The constraints.
    pub constraints: Vec<LinearConstraint>,
    /// Constraint counts per family.
    pub families: Families,
    /// The variables that determine a solution and whose number of ones is the same in every
    /// solution (placements in the ship model, cells in the cell model). No-good cuts use them.
    pub primary: Vec<usize>,
}

impl LinearModel {
    pub(super) fn new(model: IlpModel, rows: usize, cols: usize) -> Self {
        LinearModel {
            model,
            rows,
            cols,
            vars: Vec::new(),
            constraints: Vec::new(),
            families: Families::default(),
            primary: Vec::new(),
        }
    }

    pub(super) fn add_var(&mut self, name: String, lower: i64, upper: i64, role: VarRole) -> usize {
        self.vars.push(VarDef {
            name,
            lower,
            upper,
            role,
        });
        self.vars.len() - 1
    }

    /// Adds a constraint of `family`.
    pub(super) fn add(
        &mut self,
        family: &'static str,
        name: String,
        terms: Vec<Term>,
        sense: Sense,
        rhs: i64,
    ) {
        match self.families.counts.iter_mut().find(|(f, _)| *f == family) {
            Some((_, n)) => *n += 1,
            None => self.families.counts.push((family, 1)),
        }
        self.constraints.push(LinearConstraint {
            name,
            terms,
            sense,
            rhs,
        });
    }

    /// Adds `row_r` and `col_c`: for each line with a known count, the terms `row(r)` or
    /// `col(c)` sum to it.
    pub(super) fn add_line_counts(
        &mut self,
        puzzle: &Puzzle,
        mut row: impl FnMut(usize) -> Vec<Term>,
        mut col: impl FnMut(usize) -> Vec<Term>,
    ) {
        for (r, count) in puzzle.row_counts().iter().enumerate() {
            if let Some(k) = *count {
                self.add("row", format!("row_{r}"), row(r), Sense::Eq, k as i64);
            }
        }
        for (c, count) in puzzle.col_counts().iter().enumerate() {
            if let Some(k) = *count {
                self.add("col", format!("col_{c}"), col(c), Sense::Eq, k as i64);
            }
        }
    }

    /// Adds `fleet_L`: for each ship length `L` in the fleet, the indicators of the placements of
    /// length `L` sum to the number of such ships. Placement `i` has variable `first + i`.
    pub(super) fn add_fleet(&mut self, puzzle: &Puzzle, placements: &Placements, first: usize) {
        for class in puzzle.fleet().classes() {
            let terms = placements
                .of_len(class.len)
                .map(|i| Term {
                    var: first + i,
                    coef: 1,
                })
                .collect();
            self.add(
                "fleet",
                format!("fleet_{}", class.len),
                terms,
                Sense::Eq,
                class.count as i64,
            );
        }
    }

    /// Index of the variable called `name`.
    pub(crate) fn var_index(&self) -> HashMap<&str, usize> {
        self.vars
            .iter()
            .enumerate()
            .map(|(i, v)| (v.name.as_str(), i))
            .collect()
    }

    /// The grid that integer `values` (one per variable) describe, or `None` when they do not
    /// describe straight ships. Cell variables decide when the model has them; otherwise the
    /// chosen placements do.
    pub(crate) fn decode(&self, values: &[i64]) -> Option<Grid> {
        let on = |i: usize| values.get(i).is_some_and(|&v| v > 0);
        let shape = crate::model::puzzle::Shape::new(self.rows, self.cols);
        let mut cells = vec![false; shape.cells()];
        let mut ships = Vec::new();
        let mut has_cells = false;
        for (i, var) in self.vars.iter().enumerate() {
            match var.role {
                VarRole::Cell(pos) => {
                    has_cells = true;
                    cells[shape.index(pos)] = on(i);
                }
                VarRole::Placement(ship) if on(i) => ships.push(ship),
                VarRole::Placement(_) => {}
            }
        }
        if has_cells {
            return Grid::from_ship_cells(self.rows, self.cols, &cells);
        }
        // Overlapping ships would paint over each other; refuse them instead.
        let mut seen = vec![false; shape.cells()];
        for ship in &ships {
            for pos in ship.cells() {
                if !shape.contains(pos) {
                    return None;
                }
                let at = &mut seen[shape.index(pos)];
                if std::mem::replace(at, true) {
                    return None;
                }
            }
        }
        Some(Grid::from_ships(self.rows, self.cols, &ships))
    }

    /// The cut that excludes the solution `values` and nothing else: at least one primary
    /// variable that is one now must become zero.
    pub(crate) fn no_good(&self, values: &[i64], index: usize) -> LinearConstraint {
        let ones: Vec<Term> = self
            .primary
            .iter()
            .filter(|&&i| values.get(i).is_some_and(|&v| v > 0))
            .map(|&var| Term { var, coef: 1 })
            .collect();
        let rhs = ones.len() as i64 - 1;
        LinearConstraint {
            name: format!("nogood_{index}"),
            terms: ones,
            sense: Sense::Le,
            rhs,
        }
    }
}

/// Variable name of a placement: `{prefix}_{len}{h|v}_{row}_{col}`.
pub(super) fn placement_name(prefix: char, ship: Ship) -> String {
    let o = match ship.orientation {
        Orientation::Horizontal => 'h',
        Orientation::Vertical => 'v',
    };
    format!(
        "{prefix}_{}{o}_{}_{}",
        ship.len, ship.start.row, ship.start.col
    )
}

/// Number of 2x2 windows (clipped to the board) used by the ship model's no-touch rows.
pub fn window_count(rows: usize, cols: usize) -> usize {
    rows.saturating_sub(1).max(1) * cols.saturating_sub(1).max(1)
}

/// The cells of each 2x2 window: top-left corners `(r, c)` with `r < max(rows-1, 1)` and
/// `c < max(cols-1, 1)`, clipped to the board. Any two cells at most one step apart (also
/// diagonally) share a window.
pub(super) fn windows(rows: usize, cols: usize) -> impl Iterator<Item = (Pos, Vec<Pos>)> {
    let wr = rows.saturating_sub(1).max(1);
    let wc = cols.saturating_sub(1).max(1);
    (0..wr).flat_map(move |r| {
        (0..wc).map(move |c| {
            let cells = (r..(r + 2).min(rows))
                .flat_map(|rr| (c..(c + 2).min(cols)).map(move |cc| Pos::new(rr, cc)))
                .collect();
            (Pos::new(r, c), cells)
        })
    })
}
