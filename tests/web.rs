//! `bimaru-sat serve` as a real server on a free port: the page and its files over a socket,
//! 200 solves at once all answered as the CLI answers them, bad requests answered with a 4xx
//! JSON error while the server keeps serving, and the page played in Debian's Chromium by
//! `tests/web/e2e.mjs` (playwright-core). The API's answers one by one are tested through the
//! router in `src/app/serve/tests.rs`.

use crate::common::{bin, run};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

const EXAMPLE: &str = include_str!("../puzzles/ist-example.txt");

/// A server started on a free port, stopped when dropped.
struct Server {
    child: Child,
    /// `127.0.0.1:PORT`.
    address: String,
}

impl Server {
    fn start(args: &[&str]) -> Server {
        let mut child = bin()
            .args(["serve", "--port", "0"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("spawn bimaru-sat serve");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = BufReader::new(stdout).read_line(&mut line);
            let _ = tx.send(line);
        });
        let line = rx
            .recv_timeout(Duration::from_secs(30))
            .expect("the server prints its address");
        let address = line
            .trim()
            .strip_prefix("listening on http://")
            .and_then(|rest| rest.strip_suffix('/'))
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
            .to_string();
        Server { child, address }
    }

    fn url(&self) -> String {
        format!("http://{}/", self.address)
    }

    /// One request over a new connection: the status and the body.
    fn request(&self, method: &str, path: &str, headers: &[&str], body: &[u8]) -> (u16, String) {
        let mut stream = TcpStream::connect(&self.address).expect("connect");
        stream
            .set_read_timeout(Some(Duration::from_secs(120)))
            .unwrap();
        let mut head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nContent-Length: {}\r\n",
            self.address,
            body.len()
        );
        for header in headers {
            head.push_str(header);
            head.push_str("\r\n");
        }
        head.push_str("\r\n");
        stream.write_all(head.as_bytes()).expect("send the head");
        if headers
            .iter()
            .any(|h| h.starts_with("Expect: 100-continue"))
        {
            // Send the body only if the server asks for it.
            let (status, answer) = read_response(&mut stream);
            if status != 100 {
                return (status, answer);
            }
        }
        stream.write_all(body).expect("send the body");
        read_response(&mut stream)
    }

    fn post(&self, path: &str, body: &[u8]) -> (u16, String) {
        self.request("POST", path, &[], body)
    }

    /// A request with `Host: host` instead of the server's address.
    fn request_as(&self, host: &str, method: &str, path: &str, body: &[u8]) -> (u16, String) {
        let mut stream = TcpStream::connect(&self.address).expect("connect");
        stream
            .set_read_timeout(Some(Duration::from_secs(120)))
            .unwrap();
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {host}\r\nContent-Length: {}\r\n\r\n",
            body.len()
        );
        stream.write_all(head.as_bytes()).expect("send the head");
        stream.write_all(body).expect("send the body");
        read_response(&mut stream)
    }

    /// A solve whose body stops after 10 of its 100 bytes: the answer at the body timeout.
    fn stalled_body(&self) -> (u16, String) {
        let mut stream = TcpStream::connect(&self.address).expect("connect");
        stream
            .set_read_timeout(Some(Duration::from_secs(60)))
            .unwrap();
        let head = format!(
            "POST /api/solve HTTP/1.1\r\nHost: {}\r\nContent-Length: 100\r\n\r\nROW 1 2 3 ",
            self.address
        );
        stream.write_all(head.as_bytes()).expect("send the head");
        read_response(&mut stream)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Reads one response (an interim `100 Continue`, or the final one up to its Content-Length).
fn read_response(stream: &mut TcpStream) -> (u16, String) {
    let mut bytes = Vec::new();
    let mut byte = [0u8; 1];
    while !bytes.ends_with(b"\r\n\r\n") {
        match stream.read(&mut byte) {
            Ok(1) => bytes.push(byte[0]),
            _ => panic!("the connection closed in the head: {bytes:?}"),
        }
    }
    let head = String::from_utf8_lossy(&bytes).into_owned();
    let status: u16 = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("bad status line in {head:?}"));
    if status == 100 {
        return (status, String::new());
    }
    let length = head
        .lines()
        .find_map(|l| {
            let (name, value) = l.split_once(':')?;
            name.eq_ignore_ascii_case("content-length")
                .then(|| value.trim().parse::<usize>().ok())?
        })
        .unwrap_or_else(|| panic!("no Content-Length in {head:?}"));
    let mut body = vec![0u8; length];
    stream.read_exact(&mut body).expect("the body");
    (status, String::from_utf8_lossy(&body).into_owned())
}

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// The CLI's solution rows of `path` (`--unique --to json`).
fn cli_grid(path: &Path) -> serde_json::Value {
    let out = run(&["--unique", "--to", "json", &path.to_string_lossy()], b"");
    assert!(out.status.success(), "{}", path.display());
    json(&String::from_utf8_lossy(&out.stdout))["grid"].clone()
}

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

#[test]
fn the_page_and_every_file_it_names_are_served() {
    let server = Server::start(&[]);
    let (status, page) = server.request("GET", "/", &[], b"");
    assert_eq!(status, 200);
    let mut named = 0;
    for quote in page.split('"').skip(1).step_by(2) {
        if quote.starts_with('/') && quote.len() > 1 && !quote.starts_with("//") {
            let (status, body) = server.request("GET", quote, &[], b"");
            assert_eq!(status, 200, "{quote}");
            assert!(!body.is_empty(), "{quote}");
            named += 1;
        }
    }
    assert!(named >= 3, "the page names its script, style and icon");
}

#[test]
fn two_hundred_solves_at_once_are_all_answered_as_the_cli_answers() {
    let mut puzzles: Vec<(String, serde_json::Value)> = vec![(
        EXAMPLE.to_string(),
        cli_grid(&repo("puzzles/ist-example.txt")),
    )];
    for n in 1..=9 {
        let path = repo(&format!("puzzles/generated/10x10/00{n}.json"));
        let text = std::fs::read_to_string(&path).expect("a generated puzzle");
        puzzles.push((text, cli_grid(&path)));
    }
    let server = Arc::new(Server::start(&["--max-solves", "2", "--time-limit", "60"]));
    let puzzles = Arc::new(puzzles);
    const REQUESTS: usize = 200;
    let start = Arc::new(Barrier::new(REQUESTS));
    let threads: Vec<_> = (0..REQUESTS)
        .map(|i| {
            let (server, puzzles, start) = (server.clone(), puzzles.clone(), start.clone());
            std::thread::spawn(move || {
                let (text, grid) = &puzzles[i % puzzles.len()];
                start.wait();
                let route = if i % 2 == 0 {
                    "/api/unique"
                } else {
                    "/api/solve"
                };
                let (status, body) = server.post(route, text.as_bytes());
                assert_eq!(status, 200, "request {i}: {body}");
                let answer = json(&body);
                assert_eq!(&answer["grid"], grid, "request {i}");
                if route == "/api/unique" {
                    assert_eq!(answer["status"], "unique", "request {i}");
                }
            })
        })
        .collect();
    let failed = threads.into_iter().filter_map(|t| t.join().err()).count();
    assert_eq!(failed, 0, "{failed} of {REQUESTS} requests failed");
}

#[test]
fn bad_requests_get_a_4xx_json_error_and_the_server_keeps_serving() {
    let server = Server::start(&[]);
    let ten_mb = vec![b'x'; 10 << 20];
    // As curl sends a large body: it waits for the server's go-ahead, which never comes.
    let (status, body) = server.request(
        "POST",
        "/api/solve",
        &["Expect: 100-continue", "Content-Type: text/plain"],
        &ten_mb,
    );
    assert_eq!(status, 413, "{body}");
    assert!(
        json(&body)["error"]
            .as_str()
            .unwrap()
            .contains("larger than")
    );
    // Sent all at once: the answer may be lost when the server closes the connection early,
    // but the server goes on.
    if let Ok(mut stream) = TcpStream::connect(&server.address) {
        let head = format!(
            "POST /api/solve HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\n\r\n",
            ten_mb.len()
        );
        let _ = stream.write_all(head.as_bytes());
        let _ = stream.write_all(&ten_mb);
    }
    let huge = serde_json::json!({"rows": 1000, "cols": 1000,
        "row_counts": vec![serde_json::Value::Null; 1000],
        "col_counts": vec![serde_json::Value::Null; 1000], "fleet": {"1": 1}})
    .to_string();
    let unsolvable = EXAMPLE.replacen("HINT 6 0 W", "HINT 6 0 C", 1);
    let garbage: Vec<u8> = (0..4096u32).map(|i| (i * 7919 % 251) as u8).collect();
    let bad_line = EXAMPLE.replacen("COLUMN 6 0 1", "COLUMN 6 zero 1", 1);
    let cases: [(&[u8], u16, &str); 5] = [
        (huge.as_bytes(), 422, "1000000 cells"),
        (&garbage, 400, "puzzle"),
        (b"{\"puzzle\": [1, 2]}", 400, "request"),
        (bad_line.as_bytes(), 400, "line 2"),
        (unsolvable.as_bytes(), 422, "no solution"),
    ];
    for (body, expected, needle) in cases {
        let (status, answer) = server.post("/api/solve", body);
        assert_eq!(status, expected, "{answer}");
        let error = json(&answer)["error"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        assert!(error.contains(needle), "{needle:?} not in {error:?}");
    }
    let (status, answer) = server.post("/api/solve", EXAMPLE.as_bytes());
    assert_eq!(status, 200, "still serving: {answer}");
    assert_eq!(
        json(&answer)["grid"],
        cli_grid(&repo("puzzles/ist-example.txt"))
    );
}

/// Raises this process's soft limit on open files to 8192 when `prlimit` (util-linux) can, for
/// the tests that hold thousands of connections (the server started afterwards inherits it).
fn raise_descriptor_limit() {
    let _ = Command::new("prlimit")
        .args(["--pid", &std::process::id().to_string(), "--nofile=8192:"])
        .status();
}

/// The time one solve of the example takes over a new connection, and its status.
fn timed_solve(server: &Server) -> (Duration, u16) {
    let started = Instant::now();
    let (status, _) = server.post("/api/solve", EXAMPLE.as_bytes());
    (started.elapsed(), status)
}

/// The fastest of five solves of the 10x10 example, each answered 200.
fn fastest_solve(server: &Server) -> Duration {
    (0..5)
        .map(|_| {
            let (took, status) = timed_solve(server);
            assert_eq!(status, 200);
            took
        })
        .min()
        .expect("five solves")
}

/// With the default flags (issue 34): 2,000 stalled connections, each half a request head,
/// then a 10x10 solve, answered within a second; every stalled connection is closed within the
/// default head timeout (10 s) of its opening, plus a second for the scheduling of 2,000
/// timers and of this loop. At the default cap of 512 connections, the oldest ones still
/// without a head are closed to make room, so a new request is never left in the listen queue.
#[test]
fn stalled_connections_are_closed_at_the_head_timeout_and_a_solve_still_answers() {
    raise_descriptor_limit();
    const STALLED: usize = 2_000;
    let head_timeout = Duration::from_secs(10);
    let server = Server::start(&[]);
    let mut stalled: Vec<(Instant, TcpStream)> = (0..STALLED)
        .map(|i| {
            let mut stream = TcpStream::connect(&server.address)
                .unwrap_or_else(|e| panic!("connection {i}: {e} (ulimit -n too low?)"));
            stream
                .write_all(b"POST /api/solve HTTP/1.1\r\nHost: 127.0")
                .expect("half a head");
            (Instant::now(), stream)
        })
        .collect();
    let (first, status) = timed_solve(&server);
    assert_eq!(status, 200);
    let fastest = fastest_solve(&server).min(first);
    // Those opened less than the head timeout ago were still waiting beside the solves.
    let waiting = stalled
        .iter()
        .filter(|(opened, _)| opened.elapsed() < head_timeout)
        .count();
    eprintln!(
        "stalled: {STALLED} connections opened in {:?}; {waiting} still waiting after the \
         solves; first solve {first:?}, fastest of six {fastest:?}",
        stalled[STALLED - 1].0 - stalled[0].0
    );
    assert!(
        waiting >= STALLED / 2,
        "only {waiting} stalled connections were waiting beside the solves; the check is void"
    );
    assert!(
        first < Duration::from_secs(1),
        "a solve took {first:?} beside {STALLED} stalled connections"
    );
    for (i, (opened, stream)) in stalled.iter_mut().enumerate() {
        let closed_by = *opened + head_timeout + Duration::from_secs(1);
        let left = closed_by
            .saturating_duration_since(Instant::now())
            .max(Duration::from_millis(1));
        stream.set_read_timeout(Some(left)).unwrap();
        let mut sink = [0u8; 512];
        loop {
            match stream.read(&mut sink) {
                Ok(0) => break,
                Ok(_) => continue,
                Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => break,
                Err(e) => panic!(
                    "stalled connection {i} still open {:?} after it opened: {e}",
                    opened.elapsed()
                ),
            }
        }
    }
    let (_, status) = timed_solve(&server);
    assert_eq!(status, 200, "still serving");
}

#[test]
fn slow_grades_in_flight_do_not_delay_a_small_solve() {
    // A fiendish 30x30: its grade takes 101 s (docs/web.md), so all 20 are still in flight
    // (two worked on, eighteen waiting) while the solves run.
    let slow = std::fs::read_to_string(repo("puzzles/generated/30x30/001.json")).unwrap();
    let server = Server::start(&["--max-solves", "2", "--time-limit", "60"]);
    let in_flight = Arc::new(Barrier::new(21));
    let answered = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    for _ in 0..20 {
        let (address, slow, in_flight) = (server.address.clone(), slow.clone(), in_flight.clone());
        let answered = answered.clone();
        // Never joined: each ends when its grade is answered or the server, dropped at the end
        // of the test, is killed.
        std::thread::spawn(move || {
            let mut stream = TcpStream::connect(&address).expect("connect");
            let head = format!(
                "POST /api/grade HTTP/1.1\r\nHost: {address}\r\nContent-Length: {}\r\n\r\n",
                slow.len()
            );
            stream.write_all(head.as_bytes()).expect("head");
            stream.write_all(slow.as_bytes()).expect("body");
            in_flight.wait();
            if stream.read(&mut [0u8; 1]).is_ok_and(|n| n > 0) {
                answered.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            }
        });
    }
    in_flight.wait();
    // Let the server read them all and start two.
    std::thread::sleep(Duration::from_millis(500));
    let fastest = fastest_solve(&server);
    eprintln!("slow grades: fastest of five solves {fastest:?}");
    assert!(
        fastest < Duration::from_millis(100),
        "a 10x10 solve took {fastest:?} behind 20 slow grades"
    );
    assert_eq!(
        answered.load(std::sync::atomic::Ordering::SeqCst),
        0,
        "the slow grades were still in flight during the solves"
    );
}

/// The rows of the table of error examples in docs/web.md: `| case | status | message |`.
fn documented_errors() -> Vec<(String, u16, String)> {
    let docs = std::fs::read_to_string(repo("docs/web.md")).unwrap();
    let section = docs
        .split("### Error examples")
        .nth(1)
        .expect("docs/web.md has a section \"Error examples\"");
    section
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .skip(2)
        .map(|l| {
            let cells: Vec<&str> = l.trim_matches('|').split(" | ").map(str::trim).collect();
            assert_eq!(cells.len(), 3, "{l}");
            (
                cells[0].to_string(),
                cells[1].parse().unwrap_or_else(|_| panic!("status in {l}")),
                cells[2].trim_matches('`').replace("\\|", "|"),
            )
        })
        .collect()
}

#[test]
fn errors_are_answered_with_the_status_and_message_the_docs_state() {
    let server = Server::start(&["--body-timeout", "1", "--allow-host", "play.example"]);
    let board = |side: usize| {
        serde_json::json!({"rows": side, "cols": side,
            "row_counts": vec![serde_json::Value::Null; side],
            "col_counts": vec![serde_json::Value::Null; side], "fleet": {"1": 1}})
        .to_string()
    };
    let big = vec![b'x'; 2 << 20];
    let truncated = format!(
        "{{\"puzzle\": {}",
        serde_json::Value::String(EXAMPLE.into())
    );
    let truncated = &truncated[..truncated.len() - 40];
    let answers: Vec<(&str, (u16, String))> = vec![
        (
            "a 2000x2000 board",
            server.post("/api/solve", board(2000).as_bytes()),
        ),
        (
            "a 60x60 board",
            server.post("/api/solve", board(60).as_bytes()),
        ),
        (
            "a JSON body cut off",
            server.post("/api/solve", truncated.as_bytes()),
        ),
        ("a 2 MB body", server.post("/api/solve", &big)),
        (
            "a foreign `Host`",
            server.request_as("evil.example:80", "POST", "/api/solve", EXAMPLE.as_bytes()),
        ),
        ("a body that stops", server.stalled_body()),
        ("no such route", server.post("/api/nothing", b"")),
        (
            "a GET of the API",
            server.request("GET", "/api/solve", &[], b""),
        ),
    ];
    let documented = documented_errors();
    for (case, (status, answer)) in &answers {
        let (_, want_status, want_message) = documented
            .iter()
            .find(|(c, _, _)| c == case)
            .unwrap_or_else(|| panic!("docs/web.md has no example {case:?}"));
        assert_eq!(status, want_status, "{case}: {answer}");
        assert_eq!(json(answer)["error"], want_message.as_str(), "{case}");
    }
    assert_eq!(
        documented.len(),
        answers.len(),
        "every documented example is tested"
    );
    // A name given with --allow-host is served.
    let (status, answer) = server.request_as(
        "play.example:8080",
        "POST",
        "/api/solve",
        EXAMPLE.as_bytes(),
    );
    assert_eq!(status, 200, "{answer}");
}

#[test]
fn python_urllib_posting_10_mb_reads_the_413() {
    let python = Command::new("python3").arg("--version").output();
    if !have("python3", python.is_ok_and(|o| o.status.success())) {
        return;
    }
    let server = Server::start(&[]);
    let script = r#"
import sys, urllib.request, urllib.error
request = urllib.request.Request(sys.argv[1] + "api/solve", data=b"x" * (10 << 20), method="POST")
try:
    urllib.request.urlopen(request, timeout=60)
    print("no error")
except urllib.error.HTTPError as e:
    print(e.code, e.read().decode())
"#;
    let out = Command::new("python3")
        .args(["-c", script, &server.url()])
        .output()
        .expect("run python3");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (status, body) = stdout.trim().split_once(' ').expect("status and body");
    assert_eq!(status, "413", "{stdout}");
    assert!(
        json(body)["error"]
            .as_str()
            .unwrap()
            .contains("larger than")
    );
}

/// Whether a tool the browser test needs is here; under `CI=true` its absence fails the test,
/// elsewhere the test is skipped with a message (as for the corpus).
fn have(what: &str, present: bool) -> bool {
    if present {
        return true;
    }
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("CI=true but {what} is missing (.ci/run installs it)");
    }
    eprintln!("skipping the browser test: {what} is missing");
    false
}

#[cfg_attr(
    no_node_modules,
    ignore = "needs tests/web/node_modules (npm ci in tests/web), missing when this test was built"
)]
#[test]
fn the_page_plays_a_puzzle_in_chromium() {
    let chromium = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    let node_ok = Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    let web = repo("tests/web");
    if !have("node", node_ok)
        || !have(&chromium, Path::new(&chromium).exists())
        || !have(
            "tests/web/node_modules (npm ci in tests/web)",
            web.join("node_modules/playwright-core").exists()
                && web.join("node_modules/axe-core").exists(),
        )
    {
        return;
    }
    let example = repo("puzzles/ist-example.txt");
    let out = run(
        &["convert", "--to", "puzzlink", &example.to_string_lossy()],
        b"",
    );
    assert!(out.status.success());
    let puzzlink = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let solution = cli_grid(&example).to_string();
    // `BIMARU_WEB_SHOTS=docs` refreshes the pictures in the docs (web.png, web-phone.png).
    let shots = std::env::var("BIMARU_WEB_SHOTS").map_or_else(
        |_| Path::new(env!("CARGO_TARGET_TMPDIR")).to_path_buf(),
        |p| repo(&p),
    );
    let server = Server::start(&[]);
    let status = Command::new("node")
        .arg(web.join("e2e.mjs"))
        .args([&server.url(), &puzzlink, &solution])
        .arg(&shots)
        .env("CHROMIUM", &chromium)
        .status()
        .expect("run node");
    assert!(status.success(), "tests/web/e2e.mjs failed");
}

#[test]
fn the_battleship_page_plays_whole_games_in_chromium() {
    let chromium = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    let node_ok = Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    let web = repo("tests/web");
    if !have("node", node_ok)
        || !have(&chromium, Path::new(&chromium).exists())
        || !have(
            "tests/web/node_modules (npm ci in tests/web)",
            web.join("node_modules/playwright-core").exists()
                && web.join("node_modules/axe-core").exists(),
        )
    {
        return;
    }
    let shots = std::env::var("BIMARU_WEB_SHOTS").map_or_else(
        |_| Path::new(env!("CARGO_TARGET_TMPDIR")).to_path_buf(),
        |p| repo(&p),
    );
    let server = Server::start(&[]);
    let status = Command::new("node")
        .arg(web.join("battleship.mjs"))
        .arg(server.url())
        .arg(&shots)
        .env("CHROMIUM", &chromium)
        .status()
        .expect("run node");
    assert!(status.success(), "tests/web/battleship.mjs failed");
}
