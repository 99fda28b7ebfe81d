//! The command line, as clap derive types. `--help` is the user's first manual, so every flag
//! carries a doc comment. The work behind each command lives in [`crate::app`].

use bimaru_sat::usecase::CardKind;
use bimaru_sat::usecase::Dialect;
use bimaru_sat::usecase::Implied;
use bimaru_sat::usecase::Model;
use bimaru_sat::usecase::SolverKind;
use bimaru_sat::usecase::advise::report::{AdviseOutput, SimulateOutput};
use bimaru_sat::usecase::advise::salvo::MAX_SALVO;
use bimaru_sat::usecase::proof::{DEFAULT_CONFIG, ProofFormat};
use bimaru_sat::usecase::solve::Backend;
use bimaru_sat::usecase::{Format, OutputFormat};
use bimaru_sat::usecase::{IlpCut, IlpModel, IlpObjective, IlpSolver};
use choice::{choice, name};
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

mod author;
mod choice;
mod parse;
pub use author::{GenerateArgs, GradeArgs, HintArgs, RenderArgs};

/// The longest `--time-limit` taken, in seconds: one year. A longer limit is refused rather
/// than silently capped (it is almost certainly a typing slip).
pub const MAX_TIME_LIMIT: f64 = 365.0 * 24.0 * 3600.0;

/// Reads `--time-limit SECONDS`: a positive, finite number of seconds up to [`MAX_TIME_LIMIT`].
pub fn parse_seconds(text: &str) -> Result<f64, String> {
    let seconds: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a number of seconds"))?;
    if !seconds.is_finite() || seconds <= 0.0 {
        return Err(format!(
            "the time limit must be a positive, finite number of seconds, not `{text}`"
        ));
    }
    if seconds > MAX_TIME_LIMIT {
        return Err(format!(
            "a time limit above one year ({MAX_TIME_LIMIT} s) is refused; leave --time-limit out for none"
        ));
    }
    Ok(seconds)
}

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

    /// Refuse boards of more than N cells (rows x columns) with exit 2 (`serve`: with 422,
    /// besides its own cap of 50x50). The default keeps every board it allows solvable in
    /// reasonable memory (docs/reliability.md).
    #[arg(long, global = true, value_name = "N", default_value_t = bimaru_sat::usecase::MAX_CELLS)]
    pub max_cells: usize,

    /// Refuse puzzles whose model would have more than about N variables (cells, the
    /// placements the counts leave, and counters; the solvers' memory grows with them) with
    /// exit 2 (`serve`: with 422).
    #[arg(long, global = true, value_name = "N", default_value_t = bimaru_sat::usecase::MAX_MODEL_SIZE)]
    pub max_model_size: usize,
}

impl Cli {
    /// The input limits the flags ask for.
    pub fn limits(&self) -> bimaru_sat::Limits {
        bimaru_sat::Limits::default()
            .with_max_cells(self.max_cells)
            .with_max_model_size(self.max_model_size)
    }
}

/// A count flag's parser: a whole number of at least 1 (0 is a usage error, exit 2).
pub fn at_least_one<T: std::str::FromStr + PartialOrd + From<u8>>(text: &str) -> Result<T, String> {
    match text.parse::<T>() {
        Ok(n) if n >= T::from(1) => Ok(n),
        _ => Err("expected a whole number of at least 1".to_string()),
    }
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
    /// Advise the next shot in the two-player game, from Rowan 2013 contest input.
    Advise(AdviseArgs),
    /// Play the two-player game against itself and report shot statistics.
    Simulate(SimulateArgs),
    /// Read an external SAT solver's answer to a formula written by --emit-dimacs (or, with
    /// `--backend ilp`, a CBC or glpsol answer to an --emit-lp file), check it against the
    /// puzzle and print the grid in the puzzle's format. Exit 1 when the solver answered UNSAT,
    /// 2 when the answer is malformed or belongs to another puzzle.
    Decode(DecodeArgs),
    /// Run every backend, model and encoding on puzzles; tabulate times and sizes; check they agree.
    Compare(CompareArgs),
    /// Generate puzzles with a unique solution and a minimal set of clues.
    Generate(GenerateArgs),
    /// Grade a puzzle: easy, medium, hard or fiendish (see docs/grading.md).
    Grade(GradeArgs),
    /// Name one cell whose content is forced, and say which rule forces it.
    Hint(HintArgs),
    /// Draw a puzzle (and its solution) as an SVG picture.
    Render(RenderArgs),
    /// Serve the web page and its JSON API on this machine (see docs/web.md).
    ///
    /// The page plays, checks, hints, solves, grades, generates and shares puzzles, and
    /// /battleship plays Battleship against the computer; the API answers POST /api/solve,
    /// unique, hint, grade, generate, convert and render in the schema of `--to json`, and
    /// /api/advise the next Battleship shot. Runs until interrupted.
    Serve(ServeArgs),
    /// Print a shell completion script (`bimaru-sat completions bash >
    /// ~/.local/share/bash-completion/completions/bimaru-sat`).
    Completions(CompletionsArgs),
    /// Print the manual page, in roff, of bimaru-sat or of one command (`bimaru-sat man | man
    /// -l -`, or `bimaru-sat man > bimaru-sat.1`).
    Man(ManArgs),
    /// Check a certificate written by --proof: re-derive the formula from PUZZLE, check that
    /// FILE.cnf equals it clause for clause and that every solution it blocks solves the
    /// puzzle, then check the DRAT proof FILE (text or binary) with a checker that shares no
    /// code with the solver. Exit 0 certified, 1 rejected (the message names the failed step),
    /// 2 unreadable input.
    CheckProof(CheckProofArgs),
}

/// Options of the check-proof command.
#[derive(Debug, Clone, Args)]
pub struct CheckProofArgs {
    /// The puzzle the certificate claims something about. In a file of several boards (Rubin),
    /// the board whose fingerprint the formula's header names.
    pub puzzle: PathBuf,

    /// The DRAT proof written by --proof FILE (or batch --proof-dir).
    pub proof: PathBuf,

    /// The refuted formula; by default FILE.cnf, beside the proof.
    #[arg(long, value_name = "CNF")]
    pub cnf: Option<PathBuf>,

    /// Puzzle format.
    #[arg(long, value_parser = choice::<Format>(), default_value = name(Format::Auto))]
    pub format: Format,

    /// Give up after this many seconds (positive, at most 31536000, one year): neither
    /// certified nor rejected, exit 4.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds, allow_hyphen_values = true)]
    pub time_limit: Option<f64>,
}

/// Options of the completions command.
#[derive(Debug, Clone, Args)]
pub struct CompletionsArgs {
    /// The shell the script is for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// Options of the man command.
#[derive(Debug, Clone, Args)]
pub struct ManArgs {
    /// A command (`batch`, `decode`, ...) whose page to print instead (bimaru-sat-COMMAND(1)).
    pub command: Option<String>,
}

/// Options of the serve command.
#[derive(Debug, Clone, Args)]
pub struct ServeArgs {
    /// Port to listen on (0: any free port; the address is printed on standard output).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,

    /// Address to listen on. The default answers this machine only; another address (0.0.0.0
    /// for every interface) lets the network in, so give it deliberately.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1")]
    pub bind: std::net::IpAddr,

    /// Open the page in the system browser (through `xdg-open`, or `open` on macOS).
    #[arg(long)]
    pub open: bool,

    /// Solves, hints, grades and generations run at once; further requests wait (at most the
    /// time limit, then 429). Default: the number of cores.
    #[arg(long, value_name = "N")]
    pub max_solves: Option<std::num::NonZeroUsize>,

    /// Give up on one request's work after this many seconds (422 with status `timeout`);
    /// positive, at most 31536000 (one year).
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0, value_parser = parse_seconds, allow_hyphen_values = true)]
    pub time_limit: f64,

    /// Close a connection that has not sent a whole request head (the request line and its
    /// headers) within this many seconds, an idle kept-alive one included.
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0, value_parser = parse_seconds, allow_hyphen_values = true)]
    pub head_timeout: f64,

    /// Answer 408 and close the connection when a request body has not fully arrived this many
    /// seconds after its head.
    #[arg(long, value_name = "SECONDS", default_value_t = 30.0, value_parser = parse_seconds, allow_hyphen_values = true)]
    pub body_timeout: f64,

    /// Connections open at once; further clients wait in the system's queue until one closes.
    /// Keep it under the descriptor limit (`ulimit -n`).
    #[arg(long, value_name = "N", default_value = "512")]
    pub max_connections: std::num::NonZeroUsize,

    /// Also answer requests whose Host header names HOST (repeatable). By default only the
    /// listen address, localhost, 127.0.0.1 and [::1] are answered, others get 403, so that a
    /// web page elsewhere cannot drive the server through a rebound DNS name.
    #[arg(long, value_name = "HOST")]
    pub allow_host: Vec<String>,

    /// Puzzles kept ready for each size of the page's menu (6x6 to 30x30) and each grade (any,
    /// easy, medium, hard, fiendish), so that a new puzzle asked for without a seed comes at
    /// once; 0 turns the pool off. One background thread makes them, the cheap ones first, at
    /// the lowest priority, starting none while a request is in flight; a slow kind (a 20x20
    /// fiendish takes minutes) is ready later.
    #[arg(long, value_name = "N", default_value_t = 3, value_parser = clap::value_parser!(u16).range(0..=100))]
    pub pool: u16,
}

/// Options of the batch command.
#[derive(Debug, Clone, Args)]
pub struct BatchArgs {
    /// Puzzle files and directories (every file directly inside a directory; files whose
    /// format cannot be detected there are skipped).
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,

    /// Input format of every file.
    #[arg(long, value_parser = choice::<Format>(), default_value = name(Format::Auto))]
    pub format: Format,

    /// Give up on a board after this many seconds (positive, at most 31536000, one year): its
    /// result has status `timeout` (with the solutions found so far, when counting), and the
    /// batch goes on with the next board (exit 4 at the end).
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds, allow_hyphen_values = true)]
    pub time_limit: Option<f64>,

    /// How to solve.
    #[command(flatten)]
    pub engine: EngineArgs,

    /// With --unique (or --count): certify every board that has no solution, a unique one or a
    /// complete count, and write its formula and DRAT proof into DIR (created if missing; the
    /// files appear together when the batch ends) as `NAME.drat.cnf` and `NAME.drat`. NAME is
    /// the file's name, then `-` and the board's ID for a board of a Rubin file. Each pair is
    /// checked as check-proof would before it counts as certified; the summary says how many
    /// were.
    #[arg(long, id = "proof_target", value_name = "DIR")]
    pub proof_dir: Option<PathBuf>,

    /// How proofs are written.
    #[command(flatten)]
    pub proof: ProofArgs,
}

/// How --proof and --proof-dir write a certificate.
#[derive(Debug, Clone, Args)]
pub struct ProofArgs {
    /// The DRAT flavour of the proof: text (one clause a line) or binary.
    #[arg(long, value_parser = choice::<ProofFormat>(), default_value = name(ProofFormat::Text), requires = "proof_target")]
    pub proof_format: ProofFormat,

    /// The CNF model of the refuted formula. It is independent of --encoding, which steers the
    /// search for the solutions.
    #[arg(long, value_parser = choice::<Model>(), default_value = name(DEFAULT_CONFIG.model), requires = "proof_target")]
    pub proof_encoding: Model,

    /// The cardinality encoding of the refuted formula, independent of --card. Totalizers make
    /// the whole encoding fastest to refute (docs/benchmarks.md).
    #[arg(long, value_parser = choice::<CardKind>(), default_value = name(DEFAULT_CONFIG.card), requires = "proof_target")]
    pub proof_card: CardKind,

    /// The SAT solver that refutes the formula and writes the proof, independent of --solver:
    /// by default the strongest this build links (CaDiCaL; varisat in a pure-Rust build).
    #[arg(long, value_parser = choice::<SolverKind>(), default_value = name(SolverKind::strongest()), requires = "proof_target")]
    pub proof_solver: SolverKind,
}

/// Options of the convert command.
#[derive(Debug, Clone, Args)]
pub struct ConvertArgs {
    /// Puzzle file; standard input when absent or `-`.
    pub input: Option<PathBuf>,

    /// Where to write the puzzle; standard output when absent or `-`.
    pub output: Option<PathBuf>,

    /// Input format.
    #[arg(long, value_parser = choice::<Format>(), default_value = name(Format::Auto))]
    pub format: Format,

    /// Output format (`pretty` draws solutions only and is refused here).
    #[arg(long, value_parser = choice::<OutputFormat>())]
    pub to: OutputFormat,

    /// Cell alphabet for CSC384 output (default: the input's, else symbols).
    #[arg(long, value_parser = choice::<Dialect>())]
    pub cells: Option<Dialect>,
}

/// Options of the decode command.
#[derive(Debug, Clone, Args)]
pub struct DecodeArgs {
    /// The puzzle the formula was written for.
    pub puzzle: PathBuf,

    /// The solver's answer (`-` for standard input): SAT-competition output (`s SATISFIABLE`,
    /// `v ... 0`, as from CaDiCaL, Kissat, CryptoMiniSat, picosat) or MiniSat's result file
    /// (`SAT`/`UNSAT`, then the literals).
    pub model: PathBuf,

    /// The DIMACS file the solver was given: the model, card encoding and puzzle fingerprint
    /// recorded in its header are used (and checked against the puzzle). Without it the formula
    /// is rebuilt as --encoding and --card say (default cell and seq), so a formula written with
    /// `--encoding placement` or another --card needs this file, or those flags again.
    #[arg(long, value_name = "FILE")]
    pub cnf: Option<PathBuf>,

    /// CNF model the formula was written with (default: from --cnf, else cell).
    #[arg(long, value_parser = choice::<Model>())]
    pub encoding: Option<Model>,

    /// Cardinality encoding the formula was written with (default: from --cnf, else seq).
    #[arg(long, value_parser = choice::<CardKind>())]
    pub card: Option<CardKind>,

    /// Puzzle format.
    #[arg(long, value_parser = choice::<Format>(), default_value = name(Format::Auto))]
    pub format: Format,

    /// Where to write the grid; standard output when absent or `-`.
    #[arg(long, short)]
    pub output: Option<PathBuf>,

    /// Which kind of formula the answer belongs to: `sat` (DIMACS) or `ilp` (an LP file from
    /// --emit-lp, answered by `cbc FILE solve solu SOL` or `glpsol --lp FILE -o SOL`).
    #[arg(long, value_parser = choice::<Backend>(), default_value = name(Backend::Sat))]
    pub backend: Backend,

    /// The integer program that was exported (`--backend ilp`); by default read from the
    /// variable names.
    #[arg(long, value_parser = choice::<IlpModel>())]
    pub ilp_model: Option<IlpModel>,
}

/// How to solve: backend, encoding, and how many solutions to look for. Shared by the solve
/// and batch commands.
#[derive(Debug, Clone, Args)]
pub struct EngineArgs {
    /// Solving backend.
    #[arg(long, value_parser = choice::<Backend>(), default_value = name(Backend::Sat))]
    pub backend: Backend,

    /// Cardinality encoding for row, column and fleet counts (SAT backend).
    #[arg(long, value_parser = choice::<CardKind>(), default_value = name(CardKind::Seq))]
    pub card: CardKind,

    /// CNF model (SAT backend): `cell` ties cell variables to placement variables; `placement`
    /// has one variable per legal placement, with cells derived from them.
    #[arg(long, value_parser = choice::<Model>(), default_value = name(Model::Cell))]
    pub encoding: Model,

    /// Count solutions up to N: solve prints each one found, then a `solutions:` line; batch
    /// lists them in `grids`.
    #[arg(long, value_name = "N", conflicts_with = "unique", value_parser = at_least_one::<usize>)]
    pub count: Option<usize>,

    /// Prove the solution unique; exit 3 if it is not (solve then prints nothing on stdout).
    #[arg(long)]
    pub unique: bool,

    /// Skip the pre-solving rules and the native search, and hand the whole encoding to the
    /// solver.
    #[arg(long)]
    pub no_presolve: bool,

    /// SAT backend: add these redundant constraints (comma-separated) to the encoding. Each is
    /// implied by the puzzle's rules (`encodings/redundant.md`); none is on by default, as none
    /// paid in our measurements.
    #[arg(long, value_parser = choice::<Implied>(), value_delimiter = ',', value_name = "KIND")]
    pub redundant: Vec<Implied>,

    /// Print variables, clauses, conflicts and times to stderr (batch: add them to each JSON
    /// result).
    #[arg(long)]
    pub stats: bool,

    /// SAT backend: use the chosen --encoding, --card and --solver for every call. By default,
    /// a call that needs more than 2000 conflicts of the chosen configuration (on boards of 400
    /// cells or more, any call the native search leaves open) is a hard question and goes to
    /// the specialist (CaDiCaL in stable mode on the placement model with totalizers, the
    /// pre-solved formula first, then the whole encoding); the output does not depend on timing.
    #[arg(long)]
    pub no_race: bool,

    /// SAT backend: threads for a hard question (default: the machine's logical cores). The
    /// specialist leads on one; the others search the same question in other configurations,
    /// with the short clauses the specialist learns (after a grid found by the native search on
    /// a large board, the first is the chosen configuration), and answer only a fact (no
    /// solution left, or exactly one), so the grids printed are the same with any N. On boards
    /// of 400 cells or more, the native search also goes on past its budget, as one more such
    /// member, while the last of the others waits. N is at most 1024; more than the machine's
    /// cores runs one thread a core (with a note).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=bimaru_sat::usecase::MAX_THREADS as i64))]
    pub threads: Option<u16>,

    /// Integer program for `--backend ilp`: one variable per ship placement, or per cell.
    #[arg(long, value_parser = choice::<IlpModel>(), default_value = name(IlpModel::Ship))]
    pub ilp_model: IlpModel,

    /// MIP solver for `--backend ilp`; highs and cbc need the cargo features `highs`/`coin_cbc`.
    #[arg(long, value_parser = choice::<IlpSolver>(), default_value = name(IlpSolver::Microlp))]
    pub ilp_solver: IlpSolver,

    /// ILP backend: add these valid inequalities (comma-separated) to the integer program. Each
    /// is implied by the rules; none is on by default (`encodings/ilp-ship.md`: the argument and
    /// the measurements of each).
    #[arg(long, value_parser = choice::<IlpCut>(), value_delimiter = ',', value_name = "KIND")]
    pub ilp_cuts: Vec<IlpCut>,

    /// ILP backend: the objective handed to the MIP solver, a branching device (the programs
    /// have no objective of their own).
    #[arg(long, value_parser = choice::<IlpObjective>(), default_value = name(IlpObjective::Auto))]
    pub ilp_objective: IlpObjective,

    /// SAT solver of the chosen configuration for `--backend sat` (hard questions also go to
    /// CaDiCaL unless --no-race); cadical needs the cargo feature `cadical`, on by default.
    #[arg(long, value_parser = choice::<SolverKind>(), default_value = name(SolverKind::Varisat))]
    pub solver: SolverKind,
}

/// Options of the solve command.
#[derive(Debug, Clone, Args)]
#[command(group = clap::ArgGroup::new("emit").args(["emit_dimacs", "emit_lp"]).multiple(true))]
pub struct SolveArgs {
    /// Puzzle file; standard input when absent or `-`.
    pub input: Option<PathBuf>,

    /// Where to write the solution; standard output when absent or `-`. The file is written
    /// whole through a temporary file, or not at all, and not when there is no solution. Only a
    /// regular file is replaced (a symbolic link is followed), never an input of the run.
    pub output: Option<PathBuf>,

    /// Input format.
    #[arg(long, value_parser = choice::<Format>(), default_value = name(Format::Auto))]
    pub format: Format,

    /// How to solve.
    #[command(flatten)]
    pub engine: EngineArgs,

    /// Write the CNF formula in DIMACS to FILE (`-` for standard output), then solve (not with
    /// --emit-only). Its header names the tool version, model, cardinality encoding, board and
    /// fleet, and `c var` lines say which variable is which cell or placement. The same puzzle
    /// and flags give the same file.
    #[arg(long, value_name = "FILE")]
    pub emit_dimacs: Option<PathBuf>,

    /// With --emit-dimacs or --emit-lp: write the formula or program and stop, without solving.
    #[arg(long, requires = "emit", conflicts_with_all = ["exclude_solution", "count", "unique"])]
    pub emit_only: bool,

    /// With --emit-dimacs: solve, then add to the formula the clause that blocks the solution
    /// found; an external solver answering UNSAT proves that solution unique.
    #[arg(long, requires = "emit_dimacs")]
    pub exclude_solution: bool,

    /// Certify the answer: write the formula that was refuted to FILE.cnf and a DRAT proof of
    /// its unsatisfiability to FILE. With --unique the formula is the whole encoding plus the
    /// clause that blocks the solution found; with --count N, when the count is complete, it
    /// blocks every solution; on "no solution" it is the whole encoding. Check the pair with
    /// `bimaru-sat check-proof PUZZLE FILE`, drat-trim or rate (see docs/proofs.md).
    #[arg(long, id = "proof_target", value_name = "FILE")]
    pub proof: Option<PathBuf>,

    /// How the proof is written.
    #[command(flatten)]
    pub proof_args: ProofArgs,

    /// With --unique: solve again with the cell model, the placement model (SAT) and the ILP
    /// ship model (HiGHS when the build links it, else microlp), each within
    /// --cross-check-budget, and exit 1 naming the configuration if one disagrees on the
    /// verdict or the grid. A leg that does not answer in time is reported as unconfirmed,
    /// never as agreeing; it fails the check only with --strict.
    #[arg(long, requires = "unique")]
    pub cross_check: bool,

    /// With --cross-check: the time each leg may take.
    #[arg(long, value_name = "SECONDS", requires = "cross_check", default_value_t = 10.0, value_parser = parse_seconds, allow_hyphen_values = true)]
    pub cross_check_budget: f64,

    /// With --cross-check: exit 1 when a leg is unconfirmed, as when one disagrees.
    #[arg(long, requires = "cross_check")]
    pub strict: bool,

    /// Give up after this many seconds (exit 4), counted from the start: reading, parsing,
    /// pre-solving, encoding and solving all stop. Positive, at most 31536000 (one year). With
    /// --count, the solutions found so far are printed and the count is a lower bound.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds, allow_hyphen_values = true)]
    pub time_limit: Option<f64>,

    /// Output format; by default the input's (Rubin boards are drawn with their tallies,
    /// solbat `.dzn` solutions as the MiniZinc model prints them).
    #[arg(long, value_parser = choice::<OutputFormat>())]
    pub to: Option<OutputFormat>,

    /// Cell alphabet for CSC384 output: letters `S W L R T B M` or symbols `S . < > ^ v M`
    /// (default: the input's, else symbols).
    #[arg(long, value_parser = choice::<Dialect>())]
    pub cells: Option<Dialect>,

    /// Write the `--ilp-model` integer program to FILE in CPLEX LP format (`-` for standard
    /// output), then solve (not with --emit-only); cbc, glpsol and HiGHS read it.
    #[arg(long, value_name = "FILE")]
    pub emit_lp: Option<PathBuf>,
}

/// Options of the compare command.
#[derive(Debug, Clone, Args)]
pub struct CompareArgs {
    /// Puzzle files, or folders whose files with a `--ext` extension are all read. A file of
    /// several boards (Rubin) contributes every board.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,

    /// Take only the first N puzzles (after expanding files and folders).
    #[arg(long, value_name = "N", value_parser = at_least_one::<usize>)]
    pub first: Option<usize>,

    /// Extensions of the puzzle files taken from folders.
    #[arg(long, value_delimiter = ',', default_value = "txt,json")]
    pub ext: Vec<String>,

    /// Input format of every puzzle.
    #[arg(long, value_parser = choice::<Format>(), default_value = name(Format::Auto))]
    pub format: Format,

    /// Backends to run (comma-separated); all by default.
    #[arg(long, value_parser = choice::<Backend>(), value_delimiter = ',')]
    pub backend: Vec<Backend>,

    /// CNF models for the SAT backend; all by default.
    #[arg(long, value_parser = choice::<Model>(), value_delimiter = ',')]
    pub encoding: Vec<Model>,

    /// Cardinality encodings for the SAT backend; all by default.
    #[arg(long, value_parser = choice::<CardKind>(), value_delimiter = ',')]
    pub card: Vec<CardKind>,

    /// Integer programs for the ILP backend; all by default.
    #[arg(long, value_parser = choice::<IlpModel>(), value_delimiter = ',')]
    pub ilp_model: Vec<IlpModel>,

    /// MIP solvers for the ILP backend; all that this build links by default.
    #[arg(long, value_parser = choice::<IlpSolver>(), value_delimiter = ',')]
    pub ilp_solver: Vec<IlpSolver>,

    /// Valid inequalities (comma-separated) added to every ILP configuration's program
    /// (`encodings/ilp-ship.md`); none by default.
    #[arg(long, value_parser = choice::<IlpCut>(), value_delimiter = ',', value_name = "KIND")]
    pub ilp_cuts: Vec<IlpCut>,

    /// The objective of every ILP configuration's solver calls.
    #[arg(long, value_parser = choice::<IlpObjective>(), default_value = name(IlpObjective::Auto))]
    pub ilp_objective: IlpObjective,

    /// SAT solvers for the SAT backend; all that this build links by default.
    #[arg(long, value_parser = choice::<SolverKind>(), value_delimiter = ',')]
    pub solver: Vec<SolverKind>,

    /// Solutions to look for per puzzle: 2 proves uniqueness, 1 only finds one.
    #[arg(long, default_value_t = 2, value_parser = at_least_one::<usize>)]
    pub limit: usize,

    /// Skip the pre-solving rules and the native search (SAT) and the root presolve (ILP) in
    /// every configuration.
    #[arg(long)]
    pub no_presolve: bool,

    /// Runs per puzzle and configuration; the median time is kept. With --time-limit, the
    /// repeats stop once the run's share is spent (the JSON's `repeats` says how many ran).
    #[arg(long, default_value_t = 1, value_parser = at_least_one::<usize>)]
    pub repeat: usize,

    /// Finish the whole comparison within this many seconds (positive, at most 31536000, one
    /// year). Each run (one configuration on one puzzle, all its repeats together) gets an
    /// equal share of the time left; a run whose first repeat is cut short has the verdict
    /// `timeout`, which is neither solved nor agreement (exit 1), and the comparison goes on
    /// with the next run.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds, allow_hyphen_values = true)]
    pub time_limit: Option<f64>,

    /// Print the results as JSON instead of tables.
    #[arg(long)]
    pub json: bool,
}

/// Options of the advise command.
#[derive(Debug, Clone, Args)]
pub struct AdviseArgs {
    /// Contest input (data-set count, then ship count, letters and 10 rows per data set);
    /// standard input when absent or `-`.
    pub input: Option<PathBuf>,

    /// Give each square's probability of holding a ship instead of the contest's count.
    #[arg(long)]
    pub posterior: bool,

    /// Ships may not touch, not even at a corner (with --posterior; the default lets ships
    /// touch, as in the board game).
    #[arg(long, requires = "posterior")]
    pub no_touch: bool,

    /// How the probabilities are computed (with --posterior): exact enumeration, sampling, or
    /// exact when the estimated work is small.
    #[arg(long, value_parser = choice::<bimaru_sat::usecase::advise::posterior::PosteriorMethod>(), default_value = name(bimaru_sat::usecase::advise::posterior::PosteriorMethod::Auto), requires = "posterior")]
    pub method: bimaru_sat::usecase::advise::posterior::PosteriorMethod,

    /// Number of fleet configurations to sample when sampling.
    #[arg(long, default_value_t = 1_000_000, requires = "posterior", value_parser = at_least_one::<u64>)]
    pub samples: u64,

    /// Seed of the sampler.
    #[arg(long, default_value_t = 1, requires = "posterior")]
    pub seed: u64,

    /// Seconds the posterior may take for all data sets together (positive, at most 31536000, one year),
    /// shared out among them: auto counts exactly only when its estimated work fits, and
    /// otherwise samples until the limit; sampling stops at the limit with what it drew
    /// (the output says how many); exact counting that runs out of time exits 4.
    #[arg(long, value_name = "SECONDS", default_value_t = 4.0, value_parser = parse_seconds, allow_hyphen_values = true, requires = "posterior")]
    pub time_limit: f64,

    /// Answer a salvo of K squares (1 to 10, at most the untouched ones) for each data set, in
    /// order: the contest's rule picks each (the first tied square) given the earlier missed.
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(1..=MAX_SALVO as u64), conflicts_with = "posterior")]
    pub salvo: Option<u64>,

    /// Output form.
    #[arg(long, value_parser = choice::<AdviseOutput>(), default_value = name(AdviseOutput::Text))]
    pub to: AdviseOutput,
}

/// Options of the simulate command.
#[derive(Debug, Clone, Args)]
pub struct SimulateArgs {
    /// The shooting strategy.
    #[arg(long, value_parser = choice::<bimaru_sat::usecase::advise::simulate::Strategy>(), default_value = name(bimaru_sat::usecase::advise::simulate::Strategy::Rowan))]
    pub strategy: bimaru_sat::usecase::advise::simulate::Strategy,

    /// Number of games (at most 1000000000).
    #[arg(long, default_value_t = 10_000, value_parser = at_least_one::<u64>)]
    pub games: u64,

    /// Master seed; game i uses stream i of a ChaCha8 generator seeded with it.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,

    /// Hidden fleets whose ships do not touch (the posterior strategy assumes the same).
    #[arg(long)]
    pub no_touch: bool,

    /// Largest estimated work (abstract operations) the posterior strategy spends on an exact
    /// posterior for one shot; above it, it shoots by placement density.
    #[arg(long, default_value_t = 2e5)]
    pub exact_budget: f64,

    /// Output form.
    #[arg(long, value_parser = choice::<SimulateOutput>(), default_value = name(SimulateOutput::Text))]
    pub to: SimulateOutput,

    /// Give up after this many seconds (positive, at most 31536000, one year): nothing is
    /// printed, a line on stderr says how many games were played, and the exit code is 4.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds, allow_hyphen_values = true)]
    pub time_limit: Option<f64>,

    /// Salvo variant: K shots a turn (5 when K is left out, at most 10), each picked given that
    /// the earlier ones missed, the results told together; the report counts turns.
    #[arg(long, value_name = "K", num_args = 0..=1, default_missing_value = "5", value_parser = clap::value_parser!(u64).range(1..=MAX_SALVO as u64))]
    pub salvo: Option<u64>,
}
