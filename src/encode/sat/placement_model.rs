//! The placement model: one variable per legal placement (from [`crate::model::placement::Placements`]) decides where the
//! ships are; each cell variable is defined as "some chosen placement covers this cell". The
//! no-touch rule is stated between placements, through the cells of each placement's halo,
//! which also keeps every cell covered at most once. Counts are cardinality constraints. The
//! full statement, with its size formulas, is `encodings/sat-placement.md`.

use super::instance::{Encoding, Instance};
use crate::model::deadline::TimeLimit;
use crate::model::geometry::halo;
use crate::model::lit::Lit;
use crate::model::rule::Rule;
use crate::reason::deduce::{Contradiction, PlacementStatus, Rules, facts};
use crate::solver::sink::ClauseSink;

/// Encodes `instance` into `sink` with the placement model. Variables are numbered as in the
/// cell model: cells row-major, then placements, then auxiliaries.
///
/// The facts that the reasoning core derives with [`Rules::Basic`] become unit clauses, and the
/// clauses they satisfy are left out; the formula stays equivalent to the full model on the cell
/// and placement variables (see `encodings/sat-placement.md`). Facts from pre-solving, when
/// given, are added as unit clauses after the model.
pub(crate) fn encode<S: ClauseSink + ?Sized>(instance: &Instance<'_>, sink: &mut S) -> Encoding {
    let (puzzle, placements, card) = (instance.puzzle, instance.placements, instance.card);
    let (mut sink, encoding) = instance.start(sink);
    let shape = puzzle.shape();
    let (cells, placement_vars) = (&encoding.cells, &encoding.placements);
    let fixed = match facts(puzzle, placements, Rules::Basic, &sink.deadline()) {
        Ok(Ok(fixed)) => fixed,
        Ok(Err(Contradiction)) => {
            sink.set_rule(Rule::Other);
            sink.add_clause(&[]);
            return encoding.counted(&sink);
        }
        // Past the sink's deadline: it drops every clause, and the formula is thrown away.
        Err(TimeLimit) => return encoding.counted(&sink),
    };
    let x = |c: usize| cells[c].positive();
    let pv = |p: usize| placement_vars[p].positive();

    // Fixed values.
    sink.set_rule(Rule::Other);
    for (c, value) in fixed.cells.iter().enumerate() {
        if let Some(v) = *value {
            sink.add_clause(&[x(c) ^ !v]);
        }
    }
    for (p, state) in fixed.placements.iter().enumerate() {
        match state {
            PlacementStatus::Chosen => sink.add_clause(&[pv(p)]),
            PlacementStatus::Dead => sink.add_clause(&[!pv(p)]),
            PlacementStatus::Open => {}
        }
    }

    // An open placement makes its cells ship and its halo water. Two placements that overlap
    // or touch therefore exclude each other: one covers a cell of the other's halo.
    for (p, ship) in placements.ships().iter().enumerate() {
        if sink.is_stopped() {
            // Past a deadline or a cap the formula is thrown away: no need to finish it.
            break;
        }
        if fixed.placements[p] != PlacementStatus::Open {
            continue;
        }
        sink.set_rule(Rule::ShipShape);
        for c in ship.cells().map(|pos| shape.index(pos)) {
            if fixed.cells[c].is_none() {
                sink.add_clause(&[!pv(p), x(c)]);
            }
        }
        sink.set_rule(Rule::NoTouch);
        for h in halo(*ship, shape).map(|pos| shape.index(pos)) {
            if fixed.cells[h].is_none() {
                sink.add_clause(&[!pv(p), !x(h)]);
            }
        }
    }

    // A ship cell is covered by a chosen placement.
    sink.set_rule(Rule::ShipShape);
    let mut cover: Vec<Lit> = Vec::new();
    for (c, value) in fixed.cells.iter().enumerate() {
        let covering = placements.covering_cell(c);
        if *value == Some(false)
            || covering
                .clone()
                .any(|p| fixed.placements[p] == PlacementStatus::Chosen)
        {
            continue;
        }
        cover.clear();
        if value.is_none() {
            cover.push(!x(c));
        }
        cover.extend(
            covering
                .filter(|&p| fixed.placements[p] == PlacementStatus::Open)
                .map(pv),
        );
        sink.add_clause(&cover);
    }

    // Counts, over what is still open.
    let mut line = Vec::with_capacity(shape.rows.max(shape.cols));
    let lines = puzzle
        .row_counts()
        .iter()
        .enumerate()
        .map(|(r, &k)| {
            let rule = k.map(|count| Rule::RowCount { row: r, count });
            (k, rule, shape.row(r).collect::<Vec<_>>())
        })
        .chain(puzzle.col_counts().iter().enumerate().map(|(c, &k)| {
            let rule = k.map(|count| Rule::ColCount { col: c, count });
            (k, rule, shape.col(c).collect())
        }));
    for (count, rule, members) in lines {
        let (Some(k), Some(rule)) = (count, rule) else {
            continue;
        };
        sink.set_rule(rule);
        line.clear();
        line.extend(
            members
                .iter()
                .filter(|&&c| fixed.cells[c].is_none())
                .map(|&c| x(c)),
        );
        let ship = members
            .iter()
            .filter(|&&c| fixed.cells[c] == Some(true))
            .count();
        if !line.is_empty() {
            card.exactly(&mut sink, &line, k - ship);
        }
    }
    // When the row (or column) counts are all known and add up to the fleet's ship cells,
    // the counts force that many ship cells; every ship cell lies in exactly one chosen
    // placement, so the count of one class follows from the others. The class with the most
    // open placements is left out.
    let fleet_cells = puzzle.fleet().total_cells();
    let known_total = |counts: &[Option<usize>]| -> Option<usize> { counts.iter().copied().sum() };
    let implied = if known_total(puzzle.row_counts()) == Some(fleet_cells)
        || known_total(puzzle.col_counts()) == Some(fleet_cells)
    {
        puzzle
            .fleet()
            .classes()
            .max_by_key(|class| {
                placements
                    .of_len(class.len)
                    .filter(|&p| fixed.placements[p] == PlacementStatus::Open)
                    .count()
            })
            .map(|class| class.len)
    } else {
        None
    };
    for class in puzzle.fleet().classes() {
        if Some(class.len) == implied {
            continue;
        }
        sink.set_rule(Rule::Fleet {
            len: class.len,
            count: class.count,
        });
        line.clear();
        let mut chosen = 0;
        for p in placements.of_len(class.len) {
            match fixed.placements[p] {
                PlacementStatus::Open => line.push(pv(p)),
                PlacementStatus::Chosen => chosen += 1,
                PlacementStatus::Dead => {}
            }
        }
        if !line.is_empty() {
            card.exactly(&mut sink, &line, class.count - chosen);
        }
    }
    if let Some(k) = instance.knowledge {
        sink.set_rule(Rule::Other);
        for (var, value) in encoding.cells.iter().zip(&k.cells) {
            if let Some(ship) = value {
                sink.add_clause(&[var.lit(*ship)]);
            }
        }
        for (var, forced) in encoding.placements.iter().zip(&k.forced) {
            if *forced {
                sink.add_clause(&[var.positive()]);
            }
        }
    }
    encoding.counted(&sink)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::sat::card::CardKind;
    use crate::encode::sat::card::EncodingSize;
    use crate::model::cnf::CnfFormula;
    use crate::model::deadline::Deadline;
    use crate::model::placement::Placements;
    use crate::model::puzzle::Puzzle;
    use crate::model::puzzle::{Fleet, Pos, Ship};
    use crate::solver::varisat::Varisat;
    use crate::solver::{Answer, Solve, SolveIncremental, load};

    /// The size formula of `encodings/sat-placement.md` on a puzzle where propagation decides
    /// nothing, so no clause is left out.
    #[test]
    fn size_matches_the_spec_formula() {
        let puzzle = Puzzle::new(
            vec![Some(2), Some(1), None, Some(1)],
            vec![None, Some(2), None, None],
            Fleet::from_counts(vec![1, 1]),
        )
        .unwrap();
        let placements = Placements::new(&puzzle);
        let fixed = facts(&puzzle, &placements, Rules::Basic, &Deadline::NONE)
            .unwrap()
            .unwrap();
        assert!(fixed.cells.iter().all(Option::is_none));
        assert!(fixed.placements.iter().all(|s| *s == PlacementStatus::Open));
        let mut formula = CnfFormula::new();
        let enc = encode(
            &Instance::plain(&puzzle, &placements, CardKind::Seq),
            &mut formula,
        );
        let (rows, cols) = (puzzle.rows(), puzzle.cols());
        let halo_total: usize = placements
            .ships()
            .iter()
            .map(|s| halo(*s, puzzle.shape()).count())
            .sum();
        let cells_total: usize = placements.ships().iter().map(|s| s.len).sum();
        let counts = |v: &[Option<usize>], n: usize| -> EncodingSize {
            v.iter().flatten().map(|&k| CardKind::Seq.size(n, k)).sum()
        };
        let fleet: EncodingSize = puzzle
            .fleet()
            .classes()
            .map(|c| CardKind::Seq.size(placements.of_len(c.len).count(), c.count))
            .sum();
        let card = counts(puzzle.row_counts(), cols) + counts(puzzle.col_counts(), rows) + fleet;
        assert_eq!(
            enc.clauses,
            cells_total + halo_total + rows * cols + card.clauses
        );
        assert_eq!(enc.vars, rows * cols + placements.len() + card.vars);
        assert_eq!(enc.cells.len(), rows * cols);
        assert_eq!(enc.placements.len(), placements.len());
    }

    /// Propagation alone solves a puzzle whose counts leave one way to place the fleet.
    #[test]
    fn propagation_fixes_forced_cells() {
        // Row 0 holds the destroyer (count 2 of 3), row 2 the submarine in column 2.
        let puzzle = Puzzle::new(
            vec![Some(2), Some(0), Some(1)],
            vec![Some(1), Some(1), Some(1)],
            Fleet::from_counts(vec![1, 1]),
        )
        .unwrap();
        let placements = Placements::new(&puzzle);
        let fixed = facts(&puzzle, &placements, Rules::Basic, &Deadline::NONE)
            .unwrap()
            .unwrap();
        assert_eq!(fixed.cells[3..6], [Some(false); 3]);
        let mut formula = CnfFormula::new();
        let enc = encode(
            &Instance::plain(&puzzle, &placements, CardKind::Seq),
            &mut formula,
        );
        let mut solver = Varisat::new();
        load(&mut solver, &formula);
        assert_eq!(solver.solve(), Ok(Answer::Sat));
        let ship: Vec<bool> = enc
            .cells
            .iter()
            .map(|v| solver.value(v.positive()) == Some(true))
            .collect();
        let grid = crate::model::puzzle::Grid::from_ship_cells(3, 3, &ship).unwrap();
        crate::model::verify::verify(&puzzle, &grid).unwrap();
    }

    /// Two touching submarines cannot both be chosen; two apart can.
    #[test]
    fn touching_placements_exclude_each_other() {
        let puzzle =
            Puzzle::new(vec![None; 3], vec![None; 3], Fleet::from_counts(vec![2])).unwrap();
        let placements = Placements::new(&puzzle);
        let find = |r, c| {
            placements
                .ships()
                .iter()
                .position(|s| {
                    *s == Ship {
                        start: Pos::new(r, c),
                        len: 1,
                        orientation: crate::model::puzzle::Orientation::Horizontal,
                    }
                })
                .unwrap()
        };
        let mut formula = CnfFormula::new();
        let enc = encode(
            &Instance::plain(&puzzle, &placements, CardKind::Seq),
            &mut formula,
        );
        let both = |a: usize, b: usize| {
            let mut solver = Varisat::new();
            load(&mut solver, &formula);
            let pair = [enc.placements[a].positive(), enc.placements[b].positive()];
            solver.solve_assuming(&pair).unwrap() == Answer::Sat
        };
        assert!(!both(find(0, 0), find(1, 1)));
        assert!(!both(find(0, 0), find(0, 1)));
        assert!(both(find(0, 0), find(0, 2)));
    }
}
