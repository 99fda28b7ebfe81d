//! The generate job: make puzzles by seed (of the wanted grade, when one is asked), or from a
//! given board's solution, and write each in the chosen format. [`GenerateJob::check`] checks
//! the job once (the solver linked; the size and fleet asked for within the job's limits; a
//! given board's solution, found first when the board has none) and gives a
//! [`CheckedGenerate`], which runs: no front end checks a size or a fleet itself. Puzzle `i` comes from its own random
//! stream of the seed, so the output depends only on the job; the caller decides where each
//! written puzzle goes.

use super::require_sat_solver;
use crate::format::{self, Board, Format, Inexpressible};
use crate::model::deadline::Budget;
use crate::model::limits::Limits;
use crate::model::puzzle::Puzzle;
use crate::usecase::error::{Error, Subject};
use crate::usecase::generate::{
    GenerateError, GenerateOptions, Generated, Given, generate_from, generate_graded, rng_for,
};
use crate::usecase::grade::Grade;
use crate::usecase::solve::{Outcome, SolveError, SolveOptions, solve};

/// A resolved generate job.
#[derive(Clone, Debug)]
pub struct GenerateJob {
    /// Board, fleet, clue removal and the uniqueness checks' budget.
    pub options: GenerateOptions,
    /// Make puzzles of this grade (steered by construction: `docs/grading.md`).
    pub grade: Option<Grade>,
    /// The master seed.
    pub seed: u64,
    /// How many puzzles.
    pub count: usize,
    /// The output format: JSON (any board, solution included) or IST (10x10, standard fleet).
    pub to: Format,
    /// JSON as one compact line a puzzle (JSON Lines, for several puzzles in one stream).
    pub one_line: bool,
    /// Make the puzzles from this board instead of random fleets: its solution (the one it
    /// carries, or else the only one it has), its size, fleet and counts, and its clues kept;
    /// `options.size` and `options.fleet` are then not read, and `grade` must be `None`.
    pub from: Option<Board>,
    /// The input limits the size and fleet asked for must keep ([`Error::Limit`]); a board
    /// [`GenerateJob::from`] was read within the front end's own.
    pub limits: Limits,
}

/// A [`GenerateJob`] checked once ([`GenerateJob::check`]): ready to run.
#[derive(Clone, Debug)]
pub struct CheckedGenerate<'a> {
    job: &'a GenerateJob,
    given: Option<Given>,
}

/// A puzzle written in an output format: the puzzle text and, for formats that keep it apart,
/// the solution text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written {
    /// The puzzle (with its solution inside, for formats that hold one).
    pub puzzle: String,
    /// The solution as its own file (IST `.out`), if the format keeps it apart.
    pub solution: Option<String>,
    /// File extension of the puzzle file.
    pub extension: &'static str,
}

impl GenerateJob {
    /// Checks the job once: the SAT solver linked; without a board to make the puzzles from,
    /// the size, then the fleet, then the open board of both within [`GenerateJob::limits`]
    /// ([`Error::Limit`] naming the [`Subject`]); and for a job [`GenerateJob::from`] a board:
    /// no grade asked, and its solution, which satisfies the board's rules
    /// ([`GenerateError::BrokenSolution`]). A board without one is solved first, within the
    /// options' deadline ([`GenerateError::OutOfTime`] past it): a board without a solution is
    /// [`GenerateError::GivenUnsat`], one with several [`GenerateError::GivenNotUnique`].
    pub fn check(&self) -> Result<CheckedGenerate<'_>, Error> {
        require_sat_solver(self.options.solver)?;
        let given = match &self.from {
            None => {
                self.check_limits()?;
                None
            }
            Some(_) if self.grade.is_some() => return Err(GenerateError::GradeOfGiven.into()),
            Some(board) => Some(given(board, &self.options)?),
        };
        Ok(CheckedGenerate { job: self, given })
    }

    /// The size, the fleet and the open board of both within the job's limits (the board
    /// first: its default fleet grows with it).
    fn check_limits(&self) -> Result<(), Error> {
        let over = |subject| move |error| Error::Limit { subject, error };
        let (size, fleet) = (self.options.size, &self.options.fleet);
        let limits = &self.limits;
        limits
            .board(size.rows, size.cols)
            .map_err(over(Subject::Size))?;
        limits.fleet(fleet).map_err(over(Subject::Fleet))?;
        // A fleet that cannot make a puzzle of this size is the generator's to refuse.
        if let Ok(open) = Puzzle::new(vec![None; size.rows], vec![None; size.cols], fleet.clone()) {
            limits.puzzle(&open).map_err(over(Subject::Size))?;
        }
        Ok(())
    }

    /// Checks the job ([`GenerateJob::check`]) and runs it ([`CheckedGenerate::run`]).
    pub fn run<E>(
        &self,
        each: impl FnMut(usize, &Generated, Written) -> Result<(), E>,
    ) -> Result<(), E>
    where
        E: From<Error> + From<GenerateError> + From<Inexpressible>,
    {
        self.check()?.run(each)
    }

    /// Puzzle `index` of the job's seed ([`GenerateJob::check`] first): see
    /// [`CheckedGenerate::puzzle`].
    pub fn puzzle(&self, index: u64) -> Result<Generated, Error> {
        Ok(self.check()?.puzzle(index)?)
    }
}

impl CheckedGenerate<'_> {
    /// Generates the puzzles in order and hands each, with its index and written form, to
    /// `each`; stops at the first error.
    pub fn run<E>(
        &self,
        mut each: impl FnMut(usize, &Generated, Written) -> Result<(), E>,
    ) -> Result<(), E>
    where
        E: From<GenerateError> + From<Inexpressible>,
    {
        let job = self.job;
        for index in 0..job.count {
            let generated = self.puzzle(index as u64)?;
            let written = write_generated(&generated, job.to, job.one_line)?;
            each(index, &generated, written)?;
        }
        Ok(())
    }

    /// Puzzle `index` of the job's seed, whatever `count` says: the puzzle that
    /// [`CheckedGenerate::run`] hands over at that index.
    pub fn puzzle(&self, index: u64) -> Result<Generated, GenerateError> {
        let job = self.job;
        let mut rng = rng_for(job.seed, index);
        match &self.given {
            Some(given) => generate_from(&job.options, given, &mut rng),
            None => generate_graded(&job.options, job.grade, &mut rng),
        }
    }

    /// The solution the puzzles are made from, for a job [`GenerateJob::from`] a board.
    pub fn given(&self) -> Option<&Given> {
        self.given.as_ref()
    }
}

/// The solution of `board` to make puzzles from: the one it carries, or else its only one,
/// found within `options`' deadline.
fn given(board: &Board, options: &GenerateOptions) -> Result<Given, Error> {
    let solution = match &board.embedded {
        Some(grid) => grid.clone(),
        None => {
            let solve_options = SolveOptions {
                budget: Budget::until(options.budget.deadline.clone()),
                ..SolveOptions::unique()
            };
            let report = match solve(&board.puzzle, &solve_options) {
                Ok(report) => report,
                Err(SolveError::TimeLimit | SolveError::Interrupted) => {
                    return Err(GenerateError::OutOfTime.into());
                }
                Err(e) => return Err(e.into()),
            };
            if report.stop.is_some() {
                return Err(GenerateError::OutOfTime.into());
            }
            match report.outcome {
                Outcome::Unique(grid) => grid,
                Outcome::Unsat => return Err(GenerateError::GivenUnsat.into()),
                _ => return Err(GenerateError::GivenNotUnique.into()),
            }
        }
    };
    Ok(Given::new(&board.puzzle, solution)?)
}

/// Writes a generated puzzle in `format`. With `one_line`, JSON is written as one compact line
/// (JSON Lines, for several puzzles in one stream).
pub fn write_generated(
    generated: &Generated,
    format: Format,
    one_line: bool,
) -> Result<Written, Inexpressible> {
    let Generated {
        puzzle,
        solution,
        undecided,
    } = generated;
    match format {
        Format::Json | Format::Auto => Ok(Written {
            puzzle: {
                let mut json = format::json::PuzzleJson::from_puzzle(puzzle, Some(solution));
                json.unproven = (!undecided.is_empty()).then_some(undecided.len());
                let mut text = if one_line {
                    serde_json::to_string(&json)
                } else {
                    serde_json::to_string_pretty(&json)
                }
                .expect("puzzle JSON always serializes");
                text.push('\n');
                text
            },
            solution: None,
            extension: "json",
        }),
        Format::Ist => Ok(Written {
            puzzle: format::ist::write_puzzle(puzzle).ok_or(Inexpressible {
                format: "ist",
                reason: "it holds only 10x10 boards with the standard fleet",
            })?,
            solution: Some(format::ist::write_solution(puzzle, solution)),
            extension: "txt",
        }),
        _ => Err(Inexpressible {
            format: "this output",
            reason: "generate writes json or ist",
        }),
    }
}
