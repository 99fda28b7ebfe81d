//! DIMACS export and import of external solvers' answers. [`Formula::build`] encodes a puzzle
//! into an in-memory CNF with deterministic variable numbering; [`Formula::write`] writes it with
//! header comments (tool, model, cardinality encoding, board, fleet, puzzle fingerprint) and a
//! `c var` map naming every cell and placement variable. [`read_answer`] reads SAT-competition
//! output (`s SATISFIABLE`, `v ... 0`) or a MiniSat result file (`SAT`/`UNSAT` then the
//! literals), and [`Formula::decode`] checks such a model against the formula and turns it into a
//! verified [`Grid`]. A variable beyond the formula (or beyond [`crate::model::limits::Limits::max_variable`]) is
//! refused as it is read, so an answer never allocates more than its formula's size.

pub use super::answer::{Assignment, DimacsAnswer, read_answer};
use super::card::CardKind;
use super::instance::{Encoding, Instance};
use super::model::Model;
use crate::format::{Found, ParseError, ParseErrorKind};
use crate::model::cnf::CnfFormula;
use crate::model::lit::Lit;
use crate::model::placement::Placements;
use crate::model::puzzle::{Grid, Orientation, Puzzle};
use crate::model::verify::{Violation, verify};
use std::fmt::Write as _;

/// A puzzle's formula in memory, with the variables that name cells and placements.
#[derive(Debug)]
pub struct Formula {
    /// The clauses (and the blocking clauses that [`Formula::exclude`] added).
    pub cnf: CnfFormula,
    /// Cell and placement variables.
    pub encoding: Encoding,
    /// The placements the variables stand for, in variable order.
    pub placements: Placements,
    /// The model used.
    pub model: Model,
    /// The cardinality encoding used.
    pub card: CardKind,
    /// The puzzle's fingerprint (`fingerprint`).
    pub fingerprint: u64,
    /// The grids blocked by [`Formula::exclude`], in order.
    excluded: Vec<Grid>,
}

impl Formula {
    /// Encodes `puzzle` with `model` and `card`. The same puzzle and choices always give the
    /// same numbering: cells row-major from 1, then placements, then auxiliaries.
    pub fn build(puzzle: &Puzzle, model: Model, card: CardKind) -> Self {
        let placements = Placements::new(puzzle);
        let mut cnf = CnfFormula::new();
        let encoding = model.encode(&Instance::plain(puzzle, &placements, card), &mut cnf);
        Formula {
            cnf,
            encoding,
            placements,
            model,
            card,
            fingerprint: fingerprint(puzzle),
            excluded: Vec::new(),
        }
    }

    /// Adds the clause that blocks `grid`: one of its ship cells must turn to water. Since the
    /// fleet fixes the number of ship cells, every other solution satisfies it, so the formula
    /// is unsatisfiable exactly when `grid` was the only solution. Called once per grid, it
    /// blocks several: the formula is then unsatisfiable exactly when they are all the solutions.
    /// The header ([`Formula::write`]) lists the blocked grids (`read_solutions`).
    pub fn exclude(&mut self, grid: &Grid) {
        let block: Vec<Lit> = self
            .encoding
            .cells
            .iter()
            .zip(grid.ship_cells())
            .filter(|(_, ship)| *ship)
            .map(|(v, _)| v.negative())
            .collect();
        self.cnf.add_clause(&block);
        self.excluded.push(grid.clone());
    }

    /// Writes the formula as DIMACS CNF, with header comments and the variable map.
    pub fn write(&self, puzzle: &Puzzle) -> Vec<u8> {
        let mut head = String::with_capacity(64 * (self.encoding.cells.len() + 8));
        let (rows, cols) = (puzzle.rows(), puzzle.cols());
        let shape = puzzle.shape();
        let vars = self.cnf.var_count();
        let n_cells = self.encoding.cells.len();
        let n_places = self.encoding.placements.len();
        // Writing to a String cannot fail.
        let _ = writeln!(
            head,
            "c {} {} DIMACS export",
            env!("CARGO_PKG_NAME"),
            env!("CARGO_PKG_VERSION")
        );
        let _ = writeln!(head, "c model: {}", self.model);
        let _ = writeln!(head, "c card: {}", self.card);
        let _ = writeln!(head, "c board: {rows}x{cols}");
        let _ = writeln!(head, "c fleet: {}", puzzle.fleet());
        let _ = writeln!(head, "c puzzle: {:016x}", self.fingerprint);
        match self.excluded.len() {
            0 => {
                let _ = writeln!(head, "c exclude-solution: no");
            }
            1 => {
                let _ = writeln!(
                    head,
                    "c exclude-solution: the last clause blocks the solution found; UNSAT proves it unique"
                );
            }
            n => {
                let _ = writeln!(
                    head,
                    "c exclude-solution: the last {n} clauses block the {n} solutions found; UNSAT proves there are no others"
                );
            }
        }
        for (i, grid) in self.excluded.iter().enumerate() {
            let _ = writeln!(head, "{SOLUTION} {}: {}", i + 1, solution_rows(grid));
        }
        let _ = writeln!(
            head,
            "c variables: 1-{n_cells} cells (row-major, true = ship), {}-{} placements, {}-{vars} auxiliary",
            n_cells + 1,
            n_cells + n_places,
            n_cells + n_places + 1,
        );
        for (i, v) in self.encoding.cells.iter().enumerate() {
            let pos = shape.pos(i);
            let _ = writeln!(head, "c var {} cell {} {}", v.to_dimacs(), pos.row, pos.col);
        }
        for (ship, v) in self
            .placements
            .ships()
            .iter()
            .zip(&self.encoding.placements)
        {
            let axis = match ship.orientation {
                Orientation::Horizontal => "horizontal",
                Orientation::Vertical => "vertical",
            };
            let _ = writeln!(
                head,
                "c var {} placement len {} {axis} {} {}",
                v.to_dimacs(),
                ship.len,
                ship.start.row,
                ship.start.col
            );
        }
        let mut out = head.into_bytes();
        out.reserve(self.cnf.len() * 12);
        // Writing to a Vec cannot fail.
        let _ = self.cnf.write_dimacs(&mut out);
        out
    }

    /// Checks `assignment` against every clause and decodes the cell variables into a grid that
    /// the verifier accepts for `puzzle`.
    pub fn decode(&self, puzzle: &Puzzle, assignment: &Assignment) -> Result<Grid, DecodeError> {
        let vars = self.cnf.var_count();
        if assignment.values.len() > vars {
            return Err(DecodeError::UnknownVariable {
                var: assignment.values.len(),
                vars,
            });
        }
        let missing = (0..vars).filter(|&i| assignment.value(i).is_none()).count();
        if missing > 0 {
            let first = (0..vars)
                .find(|&i| assignment.value(i).is_none())
                .map_or(0, |i| i + 1);
            return Err(DecodeError::Incomplete {
                missing,
                vars,
                first,
            });
        }
        for (index, clause) in self.cnf.iter().enumerate() {
            let holds = clause
                .iter()
                .any(|l| assignment.value(l.index()) == Some(l.is_positive()));
            if !holds {
                return Err(DecodeError::Falsified {
                    index: index + 1,
                    clause: clause.iter().map(|l| l.to_dimacs()).collect(),
                });
            }
        }
        let ship: Vec<bool> = self
            .encoding
            .cells
            .iter()
            .map(|v| assignment.value(v.index()) == Some(true))
            .collect();
        let grid = Grid::from_ship_cells(puzzle.rows(), puzzle.cols(), &ship)
            .ok_or(DecodeError::NotStraight)?;
        verify(puzzle, &grid)?;
        Ok(grid)
    }
}

/// The header comment that names a blocked grid: `c solution N: ROW/ROW/...`, `#` a ship cell
/// and `.` water.
const SOLUTION: &str = "c solution";

fn solution_rows(grid: &Grid) -> String {
    let rows: Vec<String> = (0..grid.rows())
        .map(|r| {
            (0..grid.cols())
                .map(|c| {
                    if grid.is_ship(crate::model::puzzle::Pos::new(r, c)) {
                        '#'
                    } else {
                        '.'
                    }
                })
                .collect()
        })
        .collect();
    rows.join("/")
}

/// Reads the grids that the header comments of a DIMACS file written by [`Formula::write`] say
/// its blocking clauses exclude (`c solution N: ...`, in order), for a `rows` x `cols` board.
/// The grids are only read here: whether they solve the puzzle is the verifier's question.
pub(crate) fn read_solutions(
    text: &str,
    rows: usize,
    cols: usize,
) -> Result<Vec<Grid>, ParseError> {
    let mut grids = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim_end_matches('\r');
        if line.starts_with('p') {
            break;
        }
        let Some(rest) = line.strip_prefix(SOLUTION) else {
            continue;
        };
        let bad = |expected| {
            ParseError::at_line(
                i + 1,
                ParseErrorKind::Expected {
                    expected,
                    found: Found::new(rest.trim()),
                },
            )
        };
        let Some((number, cells)) = rest.trim().split_once(": ") else {
            return Err(bad("`N: ROW/ROW/...` after `c solution`"));
        };
        if number.parse::<usize>().ok() != Some(grids.len() + 1) {
            return Err(bad("solutions numbered 1, 2, ... in order"));
        }
        let rows_text: Vec<&str> = cells.trim().split('/').collect();
        if rows_text.len() != rows || rows_text.iter().any(|r| r.chars().count() != cols) {
            return Err(bad(
                "one `#`/`.` row per board row, each as long as the board is wide",
            ));
        }
        let mut ship = Vec::with_capacity(rows * cols);
        for ch in rows_text.iter().flat_map(|r| r.chars()) {
            match ch {
                '#' => ship.push(true),
                '.' => ship.push(false),
                _ => return Err(bad("only `#` (ship) and `.` (water) in a solution row")),
            }
        }
        let grid = Grid::from_ship_cells(rows, cols, &ship)
            .ok_or_else(|| bad("ship cells that form straight ships"))?;
        grids.push(grid);
    }
    Ok(grids)
}

/// A stable 64-bit fingerprint (FNV-1a) of a puzzle: board, counts, fleet and clues. The DIMACS
/// header records it, so a formula can be matched to its puzzle.
pub(crate) fn fingerprint(puzzle: &Puzzle) -> u64 {
    let mut text = format!("{}x{};", puzzle.rows(), puzzle.cols());
    for count in puzzle.row_counts().iter().chain(puzzle.col_counts()) {
        match count {
            Some(k) => {
                let _ = write!(text, "{k},");
            }
            None => text.push_str("?,"),
        }
    }
    let _ = write!(text, ";{};", puzzle.fleet());
    for (pos, clue) in puzzle.clues() {
        let _ = write!(text, "{},{}:{clue:?};", pos.row, pos.col);
    }
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Why a solver's model does not decode for a puzzle.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DecodeError {
    /// The model names a variable the formula does not have.
    #[error(
        "the model names variable {var}, but this puzzle's formula has only {vars}: it belongs to another puzzle, or to a formula of another model or cardinality encoding"
    )]
    UnknownVariable {
        /// The largest variable named.
        var: usize,
        /// Variables in the formula.
        vars: usize,
    },
    /// Some variables are not assigned.
    #[error(
        "the model assigns no value to {missing} of the formula's {vars} variables (first: {first}): it is truncated, or belongs to another puzzle or to a formula of another model or cardinality encoding"
    )]
    Incomplete {
        /// How many are missing.
        missing: usize,
        /// Variables in the formula.
        vars: usize,
        /// The first missing variable (DIMACS number).
        first: usize,
    },
    /// The model falsifies a clause.
    #[error(
        "the model falsifies clause {index} ({}) of this puzzle's formula: it belongs to another puzzle, or to a formula of another model or cardinality encoding",
        join(clause)
    )]
    Falsified {
        /// 1-based clause number, in file order.
        index: usize,
        /// The clause, as DIMACS literals.
        clause: Vec<isize>,
    },
    /// The ship cells do not form straight ships.
    #[error("the model's ship cells do not form straight ships")]
    NotStraight,
    /// The verifier rejected the decoded grid.
    #[error("the decoded grid breaks a rule: {0}")]
    Rejected(#[from] Violation),
    /// The DIMACS header names another puzzle.
    #[error(
        "the formula was written for another puzzle (its header says puzzle {formula:016x}, this puzzle is {puzzle:016x})"
    )]
    OtherPuzzle {
        /// Fingerprint in the header.
        formula: u64,
        /// Fingerprint of the puzzle given.
        puzzle: u64,
    },
    /// The solver gave no answer.
    #[error("the solver gave no answer (UNKNOWN or INDET)")]
    NoAnswer,
    /// A MIP solver's solution to an LP file was given where a SAT solver's answer belongs.
    #[error(
        "this is a MIP solver's solution to an LP file (CBC's solution file or a glpsol report), not a SAT solver's answer to a DIMACS formula"
    )]
    MipSolution,
    /// A SAT solver's answer was given where a MIP solver's solution belongs.
    #[error(
        "this is a SAT solver's answer to a DIMACS formula, not a MIP solver's solution to an LP file (CBC's solution file or a glpsol report)"
    )]
    SatAnswer,
}

fn join(clause: &[isize]) -> String {
    let mut s: String = clause.iter().map(|l| format!("{l} ")).collect();
    s.push('0');
    s
}

/// The choices recorded in a DIMACS file's header comments by [`Formula::write`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Header {
    /// The CNF model.
    pub model: Option<Model>,
    /// The cardinality encoding.
    pub card: Option<CardKind>,
    /// The puzzle fingerprint.
    pub fingerprint: Option<u64>,
}

/// Reads the header comments (before the `p cnf` line) of a DIMACS file written by
/// [`Formula::write`]. Unknown comments are ignored; an unknown model or card name is an error.
pub fn read_header(text: &str) -> Result<Header, ParseError> {
    let mut header = Header::default();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim_end_matches('\r');
        if line.starts_with('p') {
            break;
        }
        let Some(rest) = line.strip_prefix("c ") else {
            continue;
        };
        let Some((key, value)) = rest.split_once(": ") else {
            continue;
        };
        let value = value.trim();
        let bad = |expected| {
            ParseError::at_line(
                i + 1,
                ParseErrorKind::Expected {
                    expected,
                    found: Found::new(value),
                },
            )
        };
        match key {
            "model" => {
                header.model = Some(
                    value
                        .parse::<Model>()
                        .map_err(|_| bad("a model (cell, placement)"))?,
                );
            }
            "card" => {
                header.card = Some(
                    value
                        .parse::<CardKind>()
                        .map_err(|_| bad("a cardinality encoding (seq, totalizer, cardnet)"))?,
                );
            }
            "puzzle" => {
                header.fingerprint = Some(
                    u64::from_str_radix(value, 16)
                        .map_err(|_| bad("a 16-digit hexadecimal fingerprint"))?,
                );
            }
            _ => {}
        }
    }
    Ok(header)
}
