//! The generator's uniqueness questions: whether a clue set less one clue still leaves the
//! solution unique (pre-solving, the native search, then a targeted SAT question, or one
//! incremental solver whose cores can drop several clues at once). The CNF deduction oracle is
//! in `deduction.rs`.

use super::spec::{
    GenerateError, GenerateOptions, GenerateProgress, Inconsistency, QUESTION_TUNING, Question,
    SettledBy, clue_free_puzzle,
};
use crate::encode::sat::formula::ClueFormula;
use crate::encode::sat::instance::Instance;
use crate::model::deadline::{Budget, Deadline};
use crate::model::geometry::halo;
use crate::model::lit::{Lit, Var};
use crate::model::placement::Placements;
use crate::model::puzzle::{Clue, Dir, Grid, Piece, Pos, Puzzle};
use crate::reason::deduce::{Effort, Propagation, Rules, deduce};
use crate::reason::search::{End, search_toward};
use crate::solver::{self, Answer, Incremental};
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// What a uniqueness check decided about one clue.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Removal {
    /// Without the clue the solution is still the only one. These clues (a subset of the ones
    /// kept, from the solver's failed-assumption core) already make it the only one.
    Unique(Vec<Pos>),
    /// Without the clue there is this other solution (checked by the verifier): the clue is
    /// needed, and stays needed whatever else is removed later.
    Needed(Grid),
    /// The search ran out of its conflict budget before deciding.
    Undecided,
}

/// Branch nodes the native searches of one phase of a uniqueness question (a window, or the
/// whole board) may visit together before the next phase (or the SAT question) takes over. On
/// 30x30 boards a node costs 10 to 50 µs. The questions the native search settles at all it
/// settles within a few hundred nodes: exact 30x30 seed 1 takes 10.9 s with 20,000 nodes a
/// phase, 7.5 s with 2,000 and 7.2-7.8 s with 200 to 1,000, for the same puzzle
/// (`docs/benchmarks/2026-11-26-issue-21-fifth-pass.md`).
pub(crate) const QUESTION_NODES: u64 = 2_000;

/// [`QUESTION_NODES`] for a question that only the native search may answer
/// ([`Settle::Native`], the `--grade fiendish` reduction): what it leaves open stays a clue, so
/// a smaller budget trades a few more clues for time. On 20x20 seeds 1-4 it keeps 108-167
/// clues in 0.7-1.2 s of construction, against 118-160 clues in 1.7-4.1 s with 2,000 (a
/// loaded 2-core machine).
pub(crate) const NATIVE_NODES: u64 = 500;

/// Boards whose longer side is at least this get the windowed searches first; on smaller ones
/// the search over the whole board is cheap enough on its own.
pub(crate) const WINDOWED_SIDE: usize = 20;

/// Checks whether the solution's pieces at `rest`, a unique clue set less the clue at
/// `removed`, still leave `solution` as the only solution.
///
/// Any other solution of `rest` must break the removed clue (the full set was unique). The
/// clues of `rest` are first pre-solved by [`crate::reason::deduce`]; when that fixes the
/// removed clue's cell and neighbours, the answer is unique. Then the native search
/// ([`native_removal`]) looks for a second solution that breaks the removed clue, near it and
/// over the whole board, within [`QUESTION_NODES`] nodes a phase. What it leaves open becomes
/// a targeted SAT question: the residual formula over the cells pre-solving left open, with
/// one clause asking for a difference from the solution at `removed` or one of its four
/// neighbours (what changes its piece). A fresh solver of `options.solver`, on the formula of `options.check`, answers
/// within `options.budget.conflicts` conflicts. Every answer is a fact about the clues, so which path
/// gives it never changes the clue set.
pub(crate) fn check_removal(
    solution: &Grid,
    options: &GenerateOptions,
    rest: &[Pos],
    removed: Pos,
    stop: &Arc<AtomicBool>,
) -> Result<Removal, GenerateError> {
    check_removal_by(solution, options, rest, removed, stop, Settle::Exact)
}

/// How far a uniqueness question may go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Settle {
    /// To its answer: pre-solving, the native search, then the SAT solver (within
    /// `options.budget.conflicts` conflicts, when one is given).
    Exact,
    /// Pre-solving and the native search alone (within [`NATIVE_NODES`] nodes a phase): what
    /// they leave open is [`Removal::Undecided`], and no SAT question is asked. Every answer
    /// is still a fact about the clues, and the node budget makes it the same on any machine.
    Native,
}

/// [`check_removal`], going only as far as `settle` says.
pub(crate) fn check_removal_by(
    solution: &Grid,
    options: &GenerateOptions,
    rest: &[Pos],
    removed: Pos,
    stop: &Arc<AtomicBool>,
    settle: Settle,
) -> Result<Removal, GenerateError> {
    let start = Instant::now();
    let (removal, by, conflicts) = ask_removal(solution, options, rest, removed, stop, settle)?;
    record(
        options.progress.as_deref(),
        removed,
        &removal,
        by,
        conflicts,
        start,
    );
    Ok(removal)
}

/// Records a question's answer in `progress`, if any.
fn record(
    progress: Option<&GenerateProgress>,
    clue: Pos,
    removal: &Removal,
    by: SettledBy,
    conflicts: u64,
    start: Instant,
) {
    if let Some(progress) = progress {
        progress.record(Question {
            clue,
            by,
            needed: match removal {
                Removal::Needed(_) => Some(true),
                Removal::Unique(_) => Some(false),
                Removal::Undecided => None,
            },
            conflicts,
            time: start.elapsed(),
        });
    }
}

/// [`check_removal`]'s answer, what settled it and the SAT conflicts it took.
fn ask_removal(
    solution: &Grid,
    options: &GenerateOptions,
    rest: &[Pos],
    removed: Pos,
    stop: &Arc<AtomicBool>,
    settle: Settle,
) -> Result<(Removal, SettledBy, u64), GenerateError> {
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
        .map_err(|_| GenerateError::Inconsistent(Inconsistency::RefutedSolution))?;
    let differs = |p: Pos| knowledge.cells[shape.index(p)] != Some(solution.is_ship(p));
    let around = around(solution, removed);
    if around.iter().all(|&p| !differs(p)) {
        // Pre-solving fixed the removed clue's cell and neighbours as in the solution.
        return Ok((Removal::Unique(rest.to_vec()), SettledBy::PreSolving, 0));
    }
    let nodes = match settle {
        Settle::Exact => QUESTION_NODES,
        Settle::Native => NATIVE_NODES,
    };
    let budget = Budget {
        nodes: Some(nodes),
        ..Budget::default()
    }
    .stopped_by(stop.clone());
    if let Some((removal, by)) =
        native_removal(&puzzle, &placements, solution, rest, removed, &budget)
    {
        return Ok((removal, by, 0));
    }
    if settle == Settle::Native {
        return Ok((Removal::Undecided, SettledBy::NativeWhole, 0));
    }
    let failure = GenerateError::Solver;
    let mut solver = options.solver.new_tuned(QUESTION_TUNING).map_err(failure)?;
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
    if let Some(budget) = options.budget.conflicts {
        solver.set_conflict_limit(Some(Arc::new(AtomicU64::new(budget))));
    }
    solver.set_interrupt(Some(stop.clone()));
    let answer = solver.solve().map_err(failure)?;
    let conflicts = solver.conflicts();
    let removal = match answer {
        Answer::Sat => {
            let ship: Vec<bool> = encoding
                .cells
                .iter()
                .map(|v| solver.value(v.positive()) == Some(true))
                .collect();
            // The second solution passes the independent verifier, or nothing is claimed.
            let other = Grid::from_ship_cells(shape.rows, shape.cols, &ship)
                .filter(|g| crate::model::verify::verify(&puzzle, g).is_ok() && g != solution)
                .ok_or(GenerateError::Inconsistent(Inconsistency::UnverifiedSecond))?;
            Removal::Needed(other)
        }
        Answer::Unsat => Removal::Unique(rest.to_vec()),
        Answer::Stopped => Removal::Undecided,
    };
    Ok((removal, SettledBy::Sat, conflicts))
}

/// The native search's answer to a uniqueness question ([`check_removal`]'s): `puzzle` holds
/// the clues `rest`, `placements` its candidate ships (pre-solving may have struck off some).
///
/// Any other solution breaks the removed clue (the full set was unique), so the question splits
/// into one search per way of breaking it ([`breaking_clues`]): `rest` plus a clue at `removed`
/// that the solution's piece does not satisfy (a ship part where the solution has water; water
/// or another piece where it has a ship part). Each is far more constrained than `rest` alone.
/// A second solution is looked for first in windows around the removed clue, a third and then
/// two thirds of the board's side in radius, with every cell outside the window fixed to the
/// solution's piece: a small search, and the other solution that makes a clue needed is often
/// a local rearrangement. Then each search runs over the whole board, where every one of them
/// running out of branches proves the solution unique. `None` when a search ran out of
/// `budget` and none found a solution; a grid found is one the search checked with the verifier
/// against its puzzle, and every such puzzle holds `rest`, so it is a second solution of `rest`.
/// The answer comes with the phase that gave it.
fn native_removal(
    puzzle: &Puzzle,
    placements: &Placements,
    solution: &Grid,
    rest: &[Pos],
    removed: Pos,
    budget: &Budget,
) -> Option<(Removal, SettledBy)> {
    let shape = puzzle.shape();
    let side = shape.rows.max(shape.cols);
    let breaks: Vec<Puzzle> = breaking_clues(solution.get(removed))
        .into_iter()
        .map(|clue| {
            let mut broken = puzzle.clone();
            broken
                .add_clue(removed, clue)
                .expect("the removed clue's cell has no clue in `rest`");
            broken
        })
        .collect();
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
        let windows: Vec<(Puzzle, Placements)> = breaks
            .iter()
            .map(|broken| {
                let mut window = broken.clone();
                for pos in shape.positions() {
                    if pos.row.abs_diff(removed.row) > radius
                        || pos.col.abs_diff(removed.col) > radius
                    {
                        window
                            .add_clue(pos, Clue::Piece(solution.get(pos)))
                            .expect("the solution's own pieces agree with its clues");
                    }
                }
                let candidates = Placements::new(&window);
                (window, candidates)
            })
            .collect();
        if let Some(Some(grid)) = first_break(&windows, budget, solution) {
            return Some((Removal::Needed(grid), SettledBy::NativeWindow));
        }
    }
    let whole: Vec<(Puzzle, Placements)> = breaks
        .into_iter()
        .map(|broken| {
            let candidates = admitted(placements, &broken, removed);
            (broken, candidates)
        })
        .collect();
    let removal = match first_break(&whole, budget, solution)? {
        Some(grid) => Removal::Needed(grid),
        None => Removal::Unique(rest.to_vec()),
    };
    Some((removal, SettledBy::NativeWhole))
}

/// A solution of one of `searches` (puzzles with their candidate ships), all of them sharing
/// `budget`'s nodes: first an equal share of half of them each, then the searches that ran out
/// share what is left. `Some(None)` when every search ran out of branches (none has a
/// solution), `None` when one ran out of nodes and none found a solution. Searches that are
/// refuted at once cost little, so a hard question costs at most what one search over the
/// same board would, and an easy one much less. Each search follows `solution` first
/// ([`search_toward`]): a second solution that rearranges a few of its ships comes early.
fn first_break(
    searches: &[(Puzzle, Placements)],
    budget: &Budget,
    solution: &Grid,
) -> Option<Option<Grid>> {
    let share = |total: Option<u64>, n: usize| total.map(|t| (t / n.max(1) as u64).max(1));
    let mut open: Vec<usize> = (0..searches.len()).collect();
    let mut left = budget.nodes;
    for pass in 0..2 {
        let total = match pass {
            0 => budget.nodes.map(|n| n / 2),
            _ => left,
        };
        let each = Budget {
            nodes: share(total, open.len()),
            ..budget.clone()
        };
        let mut still = Vec::new();
        for &i in &open {
            let (puzzle, candidates) = &searches[i];
            let found = search_toward(puzzle, candidates, 1, &each, solution);
            left = left.map(|n| n.saturating_sub(found.nodes));
            if let Some(grid) = found.grids.into_iter().next() {
                return Some(Some(grid));
            }
            match found.end {
                End::Exhausted => {}
                End::OutOfNodes => still.push(i),
                // Stopped or out of time: no answer.
                _ => return None,
            }
        }
        open = still;
        if open.is_empty() {
            return Some(None);
        }
    }
    None
}

/// The clues at a cell that a solution whose piece there is not `piece` satisfies, one of them
/// at least: "some ship part" when `piece` is water; water and every other piece when it is a
/// ship part.
fn breaking_clues(piece: Piece) -> Vec<Clue> {
    if !piece.is_ship() {
        return vec![Clue::Ship];
    }
    let mut others = vec![Piece::Water, Piece::Submarine, Piece::Middle];
    others.extend(Dir::ALL.into_iter().map(Piece::End));
    others
        .into_iter()
        .filter(|&p| p != piece)
        .map(Clue::Piece)
        .collect()
}

/// The placements of `placements` that the clue `broken` has at `at` admits: those covering the
/// cell with a piece the clue allows, and the others unless the clue is a ship part in their
/// halo.
fn admitted(placements: &Placements, broken: &Puzzle, at: Pos) -> Placements {
    let clue = broken.clue(at).expect("the breaking clue is set");
    let shape = broken.shape();
    let keep: Vec<bool> = placements
        .ships()
        .iter()
        .map(|&ship| match ship.pieces().find(|&(p, _)| p == at) {
            Some((_, piece)) => clue.admits(piece),
            None => !(clue.is_ship() && halo(ship, shape).any(|p| p == at)),
        })
        .collect();
    let mut kept = placements.clone();
    let Ok(()) = kept.retain(&keep, &Deadline::NONE) else {
        unreachable!("no deadline to pass")
    };
    kept
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
pub(crate) struct ClueOracle<'a> {
    solution: &'a Grid,
    puzzle: Puzzle,
    /// Pre-solving of each question's clues, from the clue-free state (undone after each).
    deduce: Propagation<'a>,
    solver: Box<dyn Incremental>,
    cells: Vec<Lit>,
    /// The selector of each candidate clue, by cell.
    selectors: Vec<Option<Lit>>,
    /// The candidate clue of each selector variable.
    clue_of: HashMap<Var, Pos>,
    budget: Option<Arc<AtomicU64>>,
    budget_size: Option<u64>,
    /// Stops the question under way, the native search and the solver alike.
    stop: Option<Arc<AtomicBool>>,
    /// Where each question is recorded (`options.progress`).
    progress: Option<Arc<GenerateProgress>>,
}

impl<'a> ClueOracle<'a> {
    /// The oracle for `solution`, whose clue-free puzzle is `puzzle` (with its `placements`),
    /// and the candidate clues `clues`, with the formula of `options.check`, the solver
    /// `options.solver`, and `options.budget.conflicts` conflicts per question (no limit when `None`);
    /// an error for a solver this build does not link.
    pub(crate) fn new(
        solution: &'a Grid,
        puzzle: &'a Puzzle,
        placements: &'a Placements,
        options: &GenerateOptions,
        clues: &[Pos],
    ) -> Result<Self, GenerateError> {
        let budget = options.budget.conflicts;
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
        let failure = GenerateError::Solver;
        let mut solver = options.solver.new_tuned(QUESTION_TUNING).map_err(failure)?;
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
        Ok(ClueOracle {
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
            progress: options.progress.clone(),
        })
    }

    /// Stops the question under way once `stop` is set.
    pub(crate) fn set_interrupt(&mut self, stop: Arc<AtomicBool>) {
        self.solver.set_interrupt(Some(stop.clone()));
        self.stop = Some(stop);
    }

    /// Whether the clues `keep` (candidates given to [`ClueOracle::new`]) still leave the
    /// solution unique once the clue at `removed` is gone. Any other solution of `keep` breaks
    /// that clue (the clues with it were unique), so the question asks for one that differs
    /// from the solution at `removed` or one of its four neighbours (what changes its piece).
    pub(crate) fn check(&mut self, keep: &[Pos], removed: Pos) -> Result<Removal, GenerateError> {
        let start = Instant::now();
        let before = self.solver.conflicts();
        let (removal, by) = self.ask(keep, removed)?;
        let conflicts = self.solver.conflicts() - before;
        record(
            self.progress.as_deref(),
            removed,
            &removal,
            by,
            conflicts,
            start,
        );
        Ok(removal)
    }

    /// [`ClueOracle::check`]'s answer and what settled it.
    fn ask(&mut self, keep: &[Pos], removed: Pos) -> Result<(Removal, SettledBy), GenerateError> {
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
                return Err(GenerateError::Inconsistent(Inconsistency::RefutedSolution));
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
            return Ok((Removal::Unique(keep.to_vec()), SettledBy::PreSolving));
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
            deadline: match &self.stop {
                Some(stop) => Deadline::NONE.stopped_by(stop.clone()),
                None => Deadline::NONE,
            },
            conflicts: None,
        };
        if let Some(settled) =
            native_removal(&puzzle, &placements, self.solution, keep, removed, &budget)
        {
            return Ok(settled);
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
        let failure = GenerateError::Solver;
        let answer = self.solver.solve_assuming(&assumptions).map_err(failure);
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
        Ok((removal, SettledBy::Sat))
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
            .ok_or(GenerateError::Inconsistent(Inconsistency::UnverifiedSecond))
    }
}
