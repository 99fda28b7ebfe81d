//! `bimaru-sat compare FILES|DIRS`: turn the selection flags into configurations, run the
//! library's [`compare`] with a progress bar, print the table or JSON, and exit 1 when some
//! configuration disagrees or fails.

use super::{Exit, Failure, output};
use crate::app::cli::CompareArgs;
use bimaru_sat::Limits;
use bimaru_sat::usecase::Budget;
use bimaru_sat::usecase::IlpCuts;
use bimaru_sat::usecase::compare::{Config, all_options, compare, read_puzzles};
use bimaru_sat::usecase::error::Error;
use bimaru_sat::usecase::job::{require_sat_solver, require_solver};
use bimaru_sat::usecase::solve::{Backend, Goal, SolveOptions};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;

/// The configurations selected by `args` (an empty list selects every value), each looking for
/// up to `args.limit` solutions.
fn configurations(args: &CompareArgs) -> Result<Vec<Config>, Error> {
    for &solver in &args.ilp_solver {
        require_solver(solver)?;
    }
    for &solver in &args.solver {
        require_sat_solver(solver)?;
    }
    fn pick<T: PartialEq>(chosen: &[T], value: &T) -> bool {
        chosen.is_empty() || chosen.contains(value)
    }
    Ok(all_options()
        .into_iter()
        .filter(|o| pick(&args.backend, &o.backend))
        .filter(|o| {
            o.backend != Backend::Sat
                || (pick(&args.encoding, &o.model)
                    && pick(&args.card, &o.card)
                    && pick(&args.solver, &o.solver))
        })
        .filter(|o| {
            o.backend != Backend::Ilp
                || (pick(&args.ilp_model, &o.ilp_model) && pick(&args.ilp_solver, &o.ilp_solver))
        })
        .map(|o| {
            Config::from_options(SolveOptions {
                goal: Goal::Count(args.limit),
                presolve: !args.no_presolve,
                ilp_cuts: IlpCuts::of(&args.ilp_cuts),
                ilp_objective: args.ilp_objective,
                ..o
            })
        })
        .collect())
}

/// Runs the compare command.
pub fn run(args: &CompareArgs, limits: &Limits) -> Result<Exit, Failure> {
    let configs = configurations(args)?;
    if configs.is_empty() {
        return Err(Failure::Conflict {
            first: "compare",
            second: "a selection of backends, models and encodings that is empty",
        });
    }
    let set = read_puzzles(&args.paths, &args.ext, args.format, limits)?;
    if set.skipped > 0 {
        note!(
            "compare: {} files of unknown format skipped (not puzzles)",
            set.skipped
        );
    }
    let mut puzzles = set.puzzles;
    if let Some(n) = args.first {
        puzzles.truncate(n);
    }
    let total = (puzzles.len() * configs.len()) as u64;
    let bar = if std::io::stderr().is_terminal() {
        let bar = ProgressBar::new(total);
        if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} runs {elapsed}") {
            bar.set_style(style);
        }
        bar
    } else {
        ProgressBar::hidden()
    };
    let budget = Budget::within(super::time_limit(args.time_limit));
    let comparison = compare(
        &puzzles,
        &configs,
        args.limit,
        args.repeat,
        &budget,
        &mut || bar.inc(1),
    );
    bar.finish_and_clear();
    let text = if args.json {
        comparison.json()
    } else {
        comparison.table()
    };
    output::stdout(text.as_bytes())?;
    if comparison.agrees() {
        return Ok(Exit::Success);
    }
    note!(
        "compare: {} puzzle(s) with disagreeing or failing configurations",
        comparison.disagreements().len()
    );
    Ok(Exit::Disagreement)
}
