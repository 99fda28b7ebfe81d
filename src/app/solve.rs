//! The solve command: resolve the flags into one [`SolveJob`] (the solve, its exports, its
//! certificate and its cross-check), read and parse the input, let the library check the job
//! once and run it, and report what it returns: the solution (or every board's, for a Rubin
//! file), the `--emit-dimacs` formula or the `--emit-lp` program, the `--proof` certificate and
//! the `--cross-check` verdicts. Messages and the exit status follow the outcomes. A folder as
//! INPUT runs the batch command.

use super::output::Destination;
use super::{Exit, Failure, read_input};
use crate::app::cli::{EngineArgs, ProofArgs, SolveArgs};
use bimaru_sat::Limits;
use bimaru_sat::usecase::Configuration;
use bimaru_sat::usecase::DialectSource;
use bimaru_sat::usecase::IlpCuts;
use bimaru_sat::usecase::OutputFormat;
use bimaru_sat::usecase::Redundant;
use bimaru_sat::usecase::error::Error;
use bimaru_sat::usecase::job::{
    CountEnd, CrossCheckOptions, Dimacs, Goal, LpExport, SolveJob, Solved, Tally, board_name,
};
use bimaru_sat::usecase::proof::{Claim, CrossCheck, ProofOptions, Standing, cross_configs};
use bimaru_sat::usecase::solve::{Outcome, Report, SolveOptions};
use bimaru_sat::usecase::{Budget, Deadline};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

#[cfg(feature = "plant-fault")]
use super::fault::planted;

/// The engine configuration and goal the engine flags ask for (no time limit).
pub(super) fn engine(args: &EngineArgs) -> SolveOptions {
    let goal = match (args.count, args.unique) {
        (Some(n), _) => Goal::Count(n),
        (None, true) => Goal::Unique,
        (None, false) => Goal::First,
    };
    let cores = bimaru_sat::usecase::default_threads();
    if let Some(asked) = args.threads.map(usize::from).filter(|&n| n > cores)
        && args.backend == bimaru_sat::usecase::solve::Backend::Sat
    {
        note!(
            "--threads {asked}: this machine has {cores} {}; a hard question runs on {cores} threads",
            if cores == 1 { "core" } else { "cores" }
        );
    }
    SolveOptions {
        backend: args.backend,
        card: args.card,
        model: args.encoding,
        goal,
        race: !args.no_race,
        threads: args
            .threads
            .map_or_else(bimaru_sat::usecase::default_threads, usize::from),
        presolve: !args.no_presolve,
        redundant: Redundant::of(&args.redundant),
        ilp_model: args.ilp_model,
        ilp_solver: args.ilp_solver,
        ilp_cuts: IlpCuts::of(&args.ilp_cuts),
        ilp_objective: args.ilp_objective,
        solver: args.solver,
        ..SolveOptions::default()
    }
}

/// The job the solve flags ask for, to be done by `deadline`.
fn job(args: &SolveArgs, deadline: Deadline) -> SolveJob {
    let source = args
        .input
        .as_deref()
        .map_or_else(|| "<stdin>".to_string(), |p| p.display().to_string());
    SolveJob {
        options: SolveOptions {
            budget: Budget::until(deadline),
            ..engine(&args.engine)
        },
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
        lp: args.emit_lp.as_ref().map(|_| LpExport {
            source,
            how: LP_READ_BACK.to_string(),
            only: args.emit_only,
        }),
        proof: args.proof.as_ref().map(|_| proof_options(&args.proof_args)),
        cross_check: args.cross_check.then(|| CrossCheckOptions {
            configs: planted(cross_configs(args.engine.card)).into(),
            budget: Some(Duration::from_secs_f64(args.cross_check_budget)),
        }),
    }
}

/// How the proof flags ask for certificates to be made.
pub(super) fn proof_options(args: &ProofArgs) -> ProofOptions {
    ProofOptions {
        config: Configuration {
            model: args.proof_encoding,
            card: args.proof_card,
        },
        format: args.proof_format,
        solver: args.proof_solver,
    }
}

/// Where `--proof FILE` puts the formula: `FILE.cnf`.
pub(super) fn cnf_path(proof: &Path) -> PathBuf {
    let mut name = proof.as_os_str().to_owned();
    name.push(".cnf");
    PathBuf::from(name)
}

/// The outputs of a solve: the solution, and the exports asked for.
struct Outputs {
    solution: Destination,
    dimacs: Option<Destination>,
    lp: Option<Destination>,
    /// `--proof FILE`: the proof, then the formula (`FILE.cnf`).
    proof: Option<(Destination, Destination)>,
}

/// Checks every output path of `args`: each is writable and no input, no two name one file, and
/// standard output goes to one of them only (an export to `-` needs --emit-only or an OUTPUT).
fn outputs(args: &SolveArgs) -> Result<Outputs, Failure> {
    let inputs = [args.input.as_deref()];
    let emit = |path: Option<&Path>| path.map(|p| Destination::new(Some(p), &inputs)).transpose();
    if args
        .proof
        .as_deref()
        .is_some_and(|p| super::output::is_stdout(Some(p)))
    {
        return Err(Failure::Conflict {
            first: "--proof -",
            second: "a proof and its formula, which are two files (name the proof file)",
        });
    }
    let proof = match args.proof.as_deref() {
        Some(p) => Some((
            Destination::new(Some(p), &inputs)?,
            Destination::new(Some(&cnf_path(p)), &inputs)?,
        )),
        None => None,
    };
    let all = Outputs {
        solution: Destination::new(args.output.as_deref(), &inputs)?,
        dimacs: emit(args.emit_dimacs.as_deref())?,
        lp: emit(args.emit_lp.as_deref())?,
        proof,
    };
    let mut files = vec![&all.solution];
    files.extend(all.dimacs.iter().chain(&all.lp));
    files.extend(all.proof.iter().flat_map(|(p, c)| [p, c]));
    Destination::distinct(&files)?;
    let to_stdout = |o: &Option<Destination>| o.as_ref().is_some_and(Destination::is_stdout);
    let (dimacs, lp) = (to_stdout(&all.dimacs), to_stdout(&all.lp));
    if dimacs && lp {
        return Err(Failure::Conflict {
            first: "--emit-dimacs -",
            second: "--emit-lp - (one of them goes to a file)",
        });
    }
    if (dimacs || lp) && !args.emit_only && all.solution.is_stdout() {
        return Err(Failure::Conflict {
            first: if dimacs {
                "--emit-dimacs - (without --emit-only)"
            } else {
                "--emit-lp - (without --emit-only)"
            },
            second: "a solution printed on standard output (give an OUTPUT file)",
        });
    }
    Ok(all)
}

/// Runs the solve command.
pub fn run(args: &SolveArgs, limits: &Limits) -> Result<Exit, Failure> {
    // Every output is checked before any work.
    let Outputs {
        solution: output,
        dimacs: dimacs_out,
        lp: lp_out,
        proof: proof_out,
    } = outputs(args)?;
    let start = Instant::now();
    let deadline = super::deadline(args.time_limit);
    let seconds = args.time_limit.unwrap_or_default();
    let (path, format, within) = (args.input.clone(), args.format, *limits);
    let read = super::before(deadline.clone(), move || -> Result<_, Error> {
        let input = read_input(path.as_deref(), &within)?;
        let doc = input.document(format, &within)?;
        Ok((input, doc))
    });
    let Some(read) = read else {
        let name = super::input_name(args.input.as_deref());
        return Ok(super::timed_out(&name, seconds, "while reading the input"));
    };
    let (input, doc) = read?;
    let parse_time = start.elapsed();
    let job = job(args, deadline);
    // Every check of the job, made once, before the warning, the LP export and the solve.
    let checked = job.check(&doc, &input.name)?;
    if let (Some(choice), OutputFormat::Csc384, None) =
        (doc.dialect, checked.writer().to, args.cells)
        && choice.source == DialectSource::FleetLine
    {
        note!(
            "{}: no cell shows the CSC384 dialect; writing {} as the fleet line suggests (--cells changes it)",
            input.name,
            choice.dialect
        );
    }
    if let (Some(target), Some(program)) = (&lp_out, checked.program()) {
        target.write(program.as_bytes())?;
    }
    let time_limit = |name: &str| super::timed_out(name, seconds, "before a solution was found");
    let solved = match checked.run() {
        Err(error) if error.is_time_limit() => return Ok(time_limit(&input.name)),
        solved => solved?,
    };
    let unique = job.goal() == Goal::Unique;
    match solved {
        Solved::Formula(formula) => {
            if let Some(target) = &dimacs_out {
                target.write(&formula)?;
            }
            Ok(Exit::Success)
        }
        Solved::Board(one) => {
            let report = &one.report;
            if let (Some(target), Some(formula)) = (&dimacs_out, &one.formula) {
                target.write(formula)?;
            }
            if args.engine.stats {
                print_stats(report, parse_time, start.elapsed());
            }
            if let (Some((proof, cnf)), Some(target)) = (&proof_out, args.proof.as_deref()) {
                match &one.certificate {
                    Some(certificate) => {
                        cnf.write(&certificate.cnf)?;
                        proof.write(&certificate.proof)?;
                        note!(
                            "{}: {} certified: {} refutes {} ({} formula, {} DRAT); check it with `bimaru-sat check-proof PUZZLE {}`",
                            input.name,
                            certificate.claim,
                            target.display(),
                            cnf_path(target).display(),
                            certificate.config,
                            args.proof_args.proof_format,
                            target.display()
                        );
                    }
                    None => note!(
                        "{}: no proof written: {}",
                        input.name,
                        uncertified(&report.outcome)
                    ),
                }
            }
            if let Some(text) = &one.text {
                let mut text = text.clone();
                if let Some(end) = one.count {
                    text.push_str(&count_line(end));
                }
                output.write(text.as_bytes())?;
            }
            if report.stop.is_some() {
                let found = report.outcome.count();
                let what = match job.goal() {
                    Goal::Count(_) => format!(
                        "after {found} solutions: the count is a lower bound (at least {found})"
                    ),
                    _ => "after one solution: uniqueness is not proved".to_string(),
                };
                return Ok(super::timed_out(&input.name, seconds, &what));
            }
            if let Some(checked) = &one.cross_check
                && let Some(exit) = cross_checked(checked, args.strict, &input.name)
            {
                return Ok(exit);
            }
            Ok(exit_of(&report.outcome, unique, &input.name))
        }
        Solved::Boards(all) => {
            let Some(text) = &all.text else {
                // Nothing is written: no partial output.
                for (index, (board, stop)) in doc.boards.iter().zip(all.stops()).enumerate() {
                    if stop.is_some() {
                        time_limit(&format!("{}: {}", input.name, board_name(board, index)));
                    }
                }
                return Ok(Exit::TimeLimit);
            };
            // A report of every board, written on exit 1 too (docs/formats.md, "Output files").
            output.write(text.as_bytes())?;
            note!(
                "{}: {}: {}; {:.3} s",
                input.name,
                super::words::counted(doc.boards.len(), "board"),
                all.tally.summary(),
                start.elapsed().as_secs_f64()
            );
            Ok(tally_exit(&all.tally, unique))
        }
        _ => Ok(Exit::Success),
    }
}

/// The cross-check's notes, and the exit when it fails: a disagreement, or (`strict`) a leg
/// unconfirmed.
fn cross_checked(checked: &CrossCheck, strict: bool, name: &str) -> Option<Exit> {
    let tally = checked.tally();
    if let Some(disagreement) = checked.disagreement() {
        note!("{name}: cross-check failed: {disagreement} ({tally})");
        return Some(Exit::Disagreement);
    }
    let agreeing: Vec<&str> = checked
        .verdicts
        .iter()
        .zip(checked.standings())
        .filter(|(_, s)| *s == Standing::Agrees)
        .map(|(v, _)| v.config.as_str())
        .collect();
    let unconfirmed = checked.unconfirmed();
    if unconfirmed.is_empty() {
        note!("{name}: cross-check: {} agree", agreeing.join(", "));
        return None;
    }
    let failed = if strict { " failed (--strict)" } else { "" };
    note!(
        "{name}: cross-check{failed}: {}; {} ({tally})",
        if agreeing.is_empty() {
            "no leg answered".to_string()
        } else {
            format!("{} agree", agreeing.join(", "))
        },
        unconfirmed.join("; ")
    );
    strict.then_some(Exit::Disagreement)
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

/// The cross-check configurations as they are: this build has no fault hook (the
/// `plant-fault` feature, `app/fault.rs`).
#[cfg(not(feature = "plant-fault"))]
fn planted<C>(configs: Vec<C>) -> Vec<C> {
    configs
}

/// The exit of one outcome, with the message for the failing ones on stderr.
fn exit_of(outcome: &Outcome, unique: bool, name: &str) -> Exit {
    match outcome {
        Outcome::Unsat => {
            note!("{name}: no solution");
            Exit::NoSolution
        }
        Outcome::Multiple { grids, complete } if unique => {
            let more = if *complete { "" } else { "at least " };
            note!("{name}: not unique: {more}{} solutions", grids.len());
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
    note!(
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

/// The line after a count's grids.
fn count_line(end: CountEnd) -> String {
    match end {
        CountEnd::Complete(found) => format!("solutions: {found}\n"),
        CountEnd::TimeLimit(found) => format!(
            "solutions: at least {found} (the time limit stopped the search; there may be more)\n"
        ),
        CountEnd::AtLimit { found, limit } => {
            format!("solutions: {found} (stopped at --count {limit}; there may be more)\n")
        }
    }
}

/// The LP export's last comment line: how to solve it and read the answer back.
pub const LP_READ_BACK: &str =
    "solve: cbc FILE solve solu SOL; read: bimaru-sat decode PUZZLE SOL --backend ilp";
