//! Command-line options of the puzzle-author commands: `generate`, `grade`, `hint` and
//! `render`. The work behind them lives in `crate::app`.

use super::choice::{choice, name};
use bimaru_sat::Fleet;
use bimaru_sat::usecase::CardKind;
use bimaru_sat::usecase::Format;
use bimaru_sat::usecase::SolverKind;
use bimaru_sat::usecase::generate::{Minimizer, Reduce, Size, parse_fleet};
use bimaru_sat::usecase::grade::Grade;
use clap::Args;
use std::path::PathBuf;

/// Options of `generate`.
#[derive(Debug, Clone, Args)]
pub struct GenerateArgs {
    /// Make the puzzle from this file's solution instead of a random fleet: the board, fleet
    /// and counts are the file's, and its clues are kept (locked). Clues of the solution are
    /// added to them as `--reduce` needs, and every clue added is needed for it (with `--reduce
    /// unique`: removing any added clue gives a second solution); the given clues are never
    /// removed, even when the others would do without them. A file without a solution is solved
    /// first: no solution exits 1, several exit 3. A ship-part clue of unknown kind is kept as
    /// the solution's piece. Not with --size, --fleet or --grade.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["size", "fleet", "grade"])]
    pub from: Option<PathBuf>,

    /// Format of the --from file.
    #[arg(long, value_parser = choice::<Format>(), default_value = name(Format::Auto), requires = "from", value_name = "FORMAT")]
    pub format: Format,

    /// Board size, ROWSxCOLS.
    #[arg(
        long,
        default_value = "10x10",
        value_name = "RxC",
        allow_hyphen_values = true
    )]
    pub size: Size,

    /// Fleet: counts by length from submarines up (`4,3,2,1`) or COUNTxLENGTH items
    /// (`1x4,2x3,3x2,4x1`). Default: the standard fleet on 10x10, scaled to larger boards.
    #[arg(long, value_name = "SPEC", value_parser = parse_fleet)]
    pub fleet: Option<Fleet>,

    /// Random seed; the same seed and options give byte-identical output.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,

    /// Number of puzzles (a progress bar is shown on a terminal).
    #[arg(long, default_value_t = 1, value_name = "K", value_parser = super::at_least_one::<usize>)]
    pub count: usize,

    /// Make puzzles of this grade: easy, medium and hard clue sets are built for the grade's
    /// own deduction (docs/grading.md), fiendish ones from water clues reduced while the native
    /// search proves the rest unique; a puzzle off the grade is drawn again. With `--reduce
    /// unique`, every grade is drawn as exactly minimal puzzles until one has the grade.
    #[arg(long, value_parser = choice::<Grade>(), value_name = "G")]
    pub grade: Option<Grade>,

    /// Output format: json (any size and fleet, solution included) or ist (10x10 with the
    /// standard fleet only).
    #[arg(long, value_parser = choice::<Format>(), default_value = name(Format::Json), value_name = "FORMAT")]
    pub to: Format,

    /// Write one file per puzzle into this folder (001.json, or 001.txt and its solution
    /// 001.out for ist) instead of printing them all to standard output. All or nothing: the
    /// files are made in a temporary folder beside it, which then takes its place (or, when the
    /// folder has other files, gives it its files). Several ist puzzles need this folder.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,

    /// How far to remove clues: `deduction` (the default: the solver's own rules decide every
    /// cell, so the solution is unique and needs no guessing, and removing any clue leaves a
    /// cell they cannot decide; seconds even at 100x100), `unique` (removing any clue gives a
    /// second solution; exactly minimal, found by SAT searches, slow on large boards),
    /// `propagation` (removing any clue leaves a cell that unit propagation of the CNF cannot
    /// decide: easy puzzles) or `look-ahead` (the same with one-step look-ahead; medium
    /// puzzles, slow on large boards).
    #[arg(long, value_parser = choice::<Reduce>(), default_value = name(Reduce::Deduction))]
    pub reduce: Reduce,

    /// Cardinality encoding of the propagation formula that picks the starting clues (and
    /// decides `--reduce propagation` and `look-ahead`).
    #[arg(long, value_parser = choice::<CardKind>(), default_value = name(CardKind::Seq))]
    pub card: CardKind,

    /// How `--reduce unique` finds the needed clues: `one-by-one` (a fresh check of each clue
    /// on what pre-solving of the others leaves; fastest) or `cores` (one incremental solver;
    /// an UNSAT answer's failed-assumption core can drop several clues at once). Both give an
    /// exactly minimal set.
    #[arg(long, value_parser = choice::<Minimizer>(), default_value = name(Minimizer::OneByOne))]
    pub minimizer: Minimizer,

    /// SAT solver of the uniqueness checks (default: cadical, or varisat in a build without the
    /// cargo feature `cadical`).
    #[arg(long, value_parser = choice::<SolverKind>(), default_value = name(SolverKind::strongest()))]
    pub solver: SolverKind,

    /// Let the SAT step of one uniqueness check of `--reduce unique` take at most N conflicts (0:
    /// no limit, the default; the native search before it always has its node budget). A clue whose check runs out stays, and is reported on standard error as
    /// undecided, so the set may not be minimal: a speed-for-minimality trade on large boards.
    #[arg(long, value_name = "N")]
    pub max_conflicts: Option<u64>,

    /// Give up after this many seconds. With `--reduce unique` the puzzle under way stops
    /// with the clues it has (always unique) and the clues not yet proven needed are counted
    /// on standard error and in the JSON field `unproven`; the other reductions exit 4 with no
    /// puzzle, so that what they print never depends on the machine's speed. Positive, at most
    /// 31536000 (one year).
    #[arg(long, value_name = "SECONDS", value_parser = super::parse_seconds, allow_hyphen_values = true)]
    pub time_limit: Option<f64>,

    /// Print on standard error how the uniqueness questions of `--reduce unique` were settled
    /// (pre-solving, the native search, the SAT solver), their answers, the solver's conflicts
    /// and the slowest questions.
    #[arg(long)]
    pub stats: bool,
}

/// Options of `grade`.
#[derive(Debug, Clone, Args)]
pub struct GradeArgs {
    /// Puzzle file; standard input when `-`.
    pub puzzle: PathBuf,

    /// Input format.
    #[arg(long, value_parser = choice::<Format>(), default_value = name(Format::Auto))]
    pub format: Format,

    /// Give up after this many seconds (exit 4), reading and parsing included. Positive, at
    /// most 31536000 (one year).
    #[arg(long, value_name = "SECONDS", value_parser = super::parse_seconds, allow_hyphen_values = true)]
    pub time_limit: Option<f64>,
}

/// Options of `hint`.
#[derive(Debug, Clone, Args)]
pub struct HintArgs {
    /// Puzzle file; standard input when `-`.
    pub puzzle: PathBuf,

    /// Input format.
    #[arg(long, value_parser = choice::<Format>(), default_value = name(Format::Auto))]
    pub format: Format,

    /// The cells filled so far: one line per row, `?` open, `.` or `w` water, `s` a ship part
    /// of unknown kind, `c t b l r m` pieces (case does not matter).
    #[arg(long, value_name = "PARTIAL")]
    pub state: Option<PathBuf>,

    /// Write the state with the hinted cell filled in to this file (may be the --state file).
    #[arg(long, value_name = "FILE")]
    pub state_out: Option<PathBuf>,

    /// Give up after this many seconds (exit 4), reading and parsing included. Positive, at
    /// most 31536000 (one year).
    #[arg(long, value_name = "SECONDS", value_parser = super::parse_seconds, allow_hyphen_values = true)]
    pub time_limit: Option<f64>,
}

/// Options of `render`.
#[derive(Debug, Clone, Args)]
pub struct RenderArgs {
    /// Puzzle file; standard input when `-`.
    pub puzzle: PathBuf,

    /// Input format.
    #[arg(long, value_parser = choice::<Format>(), default_value = name(Format::Auto))]
    pub format: Format,

    /// Draw the solution too (solved with the SAT engine).
    #[arg(long)]
    pub solve: bool,

    /// Where to write the SVG picture.
    #[arg(long, value_name = "FILE")]
    pub svg: PathBuf,
}
