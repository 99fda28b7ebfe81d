//! Next-step hints: one open cell whose content is forced by the puzzle and the cells already
//! filled, with the rules that force it in words. The puzzle is encoded (cell model) with every
//! clause tagged by the rule it states — a row or column count, a fleet count, a clue, a filled
//! cell, the no-touch rule, the ship-shape rules — and our own propagator finds the forced cell
//! and walks back through the reasons to collect the rules. When propagation decides nothing new,
//! one-step look-ahead is tried, and last a search by the SAT solver.

use crate::format::{ParseError, ParseErrorKind};
use crate::puzzle::{Clue, Dir, Piece, Pos, Puzzle, Shape};
use crate::reason::formula::ClueFormula;
use crate::reason::unit::{Conflict, Propagator};
pub use crate::rule::{Rule, content_name};
use crate::sat::card::CardKind;
use crate::solver::{self, Answer, Solver, SolverKind};
use std::fmt;
use std::time::Instant;
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
    /// The deadline passed before a forced cell was found ([`hint_until`]).
    #[error("no forced cell found before the time limit")]
    TimeLimit,
}

/// Finds one forced open cell of `puzzle` given `state`.
pub fn hint(puzzle: &Puzzle, state: &State) -> Result<HintOutcome, HintError> {
    hint_until(puzzle, state, None)
}

/// [`hint`], giving up with [`HintError::TimeLimit`] at `deadline` (checked between cells).
pub fn hint_until(
    puzzle: &Puzzle,
    state: &State,
    deadline: Option<Instant>,
) -> Result<HintOutcome, HintError> {
    let in_time = || match deadline {
        Some(d) if Instant::now() >= d => Err(HintError::TimeLimit),
        _ => Ok(()),
    };
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
    let tagged = encode_tagged(puzzle, state);
    let rules = tagged.rules();
    let cell_var = |p: Pos| tagged.cell(p).var();
    let mut prop = Propagator::new(tagged.formula());
    if prop.propagate_root().is_err() {
        return Err(HintError::Contradiction);
    }
    let loaded = || {
        let mut solver = SolverKind::default().new_solver();
        solver::load(solver.as_mut(), tagged.formula());
        solver
    };
    let solve = |solver: &mut dyn Solver, assumptions: &[Lit]| match solver.solve(assumptions) {
        Ok(Answer::Sat) => Ok(true),
        Ok(Answer::Unsat) => Ok(false),
        Ok(Answer::Stopped) => Err(HintError::Solver("the solver stopped".into())),
        Err(e) => Err(HintError::Solver(e.to_string())),
    };
    if open.is_empty() {
        // Every cell is filled: complete if the filling is a solution.
        return match solve(loaded().as_mut(), &[])? {
            true => Ok(HintOutcome::Complete),
            false => Err(HintError::Contradiction),
        };
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

    // 1. Unit propagation: the open cell with the fewest rules behind it.
    let mut best: Option<(usize, usize, Pos, bool, Vec<Rule>)> = None;
    for &pos in &open {
        in_time()?;
        let var = cell_var(pos);
        let Some(ship) = prop.var_value(var) else {
            continue;
        };
        let (rules, size) = cone(&prop, rules, &[var], None);
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
        in_time()?;
        let var = cell_var(pos);
        for lit in [var.positive(), var.negative()] {
            let mark = prop.mark();
            let start = prop.trail().len();
            let result = prop.assume(lit);
            if let Err(Conflict { clause }) = result {
                let mut seeds: Vec<Var> = prop.clause(clause).iter().map(|l| l.var()).collect();
                seeds.push(var);
                let (mut found, size) = cone(&prop, rules, &seeds, Some(start));
                if !found.contains(&rules[clause]) {
                    found.push(rules[clause]);
                }
                let rules = found;
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
    let mut solver = loaded();
    if !solve(solver.as_mut(), &[])? {
        return Err(HintError::Contradiction);
    }
    let model: Vec<bool> = open
        .iter()
        .map(|&pos| solver.value(cell_var(pos).positive()) == Some(true))
        .collect();
    for (&pos, &ship) in open.iter().zip(&model) {
        in_time()?;
        let other: Lit = cell_var(pos).lit(!ship);
        if !solve(solver.as_mut(), &[other])? {
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

/// The clue-free formula of the puzzle (cell model, every clause tagged with its rule), then the
/// clues and the filled cells as tagged clauses of their own.
fn encode_tagged(puzzle: &Puzzle, state: &State) -> ClueFormula {
    let mut formula = ClueFormula::with_clues(puzzle, CardKind::default());
    for pos in puzzle.positions() {
        match state.get(pos) {
            Some(content) if puzzle.clue(pos) != Some(content) => {
                formula.add_clue(pos, content, Rule::Filled { pos, content });
            }
            _ => {}
        }
    }
    formula
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
        let past = Some(std::time::Instant::now());
        assert_eq!(hint_until(&puzzle, &state, past), Err(HintError::TimeLimit));
        assert!(hint_until(&puzzle, &state, None).is_ok());
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
