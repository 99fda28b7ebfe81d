//! The serve command: a local web server (axum on tokio) with the page for players and authors
//! and its JSON API. The page's files (`web/`) are compiled into the binary, so nothing is
//! fetched from elsewhere. The API's handlers are in [`api`]; [`limits`] holds the board-size,
//! body-size, time and concurrency limits and runs every request's work off the async threads.

mod api;
mod limits;
#[cfg(test)]
mod tests;

pub use limits::Limits;

use super::{Exit, Failure};
use crate::cli::ServeArgs;
use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use std::time::Duration;

/// One file of the page, compiled in.
struct Asset {
    /// Where it is served.
    path: &'static str,
    /// Its media type.
    content_type: &'static str,
    /// Its bytes.
    body: &'static str,
}

/// The page and its files.
const ASSETS: &[Asset] = &[
    Asset::new(
        "/",
        "text/html; charset=utf-8",
        include_str!("../../web/index.html"),
    ),
    Asset::new(
        "/app.js",
        "text/javascript; charset=utf-8",
        include_str!("../../web/app.js"),
    ),
    Asset::new(
        "/style.css",
        "text/css; charset=utf-8",
        include_str!("../../web/style.css"),
    ),
    Asset::new(
        "/favicon.svg",
        "image/svg+xml",
        include_str!("../../web/favicon.svg"),
    ),
];

/// The page may load its own files only: no CDN, no font, no frame.
const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; img-src 'self' data: blob:; \
     object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

impl Asset {
    const fn new(path: &'static str, content_type: &'static str, body: &'static str) -> Self {
        Asset {
            path,
            content_type,
            body,
        }
    }

    fn response(&self) -> Response {
        let mut response = ([(header::CONTENT_TYPE, self.content_type)], self.body).into_response();
        let headers = response.headers_mut();
        headers.insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(CONTENT_SECURITY_POLICY),
        );
        headers.insert(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        );
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
        response
    }
}

/// The routes: the page's files, the API, and JSON answers for unknown paths and methods.
pub fn router(limits: Limits) -> Router {
    let mut router = Router::new();
    for asset in ASSETS {
        router = router.route(asset.path, get(move || async move { asset.response() }));
    }
    router
        .route("/api/solve", api::route(api::solve))
        .route("/api/unique", api::route(api::unique))
        .route("/api/hint", api::route(api::hint))
        .route("/api/grade", api::route(api::grade))
        .route("/api/generate", api::route(api::generate))
        .route("/api/convert", api::route(api::convert))
        .route("/api/render", api::route(api::render))
        .fallback(|| async {
            api::ApiError::new(StatusCode::NOT_FOUND, "no such page or API route".into())
        })
        .method_not_allowed_fallback(|| async {
            api::ApiError::new(
                StatusCode::METHOD_NOT_ALLOWED,
                "method not allowed: the page is GET, the API is POST".into(),
            )
        })
        .layer(DefaultBodyLimit::max(limits::MAX_BODY))
        .layer(axum::middleware::from_fn(limits::refuse_large_bodies))
        .with_state(limits::Workers::new(limits))
}

/// Runs the serve command: listens, prints the address, serves until Ctrl-C.
pub fn run(args: &ServeArgs) -> Result<Exit, Failure> {
    let limits = Limits {
        time_limit: Duration::from_secs_f64(args.time_limit.clamp(0.0, 86_400.0)),
        max_solves: args.max_solves.map_or_else(
            || std::thread::available_parallelism().map_or(1, usize::from),
            usize::from,
        ),
    };
    let address = std::net::SocketAddr::new(args.bind, args.port);
    let failure = |source| Failure::Listen {
        address: address.to_string(),
        source,
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(failure)?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(address)
            .await
            .map_err(failure)?;
        let url = format!("http://{}/", listener.local_addr().map_err(failure)?);
        // Flushed: a script reading the address sees it at once.
        super::output::stdout(format!("listening on {url}\n").as_bytes())?;
        if !address.ip().is_loopback() {
            note!("bimaru-sat: serving on {address}: reachable from the network");
        }
        if args.open {
            open_browser(&url);
        }
        axum::serve(listener, router(limits))
            .with_graceful_shutdown(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await
            .map_err(failure)
    })?;
    Ok(Exit::Success)
}

/// Opens `url` in the system browser, when a launcher is found; says so otherwise.
fn open_browser(url: &str) {
    let launcher = if cfg!(target_os = "macos") {
        "open"
    } else {
        "xdg-open"
    };
    let spawned = std::process::Command::new(launcher)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    if let Err(e) = spawned {
        note!("bimaru-sat: cannot run {launcher} ({e}); open {url} yourself");
    }
}
