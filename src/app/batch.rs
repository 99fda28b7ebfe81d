//! Batch mode: several files, or every file of a directory, solved one after another (the boards
//! of a multi-board file in parallel). Each board gives one JSON result line on standard output
//! (the schema of `docs/formats.md`, with `file` and `board`), in file order; a summary goes to
//! standard error, and a progress bar too when a person is watching (standard error is a
//! terminal).

use super::solve::Tally;
use super::{Exit, Failure, read_input};
use crate::cli::BatchArgs;
use bimaru_sat::error::Error;
use bimaru_sat::format::json::ResultJson;
use bimaru_sat::format::{self, Format};
use bimaru_sat::solve::{Outcome, Report, SolveError, SolveOptions, solve};
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// One input of a batch.
struct Item {
    path: PathBuf,
    /// Found by listing a directory: skipped, not reported, when its format is unknown.
    listed: bool,
}

fn expand(paths: &[PathBuf]) -> Result<Vec<Item>, Error> {
    let mut items = Vec::new();
    for path in paths {
        if path.is_dir() {
            let io_err = |source| Error::Io {
                path: path.clone(),
                source,
            };
            let mut files: Vec<PathBuf> = std::fs::read_dir(path)
                .map_err(io_err)?
                .map(|e| e.map(|e| e.path()))
                .collect::<Result<_, _>>()
                .map_err(io_err)?;
            files.retain(|p| p.is_file());
            files.sort();
            items.extend(files.into_iter().map(|path| Item { path, listed: true }));
        } else {
            items.push(Item {
                path: path.clone(),
                listed: false,
            });
        }
    }
    Ok(items)
}

/// Runs the batch command. Exit: 2 if some input could not be read, else 4 if some board hit
/// the time limit, else 1 if some board has no solution, else 3 if uniqueness was asked and
/// some board has several, else 0.
pub fn run(args: &BatchArgs) -> Result<Exit, Failure> {
    let start = Instant::now();
    let items = expand(&args.paths)?;
    let options = SolveOptions {
        time_limit: super::time_limit(args.time_limit),
        ..args.engine.options()
    };
    let bar = if io::stderr().is_terminal() {
        let bar = ProgressBar::new(items.len() as u64);
        if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} {elapsed} {wide_msg}")
        {
            bar.set_style(style);
        }
        bar
    } else {
        ProgressBar::hidden()
    };
    let mut tally = Tally::default();
    let (mut boards, mut errors, mut skipped) = (0, 0, 0);
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let mut emit = |result: &ResultJson| -> bool {
        // A closed pipe ends the output quietly; the summary still goes to stderr.
        writeln!(out, "{}", result.to_line())
            .and_then(|()| out.flush())
            .is_ok()
    };
    let mut open = true;
    let all = args.engine.count.is_some();
    // Files are solved a few at a time in parallel and reported in order, so results stream
    // out while the batch runs.
    let chunk = 2 * rayon::current_num_threads();
    for group in items.chunks(chunk.max(1)) {
        let done: Vec<_> = group
            .par_iter()
            .map(|item| one_file(&item.path, item.listed, args, &options, all))
            .collect();
        for (item, done) in group.iter().zip(done) {
            bar.set_message(item.path.display().to_string());
            let name = item.path.display().to_string();
            let results = match done {
                Ok(None) => {
                    skipped += 1;
                    Vec::new()
                }
                Ok(Some(results)) => results,
                Err(e) => {
                    errors += 1;
                    vec![(ResultJson::error(super::error::message(&e)), None)]
                }
            };
            for (mut result, outcome) in results {
                result.file = Some(name.clone());
                if result.status != format::json::Status::Error {
                    boards += 1;
                }
                match outcome {
                    Some(outcome) => tally.add(&outcome, result.matches_embedded),
                    None if result.status == format::json::Status::Timeout => tally.timeouts += 1,
                    None => {}
                }
                if open {
                    open = emit(&result);
                }
            }
            bar.inc(1);
        }
    }
    bar.finish_and_clear();
    let mut summary = format!(
        "batch: {} files, {boards} boards: {}",
        items.len() - skipped,
        tally.summary()
    );
    if tally.timeouts > 0 {
        summary.push_str(&format!("; {} boards hit the time limit", tally.timeouts));
    }
    if errors > 0 {
        summary.push_str(&format!("; {errors} files could not be read"));
    }
    if skipped > 0 {
        summary.push_str(&format!("; {skipped} files of unknown format skipped"));
    }
    eprintln!("{summary}; {:.3} s", start.elapsed().as_secs_f64());
    if errors > 0 {
        return Ok(Exit::BadInput);
    }
    if tally.timeouts > 0 {
        return Ok(Exit::TimeLimit);
    }
    Ok(tally.exit(args.engine.unique))
}

/// A board's result line and its outcome (`None` when the time limit stopped it).
type BoardResult = (ResultJson, Option<Outcome>);

/// Solves every board of one file, the boards in parallel, each within `args.time_limit`: each
/// board's result, with its outcome (`None` for a board the time limit stopped).
/// `Ok(None)`: a listed file of unknown format, skipped.
fn one_file(
    path: &Path,
    listed: bool,
    args: &BatchArgs,
    options: &SolveOptions,
    all: bool,
) -> Result<Option<Vec<BoardResult>>, Error> {
    let input = read_input(Some(path))?;
    let format = match args.format {
        Format::Auto => match format::detect(&input.text) {
            Ok(f) => f,
            Err(_) if listed => return Ok(None),
            Err(e) => {
                return Err(Error::UnknownFormat {
                    source_name: input.name.clone(),
                    reason: e.reason(),
                });
            }
        },
        f => f,
    };
    let doc = input.document(format)?;
    let reports: Vec<Option<Report>> = doc
        .boards
        .par_iter()
        .map(|board| match solve(&board.puzzle, options) {
            Err(SolveError::TimeLimit) => Ok(None),
            r => r.map(Some),
        })
        .collect::<Result<_, _>>()?;
    Ok(Some(
        doc.boards
            .iter()
            .zip(reports)
            .map(|(board, report)| {
                let mut result = match &report {
                    Some(report) => ResultJson::from_report(report, board.embedded.as_ref(), all),
                    None => ResultJson::timeout(args.time_limit.unwrap_or_default()),
                };
                result.board = board.id.clone();
                (result, report.map(|r| r.outcome))
            })
            .collect(),
    ))
}
