//! The generator's oracles: which cells a set of the solution's clues decides under unit
//! propagation of the CNF (with look-ahead), and whether a clue set less one clue still leaves
//! the solution unique (a targeted SAT question, or one incremental solver whose cores can drop
//! several clues at once).

use super::spec::{GenerateError, GenerateOptions, clue_free_puzzle};
use crate::encode::sat::card::CardKind;
use crate::encode::sat::formula::ClueFormula;
use crate::encode::sat::instance::Instance;
use crate::model::deadline::Budget;
use crate::model::lit::{Lit, Var};
use crate::model::placement::Placements;
use crate::model::puzzle::{Clue, Fleet, Grid, Pos, Puzzle, Shape};
use crate::reason::deduce::{Effort, Propagation, Rules, deduce};
use crate::reason::search::{End, Searched, search};
use crate::reason::unit::{Propagator, TrailMark};
use crate::solver::{self, Answer, Solver};
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// What a uniqueness check decided about one clue.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Removal {
    /// Without the clue the solution is still the only one. These clues (a subset of the ones
    /// kept, from the solver's failed-assumption core) already make it the only one.
    Unique(Vec<Pos>),
    /// Without the clue there is this other solution (checked by the verifier): the clue is
    /// needed, and stays needed whatever else is removed later.
    Needed(Grid),
    /// The search ran out of its conflict budget before deciding.
    Undecided,
}

/// Branch nodes each native search of a uniqueness question may visit before the next one (or
/// the SAT question) takes over. On 30x30 boards a node costs 10 to 50 µs.
pub const QUESTION_NODES: u64 = 20_000;

/// Boards whose longer side is at least this get the windowed searches first; on smaller ones
/// the search over the whole board is cheap enough on its own.
pub const WINDOWED_SIDE: usize = 20;

/// Checks whether the solution's pieces at `rest`, a unique clue set less the clue at
/// `removed`, still leave `solution` as the only solution.
///
/// Any other solution of `rest` must break the removed clue (the full set was unique). The
/// clues of `rest` are first pre-solved by [`crate::reason::deduce`]; when that fixes the
/// removed clue's cell and neighbours, the answer is unique. Then the native search
/// ([`native_removal`]) looks for a second solution near the removed clue and over the whole
/// board, within [`QUESTION_NODES`] nodes each. What it leaves open becomes a targeted SAT
/// question: the residual formula over the cells pre-solving left open, with one clause asking
/// for a difference from the solution at `removed` or one of its four neighbours (what changes
/// its piece). A fresh solver of `options.solver`, on the formula of `options.check`, answers
/// within `options.budget` conflicts. Every answer is a fact about the clues, so which path
/// gives it never changes the clue set.
pub fn check_removal(
    solution: &Grid,
    options: &GenerateOptions,
    rest: &[Pos],
    removed: Pos,
    stop: &Arc<AtomicBool>,
) -> Result<Removal, GenerateError> {
    let shape = solution.shape();
    let mut puzzle = clue_free_puzzle(solution, &options.fleet);
    for &pos in rest {
        puzzle
            .add_clue(pos, Clue::Piece(solution.get(pos)))
            .expect("clue positions lie on the board");
    }
    let mut placements = Placements::new(&puzzle);
    let knowledge = deduce(&puzzle, &mut placements, Effort::Rules, &Budget::default())
        .expect("no budget to run out")
        .map_err(|_| {
            GenerateError::Solver("pre-solving refuted clues taken from a solution".into())
        })?;
    let differs = |p: Pos| knowledge.cells[shape.index(p)] != Some(solution.is_ship(p));
    let around = around(solution, removed);
    if around.iter().all(|&p| !differs(p)) {
        // Pre-solving fixed the removed clue's cell and neighbours as in the solution.
        return Ok(Removal::Unique(rest.to_vec()));
    }
    let budget = Budget {
        nodes: Some(QUESTION_NODES),
        stop: Some(stop.clone()),
        ..Budget::default()
    };
    if let Some(removal) = native_removal(&puzzle, &placements, solution, rest, removed, &budget) {
        return Ok(removal);
    }
    let mut solver = options.solver.new_solver();
    let instance = Instance {
        puzzle: &puzzle,
        placements: &placements,
        knowledge: Some(&knowledge),
        card: options.check.card,
    };
    let encoding = options.check.model.encode(&instance, solver.as_mut());
    let x = |p: Pos| encoding.cells[shape.index(p)];
    // The break: some cell around `removed` differs from the solution.
    let clause: Vec<Lit> = around
        .iter()
        .map(|&p| x(p).lit(!solution.is_ship(p)))
        .collect();
    solver.add_clause(&clause);
    if let Some(budget) = options.budget {
        solver.set_conflict_limit(Some(Arc::new(AtomicU64::new(budget))));
    }
    solver.set_interrupt(Some(stop.clone()));
    let failure = |e: crate::solver::SolverError| GenerateError::Solver(e.to_string());
    match solver.solve(&[]).map_err(failure)? {
        Answer::Sat => {
            let ship: Vec<bool> = encoding
                .cells
                .iter()
                .map(|v| solver.value(v.positive()) == Some(true))
                .collect();
            // The second solution passes the independent verifier, or nothing is claimed.
            let other = Grid::from_ship_cells(shape.rows, shape.cols, &ship)
                .filter(|g| crate::model::verify::verify(&puzzle, g).is_ok() && g != solution)
                .ok_or_else(|| {
                    GenerateError::Solver("a second solution failed verification".into())
                })?;
            Ok(Removal::Needed(other))
        }
        Answer::Unsat => Ok(Removal::Unique(rest.to_vec())),
        Answer::Stopped => Ok(Removal::Undecided),
    }
}

/// The native search's answer to a uniqueness question ([`check_removal`]'s): `puzzle` holds
/// the clues `rest`, `placements` its candidate ships (pre-solving may have struck off some).
///
/// A second solution is looked for first in windows around the removed clue, a third and then
/// two thirds of the board's side in radius, with every cell outside the window fixed to the
/// solution's piece: a small search, and the other solution that makes a clue needed is often
/// a local rearrangement. Then the search runs over the whole board, where running out of
/// branches proves the solution unique. `None` when every search ran out of `budget`; a grid
/// found is one the search checked with the verifier against its puzzle, and every windowed
/// puzzle holds `rest`, so it is a second solution of `rest`.
fn native_removal(
    puzzle: &Puzzle,
    placements: &Placements,
    solution: &Grid,
    rest: &[Pos],
    removed: Pos,
    budget: &Budget,
) -> Option<Removal> {
    let shape = puzzle.shape();
    let side = shape.rows.max(shape.cols);
    let other = |found: Searched| found.grids.into_iter().find(|g| g != solution);
    let radii = if side >= WINDOWED_SIDE {
        vec![side / 3, 2 * side / 3]
    } else {
        Vec::new()
    };
    for radius in radii {
        let reaches = |at: usize, len: usize| at <= radius && at + radius + 1 >= len;
        if reaches(removed.row, shape.rows) && reaches(removed.col, shape.cols) {
            // The window would hold the whole board: the search below covers it.
            continue;
        }
        let mut window = puzzle.clone();
        for pos in shape.positions() {
            if pos.row.abs_diff(removed.row) > radius || pos.col.abs_diff(removed.col) > radius {
                window
                    .add_clue(pos, Clue::Piece(solution.get(pos)))
                    .expect("the solution's own pieces agree with its clues");
            }
        }
        let candidates = Placements::new(&window);
        if let Some(grid) = other(search(&window, &candidates, 2, budget)) {
            return Some(Removal::Needed(grid));
        }
    }
    let found = search(puzzle, placements, 2, budget);
    let exhausted = found.end == End::Exhausted;
    match other(found) {
        Some(grid) => Some(Removal::Needed(grid)),
        None if exhausted => Some(Removal::Unique(rest.to_vec())),
        None => None,
    }
}

/// The cells whose contents decide the piece at `removed`: the cell, and its four neighbours
/// when it is a ship part. A solution that breaks the clue at `removed` differs from `solution`
/// on one of them.
fn around(solution: &Grid, removed: Pos) -> Vec<Pos> {
    let shape = solution.shape();
    let mut around = vec![removed];
    if solution.is_ship(removed) {
        around.extend(
            crate::model::puzzle::Dir::ALL
                .into_iter()
                .filter_map(|d| shape.step(removed, d)),
        );
    }
    around
}

/// One incremental solver for every uniqueness question about one solution's clues: the
/// clue-free formula of the solution's puzzle, every candidate clue behind a selector literal,
/// and the clause that excludes the solution itself. A question ("do these clues still leave
/// the solution unique once the clue at `removed` goes?") only changes the assumptions, so the
/// clauses the solver learns stay valid from one question to the next.
pub struct ClueOracle<'a> {
    solution: &'a Grid,
    puzzle: Puzzle,
    /// Pre-solving of each question's clues, from the clue-free state (undone after each).
    deduce: Propagation<'a>,
    solver: Box<dyn Solver>,
    cells: Vec<Lit>,
    /// The selector of each candidate clue, by cell.
    selectors: Vec<Option<Lit>>,
    /// The candidate clue of each selector variable.
    clue_of: HashMap<Var, Pos>,
    budget: Option<Arc<AtomicU64>>,
    budget_size: Option<u64>,
    /// Stops the question under way, the native search and the solver alike.
    stop: Option<Arc<AtomicBool>>,
}

impl<'a> ClueOracle<'a> {
    /// The oracle for `solution`, whose clue-free puzzle is `puzzle` (with its `placements`),
    /// and the candidate clues `clues`, with the formula of `options.check`, the solver
    /// `options.solver`, and `options.budget` conflicts per question (no limit when `None`).
    pub fn new(
        solution: &'a Grid,
        puzzle: &'a Puzzle,
        placements: &'a Placements,
        options: &GenerateOptions,
        clues: &[Pos],
    ) -> Self {
        let budget = options.budget;
        let mut deduce = Propagation::new(puzzle, placements, Rules::Full);
        // The solution satisfies the clue-free rules.
        let _ = deduce.start(puzzle);
        let puzzle = puzzle.clone();
        let shape = puzzle.shape();
        let mut formula = ClueFormula::with_model(&puzzle, options.check.model, options.check.card);
        let mut selectors = vec![None; shape.cells()];
        let mut clue_of = HashMap::new();
        for &pos in clues {
            let s = formula.add_guarded_clue(pos, Clue::Piece(solution.get(pos)));
            selectors[shape.index(pos)] = Some(s);
            clue_of.insert(s.var(), pos);
        }
        let mut solver = options.solver.new_solver();
        solver::load(solver.as_mut(), formula.formula());
        let cells: Vec<Lit> = shape.positions().map(|pos| formula.cell(pos)).collect();
        // Any other solution has as many ship cells (the fleet fixes them): one of the
        // solution's ship cells is water in it.
        let exclude: Vec<Lit> = shape
            .positions()
            .filter(|&pos| solution.is_ship(pos))
            .map(|pos| !cells[shape.index(pos)])
            .collect();
        solver.add_clause(&exclude);
        let budget_limit = budget.map(|_| Arc::new(AtomicU64::new(u64::MAX)));
        solver.set_conflict_limit(budget_limit.clone());
        ClueOracle {
            solution,
            puzzle,
            deduce,
            solver,
            cells,
            selectors,
            clue_of,
            budget: budget_limit,
            budget_size: budget,
            stop: None,
        }
    }

    /// Stops the question under way once `stop` is set.
    pub fn set_interrupt(&mut self, stop: Arc<AtomicBool>) {
        self.solver.set_interrupt(Some(stop.clone()));
        self.stop = Some(stop);
    }

    /// Whether the clues `keep` (candidates given to [`ClueOracle::new`]) still leave the
    /// solution unique once the clue at `removed` is gone. Any other solution of `keep` breaks
    /// that clue (the clues with it were unique), so the question asks for one that differs
    /// from the solution at `removed` or one of its four neighbours (what changes its piece).
    pub fn check(&mut self, keep: &[Pos], removed: Pos) -> Result<Removal, GenerateError> {
        let shape = self.puzzle.shape();
        let around = around(self.solution, removed);
        // Pre-solving the question: the cells the other clues decide.
        let mark = self.deduce.mark();
        for &p in keep {
            if self
                .deduce
                .assume_clue(p, Clue::Piece(self.solution.get(p)))
                .is_err()
            {
                self.deduce.undo(mark);
                return Err(GenerateError::Solver(
                    "pre-solving refuted clues taken from a solution".into(),
                ));
            }
        }
        let facts: Vec<Lit> = shape
            .positions()
            .filter_map(|p| {
                self.deduce
                    .cell(p)
                    .map(|ship| self.cells[shape.index(p)] ^ !ship)
            })
            .collect();
        let settled = around
            .iter()
            .all(|&p| self.deduce.cell(p) == Some(self.solution.is_ship(p)));
        self.deduce.undo(mark);
        if settled {
            // Pre-solving fixes the removed clue's cell and neighbours as in the solution.
            return Ok(Removal::Unique(keep.to_vec()));
        }
        let mut puzzle = self.puzzle.clone();
        for &pos in keep {
            puzzle
                .add_clue(pos, Clue::Piece(self.solution.get(pos)))
                .expect("clue positions lie on the board");
        }
        let placements = Placements::new(&puzzle);
        let budget = Budget {
            nodes: Some(QUESTION_NODES),
            stop: self.stop.clone(),
            ..Budget::default()
        };
        if let Some(removal) =
            native_removal(&puzzle, &placements, self.solution, keep, removed, &budget)
        {
            return Ok(removal);
        }
        // The break, switched on by an activation literal for this question only.
        let active = self.solver.new_var().positive();
        let mut breaks: Vec<Lit> = around
            .iter()
            .map(|&p| self.cells[shape.index(p)] ^ self.solution.is_ship(p))
            .collect();
        breaks.push(!active);
        self.solver.add_clause(&breaks);
        let mut assumptions: Vec<Lit> = keep
            .iter()
            .filter_map(|p| self.selectors[shape.index(*p)])
            .collect();
        assumptions.extend(&facts);
        assumptions.push(active);
        if let (Some(limit), Some(size)) = (&self.budget, self.budget_size) {
            limit.store(self.solver.conflicts() + size, Ordering::Relaxed);
        }
        let failure = |e: crate::solver::SolverError| GenerateError::Solver(e.to_string());
        let answer = self.solver.solve(&assumptions).map_err(failure);
        let removal = match answer? {
            Answer::Sat => Removal::Needed(self.second_solution(keep)?),
            Answer::Unsat => {
                let failed = self.solver.failed_assumptions();
                // Only a core of clues alone is a unique clue set. A pre-solving fact follows
                // from all of `keep`, not from the core's clues alone. The break holds for every
                // other solution of `keep` (since `keep` with `removed` is unique) but not for
                // every other solution of a smaller set: a core that needs it says only that no
                // other solution of its clues differs around `removed`, and another may differ
                // elsewhere. Either way the answer is that `keep` is unique, and no more.
                let leans_on_more = failed
                    .iter()
                    .any(|lit| !self.clue_of.contains_key(&lit.var()));
                let mut core: Vec<Pos> = if leans_on_more {
                    keep.to_vec()
                } else {
                    failed
                        .iter()
                        .filter_map(|lit| self.clue_of.get(&lit.var()).copied())
                        .collect()
                };
                core.sort();
                Removal::Unique(core)
            }
            Answer::Stopped => Removal::Undecided,
        };
        // The question is answered: its activation literal is switched off for good.
        self.solver.add_clause(&[!active]);
        Ok(removal)
    }

    /// The model of the last question as a grid, checked by the independent verifier against
    /// the puzzle with the clues `keep`.
    fn second_solution(&self, keep: &[Pos]) -> Result<Grid, GenerateError> {
        let shape = self.puzzle.shape();
        let ship: Vec<bool> = self
            .cells
            .iter()
            .map(|&x| self.solver.value(x) == Some(true))
            .collect();
        let mut puzzle = self.puzzle.clone();
        for &pos in keep {
            puzzle
                .add_clue(pos, Clue::Piece(self.solution.get(pos)))
                .expect("clue positions lie on the board");
        }
        // The second solution passes the independent verifier, or nothing is claimed.
        Grid::from_ship_cells(shape.rows, shape.cols, &ship)
            .filter(|g| crate::model::verify::verify(&puzzle, g).is_ok() && g != self.solution)
            .ok_or_else(|| GenerateError::Solver("a second solution failed verification".into()))
    }
}

/// Decides which cells unit propagation plus one-step look-ahead (failed-literal probing on
/// cells) fixes for a set of revealed clues of a known solution. The clue-free formula is loaded
/// once with every cell's clue behind a selector; a check assumes the selectors and undoes them.
pub struct DeductionOracle {
    pub(super) prop: Propagator,
    depth: usize,
    cells: Vec<Var>,
    selectors: Vec<Lit>,
    shape: Shape,
}

impl DeductionOracle {
    /// Loads the clue-free puzzle of `solution`; `depth` 0 is unit propagation alone, 1 adds
    /// failed-literal probing.
    pub fn new(solution: &Grid, fleet: &Fleet, card: CardKind, depth: usize) -> Self {
        let puzzle = clue_free_puzzle(solution, fleet);
        let mut formula = ClueFormula::new(&puzzle, card);
        let selectors = puzzle
            .positions()
            .map(|pos| formula.add_guarded_clue(pos, Clue::Piece(solution.get(pos))))
            .collect();
        let mut prop = Propagator::new(formula.formula());
        // The solution satisfies the formula, so the root cannot conflict.
        let _ = prop.propagate_root();
        DeductionOracle {
            prop,
            depth,
            cells: formula.cells().to_vec(),
            selectors,
            shape: puzzle.shape(),
        }
    }

    /// The cells that deduction leaves open when `clues` are revealed (empty: the clues decide
    /// the whole board, so the solution is unique).
    pub fn open_cells(&mut self, clues: &[Pos]) -> Vec<Pos> {
        let mark = self.prop.mark();
        let mut ok = clues.iter().all(|&p| {
            self.prop
                .assume(self.selectors[self.shape.index(p)])
                .is_ok()
        });
        ok = ok && (self.depth == 0 || self.prop.probe_fixpoint(&self.cells, self.depth).is_ok());
        let open = if ok {
            self.cells
                .iter()
                .enumerate()
                .filter(|(_, v)| self.prop.var_value(**v).is_none())
                .map(|(i, _)| self.shape.pos(i))
                .collect()
        } else {
            Vec::new() // a contradiction cannot happen: the solution satisfies every clue
        };
        self.prop.undo(mark);
        open
    }

    /// Reveals the clue at `pos` until undone, so that later checks build on it; returns the
    /// mark to undo it (and everything revealed after it).
    pub fn reveal(&mut self, pos: Pos) -> TrailMark {
        let mark = self.prop.mark();
        // The solution satisfies every clue, so this cannot conflict.
        let _ = self.prop.assume(self.selectors[self.shape.index(pos)]);
        mark
    }

    /// Takes back what was revealed since `mark`.
    pub fn undo(&mut self, mark: TrailMark) {
        self.prop.undo(mark);
    }
}
