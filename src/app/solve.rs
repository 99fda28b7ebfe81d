//! The solve command: read, parse, solve, verify, print.

use super::{Exit, parse_puzzle, read_input, write_output};
use crate::cli::SolveArgs;
use crate::error::Error;
use crate::format::{self, Format};
use crate::solve::{Outcome, SolveOptions, solve};
use std::time::Instant;

/// Runs the solve command.
pub fn run(args: &SolveArgs) -> Result<Exit, Error> {
    let start = Instant::now();
    let input = read_input(args.input.as_deref())?;
    let (puzzle, format) = parse_puzzle(&input, args.format)?;
    let parse_time = start.elapsed();
    if let Some(path) = &args.emit_lp {
        return super::lp::emit(&puzzle, args, path);
    }
    if args.backend == crate::solve::Backend::Ilp {
        super::lp::require_solver(args.ilp_solver)?;
    }
    let limit = match (args.count, args.unique) {
        (Some(n), _) => n.max(1),
        (None, true) => 2,
        (None, false) => 1,
    };
    let options = SolveOptions {
        backend: args.backend,
        card: args.card,
        limit,
        detailed_stats: args.stats,
        ilp_model: args.ilp_model,
        ilp_solver: args.ilp_solver,
    };
    let report = solve(&puzzle, &options)?;
    if args.stats {
        let s = &report.stats;
        let conflicts = s
            .conflicts
            .map_or_else(|| "n/a".to_string(), |c| c.to_string());
        eprintln!(
            "backend: {} ({} model, {} cardinality)\nvariables: {}\nclauses: {}\nconflicts: {}\nsolver calls: {}\nparse: {:.3} ms\nencode: {:.3} ms\nsolve: {:.3} ms\ntotal: {:.3} ms",
            s.backend,
            s.model,
            args.card.name(),
            s.variables,
            s.constraints,
            conflicts,
            s.solver_calls,
            parse_time.as_secs_f64() * 1e3,
            s.encode_time.as_secs_f64() * 1e3,
            s.solve_time.as_secs_f64() * 1e3,
            start.elapsed().as_secs_f64() * 1e3,
        );
    }
    let write_grid = |grid| match format {
        Format::Ist | Format::Auto => format::ist::write_solution(&puzzle, grid),
        Format::Json => format::json::write_puzzle(&puzzle, Some(grid)),
    };
    if let Some(n) = args.count {
        let grids = report.outcome.grids();
        let mut text = String::new();
        for (i, grid) in grids.iter().enumerate() {
            if i > 0 {
                text.push('\n');
            }
            text.push_str(&write_grid(grid));
        }
        if !grids.is_empty() {
            text.push('\n');
        }
        if report.outcome.is_complete() {
            text.push_str(&format!("solutions: {}\n", grids.len()));
        } else {
            text.push_str(&format!(
                "solutions: {} (stopped at --count {n}; there may be more)\n",
                grids.len()
            ));
        }
        write_output(args.output.as_deref(), &text)?;
        if grids.is_empty() {
            eprintln!("{}: no solution", input.name);
            return Ok(Exit::NoSolution);
        }
        return Ok(Exit::Success);
    }
    match &report.outcome {
        Outcome::Unsat => {
            eprintln!("{}: no solution", input.name);
            Ok(Exit::NoSolution)
        }
        Outcome::Multiple { grids, complete } if args.unique => {
            let more = if *complete { "" } else { "at least " };
            eprintln!(
                "{}: not unique: {more}{} solutions",
                input.name,
                grids.len()
            );
            Ok(Exit::NotUnique)
        }
        outcome => {
            let grid = outcome.grid().expect("a non-Unsat outcome holds a grid");
            write_output(args.output.as_deref(), &write_grid(grid))?;
            Ok(Exit::Success)
        }
    }
}
