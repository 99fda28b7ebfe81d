//! The batch command: resolve the flags into a [`BatchJob`], let the library solve file after
//! file, and print one JSON result line per board as each group of files is done, behind a
//! progress bar when a person is watching (standard error is a terminal). A summary goes to
//! standard error.

use super::output::StdoutLines;
use super::solve::{engine, tally_exit};
use super::{Exit, Failure};
use crate::cli::BatchArgs;
use bimaru_sat::Limits;
use bimaru_sat::format::json::ResultJson;
use bimaru_sat::job::Goal;
use bimaru_sat::job::batch::{BatchJob, FileResult};
use bimaru_sat::solve::SolveOptions;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::{self, IsTerminal};
use std::time::Instant;

/// Runs the batch command. Exit: 2 if some input could not be read, else 4 if some board hit
/// the time limit, else 1 if some board has no solution, else 3 if uniqueness was asked and
/// some board has several, else 0.
pub fn run(args: &BatchArgs, limits: &Limits) -> Result<Exit, Failure> {
    let start = Instant::now();
    let (options, goal) = engine(&args.engine);
    let job = BatchJob {
        paths: args.paths.clone(),
        format: args.format,
        options: SolveOptions {
            time_limit: super::time_limit(args.time_limit),
            ..options
        },
        goal,
        limits: *limits,
    };
    let files = job.files()?;
    let bar = if io::stderr().is_terminal() {
        let bar = ProgressBar::new(files.len() as u64);
        if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} {elapsed} {wide_msg}")
        {
            bar.set_style(style);
        }
        bar
    } else {
        ProgressBar::hidden()
    };
    // A closed pipe ends the output quietly; the summary still goes to stderr. Any other
    // write error (a full disk) ends the output and fails the run.
    let mut out = StdoutLines::new();
    let mut write_error = None;
    let summary = job.run(&files, |path, result| {
        bar.set_message(path.display().to_string());
        let name = path.display().to_string();
        let lines = match result {
            FileResult::Boards(boards) => boards
                .into_iter()
                .map(|board| {
                    board.result.unwrap_or_else(|| {
                        let mut timeout = ResultJson::timeout(args.time_limit.unwrap_or_default());
                        timeout.board = board.id;
                        timeout
                    })
                })
                .collect(),
            FileResult::Failed(e) => vec![ResultJson::error(super::error::message(&e))],
            _ => Vec::new(),
        };
        for mut line in lines {
            line.file = Some(name.clone());
            if let Err(e) = out.line(&line.to_line()) {
                write_error.get_or_insert(e);
            }
        }
        bar.inc(1);
    });
    bar.finish_and_clear();
    let mut text = format!(
        "batch: {} files, {} boards: {}",
        summary.files,
        summary.boards,
        summary.tally.summary()
    );
    if summary.tally.timeouts > 0 {
        text.push_str(&format!(
            "; {} boards hit the time limit",
            summary.tally.timeouts
        ));
    }
    if summary.failed > 0 {
        text.push_str(&format!("; {} files could not be read", summary.failed));
    }
    if summary.skipped > 0 {
        text.push_str(&format!(
            "; {} files of unknown format skipped",
            summary.skipped
        ));
    }
    eprintln!("{text}; {:.3} s", start.elapsed().as_secs_f64());
    if let Some(e) = write_error {
        return Err(e.into());
    }
    Ok(if summary.failed > 0 {
        Exit::BadInput
    } else if summary.tally.timeouts > 0 {
        Exit::TimeLimit
    } else {
        tally_exit(&summary.tally, goal == Goal::Unique)
    })
}
