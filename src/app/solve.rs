//! The solve command: resolve the flags into a [`SolveJob`], read and parse the input, let the
//! library solve, and write what it returns: the solution (or every board's, for a Rubin file),
//! the `--emit-dimacs` formula or the `--emit-lp` program, and the `--proof` certificate;
//! `--cross-check` asks the library for independent verdicts. Messages and the exit status
//! follow the outcomes. A folder as INPUT runs the batch command.

use super::{Exit, Failure, read_input, write_atomic, write_output};
use crate::cli::{BatchArgs, EngineArgs, ProofArgs, SolveArgs};
use bimaru_sat::compare::Config;
use bimaru_sat::format::OutputFormat;
use bimaru_sat::format::csc384::{Dialect, DialectSource};
use bimaru_sat::job::{
    Dimacs, Goal, SolveJob, Solved, Tally, board_name, by_board, require_solver,
};
use bimaru_sat::proof::{Certificate, Claim, ProofOptions, cross_check, cross_configs};
use bimaru_sat::sat::engine::Configuration;
use bimaru_sat::solve::{Backend, Engine, Outcome, Report, SolveError, SolveOptions, Stats};
use bimaru_sat::{Grid, Pos};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The engine configuration and goal the engine flags ask for (no time limit).
pub(super) fn engine(args: &EngineArgs) -> (SolveOptions, Goal) {
    let goal = match (args.count, args.unique) {
        (Some(n), _) => Goal::Count(n),
        (None, true) => Goal::Unique,
        (None, false) => Goal::First,
    };
    let options = SolveOptions {
        backend: args.backend,
        card: args.card,
        model: args.encoding,
        limit: goal.limit(),
        race: !args.no_race,
        presolve: !args.no_presolve,
        ilp_model: args.ilp_model,
        ilp_solver: args.ilp_solver,
        ..SolveOptions::default()
    };
    (options, goal)
}

/// The job the solve flags ask for.
fn job(args: &SolveArgs) -> SolveJob {
    let (options, goal) = engine(&args.engine);
    SolveJob {
        options: SolveOptions {
            time_limit: super::time_limit(args.time_limit),
            ..options.clone()
        },
        goal,
        to: args.to,
        cells: args.cells,
        dimacs: args.emit_dimacs.as_ref().map(|_| {
            if args.emit_only {
                Dimacs::Only
            } else {
                Dimacs::After {
                    exclude_solution: args.exclude_solution,
                }
            }
        }),
        proof: args
            .proof
            .as_ref()
            .map(|_| proof_options(&args.proof_args, &options)),
    }
}

/// How the proof flags and the engine's solver ask for certificates to be made.
pub(super) fn proof_options(args: &ProofArgs, options: &SolveOptions) -> ProofOptions {
    ProofOptions {
        config: Configuration {
            model: args.proof_encoding,
            card: args.proof_card,
        },
        format: args.proof_format,
        solver: options.solver,
    }
}

/// Where `--proof FILE` puts the formula: `FILE.cnf`.
pub(super) fn cnf_path(proof: &Path) -> PathBuf {
    let mut name = proof.as_os_str().to_owned();
    name.push(".cnf");
    PathBuf::from(name)
}

/// Writes a certificate to `target` (the proof) and `target.cnf` (the formula).
fn write_certificate(target: &Path, certificate: &Certificate) -> Result<(), Failure> {
    write_atomic(&cnf_path(target), &certificate.cnf)?;
    write_atomic(target, &certificate.proof)?;
    Ok(())
}

fn is_stdout(path: Option<&Path>) -> bool {
    path.is_none_or(|p| p == Path::new("-"))
}

/// Writes an exported formula or program to `target` (standard output for `-`).
fn export(target: &Path, bytes: &[u8]) -> Result<(), Failure> {
    if is_stdout(Some(target)) {
        // DIMACS and LP files are ASCII, so this never fails.
        write_output(None, &String::from_utf8_lossy(bytes))?;
    } else {
        write_atomic(target, bytes)?;
    }
    Ok(())
}

/// Runs the solve command.
pub fn run(args: &SolveArgs) -> Result<Exit, Failure> {
    if let Some(dir) = args.input.as_ref().filter(|p| p.is_dir()) {
        if args.output.is_some() || args.to.is_some_and(|t| t != OutputFormat::Json) {
            return Err(Failure::Conflict {
                first: "a directory as INPUT (batch mode, JSON lines on stdout)",
                second: "OUTPUT or --to other than json",
            });
        }
        if args.proof.is_some() || args.cross_check {
            return Err(Failure::Conflict {
                first: "a directory as INPUT (batch mode)",
                second: "--proof FILE or --cross-check (use `batch --unique --proof-dir DIR`)",
            });
        }
        return super::batch::run(&BatchArgs {
            paths: vec![dir.clone()],
            format: args.format,
            time_limit: args.time_limit,
            engine: args.engine.clone(),
            proof_dir: None,
            proof: args.proof_args.clone(),
        });
    }
    let start = Instant::now();
    let input = read_input(args.input.as_deref())?;
    let doc = input.document(args.format)?;
    let parse_time = start.elapsed();
    let job = job(args);
    // The checks `job.run` makes, made here first so that they come before the warning, the
    // LP export and the flag conflict, as they always have.
    let writer = job.writer(&doc)?;
    if let (Some(choice), OutputFormat::Csc384, None) = (doc.dialect, writer.to, args.cells)
        && choice.source == DialectSource::FleetLine
    {
        eprintln!(
            "{}: no cell shows the CSC384 dialect; writing {} as the fleet line suggests (--cells changes it)",
            input.name,
            match choice.dialect {
                Dialect::Letters => "letters",
                _ => "symbols",
            }
        );
    }
    if job.options.backend == Backend::Ilp {
        require_solver(job.options.ilp_solver)?;
    }
    if let Some(target) = args.emit_lp.as_deref() {
        let board = doc.single(&input.name)?;
        let source = args
            .input
            .as_deref()
            .map_or_else(|| "<stdin>".to_string(), |p| p.display().to_string());
        export(target, job.lp_program(&board.puzzle, &source).as_bytes())?;
        return Ok(Exit::Success);
    }
    if !by_board(&doc)
        && args
            .emit_dimacs
            .as_deref()
            .is_some_and(|t| is_stdout(Some(t)))
        && !args.emit_only
        && is_stdout(args.output.as_deref())
    {
        return Err(Failure::Conflict {
            first: "--emit-dimacs - (without --emit-only)",
            second: "a solution printed on standard output (give an OUTPUT file)",
        });
    }
    if by_board(&doc) && (args.proof.is_some() || args.cross_check) {
        return Err(Failure::Conflict {
            first: "--proof and --cross-check (one board)",
            second: "a file of several boards (use `batch --unique --proof-dir DIR`)",
        });
    }
    if args.proof.as_deref().is_some_and(|p| is_stdout(Some(p))) {
        return Err(Failure::Conflict {
            first: "--proof -",
            second: "a proof and its formula, which are two files (name the proof file)",
        });
    }
    let solved = job.run(&doc)?;
    let time_limit = |name: &str| {
        let seconds = args.time_limit.unwrap_or_default();
        eprintln!("{name}: time limit of {seconds} s reached");
        Exit::TimeLimit
    };
    let unique = job.goal == Goal::Unique;
    match solved {
        Solved::Formula(formula) => {
            if let Some(target) = args.emit_dimacs.as_deref() {
                export(target, &formula)?;
            }
            Ok(Exit::Success)
        }
        Solved::Board(one) => {
            let Some(report) = one.report else {
                return Ok(time_limit(&input.name));
            };
            if let (Some(target), Some(formula)) = (args.emit_dimacs.as_deref(), &one.formula) {
                export(target, formula)?;
            }
            if args.engine.stats {
                print_stats(&report, parse_time, start.elapsed());
            }
            if let Some(target) = args.proof.as_deref() {
                match &one.certificate {
                    Some(certificate) => {
                        write_certificate(target, certificate)?;
                        eprintln!(
                            "{}: {} certified: {} refutes {} ({} formula, {} DRAT); check it with `bimaru-sat check-proof PUZZLE {}`",
                            input.name,
                            certificate.claim,
                            target.display(),
                            cnf_path(target).display(),
                            certificate.config,
                            args.proof_args.proof_format.name(),
                            target.display()
                        );
                    }
                    None => eprintln!(
                        "{}: no proof written: {}",
                        input.name,
                        uncertified(&report.outcome)
                    ),
                }
            }
            if let Some(text) = &one.text {
                write_output(args.output.as_deref(), text)?;
            }
            if args.cross_check {
                let board = &doc.boards[0];
                let checked = cross_check(&board.puzzle, &planted(cross_configs(args.engine.card)));
                let names: Vec<&str> = checked.verdicts.iter().map(|v| v.config.as_str()).collect();
                if let Some(disagreement) = checked.disagreement() {
                    eprintln!("{}: cross-check failed: {disagreement}", input.name);
                    return Ok(Exit::Disagreement);
                }
                eprintln!("{}: cross-check: {} agree", input.name, names.join(", "));
            }
            Ok(exit_of(&report.outcome, unique, &input.name))
        }
        Solved::Boards(all) => {
            let Some(text) = &all.text else {
                // Nothing is written: no partial output.
                for (index, (board, report)) in doc.boards.iter().zip(&all.reports).enumerate() {
                    if report.is_none() {
                        time_limit(&format!("{}: {}", input.name, board_name(board, index)));
                    }
                }
                return Ok(Exit::TimeLimit);
            };
            write_output(args.output.as_deref(), text)?;
            eprintln!(
                "{}: {} boards: {}; {:.3} s",
                input.name,
                doc.boards.len(),
                all.tally.summary(),
                start.elapsed().as_secs_f64()
            );
            Ok(tally_exit(&all.tally, unique))
        }
        _ => Ok(Exit::Success),
    }
}

/// Why an outcome gets no certificate.
fn uncertified(outcome: &Outcome) -> &'static str {
    match (outcome, Claim::of_outcome(outcome)) {
        (Outcome::Found(_), _) => {
            "a solution was found but its uniqueness not examined (add --unique)"
        }
        (Outcome::Multiple { .. }, _) => {
            "several solutions, and the count is not complete (a proof certifies no solution, a unique one, or a complete --count)"
        }
        _ => "the outcome is not one a proof certifies",
    }
}

/// The environment variable that plants a faulty engine in `--cross-check`: a test hook (see
/// `tests/proofs.rs`). Its value names a configuration (as the cross-check prints it), whose
/// grids then come back mirrored left to right.
const PLANT: &str = "BIMARU_SAT_PLANT_FAULT";

/// The cross-check configurations, with the one [`PLANT`] names made faulty.
fn planted(configs: Vec<Config>) -> Vec<Config> {
    let Some(victim) = std::env::var(PLANT).ok() else {
        return configs;
    };
    configs
        .into_iter()
        .map(|config| {
            if config.name != victim {
                return config;
            }
            let backend = config.backend;
            let name = config.name.clone();
            Config::custom(name, backend, move |puzzle| {
                Box::new(Mirrored(config.engine(puzzle))) as Box<dyn Engine>
            })
        })
        .collect()
}

/// An engine whose grids come back mirrored left to right ([`PLANT`]).
struct Mirrored(Box<dyn Engine>);

impl Engine for Mirrored {
    fn next_solution(&mut self) -> Result<Option<Grid>, SolveError> {
        Ok(self.0.next_solution()?.map(|g| {
            let mut m = Grid::water(g.rows(), g.cols());
            for r in 0..g.rows() {
                for c in 0..g.cols() {
                    m.set(Pos::new(r, g.cols() - 1 - c), g.get(Pos::new(r, c)));
                }
            }
            m
        }))
    }
    fn stats(&self) -> Stats {
        self.0.stats()
    }
}

/// The exit of one outcome, with the message for the failing ones on stderr.
fn exit_of(outcome: &Outcome, unique: bool, name: &str) -> Exit {
    match outcome {
        Outcome::Unsat => {
            eprintln!("{name}: no solution");
            Exit::NoSolution
        }
        Outcome::Multiple { grids, complete } if unique => {
            let more = if *complete { "" } else { "at least " };
            eprintln!("{name}: not unique: {more}{} solutions", grids.len());
            Exit::NotUnique
        }
        _ => Exit::Success,
    }
}

/// The exit of many boards: 1 if some has no solution, else 3 if uniqueness was asked and some
/// has several, else 0.
pub(super) fn tally_exit(tally: &Tally, unique: bool) -> Exit {
    if tally.unsat > 0 {
        Exit::NoSolution
    } else if unique && tally.multiple > 0 {
        Exit::NotUnique
    } else {
        Exit::Success
    }
}

fn print_stats(report: &Report, parse_time: Duration, total: Duration) {
    let s = &report.stats;
    let conflicts = s
        .conflicts
        .map_or_else(|| "n/a".to_string(), |c| c.to_string());
    eprintln!(
        "backend: {} ({})\nvariables: {}\nclauses: {}\nconflicts: {}\nsolver calls: {}\nparse: {:.3} ms\nencode: {:.3} ms\nsolve: {:.3} ms\ntotal: {:.3} ms",
        s.backend,
        s.model,
        s.variables,
        s.constraints,
        conflicts,
        s.solver_calls,
        parse_time.as_secs_f64() * 1e3,
        s.encode_time.as_secs_f64() * 1e3,
        s.solve_time.as_secs_f64() * 1e3,
        total.as_secs_f64() * 1e3,
    );
}
