//! The batch command: resolve the flags into a [`BatchJob`], let the library solve file after
//! file, and print one JSON result line per board as each group of files is done, behind a
//! progress bar when a person is watching (standard error is a terminal). With `--proof-dir`,
//! each board's certificate is written into that folder as it comes. A summary goes to standard
//! error.

use super::output::{NewDir, StdoutLines};
use super::solve::{cnf_path, engine, proof_options, tally_exit};
use super::words::counted;
use super::{Exit, Failure};
use crate::app::cli::{BatchArgs, SolveArgs};
use bimaru_sat::Limits;
use bimaru_sat::usecase::OutputFormat;
use bimaru_sat::usecase::job::Goal;
use bimaru_sat::usecase::job::batch::{BatchJob, BoardProof, FileResult};
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::HashSet;
use std::io::{self, IsTerminal};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Where `--proof-dir` puts certificates (made whole in a temporary folder that takes its place
/// at the end, [`NewDir`]), and the names given so far.
struct ProofDir {
    dir: PathBuf,
    files: NewDir,
    taken: HashSet<String>,
}

impl ProofDir {
    /// The proof's name for a board of the file `path`: `NAME.drat`, NAME being the file's
    /// name and, for a board with an ID, `-` and the ID (characters other than letters, digits,
    /// `.`, `-` and `_` become `_`); a name already given gets `-2`, `-3`, ...
    fn name(&mut self, path: &Path, id: Option<&str>) -> String {
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
        format!("{unique}.drat")
    }

    /// Writes a board's certificate, or says on stderr why it has none.
    fn write(&mut self, path: &Path, id: Option<&str>, proof: &BoardProof) -> Result<(), Failure> {
        let board = match id {
            Some(id) => format!("{} board {id}", path.display()),
            None => path.display().to_string(),
        };
        match proof {
            BoardProof::Certified(certificate) => {
                let name = self.name(path, id);
                let cnf = cnf_path(Path::new(&name));
                self.files.write(&cnf.to_string_lossy(), &certificate.cnf)?;
                self.files.write(&name, &certificate.proof)?;
            }
            BoardProof::Failed(why) => note!("{board}: no certificate: {why}"),
            _ => {}
        }
        Ok(())
    }
}

/// Runs the batch command. Exit: 2 if some input could not be read, else 1 if some board's
/// certificate failed, else 4 if some board hit the time limit, else 1 if some board has no
/// solution, else 3 if uniqueness was asked and some board has several, else 0.
pub fn run(args: &BatchArgs, limits: &Limits) -> Result<Exit, Failure> {
    let start = Instant::now();
    let options = engine(&args.engine);
    let goal = options.goal;
    let job = BatchJob {
        paths: args.paths.clone(),
        format: args.format,
        options: options.clone(),
        time_limit: super::time_limit(args.time_limit),
        limits: *limits,
        proof: args.proof_dir.as_ref().map(|_| proof_options(&args.proof)),
    };
    let mut proofs = match &args.proof_dir {
        Some(dir) => Some(ProofDir {
            dir: dir.clone(),
            files: NewDir::new(dir)?,
            taken: HashSet::new(),
        }),
        None => None,
    };
    let listing = job.listing()?;
    for left in &listing.left_out {
        note!(
            "batch: {}: skipped: {} (batch reads the regular files directly inside a folder \
             it is given)",
            left.path.display(),
            left.what
        );
    }
    let (files, solutions, repeats) = (listing.files, listing.solutions, listing.repeats);
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
    let mut proof_error = None;
    let summary = job.run(&files, |path, result| {
        bar.set_message(path.display().to_string());
        if let (Some(proofs), FileResult::Boards(boards)) = (proofs.as_mut(), &result) {
            for board in boards {
                if let Some(proof) = &board.proof
                    && proof_error.is_none()
                    && let Err(e) = proofs.write(path, board.id.as_deref(), proof)
                {
                    proof_error = Some(e);
                }
            }
        }
        let lines = result.lines(path, args.time_limit, super::error::message);
        for line in lines {
            if let Err(e) = out.line(&line.to_line()) {
                write_error.get_or_insert(Failure::from(e));
            }
        }
        bar.inc(1);
    });
    bar.finish_and_clear();
    // The proofs appear all together, or none when one could not be written.
    if let Some(e) = proof_error {
        return Err(e);
    }
    let proof_dir = match proofs {
        Some(proofs) => {
            proofs.files.commit()?;
            Some(proofs.dir)
        }
        None => None,
    };
    if summary.files == 0 {
        return Err(Failure::NoPuzzle {
            unknown: summary.skipped,
            solutions: solutions.len(),
        });
    }
    let mut text = format!(
        "batch: {}, {}: {}",
        counted(summary.files, "file"),
        counted(summary.boards, "board"),
        summary.tally.summary()
    );
    if summary.tally.timeouts > 0 {
        text.push_str(&format!(
            "; {} hit the time limit",
            counted(summary.tally.timeouts, "board")
        ));
    }
    if summary.failed > 0 {
        text.push_str(&format!(
            "; {} could not be read",
            counted(summary.failed, "file")
        ));
    }
    if summary.skipped > 0 {
        text.push_str(&format!(
            "; {} of unknown format skipped",
            counted(summary.skipped, "file")
        ));
    }
    if let Some(first) = solutions.first() {
        text.push_str(&format!(
            "; {} skipped ({} and the like hold a solved grid, no puzzle)",
            counted(solutions.len(), "solution file"),
            first.display()
        ));
    }
    if let Some(first) = repeats.first() {
        text.push_str(&format!(
            "; {} skipped that hold the puzzle of another file ({} repeats {})",
            counted(repeats.len(), "file"),
            first.path.display(),
            first.of.display()
        ));
    }
    if let Some(dir) = &proof_dir {
        text.push_str(&format!(
            "; {} certified (proofs in {})",
            summary.certified,
            dir.display()
        ));
        if summary.uncertifiable > 0 {
            text.push_str(&format!(
                ", {} with an outcome no proof certifies",
                summary.uncertifiable
            ));
        }
        if summary.proof_failed > 0 {
            text.push_str(&format!(
                ", {} FAILED",
                counted(summary.proof_failed, "certificate")
            ));
        }
    }
    note!("{text}; {:.3} s", start.elapsed().as_secs_f64());
    if let Some(e) = write_error {
        return Err(e);
    }

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

/// The default command given a directory as INPUT: batch mode over its files, JSON lines on
/// standard output.
pub fn run_folder(args: &SolveArgs, dir: &Path, limits: &Limits) -> Result<Exit, Failure> {
    if args.output.is_some() || args.to.is_some_and(|t| t != OutputFormat::Json) {
        return Err(Failure::Conflict {
            first: "a directory as INPUT (batch mode, JSON lines on stdout)",
            second: "OUTPUT or --to other than json",
        });
    }
    if args.proof.is_some() || args.cross_check {
        return Err(Failure::Conflict {
            first: "a directory as INPUT (batch mode)",
            second: "--proof FILE or --cross-check (use `batch --unique --proof-dir DIR`)",
        });
    }
    run(
        &BatchArgs {
            paths: vec![dir.to_path_buf()],
            format: args.format,
            time_limit: args.time_limit,
            engine: args.engine.clone(),
            proof_dir: None,
            proof: args.proof_args.clone(),
        },
        limits,
    )
}
