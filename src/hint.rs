//! Next-step hints: one open cell whose content is forced by the puzzle and the cells already
//! filled, with the rules that force it in words. The puzzle is encoded (cell model) with every
//! clause tagged by the rule it states — a row or column count, a fleet count, a clue, a filled
//! cell, the no-touch rule, the ship-shape rules — and our own propagator finds the forced cell
//! and walks back through the reasons to collect the rules. When propagation decides nothing new,
//! one-step look-ahead is tried, and last a search by the SAT solver.

use crate::format::{ParseError, ParseErrorKind};
use crate::placement::Placements;
use crate::puzzle::{Clue, Dir, Piece, Pos, Puzzle};
use crate::sat::card::CardKind;
use crate::sat::cell::{self, CellEncoding};
use crate::sat::clue;
use crate::sat::propagate::{Conflict, Propagator};
use std::fmt;
use varisat::{CnfFormula, ExtendFormula, Lit, Solver, Var};

/// What a player has filled in so far: per cell nothing, water, a ship part of unknown kind, or
/// a piece (the same values as clues).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    rows: usize,
    cols: usize,
    cells: Vec<Option<Clue>>,
}

impl State {
    /// The state showing only the puzzle's clues.
    pub fn from_puzzle(puzzle: &Puzzle) -> Self {
        let mut cells = vec![None; puzzle.rows() * puzzle.cols()];
        for (pos, clue) in puzzle.clues() {
            cells[pos.row * puzzle.cols() + pos.col] = Some(clue);
        }
        State {
            rows: puzzle.rows(),
            cols: puzzle.cols(),
            cells,
        }
    }

    /// Reads a state for a `rows` x `cols` board: one line per row, `?` open, `.` or `w` water,
    /// `s` or `#` a ship part, `c t b l r m` pieces; case does not matter, blank lines and
    /// surrounding spaces are ignored.
    pub fn parse(text: &str, rows: usize, cols: usize) -> Result<State, ParseError> {
        let lines: Vec<(usize, &str)> = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim()))
            .filter(|(_, l)| !l.is_empty())
            .collect();
        if lines.len() != rows {
            return Err(ParseError::at_line(
                0,
                ParseErrorKind::WrongCount {
                    what: "state rows",
                    expected: rows,
                    found: lines.len(),
                },
            ));
        }
        let mut cells = Vec::with_capacity(rows * cols);
        for (number, line) in lines {
            let chars: Vec<char> = line.chars().collect();
            if chars.len() != cols {
                return Err(ParseError::at_line(
                    number,
                    ParseErrorKind::WrongCount {
                        what: "cells in a state row",
                        expected: cols,
                        found: chars.len(),
                    },
                ));
            }
            for (i, ch) in chars.into_iter().enumerate() {
                let cell = match ch.to_ascii_lowercase() {
                    '?' => None,
                    '.' | 'w' => Some(Clue::Piece(Piece::Water)),
                    's' | '#' => Some(Clue::Ship),
                    'c' => Some(Clue::Piece(Piece::Submarine)),
                    't' => Some(Clue::Piece(Piece::End(Dir::Down))),
                    'b' => Some(Clue::Piece(Piece::End(Dir::Up))),
                    'l' => Some(Clue::Piece(Piece::End(Dir::Right))),
                    'r' => Some(Clue::Piece(Piece::End(Dir::Left))),
                    'm' => Some(Clue::Piece(Piece::Middle)),
                    _ => {
                        return Err(ParseError::at(
                            number,
                            i + 1,
                            ParseErrorKind::UnknownLetter {
                                found: ch.to_string(),
                                allowed: "? . w s # c t b l r m",
                            },
                        ));
                    }
                };
                cells.push(cell);
            }
        }
        Ok(State { rows, cols, cells })
    }

    /// The state as text, in the form [`State::parse`] reads.
    pub fn write(&self) -> String {
        let mut out = String::with_capacity(self.rows * (self.cols + 1));
        for r in 0..self.rows {
            for c in 0..self.cols {
                out.push(match self.cells[r * self.cols + c] {
                    None => '?',
                    Some(Clue::Ship) => 's',
                    Some(Clue::Piece(Piece::Water)) => '.',
                    Some(Clue::Piece(p)) => {
                        crate::format::ist::letter_of_piece(p).to_ascii_lowercase()
                    }
                });
            }
            out.push('\n');
        }
        out
    }

    /// Rows of the board.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Columns of the board.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// What is filled at `pos`.
    pub fn get(&self, pos: Pos) -> Option<Clue> {
        self.cells[pos.row * self.cols + pos.col]
    }

    /// Fills `pos`.
    pub fn set(&mut self, pos: Pos, content: Clue) {
        self.cells[pos.row * self.cols + pos.col] = Some(content);
    }

    /// Number of open cells.
    pub fn open(&self) -> usize {
        self.cells.iter().filter(|c| c.is_none()).count()
    }

    /// Ship-cell flags, when no cell is open.
    pub fn ship_cells(&self) -> Option<Vec<bool>> {
        self.cells.iter().map(|c| c.map(|c| c.is_ship())).collect()
    }
}

/// A rule of the puzzle, as a reason for a hint. Rows and columns are numbered from 0, as in
/// IST `HINT` lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Rule {
    /// Row `row` holds `count` ship cells.
    RowCount {
        /// The row.
        row: usize,
        /// Its count.
        count: usize,
    },
    /// Column `col` holds `count` ship cells.
    ColCount {
        /// The column.
        col: usize,
        /// Its count.
        count: usize,
    },
    /// The fleet has `count` ships of length `len`.
    Fleet {
        /// Ship length.
        len: usize,
        /// Ships of that length.
        count: usize,
    },
    /// A clue of the puzzle.
    Clue {
        /// Where.
        pos: Pos,
        /// What it shows.
        clue: Clue,
    },
    /// A cell the player already filled.
    Filled {
        /// Where.
        pos: Pos,
        /// What was filled.
        content: Clue,
    },
    /// Ships never touch, not even diagonally.
    NoTouch,
    /// A ship part belongs to a straight ship of the fleet, with water beyond both ends.
    ShipShape,
    /// No ship of the fleet fits through this cell.
    NoShipFits {
        /// The cell.
        pos: Pos,
    },
    /// A constraint of the encoding not named above.
    Other,
}

/// A name for what a clue or filled cell shows.
pub fn content_name(content: Clue) -> &'static str {
    match content {
        Clue::Ship => "ship part",
        Clue::Piece(Piece::Water) => "water",
        Clue::Piece(Piece::Submarine) => "submarine",
        Clue::Piece(Piece::Middle) => "middle",
        Clue::Piece(Piece::End(Dir::Down)) => "top end",
        Clue::Piece(Piece::End(Dir::Up)) => "bottom end",
        Clue::Piece(Piece::End(Dir::Right)) => "left end",
        Clue::Piece(Piece::End(Dir::Left)) => "right end",
    }
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Rule::RowCount { row, count } => write!(
                f,
                "row {row} holds {}",
                plural(count, "ship cell", "ship cells")
            ),
            Rule::ColCount { col, count } => write!(
                f,
                "column {col} holds {}",
                plural(count, "ship cell", "ship cells")
            ),
            Rule::Fleet { len, count } => write!(
                f,
                "the fleet has {} of length {len}",
                plural(count, "ship", "ships")
            ),
            Rule::Clue { pos, clue } => write!(f, "the clue {} at {pos}", content_name(clue)),
            Rule::Filled { pos, content } => {
                write!(f, "the {} already filled at {pos}", content_name(content))
            }
            Rule::NoTouch => f.write_str("ships never touch, not even diagonally"),
            Rule::ShipShape => f.write_str(
                "every ship part belongs to a straight ship of the fleet with water beyond its ends",
            ),
            Rule::NoShipFits { pos } => write!(f, "no ship of the fleet fits through {pos}"),
            Rule::Other => f.write_str("the other rules"),
        }
    }
}

/// How a hint was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Method {
    /// The rules force the cell directly (unit propagation).
    Propagation,
    /// The other content breaks the rules after a chain of direct consequences (one-step
    /// look-ahead).
    LookAhead,
    /// Only a search shows that the other content leaves no solution.
    Search,
}

/// One forced cell and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hint {
    /// The cell.
    pub pos: Pos,
    /// What it holds: water, a ship part, or a piece when its neighbours already fix it.
    pub content: Clue,
    /// How it was found.
    pub method: Method,
    /// The rules involved (empty for [`Method::Search`]).
    pub rules: Vec<Rule>,
}

impl fmt::Display for Hint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.content {
            Clue::Piece(Piece::Water) => "water".to_string(),
            Clue::Ship => "a ship part".to_string(),
            c => format!("a {}", content_name(c)),
        };
        let rules: Vec<String> = self.rules.iter().map(Rule::to_string).collect();
        let rules = rules.join("; ");
        match self.method {
            Method::Propagation => write!(f, "{} is {what}, because {rules}.", self.pos),
            Method::LookAhead => {
                let other = if self.content.is_ship() {
                    "water"
                } else {
                    "a ship part"
                };
                write!(
                    f,
                    "{} is {what}: were it {other}, these rules could not all hold: {rules}.",
                    self.pos
                )
            }
            Method::Search => write!(
                f,
                "{} is {what}: no short chain of rules decides an open cell, but a search finds no solution with the other choice.",
                self.pos
            ),
        }
    }
}

/// The answer to a hint request.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum HintOutcome {
    /// One forced cell.
    Hint(Hint),
    /// No cell is open.
    Complete,
}

/// Why no hint can be given.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum HintError {
    /// The state does not fit the board.
    #[error("the state is {found_rows}x{found_cols} but the puzzle is {rows}x{cols}")]
    WrongSize {
        /// Puzzle rows.
        rows: usize,
        /// Puzzle columns.
        cols: usize,
        /// State rows.
        found_rows: usize,
        /// State columns.
        found_cols: usize,
    },
    /// The puzzle with the filled cells has no solution.
    #[error("the filled cells contradict the puzzle: no solution agrees with them")]
    Contradiction,
    /// No open cell is forced: the puzzle with the filled cells has several solutions.
    #[error("no open cell is forced: the puzzle has several solutions from here")]
    NotUnique,
    /// The embedded solver failed.
    #[error("solver failure: {0}")]
    Solver(String),
}

/// The puzzle's formula with a rule per clause.
struct Tagged {
    formula: CnfFormula,
    rules: Vec<Rule>,
    encoding: CellEncoding,
}

/// Finds one forced open cell of `puzzle` given `state`.
pub fn hint(puzzle: &Puzzle, state: &State) -> Result<HintOutcome, HintError> {
    let (rows, cols) = (puzzle.rows(), puzzle.cols());
    if state.rows != rows || state.cols != cols {
        return Err(HintError::WrongSize {
            rows,
            cols,
            found_rows: state.rows,
            found_cols: state.cols,
        });
    }
    let open: Vec<Pos> = puzzle
        .positions()
        .filter(|&p| state.get(p).is_none() && puzzle.clue(p).is_none())
        .collect();
    let tagged = encode_tagged(puzzle, state);
    let cell_var = |p: Pos| tagged.encoding.cells[p.row * cols + p.col];
    let mut prop = Propagator::new(&tagged.formula);
    if prop.propagate_root().is_err() {
        return Err(HintError::Contradiction);
    }
    if open.is_empty() {
        // Every cell is filled: complete if the filling is a solution.
        let mut solver = Solver::new();
        solver.add_formula(&tagged.formula);
        return match solver.solve() {
            Ok(true) => Ok(HintOutcome::Complete),
            Ok(false) => Err(HintError::Contradiction),
            Err(e) => Err(HintError::Solver(e.to_string())),
        };
    }
    let piece_of = |prop: &Propagator, pos: Pos, ship: bool| -> Clue {
        if !ship {
            return Clue::Piece(Piece::Water);
        }
        let mut flags = [false; 4];
        for (k, dir) in Dir::ALL.into_iter().enumerate() {
            flags[k] = match pos.step(dir, rows, cols) {
                None => false,
                Some(n) => match prop.var_value(cell_var(n)) {
                    Some(v) => v,
                    None => return Clue::Ship,
                },
            };
        }
        let [up, down, left, right] = flags;
        Clue::Piece(match (up, down, left, right) {
            (false, false, false, false) => Piece::Submarine,
            (true, true, false, false) | (false, false, true, true) => Piece::Middle,
            (true, false, false, false) => Piece::End(Dir::Up),
            (false, true, false, false) => Piece::End(Dir::Down),
            (false, false, true, false) => Piece::End(Dir::Left),
            (false, false, false, true) => Piece::End(Dir::Right),
            _ => return Clue::Ship,
        })
    };

    // 1. Unit propagation: the open cell with the fewest rules behind it.
    let mut best: Option<(usize, usize, Pos, bool, Vec<Rule>)> = None;
    for &pos in &open {
        let var = cell_var(pos);
        let Some(ship) = prop.var_value(var) else {
            continue;
        };
        let (rules, size) = cone(&prop, &tagged.rules, &[var], None);
        let key = (rules.len(), size);
        if best.as_ref().is_none_or(|b| key < (b.0, b.1)) {
            best = Some((rules.len(), size, pos, ship, rules));
        }
    }
    if let Some((_, _, pos, ship, rules)) = best {
        return Ok(HintOutcome::Hint(Hint {
            pos,
            content: piece_of(&prop, pos, ship),
            method: Method::Propagation,
            rules,
        }));
    }

    // 2. One-step look-ahead: a content whose consequences break a rule.
    for &pos in &open {
        let var = cell_var(pos);
        for lit in [var.positive(), var.negative()] {
            let mark = prop.mark();
            let start = prop.trail().len();
            let result = prop.assume(lit);
            if let Err(Conflict { clause }) = result {
                let mut seeds: Vec<Var> = prop.clause(clause).iter().map(|l| l.var()).collect();
                seeds.push(var);
                let (mut rules, size) = cone(&prop, &tagged.rules, &seeds, Some(start));
                if !rules.contains(&tagged.rules[clause]) {
                    rules.push(tagged.rules[clause]);
                }
                let key = (rules.len(), size);
                if best.as_ref().is_none_or(|b| key < (b.0, b.1)) {
                    best = Some((rules.len(), size, pos, !lit.is_positive(), rules));
                }
            }
            prop.undo(mark);
        }
    }
    if let Some((_, _, pos, ship, rules)) = best {
        return Ok(HintOutcome::Hint(Hint {
            pos,
            content: piece_of(&prop, pos, ship),
            method: Method::LookAhead,
            rules,
        }));
    }

    // 3. Search: the first open cell whose other content leaves no solution.
    let mut solver = Solver::new();
    solver.add_formula(&tagged.formula);
    let solver_error = |e: varisat::solver::SolverError| HintError::Solver(e.to_string());
    if !solver.solve().map_err(solver_error)? {
        return Err(HintError::Contradiction);
    }
    let model = solver
        .model()
        .ok_or_else(|| HintError::Solver("SAT without a model".into()))?;
    let value = |v: Var| model.get(v.index()).is_some_and(|l| l.is_positive());
    for &pos in &open {
        let var = cell_var(pos);
        let ship = value(var);
        let other: Lit = var.lit(!ship);
        solver.assume(&[other]);
        if !solver.solve().map_err(solver_error)? {
            return Ok(HintOutcome::Hint(Hint {
                pos,
                content: piece_of(&prop, pos, ship),
                method: Method::Search,
                rules: Vec::new(),
            }));
        }
    }
    Err(HintError::NotUnique)
}

/// The rules behind the assignment of `seeds`: walks back through reason clauses, through
/// variables assigned at trail position `from` or later when given (a probe), or through
/// everything otherwise. Returns the distinct rules (filled cells last) and the number of
/// reason clauses visited.
fn cone(
    prop: &Propagator,
    rules: &[Rule],
    seeds: &[Var],
    from: Option<usize>,
) -> (Vec<Rule>, usize) {
    let in_probe: std::collections::HashSet<usize> = match from {
        Some(from) => prop.trail()[from..].iter().map(|l| l.index()).collect(),
        None => Default::default(),
    };
    let mut seen = vec![false; prop.var_count()];
    let mut stack: Vec<Var> = seeds.to_vec();
    let mut found: Vec<Rule> = Vec::new();
    let mut visited = 0;
    while let Some(var) = stack.pop() {
        if std::mem::replace(&mut seen[var.index()], true) {
            continue;
        }
        if from.is_some() && !in_probe.contains(&var.index()) {
            continue; // decided before the probe: a known fact
        }
        let Some(reason) = prop.reason(var) else {
            continue;
        };
        visited += 1;
        let rule = rules[reason];
        if !found.contains(&rule) {
            found.push(rule);
        }
        stack.extend(prop.clause(reason).iter().map(|l| l.var()));
    }
    found.sort_by_key(|r| matches!(r, Rule::Filled { .. }));
    (found, visited)
}

/// Encodes the puzzle without its clues (cell model), tags each clause with its rule, then adds
/// the clues and the filled cells as tagged clauses of their own.
fn encode_tagged(puzzle: &Puzzle, state: &State) -> Tagged {
    let (rows, cols) = (puzzle.rows(), puzzle.cols());
    let mut bare = puzzle.clone();
    for (pos, _) in puzzle.clues() {
        bare.remove_clue(pos);
    }
    let placements = Placements::new(&bare);
    let mut formula = CnfFormula::new();
    let encoding = cell::encode(&bare, &placements, CardKind::default(), &mut formula);
    let mut rules = classify(&formula, &encoding, &placements, puzzle);
    let x = |p: Pos| encoding.cells[p.row * cols + p.col].positive();
    for (pos, c) in puzzle.clues() {
        for clause in clue::clauses(pos, c, rows, cols, x) {
            formula.add_clause(&clause);
            rules.push(Rule::Clue { pos, clue: c });
        }
    }
    for pos in puzzle.positions() {
        match state.get(pos) {
            Some(content) if puzzle.clue(pos) != Some(content) => {
                for clause in clue::clauses(pos, content, rows, cols, x) {
                    formula.add_clause(&clause);
                    rules.push(Rule::Filled { pos, content });
                }
            }
            _ => {}
        }
    }
    Tagged {
        formula,
        rules,
        encoding,
    }
}

#[derive(Clone, Copy)]
enum VarKind {
    Cell(Pos),
    Placement(usize),
    Aux,
}

/// Names the rule of every clause the cell encoder wrote. Auxiliary variables belong to
/// cardinality constraints: those linked through shared auxiliaries form one constraint, named by
/// the cells or placements it counts (a row, a column, or one ship length of the fleet).
fn classify(
    formula: &CnfFormula,
    encoding: &CellEncoding,
    placements: &Placements,
    puzzle: &Puzzle,
) -> Vec<Rule> {
    let (rows, cols) = (puzzle.rows(), puzzle.cols());
    let n = formula.var_count();
    let mut kind = vec![VarKind::Aux; n];
    for (i, v) in encoding.cells.iter().enumerate() {
        kind[v.index()] = VarKind::Cell(Pos::new(i / cols, i % cols));
    }
    for (i, v) in encoding.placements.iter().enumerate() {
        kind[v.index()] = VarKind::Placement(i);
    }
    // Union-find over auxiliaries.
    let mut parent: Vec<usize> = (0..n).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    for clause in formula.iter() {
        let mut first = None;
        for lit in clause {
            if matches!(kind[lit.index()], VarKind::Aux) {
                let r = root(&mut parent, lit.index());
                match first {
                    None => first = Some(r),
                    Some(f) if f != r => parent[r] = f,
                    _ => {}
                }
            }
        }
    }
    // What each auxiliary component counts.
    #[derive(Clone, Default)]
    struct Counts {
        rows: Vec<usize>,
        cols: Vec<usize>,
        lens: Vec<usize>,
    }
    let push = |v: &mut Vec<usize>, x: usize| {
        if !v.contains(&x) && v.len() < 3 {
            v.push(x);
        }
    };
    let mut counts: std::collections::HashMap<usize, Counts> = Default::default();
    for clause in formula.iter() {
        let Some(aux) = clause
            .iter()
            .find(|l| matches!(kind[l.index()], VarKind::Aux))
        else {
            continue;
        };
        let r = root(&mut parent, aux.index());
        let entry = counts.entry(r).or_default();
        for lit in clause {
            match kind[lit.index()] {
                VarKind::Cell(p) => {
                    push(&mut entry.rows, p.row);
                    push(&mut entry.cols, p.col);
                }
                VarKind::Placement(i) => push(&mut entry.lens, placements.ships()[i].len),
                VarKind::Aux => {}
            }
        }
    }
    let fleet = puzzle.fleet();
    let count_rule = |c: &Counts| -> Rule {
        match (c.rows.as_slice(), c.cols.as_slice(), c.lens.as_slice()) {
            ([row], cs, []) if cs.len() > 1 || cols == 1 => Rule::RowCount {
                row: *row,
                count: puzzle.row_counts()[*row].unwrap_or(0),
            },
            (rs, [col], []) if rs.len() > 1 || rows == 1 => Rule::ColCount {
                col: *col,
                count: puzzle.col_counts()[*col].unwrap_or(0),
            },
            ([], [], [len]) => Rule::Fleet {
                len: *len,
                count: fleet.count(*len),
            },
            _ => Rule::Other,
        }
    };
    formula
        .iter()
        .map(|clause| {
            if let Some(aux) = clause
                .iter()
                .find(|l| matches!(kind[l.index()], VarKind::Aux))
            {
                let r = root(&mut parent, aux.index());
                return counts.get(&r).map_or(Rule::Other, count_rule);
            }
            if let Some(i) = clause.iter().find_map(|l| match kind[l.index()] {
                VarKind::Placement(i) => Some(i),
                _ => None,
            }) {
                if clause.len() == 1 {
                    let len = placements.ships()[i].len;
                    return Rule::Fleet {
                        len,
                        count: fleet.count(len),
                    };
                }
                return Rule::ShipShape;
            }
            let cell = |l: &Lit| match kind[l.index()] {
                VarKind::Cell(p) => Some(p),
                _ => None,
            };
            match clause {
                [a, b] if a.is_negative() && b.is_negative() => match (cell(a), cell(b)) {
                    (Some(p), Some(q))
                        if p.row.abs_diff(q.row) == 1 && p.col.abs_diff(q.col) == 1 =>
                    {
                        Rule::NoTouch
                    }
                    _ => Rule::Other,
                },
                [a] => {
                    let Some(p) = cell(a) else {
                        return Rule::Other;
                    };
                    let (rc, cc) = (puzzle.row_counts()[p.row], puzzle.col_counts()[p.col]);
                    let full = if a.is_positive() {
                        (cols, rows)
                    } else {
                        (0, 0)
                    };
                    if rc == Some(full.0) {
                        Rule::RowCount {
                            row: p.row,
                            count: full.0,
                        }
                    } else if cc == Some(full.1) {
                        Rule::ColCount {
                            col: p.col,
                            count: full.1,
                        }
                    } else if a.is_negative() {
                        Rule::NoShipFits { pos: p }
                    } else {
                        Rule::Other
                    }
                }
                _ => Rule::Other,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::ist;

    const EXAMPLE: &str = "ROW 2 3 2 2 3 0 1 3 2 2\nCOLUMN 6 0 1 0 2 1 3 1 2 4\n6\n\
                           HINT 0 0 T\nHINT 1 6 M\nHINT 3 2 C\nHINT 6 0 W\nHINT 8 8 B\nHINT 9 5 C\n";

    #[test]
    fn state_round_trip_and_errors() {
        let puzzle = ist::parse(EXAMPLE).unwrap();
        let state = State::from_puzzle(&puzzle);
        let text = state.write();
        assert!(text.starts_with("t?????????\n"));
        assert_eq!(State::parse(&text, 10, 10).unwrap(), state);
        let e = State::parse("??\n?z\n", 2, 2).unwrap_err();
        assert_eq!((e.line, e.column), (2, Some(2)));
        assert!(State::parse("??\n", 2, 2).is_err());
    }

    #[test]
    fn first_hint_of_the_example_is_water_next_to_the_top_end_or_a_zero_row() {
        let puzzle = ist::parse(EXAMPLE).unwrap();
        let HintOutcome::Hint(h) = hint(&puzzle, &State::from_puzzle(&puzzle)).unwrap() else {
            panic!("open cells remain")
        };
        assert_eq!(h.method, Method::Propagation);
        assert!(!h.rules.is_empty());
        let text = h.to_string();
        assert!(text.starts_with(&h.pos.to_string()), "{text}");
    }
}
