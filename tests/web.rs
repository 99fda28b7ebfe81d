//! `bimaru-sat serve` as a real server on a free port: the page and its files over a socket,
//! 200 solves at once all answered as the CLI answers them, bad requests answered with a 4xx
//! JSON error while the server keeps serving. The stalled connections and the browser tests
//! are in the long suite (`tests/long/web.rs`); the API's answers one by one are tested through
//! the router in `src/app/serve/tests.rs`.

use crate::common::server::{EXAMPLE, Server, cli_grid, fastest_solve, have, header, json, repo};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::Command;
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

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

/// A client that goes away stops its request's work (issue 37): a 30x30 fiendish generation,
/// which runs to the 30 s limit here, is dropped once it has used 0.05 s of CPU; within 0.5 s
/// the server uses no more CPU, and with one worker (`--max-solves 1`) a 10x10 generation that needs the freed
/// permit is answered at once. Before, the work ran on to its limit and held the permit.
#[cfg(target_os = "linux")]
#[test]
fn a_client_that_goes_away_stops_its_generation() {
    // No pool: its background work would count in the server's CPU time.
    let server = Server::start(&["--max-solves", "1", "--time-limit", "30", "--pool", "0"]);
    let body = r#"{"size": "30x30", "grade": "fiendish", "seed": 7}"#;
    let mut stream = TcpStream::connect(&server.address).expect("connect");
    let head = format!(
        "POST /api/generate HTTP/1.1\r\nHost: {}\r\nContent-Length: {}\r\n\r\n",
        server.address,
        body.len()
    );
    stream.write_all(head.as_bytes()).expect("head");
    stream.write_all(body.as_bytes()).expect("body");
    // The generation runs: wait until it has used 0.05 s of CPU (0.3 s on a quiet machine;
    // longer when other tests share the cores), but no more than 10 s.
    let before = server.cpu_seconds();
    let waiting = Instant::now();
    let mut busy = 0.0;
    while busy <= 0.05 && waiting.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(100));
        busy = server.cpu_seconds() - before;
    }
    assert!(
        busy > 0.05,
        "the generation was not running: {busy} s of CPU in {:?}",
        waiting.elapsed()
    );
    drop(stream);
    std::thread::sleep(Duration::from_millis(500));
    let stopped = server.cpu_seconds();
    std::thread::sleep(Duration::from_millis(500));
    let after = server.cpu_seconds() - stopped;
    assert!(
        after < 0.05,
        "the server used {after} s of CPU after the client left"
    );
    let started = Instant::now();
    let (status, answer) = server.post("/api/generate", br#"{"size": "10x10", "seed": 2}"#);
    assert_eq!(status, 200, "{answer}");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "the heavy lane's permit was still held: {:?}",
        started.elapsed()
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

/// Puzzles on tap (issue 36): a generation without a seed is answered from the pool, made in the
/// background once the server has started, at once (under 100 ms) and named `Bimaru-Pool: hit`;
/// its `Bimaru-Seed` regenerates exactly that puzzle (a request with a seed bypasses the pool);
/// the next request without a seed gets another puzzle; with `--pool 0` every answer is made on
/// request (`miss`), still naming a random seed.
#[test]
fn a_generation_without_a_seed_comes_from_the_pool_and_its_seed_regenerates_it() {
    let server = Server::start(&[]);
    let ask = |body: &str| {
        let started = Instant::now();
        let (status, head, answer) = server.post_with_head("/api/generate", body.as_bytes());
        assert_eq!(status, 200, "{answer}");
        let seed: u64 = header(&head, "bimaru-seed")
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("no seed in {head}"));
        let pooled = header(&head, "bimaru-pool") == Some("hit");
        (started.elapsed(), seed, pooled, answer)
    };
    let request = r#"{"size": "10x10", "grade": "easy"}"#;
    // The pool fills in the background: the first 10x10 puzzles within milliseconds of the start.
    let waited = Instant::now();
    let (took, seed, answer) = loop {
        let (took, seed, pooled, answer) = ask(request);
        if pooled {
            break (took, seed, answer);
        }
        assert!(
            waited.elapsed() < Duration::from_secs(30),
            "no pooled puzzle 30 s after the start"
        );
        std::thread::sleep(Duration::from_millis(200));
    };
    eprintln!(
        "pool: a pooled 10x10 easy {:?} after the first ask, answered in {took:?}",
        waited.elapsed()
    );
    assert!(
        took < Duration::from_millis(100),
        "a pooled answer took {took:?}"
    );
    let again = format!(r#"{{"size": "10x10", "grade": "easy", "seed": {seed}}}"#);
    let (_, same_seed, pooled, same) = ask(&again);
    assert_eq!((same_seed, pooled), (seed, false));
    assert_eq!(same, answer, "seed {seed} regenerates another puzzle");
    let board = json(&answer);
    assert_eq!(board["rows"], 10);
    assert!(board["solution"].is_array(), "{answer}");
    let (_, other_seed, _, other) = ask(request);
    assert_ne!(
        (other_seed, &other),
        (seed, &answer),
        "the same puzzle twice"
    );

    let off = Server::start(&["--pool", "0"]);
    let (status, head, _) = off.post_with_head("/api/generate", request.as_bytes());
    assert_eq!(status, 200);
    assert_eq!(header(&head, "bimaru-pool"), Some("miss"));
    assert!(header(&head, "bimaru-seed").is_some_and(|s| s.parse::<u64>().is_ok()));
}

/// A kind the pool has not made yet (a 30x30 fiendish takes 10 s or more) answers at once from the
/// stock built into the binary (`puzzles/stock/stock.jsonl`), named `Bimaru-Pool: stock`: the
/// very puzzle the stock holds for the seed the answer names; the next such answer is another
/// puzzle of the stock.
#[test]
fn a_kind_the_pool_has_not_made_yet_comes_from_its_stock() {
    let stock = std::fs::read_to_string(repo("puzzles/stock/stock.jsonl")).expect("the stock");
    let stocked: Vec<(u64, String)> = stock
        .lines()
        .map(json)
        .filter(|e| e["size"] == "30x30" && e["grade"] == "fiendish")
        .map(|e| {
            (
                e["seed"].as_u64().unwrap(),
                e["puzzle"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert!(stocked.len() >= 2, "30x30 fiendish is stocked");
    let server = Server::start(&[]);
    let mut answers = Vec::new();
    for _ in 0..2 {
        let started = Instant::now();
        let request = br#"{"size": "30x30", "grade": "fiendish"}"#;
        let (status, head, answer) = server.post_with_head("/api/generate", request);
        let took = started.elapsed();
        assert_eq!(status, 200, "{answer}");
        assert_eq!(header(&head, "bimaru-pool"), Some("stock"), "{head}");
        assert!(
            took < Duration::from_secs(1),
            "a stocked answer took {took:?}"
        );
        let seed: u64 = header(&head, "bimaru-seed").unwrap().parse().unwrap();
        assert!(
            stocked.contains(&(seed, answer.clone())),
            "seed {seed}'s answer is not the stock's"
        );
        answers.push(seed);
    }
    assert_ne!(
        answers[0], answers[1],
        "the stock gives the same puzzle twice"
    );
}

/// Whether `real` holds everything `shown` shows: every key of an object, equal; the items of
/// an array in order, up to a string that starts with `...` (what the docs leave out).
fn shows(shown: &serde_json::Value, real: &serde_json::Value) -> bool {
    use serde_json::Value;
    match (shown, real) {
        (Value::Object(shown), Value::Object(real)) => shown
            .iter()
            .all(|(key, value)| real.get(key).is_some_and(|r| shows(value, r))),
        (Value::Array(shown), Value::Array(real)) => shown
            .iter()
            .zip(real.iter().map(Some).chain(std::iter::repeat(None)))
            .take_while(|(s, _)| !s.as_str().is_some_and(|s| s.starts_with("...")))
            .all(|(s, r)| r.is_some_and(|r| shows(s, r))),
        (shown, real) => shown == real,
    }
}

#[test]
fn the_advise_example_of_the_docs_is_the_real_answer() {
    let docs = std::fs::read_to_string(repo("docs/web.md")).unwrap();
    let section = docs
        .split("### `/api/advise`")
        .nth(1)
        .expect("docs/web.md has a section on /api/advise");
    let blocks: Vec<&str> = section
        .split("```json\n")
        .skip(1)
        .take(2)
        .map(|b| b.split("```").next().unwrap_or_default())
        .collect();
    let (request, answer) = (blocks[0], json(blocks[1]));
    let server = Server::start(&["--pool", "0"]);
    let (status, body) = server.post("/api/advise", request.as_bytes());
    assert_eq!(status, 200, "{body}");
    let real = json(&body);
    assert!(
        shows(&answer, &real),
        "the docs show {answer}\nthe server answers {real}"
    );
    assert_eq!(real["probabilities"].as_array().map(Vec::len), Some(10));
}
