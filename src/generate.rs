//! The puzzle generator: a random legal fleet, its row and column counts, then clues revealed
//! until the SAT solver proves the solution unique, then every clue removed whose removal keeps
//! it unique. One incremental varisat solver holds the clue-free formula with the known solution
//! blocked; each clue is an assumption, so adding or dropping one never rebuilds the formula.

use crate::grade::{Grade, deduction_depth};
use crate::placement::{Placements, halo};
use crate::puzzle::{Clue, Fleet, Grid, Orientation, Pos, Puzzle, Ship};
use crate::sat::card::CardKind;
use crate::sat::cell::{self, CellEncoding};
use crate::sat::clue;
use crate::sat::propagate::{Mark, Propagator};
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeSet;
use varisat::{CnfFormula, ExtendFormula, Lit, Solver, Var};

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
    /// Cardinality encoding of the uniqueness solver.
    pub card: CardKind,
    /// How far clues are removed.
    pub reduce: Reduce,
}

impl GenerateOptions {
    /// Options for `size` with its default fleet.
    pub fn new(size: Size) -> Self {
        GenerateOptions {
            size,
            fleet: default_fleet(size),
            card: CardKind::default(),
            reduce: Reduce::default(),
        }
    }
}

/// A generated puzzle and its (unique) solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generated {
    /// The puzzle: counts, fleet and a minimal set of clues.
    pub puzzle: Puzzle,
    /// Its only solution.
    pub solution: Grid,
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
    let (rows, cols) = (size.rows, size.cols);
    let mut lengths: Vec<usize> = fleet
        .classes()
        .flat_map(|c| std::iter::repeat_n(c.len, c.count))
        .collect();
    lengths.sort_unstable_by(|a, b| b.cmp(a));
    let mut candidates: Vec<Ship> = Vec::new();
    'tries: for _ in 0..TRIES {
        // blocked[i]: the cell holds a ship or touches one.
        let mut blocked = vec![false; rows * cols];
        let mut ships = Vec::with_capacity(lengths.len());
        for &len in &lengths {
            candidates.clear();
            let orientations: &[Orientation] = if len == 1 {
                &[Orientation::Horizontal]
            } else {
                &[Orientation::Horizontal, Orientation::Vertical]
            };
            for &orientation in orientations {
                let (max_r, max_c) = match orientation {
                    Orientation::Horizontal => (rows, (cols + 1).saturating_sub(len)),
                    Orientation::Vertical => ((rows + 1).saturating_sub(len), cols),
                };
                for r in 0..max_r {
                    for c in 0..max_c {
                        let ship = Ship {
                            start: Pos::new(r, c),
                            len,
                            orientation,
                        };
                        if ship.cells().all(|p| !blocked[p.row * cols + p.col]) {
                            candidates.push(ship);
                        }
                    }
                }
            }
            if candidates.is_empty() {
                continue 'tries;
            }
            let ship = candidates[rng.random_range(0..candidates.len())];
            for p in ship.cells().chain(halo(ship, rows, cols)) {
                blocked[p.row * cols + p.col] = true;
            }
            ships.push(ship);
        }
        ships.sort();
        return Ok(ships);
    }
    Err(GenerateError::FleetDoesNotFit {
        fleet: fleet.to_string(),
        rows,
        cols,
        tries: TRIES,
    })
}

/// The puzzle a grid defines with no clues: its row and column counts and `fleet`.
pub fn clue_free_puzzle(grid: &Grid, fleet: &Fleet) -> Puzzle {
    let row_counts = (0..grid.rows()).map(|r| Some(grid.row_total(r))).collect();
    let col_counts = (0..grid.cols()).map(|c| Some(grid.col_total(c))).collect();
    Puzzle::new(row_counts, col_counts, fleet.clone()).expect("a grid has at least one cell")
}

/// An incremental uniqueness oracle for one solution: a varisat solver holding the clue-free
/// formula and a clause blocking the solution. Each cell's clue (the solution's piece there) is
/// guarded by a selector variable, so a clue set is a set of assumptions.
pub struct UniquenessOracle {
    solver: Solver<'static>,
    encoding: CellEncoding,
    solution: Grid,
    selectors: Vec<Option<Lit>>,
    violations: Vec<Option<Lit>>,
    /// Solver calls made so far.
    pub calls: usize,
}

/// The answer of [`UniquenessOracle::check`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Check {
    /// The clues leave only the solution; the given subset of them (an unsatisfiable core)
    /// already does.
    Unique(Vec<Pos>),
    /// Another solution exists; these cells differ from the known solution in it.
    Other(Vec<Pos>),
}

impl UniquenessOracle {
    /// Loads the clue-free puzzle of `solution` into a solver and blocks `solution`.
    pub fn new(solution: &Grid, fleet: &Fleet, card: CardKind) -> Self {
        let puzzle = clue_free_puzzle(solution, fleet);
        let placements = Placements::new(&puzzle);
        let mut solver = Solver::new();
        let encoding = cell::encode(&puzzle, &placements, card, &mut solver);
        let block: Vec<Lit> = puzzle
            .positions()
            .filter(|&p| solution.is_ship(p))
            .map(|p| encoding.cell(p, solution.cols()).negative())
            .collect();
        solver.add_clause(&block);
        UniquenessOracle {
            solver,
            encoding,
            solution: solution.clone(),
            selectors: vec![None; solution.rows() * solution.cols()],
            violations: vec![None; solution.rows() * solution.cols()],
            calls: 0,
        }
    }

    fn selector(&mut self, pos: Pos) -> Lit {
        let (rows, cols) = (self.solution.rows(), self.solution.cols());
        let index = pos.row * cols + pos.col;
        if let Some(s) = self.selectors[index] {
            return s;
        }
        let s = self.solver.new_lit();
        let clue = Clue::Piece(self.solution.get(pos));
        let cells = &self.encoding.cells;
        for mut c in clue::clauses(pos, clue, rows, cols, |p| {
            cells[p.row * cols + p.col].positive()
        }) {
            c.push(!s);
            self.solver.add_clause(&c);
        }
        self.selectors[index] = Some(s);
        s
    }

    /// Whether the solution's pieces at `clues` leave the solution as the only one.
    pub fn check(&mut self, clues: &[Pos]) -> Result<Check, GenerateError> {
        let assumptions: Vec<Lit> = clues.iter().map(|&p| self.selector(p)).collect();
        if self.solve(&assumptions)? {
            return Ok(Check::Other(self.differing()?));
        }
        let core = self.failed_core();
        let kept = clues
            .iter()
            .zip(&assumptions)
            .filter(|(_, s)| core.contains(s))
            .map(|(p, _)| *p)
            .collect();
        Ok(Check::Unique(kept))
    }

    /// The assumptions of the last UNSAT call that its refutation used.
    fn failed_core(&self) -> BTreeSet<Lit> {
        self.solver
            .failed_core()
            .map(|c| c.iter().copied().collect())
            .unwrap_or_default()
    }

    fn solve(&mut self, assumptions: &[Lit]) -> Result<bool, GenerateError> {
        self.solver.assume(assumptions);
        self.calls += 1;
        self.solver
            .solve()
            .map_err(|e| GenerateError::Solver(e.to_string()))
    }

    fn differing(&self) -> Result<Vec<Pos>, GenerateError> {
        let model = self
            .solver
            .model()
            .ok_or_else(|| GenerateError::Solver("SAT without a model".into()))?;
        let cols = self.solution.cols();
        Ok((0..self.solution.rows() * cols)
            .map(|i| Pos::new(i / cols, i % cols))
            .filter(|&p| {
                let var = self.encoding.cells[p.row * cols + p.col];
                let ship = model.get(var.index()).is_some_and(|l| l.is_positive());
                ship != self.solution.is_ship(p)
            })
            .collect())
    }

    /// Whether `rest` (a unique clue set less the clue at `removed`) still leaves the solution
    /// as the only one. Any other solution of `rest` must break the removed clue, that is differ
    /// from the known solution at `removed` or one of its neighbours; that is added as an
    /// assumption, which focuses the search there.
    pub fn check_without(&mut self, rest: &[Pos], removed: Pos) -> Result<Check, GenerateError> {
        let broken = self.violation(removed);
        let mut assumptions: Vec<Lit> = rest.iter().map(|&p| self.selector(p)).collect();
        assumptions.push(broken);
        if self.solve(&assumptions)? {
            return Ok(Check::Other(self.differing()?));
        }
        let core = self.failed_core();
        if core.contains(&broken) {
            // Unique only given that the full set was: no shrinking.
            return Ok(Check::Unique(rest.to_vec()));
        }
        let kept = rest
            .iter()
            .zip(&assumptions)
            .filter(|(_, s)| core.contains(s))
            .map(|(p, _)| *p)
            .collect();
        Ok(Check::Unique(kept))
    }

    /// A literal that, when true, makes the solution's piece at `pos` wrong: the cell, or for a
    /// ship piece one of its four neighbours, differs from the known solution.
    fn violation(&mut self, pos: Pos) -> Lit {
        let (rows, cols) = (self.solution.rows(), self.solution.cols());
        let index = pos.row * cols + pos.col;
        if let Some(v) = self.violations[index] {
            return v;
        }
        let v = self.solver.new_lit();
        let differs =
            |p: Pos| self.encoding.cells[p.row * cols + p.col].lit(!self.solution.is_ship(p));
        let mut clause = vec![!v, differs(pos)];
        if self.solution.is_ship(pos) {
            clause.extend(
                crate::puzzle::Dir::ALL
                    .into_iter()
                    .filter_map(|d| pos.step(d, rows, cols))
                    .map(differs),
            );
        }
        self.solver.add_clause(&clause);
        self.violations[index] = Some(v);
        v
    }
}

/// Generates one puzzle with a unique solution and a minimal clue set from `rng`.
pub fn generate(
    options: &GenerateOptions,
    rng: &mut ChaCha8Rng,
) -> Result<Generated, GenerateError> {
    let ships = random_ships(options.size, &options.fleet, rng)?;
    let solution = Grid::from_ships(options.size.rows, options.size.cols, &ships);
    let clues = match options.reduce {
        Reduce::Unique => unique_minimal_clues(&solution, &options.fleet, options.card, rng)?,
        Reduce::Propagation => {
            deduction_minimal_clues(&solution, &options.fleet, options.card, 0, rng)
        }
        Reduce::LookAhead => {
            deduction_minimal_clues(&solution, &options.fleet, options.card, 1, rng)
        }
    };
    let mut puzzle = clue_free_puzzle(&solution, &options.fleet);
    for pos in clues {
        puzzle
            .add_clue(pos, Clue::Piece(solution.get(pos)))
            .expect("clue positions lie on the board");
    }
    Ok(Generated { puzzle, solution })
}

/// Boards up to this many cells start with no clues; larger ones with a random share.
const SMALL_BOARD: usize = 144;
/// The share of cells revealed at the start on large boards, in percent.
const INITIAL_PERCENT: usize = 20;

/// Tries per puzzle before [`generate_graded`] gives up.
pub const GRADE_TRIES: usize = 2000;

/// Generates puzzles from `rng` until one has grade `grade` (any puzzle when `None`).
pub fn generate_graded(
    options: &GenerateOptions,
    grade: Option<Grade>,
    rng: &mut ChaCha8Rng,
) -> Result<Generated, GenerateError> {
    let Some(want) = grade else {
        return generate(options, rng);
    };
    for _ in 0..GRADE_TRIES {
        let generated = generate(options, rng)?;
        if deduction_depth(&generated.puzzle).grade == want {
            return Ok(generated);
        }
    }
    Err(GenerateError::NoPuzzleOfGrade {
        grade: want,
        tries: GRADE_TRIES,
    })
}

/// How far the generator removes clues.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, clap::ValueEnum)]
#[non_exhaustive]
pub enum Reduce {
    /// Minimal for uniqueness: removing any clue gives a second solution (proved by the SAT
    /// solver). The default.
    #[default]
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
    cols: usize,
}

impl DeductionOracle {
    /// Loads the clue-free puzzle of `solution`; `depth` 0 is unit propagation alone, 1 adds
    /// failed-literal probing.
    pub fn new(solution: &Grid, fleet: &Fleet, card: CardKind, depth: usize) -> Self {
        let (rows, cols) = (solution.rows(), solution.cols());
        let puzzle = clue_free_puzzle(solution, fleet);
        let placements = Placements::new(&puzzle);
        let mut formula = CnfFormula::new();
        let encoding = cell::encode(&puzzle, &placements, card, &mut formula);
        let x = |p: Pos| encoding.cells[p.row * cols + p.col].positive();
        let mut selectors = Vec::with_capacity(rows * cols);
        for pos in puzzle.positions() {
            let s = formula.new_lit();
            for mut c in clue::clauses(pos, Clue::Piece(solution.get(pos)), rows, cols, x) {
                c.push(!s);
                formula.add_clause(&c);
            }
            selectors.push(s);
        }
        let mut prop = Propagator::new(&formula);
        // The solution satisfies the formula, so the root cannot conflict.
        let _ = prop.propagate_root();
        DeductionOracle {
            prop,
            depth,
            cells: encoding.cells,
            selectors,
            cols,
        }
    }

    /// The cells that deduction leaves open when `clues` are revealed (empty: the clues decide
    /// the whole board, so the solution is unique).
    pub fn open_cells(&mut self, clues: &[Pos]) -> Vec<Pos> {
        let mark = self.prop.mark();
        let mut ok = clues.iter().all(|p| {
            self.prop
                .assume(self.selectors[p.row * self.cols + p.col])
                .is_ok()
        });
        ok = ok && (self.depth == 0 || self.prop.probe_fixpoint(&self.cells, self.depth).is_ok());
        let open = if ok {
            self.cells
                .iter()
                .enumerate()
                .filter(|(_, v)| self.prop.var_value(**v).is_none())
                .map(|(i, _)| Pos::new(i / self.cols, i % self.cols))
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
        let _ = self
            .prop
            .assume(self.selectors[pos.row * self.cols + pos.col]);
        mark
    }

    /// Takes back what was revealed since `mark`.
    pub fn undo(&mut self, mark: Mark) {
        self.prop.undo(mark);
    }
}

/// A minimal set of clue positions (revealing the solution's pieces) that makes `solution` the
/// only solution of its clue-free puzzle: clues are added where a second solution differs, then
/// each clue, in random order, is dropped when the rest still prove uniqueness (first tried by
/// deduction, then by the SAT solver). Returned sorted.
pub fn unique_minimal_clues(
    solution: &Grid,
    fleet: &Fleet,
    card: CardKind,
    rng: &mut ChaCha8Rng,
) -> Result<Vec<Pos>, GenerateError> {
    let mut oracle = UniquenessOracle::new(solution, fleet, card);
    let mut deduction = DeductionOracle::new(solution, fleet, card, 0);
    let (rows, cols) = (solution.rows(), solution.cols());
    // Start from a random share of the cells on large boards: with few clues a search for a
    // second solution of the whole board is slow, with many it is quick.
    let mut cells: Vec<Pos> = (0..rows * cols)
        .map(|i| Pos::new(i / cols, i % cols))
        .collect();
    cells.shuffle(rng);
    let start = if rows * cols > SMALL_BOARD {
        rows * cols * INITIAL_PERCENT / 100
    } else {
        0
    };
    let mut clues: Vec<Pos> = cells[..start].to_vec();
    // Reveal cells until unique; keep only the core that proved it.
    loop {
        match oracle.check(&clues)? {
            Check::Other(differ) => {
                let pick = differ
                    .get(rng.random_range(0..differ.len().max(1)))
                    .copied()
                    .ok_or_else(|| {
                        GenerateError::Solver("a second solution equal to the first".into())
                    })?;
                clues.push(pick);
            }
            Check::Unique(core) => {
                clues = core;
                break;
            }
        }
    }
    // Drop every clue that is not needed.
    let mut order = clues.clone();
    order.shuffle(rng);
    for pos in order {
        let Some(i) = clues.iter().position(|&p| p == pos) else {
            continue; // already dropped with a core
        };
        let mut without = clues.clone();
        without.remove(i);
        if deduction.open_cells(&without).is_empty() {
            clues = without;
        } else if let Check::Unique(core) = oracle.check_without(&without, pos)? {
            clues = core;
        }
    }
    clues.sort();
    Ok(clues)
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
