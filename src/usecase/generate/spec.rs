//! What the generator is asked ([`GenerateOptions`]: size, fleet, reduction, grade steering,
//! progress, deadline) and what it answers ([`Generated`], [`GenerateError`]), the `--size` and
//! `--fleet` specs, and the clue-free puzzle of a grid.

use crate::encode::sat::card::CardKind;
use crate::encode::sat::engine::Configuration;
use crate::encode::sat::model::Model;
use crate::model::choice::choice;
use crate::model::deadline::Budget;
use crate::model::puzzle::{Fleet, Grid, Pos, Puzzle};
use crate::model::verify::Violation;
use crate::solver::{Mode, SolverError, SolverKind, Tuning};
use crate::usecase::grade::Grade;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

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
    /// A grade that no puzzle of this size has with the default fleet, as far as the generator
    /// has searched (`absent_grade`): told before any puzzle is drawn.
    #[error(
        "no {rows}x{cols} puzzle of grade {grade} exists with the default fleet (none in 600,000 \
         draws: two-step look-ahead decides every one); choose another fleet or a larger board"
    )]
    GradeAbsent {
        /// The grade asked for.
        grade: Grade,
        /// Board rows.
        rows: usize,
        /// Board columns.
        cols: usize,
    },
    /// The embedded solver failed; its error is the source.
    #[error("solver failure: {0}")]
    Solver(#[from] SolverError),
    /// The generator's own reasoning disagreed with itself: a bug, never the puzzle's fault.
    #[error("solver failure: {0}")]
    Inconsistent(Inconsistency),
    /// The time limit came before the clue set was made (`--reduce deduction`, `propagation`
    /// and `look-ahead`; `unique` stops with the clues it has instead).
    #[error("time limit reached before the clue set was made")]
    OutOfTime,
    /// The board's formula for a CNF-deduction reduction (`propagation`, `look-ahead`, the
    /// grades) would pass the clause cap that keeps its memory under about 1 GB.
    #[error(
        "the board is too large for a reduction by CNF deduction: its formula would have more \
         than {max} clauses (the `deduction` reduction builds no formula)"
    )]
    TooLarge {
        /// The clause cap.
        max: usize,
    },
    /// The solution given to make a puzzle of breaks a rule of the puzzle it came with.
    #[error("the solution breaks the puzzle it came with: {0}")]
    BrokenSolution(Violation),
    /// The puzzle given to make a puzzle from has no solution (and carries none).
    #[error("the puzzle has no solution, so there is none to make a puzzle from")]
    GivenUnsat,
    /// The puzzle given to make a puzzle from has several solutions (and carries none).
    #[error(
        "the puzzle has several solutions, so there is no one solution to make a puzzle from; add clues or its solution"
    )]
    GivenNotUnique,
    /// A grade was asked of a puzzle made from a given solution: the grade is steered by
    /// drawing new solutions.
    #[error(
        "a puzzle made from a given solution cannot be steered to a grade (a grade is reached by drawing new solutions)"
    )]
    GradeOfGiven,
    /// The deadline passed before a puzzle of the wanted grade turned up.
    #[error("no puzzle of grade {grade} before the time limit ({tries} tries)")]
    TimeLimit {
        /// The grade asked for.
        grade: Grade,
        /// Puzzles drawn.
        tries: usize,
    },
}

/// How the generator's own reasoning disagreed with itself ([`GenerateError::Inconsistent`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Inconsistency {
    /// Pre-solving found the clues of a solution contradictory.
    #[error("pre-solving refuted clues taken from a solution")]
    RefutedSolution,
    /// A second solution the solver found broke the rules.
    #[error("a second solution failed verification")]
    UnverifiedSecond,
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

/// Whether no puzzle of `size` with `fleet` has `grade`, as far as the generator has searched:
/// a 6x6 board with its default fleet is never fiendish (none in 200 seeds of 2,000 draws, nor
/// among exactly minimal puzzles in 400 seeds of 2,000 draws; docs/web.md).
pub(crate) fn absent_grade(size: Size, fleet: &Fleet, grade: Grade) -> bool {
    const ABSENT: [(usize, usize, Grade); 1] = [(6, 6, Grade::Fiendish)];
    ABSENT.contains(&(size.rows, size.cols, grade)) && *fleet == default_fleet(size)
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
    /// How [`Reduce::Unique`] decides which clues are needed.
    pub minimizer: Minimizer,
    /// The CNF model and cardinality encoding of the uniqueness checks.
    pub check: Configuration,
    /// The SAT solver of the uniqueness checks.
    pub solver: SolverKind,
    /// Where the generation stands, updated as it goes for a progress display (none when
    /// `None`).
    pub progress: Option<Arc<GenerateProgress>>,
    /// What the generation may spend. At its deadline (or its stop flag) [`Reduce::Unique`]
    /// keeps the clues it has (always unique) and reports those not yet proven needed in
    /// [`Generated::undecided`]; the other reductions give up with
    /// [`GenerateError::OutOfTime`], so that what they print never depends on speed. Its
    /// `conflicts` bound the SAT step of each uniqueness check of [`Reduce::Unique`] (the native
    /// search before it has its own node budget): a clue whose check runs out stays and is
    /// reported; none (the default) makes the clue set exactly minimal.
    pub budget: Budget,
}

/// The phases of one generation, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Drawing a legal fleet at random.
    Placing,
    /// Revealing clues until deduction decides every cell, then dropping the ones it does not
    /// need.
    Revealing,
    /// Asking of each clue whether the others keep the solution unique.
    Minimizing,
}

/// Where a generation stands, written by the generator and read from any thread (a progress
/// bar polls it): the phase, and in [`Phase::Minimizing`] how many clues are settled (proven
/// needed or removed) out of the starting set, and how many clues are left. Made with
/// [`GenerateProgress::recording_questions`], it also keeps a record of every uniqueness
/// question [`Reduce::Unique`] asks ([`GenerateProgress::questions`]), of every puzzle made
/// with it.
#[derive(Debug, Default)]
pub struct GenerateProgress {
    pub(super) phase: AtomicUsize,
    pub(super) asked: AtomicUsize,
    pub(super) to_ask: AtomicUsize,
    pub(super) clues: AtomicUsize,
    /// `None` unless questions are recorded.
    questions: Option<Mutex<Vec<Question>>>,
}

/// What settled a uniqueness question of [`Reduce::Unique`] (see `check_removal`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SettledBy {
    /// Pre-solving the other clues fixed the removed clue's cell and neighbours.
    PreSolving,
    /// The native search in a window around the removed clue (the rest of the board fixed).
    NativeWindow,
    /// The native search over the whole board.
    NativeWhole,
    /// The SAT solver (it ran out of its conflict budget when the answer is undecided).
    Sat,
}

/// One uniqueness question of [`Reduce::Unique`]: whether the clues less the one at `clue`
/// still leave the solution unique.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Question {
    /// The clue asked about.
    pub clue: Pos,
    /// What settled it.
    pub by: SettledBy,
    /// `Some(true)`: the clue is needed (a second solution without it); `Some(false)`: it can
    /// go; `None`: undecided (a budget or the deadline ran out).
    pub needed: Option<bool>,
    /// Conflicts of the SAT solver on it (0 when the solver was not asked).
    pub conflicts: u64,
    /// Wall time of the whole question.
    pub time: Duration,
}

impl GenerateProgress {
    /// A progress that also records every uniqueness question.
    pub fn recording_questions() -> Self {
        GenerateProgress {
            questions: Some(Mutex::default()),
            ..GenerateProgress::default()
        }
    }

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

    /// Every uniqueness question asked so far, in the order they were answered (two may run at
    /// once, on two cores; an answer the one-by-one loop did not use is listed too). Empty
    /// unless made with [`GenerateProgress::recording_questions`].
    pub fn questions(&self) -> Vec<Question> {
        self.questions.as_ref().map_or_else(Vec::new, |questions| {
            questions
                .lock()
                .map(|q| q.clone())
                .unwrap_or_else(|poisoned| poisoned.into_inner().clone())
        })
    }

    /// Records `question`, when questions are recorded.
    pub(super) fn record(&self, question: Question) {
        let Some(questions) = &self.questions else {
            return;
        };
        match questions.lock() {
            Ok(mut q) => q.push(question),
            Err(poisoned) => poisoned.into_inner().push(question),
        }
    }

    fn set_asked(&self, asked: usize, to_ask: usize, clues: usize) {
        self.asked.store(asked, Ordering::Relaxed);
        self.to_ask.store(to_ask, Ordering::Relaxed);
        self.clues.store(clues, Ordering::Relaxed);
    }
}

/// Reports `phase` to `options.progress`, if any.
pub(super) fn report(options: &GenerateOptions, phase: Phase) {
    if let Some(p) = &options.progress {
        p.set_phase(phase);
    }
}

/// Reports the minimisation's state to `options.progress`, if any.
pub(super) fn report_asked(options: &GenerateOptions, asked: usize, to_ask: usize, clues: usize) {
    if let Some(p) = &options.progress {
        p.set_asked(asked, to_ask, clues);
    }
}

/// The configuration of the generator's uniqueness checks: the placement model with
/// totalizers, about three times faster than the cell model with sequential counters on 20x20
/// boards, with the same clue sets (see `docs/benchmarks/2026-11-23-issue-13-generator.md`).
pub const CHECK_CONFIGURATION: Configuration = Configuration {
    model: Model::Placement,
    card: CardKind::Totalizer,
};

/// How the solver of a uniqueness question searches: in stable mode, which answers the exact
/// 30x30 generator's questions 2.6 times faster than CaDiCaL's default schedule (seed 7: 98 s
/// with varisat, 71 s with CaDiCaL's default, 37 s in stable mode, the same puzzle;
/// `docs/benchmarks.md`, "Generator"). varisat ignores it.
pub(crate) const QUESTION_TUNING: Tuning = Tuning {
    mode: Mode::Stable,
    seed: 0,
};

choice! {
    /// How the generator decides which clues of a unique set are needed. Both give an exactly
    /// minimal set (without a conflict budget); they may pick different ones.
    #[derive(Default)]
    #[non_exhaustive]
    pub enum Minimizer {
        /// One clue at a time, in random order: the native search first (near the clue, then over
        /// the board), then a fresh solver per question on the residual formula that pre-solving of
        /// the other clues leaves (small: most cells are decided). Questions are asked ahead on every
        /// core and settled in order. The default: fastest in our measurements.
        #[default]
        OneByOne,
        /// Core-guided: the native search first, then one incremental solver for the whole removal
        /// phase, every clue an assumption; an UNSAT answer's failed-assumption core, when it holds clues alone (no
        /// pre-solving fact, no break clause), drops every clue outside it at once.
        Cores,
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
            minimizer: Minimizer::default(),
            check: CHECK_CONFIGURATION,
            solver: SolverKind::strongest(),
            progress: None,
            budget: Budget::default(),
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
    /// [`GenerateOptions::budget`]), or the budget's deadline came first;
    /// empty when the clue set is minimal.
    pub undecided: Vec<Pos>,
}

impl Generated {
    /// The puzzle of `solution` with every count, `fleet` and the solution's pieces at `clues`.
    pub(crate) fn of(solution: Grid, fleet: &Fleet, clues: &[Pos], undecided: Vec<Pos>) -> Self {
        let mut puzzle = clue_free_puzzle(&solution, fleet);
        for &pos in clues {
            puzzle
                .add_clue(pos, crate::model::puzzle::Clue::Piece(solution.get(pos)))
                .expect("clue positions lie on the board");
        }
        Generated {
            puzzle,
            solution,
            undecided,
        }
    }
}

/// The puzzle a grid defines with no clues: its row and column counts and `fleet`.
pub fn clue_free_puzzle(grid: &Grid, fleet: &Fleet) -> Puzzle {
    let row_counts = (0..grid.rows()).map(|r| Some(grid.row_total(r))).collect();
    let col_counts = (0..grid.cols()).map(|c| Some(grid.col_total(c))).collect();
    Puzzle::new(row_counts, col_counts, fleet.clone()).expect("a grid has at least one cell")
}

choice! {
    /// How far the generator removes clues.
    #[derive(Default)]
    #[non_exhaustive]
    pub enum Reduce {
        /// Minimal for the solver's reasoning engine (the count, fleet, shape and clue rules over
        /// cells and candidate ships that pre-solving applies): those rules decide every cell, so the
        /// solution is unique and reached without guessing, and removing any clue leaves a cell
        /// they cannot decide. No formula and no search, so it is fast at every size, and the
        /// output depends only on the seed and options. The default.
        #[default]
        Deduction,
        /// Minimal for uniqueness: removing any clue gives a second solution (found by the native
        /// search or the SAT solver), starting from the `deduction` clues. Exact unless a conflict
        /// budget is given; then clues whose check ran out of it stay and are reported.
        Unique,
        /// Minimal for unit propagation: removing any clue leaves cells that propagation of the
        /// clue, count and fleet rules cannot decide. Never needs a search, but it builds the
        /// board's CNF formula, which a board of about 60x60 and more with the default fleet
        /// passes the clause cap on (it is refused then); the puzzles are easy and may keep clues
        /// that uniqueness alone does not need.
        Propagation,
        /// Minimal for one-step look-ahead: removing any clue leaves cells that propagation plus
        /// failed-literal probing cannot decide. No search, but probing is slow on large boards,
        /// and the formula has the same clause cap as `propagation`; the puzzles are at most
        /// medium.
        LookAhead,
    }
}
