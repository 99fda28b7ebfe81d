//! The JSON format (serde). A puzzle is an object with its size, counts (`null` = unknown),
//! fleet (ships per length) and clues; a solved grid is a list of row strings; a result gives
//! the status, the grid, the solution count and the solver's statistics. Both schemas are
//! documented in `docs/formats.md`.

use super::{Board, FileBudget, Found, ParseError, ParseErrorKind};
use crate::model::limits::{Limit, Limits};
use crate::model::outcome::{Outcome, Report, Stats};
use crate::model::puzzle::{Clue, Dir, Fleet, Grid, Piece, Pos, Puzzle};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A puzzle as JSON.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PuzzleJson {
    /// Number of rows.
    pub rows: usize,
    /// Number of columns.
    pub cols: usize,
    /// Ship cells per row, `null` where unknown.
    pub row_counts: Vec<Option<usize>>,
    /// Ship cells per column, `null` where unknown.
    pub col_counts: Vec<Option<usize>>,
    /// Ships per length: `{"4": 1, "3": 2, "2": 3, "1": 4}`.
    pub fleet: BTreeMap<usize, usize>,
    /// Revealed cells.
    #[serde(default)]
    pub clues: Vec<ClueJson>,
    /// A solution, when known: one string per row (see [`grid_rows`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub solution: Option<Vec<String>>,
    /// Written by `generate` when a clue set was stopped by its time limit: how many of its
    /// clues are not yet proven needed (the puzzle is unique all the same). Ignored on reading.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unproven: Option<usize>,
}

/// One revealed cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClueJson {
    /// 0-based row.
    pub row: usize,
    /// 0-based column.
    pub col: usize,
    /// What the cell holds.
    pub piece: JsonPiece,
}

/// Piece names used in JSON.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum JsonPiece {
    /// No ship.
    Water,
    /// A ship of length one.
    Submarine,
    /// Top end of a vertical ship.
    Top,
    /// Bottom end of a vertical ship.
    Bottom,
    /// Left end of a horizontal ship.
    Left,
    /// Right end of a horizontal ship.
    Right,
    /// Inner cell of a ship.
    Middle,
    /// Some ship part, kind unknown.
    Ship,
}

impl From<Clue> for JsonPiece {
    fn from(clue: Clue) -> Self {
        match clue {
            Clue::Ship => JsonPiece::Ship,
            Clue::Piece(Piece::Water) => JsonPiece::Water,
            Clue::Piece(Piece::Submarine) => JsonPiece::Submarine,
            Clue::Piece(Piece::End(Dir::Down)) => JsonPiece::Top,
            Clue::Piece(Piece::End(Dir::Up)) => JsonPiece::Bottom,
            Clue::Piece(Piece::End(Dir::Right)) => JsonPiece::Left,
            Clue::Piece(Piece::End(Dir::Left)) => JsonPiece::Right,
            Clue::Piece(Piece::Middle) => JsonPiece::Middle,
        }
    }
}

impl From<JsonPiece> for Clue {
    fn from(name: JsonPiece) -> Self {
        match name {
            JsonPiece::Ship => Clue::Ship,
            JsonPiece::Water => Clue::Piece(Piece::Water),
            JsonPiece::Submarine => Clue::Piece(Piece::Submarine),
            JsonPiece::Top => Clue::Piece(Piece::End(Dir::Down)),
            JsonPiece::Bottom => Clue::Piece(Piece::End(Dir::Up)),
            JsonPiece::Left => Clue::Piece(Piece::End(Dir::Right)),
            JsonPiece::Right => Clue::Piece(Piece::End(Dir::Left)),
            JsonPiece::Middle => Clue::Piece(Piece::Middle),
        }
    }
}

impl PuzzleJson {
    /// The JSON form of `puzzle`, with an optional solution.
    pub(crate) fn from_puzzle(puzzle: &Puzzle, solution: Option<&Grid>) -> Self {
        PuzzleJson {
            rows: puzzle.rows(),
            cols: puzzle.cols(),
            row_counts: puzzle.row_counts().to_vec(),
            col_counts: puzzle.col_counts().to_vec(),
            fleet: puzzle.fleet().classes().map(|c| (c.len, c.count)).collect(),
            clues: puzzle
                .clues()
                .map(|(pos, clue)| ClueJson {
                    row: pos.row,
                    col: pos.col,
                    piece: clue.into(),
                })
                .collect(),
            solution: solution.map(grid_rows),
            unproven: None,
        }
    }

    /// Builds the puzzle, checking sizes and clues; the board and the fleet are checked
    /// against `limits` before anything is allocated for them.
    pub(crate) fn to_puzzle(&self, limits: &Limits) -> Result<Puzzle, ParseErrorKind> {
        limits.board(self.rows, self.cols)?;
        let check = |what: &'static str, expected: usize, found: usize| {
            if expected == found {
                Ok(())
            } else {
                Err(ParseErrorKind::WrongCount {
                    what,
                    expected,
                    found,
                })
            }
        };
        check("row_counts entries", self.rows, self.row_counts.len())?;
        check("col_counts entries", self.cols, self.col_counts.len())?;
        if self.rows == 0 || self.cols == 0 {
            return Err(ParseErrorKind::Expected {
                expected: "a board with at least one row and one column",
                found: Found::new(&format!("{}x{}", self.rows, self.cols)),
            });
        }
        let max_len = self.fleet.keys().copied().max().unwrap_or(0);
        if self.fleet.contains_key(&0) {
            return Err(ParseErrorKind::Expected {
                expected: "ship lengths of 1 or more in fleet",
                found: Found::new("0"),
            });
        }
        limits.ship_len(max_len)?;
        limits.ships(
            self.fleet
                .values()
                .fold(0u64, |sum, &c| sum.saturating_add(c as u64)),
        )?;
        let mut counts = vec![0; max_len];
        for (&len, &count) in &self.fleet {
            counts[len - 1] = count;
        }
        let mut puzzle = Puzzle::new(
            self.row_counts.clone(),
            self.col_counts.clone(),
            Fleet::from_counts(counts),
        )
        .map_err(|_| ParseErrorKind::Expected {
            expected: "a non-empty board",
            found: Found::new("0 rows or columns"),
        })?;
        // The entry (counted from 1) that first named each clued cell.
        let mut named = std::collections::HashMap::new();
        for (at, clue) in self.clues.iter().enumerate() {
            let pos = Pos::new(clue.row, clue.col);
            if clue.row >= self.rows || clue.col >= self.cols {
                return Err(ParseErrorKind::OutsideBoard {
                    pos,
                    rows: self.rows,
                    cols: self.cols,
                });
            }
            if let Some(&first) = named.get(&pos) {
                return Err(ParseErrorKind::RepeatedClue {
                    pos,
                    first,
                    again: at + 1,
                });
            }
            named.insert(pos, at + 1);
            puzzle
                .add_clue(pos, clue.piece.into())
                .map_err(|_| ParseErrorKind::RepeatedClue {
                    pos,
                    first: at + 1,
                    again: at + 1,
                })?;
        }
        Ok(puzzle)
    }

    /// The solution grid, if one is given and well formed.
    pub(crate) fn solution_grid(&self) -> Option<Result<Grid, ParseErrorKind>> {
        self.solution
            .as_ref()
            .map(|rows| grid_from_rows(self.rows, self.cols, rows))
    }
}

/// Parses a JSON puzzle within `limits`.
pub fn parse(text: &str, limits: &Limits) -> Result<Puzzle, ParseError> {
    parse_with_solution(text, limits).map(|board| board.puzzle)
}

/// Parses a JSON puzzle and its solution, if it carries one, as a board that is the whole text,
/// within `limits`.
pub fn parse_with_solution(text: &str, limits: &Limits) -> Result<Board, ParseError> {
    let json: PuzzleJson = serde_json::from_str(text).map_err(|e| {
        ParseError::at(
            e.line().max(1),
            e.column().max(1),
            ParseErrorKind::Json {
                detail: without_position(&e.to_string()).to_string(),
            },
        )
    })?;
    let puzzle = json.to_puzzle(limits).map_err(|kind| {
        let key = match &kind {
            ParseErrorKind::Limit(e) if matches!(e.limit, Limit::ShipLen | Limit::Ships) => "fleet",
            ParseErrorKind::Limit(_) => "rows",
            ParseErrorKind::WrongCount { what, .. } if what.starts_with("row") => "row_counts",
            ParseErrorKind::WrongCount { what, .. } if what.starts_with("col") => "col_counts",
            ParseErrorKind::Expected { expected, .. } if expected.contains("fleet") => "fleet",
            ParseErrorKind::Expected { .. } => "rows",
            _ => "clues",
        };
        ParseError::at_line(line_of_key(text, key), kind)
    })?;
    let solution = json
        .solution_grid()
        .transpose()
        .map_err(|k| ParseError::at_line(line_of_key(text, "solution"), k))?;
    Ok(Board {
        embedded: solution,
        ..Board::whole(puzzle)
    })
}

/// Parses one or more JSON puzzles written one after another (JSON Lines, or pretty objects in
/// a row, as `generate --count K --to json` writes them): each puzzle as a board, with its
/// solution if it carries one and the 1-based line where it starts. Errors name the line in the
/// whole text. `limits` bound each board and the number of boards.
pub fn parse_all(text: &str, limits: &Limits) -> Result<Vec<Board>, ParseError> {
    let mut stream = serde_json::Deserializer::from_str(text).into_iter::<serde::de::IgnoredAny>();
    let mut boards = Vec::new();
    let mut budget = FileBudget::default();
    // Byte offset and line count of the text before the current object.
    let (mut start, mut offset) = (0, 0);
    while let Some(item) = stream.next() {
        if item.is_err() {
            // The whole text from here is not JSON: report it as the one-object parser does.
            return Err(shifted(
                parse_with_solution(&text[start..], limits).err(),
                offset,
            ));
        }
        let end = stream.byte_offset();
        let object = &text[start..end];
        let first = offset
            + object[..object.find('{').unwrap_or(0)]
                .matches('\n')
                .count()
            + 1;
        let board = parse_with_solution(object, limits).map_err(|e| shifted(Some(e), offset))?;
        // Each board is held to the limits alone before it is built; the file's total is
        // checked as each is added (so it may pass the total by one board at most).
        budget.take(first, board.puzzle.shape().cells(), limits)?;
        boards.push(Board {
            line: first,
            ..board
        });
        offset += object.matches('\n').count();
        start = end;
    }
    if boards.is_empty() {
        return Err(shifted(parse_with_solution(text, limits).err(), 0));
    }
    Ok(boards)
}

/// `error` (from parsing a piece of a text) with its line moved down by `offset` lines.
fn shifted(error: Option<ParseError>, offset: usize) -> ParseError {
    let mut error = error.unwrap_or_else(|| {
        ParseError::at_line(
            1,
            ParseErrorKind::Expected {
                expected: "a puzzle object (see docs/formats.md)",
                found: Found::new("something else"),
            },
        )
    });
    if error.line > 0 {
        error.line += offset;
    }
    error
}

/// serde_json's message without its " at line L column C" suffix (the error names the place).
fn without_position(message: &str) -> &str {
    message
        .rfind(" at line ")
        .map_or(message, |at| &message[..at])
}

/// The 1-based line where `"key"` first appears (1 when it does not).
fn line_of_key(text: &str, key: &str) -> usize {
    let quoted = format!("\"{key}\"");
    text.find(&quoted)
        .map_or(1, |at| text[..at].matches('\n').count() + 1)
}

/// Writes a puzzle (and optionally its solution) as pretty JSON with a final newline.
pub fn write_puzzle(puzzle: &Puzzle, solution: Option<&Grid>) -> String {
    let mut s = serde_json::to_string_pretty(&PuzzleJson::from_puzzle(puzzle, solution))
        .expect("puzzle JSON always serializes");
    s.push('\n');
    s
}

/// A grid as row strings: `.` water, `c` submarine, `t` `b` `l` `r` ends, `m` middle.
pub fn grid_rows(grid: &Grid) -> Vec<String> {
    (0..grid.rows())
        .map(|r| {
            (0..grid.cols())
                .map(|c| match grid.get(Pos::new(r, c)) {
                    Piece::Water => '.',
                    p => super::ist::letter_of_piece(p).to_ascii_lowercase(),
                })
                .collect()
        })
        .collect()
}

/// Reads row strings written by [`grid_rows`] (case-insensitive; `w` is water too).
pub fn grid_from_rows(rows: usize, cols: usize, lines: &[String]) -> Result<Grid, ParseErrorKind> {
    if lines.len() != rows {
        return Err(ParseErrorKind::WrongCount {
            what: "solution rows",
            expected: rows,
            found: lines.len(),
        });
    }
    let mut grid = Grid::water(rows, cols);
    for (r, line) in lines.iter().enumerate() {
        let chars: Vec<char> = line.chars().collect();
        if chars.len() != cols {
            return Err(ParseErrorKind::WrongCount {
                what: "cells in a solution row",
                expected: cols,
                found: chars.len(),
            });
        }
        for (c, ch) in chars.into_iter().enumerate() {
            let piece = match ch {
                '.' | 'w' | 'W' => Piece::Water,
                other => super::ist::piece_of_letter(&other.to_ascii_uppercase().to_string())
                    .ok_or_else(|| ParseErrorKind::UnknownLetter {
                        found: other.to_string(),
                        allowed: ". c t b l r m",
                    })?,
            };
            grid.set(Pos::new(r, c), piece);
        }
    }
    Ok(grid)
}

/// How a solve ended, in the result schema.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Status {
    /// Exactly one solution, proved.
    Unique,
    /// A solution; uniqueness not examined.
    Found,
    /// Two or more solutions.
    Multiple,
    /// No solution.
    Unsat,
    /// The input could not be read or solved (see `error`).
    Error,
    /// The time limit was reached first (see `error`); `solutions` and `grids` hold what was
    /// found before it.
    Timeout,
}

impl Status {
    /// The status of an outcome.
    pub fn of(outcome: &Outcome) -> Self {
        match outcome {
            Outcome::Unique(_) => Status::Unique,
            Outcome::Found(_) => Status::Found,
            Outcome::Multiple { .. } => Status::Multiple,
            _ => Status::Unsat,
        }
    }
}

/// Solver statistics in the result schema (times in milliseconds).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StatsJson {
    /// Backend name (`sat`, ...).
    pub backend: String,
    /// Model name (`cell`, ...).
    pub model: String,
    /// Variables in the formula.
    pub variables: usize,
    /// Clauses or constraints.
    pub constraints: usize,
    /// Conflicts, when counted (`--stats`).
    pub conflicts: Option<u64>,
    /// Solver calls.
    pub solver_calls: usize,
    /// Milliseconds spent encoding.
    pub encode_ms: f64,
    /// Milliseconds spent in the solver.
    pub solve_ms: f64,
}

impl From<&Stats> for StatsJson {
    fn from(s: &Stats) -> Self {
        StatsJson {
            backend: s.backend.to_string(),
            model: s.model.to_string(),
            variables: s.variables,
            constraints: s.constraints,
            conflicts: s.conflicts,
            solver_calls: s.solver_calls,
            encode_ms: s.encode_time.as_secs_f64() * 1e3,
            solve_ms: s.solve_time.as_secs_f64() * 1e3,
        }
    }
}

/// The result of solving one board, as JSON (one object per board; one line each in batch
/// mode). Documented in `docs/formats.md`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ResultJson {
    /// The input file, in batch mode.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// The board's ID (Rubin files), if it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board: Option<String>,
    /// How the solve ended.
    pub status: Status,
    /// Solutions found.
    pub solutions: usize,
    /// Whether `solutions` is the exact number (the search was exhausted).
    pub complete: bool,
    /// The first solution found, as row strings (see [`grid_rows`]); `null` without one.
    pub grid: Option<Vec<String>>,
    /// Every solution found, when counting (`--count`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub grids: Vec<Vec<String>>,
    /// Whether a solution found equals the one embedded in the file, when the file has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub matches_embedded: Option<bool>,
    /// What solving cost.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stats: Option<StatsJson>,
    /// Why the board could not be solved (status `error`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl ResultJson {
    /// The result of a report. With `all`, every grid found is listed in `grids`.
    pub fn from_report(report: &Report, embedded: Option<&Grid>, all: bool) -> Self {
        let grids = report.outcome.grids();
        ResultJson {
            file: None,
            board: None,
            status: if report.stop.is_some() {
                Status::Timeout
            } else {
                Status::of(&report.outcome)
            },
            solutions: grids.len(),
            complete: report.outcome.is_complete(),
            grid: grids.first().map(|g| grid_rows(g)),
            grids: if all {
                grids.iter().map(|g| grid_rows(g)).collect()
            } else {
                Vec::new()
            },
            matches_embedded: embedded.map(|e| grids.contains(&e)),
            stats: Some(StatsJson::from(&report.stats)),
            error: report.stop.map(|_| {
                format!(
                    "time limit reached after {} solutions; there may be more",
                    grids.len()
                )
            }),
        }
    }

    /// The result of a board or file that failed with `message`.
    pub fn error(message: String) -> Self {
        Self::failure(Status::Error, message)
    }

    /// The result of a board the time limit stopped.
    pub fn timeout(seconds: f64) -> Self {
        Self::failure(
            Status::Timeout,
            format!(
                "time limit of {} s reached",
                crate::model::deadline::seconds_text(seconds)
            ),
        )
    }

    fn failure(status: Status, message: String) -> Self {
        ResultJson {
            file: None,
            board: None,
            status,
            solutions: 0,
            complete: false,
            grid: None,
            grids: Vec::new(),
            matches_embedded: None,
            stats: None,
            error: Some(message),
        }
    }

    /// One line of JSON (no final newline).
    pub fn to_line(&self) -> String {
        serde_json::to_string(self).expect("results always serialize")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_with_unknown_counts_and_solution() {
        let mut p = Puzzle::new(
            vec![Some(1), None, Some(0)],
            vec![None, Some(1), Some(0)],
            Fleet::from_counts(vec![1]),
        )
        .unwrap();
        p.add_clue(Pos::new(0, 1), Clue::Piece(Piece::Submarine))
            .unwrap();
        let grid = Grid::from_ship_cells(
            3,
            3,
            &[false, true, false, false, false, false, false, false, false],
        )
        .unwrap();
        let text = write_puzzle(&p, Some(&grid));
        assert!(text.contains("null"));
        let Board {
            puzzle: q,
            embedded: g,
            ..
        } = parse_with_solution(&text, &Limits::default()).unwrap();
        assert_eq!(q, p);
        assert_eq!(g, Some(grid));
    }

    #[test]
    fn rejects_bad_json_with_a_line() {
        let e = parse("{\n \"rows\": 2,\n \"cols\": x }", &Limits::default()).unwrap_err();
        assert_eq!(e.line, 3);
    }
}
