//! `bimaru-sat serve` under load and in a browser: 2,000 stalled connections with the default
//! flags, and both pages (the puzzle and Battleship) played in Debian's Chromium by
//! `tests/web/e2e.mjs` and `tests/web/battleship.mjs` (playwright-core, axe-core). The fast
//! suite's `web` module has the API over a socket.

use crate::common::run;
use crate::common::server::{
    Server, browser, cli_grid, fastest_solve, raise_descriptor_limit, repo, screenshots,
    timed_solve,
};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::Command;
use std::time::{Duration, Instant};

/// With the default flags (issue 34): 2,000 stalled connections, each half a request head,
/// then a 10x10 solve, answered within a second; every stalled connection is closed within the
/// default head timeout (10 s) of its opening, plus a second for the scheduling of 2,000
/// timers and of this loop. At the default cap of 512 connections, the oldest ones still
/// without a head are closed to make room, so a new request is never left in the listen queue.
#[test]
fn stalled_connections_are_closed_at_the_head_timeout_and_a_solve_still_answers() {
    let _machine = crate::machine_alone();
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

#[cfg_attr(
    no_node_modules,
    ignore = "needs tests/web/node_modules (npm ci in tests/web), missing when this test was built"
)]
#[test]
fn the_page_plays_a_puzzle_in_chromium() {
    let _machine = crate::machine_alone();
    let Some((chromium, web)) = browser() else {
        return;
    };
    let example = repo("puzzles/ist-example.txt");
    let out = run(
        &["convert", "--to", "puzzlink", &example.to_string_lossy()],
        b"",
    );
    assert!(out.status.success());
    let puzzlink = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let solution = cli_grid(&example).to_string();
    let shots = screenshots();
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

#[cfg_attr(
    no_node_modules,
    ignore = "needs tests/web/node_modules (npm ci in tests/web), missing when this test was built"
)]
#[test]
fn the_battleship_page_plays_whole_games_in_chromium() {
    let _machine = crate::machine_alone();
    let Some((chromium, web)) = browser() else {
        return;
    };
    let shots = screenshots();
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

/// The serve pool's stock (`puzzles/stock/stock.jsonl`, built into the binary): every puzzle is
/// proved unique, and every one up to 25x25, and the first of each 30x30 kind, is remade byte
/// for byte by `generate` with its size, grade and seed and `/api/generate`'s 2,000-conflict
/// budget, so a request with the seed it names gets the very puzzle (`scripts/make_stock.py`
/// makes the stock again when the generator changes; the 30x30 kinds take up to 10 s each).
#[test]
fn every_stocked_puzzle_is_unique_and_the_generator_remakes_it_from_its_seed() {
    let _machine = crate::machine_shared();
    let text = std::fs::read_to_string(repo("puzzles/stock/stock.jsonl")).expect("the stock");
    let dir = tempfile::tempdir().unwrap();
    let mut remade = 0;
    let mut kinds_30 = std::collections::HashSet::new();
    for (n, line) in text.lines().enumerate() {
        let entry: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
        let size = entry["size"].as_str().unwrap();
        let seed = entry["seed"].as_u64().unwrap().to_string();
        let puzzle = entry["puzzle"].as_str().unwrap();
        let file = dir.path().join(format!("{n}.json"));
        std::fs::write(&file, puzzle).unwrap();
        let solved = run(&["solve", "--unique", &file.to_string_lossy()], b"");
        assert!(solved.status.success(), "line {}: not unique", n + 1);
        let side: usize = size.split('x').next().unwrap().parse().unwrap();
        if side <= 25 || kinds_30.insert(entry["grade"].to_string()) {
            let mut args = vec!["generate", "--size", size, "--seed", &seed];
            args.extend(["--max-conflicts", "2000", "--to", "json"]);
            if let Some(grade) = entry["grade"].as_str() {
                args.extend(["--grade", grade]);
            }
            let out = run(&args, b"");
            assert!(out.status.success(), "line {}: {args:?} failed", n + 1);
            assert_eq!(
                String::from_utf8_lossy(&out.stdout),
                puzzle,
                "line {}: {args:?} makes another puzzle",
                n + 1
            );
            remade += 1;
        }
    }
    assert!(remade >= 100, "only {remade} remade");
}
