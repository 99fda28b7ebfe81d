//! The JSON API. Each route takes a puzzle (any format the command line reads, or a puzz.link
//! URL) either as the whole request body, with options in the query string, or as a JSON
//! object `{"puzzle": "...", ...}` with the options beside it; it answers in the schemas of
//! `--to json` (`ResultJson`, `PuzzleJson`). Every failure is a `ResultJson` with status
//! `error`, `unsat`, `multiple` or `timeout`, an `error` message and a 4xx status (5xx only
//! for a bug). The routes and their shapes are documented in `docs/web.md`.

use super::limits::{
    self, ApiError, LIGHT_CELLS, Lane, MAX_GENERATED_SIDE, PUZZLE, WorkDeadline, Workers,
    check_board, check_side, timeout,
};
use super::pool::{Pool, PoolKey, Supply, random_seed};
use axum::Json;
use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderName, HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodRouter, post};
use bimaru_sat::Fleet;
use bimaru_sat::usecase::Deadline;
use bimaru_sat::usecase::Source;
use bimaru_sat::usecase::error::Error;
use bimaru_sat::usecase::generate::{
    GenerateError, GenerateOptions, Size, default_fleet, parse_fleet,
};
use bimaru_sat::usecase::grade::Grade;
use bimaru_sat::usecase::job::convert::ConvertJob;
use bimaru_sat::usecase::job::generate::{GenerateJob, write_generated};
use bimaru_sat::usecase::job::{Goal, SolveJob, Solved, check_boards};
use bimaru_sat::usecase::json::{ResultJson, Status};
use bimaru_sat::usecase::solve::Outcome;
use bimaru_sat::usecase::{Board, Budget, Document, Format, OutputFormat};
use bimaru_sat::usecase::{Choice, UnknownChoice, parse_choice};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// A request about one puzzle: the JSON body form. In the other form the body is the puzzle
/// and the other fields come from the query string.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PuzzleRequest {
    /// The puzzle text or URL.
    pub puzzle: String,
    /// Its format (`auto` by default).
    pub format: Option<String>,
    /// `hint`: the cells filled so far, one line a row (`?` open, `.` water, `s` ship part,
    /// `c t b l r m` pieces).
    pub state: Option<String>,
    /// `convert`: the output format (`json` by default).
    pub to: Option<String>,
    /// `render`: draw the solution too.
    pub solution: bool,
}

/// Options from the query string (every option has a default).
fn query<T: DeserializeOwned>(uri: &Uri) -> Result<T, ApiError> {
    axum::extract::Query::<T>::try_from_uri(uri)
        .map(|q| q.0)
        .map_err(|e| ApiError::bad_input(e.body_text()))
}

/// A JSON request body: `T` when the body is a JSON object with `key`, `None` otherwise. A
/// body that opens a JSON object and ends before closing it is refused as cut off.
fn json_form<T: DeserializeOwned>(bytes: &[u8], key: &str) -> Result<Option<T>, ApiError> {
    match serde_json::from_slice::<serde_json::Value>(bytes) {
        Ok(serde_json::Value::Object(map)) if map.contains_key(key) => {
            serde_json::from_value(serde_json::Value::Object(map))
                .map(Some)
                .map_err(|e| ApiError::bad_input(format!("request: {e}")))
        }
        Err(e) if e.is_eof() && bytes.trim_ascii_start().starts_with(b"{") => {
            Err(ApiError::bad_input(cut_off(&e)))
        }
        // An object that is not JSON is neither a request nor a JSON puzzle: say what a
        // request is rather than read it as a puzzle in another format.
        Err(e) if bytes.trim_ascii_start().starts_with(b"{") => Err(ApiError::bad_input(format!(
            "request: the body is not valid JSON ({e}); a request is a puzzle as the body, or a \
             JSON object {{\"{key}\": \"...\"}} with the options the route takes"
        ))),
        _ => Ok(None),
    }
}

/// The message for a JSON body that ends early.
pub fn cut_off(error: &serde_json::Error) -> String {
    format!(
        "request: the JSON body ends early, at line {} column {}: it was cut off",
        error.line(),
        error.column()
    )
}

impl PuzzleRequest {
    /// Reads the request from the query string and the body.
    fn read(uri: &Uri, bytes: &[u8]) -> Result<PuzzleRequest, ApiError> {
        if let Some(request) = json_form::<PuzzleRequest>(bytes, "puzzle")? {
            return Ok(request);
        }
        let text = Source::from_bytes(PUZZLE, bytes)?.text;
        Ok(PuzzleRequest {
            puzzle: text,
            ..query(uri)?
        })
    }

    /// The puzzle text.
    fn source(&self) -> Result<Source, ApiError> {
        if self.puzzle.trim().is_empty() {
            return Err(ApiError::bad_input(
                "no puzzle: send it as the body, or as {\"puzzle\": \"...\"}".into(),
            ));
        }
        Ok(Source::from_bytes(PUZZLE, self.puzzle.as_bytes())?)
    }

    /// Every board of the puzzle text, each within the board-size limit.
    fn document(&self) -> Result<Document, ApiError> {
        let format = choice::<Format>("format", self.format.as_deref(), Format::Auto)?;
        let doc = self.source()?.document(format, &limits::reading())?;
        for board in &doc.boards {
            check_board(&board.puzzle)?;
        }
        Ok(doc)
    }

    /// The one board of the puzzle text.
    pub(super) fn board(&self) -> Result<Board, ApiError> {
        let mut doc = self.document()?;
        doc.single(PUZZLE)?;
        Ok(doc.boards.remove(0))
    }
}

/// A value of a choice enum by its command-line name (in any case), or `default`.
pub(super) fn choice<T: Choice>(what: &str, name: Option<&str>, default: T) -> Result<T, ApiError> {
    let Some(name) = name else {
        return Ok(default);
    };
    parse_choice(what, &name.to_ascii_lowercase()).map_err(|e| {
        // The message quotes the name as the request wrote it.
        let given = name.to_owned();
        ApiError::bad_input(UnknownChoice { given, ..e }.to_string())
    })
}

pub(super) fn json(status: StatusCode, value: &impl Serialize) -> Response {
    (status, Json(value)).into_response()
}

/// A request as a route reads it from the query string and the body.
pub trait Request: Sized + Send + 'static {
    /// Reads the request.
    fn read(uri: &Uri, bytes: &[u8]) -> Result<Self, ApiError>;

    /// Whether the request is about boards of at most [`LIGHT_CELLS`] cells (or about none, or
    /// does not parse, so that answering it is quick).
    fn small(&self) -> bool;

    /// Refuses a request about a board over the server's input limits (`serve --max-cells`,
    /// `--max-model-size`): 422 naming the limit.
    fn within(&self, _limits: &bimaru_sat::Limits) -> Result<(), ApiError> {
        Ok(())
    }

    /// The answer, when it needs no work (asked once the request is read, before the work's
    /// lane): `/api/generate` takes its puzzle from the pool so. It may fill in the request.
    fn shortcut(&mut self, _workers: &Workers) -> Option<Response> {
        None
    }
}

impl Request for PuzzleRequest {
    fn read(uri: &Uri, bytes: &[u8]) -> Result<Self, ApiError> {
        PuzzleRequest::read(uri, bytes)
    }

    fn small(&self) -> bool {
        self.document().map_or(true, |doc| {
            doc.boards
                .iter()
                .all(|b| b.puzzle.rows() * b.puzzle.cols() <= LIGHT_CELLS)
        })
    }

    fn within(&self, limits: &bimaru_sat::Limits) -> Result<(), ApiError> {
        // A request that does not parse is answered by its route, with the reason.
        let Ok(doc) = self.document() else {
            return Ok(());
        };
        Ok(check_boards(&doc, limits)?)
    }
}

/// What a route does with its request, on a worker thread within the request's deadline.
pub type Work<R> = fn(R, WorkDeadline) -> Result<Response, ApiError>;

/// How much work a route's answer takes.
#[derive(Clone, Copy, Debug)]
pub enum Cost {
    /// Little on a small board (solve, unique, convert, render): the light lane for small
    /// boards.
    BySize,
    /// Possibly much on any board (hint, grade, generate): the heavy lane.
    Heavy,
}

/// The `POST` route that reads an `R` and answers it with `work` on a worker thread: the body
/// within the body timeout, the request read in the light lane, the work in the lane its
/// `cost` and the board size call for.
pub fn route<R: Request>(work: Work<R>, cost: Cost) -> MethodRouter<Workers> {
    post(
        move |State(workers): State<Workers>, uri: Uri, body: Body| async move {
            // The pool makes no new puzzle while a request is in flight.
            let _in_flight = workers.pool.as_ref().map(Pool::in_flight);
            let bytes = match limits::read_body(&workers, body).await {
                Ok(bytes) => bytes,
                Err(response) => return response,
            };
            let answer = async {
                let input = workers.limits.input;
                let (mut request, small) = workers
                    .run(Lane::Light, move |_| {
                        let request = R::read(&uri, &bytes)?;
                        request.within(&input)?;
                        let small = request.small();
                        Ok((request, small))
                    })
                    .await?;
                if let Some(answer) = request.shortcut(&workers) {
                    return Ok(answer);
                }
                let lane = match cost {
                    Cost::BySize if small => Lane::Light,
                    _ => Lane::Heavy,
                };
                workers
                    .run(lane, move |deadline| work(request, deadline))
                    .await
            };
            answer.await.unwrap_or_else(IntoResponse::into_response)
        },
    )
}

/// `POST /api/solve`: one solution (`ResultJson`, status `found`); 422 `unsat` without one.
pub fn solve(request: PuzzleRequest, deadline: WorkDeadline) -> Result<Response, ApiError> {
    solved(&request, &deadline, Goal::First)
}

/// `POST /api/unique`: one solution proved unique (status `unique`), or two solutions, both in
/// `grids` (status `multiple`); 422 `unsat` without one.
pub fn unique(request: PuzzleRequest, deadline: WorkDeadline) -> Result<Response, ApiError> {
    solved(&request, &deadline, Goal::Unique)
}

fn solved(
    request: &PuzzleRequest,
    deadline: &WorkDeadline,
    goal: Goal,
) -> Result<Response, ApiError> {
    let doc = request.document()?;
    doc.single(PUZZLE)?;
    // The solve command's own request: the same job the CLI, `batch` and Python build.
    let job = SolveJob {
        // The job looks for as many solutions as its goal needs.
        options: deadline.options(goal),
        to: Some(OutputFormat::Json),
        ..SolveJob::default()
    };
    // A Rubin file is reported board by board, even when it holds one board.
    let solved = job.run(&doc, PUZZLE).map_err(|e| deadline.fail(e))?;
    let report = match solved {
        Solved::Board(solved) => Some(solved.report),
        // Nothing partial is answered for a Rubin file, even of one board.
        Solved::Boards(solved) => solved
            .reports
            .into_iter()
            .next()
            .and_then(Result::ok)
            .filter(|r| r.stop.is_none()),
        _ => None, // a formula only when a DIMACS export is asked for
    };
    let report = report.ok_or_else(|| timeout(deadline.limit))?;
    let result = ResultJson::from_report(
        &report,
        doc.boards[0].embedded.as_ref(),
        goal == Goal::Unique,
    );
    if report.outcome == Outcome::Unsat {
        return Err(ApiError::with(
            StatusCode::UNPROCESSABLE_ENTITY,
            ResultJson {
                error: Some("no solution".into()),
                ..result
            },
        ));
    }
    Ok(json(StatusCode::OK, &result))
}

/// A request of `POST /api/generate` (a JSON body, or the query string).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GenerateRequest {
    /// Board size, `RxC` (`10x10` by default).
    pub size: Option<String>,
    /// Fleet, as `generate --fleet` reads it (the size's default fleet by default).
    pub fleet: Option<String>,
    /// Keep only puzzles of this grade.
    pub grade: Option<String>,
    /// Random seed; the same request with the same seed gives the same puzzle. Without one,
    /// a puzzle of the pool, or one of a random seed; the answer's `Bimaru-Seed` header names
    /// the seed either way.
    pub seed: Option<u64>,
}

impl Request for GenerateRequest {
    fn read(uri: &Uri, bytes: &[u8]) -> Result<Self, ApiError> {
        if bytes.iter().all(u8::is_ascii_whitespace) {
            query::<GenerateRequest>(uri)
        } else {
            serde_json::from_slice(bytes).map_err(|e| {
                ApiError::bad_input(if e.is_eof() {
                    cut_off(&e)
                } else {
                    format!("request: {e}")
                })
            })
        }
    }

    fn small(&self) -> bool {
        false
    }

    fn shortcut(&mut self, workers: &Workers) -> Option<Response> {
        from_pool(workers, self)
    }

    fn within(&self, limits: &bimaru_sat::Limits) -> Result<(), ApiError> {
        let Ok(size) = self.size.as_deref().unwrap_or("10x10").parse::<Size>() else {
            return Ok(());
        };
        // The job's own check, before the pool answers or the work takes a lane; a fleet that
        // does not parse is the route's to refuse.
        let fleet = self
            .fleet
            .as_deref()
            .and_then(|spec| parse_fleet(spec).ok());
        generate_job(size, fleet, None, 0, Deadline::NONE, *limits).check()?;
        Ok(())
    }
}

impl GenerateRequest {
    /// The board size, fleet and grade asked for.
    fn resolve(&self) -> Result<(Size, Option<Fleet>, Option<Grade>), ApiError> {
        let size: Size = self.size.as_deref().unwrap_or("10x10").parse().map_err(
            |e: bimaru_sat::usecase::generate::SizeSpecError| ApiError::bad_input(e.to_string()),
        )?;
        check_side(size.rows, size.cols, MAX_GENERATED_SIDE, "generates")?;
        let fleet = match &self.fleet {
            Some(spec) => Some(parse_fleet(spec).map_err(|e| ApiError::bad_input(e.to_string()))?),
            None => None,
        };
        let grade = match &self.grade {
            Some(name) => Some(choice::<Grade>("grade", Some(name), Grade::Easy)?),
            None => None,
        };
        Ok((size, fleet, grade))
    }
}

/// Before `/api/generate` takes the heavy lane: a request without a seed gets a puzzle of the
/// pool, when it holds one of its size and grade (and the size's default fleet), answered at
/// once; else a random seed, which the answer names.
fn from_pool(workers: &Workers, request: &mut GenerateRequest) -> Option<Response> {
    if request.seed.is_some() {
        return None;
    }
    if let (Some(pool), None, Ok((size, None, grade))) =
        (&workers.pool, &request.fleet, request.resolve())
    {
        let key = PoolKey {
            rows: size.rows,
            cols: size.cols,
            grade,
        };
        if let Some((pooled, source)) = pool.take(key) {
            return Some(generated_answer(pooled.body, pooled.seed, Some(source)));
        }
    }
    request.seed = Some(random_seed());
    None
}

/// The pool's puzzle of `key` and `seed` ([`Pool::start`]): exactly `/api/generate`'s answer to
/// a request for its size and grade with that seed; `None` when the generator finds none.
pub fn pool_puzzle(key: PoolKey, seed: u64, deadline: Deadline) -> Option<String> {
    let size = Size {
        rows: key.rows,
        cols: key.cols,
    };
    generated_text(size, None, key.grade, seed, deadline).ok()
}

/// The answer of `/api/generate`: the puzzle as `generate --to json` writes it, with the seed
/// in the `Bimaru-Seed` header (the body stays a puzzle file any reader takes) and whether it
/// came from the pool in `Bimaru-Pool`: `hit` (made by the pool), `stock` (its stock) or `miss`
/// (made for the request).
fn generated_answer(body: String, seed: u64, pooled: Option<Supply>) -> Response {
    (
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            ),
            (
                HeaderName::from_static(SEED_HEADER),
                HeaderValue::from(seed),
            ),
            (
                HeaderName::from_static(POOL_HEADER),
                HeaderValue::from_static(match pooled {
                    Some(Supply::Made) => "hit",
                    Some(Supply::Stock) => "stock",
                    None => "miss",
                }),
            ),
        ],
        body,
    )
        .into_response()
}

/// The header of `/api/generate`'s answer that names the seed of its puzzle.
pub const SEED_HEADER: &str = "bimaru-seed";

/// The header of `/api/generate`'s answer that says whether the pool gave it.
pub const POOL_HEADER: &str = "bimaru-pool";

/// `POST /api/generate`: a puzzle with a unique solution, as `generate --to json` writes it.
pub fn generate(request: GenerateRequest, deadline: WorkDeadline) -> Result<Response, ApiError> {
    let (size, fleet, grade) = request.resolve()?;
    let seed = request.seed.unwrap_or(1);
    let body = generated_text(size, fleet, grade, seed, deadline.library())?;
    Ok(generated_answer(body, seed, None))
}

/// The puzzle of `seed` as `/api/generate` answers it (`generate --to json`), made by the
/// generate command's own request for one puzzle of the seed's first stream, stopping at
/// `deadline`. The pool makes its puzzles with this very call.
pub fn generated_text(
    size: Size,
    fleet: Option<Fleet>,
    grade: Option<Grade>,
    seed: u64,
    deadline: Deadline,
) -> Result<String, ApiError> {
    // The request was checked within the server's limits before its work began
    // ([`GenerateRequest::within`]); the pool asks only for its menu's sizes.
    let job = generate_job(size, fleet, grade, seed, deadline, limits::reading());
    Ok(write_generated(&job.puzzle(0)?, job.to, job.one_line)?.puzzle)
}

/// The generate command's own request for one puzzle of `seed`'s first stream, stopping at
/// `deadline`, its size and fleet held to `limits`.
fn generate_job(
    size: Size,
    fleet: Option<Fleet>,
    grade: Option<Grade>,
    seed: u64,
    deadline: Deadline,
    limits: bimaru_sat::Limits,
) -> GenerateJob {
    GenerateJob {
        options: GenerateOptions {
            fleet: fleet.unwrap_or_else(|| default_fleet(size)),
            // Bounded checks keep a large board's answer within the time limit: a clue
            // whose check runs out stays (the puzzle is unique, perhaps not minimal).
            budget: Budget {
                conflicts: Some(SERVER_CONFLICT_BUDGET),
                ..Budget::until(deadline)
            },
            ..GenerateOptions::new(size)
        },
        grade,
        seed,
        count: 1,
        to: Format::Json,
        one_line: false,
        from: None,
        limits,
    }
}

/// Conflicts one uniqueness check of `/api/generate` may take.
const SERVER_CONFLICT_BUDGET: u64 = 2_000;

/// The answer of `POST /api/convert`.
#[derive(Debug, Serialize)]
pub struct ConvertJson {
    /// The input's format (detected, or as named).
    pub from: &'static str,
    /// The output format.
    pub to: &'static str,
    /// The puzzle written in it, as `convert --to` prints it.
    pub text: String,
}

/// `POST /api/convert`: the puzzle in another format (`to`, `json` by default).
pub fn convert(request: PuzzleRequest, _deadline: WorkDeadline) -> Result<Response, ApiError> {
    let to = choice::<OutputFormat>("to", request.to.as_deref(), OutputFormat::Json)?;
    let doc = request.document()?;
    let text = ConvertJob { to, cells: None }.run(&doc, PUZZLE)?;
    Ok(json(
        StatusCode::OK,
        &ConvertJson {
            from: doc.format.into(),
            to: to.into(),
            text,
        },
    ))
}

/// `POST /api/render`: the SVG picture `render` draws (with `solution`, solved).
pub fn render(request: PuzzleRequest, deadline: WorkDeadline) -> Result<Response, ApiError> {
    let puzzle = request.board()?.puzzle;
    let solution = if request.solution {
        let report = bimaru_sat::usecase::solve::solve(&puzzle, &deadline.options(Goal::First))
            .map_err(|e| deadline.fail(e))?;
        let Some(grid) = report.outcome.grid().cloned() else {
            return Err(ApiError::unprocessable(Status::Unsat, "no solution".into()));
        };
        Some(grid)
    } else {
        None
    };
    Ok((
        [(header::CONTENT_TYPE, "image/svg+xml")],
        bimaru_sat::usecase::svg(&puzzle, solution.as_ref()),
    )
        .into_response())
}

impl From<GenerateError> for ApiError {
    fn from(error: GenerateError) -> Self {
        Error::from(error).into()
    }
}

impl From<bimaru_sat::usecase::Inexpressible> for ApiError {
    fn from(error: bimaru_sat::usecase::Inexpressible) -> Self {
        Error::from(error).into()
    }
}
