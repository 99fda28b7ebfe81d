//! The solve job: a parsed document, an engine configuration, a goal (one solution, a proof of
//! uniqueness, or a count), an output format, and optionally a DIMACS export, an LP export, a
//! certificate (`--proof`, [`crate::usecase::proof`]) and a cross-check. [`SolveJob::check`]
//! checks the job against its document once and gives a [`CheckedSolve`], whose
//! [`CheckedSolve::run`] solves every board and returns the text to write, the reports, the
//! formula, the certificate and the cross-check's verdicts; the caller writes them and turns
//! the outcomes into messages and an exit status.
//!
//! Time-outs follow [`crate::model::outcome`]'s one channel: a board stopped before any grid
//! is the error ([`SolveError::TimeLimit`]) of a one-board job and a [`Stop`] in
//! [`BoardsSolved::reports`]; one stopped after some grids is a report with
//! [`Report::stop`] set.

use super::require_solvers;
use crate::encode::ilp::lp;
use crate::encode::sat::card::CardKind;
use crate::encode::sat::dimacs::Formula;
use crate::format::csc384::Dialect;
use crate::format::json::{ResultJson, Status};
use crate::format::{Board, Document, Format, OutputFormat, Writer};
use crate::model::puzzle::{Grid, Puzzle};
use crate::usecase::compare::Config;
use crate::usecase::error::{Error, Export};
use crate::usecase::proof::{
    Certificate, Claim, CrossCheck, ProofOptions, certify, cross_check, cross_configs,
};
use crate::usecase::solve::{Goal, Outcome, Report, SolveError, SolveOptions, Stop, solve};
use std::sync::Arc;
use std::time::Duration;

/// A DIMACS export along with a solve (single-board documents).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Dimacs {
    /// Write the formula instead of solving.
    Only,
    /// Solve, then write the formula; with `exclude_solution`, plus the clause that blocks the
    /// solution found (an external solver answering UNSAT then proves it unique).
    After {
        /// Add the clause that blocks the first solution found.
        exclude_solution: bool,
    },
}

/// An LP export along with a solve (single-board documents): the job's integer program
/// (`options.ilp_model`) in CPLEX LP format, for an external MIP solver.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LpExport {
    /// The input's name, in the program's first comment line.
    pub source: String,
    /// The last comment line: the front end's words on solving the program and reading the
    /// answer back.
    pub how: String,
    /// Write the program instead of solving: unless a DIMACS export is asked for too, nothing
    /// is solved ([`Solved::Program`]).
    pub only: bool,
}

/// A cross-check after the solve (single-board documents): independent configurations asked
/// the uniqueness question again, each within `budget` ([`cross_check`]).
#[derive(Clone)]
pub struct CrossCheckOptions {
    /// The configurations, in order (by default [`cross_configs`]).
    pub configs: Arc<[Config]>,
    /// Each leg's time (none: no limit).
    pub budget: Option<Duration>,
}

impl CrossCheckOptions {
    /// The default legs ([`cross_configs`] with the cardinality encoding `card`), each within
    /// `budget`.
    pub fn new(card: CardKind, budget: Option<Duration>) -> Self {
        CrossCheckOptions {
            configs: cross_configs(card).into(),
            budget,
        }
    }
}

impl std::fmt::Debug for CrossCheckOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<&str> = self.configs.iter().map(|c| c.name.as_str()).collect();
        f.debug_struct("CrossCheckOptions")
            .field("configs", &names)
            .field("budget", &self.budget)
            .finish()
    }
}

/// A resolved solve: what to establish, how, and how to write it; every export and check that
/// goes with it.
#[derive(Clone, Debug, Default)]
pub struct SolveJob {
    /// The engine configuration, the time limit, and what to establish (`options.goal`).
    pub options: SolveOptions,
    /// The output format; by default the input's.
    pub to: Option<OutputFormat>,
    /// The CSC384 cell alphabet; by default the input's, else symbols.
    pub cells: Option<Dialect>,
    /// A DIMACS export, for single-board documents.
    pub dimacs: Option<Dimacs>,
    /// An LP export, for single-board documents.
    pub lp: Option<LpExport>,
    /// Certify the answer (single-board documents): when the outcome is no solution, a unique
    /// solution or a complete count, the formula that blocks every solution found and a DRAT
    /// proof of its unsatisfiability, made as these options say.
    pub proof: Option<ProofOptions>,
    /// Cross-check the answer (single-board documents), unless the time limit stopped it.
    pub cross_check: Option<CrossCheckOptions>,
}

/// What a solve job gave.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum Solved {
    /// The DIMACS formula, written instead of solving ([`Dimacs::Only`]).
    Formula(Vec<u8>),
    /// Only the LP program was asked for ([`LpExport::only`], [`CheckedSolve::program`]):
    /// nothing was solved.
    Program,
    /// The one board of the document.
    Board(Box<BoardSolved>),
    /// A Rubin file or a document of several boards: every board solved and reported by name.
    Boards(BoardsSolved),
}

/// One board solved.
#[derive(Clone, Debug)]
pub struct BoardSolved {
    /// The report; its `stop` is set when the time limit stopped the search after some grids.
    pub report: Report,
    /// The text to write; `None` when there is none (no solution, or several where uniqueness
    /// was the goal, or the time limit). A count's grids are followed by a line that the
    /// front end writes from [`BoardSolved::count`].
    pub text: Option<String>,
    /// How a count ended ([`Goal::Count`], output other than JSON).
    pub count: Option<CountEnd>,
    /// The DIMACS formula to write after solving ([`Dimacs::After`]).
    pub formula: Option<Vec<u8>>,
    /// The certificate ([`SolveJob::proof`]); `None` when none was asked for or the outcome
    /// is not one a proof certifies (see `certificate`).
    pub certificate: Option<Box<Certificate>>,
    /// The cross-check's verdicts ([`SolveJob::cross_check`]); `None` when none was asked for
    /// or the search was stopped.
    pub cross_check: Option<CrossCheck>,
}

/// Every board of a document solved.
#[derive(Clone, Debug)]
pub struct BoardsSolved {
    /// Each board's report, in file order, or why it was stopped before any grid.
    pub reports: Vec<Result<Report, Stop>>,
    /// Each board's status line and grids (JSON: one result line a board); `None` when some
    /// board was stopped, with or without grids, so that nothing partial is written.
    pub text: Option<String>,
    /// The outcomes counted.
    pub tally: Tally,
}

impl BoardsSolved {
    /// Why each board was stopped, in file order (`None`: it was not).
    pub fn stops(&self) -> Vec<Option<Stop>> {
        self.reports
            .iter()
            .map(|r| match r {
                Ok(report) => report.stop,
                Err(stop) => Some(*stop),
            })
            .collect()
    }
}

/// A [`SolveJob`] checked against its document ([`SolveJob::check`]): ready to run.
#[derive(Debug)]
pub struct CheckedSolve<'a> {
    job: &'a SolveJob,
    doc: &'a Document,
    writer: Writer,
}

impl SolveJob {
    /// Checks the job against `doc` (named `source_name` in errors), once: an output format that
    /// can show every board's solution, the solvers linked, a certificate or a cross-check for
    /// one board only, and an export for one board of a one-board format.
    pub fn check<'a>(
        &'a self,
        doc: &'a Document,
        source_name: &str,
    ) -> Result<CheckedSolve<'a>, Error> {
        let writer = Writer::choose(self.to, self.cells, doc);
        for board in &doc.boards {
            writer.check(&board.puzzle)?;
        }
        require_solvers(&self.options)?;
        let several = by_board(doc);
        if several && (self.proof.is_some() || self.cross_check.is_some()) {
            return Err(Error::CheckOfBoards {
                source_name: source_name.to_string(),
            });
        }
        let export = match (&self.dimacs, &self.lp) {
            (Some(_), _) => Some(Export::Dimacs),
            (None, Some(_)) => Some(Export::Lp),
            (None, None) => None,
        };
        if let Some(export) = export {
            // A formula or program is written for one board of a one-board format.
            doc.single(source_name)?;
            if several {
                return Err(Error::ExportOfBoards {
                    source_name: source_name.to_string(),
                    export,
                });
            }
        }
        Ok(CheckedSolve {
            job: self,
            doc,
            writer,
        })
    }

    /// Checks the job against `doc` ([`SolveJob::check`]) and runs it.
    pub fn run(&self, doc: &Document, source_name: &str) -> Result<Solved, Error> {
        self.check(doc, source_name)?.run()
    }

    /// What the job is to establish.
    pub fn goal(&self) -> Goal {
        self.options.goal
    }

    /// The job's integer program (`options.ilp_model`) of `puzzle` in CPLEX LP format, for an
    /// external MIP solver instead of solving here; its comment names `source`, then `how`
    /// (the front end's line on solving it and reading the answer back).
    pub fn lp_program(&self, puzzle: &Puzzle, source: &str, how: &str) -> String {
        let model = self.options.ilp_model;
        let comment = vec![
            format!("bimaru-sat {model} ILP model of {source}"),
            format!(
                "{}x{} board, fleet {}",
                puzzle.rows(),
                puzzle.cols(),
                puzzle.fleet()
            ),
            how.to_string(),
        ];
        lp::write(&model.build(puzzle), &comment)
    }

    /// The DIMACS formula of `puzzle` in the job's encoding, blocking `exclude` when given.
    fn formula(&self, puzzle: &Puzzle, exclude: Option<&Grid>) -> Vec<u8> {
        let mut formula = Formula::build(puzzle, self.options.model, self.options.card);
        if let Some(grid) = exclude {
            formula.exclude(grid);
        }
        formula.write(puzzle)
    }

    /// What to write for one solved board.
    fn text(&self, board: &Board, report: &Report, writer: Writer) -> Option<String> {
        let several = matches!(report.outcome, Outcome::Multiple { .. });
        if writer.to == OutputFormat::Json {
            let counting = matches!(self.goal(), Goal::Count(_));
            let result = ResultJson::from_report(report, board.embedded.as_ref(), counting);
            let text = serde_json::to_string_pretty(&result).expect("results always serialize");
            return (!(several && self.goal() == Goal::Unique)).then(|| text + "\n");
        }
        if let Goal::Count(_) = self.goal() {
            return Some(counted(writer, &board.puzzle, report));
        }
        if (several || report.stop.is_some()) && self.goal() == Goal::Unique {
            return None;
        }
        let grid = report.outcome.grid()?;
        Some(writer.grid(&board.puzzle, grid))
    }

    /// Solves every board in parallel and reports them in file order.
    fn boards(
        &self,
        doc: &Document,
        writer: Writer,
        options: &SolveOptions,
    ) -> Result<BoardsSolved, Error> {
        use rayon::prelude::*;
        let reports: Vec<Result<Report, Stop>> = doc
            .boards
            .par_iter()
            .map(|board| match solve(&board.puzzle, options) {
                Ok(report) => Ok(Ok(report)),
                Err(e) => e.stop().map(Err).ok_or(e),
            })
            .collect::<Result<_, _>>()?;
        let mut tally = Tally::default();
        let mut out = String::new();
        for (index, (board, report)) in doc.boards.iter().zip(&reports).enumerate() {
            // Nothing partial is written for a document of several boards.
            let report = match report {
                Ok(report) if report.stop.is_none() => report,
                _ => {
                    return Ok(BoardsSolved {
                        reports,
                        text: None,
                        tally,
                    });
                }
            };
            let matched = board
                .embedded
                .as_ref()
                .map(|e| report.outcome.grids().contains(&e));
            tally.add(Status::of(&report.outcome), matched);
            if writer.to == OutputFormat::Json {
                let counting = matches!(self.goal(), Goal::Count(_));
                let mut result = ResultJson::from_report(report, board.embedded.as_ref(), counting);
                result.board = board.id.clone();
                out.push_str(&result.to_line());
                out.push('\n');
                continue;
            }
            if index > 0 {
                out.push('\n');
            }
            out.push_str(&self.board_text(board, index, report, matched, writer));
        }
        Ok(BoardsSolved {
            reports,
            text: Some(out),
            tally,
        })
    }

    /// A board's status line (`Board ID: unique, matches the embedded solution`) and grids.
    fn board_text(
        &self,
        board: &Board,
        index: usize,
        report: &Report,
        matched: Option<bool>,
        writer: Writer,
    ) -> String {
        let unique = self.goal() == Goal::Unique;
        let grids = report.outcome.grids();
        let mut status = match &report.outcome {
            Outcome::Unique(_) => "unique".to_string(),
            Outcome::Found(_) => "solved".to_string(),
            Outcome::Multiple { grids, complete } => format!(
                "{}{}{} solutions",
                if unique { "not unique: " } else { "" },
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
        let mut out = format!("{}: {status}\n", board_name(board, index));
        let shown: &[&Grid] = match &report.outcome {
            Outcome::Multiple { .. } if unique => &[],
            _ if matches!(self.goal(), Goal::Count(_)) => &grids,
            _ => &grids[..grids.len().min(1)],
        };
        for grid in shown {
            out.push_str(&writer.grid(&board.puzzle, grid));
        }
        out
    }
}

impl CheckedSolve<'_> {
    /// The writer of the solutions.
    pub fn writer(&self) -> Writer {
        self.writer
    }

    /// The LP program ([`SolveJob::lp`]), to be written before solving.
    pub fn program(&self) -> Option<String> {
        let lp = self.job.lp.as_ref()?;
        Some(
            self.job
                .lp_program(&self.doc.boards[0].puzzle, &lp.source, &lp.how),
        )
    }

    /// Solves every board of the document (the boards of a multi-board document in parallel).
    /// A one-board job stopped before any grid fails with [`SolveError::TimeLimit`] (or
    /// [`SolveError::Interrupted`]).
    pub fn run(&self) -> Result<Solved, Error> {
        let (job, doc, writer) = (self.job, self.doc, self.writer);
        let options = &job.options;
        if by_board(doc) {
            return job.boards(doc, writer, options).map(Solved::Boards);
        }
        let board = &doc.boards[0];
        let puzzle = &board.puzzle;
        if job.dimacs == Some(Dimacs::Only) {
            return Ok(Solved::Formula(job.formula(puzzle, None)));
        }
        if job.lp.as_ref().is_some_and(|lp| lp.only) && job.dimacs.is_none() {
            return Ok(Solved::Program);
        }
        let report = solve(puzzle, options)?;
        let formula = match job.dimacs {
            Some(Dimacs::After { exclude_solution }) => {
                Some(job.formula(puzzle, report.outcome.grid().filter(|_| exclude_solution)))
            }
            _ => None,
        };
        let certificate = match &job.proof {
            Some(options) => certificate(puzzle, &report.outcome, options)?.map(Box::new),
            None => None,
        };
        let count = match job.goal() {
            Goal::Count(limit) if writer.to != OutputFormat::Json => {
                Some(CountEnd::of(&report, limit))
            }
            _ => None,
        };
        let cross_check = match &job.cross_check {
            Some(cross) if report.stop.is_none() => {
                Some(cross_check(puzzle, &cross.configs, cross.budget))
            }
            _ => None,
        };
        Ok(Solved::Board(Box::new(BoardSolved {
            text: job.text(board, &report, writer),
            count,
            report,
            formula,
            certificate,
            cross_check,
        })))
    }
}

/// Whether `doc` is solved board by board ([`Solved::Boards`]): a Rubin file, or several
/// boards.
pub fn by_board(doc: &Document) -> bool {
    doc.format == Format::Rubin || doc.boards.len() != 1
}

/// How a count ended, for the line after its grids.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CountEnd {
    /// Every solution was found: there are this many.
    Complete(usize),
    /// The time limit stopped the search after this many.
    TimeLimit(usize),
    /// The search stopped at the count asked for; there may be more.
    AtLimit {
        /// Solutions found.
        found: usize,
        /// The count asked for.
        limit: usize,
    },
}

impl CountEnd {
    /// How the count of `report`, looking for up to `limit` solutions, ended.
    pub(crate) fn of(report: &Report, limit: usize) -> Self {
        let found = report.outcome.grids().len();
        if report.outcome.is_complete() {
            CountEnd::Complete(found)
        } else if report.stop.is_some() {
            CountEnd::TimeLimit(found)
        } else {
            CountEnd::AtLimit { found, limit }
        }
    }
}

/// Every grid found, separated by blank lines (the `solutions:` line is the front end's, from
/// [`CountEnd`]).
fn counted(writer: Writer, puzzle: &Puzzle, report: &Report) -> String {
    let outcome = &report.outcome;
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
    text
}

/// A board's name in reports: its ID, or its number and line.
pub fn board_name(board: &Board, index: usize) -> String {
    match &board.id {
        Some(id) => format!("Board {id}"),
        None => format!("Board {} (line {})", index + 1, board.line),
    }
}

/// Outcomes counted over many boards.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
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
    /// Boards the time limit stopped.
    pub timeouts: usize,
}

impl Tally {
    /// Counts one board's status (errors are not boards); `matched` tells whether the board's
    /// embedded solution, if it has one, was found.
    pub(crate) fn add(&mut self, status: Status, matched: Option<bool>) {
        match status {
            Status::Unique => self.unique += 1,
            Status::Found => self.found += 1,
            Status::Multiple => self.multiple += 1,
            Status::Unsat => self.unsat += 1,
            Status::Timeout => self.timeouts += 1,
            Status::Error => {}
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
}

/// Certifies `outcome` for `puzzle` ([`certify`]) when a proof can: no solution, a unique
/// solution, or a complete count (every grid blocked). `None` for a solution whose uniqueness
/// was not examined or a count that stopped at its limit.
pub(crate) fn certificate(
    puzzle: &Puzzle,
    outcome: &Outcome,
    options: &ProofOptions,
) -> Result<Option<Certificate>, Error> {
    if Claim::of_outcome(outcome).is_none() {
        return Ok(None);
    }
    let grids: Vec<Grid> = outcome.grids().into_iter().cloned().collect();
    let certificate = certify(puzzle, &grids, options).map_err(SolveError::from)?;
    Ok(Some(certificate))
}
