//! The batch job: many files, or every file of a folder, solved one group after another (the
//! files of a group, and the boards of a file, in parallel) and reported in order, one JSON
//! result per board (the schema of `docs/formats.md`). Files of unknown format found in a
//! folder are skipped; a file that cannot be read is reported and the batch goes on. With
//! [`BatchJob::proof`], every board whose outcome a proof can certify gets a certificate
//! ([`crate::usecase::proof`]), checked by [`check`] before it counts.

use super::solve::Tally;
use crate::format::Format;
use crate::format::detect::looks_solved_grid;
use crate::format::json::{ResultJson, Status};
use crate::model::deadline::Deadline;
use crate::model::limits::Limits;
use crate::model::puzzle::Puzzle;
use crate::usecase::error::Error;
use crate::usecase::proof::{Certificate, ProofOptions, check};
use crate::usecase::solve::{Goal, Outcome, SolveError, SolveOptions, solve};
use crate::usecase::{LeftOut, Source, folder_listing};
use rayon::prelude::*;
use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A resolved batch: what to read and how to solve each board.
#[derive(Clone, Debug, Default)]
pub struct BatchJob {
    /// Files and folders (every file directly inside a folder).
    pub paths: Vec<PathBuf>,
    /// The format of every file.
    pub format: Format,
    /// The engine configuration and what to establish for each board (`options.goal`;
    /// counting lists every grid in `grids`).
    pub options: SolveOptions,
    /// The time limit of each board, counted from its start.
    pub time_limit: Option<Duration>,
    /// The largest input read.
    pub limits: Limits,
    /// Certify every board that has no solution, a unique one or a complete count.
    pub proof: Option<ProofOptions>,
}

/// One input of a batch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BatchFile {
    /// The file.
    pub path: PathBuf,
    /// Found by listing a folder: skipped, not reported, when its format is unknown.
    pub listed: bool,
}

/// What became of one file.
#[derive(Debug)]
#[non_exhaustive]
pub enum FileResult {
    /// Listed in a folder, and not a puzzle (not text, or a format detection does not know):
    /// skipped.
    Skipped,
    /// The file could not be read, parsed or solved.
    Failed(Error),
    /// Its boards, in file order.
    Boards(Vec<BoardResult>),
}

impl FileResult {
    /// The JSON result lines `batch` writes for this file of `path`: one per board (a board
    /// the time limit of `seconds` stopped gets a `timeout` line), one `error` line for a file
    /// that failed, with its error worded by `message`, none for a skipped file. Each line
    /// names the file.
    pub fn lines(
        self,
        path: &Path,
        seconds: Option<f64>,
        message: impl Fn(&Error) -> String,
    ) -> Vec<ResultJson> {
        let mut lines = match self {
            FileResult::Boards(boards) => boards
                .into_iter()
                .map(|board| {
                    board.result.unwrap_or_else(|| {
                        let mut timeout = ResultJson::timeout(seconds.unwrap_or_default());
                        timeout.board = board.id;
                        timeout
                    })
                })
                .collect(),
            FileResult::Failed(e) => vec![ResultJson::error(message(&e))],
            FileResult::Skipped => Vec::new(),
        };
        let name = path.display().to_string();
        for line in &mut lines {
            line.file = Some(name.clone());
        }
        lines
    }
}

/// One board of a file.
#[derive(Clone, Debug)]
pub struct BoardResult {
    /// The board's ID (Rubin files), if it has one.
    pub id: Option<String>,
    /// Its result (with `board` set, `file` not); `None` when the time limit stopped it.
    pub result: Option<ResultJson>,
    /// Its certificate, when the job asks for proofs.
    pub proof: Option<BoardProof>,
}

/// What became of one board's certificate ([`BatchJob::proof`]).
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum BoardProof {
    /// Made, and accepted by [`check`].
    Certified(Box<Certificate>),
    /// The outcome is not one a proof certifies: several solutions without a complete count,
    /// a solution whose uniqueness was not asked for, or the time limit.
    Uncertifiable,
    /// Making the certificate failed, or [`check`] rejected it (never expected: a bug).
    Failed(String),
}

/// The counts of a whole batch.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BatchSummary {
    /// Files read (skipped ones not counted).
    pub files: usize,
    /// Boards reported (time-outs included).
    pub boards: usize,
    /// The outcomes, and the boards the time limit stopped.
    pub tally: Tally,
    /// Files that could not be read.
    pub failed: usize,
    /// Files of unknown format skipped.
    pub skipped: usize,
    /// Boards certified ([`BoardProof::Certified`]).
    pub certified: usize,
    /// Boards whose outcome no proof certifies ([`BoardProof::Uncertifiable`]).
    pub uncertifiable: usize,
    /// Boards whose certificate failed ([`BoardProof::Failed`]).
    pub proof_failed: usize,
}

/// The files a batch reads, and what its folders hold that it does not read.
#[derive(Clone, Debug)]
pub struct BatchListing {
    /// The files, in order.
    pub files: Vec<BatchFile>,
    /// The folders' entries left out.
    pub left_out: Vec<LeftOut>,
    /// The folders' files that hold a solved grid and no puzzle (a solution beside its puzzle,
    /// as `NNN.out` beside `NNN.txt`): not read.
    pub solutions: Vec<PathBuf>,
    /// The folders' files whose boards are those of a file before them in the same listing
    /// (one puzzle kept in two formats, `NNN.json` and `NNN.txt`): not solved twice.
    pub repeats: Vec<Repeat>,
}

/// A folder's file that holds the same boards as a file listed before it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Repeat {
    /// The file left out.
    pub path: PathBuf,
    /// The file listed before it with the same boards.
    pub of: PathBuf,
}

/// What a file found in a folder holds, for the listing.
enum Listed {
    /// To be read and solved (or reported: a file that cannot be read or parsed is left to
    /// [`BatchJob::run`], which says why).
    Read,
    /// A solved grid.
    Solution,
    /// The boards of the file named.
    Repeat(PathBuf),
}

impl BatchJob {
    /// The files named by the job: files as given, folders expanded to the files directly
    /// inside them, sorted by name (a link inside that leads nowhere included: it fails as it
    /// would given by name). A folder with no file inside is an error
    /// ([`Error::EmptyFolder`]).
    pub fn files(&self) -> Result<Vec<BatchFile>, Error> {
        Ok(self.listing()?.files)
    }

    /// [`BatchJob::files`], and the entries of the folders that are not read: folders and
    /// special files, each with what it is, solved grids, and files that repeat the boards of a
    /// file listed before them (each folder's files are read here to tell them).
    pub fn listing(&self) -> Result<BatchListing, Error> {
        let mut listing = BatchListing {
            files: Vec::new(),
            left_out: Vec::new(),
            solutions: Vec::new(),
            repeats: Vec::new(),
        };
        let mut seen = HashMap::new();
        for path in &self.paths {
            if !path.is_dir() {
                listing.files.push(BatchFile {
                    path: path.clone(),
                    listed: false,
                });
                continue;
            }
            let folder = folder_listing(path)?;
            if folder.files.is_empty() {
                return Err(Error::EmptyFolder { path: path.clone() });
            }
            listing.left_out.extend(folder.left_out);
            for path in folder.files {
                match self.listed(&path, &mut seen) {
                    Listed::Read => listing.files.push(BatchFile { path, listed: true }),
                    Listed::Solution => listing.solutions.push(path),
                    Listed::Repeat(of) => listing.repeats.push(Repeat { path, of }),
                }
            }
        }
        Ok(listing)
    }

    /// What the folder's file `path` holds; `seen` maps the boards of the files read so far
    /// to the first file that holds them.
    fn listed(&self, path: &Path, seen: &mut HashMap<Vec<Puzzle>, PathBuf>) -> Listed {
        let Ok(source) = Source::read(path, &self.limits) else {
            return Listed::Read;
        };
        let doc = match source.format(self.format) {
            Ok(format) => source.document(format, &self.limits),
            Err(Error::UnknownFormat { .. }) if looks_solved_grid(&source.text) => {
                return Listed::Solution;
            }
            Err(e) => Err(e),
        };
        let Ok(doc) = doc else {
            return Listed::Read;
        };
        let boards = doc.boards.into_iter().map(|b| b.puzzle).collect();
        match seen.entry(boards) {
            Entry::Occupied(first) => Listed::Repeat(first.get().clone()),
            Entry::Vacant(entry) => {
                entry.insert(path.to_path_buf());
                Listed::Read
            }
        }
    }

    /// Solves `files` a few at a time in parallel and hands each file's result to `each`, in
    /// order, as soon as its group is done.
    pub fn run(
        &self,
        files: &[BatchFile],
        mut each: impl FnMut(&Path, FileResult),
    ) -> BatchSummary {
        let mut summary = BatchSummary::default();
        let chunk = 2 * rayon::current_num_threads();
        for group in files.chunks(chunk.max(1)) {
            let done: Vec<_> = group.par_iter().map(|file| self.file(file)).collect();
            for (file, done) in group.iter().zip(done) {
                let result = match done {
                    Ok(None) => {
                        summary.skipped += 1;
                        FileResult::Skipped
                    }
                    Ok(Some(boards)) => FileResult::Boards(boards),
                    Err(e) => {
                        summary.failed += 1;
                        FileResult::Failed(e)
                    }
                };
                if let FileResult::Boards(boards) = &result {
                    summary.boards += boards.len();
                    for board in boards {
                        match &board.result {
                            Some(r) => summary.tally.add(r.status, r.matches_embedded),
                            None => summary.tally.add(Status::Timeout, None),
                        }
                        match &board.proof {
                            Some(BoardProof::Certified(_)) => summary.certified += 1,
                            Some(BoardProof::Uncertifiable) => summary.uncertifiable += 1,
                            Some(BoardProof::Failed(_)) => summary.proof_failed += 1,
                            None => {}
                        }
                    }
                }
                each(&file.path, result);
            }
        }
        summary.files = files.len() - summary.skipped;
        summary
    }

    /// Solves every board of one file in parallel. `Ok(None)`: a listed file that is not text
    /// or of unknown format, skipped.
    fn file(&self, file: &BatchFile) -> Result<Option<Vec<BoardResult>>, Error> {
        let (source, format) = if file.listed {
            match Source::read_listed(&file.path, self.format, &self.limits)? {
                Some(read) => read,
                None => return Ok(None),
            }
        } else {
            let source = Source::read(&file.path, &self.limits)?;
            let format = source.format(self.format)?;
            (source, format)
        };
        let doc = source.document(format, &self.limits)?;
        let options = &self.options;
        let counting = matches!(options.goal, Goal::Count(_));
        let results: Vec<(Option<ResultJson>, Option<BoardProof>)> = doc
            .boards
            .par_iter()
            .map(|board| {
                let options = SolveOptions {
                    budget: options
                        .budget
                        .until_earlier(&Deadline::within(self.time_limit)),
                    ..options.clone()
                };
                (board, solve(&board.puzzle, &options))
            })
            .map(|(board, solved)| match solved {
                Err(SolveError::TimeLimit) => {
                    Ok((None, self.proof.map(|_| BoardProof::Uncertifiable)))
                }
                Err(e) => Err(e),
                Ok(report) => {
                    let mut result =
                        ResultJson::from_report(&report, board.embedded.as_ref(), counting);
                    result.board = board.id.clone();
                    let proof = self
                        .proof
                        .map(|proof| certified(&board.puzzle, &report.outcome, &proof));
                    Ok((Some(result), proof))
                }
            })
            .collect::<Result<_, _>>()?;
        Ok(Some(
            doc.boards
                .iter()
                .zip(results)
                .map(|(board, (result, proof))| BoardResult {
                    id: board.id.clone(),
                    result,
                    proof,
                })
                .collect(),
        ))
    }
}

/// Certifies `outcome` ([`super::solve::certificate`]) and checks the certificate as
/// `check-proof` would.
fn certified(puzzle: &Puzzle, outcome: &Outcome, options: &ProofOptions) -> BoardProof {
    let certificate = match super::solve::certificate(puzzle, outcome, options) {
        Ok(Some(certificate)) => certificate,
        Ok(None) => return BoardProof::Uncertifiable,
        Err(e) => return BoardProof::Failed(e.to_string()),
    };
    let Ok(cnf) = std::str::from_utf8(&certificate.cnf) else {
        return BoardProof::Failed("the formula written is not text".into());
    };
    match check(puzzle, cnf, &certificate.proof) {
        Ok(_) => BoardProof::Certified(Box::new(certificate)),
        Err(rejection) => BoardProof::Failed(format!("rejected at {rejection}")),
    }
}
