//! The batch command: resolve the flags into a [`BatchJob`], let the library solve file after
//! file, and print one JSON result line per board as each group of files is done, behind a
//! progress bar when a person is watching (standard error is a terminal). With `--proof-dir`,
//! each board's certificate is written into that folder as it comes. A summary goes to standard
//! error.

use super::solve::{cnf_path, engine, proof_options, tally_exit};
use super::{Exit, Failure, write_atomic};
use crate::cli::BatchArgs;
use bimaru_sat::error::Error;
use bimaru_sat::format::json::ResultJson;
use bimaru_sat::job::Goal;
use bimaru_sat::job::batch::{BatchJob, BoardProof, FileResult};
use bimaru_sat::solve::SolveOptions;
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::HashSet;
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Where `--proof-dir` puts certificates, and the names given so far.
struct ProofDir {
    dir: PathBuf,
    taken: HashSet<String>,
}

impl ProofDir {
    /// The proof's path for a board of the file `path`: `DIR/NAME.drat`, NAME being the file's
    /// name and, for a board with an ID, `-` and the ID (characters other than letters, digits,
    /// `.`, `-` and `_` become `_`); a name already given gets `-2`, `-3`, ...
    fn path(&mut self, path: &Path, id: Option<&str>) -> PathBuf {
        let mut name = path
            .file_name()
            .map_or_else(|| "stdin".to_string(), |n| n.to_string_lossy().into_owned());
        if let Some(id) = id {
            name.push('-');
            name.extend(id.chars().map(|c| {
                if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') {
                    c
                } else {
                    '_'
                }
            }));
        }
        let mut unique = name.clone();
        let mut n = 1;
        while !self.taken.insert(unique.clone()) {
            n += 1;
            unique = format!("{name}-{n}");
        }
        self.dir.join(format!("{unique}.drat"))
    }

    /// Writes a board's certificate, or says on stderr why it has none.
    fn write(&mut self, path: &Path, id: Option<&str>, proof: &BoardProof) -> Result<(), Error> {
        let board = match id {
            Some(id) => format!("{} board {id}", path.display()),
            None => path.display().to_string(),
        };
        match proof {
            BoardProof::Certified(certificate) => {
                let target = self.path(path, id);
                write_atomic(&cnf_path(&target), &certificate.cnf)?;
                write_atomic(&target, &certificate.proof)?;
            }
            BoardProof::Failed(why) => eprintln!("{board}: no certificate: {why}"),
            _ => {}
        }
        Ok(())
    }
}

/// Runs the batch command. Exit: 2 if some input could not be read, else 1 if some board's
/// certificate failed, else 4 if some board hit the time limit, else 1 if some board has no
/// solution, else 3 if uniqueness was asked and some board has several, else 0.
pub fn run(args: &BatchArgs) -> Result<Exit, Failure> {
    let start = Instant::now();
    let (options, goal) = engine(&args.engine);
    let job = BatchJob {
        paths: args.paths.clone(),
        format: args.format,
        options: SolveOptions {
            time_limit: super::time_limit(args.time_limit),
            ..options.clone()
        },
        goal,
        proof: args
            .proof_dir
            .as_ref()
            .map(|_| proof_options(&args.proof, &options)),
    };
    let mut proofs = match &args.proof_dir {
        Some(dir) => {
            std::fs::create_dir_all(dir).map_err(|source| Error::Io {
                path: dir.clone(),
                source,
            })?;
            Some(ProofDir {
                dir: dir.clone(),
                taken: HashSet::new(),
            })
        }
        None => None,
    };
    let mut write_error = None;
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
    let stdout = io::stdout();
    let mut out = stdout.lock();
    // A closed pipe ends the output quietly; the summary still goes to stderr.
    let mut open = true;
    let summary = job.run(&files, |path, result| {
        bar.set_message(path.display().to_string());
        let name = path.display().to_string();
        if let (Some(proofs), FileResult::Boards(boards)) = (proofs.as_mut(), &result) {
            for board in boards {
                if let Some(proof) = &board.proof
                    && write_error.is_none()
                    && let Err(e) = proofs.write(path, board.id.as_deref(), proof)
                {
                    write_error = Some(e);
                }
            }
        }
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
            if open {
                open = writeln!(out, "{}", line.to_line())
                    .and_then(|()| out.flush())
                    .is_ok();
            }
        }
        bar.inc(1);
    });
    bar.finish_and_clear();
    if let Some(e) = write_error {
        return Err(e.into());
    }
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
    if let Some(proofs) = &proofs {
        text.push_str(&format!(
            "; {} certified (proofs in {})",
            summary.certified,
            proofs.dir.display()
        ));
        if summary.uncertifiable > 0 {
            text.push_str(&format!(
                ", {} with an outcome no proof certifies",
                summary.uncertifiable
            ));
        }
        if summary.proof_failed > 0 {
            text.push_str(&format!(", {} certificates FAILED", summary.proof_failed));
        }
    }
    eprintln!("{text}; {:.3} s", start.elapsed().as_secs_f64());
    Ok(if summary.failed > 0 {
        Exit::BadInput
    } else if summary.proof_failed > 0 {
        Exit::Rejected
    } else if summary.tally.timeouts > 0 {
        Exit::TimeLimit
    } else {
        tally_exit(&summary.tally, goal == Goal::Unique)
    })
}
