//! Batch mode: several files, or every file of a directory, solved one after another. Each
//! board gives one JSON result line on standard output (the schema of `docs/formats.md`, with
//! `file` and `board`); a summary goes to standard error, and a progress bar too when a person
//! is watching (standard error is a terminal).

use super::solve::Tally;
use super::{Exit, read_input};
use crate::cli::BatchArgs;
use crate::error::Error;
use crate::format::json::ResultJson;
use crate::format::{self, Format};
use crate::solve::{SolveOptions, solve};
use indicatif::{ProgressBar, ProgressStyle};
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

/// Runs the batch command. Exit: 2 if some input could not be read, else 1 if some board has
/// no solution, else 3 if uniqueness was asked and some board has several, else 0.
pub fn run(args: &BatchArgs) -> Result<Exit, Error> {
    let start = Instant::now();
    let items = expand(&args.paths)?;
    let options = args.engine.options();
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
    for item in &items {
        bar.set_message(item.path.display().to_string());
        let name = item.path.display().to_string();
        let all = args.engine.count.is_some();
        let results = match one_file(
            &item.path,
            item.listed,
            args.format,
            &options,
            all,
            &mut tally,
        ) {
            Ok(None) => {
                skipped += 1;
                Vec::new()
            }
            Ok(Some(results)) => results,
            Err(e) => {
                errors += 1;
                vec![ResultJson::error(e.to_string())]
            }
        };
        for mut result in results {
            result.file = Some(name.clone());
            if result.status != format::json::Status::Error {
                boards += 1;
            }
            if open {
                open = emit(&result);
            }
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    let mut summary = format!(
        "batch: {} files, {boards} boards: {}",
        items.len() - skipped,
        tally.summary()
    );
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
    Ok(tally.exit(args.engine.unique))
}

/// Solves every board of one file. `Ok(None)`: a listed file of unknown format, skipped.
fn one_file(
    path: &Path,
    listed: bool,
    format: Format,
    options: &SolveOptions,
    all: bool,
    tally: &mut Tally,
) -> Result<Option<Vec<ResultJson>>, Error> {
    let input = read_input(Some(path))?;
    let format = match format {
        Format::Auto => match format::detect(&input.text) {
            Ok(f) => f,
            Err(_) if listed => return Ok(None),
            Err(e) => {
                return Err(Error::Usage(crate::error::UsageError::UnknownFormat {
                    source_name: input.name.clone(),
                    reason: e.reason(),
                }));
            }
        },
        f => f,
    };
    let doc = super::parse_document(&input, format)?;
    let mut results = Vec::with_capacity(doc.boards.len());
    for board in &doc.boards {
        let report = solve(&board.puzzle, options)?;
        let mut result = ResultJson::from_report(&report, board.embedded.as_ref(), all);
        tally.add(&report.outcome, result.matches_embedded);
        result.board = board.id.clone();
        results.push(result);
    }
    Ok(Some(results))
}
