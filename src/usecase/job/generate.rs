//! The generate job: make puzzles by seed (of the wanted grade, when one is asked), and write
//! each in the chosen format. Puzzle `i` comes from its own random stream of the seed, so the output
//! depends only on the job; the caller decides where each written puzzle goes.

use crate::format::{self, Format, Inexpressible};
use crate::usecase::generate::{
    GenerateError, GenerateOptions, Generated, generate_graded, rng_for,
};
use crate::usecase::grade::Grade;

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
    /// Generates the puzzles in order and hands each, with its index and written form, to
    /// `each`; stops at the first error.
    pub fn run<E>(
        &self,
        mut each: impl FnMut(usize, &Generated, Written) -> Result<(), E>,
    ) -> Result<(), E>
    where
        E: From<GenerateError> + From<Inexpressible>,
    {
        for index in 0..self.count {
            let generated = self.puzzle(index as u64)?;
            let written = write_generated(&generated, self.to, self.one_line)?;
            each(index, &generated, written)?;
        }
        Ok(())
    }

    /// Puzzle `index` of the job's seed, whatever `count` says: the puzzle that
    /// [`GenerateJob::run`] hands over at that index.
    pub fn puzzle(&self, index: u64) -> Result<Generated, GenerateError> {
        let mut rng = rng_for(self.seed, index);
        generate_graded(&self.options, self.grade, &mut rng)
    }
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
