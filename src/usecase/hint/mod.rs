//! Next-step hints: one open cell whose content is forced by the puzzle and the cells already
//! filled, with the rules that force it in words. The puzzle is encoded (cell model) with every
//! clause tagged by the rule it states — a row or column count, a fleet count, a clue, a filled
//! cell, the no-touch rule, the ship-shape rules — and our own propagator finds the forced cell
//! and walks back through the reasons to collect the rules. When propagation decides nothing new,
//! one-step look-ahead is tried, then a case split on a second cell, and last a search by the
//! SAT solver that names a minimal set of the rules it needed. A hint's text names cells from 1
//! ("row 3, column 5") and summarises long lists of rules ([`RULES_SHOWN`]). Every step checks
//! the deadline of [`hint_within`], and the formula is capped at [`MAX_CLAUSES`].

use crate::encode::sat::card::CardKind;
use crate::encode::sat::formula::{ClueFormula, FormulaError, MAX_CLAUSES};
use crate::format::{ParseError, ParseErrorKind};
use crate::model::deadline::{Alarm, Deadline, TimeLimit};
use crate::model::puzzle::{Clue, Dir, Grid, Piece, Pos, Puzzle, Shape};
pub use crate::model::rule::{Rule, cell_name, content_name};
use crate::reason::unit::{Conflict, Propagator};
use crate::solver::{Answer, Solver, SolverKind};
use crate::usecase::solve::{SolveError, SolveOptions, solve};
use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use varisat::{Lit, Var};

/// What a player has filled in so far: per cell nothing, water, a ship part of unknown kind, or
/// a piece (the same values as clues).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    shape: Shape,
    cells: Vec<Option<Clue>>,
}

impl State {
    /// The state showing only the puzzle's clues.
    pub fn from_puzzle(puzzle: &Puzzle) -> Self {
        let shape = puzzle.shape();
        let mut cells = vec![None; shape.cells()];
        for (pos, clue) in puzzle.clues() {
            cells[shape.index(pos)] = Some(clue);
        }
        State { shape, cells }
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
        Ok(State {
            shape: Shape::new(rows, cols),
            cells,
        })
    }

    /// The state as text, in the form [`State::parse`] reads.
    pub fn write(&self) -> String {
        let mut out = String::with_capacity(self.shape.rows * (self.shape.cols + 1));
        for r in 0..self.shape.rows {
            for c in self.shape.row(r) {
                out.push(match self.cells[c] {
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
        self.shape.rows
    }

    /// Columns of the board.
    pub fn cols(&self) -> usize {
        self.shape.cols
    }

    /// What is filled at `pos`.
    pub fn get(&self, pos: Pos) -> Option<Clue> {
        self.cells[self.shape.index(pos)]
    }

    /// Fills `pos`.
    pub fn set(&mut self, pos: Pos, content: Clue) {
        self.cells[self.shape.index(pos)] = Some(content);
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

/// How a hint was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Method {
    /// The rules force the cell directly (unit propagation).
    Propagation,
    /// The other content breaks the rules after a chain of direct consequences (one-step
    /// look-ahead).
    LookAhead,
    /// With the other content, a second open cell breaks the rules whatever it holds (a case
    /// split: two-step look-ahead through one named cell).
    CaseSplit,
    /// Only a search shows that the other content leaves no solution; the rules it needed are
    /// named (a minimal set of counts, clues and filled cells that rule it out).
    Search,
}

/// The case split behind a [`Method::CaseSplit`] hint: were the hinted cell the other content,
/// `pos` could be neither a ship part nor water.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Split {
    /// The second cell.
    pub pos: Pos,
    /// The rules that could not all hold with a ship part there.
    pub if_ship: Vec<Rule>,
    /// The rules that could not all hold with water there.
    pub if_water: Vec<Rule>,
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
    /// The rules involved: every one of them (the text names the key ones, see
    /// [`RULES_SHOWN`]); for [`Method::CaseSplit`], those of both branches.
    pub rules: Vec<Rule>,
    /// The case split, for [`Method::CaseSplit`].
    pub split: Option<Split>,
}

/// How many rules of each kind a hint's text names before it summarises the rest ("and 12
/// other cells already filled"): counts and other rules, clues, filled cells. The lines, clues
/// and filled cells nearest the hinted cell come first. A case split names up to `[3, 2, 2]`
/// per branch, a search `[4, 2, 2]`.
pub const RULES_SHOWN: [usize; 3] = [6, 3, 3];

/// The rules as a hint's text names them: the fleet, shape and no-touch rules and the counts
/// of the lines nearest `near` first, then the clues and filled cells nearest it, each kind
/// capped at `shown` with a count of the rest.
fn rule_list(rules: &[Rule], near: Pos, shown: [usize; 3]) -> String {
    // Counts of the lines nearest `near` first (after the other rules), then clues and
    // filled cells nearest it.
    let distance = |r: &Rule| match (*r, r.cell()) {
        (_, Some(p)) => 1 + p.row.abs_diff(near.row) + p.col.abs_diff(near.col),
        (Rule::RowCount { row, .. }, _) => 1 + row.abs_diff(near.row),
        (Rule::ColCount { col, .. }, _) => 1 + col.abs_diff(near.col),
        _ => 0,
    };
    let mut general: Vec<Rule> = rules
        .iter()
        .copied()
        .filter(|r| r.cell().is_none())
        .collect();
    let mut clues: Vec<Rule> = Vec::new();
    let mut filled: Vec<Rule> = Vec::new();
    for &r in rules {
        match r {
            Rule::Clue { .. } => clues.push(r),
            Rule::Filled { .. } => filled.push(r),
            _ => {}
        }
    }
    general.sort_by_key(distance);
    clues.sort_by_key(distance);
    filled.sort_by_key(distance);
    let mut parts: Vec<String> = Vec::new();
    let mut add = |list: &mut Vec<Rule>, cap: usize, rest: &str, rest_one: &str| {
        let more = list.len().saturating_sub(cap);
        list.truncate(cap);
        parts.extend(list.iter().map(Rule::to_string));
        match more {
            0 => {}
            1 => parts.push(format!("and 1 {rest_one}")),
            n => parts.push(format!("and {n} {rest}")),
        }
    };
    add(&mut general, shown[0], "other counts", "other count");
    add(&mut clues, shown[1], "other clues", "other clue");
    add(
        &mut filled,
        shown[2],
        "other cells already filled",
        "other cell already filled",
    );
    parts.join("; ")
}

/// `Row 3, column 5`: a cell at the start of a sentence.
fn cell_title(pos: Pos) -> String {
    let name = cell_name(pos);
    let mut chars = name.chars();
    chars
        .next()
        .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
        .unwrap_or_default()
}

impl fmt::Display for Hint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.content {
            Clue::Piece(Piece::Water) => "water".to_string(),
            Clue::Ship => "a ship part".to_string(),
            c => format!("a {}", content_name(c)),
        };
        let other = if self.content.is_ship() {
            "water"
        } else {
            "a ship part"
        };
        let cell = cell_title(self.pos);
        let rules = |rules: &[Rule], shown| rule_list(rules, self.pos, shown);
        match (self.method, &self.split) {
            (Method::Propagation, _) => {
                write!(
                    f,
                    "{cell} is {what}, because {}.",
                    rules(&self.rules, RULES_SHOWN)
                )
            }
            (Method::LookAhead, _) => write!(
                f,
                "{cell} is {what}: were it {other}, these rules could not all hold: {}.",
                rules(&self.rules, RULES_SHOWN)
            ),
            (Method::CaseSplit, Some(split)) => {
                let half = [3, 2, 2];
                write!(
                    f,
                    "{cell} is {what}: were it {other}, {} would break the rules either way. As a ship part, these could not all hold: {}. As water, these could not: {}.",
                    cell_name(split.pos),
                    rules(&split.if_ship, half),
                    rules(&split.if_water, half)
                )
            }
            _ => write!(
                f,
                "{cell} is {what}: were it {other}, no arrangement of the fleet could satisfy these rules together with the ship-shape and no-touch rules (a search shows it; no short chain of deductions does): {}.",
                rules(&self.rules, [4, 2, 2])
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
    /// The puzzle itself has no solution, whatever is filled in.
    #[error("the puzzle has no solution")]
    NoSolution,
    /// The puzzle has a solution, but none agrees with the filled cells.
    #[error("the filled cells contradict the puzzle: no solution agrees with them")]
    Contradiction,
    /// No open cell is forced: the puzzle with the filled cells has several solutions.
    #[error("no open cell is forced: the puzzle has several solutions from here")]
    NotUnique,
    /// The formula hints reason on would be too large to hold in memory.
    #[error("{0}; hints are given on boards whose formula has at most {MAX_CLAUSES} clauses")]
    TooLarge(FormulaError),
    /// The deadline passed before a hint was found.
    #[error("time limit reached")]
    TimeLimit,
    /// The embedded solver failed.
    #[error("solver failure: {0}")]
    Solver(String),
}

impl From<TimeLimit> for HintError {
    fn from(_: TimeLimit) -> Self {
        HintError::TimeLimit
    }
}

impl From<FormulaError> for HintError {
    fn from(e: FormulaError) -> Self {
        match e {
            FormulaError::TimeLimit => HintError::TimeLimit,
            e => HintError::TooLarge(e),
        }
    }
}

impl From<SolveError> for HintError {
    fn from(e: SolveError) -> Self {
        match e {
            SolveError::TimeLimit => HintError::TimeLimit,
            e => HintError::Solver(e.to_string()),
        }
    }
}

/// Finds one forced open cell of `puzzle` given `state`.
pub fn hint(puzzle: &Puzzle, state: &State) -> Result<HintOutcome, HintError> {
    hint_within(puzzle, state, Deadline::NONE)
}

/// How many forced cells a case split is looked for around, at most (each costs two
/// propagations per open cell).
const SPLIT_CANDIDATES: usize = 12;

/// [`hint`], giving up with [`HintError::TimeLimit`] once `deadline` passes. The formula it
/// reasons on is capped at [`MAX_CLAUSES`] ([`HintError::TooLarge`]), which bounds its memory.
///
/// First the puzzle with the filled cells is solved with the SAT engine: without a solution
/// there is no hint ([`HintError::NoSolution`] when the puzzle alone has none,
/// [`HintError::Contradiction`] when the filled cells are to blame), and with one every open
/// cell has a candidate content. Then, in order: a cell forced by unit propagation (the one
/// with the fewest rules behind it), one forced by one-step look-ahead, one forced by a case
/// split on a second cell, and last one whose other content a search refutes, with a minimal
/// set of the rules that refutation needed.
pub fn hint_within(
    puzzle: &Puzzle,
    state: &State,
    deadline: Deadline,
) -> Result<HintOutcome, HintError> {
    let (rows, cols) = (puzzle.rows(), puzzle.cols());
    if state.shape != puzzle.shape() {
        return Err(HintError::WrongSize {
            rows,
            cols,
            found_rows: state.shape.rows,
            found_cols: state.shape.cols,
        });
    }
    let open: Vec<Pos> = puzzle
        .positions()
        .filter(|&p| state.get(p).is_none() && puzzle.clue(p).is_none())
        .collect();
    // The formula first: it refuses a board too large for hints before any solving.
    let tagged = encode_tagged(puzzle, state, deadline)?;
    let Some(solution) = one_solution(puzzle, state, deadline)? else {
        return Err(HintError::Contradiction);
    };
    if open.is_empty() {
        return Ok(HintOutcome::Complete);
    }
    let mut prop = match Propagator::within(tagged.formula(), deadline) {
        Ok(prop) => prop,
        Err(TimeLimit) => {
            deadline.discard(tagged);
            return Err(HintError::TimeLimit);
        }
    };
    let found = steps(puzzle, &open, &solution, &tagged, &mut prop, deadline);
    if deadline.passed() {
        deadline.discard((tagged, prop));
    }
    found
}

/// The steps of [`hint_within`] once the formula is built and a solution known.
fn steps(
    puzzle: &Puzzle,
    open: &[Pos],
    solution: &Grid,
    tagged: &ClueFormula,
    prop: &mut Propagator,
    deadline: Deadline,
) -> Result<HintOutcome, HintError> {
    let rules = tagged.rules();
    let cell_var = |p: Pos| tagged.cell(p).var();
    let root = prop.propagate_root();
    if prop.stopped() {
        return Err(HintError::TimeLimit);
    }
    if root.is_err() {
        return Err(HintError::Contradiction);
    }
    let piece_of = |prop: &Propagator, pos: Pos, ship: bool| -> Clue {
        if !ship {
            return Clue::Piece(Piece::Water);
        }
        let mut flags = [false; 4];
        for (k, dir) in Dir::ALL.into_iter().enumerate() {
            flags[k] = match puzzle.shape().step(pos, dir) {
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
    let found = |prop: &Propagator, pos, ship, method, rules, split| {
        Ok(HintOutcome::Hint(Hint {
            pos,
            content: piece_of(prop, pos, ship),
            method,
            rules,
            split,
        }))
    };

    // 1. Unit propagation: the open cell with the fewest rules behind it.
    let mut best: Option<(usize, usize, Pos, bool, Vec<Rule>)> = None;
    for &pos in open {
        deadline.check()?;
        let var = cell_var(pos);
        let Some(ship) = prop.var_value(var) else {
            continue;
        };
        let most = best.as_ref().map_or(usize::MAX, |b| b.0);
        let Some((rules, size)) = cone_upto(prop, rules, &[var], None, most) else {
            continue;
        };
        let key = (rules.len(), size);
        if best.as_ref().is_none_or(|b| key < (b.0, b.1)) {
            best = Some((rules.len(), size, pos, ship, rules));
        }
    }
    if let Some((_, _, pos, ship, rules)) = best {
        return found(prop, pos, ship, Method::Propagation, rules, None);
    }

    // 2. One-step look-ahead: a content whose consequences break a rule.
    for &pos in open {
        deadline.check()?;
        let var = cell_var(pos);
        for lit in [var.positive(), var.negative()] {
            if let Some((rules, size)) = refute(prop, rules, lit, None) {
                let key = (rules.len(), size);
                if best.as_ref().is_none_or(|b| key < (b.0, b.1)) {
                    best = Some((rules.len(), size, pos, !lit.is_positive(), rules));
                }
            }
        }
    }
    if let Some((_, _, pos, ship, rules)) = best {
        return found(prop, pos, ship, Method::LookAhead, rules, None);
    }

    if prop.stopped() {
        return Err(HintError::TimeLimit);
    }

    // 3. The forced cells, by search: those whose other content leaves no solution.
    let mut core = CoreSolver::new(tagged, deadline);
    let candidates: Vec<(Var, bool)> = open
        .iter()
        .map(|&pos| (cell_var(pos), solution.get(pos).is_ship()))
        .collect();
    let forced: Vec<(Pos, bool)> = core
        .backbone(&candidates)?
        .into_iter()
        .take(SPLIT_CANDIDATES)
        .map(|i| (open[i], candidates[i].1))
        .collect();
    let Some(&(first, first_ship)) = forced.first() else {
        return Err(HintError::NotUnique);
    };

    // 4. A case split: with the other content, a second open cell that can be neither.
    let mut best_split: Option<(usize, Pos, bool, Split)> = None;
    for &(pos, ship) in &forced {
        let mark = prop.mark();
        let start = prop.trail().len();
        // Propagation alone does not refute it (step 2 would have found it).
        if prop.assume(cell_var(pos).lit(!ship)).is_ok() {
            for &other in open {
                deadline.check()?;
                let var = cell_var(other);
                if prop.var_value(var).is_some() {
                    continue;
                }
                let Some((if_ship, a)) = refute(prop, rules, var.positive(), Some(start)) else {
                    continue;
                };
                let Some((if_water, b)) = refute(prop, rules, var.negative(), Some(start)) else {
                    continue;
                };
                let key = if_ship.len() + if_water.len() + (a + b) / 1000;
                if best_split.as_ref().is_none_or(|s| key < s.0) {
                    let split = Split {
                        pos: other,
                        if_ship,
                        if_water,
                    };
                    best_split = Some((key, pos, ship, split));
                }
            }
        }
        prop.undo(mark);
    }
    if prop.stopped() {
        return Err(HintError::TimeLimit);
    }
    if let Some((_, pos, ship, split)) = best_split {
        let mut all = split.if_ship.clone();
        all.extend(split.if_water.iter().filter(|r| !split.if_ship.contains(r)));
        return found(prop, pos, ship, Method::CaseSplit, all, Some(split));
    }

    // 5. Search: the rules a refutation of the first forced cell's other content needs.
    let rules = core.minimal(cell_var(first).lit(!first_ship), first)?;
    found(prop, first, first_ship, Method::Search, rules, None)
}

/// One solution of `puzzle` with the filled cells of `state` as clues (SAT engine), or `None`
/// when the filled cells leave none; [`HintError::NoSolution`] when the puzzle alone has none.
fn one_solution(
    puzzle: &Puzzle,
    state: &State,
    deadline: Deadline,
) -> Result<Option<Grid>, HintError> {
    let options = SolveOptions {
        deadline,
        ..SolveOptions::default()
    };
    let mut filled = puzzle.clone();
    let mut adds = false;
    for pos in puzzle.positions() {
        if let Some(content) = state.get(pos) {
            if puzzle.clue(pos) == Some(content) {
                continue;
            }
            adds = true;
            if filled.add_clue(pos, content).is_err() {
                // A filled cell that disagrees with a clue.
                return match solve(puzzle, &options)?.outcome.grid() {
                    Some(_) => Ok(None),
                    None => Err(HintError::NoSolution),
                };
            }
        }
    }
    if let Some(grid) = solve(&filled, &options)?.outcome.grid() {
        return Ok(Some(grid.clone()));
    }
    if !adds || solve(puzzle, &options)?.outcome.grid().is_none() {
        return Err(HintError::NoSolution);
    }
    Ok(None)
}

/// Whether assuming `lit` leads propagation to a conflict: then the rules behind the
/// conflict (walking back through what was assigned from trail position `from` on, or from
/// the assumption itself) and the number of reason clauses visited. Nothing stays assigned.
fn refute(
    prop: &mut Propagator,
    rules: &[Rule],
    lit: Lit,
    from: Option<usize>,
) -> Option<(Vec<Rule>, usize)> {
    let mark = prop.mark();
    let start = prop.trail().len();
    let result = prop.assume(lit).err().map(|Conflict { clause }| {
        // A literal already false (clause usize::MAX) is its own reason.
        let mut seeds: Vec<Var> = match prop.try_clause(clause) {
            Some(c) => c.iter().map(|l| l.var()).collect(),
            None => Vec::new(),
        };
        seeds.push(lit.var());
        let (mut found, size) = cone(prop, rules, &seeds, Some(from.unwrap_or(start)));
        if let Some(&rule) = rules.get(clause)
            && !found.contains(&rule)
        {
            found.push(rule);
        }
        (found, size)
    });
    prop.undo(mark);
    result
}

/// A SAT solver over the tagged formula in which every count, clue and filled cell is
/// switched on by a selector literal, so that a refutation names the rules it needed.
struct CoreSolver<'a> {
    formula: &'a ClueFormula,
    solver: Option<Box<dyn Solver>>,
    /// The selectable rules and their selectors.
    selectors: Vec<(Rule, Lit)>,
    /// The next free variable index (past the formula's and the selectors').
    next_var: usize,
    stop: Arc<AtomicBool>,
    deadline: Deadline,
    _alarm: Alarm,
}

impl Drop for CoreSolver<'_> {
    fn drop(&mut self) {
        if let Some(solver) = self.solver.take() {
            self.deadline.discard(solver);
        }
    }
}

impl<'a> CoreSolver<'a> {
    fn new(formula: &'a ClueFormula, deadline: Deadline) -> Self {
        let stop = Arc::new(AtomicBool::new(false));
        CoreSolver {
            formula,
            solver: None,
            selectors: Vec::new(),
            next_var: 0,
            stop: stop.clone(),
            deadline,
            _alarm: deadline.alarm(stop),
        }
    }

    /// The solver, built on first use.
    fn solver(&mut self) -> &mut dyn Solver {
        let formula = self.formula;
        let stop = &self.stop;
        let selectors = &mut self.selectors;
        let next_var = &mut self.next_var;
        let deadline = self.deadline;
        self.solver
            .get_or_insert_with(|| {
                let mut solver = SolverKind::default().new_solver();
                solver.set_interrupt(Some(stop.clone()));
                // Selectors are numbered after the formula's own variables.
                let mut next = formula.formula().var_count();
                let mut by_rule: HashMap<Rule, Lit> = HashMap::new();
                let mut pulse = deadline.pulse();
                for (clause, rule) in formula.formula().iter().zip(formula.rules()) {
                    if pulse.beat().is_err() {
                        // Stopped, so that no call answers on the clauses loaded so far.
                        stop.store(true, Ordering::Relaxed);
                        break;
                    }
                    let selectable = matches!(
                        rule,
                        Rule::RowCount { .. }
                            | Rule::ColCount { .. }
                            | Rule::Fleet { .. }
                            | Rule::Clue { .. }
                            | Rule::Filled { .. }
                    );
                    if !selectable {
                        solver.add_clause(clause);
                        continue;
                    }
                    let selector = *by_rule.entry(*rule).or_insert_with(|| {
                        let s = Var::from_index(next).positive();
                        next += 1;
                        selectors.push((*rule, s));
                        s
                    });
                    let mut guarded = clause.to_vec();
                    guarded.push(!selector);
                    solver.add_clause(&guarded);
                }
                *next_var = next;
                solver
            })
            .as_mut()
    }

    fn solve(&mut self, assumptions: &[Lit]) -> Result<bool, HintError> {
        match self.solver().solve(assumptions) {
            Ok(Answer::Sat) => Ok(true),
            Ok(Answer::Unsat) => Ok(false),
            Ok(Answer::Stopped) => Err(HintError::TimeLimit),
            Err(e) => Err(HintError::Solver(e.to_string())),
        }
    }

    /// Which of `candidates` (a variable and its value in one solution) hold that value in
    /// every solution, as indices into `candidates`. Each call asks for a solution in which
    /// some remaining candidate takes the other value; every candidate that solution flips is
    /// dropped, and when there is none, the remaining ones are the answer (a backbone search:
    /// one call per solution found, not one per cell).
    fn backbone(&mut self, candidates: &[(Var, bool)]) -> Result<Vec<usize>, HintError> {
        self.solver();
        let mut left: Vec<usize> = (0..candidates.len()).collect();
        while !left.is_empty() {
            let guard = Var::from_index(self.next_var).positive();
            self.next_var += 1;
            let mut clause: Vec<Lit> = left
                .iter()
                .map(|&i| candidates[i].0.lit(!candidates[i].1))
                .collect();
            clause.push(!guard);
            self.solver().add_clause(&clause);
            let mut assumptions: Vec<Lit> = self.selectors.iter().map(|&(_, s)| s).collect();
            assumptions.push(guard);
            let sat = self.solve(&assumptions)?;
            // The guard's clause is not wanted again.
            self.solver().add_clause(&[!guard]);
            if !sat {
                break;
            }
            let solver = self.solver();
            left.retain(|&i| {
                let (var, value) = candidates[i];
                solver.value(var.positive()) == Some(value)
            });
        }
        Ok(left)
    }

    /// A minimal set of the selectable rules that refutes `lit` (which [`CoreSolver::backbone`]
    /// found refuted), for the hint at `near`: starting from the solver's failed-assumption
    /// core, each rule is dropped in turn if the rest still refute `lit` (a new core then drops
    /// more at once). Rules far from `near` are tried first, so that what stays is as local as
    /// the refutation allows.
    fn minimal(&mut self, lit: Lit, near: Pos) -> Result<Vec<Rule>, HintError> {
        self.solver();
        let rule_of: HashMap<Lit, Rule> = self.selectors.iter().map(|&(r, s)| (s, r)).collect();
        let far = |r: &Rule| match *r {
            Rule::Clue { pos, .. } | Rule::Filled { pos, .. } => {
                pos.row.abs_diff(near.row) + pos.col.abs_diff(near.col)
            }
            Rule::RowCount { row, .. } => 2 * row.abs_diff(near.row),
            Rule::ColCount { col, .. } => 2 * col.abs_diff(near.col),
            _ => usize::MAX,
        };
        let mut assumptions: Vec<Lit> = self.selectors.iter().map(|&(_, s)| s).collect();
        assumptions.push(lit);
        if self.solve(&assumptions)? {
            return Err(HintError::NotUnique);
        }
        let mut core: Vec<Lit> = self
            .solver()
            .failed_assumptions()
            .into_iter()
            .filter(|l| rule_of.contains_key(l))
            .collect();
        core.sort_by_key(|l| std::cmp::Reverse(far(&rule_of[l])));
        let mut i = 0;
        while i < core.len() {
            let mut without = core.clone();
            without.remove(i);
            without.push(lit);
            if self.solve(&without)? {
                i += 1;
            } else {
                // Still refuted without it: keep the (possibly much smaller) new core.
                let failed = self.solver().failed_assumptions();
                core.remove(i);
                let kept = core[..i].to_vec();
                core.retain(|l| kept.contains(l) || failed.contains(l));
            }
        }
        Ok(core.iter().map(|l| rule_of[l]).collect())
    }
}

/// The rules behind the assignment of `seeds`: walks back through reason clauses, through
/// variables assigned at trail position `from` or later when given (a probe), or through
/// everything otherwise. Returns the distinct rules (filled cells last) and the number of
/// reason clauses visited; `None` as soon as more than `most` rules are found (a caller that
/// already has a shorter explanation needs no longer one).
fn cone_upto(
    prop: &Propagator,
    rules: &[Rule],
    seeds: &[Var],
    from: Option<usize>,
    most: usize,
) -> Option<(Vec<Rule>, usize)> {
    let in_probe: std::collections::HashSet<usize> = match from {
        Some(from) => prop.trail()[from..].iter().map(|l| l.index()).collect(),
        None => Default::default(),
    };
    let mut seen: std::collections::HashSet<usize> = std::collections::HashSet::new();
    let mut stack: Vec<Var> = seeds.to_vec();
    let mut found: Vec<Rule> = Vec::new();
    let mut visited = 0;
    while let Some(var) = stack.pop() {
        if !seen.insert(var.index()) {
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
            if found.len() > most {
                return None;
            }
        }
        stack.extend(prop.clause(reason).iter().map(|l| l.var()));
    }
    found.sort_by_key(|r| matches!(r, Rule::Filled { .. }));
    Some((found, visited))
}

/// [`cone_upto`] without a bound.
fn cone(
    prop: &Propagator,
    rules: &[Rule],
    seeds: &[Var],
    from: Option<usize>,
) -> (Vec<Rule>, usize) {
    cone_upto(prop, rules, seeds, from, usize::MAX).unwrap_or_default()
}

/// The clue-free formula of the puzzle (cell model, every clause tagged with its rule), then the
/// clues and the filled cells as tagged clauses of their own.
fn encode_tagged(
    puzzle: &Puzzle,
    state: &State,
    deadline: Deadline,
) -> Result<ClueFormula, FormulaError> {
    let mut formula =
        ClueFormula::with_clues_bounded(puzzle, CardKind::default(), deadline, MAX_CLAUSES)?;
    for pos in puzzle.positions() {
        match state.get(pos) {
            Some(content) if puzzle.clue(pos) != Some(content) => {
                formula.add_clue(pos, content, Rule::Filled { pos, content });
            }
            _ => {}
        }
    }
    Ok(formula)
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
    fn a_passed_deadline_stops_the_search() {
        let puzzle = ist::parse(EXAMPLE).unwrap();
        let state = State::from_puzzle(&puzzle);
        let past = Deadline::after(std::time::Duration::ZERO);
        assert_eq!(
            hint_within(&puzzle, &state, past),
            Err(HintError::TimeLimit)
        );
        assert!(hint_within(&puzzle, &state, Deadline::NONE).is_ok());
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
        assert!(text.starts_with(&cell_title(h.pos)), "{text}");
        assert!(text.starts_with("Row "), "{text}");
    }

    #[test]
    fn long_lists_of_rules_are_summarised_nearest_cells_first() {
        let near = Pos::new(0, 0);
        let mut rules = vec![Rule::NoTouch, Rule::RowCount { row: 0, count: 2 }];
        for i in 0..20 {
            rules.push(Rule::Filled {
                pos: Pos::new(i, i),
                content: Clue::Piece(Piece::Water),
            });
        }
        rules.push(Rule::Clue {
            pos: Pos::new(9, 9),
            clue: Clue::Piece(Piece::Submarine),
        });
        let text = rule_list(&rules, near, RULES_SHOWN);
        assert!(text.contains("row 1 holds 2 ship cells"), "{text}");
        assert!(
            text.contains("the clue submarine at row 10, column 10"),
            "{text}"
        );
        assert!(text.contains("already filled at row 1, column 1"), "{text}");
        assert!(!text.contains("row 20, column 20"), "{text}");
        assert!(
            text.ends_with("and 17 other cells already filled"),
            "{text}"
        );
    }

    #[test]
    fn a_case_split_names_the_second_cell_and_both_branches() {
        let hint = Hint {
            pos: Pos::new(2, 4),
            content: Clue::Piece(Piece::Water),
            method: Method::CaseSplit,
            rules: vec![Rule::NoTouch, Rule::ColCount { col: 0, count: 1 }],
            split: Some(Split {
                pos: Pos::new(3, 0),
                if_ship: vec![Rule::NoTouch],
                if_water: vec![Rule::ColCount { col: 0, count: 1 }],
            }),
        };
        assert_eq!(
            hint.to_string(),
            "Row 3, column 5 is water: were it a ship part, row 4, column 1 would break the \
             rules either way. As a ship part, these could not all hold: ships never touch, not \
             even diagonally. As water, these could not: column 1 holds 1 ship cell."
        );
    }
}
