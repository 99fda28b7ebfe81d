//! The command line, as clap derive types. `--help` is the user's first manual, so every flag
//! carries a doc comment. The work behind each command lives in [`crate::app`].

use crate::format::Format;
use crate::ilp::{IlpModel, IlpSolver};
use crate::sat::card::CardKind;
use crate::solve::Backend;
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

/// Solve Battleship-solitaire (Bimaru) puzzles through SAT.
///
/// With no command, reads a puzzle (a file, or standard input when INPUT is absent or `-`),
/// solves it, checks the grid with an independent verifier and prints it in the puzzle's own
/// format. Exit codes: 0 solved, 1 no solution, 2 bad input or usage, 3 not unique (with
/// --unique), 70 internal error.
#[derive(Debug, Parser)]
#[command(name = "bimaru-sat", version, args_conflicts_with_subcommands = true)]
pub struct Cli {
    /// A command other than solving.
    #[command(subcommand)]
    pub command: Option<Command>,

    /// Solving options (the default command).
    #[command(flatten)]
    pub solve: SolveArgs,
}

/// Commands other than the default solve.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Solve a puzzle (the same as giving no command).
    Solve(SolveArgs),
    /// Read an external solver's answer to an exported formula, check it, print the grid.
    Decode(DecodeArgs),
    /// Run every backend, model and encoding on puzzles; tabulate times and sizes; check they agree.
    Compare(CompareArgs),
}

/// Options of the solve command.
#[derive(Debug, Clone, Args)]
pub struct SolveArgs {
    /// Puzzle file; standard input when absent or `-`.
    pub input: Option<PathBuf>,

    /// Where to write the solution; standard output when absent or `-`. The file is written
    /// whole through a temporary file, or not at all.
    pub output: Option<PathBuf>,

    /// Input format.
    #[arg(long, value_enum, default_value_t = Format::Auto)]
    pub format: Format,

    /// Solving backend.
    #[arg(long, value_enum, default_value_t = Backend::Sat)]
    pub backend: Backend,

    /// Cardinality encoding for row, column and fleet counts (SAT backend).
    #[arg(long, value_enum, default_value_t = CardKind::Seq)]
    pub card: CardKind,

    /// Count solutions up to N: print each one found, then a `solutions:` line.
    #[arg(long, value_name = "N", conflicts_with = "unique")]
    pub count: Option<usize>,

    /// Prove the solution unique; exit 3 (printing nothing on stdout) if it is not.
    #[arg(long)]
    pub unique: bool,

    /// Print variables, clauses, conflicts and times to stderr.
    #[arg(long)]
    pub stats: bool,

    /// Integer program for `--backend ilp`: one variable per ship placement, or per cell.
    #[arg(long, value_enum, default_value_t = IlpModel::Ship)]
    pub ilp_model: IlpModel,

    /// MIP solver for `--backend ilp`; highs and cbc need the cargo features `highs`/`coin_cbc`.
    #[arg(long, value_enum, default_value_t = IlpSolver::Microlp)]
    pub ilp_solver: IlpSolver,

    /// Write the `--ilp-model` integer program to FILE in CPLEX LP format (`-` for standard
    /// output) instead of solving; cbc, glpsol and HiGHS read it.
    #[arg(long, value_name = "FILE")]
    pub emit_lp: Option<PathBuf>,
}

/// Options of the decode command.
#[derive(Debug, Clone, Args)]
pub struct DecodeArgs {
    /// The puzzle the formula was exported from.
    pub puzzle: PathBuf,

    /// The external solver's output: a CBC solution file (`cbc model.lp solve solu FILE`) or a
    /// glpsol report (`glpsol --lp model.lp -o FILE`) for `--backend ilp`.
    pub solution: PathBuf,

    /// Puzzle format.
    #[arg(long, value_enum, default_value_t = Format::Auto)]
    pub format: Format,

    /// Which kind of formula the solution answers.
    #[arg(long, value_enum, default_value_t = Backend::Sat)]
    pub backend: Backend,

    /// The integer program that was exported; by default read from the variable names.
    #[arg(long, value_enum)]
    pub ilp_model: Option<IlpModel>,
}

/// Options of the compare command.
#[derive(Debug, Clone, Args)]
pub struct CompareArgs {
    /// Puzzle files, or folders whose files with a `--ext` extension are all read.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,

    /// Extensions of the puzzle files taken from folders.
    #[arg(long, value_delimiter = ',', default_value = "txt,json")]
    pub ext: Vec<String>,

    /// Input format of every puzzle.
    #[arg(long, value_enum, default_value_t = Format::Auto)]
    pub format: Format,

    /// Backends to run (comma-separated); all by default.
    #[arg(long, value_enum, value_delimiter = ',')]
    pub backend: Vec<Backend>,

    /// Cardinality encodings for the SAT backend; all by default.
    #[arg(long, value_enum, value_delimiter = ',')]
    pub card: Vec<CardKind>,

    /// Integer programs for the ILP backend; all by default.
    #[arg(long, value_enum, value_delimiter = ',')]
    pub ilp_model: Vec<IlpModel>,

    /// MIP solvers for the ILP backend; all that this build links by default.
    #[arg(long, value_enum, value_delimiter = ',')]
    pub ilp_solver: Vec<IlpSolver>,

    /// Solutions to look for per puzzle: 2 proves uniqueness, 1 only finds one.
    #[arg(long, default_value_t = 2)]
    pub limit: usize,

    /// Runs per puzzle and configuration; the median time is kept.
    #[arg(long, default_value_t = 1)]
    pub repeat: usize,

    /// Print the results as JSON instead of tables.
    #[arg(long)]
    pub json: bool,
}
