//! The command line, as clap derive types. `--help` is the user's first manual, so every flag
//! carries a doc comment. The work behind each command lives in [`crate::app`].

use crate::format::Format;
use crate::sat::card::CardKind;
use crate::solve::Backend;
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

mod author;
pub use author::{GenerateArgs, GradeArgs, HintArgs, RenderArgs};

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
    /// Generate puzzles with a unique solution and a minimal set of clues.
    Generate(GenerateArgs),
    /// Grade a puzzle: easy, medium, hard or fiendish (see docs/grading.md).
    Grade(GradeArgs),
    /// Name one cell whose content is forced, and say which rule forces it.
    Hint(HintArgs),
    /// Draw a puzzle (and its solution) as an SVG picture.
    Render(RenderArgs),
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
}
