//! The cell model: one variable per cell ("holds a ship part") and one per legal placement
//! ("this exact ship is here"). Placements tie the cells to ship segments and their lengths; the
//! no-touch rule is local between cells; counts are cardinality constraints. The full statement,
//! with its size formulas, is `encodings/sat-cell.md`.

use super::card::CardKind;
use super::sink::{ClauseSink, Counted};
use crate::placement::Placements;
use crate::puzzle::{Clue, Dir, Orientation, Piece, Pos, Puzzle};
use varisat::{Lit, Var};

/// The variables of an encoded puzzle, for decoding models and naming variables.
#[derive(Clone, Debug)]
pub struct CellEncoding {
    /// Cell variables, row-major: true when the cell holds a ship part.
    pub cells: Vec<Var>,
    /// One variable per placement, in the order of [`Placements::ships`].
    pub placements: Vec<Var>,
    /// Variables created (cells, placements and auxiliaries).
    pub vars: usize,
    /// Clauses added.
    pub clauses: usize,
}

impl CellEncoding {
    /// The cell variable of `pos` on a board with `cols` columns.
    pub fn cell(&self, pos: Pos, cols: usize) -> Var {
        self.cells[pos.row * cols + pos.col]
    }
}

/// Encodes `puzzle` into `sink`, using `placements` (from [`Placements::new`]) and the
/// cardinality encoding `card` for every count.
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

    // Placement <-> its cells are ship and the cells capping it along its axis are water.
    let mut pattern = Vec::new();
    for (ship, var) in placements.ships().iter().zip(&placement_vars) {
        let p = var.positive();
        pattern.clear();
        for pos in ship.cells() {
            sink.add_clause(&[!p, x(pos)]);
            pattern.push(!x(pos));
        }
        for cap in caps(*ship, rows, cols) {
            sink.add_clause(&[!p, !x(cap)]);
            pattern.push(x(cap));
        }
        pattern.push(p);
        sink.add_clause(&pattern);
    }

    // A ship cell is covered by one of the legal placements through it.
    let mut cover = Vec::new();
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

    // No touching diagonally (orthogonal neighbours then belong to one straight ship).
    for r in 0..rows.saturating_sub(1) {
        for c in 0..cols.saturating_sub(1) {
            let (a, b) = (Pos::new(r, c), Pos::new(r + 1, c + 1));
            let (d, e) = (Pos::new(r, c + 1), Pos::new(r + 1, c));
            sink.add_clause(&[!x(a), !x(b)]);
            sink.add_clause(&[!x(d), !x(e)]);
        }
    }

    // Clues, as local cell clauses (the placement list already respects them; these give the
    // solver the same facts by unit propagation).
    let nb = |pos: Pos, dir: Dir| pos.step(dir, rows, cols).map(x);
    for (pos, clue) in puzzle.clues() {
        match clue {
            Clue::Piece(Piece::Water) => sink.add_clause(&[!x(pos)]),
            Clue::Ship | Clue::Piece(Piece::Middle) => sink.add_clause(&[x(pos)]),
            Clue::Piece(Piece::Submarine) => {
                sink.add_clause(&[x(pos)]);
                for dir in Dir::ALL {
                    if let Some(n) = nb(pos, dir) {
                        sink.add_clause(&[!n]);
                    }
                }
            }
            Clue::Piece(Piece::End(toward)) => {
                sink.add_clause(&[x(pos)]);
                for dir in Dir::ALL {
                    match nb(pos, dir) {
                        Some(n) if dir == toward => sink.add_clause(&[n]),
                        Some(n) => sink.add_clause(&[!n]),
                        None if dir == toward => sink.add_clause(&[]),
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
                    let clause: Vec<Lit> = [a, b].into_iter().flatten().collect();
                    sink.add_clause(&clause);
                }
            }
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

/// The cells that must be water for a ship to end where it ends: the two cells beyond its ends
/// along its axis, or all four orthogonal neighbours of a submarine. The rest of the halo follows
/// from the diagonal rule.
pub fn caps(ship: crate::puzzle::Ship, rows: usize, cols: usize) -> impl Iterator<Item = Pos> {
    let first = ship.start;
    let last = ship.cells().last().unwrap_or(first);
    let dirs: &'static [(bool, Dir)] = match (ship.len, ship.orientation) {
        (1, _) => &[
            (true, Dir::Up),
            (true, Dir::Down),
            (true, Dir::Left),
            (true, Dir::Right),
        ],
        (_, Orientation::Horizontal) => &[(true, Dir::Left), (false, Dir::Right)],
        (_, Orientation::Vertical) => &[(true, Dir::Up), (false, Dir::Down)],
    };
    dirs.iter().filter_map(move |&(at_first, dir)| {
        let from = if at_first { first } else { last };
        from.step(dir, rows, cols)
    })
}
