//! The command line, as clap derive types. `--help` is the user's first manual, so every flag
//! carries a doc comment. The work behind each command lives in [`crate::app`].

use crate::format::csc384::Dialect;
use crate::format::{Format, OutputFormat};
use crate::sat::card::CardKind;
use crate::solve::Backend;
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

/// Solve Battleship-solitaire (Bimaru) puzzles through SAT.
///
/// With no command, reads a puzzle (a file, or standard input when INPUT is absent or `-`),
/// solves it, checks the grid with an independent verifier and prints it in the puzzle's own
/// format. Exit codes: 0 solved, 1 no solution, 2 bad input or usage, 3 not unique (with
/// --unique), 4 time limit, 70 internal error.
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
    /// Solve several files or every file of a directory: one JSON result per board and line on
    /// standard output, a summary on standard error.
    Batch(BatchArgs),
    /// Rewrite a puzzle in another format (no solving).
    Convert(ConvertArgs),
}

/// Options of the batch command.
#[derive(Debug, Clone, Args)]
pub struct BatchArgs {
    /// Puzzle files and directories (every file directly inside a directory; files whose
    /// format cannot be detected there are skipped).
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,

    /// Input format of every file.
    #[arg(long, value_enum, default_value_t = Format::Auto)]
    pub format: Format,

    /// Solving backend.
    #[arg(long, value_enum, default_value_t = Backend::Sat)]
    pub backend: Backend,

    /// Cardinality encoding for row, column and fleet counts (SAT backend).
    #[arg(long, value_enum, default_value_t = CardKind::Seq)]
    pub card: CardKind,

    /// Count solutions up to N and list them all in `grids`.
    #[arg(long, value_name = "N", conflicts_with = "unique")]
    pub count: Option<usize>,

    /// Prove each solution unique (exit 3 when some board is not).
    #[arg(long)]
    pub unique: bool,

    /// Count conflicts in the statistics (slower).
    #[arg(long)]
    pub stats: bool,
}

/// Options of the convert command.
#[derive(Debug, Clone, Args)]
pub struct ConvertArgs {
    /// Puzzle file; standard input when absent or `-`.
    pub input: Option<PathBuf>,

    /// Where to write the puzzle; standard output when absent or `-`.
    pub output: Option<PathBuf>,

    /// Input format.
    #[arg(long, value_enum, default_value_t = Format::Auto)]
    pub format: Format,

    /// Output format (`pretty` draws solutions only and is refused here).
    #[arg(long, value_enum)]
    pub to: OutputFormat,

    /// Cell alphabet for CSC384 output (default: the input's, else symbols).
    #[arg(long, value_enum)]
    pub cells: Option<Dialect>,
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

    /// Give up after this many seconds (exit 4).
    #[arg(long, value_name = "SECONDS")]
    pub time_limit: Option<f64>,

    /// Skip the pre-solving rules and hand the whole encoding to the solver.
    #[arg(long)]
    pub no_presolve: bool,

    /// Print variables, clauses, conflicts and times to stderr.
    #[arg(long)]
    pub stats: bool,

    /// Output format; by default the input's (Rubin boards are drawn with their tallies,
    /// solbat `.dzn` solutions as the MiniZinc model prints them).
    #[arg(long, value_enum)]
    pub to: Option<OutputFormat>,

    /// Cell alphabet for CSC384 output: letters `S W L R T B M` or symbols `S . < > ^ v M`
    /// (default: the input's, else symbols).
    #[arg(long, value_enum)]
    pub cells: Option<Dialect>,
}
