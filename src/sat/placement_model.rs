//! The placement model: one variable per legal placement (from [`Placements`]) decides where the
//! ships are; each cell variable is defined as "some chosen placement covers this cell". The
//! no-touch rule is stated between placements, through the cells of each placement's halo,
//! which also keeps every cell covered at most once. Counts are cardinality constraints. The
//! full statement, with its size formulas, is `encodings/sat-placement.md`.

use super::card::CardKind;
use super::cell::CellEncoding;
use super::sink::{ClauseSink, Counted};
use crate::placement::{Placements, halo};
use crate::puzzle::{Pos, Puzzle};
use varisat::{Lit, Var};

/// Encodes `puzzle` into `sink` with the placement model, using `placements` (from
/// [`Placements::new`]) and the cardinality encoding `card` for every count. Variables are
/// numbered as in the cell model: cells row-major, then placements, then auxiliaries.
pub fn encode<S: ClauseSink + ?Sized>(
    puzzle: &Puzzle,
    placements: &Placements,
    card: CardKind,
    sink: &mut S,
) -> CellEncoding {
    let mut sink = Counted::new(sink);
    let (rows, cols) = (puzzle.rows(), puzzle.cols());
    let cells: Vec<Var> = (0..rows * cols).map(|_| sink.new_var()).collect();
    let x = |pos: Pos| cells[pos.row * cols + pos.col].positive();
    let placement_vars: Vec<Var> = (0..placements.len()).map(|_| sink.new_var()).collect();

    // A chosen placement makes its cells ship and its halo water. Two placements that overlap
    // or touch therefore exclude each other: one covers a cell of the other's halo.
    for (ship, var) in placements.ships().iter().zip(&placement_vars) {
        let p = var.positive();
        for pos in ship.cells() {
            sink.add_clause(&[!p, x(pos)]);
        }
        for pos in halo(*ship, rows, cols) {
            sink.add_clause(&[!p, !x(pos)]);
        }
    }

    // A ship cell is covered by a chosen placement (a unit "water" where none can cover it).
    let mut cover: Vec<Lit> = Vec::new();
    for pos in puzzle.positions() {
        cover.clear();
        cover.push(!x(pos));
        cover.extend(
            placements
                .covering(pos)
                .iter()
                .map(|&i| placement_vars[i].positive()),
        );
        sink.add_clause(&cover);
    }

    // Clues: every placement through a clued cell already puts the clued piece there, so a
    // clue only says whether its cell is ship or water.
    for (pos, clue) in puzzle.clues() {
        if clue.is_ship() {
            sink.add_clause(&[x(pos)]);
        } else {
            sink.add_clause(&[!x(pos)]);
        }
    }

    // Counts.
    let mut line = Vec::with_capacity(rows.max(cols));
    for (r, count) in puzzle.row_counts().iter().enumerate() {
        if let Some(k) = *count {
            line.clear();
            line.extend((0..cols).map(|c| x(Pos::new(r, c))));
            card.exactly(&mut sink, &line, k);
        }
    }
    for (c, count) in puzzle.col_counts().iter().enumerate() {
        if let Some(k) = *count {
            line.clear();
            line.extend((0..rows).map(|r| x(Pos::new(r, c))));
            card.exactly(&mut sink, &line, k);
        }
    }
    for class in puzzle.fleet().classes() {
        line.clear();
        line.extend(
            placements
                .of_len(class.len)
                .map(|i| placement_vars[i].positive()),
        );
        card.exactly(&mut sink, &line, class.count);
    }

    CellEncoding {
        cells,
        placements: placement_vars,
        vars: sink.vars,
        clauses: sink.clauses,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::{Fleet, Ship};
    use varisat::{CnfFormula, ExtendFormula, Solver};

    /// The size formula of `encodings/sat-placement.md`, before the cardinality constraints.
    #[test]
    fn size_matches_the_spec_formula() {
        let puzzle = Puzzle::new(
            vec![Some(2), Some(0), Some(1), None],
            vec![Some(1), None, Some(2)],
            Fleet::from_counts(vec![1, 1]),
        )
        .unwrap();
        let placements = Placements::new(&puzzle);
        let mut formula = CnfFormula::new();
        let enc = encode(&puzzle, &placements, CardKind::Seq, &mut formula);
        let (rows, cols) = (puzzle.rows(), puzzle.cols());
        let halo_total: usize = placements
            .ships()
            .iter()
            .map(|s| halo(*s, rows, cols).count())
            .sum();
        let cells_total: usize = placements.ships().iter().map(|s| s.len).sum();
        let counts = |v: &[Option<usize>], n: usize| -> usize {
            v.iter()
                .flatten()
                .map(|&k| CardKind::Seq.size(n, k).clauses)
                .sum()
        };
        let fleet: usize = puzzle
            .fleet()
            .classes()
            .map(|c| {
                CardKind::Seq
                    .size(placements.of_len(c.len).count(), c.count)
                    .clauses
            })
            .sum();
        assert_eq!(
            enc.clauses,
            cells_total
                + halo_total
                + rows * cols
                + puzzle.clue_count()
                + counts(puzzle.row_counts(), cols)
                + counts(puzzle.col_counts(), rows)
                + fleet
        );
        assert_eq!(enc.cells.len(), rows * cols);
        assert_eq!(enc.placements.len(), placements.len());
    }

    /// Two touching submarines cannot both be chosen; two apart can.
    #[test]
    fn touching_placements_exclude_each_other() {
        let puzzle = Puzzle::new(vec![None; 3], vec![None; 3], Fleet::from_counts(vec![2])).unwrap();
        let placements = Placements::new(&puzzle);
        let find = |r, c| {
            placements
                .ships()
                .iter()
                .position(|s| {
                    *s == Ship {
                        start: Pos::new(r, c),
                        len: 1,
                        orientation: crate::puzzle::Orientation::Horizontal,
                    }
                })
                .unwrap()
        };
        let mut formula = CnfFormula::new();
        let enc = encode(&puzzle, &placements, CardKind::Seq, &mut formula);
        let both = |a: usize, b: usize| {
            let mut solver = Solver::new();
            solver.add_formula(&formula);
            solver.assume(&[enc.placements[a].positive(), enc.placements[b].positive()]);
            solver.solve().unwrap()
        };
        assert!(!both(find(0, 0), find(1, 1)));
        assert!(!both(find(0, 0), find(0, 1)));
        assert!(both(find(0, 0), find(0, 2)));
    }
}
