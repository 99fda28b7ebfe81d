//! The puzzle generator: a random legal fleet and its row and column counts; then clues revealed
//! at random among the cells unit propagation has not decided, until it decides them all (so
//! the solution is unique, without any search); then every clue removed whose removal keeps the
//! solution unique. Which clues keep the solution unique is a minimal-unsatisfiable-subset
//! question over the clues, answered by one of two [`Minimizer`]s: one clue at a time, each a
//! targeted SAT question on the small residual formula the other clues leave after pre-solving
//! (the default, measured fastest), or core-guided, with one incremental solver whose
//! failed-assumption cores can drop several clues at once. Both give an exactly minimal set; a
//! conflict budget per question is an explicit opt-in, and a clue whose question outruns it is
//! kept and reported as undecided.

pub mod native;

use crate::deadline::Deadline;
use crate::geometry::{all_ships, halo};
use crate::grade::{Grade, deduction_depth_until};
use crate::placement::Placements;
use crate::puzzle::{Clue, Fleet, Grid, Pos, Puzzle, Shape, Ship};
use crate::reason::deduce::{Propagation, Rules, deduce};
use crate::reason::formula::ClueFormula;
use crate::reason::unit::{Mark, Propagator};
use crate::sat::card::CardKind;
use crate::sat::engine::Configuration;
use crate::sat::model::{Instance, Model};
use crate::solver::{self, Answer, Solver, SolverKind};
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use varisat::{Lit, Var};

/// Why a puzzle could not be generated.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GenerateError {
    /// The fleet could not be placed on the board (too many or too long ships).
    #[error("the fleet {fleet} does not fit on a {rows}x{cols} board ({tries} random tries)")]
    FleetDoesNotFit {
        /// The fleet, in compact form.
        fleet: String,
        /// Board rows.
        rows: usize,
        /// Board columns.
        cols: usize,
        /// Random placements tried.
        tries: usize,
    },
    /// No puzzle of the wanted grade turned up.
    #[error("no puzzle of grade {grade} in {tries} tries")]
    NoPuzzleOfGrade {
        /// The grade asked for.
        grade: Grade,
        /// Puzzles drawn.
        tries: usize,
    },
    /// The embedded solver failed.
    #[error("solver failure: {0}")]
    Solver(String),
    /// The time limit came before the clue set was made (`--reduce deduction`, `propagation`
    /// and `look-ahead`; `unique` stops with the clues it has instead).
    #[error("time limit reached before the clue set was made")]
    OutOfTime,
    /// The deadline passed before a puzzle of the wanted grade turned up.
    #[error("no puzzle of grade {grade} before the time limit ({tries} tries)")]
    TimeLimit {
        /// The grade asked for.
        grade: Grade,
        /// Puzzles drawn.
        tries: usize,
    },
}

/// A `--fleet` spec that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "bad fleet spec {spec:?}: {reason}; expected counts by length from submarines up (`4,3,2,1`) or COUNTxLENGTH items (`1x4,2x3,3x2,4x1`)"
)]
pub struct FleetSpecError {
    /// The spec as given.
    pub spec: String,
    /// What is wrong with it.
    pub reason: String,
}

/// A `--size` that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("bad board size {spec:?}: expected ROWSxCOLS with both at least 1, for example 10x10")]
pub struct SizeSpecError {
    /// The size as given.
    pub spec: String,
}

/// Board dimensions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Size {
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
}

impl std::str::FromStr for Size {
    type Err = SizeSpecError;

    /// Reads `RxC` (also `R` alone for a square board).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = || SizeSpecError {
            spec: s.to_string(),
        };
        let t = s.trim().to_ascii_lowercase();
        let (r, c) = t.split_once('x').unwrap_or((&t, &t));
        let rows: usize = r.trim().parse().map_err(|_| err())?;
        let cols: usize = c.trim().parse().map_err(|_| err())?;
        if rows == 0 || cols == 0 {
            return Err(err());
        }
        Ok(Size { rows, cols })
    }
}

impl std::fmt::Display for Size {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}x{}", self.rows, self.cols)
    }
}

/// Parses a fleet spec: counts by length starting with submarines (`4,3,2,1` is the standard
/// fleet) or `COUNTxLENGTH` items in any order (`1x4,2x3,3x2,4x1`).
pub fn parse_fleet(spec: &str) -> Result<Fleet, FleetSpecError> {
    let err = |reason: String| FleetSpecError {
        spec: spec.to_string(),
        reason,
    };
    let items: Vec<&str> = spec.split(',').map(str::trim).collect();
    if items.iter().all(|i| i.is_empty()) {
        return Err(err("it is empty".into()));
    }
    let number = |s: &str| -> Result<usize, FleetSpecError> {
        s.trim()
            .parse()
            .map_err(|_| err(format!("{s:?} is not a number")))
    };
    let mut counts: Vec<usize> = Vec::new();
    if items.iter().any(|i| i.contains(['x', 'X'])) {
        for item in &items {
            let (count, len) = item
                .split_once(['x', 'X'])
                .ok_or_else(|| err(format!("{item:?} is not COUNTxLENGTH")))?;
            let (count, len) = (number(count)?, number(len)?);
            if len == 0 {
                return Err(err("ship length 0".into()));
            }
            if len > 10_000 {
                return Err(err(format!("ship length {len} is too long")));
            }
            if counts.len() < len {
                counts.resize(len, 0);
            }
            counts[len - 1] += count;
        }
    } else {
        if items.len() > 10_000 {
            return Err(err("too many lengths".into()));
        }
        for item in &items {
            counts.push(number(item)?);
        }
    }
    let fleet = Fleet::from_counts(counts);
    if fleet.total_ships() == 0 {
        return Err(err("it has no ships".into()));
    }
    Ok(fleet)
}

/// The default fleet for a board: the standard fleet (4 submarines, 3 destroyers, 2 cruisers,
/// 1 battleship) on 10x10 and smaller boards; on larger boards the longest ship grows by one per
/// 10 cells of the shorter side beyond 10, the counts keep the standard's pattern (one more of
/// each shorter length), and the whole pattern is repeated so that about a fifth of the cells
/// hold ships. Boards smaller than 10x10 get the standard fleet cut down to fit about a fifth
/// of the board.
pub fn default_fleet(size: Size) -> Fleet {
    let short = size.rows.min(size.cols);
    let area = size.rows * size.cols;
    let target = area / 5;
    if short < 10 {
        // Longest ship at most the shorter side and at most 4; drop ships, longest first,
        // until the fleet's cells fit the target.
        let max_len = short.clamp(1, 4);
        let mut counts: Vec<usize> = (1..=max_len).map(|l| 5 - l).collect();
        let cells = |c: &[usize]| {
            c.iter()
                .enumerate()
                .map(|(i, n)| (i + 1) * n)
                .sum::<usize>()
        };
        while cells(&counts) > target.max(1) {
            match counts.iter().rposition(|&n| n > 0) {
                Some(i) => counts[i] -= 1,
                None => break,
            }
        }
        if counts.iter().all(|&n| n == 0) {
            counts = vec![1];
        }
        return Fleet::from_counts(counts);
    }
    let max_len = 4 + (short - 10) / 10;
    let pattern_cells = max_len * (max_len + 1) * (max_len + 2) / 6;
    let factor = (target / pattern_cells).max(1);
    Fleet::from_counts((1..=max_len).map(|l| (max_len + 1 - l) * factor).collect())
}

/// What the generator needs to know.
#[derive(Clone, Debug)]
pub struct GenerateOptions {
    /// Board size.
    pub size: Size,
    /// The fleet to place.
    pub fleet: Fleet,
    /// Cardinality encoding of the propagation formula that picks the starting clues and
    /// decides [`Reduce::Propagation`] and [`Reduce::LookAhead`].
    pub card: CardKind,
    /// How far clues are removed.
    pub reduce: Reduce,
    /// Conflicts each uniqueness check of [`Reduce::Unique`] may take; `None` (the default) for
    /// no limit, which makes the clue set exactly minimal.
    pub budget: Option<u64>,
    /// How [`Reduce::Unique`] decides which clues are needed.
    pub minimizer: Minimizer,
    /// The CNF model and cardinality encoding of the uniqueness checks.
    pub check: Configuration,
    /// The SAT solver of the uniqueness checks.
    pub solver: SolverKind,
    /// Where the generation stands, updated as it goes for a progress display (none when
    /// `None`).
    pub progress: Option<Arc<GenerateProgress>>,
    /// When to stop. [`Reduce::Unique`] then keeps the clues it has (always unique) and reports
    /// those not yet proven needed in [`Generated::undecided`]; the other reductions give up
    /// with [`GenerateError::OutOfTime`], so that what they print never depends on speed.
    pub deadline: Deadline,
}

/// The phases of one generation, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Drawing a legal fleet at random.
    Placing,
    /// Revealing clues until unit propagation decides every cell, then dropping the ones it
    /// does not need.
    Revealing,
    /// Asking of each clue whether the others keep the solution unique.
    Minimizing,
}

/// Where a generation stands, written by the generator and read from any thread (a progress
/// bar polls it): the phase, and in [`Phase::Minimizing`] how many clues are settled (proven
/// needed or removed) out of the starting set, and how many clues are left.
#[derive(Debug, Default)]
pub struct GenerateProgress {
    phase: AtomicUsize,
    asked: AtomicUsize,
    to_ask: AtomicUsize,
    clues: AtomicUsize,
}

impl GenerateProgress {
    /// The current phase.
    pub fn phase(&self) -> Phase {
        match self.phase.load(Ordering::Relaxed) {
            0 => Phase::Placing,
            1 => Phase::Revealing,
            _ => Phase::Minimizing,
        }
    }

    /// Clues settled so far (proven needed or removed), and the clues the phase started with,
    /// in [`Phase::Minimizing`].
    pub fn asked(&self) -> (usize, usize) {
        (
            self.asked.load(Ordering::Relaxed),
            self.to_ask.load(Ordering::Relaxed),
        )
    }

    /// The clues the puzzle has at the moment.
    pub fn clues(&self) -> usize {
        self.clues.load(Ordering::Relaxed)
    }

    fn set_phase(&self, phase: Phase) {
        let n = match phase {
            Phase::Placing => 0,
            Phase::Revealing => 1,
            Phase::Minimizing => 2,
        };
        self.phase.store(n, Ordering::Relaxed);
    }

    fn set_asked(&self, asked: usize, to_ask: usize, clues: usize) {
        self.asked.store(asked, Ordering::Relaxed);
        self.to_ask.store(to_ask, Ordering::Relaxed);
        self.clues.store(clues, Ordering::Relaxed);
    }
}

/// Reports `phase` to `options.progress`, if any.
fn report(options: &GenerateOptions, phase: Phase) {
    if let Some(p) = &options.progress {
        p.set_phase(phase);
    }
}

/// Reports the minimisation's state to `options.progress`, if any.
fn report_asked(options: &GenerateOptions, asked: usize, to_ask: usize, clues: usize) {
    if let Some(p) = &options.progress {
        p.set_asked(asked, to_ask, clues);
    }
}

/// The configuration of the generator's uniqueness checks: the placement model with
/// totalizers, about three times faster than the cell model with sequential counters on 20x20
/// boards, with the same clue sets (see `docs/benchmarks.md`).
pub const CHECK_CONFIGURATION: Configuration = Configuration {
    model: Model::Placement,
    card: CardKind::Totalizer,
};

/// How the generator decides which clues of a unique set are needed. Both give an exactly
/// minimal set (without a conflict budget); they may pick different ones.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[non_exhaustive]
pub enum Minimizer {
    /// One clue at a time, in random order: a fresh solver per question, on the residual
    /// formula that pre-solving of the other clues leaves (small: most cells are decided). Two
    /// questions run at once. The default: fastest in our measurements.
    #[default]
    OneByOne,
    /// Core-guided: one incremental solver for the whole removal phase, every clue an
    /// assumption; an UNSAT answer's failed-assumption core, when it holds clues alone (no
    /// pre-solving fact, no break clause), drops every clue outside it at once.
    Cores,
}

impl Minimizer {
    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Minimizer::OneByOne => "one-by-one",
            Minimizer::Cores => "cores",
        }
    }
}

impl GenerateOptions {
    /// Options for `size` with its default fleet.
    pub fn new(size: Size) -> Self {
        GenerateOptions {
            size,
            fleet: default_fleet(size),
            card: CardKind::default(),
            reduce: Reduce::default(),
            budget: None,
            minimizer: Minimizer::default(),
            check: CHECK_CONFIGURATION,
            solver: SolverKind::default(),
            progress: None,
            deadline: Deadline::NONE,
        }
    }
}

/// A generated puzzle and its (unique) solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generated {
    /// The puzzle: counts, fleet and a minimal set of clues (but for [`Generated::undecided`]).
    pub puzzle: Puzzle,
    /// Its only solution.
    pub solution: Grid,
    /// Clues not proven needed: their uniqueness check ran out of its conflict budget (see
    /// [`GenerateOptions::budget`]), or the deadline came first ([`GenerateOptions::deadline`]);
    /// empty when the clue set is minimal.
    pub undecided: Vec<Pos>,
}

/// The random source for puzzle `index` of a run with `seed`: ChaCha8 seeded by `seed`, on its
/// own stream per index, so that puzzle `i` is the same whatever `--count` is.
pub fn rng_for(seed: u64, index: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(index);
    rng
}

/// Places the fleet at random: ships longest first, each at a position drawn uniformly among
/// those that touch no ship placed before; when a ship finds no room, the board is cleared and
/// drawn again.
pub fn random_ships(
    size: Size,
    fleet: &Fleet,
    rng: &mut ChaCha8Rng,
) -> Result<Vec<Ship>, GenerateError> {
    const TRIES: usize = 1000;
    let shape = Shape::new(size.rows, size.cols);
    let mut lengths: Vec<usize> = fleet
        .classes()
        .flat_map(|c| std::iter::repeat_n(c.len, c.count))
        .collect();
    lengths.sort_unstable_by(|a, b| b.cmp(a));
    let mut candidates: Vec<Ship> = Vec::new();
    'tries: for _ in 0..TRIES {
        // blocked[i]: the cell holds a ship or touches one.
        let mut blocked = vec![false; shape.cells()];
        let mut ships = Vec::with_capacity(lengths.len());
        for &len in &lengths {
            candidates.clear();
            candidates.extend(
                all_ships(len, shape).filter(|ship| ship.cells().all(|p| !blocked[shape.index(p)])),
            );
            if candidates.is_empty() {
                continue 'tries;
            }
            let ship = candidates[rng.random_range(0..candidates.len())];
            for p in ship.cells().chain(halo(ship, shape)) {
                blocked[shape.index(p)] = true;
            }
            ships.push(ship);
        }
        ships.sort();
        return Ok(ships);
    }
    Err(GenerateError::FleetDoesNotFit {
        fleet: fleet.to_string(),
        rows: shape.rows,
        cols: shape.cols,
        tries: TRIES,
    })
}

/// The puzzle a grid defines with no clues: its row and column counts and `fleet`.
pub fn clue_free_puzzle(grid: &Grid, fleet: &Fleet) -> Puzzle {
    let row_counts = (0..grid.rows()).map(|r| Some(grid.row_total(r))).collect();
    let col_counts = (0..grid.cols()).map(|c| Some(grid.col_total(c))).collect();
    Puzzle::new(row_counts, col_counts, fleet.clone()).expect("a grid has at least one cell")
}

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

/// Checks whether the solution's pieces at `rest`, a unique clue set less the clue at
/// `removed`, still leave `solution` as the only solution.
///
/// Any other solution of `rest` must break the removed clue (the full set was unique), so the
/// question is a targeted one: the clues of `rest`, pre-solved by [`crate::reason::deduce`]
/// (which decides most cells of a large board outright), are encoded as a residual formula over
/// the cells left open, with one clause asking for a difference from the solution at `removed`
/// or one of its four neighbours (what changes its piece). A fresh solver of `options.solver`,
/// on the formula of `options.check`, answers within `options.budget` conflicts.
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
    let knowledge = deduce(&puzzle, &mut placements).map_err(|_| {
        GenerateError::Solver("pre-solving refuted clues taken from a solution".into())
    })?;
    let differs = |p: Pos| knowledge.cells[shape.index(p)] != Some(solution.is_ship(p));
    let around = around(solution, removed);
    if around.iter().all(|&p| !differs(p)) {
        // Pre-solving fixed the removed clue's cell and neighbours as in the solution.
        return Ok(Removal::Unique(rest.to_vec()));
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
                .filter(|g| crate::verify::verify(&puzzle, g).is_ok() && g != solution)
                .ok_or_else(|| {
                    GenerateError::Solver("a second solution failed verification".into())
                })?;
            Ok(Removal::Needed(other))
        }
        Answer::Unsat => Ok(Removal::Unique(rest.to_vec())),
        Answer::Stopped => Ok(Removal::Undecided),
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
            crate::puzzle::Dir::ALL
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
        }
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
            .filter(|g| crate::verify::verify(&puzzle, g).is_ok() && g != self.solution)
            .ok_or_else(|| GenerateError::Solver("a second solution failed verification".into()))
    }
}

/// Generates one puzzle with a unique solution and a minimal clue set from `rng`.
pub fn generate(
    options: &GenerateOptions,
    rng: &mut ChaCha8Rng,
) -> Result<Generated, GenerateError> {
    generate_for(options, None, rng)
}

/// [`generate`], with the clue set steered towards `grade` by [`steered_clues`] instead of
/// made by `options.reduce`, when given.
fn generate_for(
    options: &GenerateOptions,
    grade: Option<Grade>,
    rng: &mut ChaCha8Rng,
) -> Result<Generated, GenerateError> {
    report(options, Phase::Placing);
    let ships = random_ships(options.size, &options.fleet, rng)?;
    let solution = Grid::from_ships(options.size.rows, options.size.cols, &ships);
    report(options, Phase::Revealing);
    let reduce = match grade {
        Some(_) => Reduce::Propagation,
        None => options.reduce,
    };
    let (clues, undecided) = match (grade, reduce) {
        (Some(grade), _) => (steered_clues(&solution, options, grade, rng)?, Vec::new()),
        (None, Reduce::Deduction) => {
            let puzzle = clue_free_puzzle(&solution, &options.fleet);
            let clues = native::deduction_minimal(&solution, &puzzle, false, options.deadline, rng)
                .map_err(|_| GenerateError::OutOfTime)?;
            (clues, Vec::new())
        }
        (None, Reduce::Unique) => {
            let u = unique_minimal_clues(&solution, options, rng)?;
            (u.clues, u.undecided)
        }
        (None, Reduce::Propagation) => (
            deduction_minimal_clues(&solution, &options.fleet, options.card, 0, rng),
            Vec::new(),
        ),
        (None, Reduce::LookAhead) => (
            deduction_minimal_clues(&solution, &options.fleet, options.card, 1, rng),
            Vec::new(),
        ),
    };
    if reduce != Reduce::Unique && options.deadline.passed() {
        // What the reduction printed must not depend on speed: all or nothing.
        return Err(GenerateError::OutOfTime);
    }
    let mut puzzle = clue_free_puzzle(&solution, &options.fleet);
    for pos in clues {
        puzzle
            .add_clue(pos, Clue::Piece(solution.get(pos)))
            .expect("clue positions lie on the board");
    }
    Ok(Generated {
        puzzle,
        solution,
        undecided,
    })
}

/// A clue set of `solution` built towards `grade`, on the grade measure's own formula
/// (`docs/grading.md`), each step starting from the last one's set:
/// - easy: minimal for unit propagation (so easy, by construction);
/// - medium: minimal for one-step look-ahead (at most medium);
/// - hard: the medium set less the first clue (in random order) without which the solution
///   stays unique (SAT checks, as `--reduce unique`; two-step look-ahead would be too slow on
///   large boards): one-step look-ahead no longer decides every cell, so the puzzle is hard or
///   fiendish, and with one clue gone rarely fiendish.
///
/// The grade is then measured; a set off the grade is drawn again by the caller.
fn steered_clues(
    solution: &Grid,
    options: &GenerateOptions,
    grade: Grade,
    rng: &mut ChaCha8Rng,
) -> Result<Vec<Pos>, GenerateError> {
    let card = CardKind::default(); // the grade measure's formula
    let depth = usize::from(grade >= Grade::Medium);
    let mut clues = deduction_minimal_clues(solution, &options.fleet, card, depth, rng);
    if grade >= Grade::Hard {
        let stop = Arc::new(AtomicBool::new(false));
        let _alarm = options.deadline.alarm(stop.clone());
        let mut order = clues.clone();
        order.shuffle(rng);
        for pos in order {
            let Some(rest) = drop_clue(&clues, pos) else {
                continue;
            };
            if let Removal::Unique(_) = check_removal(solution, options, &rest, pos, &stop)? {
                // One clue fewer than look-ahead needs: more would drift towards fiendish.
                clues = rest;
                break;
            }
        }
    }
    clues.sort();
    Ok(clues)
}

/// Tries per puzzle before [`generate_graded`] gives up.
pub const GRADE_TRIES: usize = 2000;

/// Generates puzzles from `rng` until one has grade `grade` (any puzzle when `None`).
pub fn generate_graded(
    options: &GenerateOptions,
    grade: Option<Grade>,
    rng: &mut ChaCha8Rng,
) -> Result<Generated, GenerateError> {
    generate_graded_until(options, grade, rng, options.deadline.instant())
}

/// [`generate_graded`], drawing no new puzzle after `deadline` and grading none past it (one
/// puzzle is always drawn; a draw under way is not stopped).
pub fn generate_graded_until(
    options: &GenerateOptions,
    grade: Option<Grade>,
    rng: &mut ChaCha8Rng,
    deadline: Option<std::time::Instant>,
) -> Result<Generated, GenerateError> {
    let Some(want) = grade else {
        return generate(options, rng);
    };
    // Steered by construction (see [`steered_clues`]) up to hard. Fiendish, and any grade with
    // `--reduce unique`, draws exactly minimal puzzles until the grade fits: uniqueness-minimal
    // sets are the hardest the generator makes.
    let steer = (options.reduce != Reduce::Unique && want < Grade::Fiendish).then_some(want);
    let exact = GenerateOptions {
        reduce: Reduce::Unique,
        ..options.clone()
    };
    let options = if steer.is_some() { options } else { &exact };
    for tries in 0..GRADE_TRIES {
        if tries > 0 && deadline.is_some_and(|d| std::time::Instant::now() >= d) {
            return Err(GenerateError::TimeLimit { grade: want, tries });
        }
        let generated = generate_for(options, steer, rng)?;
        match deduction_depth_until(&generated.puzzle, deadline) {
            Some(report) if report.grade == want => return Ok(generated),
            Some(_) => {}
            None => {
                return Err(GenerateError::TimeLimit {
                    grade: want,
                    tries: tries + 1,
                });
            }
        }
    }
    Err(GenerateError::NoPuzzleOfGrade {
        grade: want,
        tries: GRADE_TRIES,
    })
}

/// How far the generator removes clues.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[non_exhaustive]
pub enum Reduce {
    /// Minimal for the solver's reasoning engine (the count, fleet, shape and clue rules over
    /// cells and candidate ships that pre-solving applies): those rules decide every cell, so the
    /// solution is unique and reached without guessing, and removing any clue leaves a cell
    /// they cannot decide. No formula and no search, so it is fast at every size, and the
    /// output depends only on the seed and options. The default.
    #[default]
    Deduction,
    /// Minimal for uniqueness: removing any clue gives a second solution (found by the SAT
    /// solver). Exact unless a conflict budget is given; then clues whose check ran out of it
    /// stay and are reported.
    Unique,
    /// Minimal for unit propagation: removing any clue leaves cells that propagation of the
    /// clue, count and fleet rules cannot decide. Never needs a search, so it is fast on large
    /// boards; the puzzles are easy and may keep clues that uniqueness alone does not need.
    Propagation,
    /// Minimal for one-step look-ahead: removing any clue leaves cells that propagation plus
    /// failed-literal probing cannot decide. No search, but probing is slow on large boards;
    /// the puzzles are at most medium.
    LookAhead,
}

/// Decides which cells unit propagation plus one-step look-ahead (failed-literal probing on
/// cells) fixes for a set of revealed clues of a known solution. The clue-free formula is loaded
/// once with every cell's clue behind a selector; a check assumes the selectors and undoes them.
pub struct DeductionOracle {
    prop: Propagator,
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
    pub fn reveal(&mut self, pos: Pos) -> Mark {
        let mark = self.prop.mark();
        // The solution satisfies every clue, so this cannot conflict.
        let _ = self.prop.assume(self.selectors[self.shape.index(pos)]);
        mark
    }

    /// Takes back what was revealed since `mark`.
    pub fn undo(&mut self, mark: Mark) {
        self.prop.undo(mark);
    }
}

/// The clues [`unique_minimal_clues`] chose.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UniqueClues {
    /// The clue positions, sorted; they leave the solution as the only one.
    pub clues: Vec<Pos>,
    /// Those among them whose check ran out of its conflict budget: each may or may not be
    /// removable. Empty means the set is minimal (every other clue was proved needed by a
    /// second solution).
    pub undecided: Vec<Pos>,
}

/// A set of clue positions (revealing the solution's pieces) that makes `solution` the only
/// solution of its clue-free puzzle, exactly minimal unless a conflict budget is given.
///
/// It starts from a clue set that unit propagation alone solves (so it is unique, and found
/// without search), then asks of each clue, in random order, whether the others still make the
/// solution unique; `options.minimizer` says how (see [`Minimizer`]). A clue whose removal
/// gives a second solution is needed for good: removing other clues only adds solutions. A
/// clue whose check needs more than `options.budget` conflicts (only when one is given) stays
/// and is reported undecided; those are tried once more at the end, when fewer clues often
/// make a second solution easy to find.
pub fn unique_minimal_clues(
    solution: &Grid,
    options: &GenerateOptions,
    rng: &mut ChaCha8Rng,
) -> Result<UniqueClues, GenerateError> {
    let mut deduction = DeductionOracle::new(solution, &options.fleet, options.card, 0);
    let start = deduction_minimal_with(&mut deduction, solution, rng);
    let mut order = start.clone();
    order.shuffle(rng);
    report(options, Phase::Minimizing);
    report_asked(options, 0, order.len(), start.len());
    // The deadline interrupts the question under way; the loops ask no more after it.
    let stop = Arc::new(AtomicBool::new(false));
    let _alarm = options.deadline.alarm(stop.clone());
    let (mut clues, mut undecided) = match options.minimizer {
        Minimizer::OneByOne => one_by_one(solution, options, &mut deduction, start, order, &stop)?,
        Minimizer::Cores => with_cores(solution, options, start, order, &stop)?,
    };
    clues.sort();
    undecided.sort();
    Ok(UniqueClues { clues, undecided })
}

/// [`Minimizer::OneByOne`]: each clue of `order` checked by [`check_removal`] against the clues
/// left, unit propagation first in the first round. Returns the clues and the undecided ones.
fn one_by_one(
    solution: &Grid,
    options: &GenerateOptions,
    deduction: &mut DeductionOracle,
    mut clues: Vec<Pos>,
    mut order: Vec<Pos>,
    stop: &Arc<AtomicBool>,
) -> Result<(Vec<Pos>, Vec<Pos>), GenerateError> {
    let mut undecided: Vec<Pos> = Vec::new();
    // Clues proven needed (a second solution without them): with a deadline, the others are
    // the ones reported undecided.
    let mut needed: Vec<Pos> = Vec::new();
    let start = clues.len();
    let check = |rest: &[Pos], pos: Pos| check_removal(solution, options, rest, pos, stop);
    for round in 0..2 {
        // Unit propagation first, in the first round only (an undecided clue stays open to it).
        let by_propagation = round == 0;
        let mut still = Vec::new();
        let mut i = 0;
        while i < order.len() {
            if options.deadline.passed() {
                break;
            }
            report_asked(
                options,
                needed.len() + start - clues.len(),
                start,
                clues.len(),
            );
            let pos = order[i];
            i += 1;
            let Some(without) = drop_clue(&clues, pos) else {
                continue; // already dropped
            };
            if by_propagation && deduction.open_cells(&without).is_empty() {
                clues = without;
                continue;
            }
            // The clue the loop would check next if this one stays is checked at the same time,
            // against the same clues, on the other core. Its answer is used only when this clue
            // does stay: then the one-by-one loop would have asked the very same question, so
            // the result is the same on any number of cores.
            let next = order[i..]
                .iter()
                .position(|p| clues.contains(p))
                .and_then(|k| {
                    let j = i + k;
                    let rest = drop_clue(&clues, order[j])?;
                    let easy = by_propagation && deduction.open_cells(&rest).is_empty();
                    (!easy).then_some((j, rest))
                });
            let (answer, next_answer) = match &next {
                Some((j, rest)) => {
                    let (a, b) = rayon::join(|| check(&without, pos), || check(rest, order[*j]));
                    (a?, Some(b?))
                }
                None => (check(&without, pos)?, None),
            };
            match answer {
                Removal::Unique(_) => {
                    clues = without;
                    continue; // the next clue is asked again, against fewer clues
                }
                Removal::Needed(_) => needed.push(pos),
                Removal::Undecided => still.push(pos),
            }
            if let (Some((j, rest)), Some(answer)) = (next, next_answer) {
                match answer {
                    Removal::Unique(_) => clues = rest,
                    Removal::Needed(_) => needed.push(order[j]),
                    Removal::Undecided => still.push(order[j]),
                }
                i = j + 1;
            }
        }
        undecided = still;
        if undecided.is_empty() || options.budget.is_none() || options.deadline.passed() {
            break;
        }
        order = undecided.clone();
    }
    if options.deadline.passed() {
        undecided = clues
            .iter()
            .copied()
            .filter(|p| !needed.contains(p))
            .collect();
    }
    report_asked(
        options,
        needed.len() + start - clues.len(),
        start,
        clues.len(),
    );
    Ok((clues, undecided))
}

/// [`Minimizer::Cores`]: every clue of `order` asked of one [`ClueOracle`]; an UNSAT answer
/// keeps only its core. Returns the clues and the undecided ones.
fn with_cores(
    solution: &Grid,
    options: &GenerateOptions,
    mut clues: Vec<Pos>,
    mut order: Vec<Pos>,
    stop: &Arc<AtomicBool>,
) -> Result<(Vec<Pos>, Vec<Pos>), GenerateError> {
    let puzzle = clue_free_puzzle(solution, &options.fleet);
    let placements = Placements::new(&puzzle);
    let mut oracle = ClueOracle::new(solution, &puzzle, &placements, options, &clues);
    oracle.solver.set_interrupt(Some(stop.clone()));
    let start = clues.len();
    let mut needed: Vec<Pos> = Vec::new();
    let mut undecided: Vec<Pos> = Vec::new();
    for _round in 0..2 {
        let mut still = Vec::new();
        for &pos in &order {
            if options.deadline.passed() {
                break;
            }
            report_asked(
                options,
                needed.len() + start - clues.len(),
                start,
                clues.len(),
            );
            if needed.contains(&pos) {
                continue;
            }
            let Some(rest) = drop_clue(&clues, pos) else {
                continue; // already dropped, here or with a core
            };
            match oracle.check(&rest, pos)? {
                // Every needed clue is in every unique subset, so in the core too.
                Removal::Unique(core) => clues = core,
                Removal::Needed(_) => needed.push(pos),
                Removal::Undecided => still.push(pos),
            }
        }
        undecided = still;
        if undecided.is_empty() || options.budget.is_none() || options.deadline.passed() {
            break;
        }
        order = undecided.clone();
    }
    undecided.retain(|p| clues.contains(p));
    if options.deadline.passed() {
        undecided = clues
            .iter()
            .copied()
            .filter(|p| !needed.contains(p))
            .collect();
    }
    report_asked(
        options,
        needed.len() + start - clues.len(),
        start,
        clues.len(),
    );
    Ok((clues, undecided))
}

/// `clues` without `pos`, or `None` when `pos` is not among them.
fn drop_clue(clues: &[Pos], pos: Pos) -> Option<Vec<Pos>> {
    let i = clues.iter().position(|&p| p == pos)?;
    let mut rest = clues.to_vec();
    rest.remove(i);
    Some(rest)
}

/// A set of clue positions from which unit propagation (with failed-literal probing to `depth`)
/// decides every cell, and such that removing any one of them leaves a cell undecided. Clues are revealed at
/// random among the undecided cells, then dropped in random order. No SAT search is needed:
/// deduction that decides every cell proves the solution unique. Returned sorted.
pub fn deduction_minimal_clues(
    solution: &Grid,
    fleet: &Fleet,
    card: CardKind,
    depth: usize,
    rng: &mut ChaCha8Rng,
) -> Vec<Pos> {
    let mut oracle = DeductionOracle::new(solution, fleet, card, depth);
    deduction_minimal_with(&mut oracle, solution, rng)
}

/// [`deduction_minimal_clues`] with an oracle loaded for `solution`, which it leaves as it found
/// it (nothing revealed).
fn deduction_minimal_with(
    oracle: &mut DeductionOracle,
    solution: &Grid,
    rng: &mut ChaCha8Rng,
) -> Vec<Pos> {
    let root = oracle.prop.mark();
    let mut clues: Vec<Pos> = Vec::new();
    loop {
        // The clues so far stay revealed: each round only propagates the new ones.
        let open = oracle.open_cells(&[]);
        if open.is_empty() {
            break;
        }
        // Reveal an open cell, a ship part when one is open (it tells more than water).
        let ships: Vec<Pos> = open
            .iter()
            .copied()
            .filter(|&p| solution.is_ship(p))
            .collect();
        let from = if ships.is_empty() { &open } else { &ships };
        let pos = from[rng.random_range(0..from.len())];
        oracle.reveal(pos);
        clues.push(pos);
    }
    oracle.undo(root);
    // Deletion in random order: at step i the clues are those kept so far plus order[i+1..].
    // The not-yet-tried clues are revealed last-first, so that dropping order[i+1] for the next
    // step is an undo; only the kept clues are propagated again at each step. Deduction is a
    // closure, so the result equals checking each set from scratch.
    let mut order = clues.clone();
    order.shuffle(rng);
    let mut marks = vec![root; order.len()];
    for i in (1..order.len()).rev() {
        marks[i] = oracle.reveal(order[i]);
    }
    let mut kept: Vec<Pos> = Vec::new();
    for i in 0..order.len() {
        if !oracle.open_cells(&kept).is_empty() {
            kept.push(order[i]);
        }
        if i + 1 < order.len() {
            oracle.undo(marks[i + 1]);
        }
    }
    oracle.undo(root);
    let mut clues = kept;
    clues.sort();
    clues
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_passed_deadline_stops_a_graded_search() {
        let options = GenerateOptions::new(Size { rows: 8, cols: 8 });
        let past = Some(std::time::Instant::now());
        let result =
            generate_graded_until(&options, Some(Grade::Fiendish), &mut rng_for(1, 0), past);
        assert!(
            matches!(result, Err(GenerateError::TimeLimit { tries: 1, .. })),
            "{result:?}"
        );
    }

    #[test]
    fn fleet_specs() {
        assert_eq!(parse_fleet("4,3,2,1").unwrap(), Fleet::standard());
        assert_eq!(parse_fleet("1x4,2x3,3x2,4x1").unwrap(), Fleet::standard());
        assert_eq!(parse_fleet("4x1, 1X4 ,3x2,2x3").unwrap(), Fleet::standard());
        assert_eq!(parse_fleet("0,0,1").unwrap().count(3), 1);
        assert!(parse_fleet("").is_err());
        assert!(parse_fleet("0,0").is_err());
        assert!(parse_fleet("1x0").is_err());
        assert!(parse_fleet("a,b").is_err());
        assert!(parse_fleet("2x").is_err());
    }

    #[test]
    fn sizes() {
        assert_eq!(
            "10x12".parse::<Size>().unwrap(),
            Size { rows: 10, cols: 12 }
        );
        assert_eq!("7".parse::<Size>().unwrap(), Size { rows: 7, cols: 7 });
        assert!("0x3".parse::<Size>().is_err());
        assert!("x".parse::<Size>().is_err());
    }

    #[test]
    fn default_fleets_fit_their_boards() {
        assert_eq!(
            default_fleet(Size { rows: 10, cols: 10 }),
            Fleet::standard()
        );
        for n in [3, 5, 8, 10, 15, 20, 30, 50] {
            let size = Size { rows: n, cols: n };
            let fleet = default_fleet(size);
            assert!(fleet.total_cells() <= (n * n / 5).max(1), "{n}: {fleet}");
            assert!(fleet.max_len() <= n);
            let ships = random_ships(size, &fleet, &mut rng_for(1, 0)).unwrap();
            assert_eq!(ships.len(), fleet.total_ships());
        }
    }

    #[test]
    fn an_impossible_fleet_is_an_error() {
        let size = Size { rows: 3, cols: 3 };
        let fleet = parse_fleet("1x4").unwrap();
        assert!(matches!(
            random_ships(size, &fleet, &mut rng_for(0, 0)),
            Err(GenerateError::FleetDoesNotFit { .. })
        ));
    }
}
