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
use std::time::Duration;

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
        (huge.as_bytes(), 422, "1000x1000"),
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
            web.join("node_modules/playwright-core").exists(),
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
    // `BIMARU_WEB_PNG=docs/web.png` refreshes the picture in the docs.
    let screenshot = std::env::var("BIMARU_WEB_PNG").map_or_else(
        |_| Path::new(env!("CARGO_TARGET_TMPDIR")).join("web.png"),
        |p| repo(&p),
    );
    let server = Server::start(&[]);
    let status = Command::new("node")
        .arg(web.join("e2e.mjs"))
        .args([&server.url(), &puzzlink, &solution])
        .arg(&screenshot)
        .env("CHROMIUM", &chromium)
        .status()
        .expect("run node");
    assert!(status.success(), "tests/web/e2e.mjs failed");
}
