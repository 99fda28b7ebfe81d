//! What one request may cost: the request body, the board, the time and the number of requests
//! worked on at once. Every request's work (parsing included) runs on tokio's blocking threads,
//! never on the async ones, behind a semaphore of [`Limits::max_solves`] permits. A request
//! waits for a permit at most the time limit (then 429). Its work gets the time limit as a
//! [`Deadline`], which the library obeys (the solver, grading, hints, the generator between
//! puzzles); work that cannot be cut short is answered with 422 `timeout` one second of grace
//! later, and its thread finishes on its own, keeping its permit until then, so that the bound
//! on work at once holds.

use super::api::ApiError;
use axum::extract::Request;
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use bimaru_sat::format::json::{ResultJson, Status};
use bimaru_sat::puzzle::Puzzle;
use bimaru_sat::solve::{SolveError, SolveOptions};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::Semaphore;

/// The largest request body, in bytes.
pub const MAX_BODY: usize = 1 << 20;

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

/// Refuses a request whose declared length is over [`MAX_BODY`] before reading any of it (a
/// client waiting for `100 Continue` then sends nothing); a body of no declared length is cut
/// at the limit as it is read.
pub async fn refuse_large_bodies(request: Request, next: Next) -> Response {
    let declared = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|length| length > MAX_BODY as u64) {
        return too_large().into_response();
    }
    next.run(request).await
}

/// The server's limits.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Time for one request's work.
    pub time_limit: Duration,
    /// Requests worked on at once.
    pub max_solves: usize,
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

/// The limits and the permits: the router's state.
#[derive(Clone, Debug)]
pub struct Workers {
    /// The limits.
    pub limits: Limits,
    permits: Arc<Semaphore>,
}

impl Workers {
    /// Workers under `limits`.
    pub fn new(limits: Limits) -> Self {
        let permits = Arc::new(Semaphore::new(limits.max_solves.max(1)));
        Workers { limits, permits }
    }

    /// Runs `work` on a blocking thread with a permit, giving it the deadline of the time
    /// limit.
    pub async fn run(
        &self,
        work: impl FnOnce(Deadline) -> Result<Response, ApiError> + Send + 'static,
    ) -> Result<Response, ApiError> {
        let limit = self.limits.time_limit;
        let permit = match tokio::time::timeout(limit, self.permits.clone().acquire_owned()).await {
            Ok(Ok(permit)) => permit,
            _ => {
                return Err(ApiError::new(
                    StatusCode::TOO_MANY_REQUESTS,
                    format!(
                        "busy: {} requests are being worked on and this one waited {} s; try again",
                        self.limits.max_solves,
                        limit.as_secs_f64()
                    ),
                ));
            }
        };
        let deadline = Deadline {
            at: Instant::now() + limit,
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

/// When a request's work must end.
#[derive(Clone, Copy, Debug)]
pub struct Deadline {
    /// The moment.
    pub at: Instant,
    /// The time limit it comes from.
    pub limit: Duration,
}

impl Deadline {
    /// Solver options that stop at the deadline, looking for `limit` solutions.
    pub fn options(self, limit: usize) -> SolveOptions {
        SolveOptions {
            time_limit: Some(self.at.saturating_duration_since(Instant::now())),
            limit,
            ..SolveOptions::default()
        }
    }

    /// The answer to a solver failure: 422 `timeout` at the time limit, 500 otherwise.
    pub fn solve_error(self, error: SolveError) -> ApiError {
        match error {
            SolveError::TimeLimit => timeout(self.limit),
            e => ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
        }
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
