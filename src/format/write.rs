//! The one dispatcher from an output format to its writer. A [`Writer`] (format and CSC384
//! cell alphabet) turns a solved grid, a solved puzzle or a document's puzzles into text; solve,
//! batch, decode and convert all write through it, so a format is written the same way
//! everywhere.

use super::csc384::Dialect;
use super::{
    Board, Document, Inexpressible, OutputFormat, csc384, dzn, ist, json, pretty, puzzlink, rpi,
    rubin,
};
use crate::model::puzzle::{Fleet, Grid, Puzzle};

/// How solutions and puzzles are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Writer {
    /// The output format.
    pub to: OutputFormat,
    /// Cell alphabet for CSC384 output.
    pub dialect: Dialect,
}

impl Writer {
    /// The writer for `doc`: `to` or the input's own format, `cells` or the input's dialect
    /// (else symbols).
    pub fn choose(to: Option<OutputFormat>, cells: Option<Dialect>, doc: &Document) -> Self {
        Writer {
            to: to.unwrap_or(OutputFormat::following(doc.format)),
            dialect: cells
                .or(doc.dialect.map(|d| d.dialect))
                .unwrap_or(Dialect::Symbols),
        }
    }

    /// Refuses puzzles whose solutions this format cannot show.
    pub fn check(&self, puzzle: &Puzzle) -> Result<(), Inexpressible> {
        match self.to {
            OutputFormat::Ist
                if puzzle.rows() != ist::SIZE
                    || puzzle.cols() != ist::SIZE
                    || *puzzle.fleet() != Fleet::standard() =>
            {
                Err(Inexpressible {
                    format: "ist",
                    reason: "its boards are 10x10 with the standard fleet",
                })
            }
            OutputFormat::Csc384 => csc384::check_solution(puzzle),
            OutputFormat::Rpi => rpi::check_solution(puzzle),
            OutputFormat::Puzzlink => Err(Inexpressible {
                format: "puzzlink",
                reason: "a URL holds a puzzle, not its solution",
            }),
            _ => Ok(()),
        }
    }

    /// One solved grid as text (JSON: its rows, one string a line; the result schema of a whole
    /// solve is [`json::ResultJson`]).
    pub fn grid(&self, puzzle: &Puzzle, grid: &Grid) -> String {
        match self.to {
            OutputFormat::Ist => ist::write_solution(puzzle, grid),
            OutputFormat::Csc384 => csc384::write_solution(grid, self.dialect),
            OutputFormat::Rubin => rubin::drawing(puzzle, grid, true),
            OutputFormat::Dzn => rubin::drawing(puzzle, grid, false),
            OutputFormat::Rpi => rpi::write_solution(puzzle, grid),
            OutputFormat::Pretty | OutputFormat::Puzzlink => pretty::write_solution(puzzle, grid),
            OutputFormat::Json => json::grid_rows(grid).join("\n") + "\n",
        }
    }

    /// A puzzle with its solution, as a file of this format: JSON keeps the puzzle and adds the
    /// solution, the other formats show the solved grid.
    pub fn solved_puzzle(&self, puzzle: &Puzzle, grid: &Grid) -> String {
        match self.to {
            OutputFormat::Json => json::write_puzzle(puzzle, Some(grid)),
            _ => self.grid(puzzle, grid),
        }
    }

    /// The puzzles of `boards` (with the solutions they carry, where the format keeps them).
    /// Rubin takes several boards, separated by its rule line; the other formats hold one.
    pub(crate) fn puzzles(&self, boards: &[Board]) -> Result<String, Inexpressible> {
        let mut text = String::new();
        for (index, board) in boards.iter().enumerate() {
            let puzzle = &board.puzzle;
            let part = match self.to {
                OutputFormat::Ist => ist::write_puzzle(puzzle).ok_or(Inexpressible {
                    format: "ist",
                    reason: "its boards are 10x10 with the standard fleet, known counts and typed clues",
                }),
                OutputFormat::Csc384 => csc384::write_puzzle(puzzle, self.dialect),
                OutputFormat::Rubin => {
                    let id = board.id.clone().unwrap_or_else(|| (index + 1).to_string());
                    let mut part = String::new();
                    if index > 0 {
                        part.push_str("====================================================\n\n");
                    }
                    rubin::write_board(&id, puzzle, board.embedded.as_ref()).map(|b| {
                        part.push_str(&b);
                        part
                    })
                }
                OutputFormat::Dzn => dzn::write_puzzle(puzzle),
                OutputFormat::Json => Ok(json::write_puzzle(puzzle, board.embedded.as_ref())),
                OutputFormat::Puzzlink => puzzlink::write_puzzle(puzzle),
                OutputFormat::Pretty => Err(Inexpressible {
                    format: "pretty",
                    reason: "it draws solutions only",
                }),
                OutputFormat::Rpi => Err(Inexpressible {
                    format: "rpi",
                    reason: "bimaru-sat writes its solutions only",
                }),
            }?;
            text.push_str(&part);
        }
        Ok(text)
    }
}
