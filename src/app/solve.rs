//! The solve command: resolve the flags into a [`SolveJob`], read and parse the input, let the
//! library solve, and write what it returns: the solution (or every board's, for a Rubin file),
//! the `--emit-dimacs` formula or the `--emit-lp` program; messages and the exit status follow
//! the outcomes. A folder as INPUT runs the batch command.

use super::{Exit, Failure, read_input, write_atomic, write_output};
use crate::cli::{BatchArgs, EngineArgs, SolveArgs};
use bimaru_sat::Limits;
use bimaru_sat::format::OutputFormat;
use bimaru_sat::format::csc384::{Dialect, DialectSource};
use bimaru_sat::job::{
    Dimacs, Goal, SolveJob, Solved, Tally, board_name, by_board, require_solver,
};
use bimaru_sat::solve::{Backend, Outcome, Report, SolveOptions};
use std::path::Path;
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
            ..options
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
    }
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
pub fn run(args: &SolveArgs, limits: &Limits) -> Result<Exit, Failure> {
    if let Some(dir) = args.input.as_ref().filter(|p| p.is_dir()) {
        if args.output.is_some() || args.to.is_some_and(|t| t != OutputFormat::Json) {
            return Err(Failure::Conflict {
                first: "a directory as INPUT (batch mode, JSON lines on stdout)",
                second: "OUTPUT or --to other than json",
            });
        }
        return super::batch::run(
            &BatchArgs {
                paths: vec![dir.clone()],
                format: args.format,
                time_limit: args.time_limit,
                engine: args.engine.clone(),
            },
            limits,
        );
    }
    let start = Instant::now();
    let input = read_input(args.input.as_deref(), limits)?;
    let doc = input.document_within(args.format, limits)?;
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
            if let Some(text) = &one.text {
                write_output(args.output.as_deref(), text)?;
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
