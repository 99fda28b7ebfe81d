//! A real `bimaru-sat serve` on a free port, and what the server tests (the fast suite's `web`
//! module and the long suite's) do with it: requests over raw sockets, the CLI's answer to
//! compare with, and the browser test's prerequisites.

use super::{bin, run};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The 10x10 example of the README.
pub const EXAMPLE: &str = include_str!("../../puzzles/ist-example.txt");

/// A server started on a free port, stopped when dropped.
pub struct Server {
    child: Child,
    /// `127.0.0.1:PORT`.
    pub address: String,
}

impl Server {
    pub fn start(args: &[&str]) -> Server {
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

    pub fn url(&self) -> String {
        format!("http://{}/", self.address)
    }

    /// One request over a new connection: the status and the body.
    pub fn request(
        &self,
        method: &str,
        path: &str,
        headers: &[&str],
        body: &[u8],
    ) -> (u16, String) {
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

    /// The CPU time the server has used so far (user and system, from `/proc`; Linux only).
    pub fn cpu_seconds(&self) -> f64 {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.child.id()))
            .expect("/proc/PID/stat of the server");
        // The fields after the command name in parentheses; utime and stime are 14th and 15th.
        let fields: Vec<&str> = stat
            .rsplit_once(')')
            .expect("a stat line")
            .1
            .split_whitespace()
            .collect();
        let ticks: f64 = fields[11].parse::<f64>().unwrap() + fields[12].parse::<f64>().unwrap();
        // USER_HZ is 100 on Linux.
        ticks / 100.0
    }

    pub fn post(&self, path: &str, body: &[u8]) -> (u16, String) {
        self.request("POST", path, &[], body)
    }

    /// A `POST` over a new connection: the status, the response head and the body.
    pub fn post_with_head(&self, path: &str, body: &[u8]) -> (u16, String, String) {
        let mut stream = TcpStream::connect(&self.address).expect("connect");
        stream
            .set_read_timeout(Some(Duration::from_secs(120)))
            .unwrap();
        let head = format!(
            "POST {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nContent-Length: {}\r\n\r\n",
            self.address,
            body.len()
        );
        stream.write_all(head.as_bytes()).expect("send the head");
        stream.write_all(body).expect("send the body");
        read_response_with_head(&mut stream)
    }

    /// A request with `Host: host` instead of the server's address.
    pub fn request_as(&self, host: &str, method: &str, path: &str, body: &[u8]) -> (u16, String) {
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
    pub fn stalled_body(&self) -> (u16, String) {
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
pub fn read_response(stream: &mut TcpStream) -> (u16, String) {
    let (status, _, body) = read_response_with_head(stream);
    (status, body)
}

/// [`read_response`], with the response head (status line and headers).
pub fn read_response_with_head(stream: &mut TcpStream) -> (u16, String, String) {
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
        return (status, head, String::new());
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
    (status, head, String::from_utf8_lossy(&body).into_owned())
}

/// The value of header `name` in a response head.
pub fn header<'a>(head: &'a str, name: &str) -> Option<&'a str> {
    head.lines().find_map(|l| {
        let (n, value) = l.split_once(':')?;
        n.eq_ignore_ascii_case(name).then(|| value.trim())
    })
}

pub fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// The CLI's solution rows of `path` (`--unique --to json`).
pub fn cli_grid(path: &Path) -> serde_json::Value {
    let out = run(&["--unique", "--to", "json", &path.to_string_lossy()], b"");
    assert!(out.status.success(), "{}", path.display());
    json(&String::from_utf8_lossy(&out.stdout))["grid"].clone()
}

pub fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// Whether a tool the browser test needs is here; under `CI=true` its absence fails the test,
/// elsewhere the test is skipped with a message (as for the corpus).
pub fn have(what: &str, present: bool) -> bool {
    if present {
        return true;
    }
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("CI=true but {what} is missing (.ci/run installs it)");
    }
    eprintln!("skipping the browser test: {what} is missing");
    false
}

/// Raises this process's soft limit on open files to 8192 when `prlimit` (util-linux) can, for
/// the tests that hold thousands of connections (the server started afterwards inherits it).
pub fn raise_descriptor_limit() {
    let _ = Command::new("prlimit")
        .args(["--pid", &std::process::id().to_string(), "--nofile=8192:"])
        .status();
}

/// The time one solve of the example takes over a new connection, and its status.
pub fn timed_solve(server: &Server) -> (Duration, u16) {
    let started = Instant::now();
    let (status, _) = server.post("/api/solve", EXAMPLE.as_bytes());
    (started.elapsed(), status)
}

/// The fastest of five solves of the 10x10 example, each answered 200.
pub fn fastest_solve(server: &Server) -> Duration {
    (0..5)
        .map(|_| {
            let (took, status) = timed_solve(server);
            assert_eq!(status, 200);
            took
        })
        .min()
        .expect("five solves")
}

/// Chromium's path and `tests/web` when node, Chromium and the browser test's JavaScript
/// packages are all here; under `CI=true` a missing one fails the test, elsewhere it is skipped
/// with a message.
pub fn browser() -> Option<(String, PathBuf)> {
    let chromium = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    let node_ok = Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    let web = repo("tests/web");
    let ready = have("node", node_ok)
        && have(&chromium, Path::new(&chromium).exists())
        && have(
            "tests/web/node_modules (npm ci in tests/web)",
            web.join("node_modules/playwright-core").exists()
                && web.join("node_modules/axe-core").exists(),
        );
    ready.then_some((chromium, web))
}

/// Where the browser tests put their screenshots: `BIMARU_WEB_SHOTS=docs` refreshes the
/// pictures in the docs (web.png, web-phone.png, battleship.png), else cargo's temporary folder.
pub fn screenshots() -> PathBuf {
    std::env::var("BIMARU_WEB_SHOTS").map_or_else(
        |_| Path::new(env!("CARGO_TARGET_TMPDIR")).to_path_buf(),
        |p| repo(&p),
    )
}
