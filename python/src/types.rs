//! The package's values: `Puzzle` (a board read by the library's readers, with the format and
//! name it came with), `Grid` (a solution, written by the library's writers) and `Result`
//! (what `solve` found), and reading text into puzzles.

use crate::errors::{internal, to_py};
use crate::names::Wrap;
use bimaru_sat::usecase::Source;
use bimaru_sat::usecase::job::convert::ConvertJob;
use bimaru_sat::usecase::json::{ClueJson, JsonPiece, PuzzleJson, ResultJson, grid_rows};
use bimaru_sat::usecase::{Board, Document, Format, OutputFormat, Writer};
use bimaru_sat::{Error, Grid, Limits, Puzzle};
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::collections::BTreeMap;

/// A Bimaru puzzle: board size, ship counts per row and column (None where unknown), the
/// fleet and the revealed cells. `Puzzle(row_counts=[...], col_counts=[...], fleet={4: 1, 3: 2,
/// 2: 3, 1: 4}, clues={(row, col): "top"})` makes one from Python data (clues may also be a
/// list of `(row, col, piece)`; pieces are water, submarine, top, bottom, left, right, middle
/// and ship; `rows=` and `cols=` default to the lengths of the counts; `solution=` takes one
/// string per row); `read` and `read_file` read one from text.
#[pyclass(frozen, module = "bimaru_sat._native", name = "Puzzle")]
#[derive(Clone)]
pub struct PyPuzzle {
    pub board: Board,
    pub format: Format,
    pub dialect: Option<bimaru_sat::usecase::DialectChoice>,
    pub name: String,
}

impl PyPuzzle {
    pub fn puzzle(&self) -> &Puzzle {
        &self.board.puzzle
    }

    /// A one-board document of this puzzle, for the library's writers.
    fn document(&self) -> Document {
        Document {
            format: self.format,
            boards: vec![self.board.clone()],
            dialect: self.dialect,
        }
    }

    pub fn grid(&self, grid: Grid) -> PyGrid {
        PyGrid {
            grid,
            owner: self.clone(),
        }
    }
}

#[pymethods]
impl PyPuzzle {
    #[new]
    #[pyo3(signature = (*, row_counts, col_counts, fleet, clues=None, rows=None, cols=None, solution=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        row_counts: Vec<Option<i128>>,
        col_counts: Vec<Option<i128>>,
        fleet: BTreeMap<i128, i128>,
        clues: Option<&Bound<'_, PyAny>>,
        rows: Option<i128>,
        cols: Option<i128>,
        solution: Option<Vec<String>>,
    ) -> PyResult<Self> {
        // Every number named by its argument when out of range (`ValueError`).
        let counts = |name: &str, counts: Vec<Option<i128>>| -> PyResult<Vec<Option<usize>>> {
            counts
                .into_iter()
                .map(|c| c.map(|c| crate::natural(name, c)).transpose())
                .collect()
        };
        let row_counts = counts("row_counts", row_counts)?;
        let col_counts = counts("col_counts", col_counts)?;
        let fleet = fleet
            .into_iter()
            .map(|(len, n)| Ok((crate::natural("fleet", len)?, crate::natural("fleet", n)?)))
            .collect::<PyResult<BTreeMap<usize, usize>>>()?;
        let rows = rows.map(|n| crate::natural("rows", n)).transpose()?;
        let cols = cols.map(|n| crate::natural("cols", n)).transpose()?;
        let clues = match clues {
            None => Vec::new(),
            Some(clues) => clue_list(clues)?,
        };
        let json = PuzzleJson {
            rows: rows.unwrap_or(row_counts.len()),
            cols: cols.unwrap_or(col_counts.len()),
            row_counts,
            col_counts,
            fleet,
            clues,
            solution,
            unproven: None,
        };
        let text = serde_json::to_string(&json).map_err(|e| internal(e.to_string()))?;
        read_one(&text, Format::Json, "<Puzzle>")
    }

    /// Number of rows.
    #[getter]
    fn rows(&self) -> usize {
        self.puzzle().rows()
    }

    /// Number of columns.
    #[getter]
    fn cols(&self) -> usize {
        self.puzzle().cols()
    }

    /// Ship cells per row (None where unknown).
    #[getter]
    fn row_counts(&self) -> Vec<Option<usize>> {
        self.puzzle().row_counts().to_vec()
    }

    /// Ship cells per column (None where unknown).
    #[getter]
    fn col_counts(&self) -> Vec<Option<usize>> {
        self.puzzle().col_counts().to_vec()
    }

    /// Ships per length: {4: 1, 3: 2, 2: 3, 1: 4}.
    #[getter]
    fn fleet(&self) -> BTreeMap<usize, usize> {
        self.puzzle()
            .fleet()
            .classes()
            .map(|c| (c.len, c.count))
            .collect()
    }

    /// Revealed cells: {(row, col): piece name}, 0-based.
    #[getter]
    fn clues(&self) -> PyResult<BTreeMap<(usize, usize), String>> {
        self.puzzle()
            .clues()
            .map(|(pos, clue)| Ok(((pos.row, pos.col), piece_name(clue.into())?)))
            .collect()
    }

    /// The board's ID (boards of a Rubin file), or None.
    #[getter]
    fn id(&self) -> Option<String> {
        self.board.id.clone()
    }

    /// The name it was read under (the file, `<text>`, `<Puzzle>`, ...).
    #[getter]
    fn name(&self) -> String {
        self.name.clone()
    }

    /// The format it was read in.
    #[getter]
    fn format(&self) -> &'static str {
        self.format.into()
    }

    /// The solution the input carried (a CSC384 or JSON file's, a generated puzzle's), or None.
    #[getter]
    fn solution(&self) -> Option<PyGrid> {
        self.board.embedded.clone().map(|g| self.grid(g))
    }

    /// The puzzle written in `format` (ist, csc384, rubin, dzn, json, puzzlink), as
    /// `bimaru-sat convert --to FORMAT` writes it.
    fn to(&self, format: Wrap<OutputFormat>) -> PyResult<String> {
        let to = format.0;
        let job = ConvertJob { to, cells: None };
        job.run(&self.document(), &self.name).map_err(to_py)
    }

    /// The puzzle as an SVG picture.
    fn svg(&self) -> String {
        bimaru_sat::usecase::svg(self.puzzle(), None)
    }

    fn _repr_svg_(&self) -> String {
        self.svg()
    }

    fn __repr__(&self) -> String {
        format!(
            "<Puzzle {}x{} fleet {} clues {} from {}>",
            self.rows(),
            self.cols(),
            self.puzzle().fleet(),
            self.puzzle().clue_count(),
            self.name
        )
    }

    fn __str__(&self) -> String {
        bimaru_sat::usecase::json::write_puzzle(self.puzzle(), self.board.embedded.as_ref())
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyPuzzle>()
            .is_ok_and(|o| o.get().puzzle() == self.puzzle())
    }

    /// Pickling (Dask sends puzzles to workers): the puzzle's JSON, its name and ID.
    #[allow(clippy::type_complexity)]
    fn __reduce__(
        slf: &Bound<'_, Self>,
    ) -> PyResult<(Py<PyAny>, (String, String, Option<String>))> {
        let py = slf.py();
        let read = py.import("bimaru_sat")?.getattr("_puzzle_from_json")?;
        let me = slf.get();
        let json = bimaru_sat::usecase::json::write_puzzle(me.puzzle(), me.board.embedded.as_ref());
        Ok((read.unbind(), (json, me.name.clone(), me.board.id.clone())))
    }
}

/// The piece name of a clue or cell in the JSON schema (`water`, `top`, ...).
pub fn piece_name(piece: JsonPiece) -> PyResult<String> {
    match serde_json::to_value(piece) {
        Ok(serde_json::Value::String(s)) => Ok(s),
        _ => Err(internal("internal error: piece name")),
    }
}

/// Clues given as `{(row, col): piece}` or `[(row, col, piece), ...]`.
pub fn clue_list(clues: &Bound<'_, PyAny>) -> PyResult<Vec<ClueJson>> {
    let triples: Vec<(usize, usize, String)> = match clues.cast::<PyDict>() {
        Ok(dict) => dict
            .iter()
            .map(|(k, v)| {
                let (row, col): (usize, usize) = k.extract()?;
                Ok((row, col, v.extract()?))
            })
            .collect::<PyResult<_>>()?,
        Err(_) => clues.extract()?,
    };
    triples
        .into_iter()
        .map(|(row, col, piece)| {
            let piece: JsonPiece = serde_json::from_value(serde_json::Value::String(
                piece.to_ascii_lowercase(),
            ))
            .map_err(|_| {
                PyValueError::new_err(format!(
                    "clue at ({row}, {col}): {piece:?} is not a piece; one of water, submarine, top, bottom, left, right, middle, ship"
                ))
            })?;
            Ok(ClueJson { row, col, piece })
        })
        .collect()
}

/// A solved grid. `grid[r, c]` is the cell's letter (`.` water, `c` submarine, `t b l r`
/// ends, `m` middle); `str(grid)` draws it as `--to pretty` does.
#[pyclass(frozen, module = "bimaru_sat._native", name = "Grid")]
#[derive(Clone)]
pub struct PyGrid {
    pub grid: Grid,
    owner: PyPuzzle,
}

#[pymethods]
impl PyGrid {
    /// (rows, cols).
    #[getter]
    fn shape(&self) -> (usize, usize) {
        (self.grid.rows(), self.grid.cols())
    }

    fn __getitem__(&self, key: (usize, usize)) -> PyResult<String> {
        let (row, col) = key;
        if row >= self.grid.rows() || col >= self.grid.cols() {
            return Err(PyIndexError::new_err(format!(
                "cell ({row}, {col}) is outside the {}x{} grid",
                self.grid.rows(),
                self.grid.cols()
            )));
        }
        Ok(grid_rows(&self.grid)[row]
            .chars()
            .nth(col)
            .map(String::from)
            .unwrap_or_default())
    }

    /// One string per row, as in the JSON result schema.
    fn to_list(&self) -> Vec<String> {
        grid_rows(&self.grid)
    }

    /// A NumPy array of one-letter strings, shape (rows, cols).
    fn to_numpy<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let cells: Vec<Vec<String>> = grid_rows(&self.grid)
            .iter()
            .map(|row| row.chars().map(String::from).collect())
            .collect();
        py.import("numpy")?.call_method1("array", (cells,))
    }

    /// The solution written in `format` (ist, csc384, rubin, dzn, json, pretty, rpi), as
    /// `bimaru-sat --to FORMAT` writes it.
    fn to(&self, format: Wrap<OutputFormat>) -> PyResult<String> {
        let to = format.0;
        self.writer(Some(to))
    }

    /// The puzzle and this solution as an SVG picture.
    fn svg(&self) -> String {
        bimaru_sat::usecase::svg(self.owner.puzzle(), Some(&self.grid))
    }

    fn _repr_svg_(&self) -> String {
        self.svg()
    }

    fn __str__(&self) -> PyResult<String> {
        self.writer(Some(OutputFormat::Pretty))
    }

    fn __repr__(&self) -> String {
        format!("<Grid {}x{}>", self.grid.rows(), self.grid.cols())
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyGrid>()
            .is_ok_and(|o| o.get().grid == self.grid)
    }
}

impl PyGrid {
    fn writer(&self, to: Option<OutputFormat>) -> PyResult<String> {
        let doc = self.owner.document();
        let writer = Writer::choose(to, None, &doc);
        writer.check(self.owner.puzzle()).map_err(to_py)?;
        Ok(writer.grid(self.owner.puzzle(), &self.grid))
    }
}

/// What `solve` found.
#[pyclass(frozen, module = "bimaru_sat._native", name = "Result")]
pub struct PyResult_ {
    pub status: &'static str,
    pub grids: Vec<PyGrid>,
    pub complete: bool,
    pub stopped: bool,
    pub json: ResultJson,
}

#[pymethods]
impl PyResult_ {
    /// `unique` (proved), `found` (one, uniqueness not asked), `several` or `unsat`.
    #[getter]
    fn status(&self) -> &'static str {
        self.status
    }

    /// The first grid found, or None.
    #[getter]
    fn grid(&self) -> Option<PyGrid> {
        self.grids.first().cloned()
    }

    /// Every grid found, in order.
    #[getter]
    fn grids(&self) -> Vec<PyGrid> {
        self.grids.clone()
    }

    /// How many solutions were found.
    #[getter]
    fn count(&self) -> usize {
        self.grids.len()
    }

    /// Whether the search was exhausted (the count is exact).
    #[getter]
    fn complete(&self) -> bool {
        self.complete
    }

    /// The time limit stopped the search after the grids found (a lower bound).
    #[getter]
    fn stopped(&self) -> bool {
        self.stopped
    }

    /// The solver's statistics: backend, model, variables, constraints, conflicts,
    /// solver_calls, encode_ms, solve_ms.
    #[getter]
    fn stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_value(
            py,
            &serde_json::to_string(&self.json.stats).unwrap_or_default(),
        )
    }

    /// The result in the JSON result schema (`--to json`), as one line.
    fn to_json(&self) -> String {
        self.json.to_line()
    }

    fn __repr__(&self) -> String {
        let grids = match self.grids.len() {
            1 => "1 grid".to_string(),
            n => format!("{n} grids"),
        };
        format!("<Result {} ({grids})>", self.status)
    }
}

/// `text`, a JSON document, as Python values.
pub fn json_value<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    py.import("json")?.call_method1("loads", (text,))
}

/// Reads the boards of `text` (`name` in messages) in `format`.
pub fn read_doc(text: &str, format: Format, name: &str) -> Result<(Document, Format), Error> {
    let source = Source::from_bytes(name, text.as_bytes())?;
    let format = source.format(format)?;
    Ok((
        source.document(format, &bimaru_sat::Limits::default())?,
        format,
    ))
}

pub fn puzzles_of(doc: Document, name: &str) -> Vec<PyPuzzle> {
    let Document {
        format,
        boards,
        dialect,
    } = doc;
    boards
        .into_iter()
        .map(|board| PyPuzzle {
            board,
            format,
            dialect,
            name: name.to_string(),
        })
        .collect()
}

pub fn read_one(text: &str, format: Format, name: &str) -> PyResult<PyPuzzle> {
    let (doc, _) = read_doc(text, format, name).map_err(to_py)?;
    doc.single(name).map_err(to_py)?;
    Ok(puzzles_of(doc, name).remove(0))
}

pub fn file_text(path: &std::path::Path) -> PyResult<(String, String)> {
    let source = Source::read(path, &Limits::default()).map_err(to_py)?;
    Ok((source.text, source.name))
}
