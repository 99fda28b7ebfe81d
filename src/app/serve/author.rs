//! The puzzle-author routes: `/api/hint` (one forced cell, the rules that force it and the
//! cells they cite) and `/api/grade`, each running its command's job on a request's puzzle.

use super::api::{PuzzleRequest, json};
use super::limits::{ApiError, WorkDeadline};
use axum::http::StatusCode;
use axum::response::Response;
use bimaru_sat::usecase::Budget;
use bimaru_sat::usecase::grade::{GradeReport, Graded};
use bimaru_sat::usecase::hint::{Hint, Method, Rule, State as Filled};
use bimaru_sat::usecase::job::author::{GradeJob, HintJob, grade_line};
use bimaru_sat::usecase::json::{JsonPiece, Status};
use serde::Serialize;

/// The answer of `POST /api/hint`.
#[derive(Debug, Serialize)]
pub struct HintJson {
    /// `hint`, or `complete` when no cell is open.
    pub status: &'static str,
    /// The forced cell's row (0-based).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub row: Option<usize>,
    /// Its column (0-based).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub col: Option<usize>,
    /// What it holds: `water`, `ship` (a part of unknown kind) or a piece.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content: Option<JsonPiece>,
    /// How it was found: `propagation`, `look-ahead` or `search`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub method: Option<&'static str>,
    /// The rules that force it, in words.
    pub rules: Vec<String>,
    /// The hint as `bimaru-sat hint` prints it.
    pub text: String,
    /// The state with the clues and the hinted cell filled in.
    pub state: String,
    /// The cells the hint cites (its clues, filled cells, cells no ship fits through and the
    /// second cell of a case split), as `[row, col]` (0-based), each once, the hinted cell
    /// left out: the page highlights them.
    pub cells: Vec<[usize; 2]>,
    /// The rows whose counts the hint cites (0-based).
    pub rows: Vec<usize>,
    /// The columns whose counts the hint cites (0-based).
    pub cols: Vec<usize>,
}

/// What a hint cites: its cells (the hinted one left out), rows and columns, each once, in
/// the order its rules name them.
fn cited(hint: &Hint) -> (Vec<[usize; 2]>, Vec<usize>, Vec<usize>) {
    let (mut cells, mut rows, mut cols) = (Vec::new(), Vec::new(), Vec::new());
    let split = hint.split.as_ref().map(|s| s.pos);
    let positions = hint
        .rules
        .iter()
        .filter_map(|rule| match *rule {
            Rule::NoShipFits { pos } => Some(pos),
            r => r.cell(),
        })
        .chain(split);
    for pos in positions {
        let cell = [pos.row, pos.col];
        if pos != hint.pos && !cells.contains(&cell) {
            cells.push(cell);
        }
    }
    for rule in &hint.rules {
        match *rule {
            Rule::RowCount { row, .. } if !rows.contains(&row) => rows.push(row),
            Rule::ColCount { col, .. } if !cols.contains(&col) => cols.push(col),
            _ => {}
        }
    }
    (cells, rows, cols)
}

fn method_name(method: Method) -> &'static str {
    match method {
        Method::Propagation => "propagation",
        Method::LookAhead => "look-ahead",
        Method::CaseSplit => "case-split",
        _ => "search",
    }
}

/// `POST /api/hint`: one forced cell given `state` and the rules that force it.
pub fn hint(request: PuzzleRequest, deadline: WorkDeadline) -> Result<Response, ApiError> {
    let puzzle = request.board()?.puzzle;
    let state = match &request.state {
        None => None,
        Some(text) => Some(
            Filled::parse(text, puzzle.rows(), puzzle.cols())
                .map_err(|e| ApiError::bad_input(format!("state: {e}")))?,
        ),
    };
    let job = HintJob {
        state,
        budget: Budget::until(deadline.library()),
    };
    let step = job.run(&puzzle).map_err(|e| deadline.fail(e))?;
    let found = step.hint.as_ref();
    let (cells, rows, cols) = found.map(cited).unwrap_or_default();
    Ok(json(
        StatusCode::OK,
        &HintJson {
            status: if found.is_some() { "hint" } else { "complete" },
            row: found.map(|h| h.pos.row),
            col: found.map(|h| h.pos.col),
            content: found.map(|h| h.content.into()),
            method: found.map(|h| method_name(h.method)),
            rules: found.map_or_else(Vec::new, |h| {
                h.rules.iter().map(ToString::to_string).collect()
            }),
            text: step.line.trim_end().to_string(),
            state: step.state.write(),
            cells,
            rows,
            cols,
        },
    ))
}

/// The answer of `POST /api/grade`.
#[derive(Debug, Serialize)]
pub struct GradeJson {
    /// The grade and the cells each level of deduction decided.
    #[serde(flatten)]
    pub report: GradeReport,
    /// The line `bimaru-sat grade` prints.
    pub text: String,
}

/// `POST /api/grade`: the grade of a puzzle with a unique solution; 422 otherwise.
pub fn grade(request: PuzzleRequest, deadline: WorkDeadline) -> Result<Response, ApiError> {
    let puzzle = request.board()?.puzzle;
    let job = GradeJob {
        budget: Budget::until(deadline.library()),
    };
    let graded = job.run(&puzzle).map_err(|e| deadline.fail(e))?;
    match graded {
        Graded::Unique(report) => Ok(json(
            StatusCode::OK,
            &GradeJson {
                text: grade_line(&report).trim_end().to_string(),
                report,
            },
        )),
        Graded::Unsat => Err(ApiError::unprocessable(
            Status::Unsat,
            "no solution: a puzzle without a solution has no grade".into(),
        )),
        _ => Err(ApiError::unprocessable(
            Status::Multiple,
            "not unique: a puzzle with several solutions has no grade".into(),
        )),
    }
}
