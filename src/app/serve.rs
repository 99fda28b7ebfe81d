//! The serve command: a local web server (axum on tokio) with the page for players and authors
//! and its JSON API. The page's files (`web/`) are compiled into the binary, so nothing is
//! fetched from elsewhere. The API's handlers are in [`api`]; [`limits`] holds the board-size,
//! body-size, time and concurrency limits and runs every request's work off the async threads.

mod advise;
mod api;
mod author;
mod limits;
mod pool;
mod stock;
#[cfg(test)]
mod tests;

pub use limits::ServerLimits;

use super::{Exit, Failure};
use crate::app::cli::ServeArgs;
use axum::Router;
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
        "/game.js",
        "text/javascript; charset=utf-8",
        include_str!("../../web/game.js"),
    ),
    Asset::new(
        "/storage.js",
        "text/javascript; charset=utf-8",
        include_str!("../../web/storage.js"),
    ),
    Asset::new(
        "/api.js",
        "text/javascript; charset=utf-8",
        include_str!("../../web/api.js"),
    ),
    Asset::new(
        "/message.js",
        "text/javascript; charset=utf-8",
        include_str!("../../web/message.js"),
    ),
    Asset::new(
        "/keep.js",
        "text/javascript; charset=utf-8",
        include_str!("../../web/keep.js"),
    ),
    Asset::new(
        "/start.js",
        "text/javascript; charset=utf-8",
        include_str!("../../web/start.js"),
    ),
    Asset::new(
        "/play.js",
        "text/javascript; charset=utf-8",
        include_str!("../../web/play.js"),
    ),
    Asset::new(
        "/shapes.js",
        "text/javascript; charset=utf-8",
        include_str!("../../web/shapes.js"),
    ),
    Asset::new(
        "/rules.js",
        "text/javascript; charset=utf-8",
        include_str!("../../web/rules.js"),
    ),
    Asset::new(
        "/fleet.js",
        "text/javascript; charset=utf-8",
        include_str!("../../web/fleet.js"),
    ),
    Asset::new(
        "/board.js",
        "text/javascript; charset=utf-8",
        include_str!("../../web/board.js"),
    ),
    Asset::new(
        "/hints.js",
        "text/javascript; charset=utf-8",
        include_str!("../../web/hints.js"),
    ),
    Asset::new(
        "/check.js",
        "text/javascript; charset=utf-8",
        include_str!("../../web/check.js"),
    ),
    Asset::new(
        "/tools.js",
        "text/javascript; charset=utf-8",
        include_str!("../../web/tools.js"),
    ),
    Asset::new(
        "/input.js",
        "text/javascript; charset=utf-8",
        include_str!("../../web/input.js"),
    ),
    Asset::new(
        "/battleship",
        "text/html; charset=utf-8",
        include_str!("../../web/battleship.html"),
    ),
    Asset::new(
        "/battleship.js",
        "text/javascript; charset=utf-8",
        include_str!("../../web/battleship.js"),
    ),
    Asset::new(
        "/battleship-rules.js",
        "text/javascript; charset=utf-8",
        include_str!("../../web/battleship-rules.js"),
    ),
    Asset::new(
        "/battleship-board.js",
        "text/javascript; charset=utf-8",
        include_str!("../../web/battleship-board.js"),
    ),
    Asset::new(
        "/battleship-keep.js",
        "text/javascript; charset=utf-8",
        include_str!("../../web/battleship-keep.js"),
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
#[cfg(test)]
pub fn router(limits: ServerLimits) -> Router {
    router_for(limits::Workers::new(limits))
}

/// The routes, with `workers` doing the work.
fn router_for(workers: limits::Workers) -> Router {
    let mut router = Router::new();
    for asset in ASSETS {
        router = router.route(asset.path, get(move || async move { asset.response() }));
    }
    router
        .route("/api/solve", api::route(api::solve, api::Cost::BySize))
        .route("/api/unique", api::route(api::unique, api::Cost::BySize))
        .route("/api/hint", api::route(author::hint, api::Cost::Heavy))
        .route("/api/grade", api::route(author::grade, api::Cost::Heavy))
        .route("/api/generate", api::route(api::generate, api::Cost::Heavy))
        .route("/api/convert", api::route(api::convert, api::Cost::BySize))
        .route("/api/render", api::route(api::render, api::Cost::BySize))
        .route("/api/advise", api::route(advise::advise, api::Cost::BySize))
        .fallback(|| async {
            limits::ApiError::new(StatusCode::NOT_FOUND, "no such page or API route".into())
        })
        .method_not_allowed_fallback(|| async {
            limits::ApiError::new(
                StatusCode::METHOD_NOT_ALLOWED,
                "method not allowed: the page is GET, the API is POST".into(),
            )
        })
        .layer(axum::middleware::from_fn_with_state(
            workers.clone(),
            limits::refuse_large_bodies,
        ))
        .layer(axum::middleware::from_fn_with_state(
            workers.clone(),
            limits::check_host,
        ))
        .with_state(workers)
}

/// Runs the serve command: listens, prints the address, serves until Ctrl-C.
pub fn run(args: &ServeArgs, input: &bimaru_sat::Limits) -> Result<Exit, Failure> {
    let seconds = |s: f64| Duration::from_secs_f64(s.clamp(0.0, 86_400.0));
    let mut hosts = args.allow_host.clone();
    if !args.bind.is_unspecified() {
        hosts.push(match args.bind {
            std::net::IpAddr::V6(ip) => format!("[{ip}]"),
            ip => ip.to_string(),
        });
    }
    let limits = ServerLimits {
        time_limit: seconds(args.time_limit),
        max_solves: args.max_solves.map_or_else(
            || std::thread::available_parallelism().map_or(1, usize::from),
            usize::from,
        ),
        body_timeout: seconds(args.body_timeout),
        hosts,
        input: *input,
    };
    let connections = Connections {
        head_timeout: seconds(args.head_timeout),
        max: args.max_connections.get(),
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
        let mut workers = limits::Workers::new(limits);
        if args.pool > 0 {
            workers =
                workers.with_pool(pool::Pool::start(usize::from(args.pool), api::pool_puzzle));
        }
        let pool = workers.pool.clone();
        tokio::select! {
            () = connections.serve(listener, router_for(workers)) => {}
            _ = tokio::signal::ctrl_c() => {}
        }
        if let Some(pool) = pool {
            pool.stop();
        }
        Ok::<_, Failure>(())
    })?;
    // Work still running on blocking threads is not waited for.
    runtime.shutdown_background();
    Ok(Exit::Success)
}

/// How connections are taken: at most `max` open at once, each closed when it has not sent a
/// whole request head within `head_timeout` of its opening (an idle kept-alive one too, after
/// its last answer). Every client is accepted at once: at the cap, the oldest connection still
/// waiting for its first request head is closed to make room, so that stalled clients cannot
/// keep a real request in the system's listen queue.
struct Connections {
    head_timeout: Duration,
    max: usize,
}

/// One connection, as the accept loop sees it.
#[derive(Default)]
struct Opened {
    /// A whole request head has arrived.
    head: std::sync::atomic::AtomicBool,
    /// Set to close the connection (made room for a newer one).
    close: tokio::sync::Notify,
}

impl Connections {
    /// Accepts connections forever and serves each with `router` (HTTP/1.1, hyper).
    async fn serve(self, listener: tokio::net::TcpListener, router: Router) {
        use hyper::service::Service as _;
        use std::sync::atomic::Ordering;
        use std::sync::{Arc, Weak};
        let permits = Arc::new(tokio::sync::Semaphore::new(self.max.max(1)));
        let service = hyper_util::service::TowerToHyperService::new(router);
        let mut http = hyper::server::conn::http1::Builder::new();
        http.timer(hyper_util::rt::TokioTimer::new())
            .header_read_timeout(self.head_timeout);
        // The connections waiting for their first request head, oldest first.
        let mut waiting: std::collections::VecDeque<Weak<Opened>> =
            std::collections::VecDeque::new();
        loop {
            let stream = match listener.accept().await {
                Ok((stream, _)) => stream,
                Err(e) => {
                    // Out of descriptors, or a connection reset before it was taken: wait a
                    // little rather than spin.
                    note!("bimaru-sat: cannot accept a connection: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            };
            waiting.retain(|w| w.upgrade().is_some_and(|o| !o.head.load(Ordering::Relaxed)));
            let permit = match permits.clone().try_acquire_owned() {
                Ok(permit) => permit,
                Err(_) => {
                    // At the cap: close the oldest connection still without a request head,
                    // or, when every one is busy with a request, wait for one to end.
                    if let Some(oldest) = waiting.pop_front().and_then(|w| w.upgrade()) {
                        oldest.close.notify_one();
                    }
                    let Ok(permit) = permits.clone().acquire_owned().await else {
                        return;
                    };
                    permit
                }
            };
            let _ = stream.set_nodelay(true);
            let opened = Arc::new(Opened::default());
            waiting.push_back(Arc::downgrade(&opened));
            let service = {
                let (service, opened) = (service.clone(), opened.clone());
                hyper::service::service_fn(move |request| {
                    opened.head.store(true, Ordering::Relaxed);
                    service.call(request)
                })
            };
            let connection = http.serve_connection(hyper_util::rt::TokioIo::new(stream), service);
            let head_timeout = self.head_timeout;
            tokio::spawn(async move {
                let _permit = permit;
                let mut connection = std::pin::pin!(connection);
                // A client that goes away or times out ends its connection; nothing to
                // report. Dropping the connection closes it.
                let evicted = async {
                    opened.close.notified().await;
                    if opened.head.load(Ordering::Relaxed) {
                        // Its head came just as it was picked: it is no longer idle.
                        std::future::pending::<()>().await;
                    }
                };
                tokio::select! {
                    _ = connection.as_mut() => return,
                    () = evicted => return,
                    () = tokio::time::sleep(head_timeout) => {}
                }
                // The head timeout, counted from the opening: a connection without a request
                // head by then is closed; one that has sent one goes on (hyper's own
                // `header_read_timeout` watches its later heads).
                if opened.head.load(Ordering::Relaxed) {
                    let _ = connection.await;
                }
            });
        }
    }
}

/// Opens `url` in the system browser, when a launcher is found; says so on stderr, with the
/// address, when none is found or the launcher fails (no display, no browser).
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
    match spawned {
        Err(e) => note!("bimaru-sat: cannot run {launcher} ({e}); open {url} yourself"),
        // The launcher may wait for the browser it starts: its end is awaited aside.
        Ok(mut child) => {
            let url = url.to_string();
            std::thread::spawn(move || match child.wait() {
                Ok(status) if status.success() => {}
                Ok(status) => note!(
                    "bimaru-sat: {launcher} opened no browser ({status}); open {url} yourself"
                ),
                Err(e) => note!("bimaru-sat: {launcher} ({e}); open {url} yourself"),
            });
        }
    }
}
