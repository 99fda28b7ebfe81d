//! Finding the forced cell ([`hint`]): propagation with reasons, one-step
//! look-ahead, a case split on a second cell, and last the SAT solver's search for a minimal set
//! of rules (its failed assumptions), each over the rule-tagged formula.

use super::state::State;
use super::words::{Hint, Method, Split};
use crate::encode::sat::card::CardKind;
use crate::encode::sat::formula::{ClueFormula, FormulaError, MAX_CLAUSES};
use crate::model::deadline::{Alarm, Budget, Deadline, TimeLimit};
use crate::model::lit::{Lit, Var};
use crate::model::puzzle::{Clue, Dir, Grid, Piece, Pos, Puzzle};
pub(crate) use crate::model::rule::Rule;
use crate::reason::unit::{Conflict, Propagator};
use crate::solver::sink::ClauseSink;
use crate::solver::varisat::Varisat;
use crate::solver::{Answer, Interrupt, SolveIncremental, SolverError};
use crate::usecase::solve::{SolveError, SolveOptions, solve};
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

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
    /// The embedded SAT solver failed; its error is the source.
    #[error("solver failure: {0}")]
    Solver(#[from] SolverError),
    /// Solving the puzzle failed, told in the words of its [`SolveError`].
    #[error("solver failure: {0}")]
    Solve(String),
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
            e => HintError::Solve(e.to_string()),
        }
    }
}

/// Refuses a state that does not fit `puzzle`'s board ([`HintError::WrongSize`]).
pub(crate) fn check_state(puzzle: &Puzzle, state: &State) -> Result<(), HintError> {
    if state.shape != puzzle.shape() {
        return Err(HintError::WrongSize {
            rows: puzzle.rows(),
            cols: puzzle.cols(),
            found_rows: state.shape.rows,
            found_cols: state.shape.cols,
        });
    }
    Ok(())
}

/// How many forced cells a case split is looked for around, at most (each costs two
/// propagations per open cell).
const SPLIT_CANDIDATES: usize = 12;

/// Finds one forced open cell of `puzzle` given `state`, giving up with
/// [`HintError::TimeLimit`] once the budget's deadline passes. The formula it reasons on is
/// capped at `MAX_CLAUSES` ([`HintError::TooLarge`]), which bounds its memory.
///
/// First the puzzle with the filled cells is solved with the SAT engine: without a solution
/// there is no hint ([`HintError::NoSolution`] when the puzzle alone has none,
/// [`HintError::Contradiction`] when the filled cells are to blame), and with one every open
/// cell has a candidate content. Then, in order: a cell forced by unit propagation (the one
/// with the fewest rules behind it), one forced by one-step look-ahead, one forced by a case
/// split on a second cell, and last one whose other content a search refutes, with a minimal
/// set of the rules that refutation needed.
pub fn hint(puzzle: &Puzzle, state: &State, budget: &Budget) -> Result<HintOutcome, HintError> {
    let deadline = budget.deadline.clone();
    check_state(puzzle, state)?;
    let open: Vec<Pos> = puzzle
        .positions()
        .filter(|&p| state.get(p).is_none() && puzzle.clue(p).is_none())
        .collect();
    // The formula first: it refuses a board too large for hints before any solving.
    let tagged = encode_tagged(puzzle, state, deadline.clone())?;
    let Some(solution) = one_solution(puzzle, state, deadline.clone())? else {
        return Err(HintError::Contradiction);
    };
    if open.is_empty() {
        return Ok(HintOutcome::Complete);
    }
    let mut prop = match Propagator::within(tagged.formula(), deadline.clone()) {
        Ok(prop) => prop,
        Err(TimeLimit) => {
            deadline.discard(tagged);
            return Err(HintError::TimeLimit);
        }
    };
    let found = steps(
        puzzle,
        &open,
        &solution,
        &tagged,
        &mut prop,
        deadline.clone(),
    );
    if deadline.passed() {
        deadline.discard((tagged, prop));
    }
    found
}

/// The steps of [`hint`] once the formula is built and a solution known.
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
    let mut core = CoreSolver::new(tagged, deadline.clone());
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
        budget: Budget::until(deadline),
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
/// switched on by a selector literal, so that a refutation names the rules it needed. The
/// solver is varisat (the default kind, always linked): the questions need assumptions and
/// their failed cores ([`SolveIncremental`]) and the deadline's stop flag ([`Interrupt`]).
struct CoreSolver<'a> {
    formula: &'a ClueFormula,
    solver: Option<Varisat>,
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
            _alarm: deadline.alarm(stop),
            deadline,
        }
    }

    /// The solver, built on first use.
    fn solver(&mut self) -> &mut dyn SolveIncremental {
        let formula = self.formula;
        let stop = &self.stop;
        let selectors = &mut self.selectors;
        let next_var = &mut self.next_var;
        let deadline = self.deadline.clone();
        self.solver.get_or_insert_with(|| {
            let mut solver = Varisat::new();
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
    }

    fn solve(&mut self, assumptions: &[Lit]) -> Result<bool, HintError> {
        match self.solver().solve_assuming(assumptions) {
            Ok(Answer::Sat) => Ok(true),
            Ok(Answer::Unsat) => Ok(false),
            Ok(Answer::Stopped) => Err(HintError::TimeLimit),
            Err(e) => Err(HintError::Solver(e)),
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
    let mut formula = ClueFormula::with_clues(puzzle, CardKind::default(), deadline, MAX_CLAUSES)?;
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
