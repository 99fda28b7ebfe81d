//! The generate command: resolve the flags into a [`GenerateJob`], and print the puzzles it
//! writes or put each in its own file, behind a progress bar; a note on standard error tells
//! of clues whose uniqueness check ran out of its budget.

use super::{Exit, Failure, write_atomic, write_output};
use crate::cli::GenerateArgs;
use bimaru_sat::Limits;
use bimaru_sat::error::Error;
use bimaru_sat::generate::{GenerateOptions, default_fleet};
use bimaru_sat::job::generate::GenerateJob;
use bimaru_sat::limits::LimitExceeded;
use indicatif::{ProgressBar, ProgressStyle};

/// Runs the generate command.
pub fn run(args: &GenerateArgs, limits: &Limits) -> Result<Exit, Failure> {
    let limit = |flag, result: Result<(), LimitExceeded>| {
        result.map_err(|error| Failure::Limit { flag, error })
    };
    limit("--size", limits.board(args.size.rows, args.size.cols))?;
    let fleet = args
        .fleet
        .clone()
        .unwrap_or_else(|| default_fleet(args.size));
    limit("--fleet", limits.fleet(&fleet))?;
    if let Ok(open) = bimaru_sat::Puzzle::new(
        vec![None; args.size.rows],
        vec![None; args.size.cols],
        fleet.clone(),
    ) {
        limit("--size", limits.puzzle(&open))?;
    }
    let job = GenerateJob {
        options: GenerateOptions {
            size: args.size,
            fleet,
            card: args.card,
            reduce: args.reduce,
            budget: (args.max_conflicts > 0).then_some(args.max_conflicts),
        },
        grade: args.grade,
        seed: args.seed,
        count: args.count,
        to: args.to,
        // Several puzzles on standard output: JSON Lines, which every command reads back.
        one_line: args.count > 1 && args.out.is_none(),
    };
    if let Some(dir) = &args.out {
        std::fs::create_dir_all(dir).map_err(|source| Error::Io {
            path: dir.clone(),
            source,
        })?;
    }
    let bar = if args.count > 1 {
        let bar = ProgressBar::new(args.count as u64);
        if let Ok(style) =
            ProgressStyle::with_template("{bar:40} {pos}/{len} puzzles, {elapsed} (eta {eta})")
        {
            bar.set_style(style);
        }
        bar
    } else {
        ProgressBar::hidden()
    };
    let width = args.count.to_string().len().max(3);
    // Clues kept undecided, per puzzle that has any, for the note on standard error.
    let mut undecided: Vec<usize> = Vec::new();
    let mut text = String::new();
    job.run(|index, generated, written| -> Result<(), Failure> {
        if !generated.undecided.is_empty() {
            undecided.push(generated.undecided.len());
        }
        match &args.out {
            Some(dir) => {
                let stem = format!("{:0width$}", index + 1);
                write_atomic(
                    &dir.join(format!("{stem}.{}", written.extension)),
                    written.puzzle.as_bytes(),
                )?;
                if let Some(solution) = &written.solution {
                    write_atomic(&dir.join(format!("{stem}.out")), solution.as_bytes())?;
                }
            }
            None => {
                if index > 0 && written.solution.is_some() {
                    text.push('\n');
                }
                text.push_str(&written.puzzle);
            }
        }
        bar.inc(1);
        Ok(())
    })?;
    bar.finish_and_clear();
    if args.out.is_none() {
        write_output(None, &text)?;
    }
    if let (Some(fewest), Some(most)) = (undecided.iter().min(), undecided.iter().max()) {
        let which = if args.count == 1 {
            "the puzzle keeps".to_string()
        } else {
            format!("{} of {} puzzles keep", undecided.len(), args.count)
        };
        let clues = if fewest == most {
            format!("{fewest}")
        } else {
            format!("{fewest} to {most}")
        };
        eprintln!(
            "bimaru-sat: {which} {clues} clue(s) undecided: their uniqueness check ran out of \
             --max-conflicts {} (0: no limit); every puzzle is unique and its other clues are needed",
            args.max_conflicts
        );
    }
    Ok(Exit::Success)
}
