//! The solve command: read, parse, solve, verify, print. The output follows the input's
//! format unless `--to` names another; a file of several boards (Rubin) gets every board
//! solved and reported by its ID, compared with the solution the file carries.

use super::{Exit, Failure, read_input, write_output};
use crate::cli::{BatchArgs, SolveArgs};
use bimaru_sat::format::Source;
use bimaru_sat::format::csc384::{Dialect, DialectSource};
use bimaru_sat::format::json::ResultJson;
use bimaru_sat::format::{Board, Document, Format, OutputFormat, Writer};
use bimaru_sat::puzzle::{Grid, Puzzle};
use bimaru_sat::solve::{Outcome, Report, SolveError, SolveOptions, solve};
use std::time::{Duration, Instant};

/// Solves `puzzle` (`Ok(None)`: the time limit was hit, and said so on stderr).
fn solve_limited(
    args: &SolveArgs,
    puzzle: &Puzzle,
    options: &SolveOptions,
    name: &str,
) -> Result<Option<Report>, Failure> {
    match solve(puzzle, options) {
        Err(SolveError::TimeLimit) => {
            let seconds = args.time_limit.unwrap_or_default();
            eprintln!("{name}: time limit of {seconds} s reached");
            Ok(None)
        }
        r => Ok(Some(r?)),
    }
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
        return super::batch::run(&BatchArgs {
            paths: vec![dir.clone()],
            format: args.format,
            time_limit: args.time_limit,
            engine: args.engine.clone(),
        });
    }
    let start = Instant::now();
    let input = read_input(args.input.as_deref())?;
    let doc = input.document(args.format)?;
    let parse_time = start.elapsed();
    let writer = Writer::choose(args.to, args.cells, &doc);
    for board in &doc.boards {
        writer.check(&board.puzzle)?;
    }
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
    let options = SolveOptions {
        time_limit: super::time_limit(args.time_limit),
        ..args.engine.options()
    };
    if let Some(exit) = super::lp::before_solve(args, &input, &doc)? {
        return Ok(exit);
    }
    if doc.format == Format::Rubin || doc.boards.len() != 1 {
        return run_boards(args, &input, &doc, writer, &options, start);
    }
    let board = &doc.boards[0];
    let puzzle = &board.puzzle;
    if let Some(exit) = super::dimacs::before_solve(args, puzzle)? {
        return Ok(exit);
    }
    let Some(report) = solve_limited(args, puzzle, &options, &input.name)? else {
        return Ok(Exit::TimeLimit);
    };
    super::dimacs::after_solve(args, puzzle, &report)?;
    if args.engine.stats {
        print_stats(&report, parse_time, start.elapsed());
    }
    if writer.to == OutputFormat::Json {
        let result = ResultJson::from_report(
            &report,
            board.embedded.as_ref(),
            args.engine.count.is_some(),
        );
        let text = serde_json::to_string_pretty(&result).expect("results always serialize") + "\n";
        let blocked = matches!(report.outcome, Outcome::Multiple { .. }) && args.engine.unique;
        if !blocked {
            write_output(args.output.as_deref(), &text)?;
        }
        return Ok(exit_of(&report.outcome, args.engine.unique, &input.name));
    }
    if let Some(n) = args.engine.count {
        let text = counted(&writer, puzzle, &report.outcome, n);
        write_output(args.output.as_deref(), &text)?;
        return Ok(exit_of(&report.outcome, false, &input.name));
    }
    match &report.outcome {
        Outcome::Unsat => Ok(exit_of(&report.outcome, args.engine.unique, &input.name)),
        Outcome::Multiple { .. } if args.engine.unique => {
            Ok(exit_of(&report.outcome, args.engine.unique, &input.name))
        }
        outcome => {
            let grid = outcome.grid().expect("a non-Unsat outcome holds a grid");
            write_output(args.output.as_deref(), &writer.grid(puzzle, grid))?;
            Ok(Exit::Success)
        }
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

/// Every grid found, separated by blank lines, then a `solutions:` line.
fn counted(writer: &Writer, puzzle: &Puzzle, outcome: &Outcome, n: usize) -> String {
    let grids = outcome.grids();
    let mut text = String::new();
    for (i, grid) in grids.iter().enumerate() {
        if i > 0 {
            text.push('\n');
        }
        text.push_str(&writer.grid(puzzle, grid));
    }
    if !grids.is_empty() {
        text.push('\n');
    }
    if outcome.is_complete() {
        text.push_str(&format!("solutions: {}\n", grids.len()));
    } else {
        text.push_str(&format!(
            "solutions: {} (stopped at --count {n}; there may be more)\n",
            grids.len()
        ));
    }
    text
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

/// A board's name in reports: its ID, or its number and line.
pub fn board_name(board: &Board, index: usize) -> String {
    match &board.id {
        Some(id) => format!("Board {id}"),
        None => format!("Board {} (line {})", index + 1, board.line),
    }
}

/// Tallies of a multi-board run.
#[derive(Debug, Default)]
pub struct Tally {
    /// Boards solved with a unique solution.
    pub unique: usize,
    /// Boards solved without a uniqueness check.
    pub found: usize,
    /// Boards with several solutions.
    pub multiple: usize,
    /// Boards without a solution.
    pub unsat: usize,
    /// Boards that carry a solution.
    pub embedded: usize,
    /// Of those, boards whose solution was found again.
    pub matched: usize,
    /// Boards the time limit stopped (batch).
    pub timeouts: usize,
}

impl Tally {
    /// Counts one outcome.
    pub fn add(&mut self, outcome: &Outcome, matched: Option<bool>) {
        match outcome {
            Outcome::Unique(_) => self.unique += 1,
            Outcome::Found(_) => self.found += 1,
            Outcome::Multiple { .. } => self.multiple += 1,
            _ => self.unsat += 1,
        }
        if let Some(m) = matched {
            self.embedded += 1;
            self.matched += usize::from(m);
        }
    }

    /// `a unique, b solved, c with several solutions, d without solution; e of f embedded
    /// solutions found`.
    pub fn summary(&self) -> String {
        let mut s = format!(
            "{} unique, {} solved (uniqueness not checked), {} with several solutions, {} without solution",
            self.unique, self.found, self.multiple, self.unsat
        );
        if self.embedded > 0 {
            s.push_str(&format!(
                "; {} of {} embedded solutions found",
                self.matched, self.embedded
            ));
        }
        s
    }

    /// The exit code of the run.
    pub fn exit(&self, unique: bool) -> Exit {
        if self.unsat > 0 {
            Exit::NoSolution
        } else if unique && self.multiple > 0 {
            Exit::NotUnique
        } else {
            Exit::Success
        }
    }
}

/// Solves every board of a multi-board file and reports each by its ID.
fn run_boards(
    args: &SolveArgs,
    input: &Source,
    doc: &Document,
    writer: Writer,
    options: &SolveOptions,
    start: Instant,
) -> Result<Exit, Failure> {
    use rayon::prelude::*;
    let mut out = String::new();
    let mut tally = Tally::default();
    // Boards are independent: solve them on every core, then report them in file order.
    let reports: Vec<Option<Report>> = doc
        .boards
        .par_iter()
        .enumerate()
        .map(|(index, board)| {
            let name = format!("{}: {}", input.name, board_name(board, index));
            solve_limited(args, &board.puzzle, options, &name)
        })
        .collect::<Result<_, Failure>>()?;
    for (index, (board, report)) in doc.boards.iter().zip(reports).enumerate() {
        let Some(report) = report else {
            // Nothing is written: no partial output.
            return Ok(Exit::TimeLimit);
        };
        let matched = board
            .embedded
            .as_ref()
            .map(|e| report.outcome.grids().contains(&e));
        tally.add(&report.outcome, matched);
        if writer.to == OutputFormat::Json {
            let mut result = ResultJson::from_report(
                &report,
                board.embedded.as_ref(),
                args.engine.count.is_some(),
            );
            result.board = board.id.clone();
            out.push_str(&result.to_line());
            out.push('\n');
            continue;
        }
        let grids = report.outcome.grids();
        let mut status = match &report.outcome {
            Outcome::Unique(_) => "unique".to_string(),
            Outcome::Found(_) => "solved".to_string(),
            Outcome::Multiple { grids, complete } => format!(
                "{}{}{} solutions",
                if args.engine.unique {
                    "not unique: "
                } else {
                    ""
                },
                if *complete { "" } else { "at least " },
                grids.len()
            ),
            _ => "no solution".to_string(),
        };
        match matched {
            Some(true) => status.push_str(", matches the embedded solution"),
            Some(false) if !grids.is_empty() => {
                status.push_str(", differs from the embedded solution")
            }
            _ => {}
        }
        if index > 0 {
            out.push('\n');
        }
        out.push_str(&format!("{}: {status}\n", board_name(board, index)));
        let shown: &[&Grid] = match &report.outcome {
            Outcome::Multiple { .. } if args.engine.unique => &[],
            _ if args.engine.count.is_some() => &grids,
            _ => &grids[..grids.len().min(1)],
        };
        for grid in shown {
            out.push_str(&writer.grid(&board.puzzle, grid));
        }
    }
    write_output(args.output.as_deref(), &out)?;
    eprintln!(
        "{}: {} boards: {}; {:.3} s",
        input.name,
        doc.boards.len(),
        tally.summary(),
        start.elapsed().as_secs_f64()
    );
    Ok(tally.exit(args.engine.unique))
}
