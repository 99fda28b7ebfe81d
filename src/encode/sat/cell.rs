//! The cell model: one variable per cell ("holds a ship part") and one per legal placement
//! ("this exact ship is here"). Placements tie the cells to ship segments and their lengths; the
//! no-touch rule is local between cells; counts are cardinality constraints. The full statement,
//! with its size formulas, is `encodings/sat-cell.md`.

use super::instance::{Encoding, Instance};
use crate::model::geometry::caps;
use crate::model::lit::Lit;
use crate::model::puzzle::{Clue, Dir, Piece, Pos};
use crate::model::rule::Rule;
use crate::solver::sink::{ClauseSink, Counted};

/// Encodes `instance` into `sink`. Facts from pre-solving, when given, are treated as
/// constants: each decided cell and each certain placement gets a unit clause, every clause they
/// satisfy is left out, the literals they falsify are dropped, and counts shrink to the
/// undecided literals.
pub fn encode<S: ClauseSink + ?Sized>(instance: &Instance<'_>, sink: &mut S) -> Encoding {
    let Instance {
        puzzle,
        placements,
        knowledge,
        card,
    } = *instance;
    let (mut sink, encoding) = instance.start(sink);
    let shape = puzzle.shape();
    let (rows, cols) = (shape.rows, shape.cols);
    let (cells, placement_vars) = (&encoding.cells, &encoding.placements);
    let x = |pos: Pos| cells[shape.index(pos)].positive();
    let placement_value = |i: usize| knowledge.and_then(|k| k.forced[i].then_some(true));
    // Literal values fixed by the knowledge (cell variables come first, in cell order).
    let value = |lit: Lit| -> Option<bool> {
        let var = lit.index();
        let v = if var < cells.len() {
            knowledge.and_then(|k| k.cells[var])
        } else {
            placement_value(var - cells.len())
        };
        v.map(|v| v == lit.is_positive())
    };
    let mut clause = ClauseBuilder::default();
    let mut add = |sink: &mut Counted<'_, S>, lits: &[Lit]| {
        if clause.simplify(lits, value) {
            sink.add_clause(&clause.lits);
        }
    };

    // Units for what is already decided.
    sink.set_rule(Rule::Other);
    if let Some(k) = knowledge {
        for (var, v) in cells.iter().zip(&k.cells) {
            if let Some(ship) = v {
                sink.add_clause(&[var.lit(*ship)]);
            }
        }
        for (var, f) in placement_vars.iter().zip(&k.forced) {
            if *f {
                sink.add_clause(&[var.positive()]);
            }
        }
    }

    // Placement <-> its cells are ship and the cells capping it along its axis are water.
    sink.set_rule(Rule::ShipShape);
    let mut pattern = Vec::new();
    for (ship, var) in placements.ships().iter().zip(placement_vars) {
        if sink.is_stopped() {
            // Past a deadline or a cap the formula is thrown away: no need to finish it.
            return encoding.counted(&sink);
        }
        let p = var.positive();
        pattern.clear();
        for pos in ship.cells() {
            add(&mut sink, &[!p, x(pos)]);
            pattern.push(!x(pos));
        }
        for cap in caps(*ship, shape) {
            add(&mut sink, &[!p, !x(cap)]);
            pattern.push(x(cap));
        }
        pattern.push(p);
        add(&mut sink, &pattern);
    }

    // A ship cell is covered by one of the legal placements through it. Where none is legal,
    // the clause says that no ship fits, because a count of 0 prunes every placement there or
    // because of the shape of the board.
    let mut cover = Vec::new();
    for pos in puzzle.positions() {
        if sink.is_stopped() {
            return encoding.counted(&sink);
        }
        sink.set_rule(if !placements.covering(pos).is_empty() {
            Rule::ShipShape
        } else if puzzle.row_counts()[pos.row] == Some(0) {
            Rule::RowCount {
                row: pos.row,
                count: 0,
            }
        } else if puzzle.col_counts()[pos.col] == Some(0) {
            Rule::ColCount {
                col: pos.col,
                count: 0,
            }
        } else {
            Rule::NoShipFits { pos }
        });
        cover.clear();
        cover.push(!x(pos));
        cover.extend(
            placements
                .covering(pos)
                .map(|i| placement_vars[i].positive()),
        );
        add(&mut sink, &cover);
    }

    // No touching diagonally (orthogonal neighbours then belong to one straight ship).
    sink.set_rule(Rule::NoTouch);
    for r in 0..rows.saturating_sub(1) {
        for c in 0..cols.saturating_sub(1) {
            let (a, b) = (Pos::new(r, c), Pos::new(r + 1, c + 1));
            let (d, e) = (Pos::new(r, c + 1), Pos::new(r + 1, c));
            add(&mut sink, &[!x(a), !x(b)]);
            add(&mut sink, &[!x(d), !x(e)]);
        }
    }

    // Clues, as local cell clauses (the placement list already respects them; these give the
    // solver the same facts by unit propagation).
    let nb = |pos: Pos, dir: Dir| shape.step(pos, dir).map(x);
    for (pos, clue) in puzzle.clues() {
        sink.set_rule(Rule::Clue { pos, clue });
        match clue {
            Clue::Piece(Piece::Water) => add(&mut sink, &[!x(pos)]),
            Clue::Ship | Clue::Piece(Piece::Middle) => add(&mut sink, &[x(pos)]),
            Clue::Piece(Piece::Submarine) => {
                add(&mut sink, &[x(pos)]);
                for dir in Dir::ALL {
                    if let Some(n) = nb(pos, dir) {
                        add(&mut sink, &[!n]);
                    }
                }
            }
            Clue::Piece(Piece::End(toward)) => {
                add(&mut sink, &[x(pos)]);
                for dir in Dir::ALL {
                    match nb(pos, dir) {
                        Some(n) if dir == toward => add(&mut sink, &[n]),
                        Some(n) => add(&mut sink, &[!n]),
                        None if dir == toward => add(&mut sink, &[]),
                        None => {}
                    }
                }
            }
        }
        if clue == Clue::Piece(Piece::Middle) {
            // (left & right) | (up & down)
            let side = |d: Dir| nb(pos, d);
            for a in [side(Dir::Left), side(Dir::Right)] {
                for b in [side(Dir::Up), side(Dir::Down)] {
                    let lits: Vec<Lit> = [a, b].into_iter().flatten().collect();
                    add(&mut sink, &lits);
                }
            }
        }
    }

    // Counts, over the undecided literals only.
    let exactly = |sink: &mut Counted<'_, S>, lits: &mut Vec<Lit>, k: usize| {
        let fixed_true = lits.iter().filter(|&&l| value(l) == Some(true)).count();
        lits.retain(|&l| value(l).is_none());
        match k.checked_sub(fixed_true) {
            Some(k) => card.exactly(sink, lits, k),
            None => sink.add_clause(&[]),
        }
    };
    let mut line = Vec::with_capacity(rows.max(cols));
    let cell_lit = |c: usize| cells[c].positive();
    for (r, count) in puzzle.row_counts().iter().enumerate() {
        if let Some(k) = *count {
            sink.set_rule(Rule::RowCount { row: r, count: k });
            line.clear();
            line.extend(shape.row(r).map(cell_lit));
            exactly(&mut sink, &mut line, k);
        }
    }
    for (c, count) in puzzle.col_counts().iter().enumerate() {
        if let Some(k) = *count {
            sink.set_rule(Rule::ColCount { col: c, count: k });
            line.clear();
            line.extend(shape.col(c).map(cell_lit));
            exactly(&mut sink, &mut line, k);
        }
    }
    for class in puzzle.fleet().classes() {
        sink.set_rule(Rule::Fleet {
            len: class.len,
            count: class.count,
        });
        line.clear();
        line.extend(
            placements
                .of_len(class.len)
                .map(|i| placement_vars[i].positive()),
        );
        exactly(&mut sink, &mut line, class.count);
    }

    encoding.counted(&sink)
}

/// Reusable buffer that simplifies a clause under fixed literal values.
#[derive(Default)]
struct ClauseBuilder {
    lits: Vec<Lit>,
}

impl ClauseBuilder {
    /// Fills `self.lits` with the literals of `clause` not fixed false; returns false when a
    /// literal is fixed true (the clause is satisfied and must be left out).
    fn simplify(&mut self, clause: &[Lit], value: impl Fn(Lit) -> Option<bool>) -> bool {
        self.lits.clear();
        for &l in clause {
            match value(l) {
                Some(true) => return false,
                Some(false) => {}
                None => self.lits.push(l),
            }
        }
        true
    }
}
