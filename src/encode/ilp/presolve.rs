//! Root presolve for a [`LinearModel`]: bound propagation over the linear rows, then probing
//! (fix a 0-1 variable one way, propagate; if that fails, the other value is forced). It only
//! derives implied bounds, so the program keeps exactly its integer solutions, and it often
//! decides most of a Bimaru board before the MIP solver is called. microlp has no presolve of
//! its own, and its uniqueness proofs (a feasibility search that must exhaust the tree) are
//! where most of its time goes; see `docs/benchmarks/2026-11-21-ilp-backend.md`.

use super::{LinearConstraint, LinearModel, Sense};

/// Bounds after presolve, or proof that the program is infeasible.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Presolved {
    /// Tightened `(lower, upper)` bounds, one pair per variable.
    Bounds(Vec<(i64, i64)>),
    /// Propagation met a contradiction: no integer point exists.
    Infeasible,
}

/// How much to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PresolveOptions {
    /// Probe each free 0-1 variable (costs one propagation per value per pass).
    pub probing: bool,
    /// Stop probing after this many passes without reaching a fixpoint.
    pub max_passes: usize,
}

impl Default for PresolveOptions {
    fn default() -> Self {
        PresolveOptions {
            probing: true,
            max_passes: 8,
        }
    }
}

/// Rows as `(constraint index)` lists per variable, for propagation.
struct Occurrences {
    rows: Vec<Vec<usize>>,
}

impl Occurrences {
    fn new(nvars: usize, rows: &[&LinearConstraint]) -> Self {
        let mut occ = vec![Vec::new(); nvars];
        for (i, row) in rows.iter().enumerate() {
            for t in &row.terms {
                occ[t.var].push(i);
            }
        }
        Occurrences { rows: occ }
    }
}

/// Presolves `model` together with extra rows `cuts`.
pub(crate) fn presolve(
    model: &LinearModel,
    cuts: &[LinearConstraint],
    options: PresolveOptions,
) -> Presolved {
    let bounds = model.vars.iter().map(|v| (v.lower, v.upper)).collect();
    tighten(model, cuts, bounds, options)
}

/// Presolves `model` together with extra rows `cuts`, starting from `bounds` (one pair per
/// variable, at least as tight as the model's own): the branch-and-bound of
/// [`super::engine`] calls it at each node after fixing a variable.
pub(crate) fn tighten(
    model: &LinearModel,
    cuts: &[LinearConstraint],
    mut bounds: Vec<(i64, i64)>,
    options: PresolveOptions,
) -> Presolved {
    let rows: Vec<&LinearConstraint> = model.constraints.iter().chain(cuts).collect();
    let occ = Occurrences::new(model.vars.len(), &rows);
    if bounds.iter().any(|(l, u)| l > u) {
        return Presolved::Infeasible;
    }
    let all: Vec<usize> = (0..rows.len()).collect();
    if !propagate(&rows, &occ, &mut bounds, &all) {
        return Presolved::Infeasible;
    }
    if options.probing {
        for _ in 0..options.max_passes {
            let mut changed = false;
            for v in 0..bounds.len() {
                if bounds[v] != (0, 1) {
                    continue;
                }
                for value in [1, 0] {
                    let mut trial = bounds.clone();
                    trial[v] = (value, value);
                    if !propagate(&rows, &occ, &mut trial, &occ.rows[v]) {
                        // `value` is impossible: the other one is forced.
                        bounds[v] = (1 - value, 1 - value);
                        if !propagate(&rows, &occ, &mut bounds, &occ.rows[v]) {
                            return Presolved::Infeasible;
                        }
                        changed = true;
                        break;
                    }
                }
            }
            if !changed {
                break;
            }
        }
    }
    Presolved::Bounds(bounds)
}

/// Propagates bounds from the rows in `start` until nothing changes. Returns `false` on a
/// contradiction.
fn propagate(
    rows: &[&LinearConstraint],
    occ: &Occurrences,
    bounds: &mut [(i64, i64)],
    start: &[usize],
) -> bool {
    let mut queued = vec![false; rows.len()];
    let mut queue: Vec<usize> = Vec::with_capacity(rows.len());
    for &r in start {
        if !queued[r] {
            queued[r] = true;
            queue.push(r);
        }
    }
    while let Some(r) = queue.pop() {
        queued[r] = false;
        let row = rows[r];
        let (mut min_act, mut max_act) = (0i64, 0i64);
        // The largest change one term can make: no bound moves unless it exceeds a slack.
        let mut max_span = 0i64;
        for t in &row.terms {
            let (lo, hi) = bounds[t.var];
            max_span = max_span.max(t.coef.abs() * (hi - lo));
            if t.coef > 0 {
                min_act += t.coef * lo;
                max_act += t.coef * hi;
            } else {
                min_act += t.coef * hi;
                max_act += t.coef * lo;
            }
        }
        let upper = matches!(row.sense, Sense::Le | Sense::Eq).then_some(row.rhs);
        let lower = matches!(row.sense, Sense::Ge | Sense::Eq).then_some(row.rhs);
        if upper.is_some_and(|b| min_act > b) || lower.is_some_and(|b| max_act < b) {
            return false;
        }
        if upper.is_none_or(|b| b - min_act >= max_span)
            && lower.is_none_or(|b| max_act - b >= max_span)
        {
            continue;
        }
        for t in &row.terms {
            let (lo, hi) = bounds[t.var];
            let (mut new_lo, mut new_hi) = (lo, hi);
            let a = t.coef;
            if let Some(b) = upper {
                // a*x <= b - (min_act - contribution of x at its minimum)
                let slack = b - min_act;
                if a > 0 {
                    new_hi = new_hi.min(lo + slack / a);
                } else if a < 0 {
                    new_lo = new_lo.max(hi - slack / -a);
                }
            }
            if let Some(b) = lower {
                let slack = max_act - b;
                if a > 0 {
                    new_lo = new_lo.max(hi - slack / a);
                } else if a < 0 {
                    new_hi = new_hi.min(lo + slack / -a);
                }
            }
            if new_lo > new_hi {
                return false;
            }
            if (new_lo, new_hi) != (lo, hi) {
                bounds[t.var] = (new_lo, new_hi);
                for &other in &occ.rows[t.var] {
                    if !queued[other] {
                        queued[other] = true;
                        queue.push(other);
                    }
                }
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::ilp::{IlpModel, Term, VarDef, VarRole};
    use crate::model::puzzle::Pos;

    /// A row as `(terms as (variable, coefficient), sense, right side)`.
    type Row = (Vec<(usize, i64)>, Sense, i64);

    fn model(n: usize, rows: Vec<Row>) -> LinearModel {
        let mut m = LinearModel::new(IlpModel::Cell, 1, n);
        for i in 0..n {
            m.vars.push(VarDef {
                name: format!("v{i}"),
                lower: 0,
                upper: 1,
                role: VarRole::Cell(Pos::new(0, i)),
            });
        }
        for (i, (terms, sense, rhs)) in rows.into_iter().enumerate() {
            m.constraints.push(LinearConstraint {
                name: format!("c{i}"),
                terms: terms
                    .into_iter()
                    .map(|(var, coef)| Term { var, coef })
                    .collect(),
                sense,
                rhs,
            });
        }
        m
    }

    #[test]
    fn propagation_fixes_forced_values() {
        // a + b + c = 3 fixes all; d - a <= -1 is then impossible.
        let m = model(4, vec![(vec![(0, 1), (1, 1), (2, 1)], Sense::Eq, 3)]);
        let off = PresolveOptions {
            probing: false,
            max_passes: 0,
        };
        assert_eq!(
            presolve(&m, &[], off),
            Presolved::Bounds(vec![(1, 1), (1, 1), (1, 1), (0, 1)])
        );
        let m = model(
            2,
            vec![
                (vec![(0, 1), (1, 1)], Sense::Eq, 2),
                (vec![(1, 1), (0, -1)], Sense::Le, -1),
            ],
        );
        assert_eq!(presolve(&m, &[], off), Presolved::Infeasible);
    }

    #[test]
    fn probing_finds_what_propagation_misses() {
        // a + b <= 1, a + c <= 1, b + c >= 1 ... and a + b + c >= 2: a = 1 would force b = c = 0.
        let m = model(
            3,
            vec![
                (vec![(0, 1), (1, 1)], Sense::Le, 1),
                (vec![(0, 1), (2, 1)], Sense::Le, 1),
                (vec![(0, 1), (1, 1), (2, 1)], Sense::Ge, 2),
            ],
        );
        let Presolved::Bounds(b) = presolve(&m, &[], PresolveOptions::default()) else {
            panic!("feasible")
        };
        assert_eq!(b, vec![(0, 0), (1, 1), (1, 1)]);
    }
}
