//! What one request may cost: the request head and body (their size and the time they take to
//! arrive), the board, the time and the number of requests worked on at once. Every request's
//! work (parsing included) runs on tokio's blocking threads, never on the async ones, in one of
//! two lanes of [`ServerLimits::max_solves`] permits each: solving, proving, converting and drawing a
//! board of at most [`LIGHT_CELLS`] cells takes the light lane, everything else (hints, grades,
//! generation, large boards) the heavy one, so that slow work never holds up cheap work. A
//! request waits for a permit at most the time limit (then 429). Its work gets the time limit as a
//! [`WorkDeadline`], which the library obeys (the solver, grading, hints, the generator between
//! puzzles); work that cannot be cut short is answered with 422 `timeout` one second of grace
//! later, and its thread finishes on its own, keeping its permit until then, so that the bound
//! on work at once holds.

use axum::Json;
use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use bimaru_sat::Puzzle;
use bimaru_sat::usecase::advise::game::AdviseError;
use bimaru_sat::usecase::advise::posterior::PosteriorError;
use bimaru_sat::usecase::error::Error;
use bimaru_sat::usecase::generate::GenerateError;
use bimaru_sat::usecase::grade::GradeError;
use bimaru_sat::usecase::hint::HintError;
use bimaru_sat::usecase::json::{ResultJson, Status};
use bimaru_sat::usecase::solve::{Goal, SolveError, SolveOptions};
use bimaru_sat::usecase::{Budget, Deadline, StopOnDrop};
use bimaru_sat::usecase::{Limit, LimitExceeded};
use bimaru_sat::usecase::{ParseError, ParseErrorKind};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;
use tokio::sync::Semaphore;

/// The largest request body, in bytes.
pub const MAX_BODY: usize = 1 << 20;

/// How much of a body declared over [`MAX_BODY`] the server reads and throws away before it
/// answers 413 and closes, so that a client that sends its whole body before it reads the
/// answer (Python's `urllib`) gets the 413 rather than a reset connection.
pub const MAX_DRAIN: u64 = 64 << 20;

/// The largest board (rows times columns) that solving, proving, converting and drawing take
/// in the light lane.
pub const LIGHT_CELLS: usize = 400;

/// The largest board side the server parses into work (rows and columns alike). A board-size
/// limit of the library would replace this one.
pub const MAX_SIDE: usize = 50;

/// The largest board side the server generates (a unique 30x30 takes 5 to 8 s here).
pub const MAX_GENERATED_SIDE: usize = 30;

/// How long past the time limit the server waits for the solver to stop itself, before it
/// answers with a time-out of its own.
const GRACE: Duration = Duration::from_secs(1);

/// The answer to a body over [`MAX_BODY`].
pub fn too_large() -> ApiError {
    ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        format!("the request body is larger than {MAX_BODY} bytes (1 MB)"),
    )
}

/// An answer after which the connection closes.
fn closing(error: ApiError) -> Response {
    let mut response = error.into_response();
    response
        .headers_mut()
        .insert(header::CONNECTION, HeaderValue::from_static("close"));
    response
}

/// Refuses a request whose declared length is over [`MAX_BODY`] with 413, and closes. A client
/// waiting for `100 Continue` gets the answer at once and sends nothing; from any other client
/// the server first reads and throws away the body, up to [`MAX_DRAIN`] bytes and the body
/// timeout, so that the client is not cut off mid-send and reads the answer. A body of no
/// declared length is cut at the limit as it is read.
pub async fn refuse_large_bodies(
    State(workers): State<Workers>,
    request: Request,
    next: Next,
) -> Response {
    let headers = request.headers();
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    let Some(declared) = declared.filter(|&length| length > MAX_BODY as u64) else {
        return next.run(request).await;
    };
    let expects_continue = headers
        .get(header::EXPECT)
        .is_some_and(|v| v.as_bytes().eq_ignore_ascii_case(b"100-continue"));
    if !expects_continue && declared <= MAX_DRAIN {
        let drain = drain(request.into_body());
        let _ = tokio::time::timeout(workers.limits.body_timeout, drain).await;
    }
    closing(too_large())
}

/// Reads `body` to its end, keeping nothing.
async fn drain(body: Body) {
    use http_body_util::BodyExt;
    let mut body = body;
    while let Some(Ok(_)) = body.frame().await {}
}

/// Reads a request body of at most [`MAX_BODY`] bytes within the body timeout: 413 over the
/// limit, 408 (and the connection closes) when it is too slow, 400 when the connection breaks.
pub async fn read_body(workers: &Workers, body: Body) -> Result<Bytes, Response> {
    let limit = workers.limits.body_timeout;
    match tokio::time::timeout(limit, axum::body::to_bytes(body, MAX_BODY)).await {
        Ok(Ok(bytes)) => Ok(bytes),
        Ok(Err(e)) if is_length_limit(&e) => Err(closing(too_large())),
        Ok(Err(e)) => Err(closing(ApiError::new(
            StatusCode::BAD_REQUEST,
            format!("cannot read the request body: {e}"),
        ))),
        Err(_) => Err(closing(ApiError::new(
            StatusCode::REQUEST_TIMEOUT,
            format!(
                "the request body did not arrive within {} s (--body-timeout)",
                limit.as_secs_f64()
            ),
        ))),
    }
}

/// Whether a body error is the body limit of [`axum::body::to_bytes`].
fn is_length_limit(error: &axum::Error) -> bool {
    let mut source: Option<&dyn std::error::Error> = Some(error);
    while let Some(e) = source {
        if e.is::<http_body_util::LengthLimitError>() {
            return true;
        }
        source = e.source();
    }
    false
}

/// Refuses (403) a request whose `Host` header names a host the server does not answer to
/// ([`ServerLimits::hosts`]): a page elsewhere that rebinds its DNS name to this machine cannot
/// drive the API. A request without a `Host` header (HTTP/1.0, never a browser) is answered.
pub async fn check_host(State(workers): State<Workers>, request: Request, next: Next) -> Response {
    if let Some(value) = request.headers().get(header::HOST) {
        let host = value.to_str().unwrap_or_default();
        if !workers.limits.allows_host(host) {
            return closing(ApiError::new(
                StatusCode::FORBIDDEN,
                format!(
                    "this server does not answer to the host {host:?}; start it with \
                     --allow-host {} to allow it",
                    host_name(host)
                ),
            ));
        }
    }
    next.run(request).await
}

/// The host part of a `Host` header value: `[::1]` of `[::1]:8080`, `localhost` of
/// `localhost:8080`.
fn host_name(host: &str) -> &str {
    if host.starts_with('[') {
        return host.split_inclusive(']').next().unwrap_or(host);
    }
    host.rsplit_once(':').map_or(host, |(name, _)| name)
}

/// The name a request's puzzle goes by in messages (`puzzle: line 3: ...`).
pub const PUZZLE: &str = "puzzle";

/// The server's limits.
#[derive(Clone, Debug)]
pub struct ServerLimits {
    /// Time for one request's work.
    pub time_limit: Duration,
    /// Requests worked on at once, in each lane.
    pub max_solves: usize,
    /// Time for a request body to arrive after its head.
    pub body_timeout: Duration,
    /// Host names, besides `localhost`, `127.0.0.1` and `[::1]`, that the server answers to
    /// (the listen address and `--allow-host`).
    pub hosts: Vec<String>,
    /// The input limits of `--max-cells` and `--max-model-size`: a board over them is refused
    /// with 422 naming the limit (boards over [`MAX_SIDE`] on a side are refused anyway).
    pub input: bimaru_sat::Limits,
}

impl Default for ServerLimits {
    fn default() -> Self {
        ServerLimits {
            time_limit: Duration::from_secs(10),
            max_solves: 2,
            body_timeout: Duration::from_secs(30),
            hosts: Vec::new(),
            input: bimaru_sat::Limits::default(),
        }
    }
}

impl ServerLimits {
    /// Whether a request with `Host: host` is answered.
    pub fn allows_host(&self, host: &str) -> bool {
        let name = host_name(host);
        ["localhost", "127.0.0.1", "[::1]"]
            .iter()
            .any(|n| n.eq_ignore_ascii_case(name))
            || self.hosts.iter().any(|n| n.eq_ignore_ascii_case(name))
    }
}

/// The library's reading limits for a request: a board of at most [`MAX_SIDE`] squared cells,
/// so that a larger one is refused as it is read, before anything sized by it is allocated.
pub fn reading() -> bimaru_sat::Limits {
    let mut limits = bimaru_sat::Limits::default();
    limits.max_cells = MAX_SIDE * MAX_SIDE;
    limits
}

/// The 422 of a board over the server's input limits, naming the limit and its flag.
fn over_server_limit(error: LimitExceeded) -> ApiError {
    let flag = match error.limit {
        Limit::ModelSize => "--max-model-size",
        _ => "--max-cells",
    };
    ApiError::unprocessable(
        Status::Error,
        format!("{error}: this server was started with {flag} {}", error.max),
    )
}

/// Refuses a board larger than [`MAX_SIDE`] on a side.
pub fn check_board(puzzle: &Puzzle) -> Result<(), ApiError> {
    check_side(puzzle.rows(), puzzle.cols(), MAX_SIDE, "takes")
}

/// Refuses a board side over `max`.
pub fn check_side(rows: usize, cols: usize, max: usize, verb: &str) -> Result<(), ApiError> {
    if rows > max || cols > max {
        return Err(ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            format!("the board is {rows}x{cols}; this server {verb} boards up to {max}x{max}"),
        ));
    }
    Ok(())
}

/// Which permits a piece of work takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lane {
    /// Solving, proving, converting or drawing a small board; reading a request.
    Light,
    /// Hints, grades, generation, and large boards.
    Heavy,
}

/// The limits and the permits: the router's state.
#[derive(Clone, Debug)]
pub struct Workers {
    /// The limits.
    pub limits: ServerLimits,
    /// Puzzles made in advance for `/api/generate` (`serve --pool`), when on.
    pub pool: Option<super::pool::Pool>,
    light: Arc<Semaphore>,
    heavy: Arc<Semaphore>,
}

impl Workers {
    /// Workers under `limits`.
    pub fn new(limits: ServerLimits) -> Self {
        let permits = || Arc::new(Semaphore::new(limits.max_solves.max(1)));
        Workers {
            light: permits(),
            heavy: permits(),
            limits,
            pool: None,
        }
    }

    /// These workers, with `pool` answering `/api/generate` without a seed.
    pub fn with_pool(self, pool: super::pool::Pool) -> Self {
        Workers {
            pool: Some(pool),
            ..self
        }
    }

    /// Runs `work` on a blocking thread with a permit of `lane`, giving it the deadline of the
    /// time limit with a stop flag that is set once this future ends: the work stops at its
    /// next check when the client goes away (hyper drops the request's future) or the answer
    /// times out, and its permit frees at once.
    pub async fn run<T: Send + 'static>(
        &self,
        lane: Lane,
        work: impl FnOnce(WorkDeadline) -> Result<T, ApiError> + Send + 'static,
    ) -> Result<T, ApiError> {
        let limit = self.limits.time_limit;
        let permits = match lane {
            Lane::Light => &self.light,
            Lane::Heavy => &self.heavy,
        };
        let permit = match tokio::time::timeout(limit, permits.clone().acquire_owned()).await {
            Ok(Ok(permit)) => permit,
            _ => {
                return Err(ApiError::new(
                    StatusCode::TOO_MANY_REQUESTS,
                    format!(
                        "busy: {} requests like this one are being worked on and it waited {} s; \
                         try again",
                        self.limits.max_solves,
                        limit.as_secs_f64()
                    ),
                ));
            }
        };
        let stop = Arc::new(AtomicBool::new(false));
        let _stop_when_dropped = StopOnDrop(stop.clone());
        let deadline = WorkDeadline {
            deadline: Deadline::after(limit).stopped_by(stop),
            limit,
        };
        let task = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            work(deadline)
        });
        match tokio::time::timeout(limit + GRACE, task).await {
            Ok(Ok(answer)) => answer,
            Ok(Err(_)) => Err(ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "internal error: the work failed (a bug; please report it)".into(),
            )),
            Err(_) => Err(timeout(limit)),
        }
    }
}

/// When a request's work must end: the library's deadline (the time limit, and the stop flag
/// that [`Workers::run`] sets when the request is dropped), and the limit it comes from, for
/// the answer.
#[derive(Clone, Debug)]
pub struct WorkDeadline {
    /// The deadline the library reads.
    pub deadline: Deadline,
    /// The time limit it comes from.
    pub limit: Duration,
}

impl WorkDeadline {
    /// The library's deadline.
    pub fn library(&self) -> Deadline {
        self.deadline.clone()
    }

    /// Solver options that stop at the deadline, with `goal`.
    pub fn options(&self, goal: Goal) -> SolveOptions {
        SolveOptions {
            budget: Budget::until(self.library()),
            goal,
            ..SolveOptions::default()
        }
    }

    /// The answer to the library's `error` met in the work: [`answer`] with the time limit.
    pub fn fail(&self, error: impl Into<Error>) -> ApiError {
        answer(error.into(), Some(self.limit))
    }
}

/// The answer to work stopped by the time limit.
pub fn timeout(limit: Duration) -> ApiError {
    ApiError::with(
        StatusCode::UNPROCESSABLE_ENTITY,
        ResultJson::timeout(limit.as_secs_f64()),
    )
}

/// A result of status `status` with `message`.
pub fn failure(status: Status, message: String) -> ResultJson {
    ResultJson {
        status,
        ..ResultJson::error(message)
    }
}

/// A failed request: its HTTP status and its result.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    body: Box<ResultJson>,
}

impl ApiError {
    /// An error of status `error` with `message`.
    pub fn new(status: StatusCode, message: String) -> Self {
        Self::with(status, ResultJson::error(message))
    }

    /// An error with its own result.
    pub fn with(status: StatusCode, body: ResultJson) -> Self {
        ApiError {
            status,
            body: Box::new(body),
        }
    }

    pub fn bad_input(message: String) -> Self {
        Self::new(StatusCode::BAD_REQUEST, message)
    }

    pub fn unprocessable(status: Status, message: String) -> Self {
        Self::with(StatusCode::UNPROCESSABLE_ENTITY, failure(status, message))
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(*self.body)).into_response()
    }
}

impl From<Error> for ApiError {
    fn from(error: Error) -> Self {
        answer(error, None)
    }
}

/// The one map from the library's error to the API's answer: its HTTP status, its result's
/// status and its message. `limit` is the request's time limit when the error came from its
/// work ([`WorkDeadline::fail`]): a time limit or a stop is then 422 `timeout`; without it, a
/// solver's stop is a failure like any other (500).
fn answer(error: Error, limit: Option<Duration>) -> ApiError {
    let timed_out = |limit: Option<Duration>, error: Error| match limit {
        Some(limit) => timeout(limit),
        None => ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, error.to_string()),
    };
    match error {
        Error::UnknownFormat { .. } => {
            ApiError::bad_input(format!("{error}; name it with \"format\""))
        }
        Error::MultipleBoards { boards, .. } => ApiError::bad_input(format!(
            "puzzle holds {boards} boards; this route takes one"
        )),
        Error::Inexpressible(e) => ApiError::unprocessable(Status::Error, e.to_string()),
        // A board (or fleet) over the server's limits, found while reading it.
        Error::Parse {
            error:
                ParseError {
                    kind: ParseErrorKind::Limit(_),
                    ..
                },
            ..
        } => ApiError::unprocessable(
            Status::Error,
            format!("{error}; this server takes boards up to {MAX_SIDE}x{MAX_SIDE}"),
        ),
        // A board or a size over the limits the server was started with.
        Error::Limit { error, .. } => over_server_limit(error),
        Error::Solve(SolveError::TimeLimit | SolveError::Interrupted)
        | Error::Grade(GradeError::Solve(SolveError::TimeLimit | SolveError::Interrupted))
        | Error::Hint(HintError::TimeLimit)
        | Error::Advise(AdviseError::Posterior(PosteriorError::TimeLimit { .. })) => {
            timed_out(limit, error)
        }
        Error::Solve(e) | Error::Grade(GradeError::Solve(e)) => {
            ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string())
        }
        Error::Grade(e) => ApiError::bad_input(format!("{PUZZLE}: {e}")),
        Error::Hint(HintError::Contradiction | HintError::NoSolution) => {
            ApiError::unprocessable(Status::Unsat, error.to_string())
        }
        Error::Hint(HintError::NotUnique) => {
            ApiError::unprocessable(Status::Multiple, error.to_string())
        }
        Error::Hint(e @ HintError::WrongSize { .. }) => ApiError::bad_input(format!("state: {e}")),
        Error::Hint(e @ HintError::TooLarge(_)) => ApiError::bad_input(format!("{PUZZLE}: {e}")),
        Error::Hint(e) => ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
        Error::Advise(_) | Error::Game(_) => {
            ApiError::unprocessable(Status::Error, error.to_string())
        }
        Error::Generate(GenerateError::TimeLimit { .. } | GenerateError::OutOfTime) => {
            ApiError::unprocessable(Status::Timeout, error.to_string())
        }
        Error::Generate(GenerateError::Solver(_) | GenerateError::Inconsistent(_)) => {
            ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, error.to_string())
        }
        Error::Generate(_) => ApiError::unprocessable(Status::Error, error.to_string()),
        // Parse, puzzle and the other input errors.
        _ => ApiError::bad_input(error.to_string()),
    }
}
