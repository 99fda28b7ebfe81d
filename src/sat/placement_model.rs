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
///
/// The facts that [`propagate`] derives become unit clauses, and the clauses they satisfy are
/// left out; the formula stays equivalent to the full model on the cell and placement
/// variables (see `encodings/sat-placement.md`).
pub fn encode<S: ClauseSink + ?Sized>(
    puzzle: &Puzzle,
    placements: &Placements,
    card: CardKind,
    sink: &mut S,
) -> CellEncoding {
    let mut sink = Counted::new(sink);
    let (rows, cols) = (puzzle.rows(), puzzle.cols());
    let cells: Vec<Var> = (0..rows * cols).map(|_| sink.new_var()).collect();
    let placement_vars: Vec<Var> = (0..placements.len()).map(|_| sink.new_var()).collect();
    let geometry = Geometry::new(puzzle, placements);
    let fixed = propagate(puzzle, placements, &geometry);
    let done = |sink: Counted<'_, S>| CellEncoding {
        cells: cells.clone(),
        placements: placement_vars.clone(),
        vars: sink.vars,
        clauses: sink.clauses,
    };
    if fixed.contradiction {
        sink.add_clause(&[]);
        return done(sink);
    }
    let x = |c: usize| cells[c].positive();
    let pv = |p: usize| placement_vars[p].positive();

    // Fixed values.
    for (c, value) in fixed.cells.iter().enumerate() {
        if let Some(v) = *value {
            sink.add_clause(&[x(c) ^ !v]);
        }
    }
    for (p, state) in fixed.placements.iter().enumerate() {
        match state {
            State::Chosen => sink.add_clause(&[pv(p)]),
            State::Dead => sink.add_clause(&[!pv(p)]),
            State::Open => {}
        }
    }

    // An open placement makes its cells ship and its halo water. Two placements that overlap
    // or touch therefore exclude each other: one covers a cell of the other's halo.
    for p in 0..placements.len() {
        if fixed.placements[p] != State::Open {
            continue;
        }
        for &c in geometry.cells(p) {
            if fixed.cells[c].is_none() {
                sink.add_clause(&[!pv(p), x(c)]);
            }
        }
        for &h in geometry.halo(p) {
            if fixed.cells[h].is_none() {
                sink.add_clause(&[!pv(p), !x(h)]);
            }
        }
    }

    // A ship cell is covered by a chosen placement.
    let mut cover: Vec<Lit> = Vec::new();
    for (c, value) in fixed.cells.iter().enumerate() {
        let covering = placements.covering(Pos::new(c / cols, c % cols));
        if *value == Some(false)
            || covering
                .iter()
                .any(|&p| fixed.placements[p] == State::Chosen)
        {
            continue;
        }
        cover.clear();
        if value.is_none() {
            cover.push(!x(c));
        }
        cover.extend(
            covering
                .iter()
                .filter(|&&p| fixed.placements[p] == State::Open)
                .map(|&p| pv(p)),
        );
        sink.add_clause(&cover);
    }

    // Counts, over what is still open.
    let mut line = Vec::with_capacity(rows.max(cols));
    let lines = puzzle
        .row_counts()
        .iter()
        .enumerate()
        .map(|(r, k)| (*k, (0..cols).map(move |c| r * cols + c).collect::<Vec<_>>()))
        .chain(
            puzzle
                .col_counts()
                .iter()
                .enumerate()
                .map(|(c, k)| (*k, (0..rows).map(move |r| r * cols + c).collect())),
        );
    for (count, members) in lines {
        let Some(k) = count else { continue };
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
                    .filter(|&p| fixed.placements[p] == State::Open)
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
        line.clear();
        let mut chosen = 0;
        for p in placements.of_len(class.len) {
            match fixed.placements[p] {
                State::Open => line.push(pv(p)),
                State::Chosen => chosen += 1,
                State::Dead => {}
            }
        }
        if !line.is_empty() {
            card.exactly(&mut sink, &line, class.count - chosen);
        }
    }
    done(sink)
}

/// What propagation decided about a placement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    /// Undecided.
    Open,
    /// Part of every solution.
    Chosen,
    /// Part of no solution.
    Dead,
}

/// The facts [`propagate`] derived.
#[derive(Clone, Debug)]
pub struct Fixed {
    /// Per cell, row-major: `Some(true)` ship, `Some(false)` water, `None` open.
    pub cells: Vec<Option<bool>>,
    /// Per placement, in [`Placements::ships`] order.
    pub placements: Vec<State>,
    /// The rules contradict each other: the puzzle has no solution.
    pub contradiction: bool,
}

/// The cells and halo of each placement, as flat row-major cell indices.
pub struct Geometry {
    cell_start: Vec<usize>,
    cell_list: Vec<usize>,
    halo_start: Vec<usize>,
    halo_list: Vec<usize>,
}

impl Geometry {
    /// The cells and halos of `placements` on `puzzle`'s board.
    pub fn new(puzzle: &Puzzle, placements: &Placements) -> Self {
        let (rows, cols) = (puzzle.rows(), puzzle.cols());
        let n = placements.len();
        let mut g = Geometry {
            cell_start: Vec::with_capacity(n + 1),
            cell_list: Vec::with_capacity(n * 4),
            halo_start: Vec::with_capacity(n + 1),
            halo_list: Vec::with_capacity(n * 10),
        };
        for ship in placements.ships() {
            g.cell_start.push(g.cell_list.len());
            g.cell_list
                .extend(ship.cells().map(|p| p.row * cols + p.col));
            g.halo_start.push(g.halo_list.len());
            g.halo_list
                .extend(halo(*ship, rows, cols).map(|p| p.row * cols + p.col));
        }
        g.cell_start.push(g.cell_list.len());
        g.halo_start.push(g.halo_list.len());
        g
    }

    /// Cells of placement `p`.
    pub fn cells(&self, p: usize) -> &[usize] {
        &self.cell_list[self.cell_start[p]..self.cell_start[p + 1]]
    }

    /// Halo cells of placement `p`.
    pub fn halo(&self, p: usize) -> &[usize] {
        &self.halo_list[self.halo_start[p]..self.halo_start[p + 1]]
    }
}

/// Marker for a contradiction found while propagating.
struct Contradiction;

/// Sets cell `c` to `value`; `Ok(true)` when that is news.
fn set(cells: &mut [Option<bool>], c: usize, value: bool) -> Result<bool, Contradiction> {
    match cells[c] {
        Some(v) if v == value => Ok(false),
        Some(_) => Err(Contradiction),
        None => {
            cells[c] = Some(value);
            Ok(true)
        }
    }
}

/// Derives facts that hold in every solution, to a fixpoint, with these sound rules:
/// clues fix their cells; a placement over a water cell or beside a ship cell is dead; a chosen
/// placement fixes its cells (ship) and halo (water); a cell no open or chosen placement covers
/// is water; a ship cell with one possible placement chooses it; a line whose count is met has
/// water elsewhere, and one that needs all its open cells gets them; a ship class whose count
/// is met kills its other placements, and one that needs all its open placements chooses them.
pub fn propagate(puzzle: &Puzzle, placements: &Placements, geometry: &Geometry) -> Fixed {
    let (rows, cols) = (puzzle.rows(), puzzle.cols());
    let mut fixed = Fixed {
        cells: vec![None; rows * cols],
        placements: vec![State::Open; placements.len()],
        contradiction: false,
    };
    if run(puzzle, placements, geometry, &mut fixed).is_err() {
        fixed.contradiction = true;
    }
    fixed
}

fn run(
    puzzle: &Puzzle,
    placements: &Placements,
    geometry: &Geometry,
    fixed: &mut Fixed,
) -> Result<(), Contradiction> {
    let (rows, cols) = (puzzle.rows(), puzzle.cols());
    let Fixed {
        cells,
        placements: state,
        ..
    } = fixed;
    for (pos, clue) in puzzle.clues() {
        set(cells, pos.row * cols + pos.col, clue.is_ship())?;
    }
    let by_len: Vec<(usize, Vec<usize>)> = puzzle
        .fleet()
        .classes()
        .map(|class| (class.count, placements.of_len(class.len).collect()))
        .collect();
    loop {
        let mut changed = false;
        for (p, st) in state.iter_mut().enumerate() {
            match *st {
                State::Open => {
                    let blocked = geometry.cells(p).iter().any(|&c| cells[c] == Some(false))
                        || geometry.halo(p).iter().any(|&h| cells[h] == Some(true))
                        || overfills(puzzle, &placements.ships()[p], cells);
                    if blocked {
                        *st = State::Dead;
                        changed = true;
                    }
                }
                State::Chosen => {
                    for &c in geometry.cells(p) {
                        changed |= set(cells, c, true)?;
                    }
                    for &h in geometry.halo(p) {
                        changed |= set(cells, h, false)?;
                    }
                }
                State::Dead => {}
            }
        }
        for c in 0..rows * cols {
            if cells[c] == Some(false) {
                continue;
            }
            let (mut open, mut last, mut chosen) = (0, 0, false);
            for &p in placements.covering(Pos::new(c / cols, c % cols)) {
                match state[p] {
                    State::Open => {
                        open += 1;
                        last = p;
                    }
                    State::Chosen => chosen = true,
                    State::Dead => {}
                }
            }
            if chosen {
                continue;
            }
            if open == 0 {
                changed |= set(cells, c, false)?;
            } else if open == 1 && cells[c] == Some(true) {
                state[last] = State::Chosen;
                changed = true;
            }
        }
        for (r, count) in puzzle.row_counts().iter().enumerate() {
            if let Some(k) = *count {
                changed |= line_rule(cells, (0..cols).map(|c| r * cols + c), k)?;
            }
        }
        for (c, count) in puzzle.col_counts().iter().enumerate() {
            if let Some(k) = *count {
                changed |= line_rule(cells, (0..rows).map(|r| r * cols + c), k)?;
            }
        }
        for (count, members) in &by_len {
            let chosen = members
                .iter()
                .filter(|&&p| state[p] == State::Chosen)
                .count();
            let open = members.iter().filter(|&&p| state[p] == State::Open).count();
            if chosen > *count || chosen + open < *count {
                return Err(Contradiction);
            }
            if open > 0 && (chosen == *count || chosen + open == *count) {
                let to = if chosen == *count {
                    State::Dead
                } else {
                    State::Chosen
                };
                for &p in members {
                    if state[p] == State::Open {
                        state[p] = to;
                    }
                }
                changed = true;
            }
        }
        if !changed {
            return Ok(());
        }
    }
}

/// Whether choosing `ship` would put more ship cells in its own row (horizontal) or column
/// (vertical) than the count allows, given the cells already known to be ship.
fn overfills(puzzle: &Puzzle, ship: &crate::puzzle::Ship, cells: &[Option<bool>]) -> bool {
    let cols = puzzle.cols();
    let (count, members): (Option<usize>, Box<dyn Iterator<Item = usize>>) = match ship.orientation
    {
        _ if ship.len == 1 => return false,
        crate::puzzle::Orientation::Horizontal => {
            let r = ship.start.row;
            (
                puzzle.row_counts()[r],
                Box::new((0..cols).map(move |c| r * cols + c)),
            )
        }
        crate::puzzle::Orientation::Vertical => {
            let c = ship.start.col;
            (
                puzzle.col_counts()[c],
                Box::new((0..puzzle.rows()).map(move |r| r * cols + c)),
            )
        }
    };
    let Some(k) = count else { return false };
    let known = members.filter(|&c| cells[c] == Some(true)).count();
    let new = ship
        .cells()
        .filter(|p| cells[p.row * cols + p.col] != Some(true))
        .count();
    known + new > k
}

/// The count rule on one line; `Ok(true)` when a cell was fixed.
fn line_rule(
    cells: &mut [Option<bool>],
    members: impl Iterator<Item = usize> + Clone,
    k: usize,
) -> Result<bool, Contradiction> {
    let (mut ship, mut open) = (0, 0);
    for c in members.clone() {
        match cells[c] {
            Some(true) => ship += 1,
            None => open += 1,
            Some(false) => {}
        }
    }
    if ship > k || ship + open < k {
        return Err(Contradiction);
    }
    if open == 0 || (ship != k && ship + open != k) {
        return Ok(false);
    }
    let value = ship != k;
    for c in members {
        if cells[c].is_none() {
            cells[c] = Some(value);
        }
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::{Fleet, Ship};
    use crate::sat::card::EncodingSize;
    use varisat::{CnfFormula, Solver};

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
        let fixed = propagate(&puzzle, &placements, &Geometry::new(&puzzle, &placements));
        assert!(fixed.cells.iter().all(Option::is_none));
        assert!(fixed.placements.iter().all(|s| *s == State::Open));
        let mut formula = CnfFormula::new();
        let enc = encode(&puzzle, &placements, CardKind::Seq, &mut formula);
        let (rows, cols) = (puzzle.rows(), puzzle.cols());
        let halo_total: usize = placements
            .ships()
            .iter()
            .map(|s| halo(*s, rows, cols).count())
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
        let fixed = propagate(&puzzle, &placements, &Geometry::new(&puzzle, &placements));
        assert!(!fixed.contradiction);
        assert_eq!(fixed.cells[3..6], [Some(false); 3]);
        let mut formula = CnfFormula::new();
        let enc = encode(&puzzle, &placements, CardKind::Seq, &mut formula);
        let mut solver = Solver::new();
        solver.add_formula(&formula);
        assert!(solver.solve().unwrap());
        let model = solver.model().unwrap();
        let ship: Vec<bool> = enc
            .cells
            .iter()
            .map(|v| model[v.index()].is_positive())
            .collect();
        let grid = crate::puzzle::Grid::from_ship_cells(3, 3, &ship).unwrap();
        crate::verify::verify(&puzzle, &grid).unwrap();
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
