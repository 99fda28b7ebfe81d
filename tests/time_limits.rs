//! `--time-limit` holds: every command that takes one refuses a limit that is not a positive,
//! finite number of at most a year (exit 2), and stops every phase of a large or hard job
//! (exit 4), with the solutions found so far when counting. No timing assertions: each run has
//! a generous watchdog (the limit plus three seconds) that only catches a limit that is not
//! honoured at all; the measured figures are in docs/reliability.md.

use crate::common::{run, shared, spawn};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::{Duration, Instant};

/// Runs the binary with `args` and `stdin`, failing the test if it has not finished after
/// `watchdog` (it is killed then).
fn run_within(args: &[&str], stdin: &[u8], watchdog: Duration) -> Output {
    let mut child = spawn(args, stdin);
    let start = Instant::now();
    // Read the pipes on threads so that a large output cannot block the child.
    let mut out_pipe = child.stdout.take().unwrap();
    let mut err_pipe = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = std::io::Read::read_to_end(&mut out_pipe, &mut v);
        v
    });
    let err = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = std::io::Read::read_to_end(&mut err_pipe, &mut v);
        v
    });
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > watchdog {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{args:?} still running after {watchdog:?}: the time limit was not honoured");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Output {
        status,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    }
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A `rows` x `cols` JSON puzzle with `ships` ships (lengths 1 to 4 in turn) lying along every
/// other row, and the row and column counts they give: solvable, with few clues to go by.
fn board(rows: usize, cols: usize, ships: usize) -> String {
    let (mut row_counts, mut col_counts) = (vec![0usize; rows], vec![0usize; cols]);
    let mut fleet = [0usize; 4];
    for i in 0..ships {
        let len = i % 4 + 1;
        let row = (2 * i) % rows;
        let col = (i * 7919) % (cols - len);
        row_counts[row] += len;
        for count in &mut col_counts[col..col + len] {
            *count += 1;
        }
        fleet[len - 1] += 1;
    }
    serde_json::json!({
        "rows": rows,
        "cols": cols,
        "row_counts": row_counts,
        "col_counts": col_counts,
        "fleet": {"1": fleet[0], "2": fleet[1], "3": fleet[2], "4": fleet[3]},
    })
    .to_string()
}

/// Writes `text` to a file in a fresh temporary folder.
fn file(dir: &tempfile::TempDir, name: &str, text: &str) -> PathBuf {
    let path = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn arg(path: &Path) -> &str {
    path.to_str().unwrap()
}

const EXAMPLE: &str = include_str!("../puzzles/ist-example.txt");

#[test]
fn a_limit_that_is_not_a_positive_finite_number_of_at_most_a_year_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let puzzle = file(&dir, "p.txt", EXAMPLE);
    let p = arg(&puzzle);
    let rowan = "1\n5\nA B D S P\n".to_string() + &"0 0 0 0 0 0 0 0 0 0\n".repeat(10);
    for bad in [
        "0", "-1", "-0", "NaN", "inf", "-inf", "1e20", "1e400", "31536001", "soon",
    ] {
        let runs: [(Vec<&str>, &[u8]); 5] = [
            (vec!["--time-limit", bad, p], b""),
            (vec!["batch", "--time-limit", bad, p], b""),
            (vec!["hint", "--time-limit", bad, p], b""),
            (vec!["grade", "--time-limit", bad, p], b""),
            (
                vec!["advise", "--posterior", "--time-limit", bad],
                rowan.as_bytes(),
            ),
        ];
        for (args, stdin) in runs {
            let o = run(&args, stdin);
            assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
            let e = stderr(&o);
            assert!(e.contains("--time-limit") && !e.contains("panicked"), "{e}");
            assert!(o.stdout.is_empty(), "{args:?}");
        }
    }
    // The largest limit taken, and a tiny one that is reached at once.
    let o = run(&["--time-limit", "31536000", p], b"");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = run(&["--time-limit", "1e-9", p], b"");
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    assert!(o.stdout.is_empty());
    assert!(stderr(&o).contains("time limit of 0.000000001 s reached"));
}

#[test]
fn a_huge_board_is_refused_by_the_size_limits_or_stops_at_the_time_limit() {
    let dir = tempfile::tempdir().unwrap();
    let huge = file(&dir, "3000.json", &board(3000, 3000, 10));
    let huger = file(&dir, "100000.json", &board(100_000, 100_000, 1));
    // By default the size limits refuse both at once (exit 2).
    for path in [&huge, &huger] {
        let o = run_within(
            &["--time-limit", "2", arg(path)],
            b"",
            Duration::from_secs(5),
        );
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(stderr(&o).contains("over the limit"), "{}", stderr(&o));
        assert!(o.stdout.is_empty());
    }
    // With the limits raised, the 3000x3000 board is allowed, and the time limit stops it
    // (placement enumeration, pre-solving, encoding and the solver all check it). The whole
    // solve takes about 2 s here (4 s before the placement list skipped halo checks on boards
    // without ship clues), so the limit is a quarter of that.
    let raised = [
        "--max-cells",
        "9000000",
        "--max-model-size",
        "100000000",
        "--time-limit",
        "0.5",
        arg(&huge),
    ];
    let o = run_within(&raised, b"", Duration::from_secs(5));
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("time limit of 0.5 s reached"),
        "{}",
        stderr(&o)
    );
    assert!(o.stdout.is_empty());
}

#[test]
fn hard_boards_of_100x100_and_200x200_stop_at_a_five_second_limit() {
    let dir = tempfile::tempdir().unwrap();
    for (rows, ships) in [(100, 48), (200, 98)] {
        let path = file(&dir, "hard.json", &board(rows, rows, ships));
        let o = run_within(
            &["--time-limit", "5", arg(&path)],
            b"",
            Duration::from_secs(8),
        );
        // Solved in time (a grid the verifier passed) or stopped at the limit, nothing else.
        match o.status.code() {
            Some(0) => assert!(!o.stdout.is_empty()),
            Some(4) => assert!(o.stdout.is_empty() && stderr(&o).contains("time limit")),
            other => panic!("{rows}x{rows}: exit {other:?}: {}", stderr(&o)),
        }
    }
}

/// Issue 26's stress board: 150x150 with 150 ships. With `--no-presolve` the encoding alone
/// (about a gigabyte) outlasts a two-second limit, so the limit must stop the encoders, the
/// solver's simplification and the freeing of the half-built formula. The watchdog leaves room
/// for a loaded test machine; `docs/reliability.md` has the measured times (2.1–2.2 s).
#[test]
fn a_two_second_limit_stops_the_150x150_stress_board_while_it_is_encoded() {
    let dir = tempfile::tempdir().unwrap();
    let path = file(&dir, "b150.json", &board(150, 150, 150));
    for extra in [&[][..], &["--no-presolve"][..]] {
        let mut args = vec!["--time-limit", "2", arg(&path)];
        args.extend_from_slice(extra);
        let o = run_within(&args, b"", Duration::from_secs(4));
        match o.status.code() {
            Some(0) => assert!(!o.stdout.is_empty()),
            Some(4) => assert!(o.stdout.is_empty() && stderr(&o).contains("time limit")),
            other => panic!("{extra:?}: exit {other:?}: {}", stderr(&o)),
        }
    }
}

/// A 10x10 board with the standard fleet and no counts or clues: billions of solutions, found
/// one a solver call at a time.
fn open_board() -> String {
    serde_json::json!({
        "rows": 10, "cols": 10,
        "row_counts": vec![Value::Null; 10],
        "col_counts": vec![Value::Null; 10],
        "fleet": {"1": 4, "2": 3, "3": 2, "4": 1},
    })
    .to_string()
}

#[test]
fn counting_with_a_limit_prints_what_it_found_and_says_the_count_is_a_lower_bound() {
    let dir = tempfile::tempdir().unwrap();
    let path = file(&dir, "open.json", &open_board());
    let args = ["--count", "100000000", "--time-limit", "1", "--to", "ist"];
    let o = run_within(
        &[&args[..], &[arg(&path)]].concat(),
        b"",
        Duration::from_secs(4),
    );
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    let text = String::from_utf8(o.stdout.clone()).unwrap();
    let last = text.lines().last().unwrap();
    assert!(last.starts_with("solutions: at least "), "{last}");
    let found: usize = last["solutions: at least ".len()..]
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(found >= 1);
    // Every grid found is printed: ten rows each, separated by blank lines.
    let grids = text
        .split("\n\n")
        .filter(|g| g.lines().count() >= 10)
        .count();
    assert_eq!(grids, found);
    let e = stderr(&o);
    assert!(
        e.contains("lower bound") && e.contains(&format!("at least {found}")),
        "{e}"
    );

    // As JSON, and in batch mode: status `timeout` with the grids found, exit 4.
    for command in [&["--to", "json"][..], &["batch"][..]] {
        let count = ["--count", "100000000", "--time-limit", "1", arg(&path)];
        let o = run_within(&[command, &count].concat(), b"", Duration::from_secs(4));
        assert_eq!(o.status.code(), Some(4), "{command:?}: {}", stderr(&o));
        let v: Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(v["status"], "timeout");
        assert_eq!(v["complete"], false);
        let n = v["solutions"].as_u64().unwrap();
        assert!(n >= 1);
        assert_eq!(v["grids"].as_array().unwrap().len() as u64, n);
    }
}

/// A Rowan contest file of one data set: `hits` are (row, column) squares hit, everything else
/// untouched, with the five ships afloat.
fn rowan(hits: &[(usize, usize)]) -> String {
    let mut text = "1\n5\nA B D S P\n".to_string();
    for r in 0..10 {
        let row: Vec<&str> = (0..10)
            .map(|c| if hits.contains(&(r, c)) { "2" } else { "0" })
            .collect();
        text.push_str(&row.join(" "));
        text.push('\n');
    }
    text
}

fn posterior(args: &[&str], input: &[u8], watchdog: Duration) -> (Output, Value) {
    let mut all = vec!["advise", "--posterior", "--to", "json"];
    all.extend_from_slice(args);
    let o = run_within(&all, input, watchdog);
    let v = serde_json::from_slice(&o.stdout).unwrap_or(Value::Null);
    (o, v)
}

#[test]
fn the_posterior_of_every_rowan_sample_and_of_a_four_hit_board_comes_within_the_default_limit() {
    let mut inputs: Vec<Vec<u8>> = Vec::new();
    if let Some(dir) = shared("seeds/rowan-samples") {
        for n in 1..=3 {
            inputs.push(std::fs::read(dir.join(format!("sample{n}.txt"))).unwrap());
        }
    }
    // The project's own position (the README's advise examples) and four scattered hits.
    let own = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/advise/position.txt");
    inputs.push(std::fs::read(own).unwrap());
    inputs.push(rowan(&[(1, 1), (2, 7), (5, 4), (8, 1)]).into_bytes());
    for input in inputs {
        // The default limit is 4 s for the whole file; the watchdog only catches a runaway.
        let (o, v) = posterior(&[], &input, Duration::from_secs(8));
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        for set in v["data_sets"].as_array().unwrap() {
            match set["method"].as_str() {
                Some("exact") => assert!(set["configurations"].as_u64().unwrap() > 0),
                Some("sampled") => {
                    let samples = set["samples"].as_u64().unwrap();
                    assert!(samples > 0);
                    let stopped = set["stopped_by_time_limit"].as_bool().unwrap();
                    assert_eq!(stopped, samples < set["requested"].as_u64().unwrap());
                }
                other => panic!("method {other:?}"),
            }
        }
    }
}

#[test]
fn sampling_and_exact_counting_honour_an_explicit_limit() {
    let four = rowan(&[(1, 1), (2, 7), (5, 4), (8, 1)]);
    let args = [
        "--method",
        "sample",
        "--samples",
        "20000",
        "--time-limit",
        "1",
    ];
    let (o, v) = posterior(&args, four.as_bytes(), Duration::from_secs(4));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let set = &v["data_sets"][0];
    assert_eq!(set["method"], "sampled");
    assert_eq!(set["requested"], 20000);
    let samples = set["samples"].as_u64().unwrap();
    assert!((1..=20000).contains(&samples));
    // The text names the method and the numbers.
    let o = run_within(
        &[&["advise", "--posterior"][..], &args].concat(),
        four.as_bytes(),
        Duration::from_secs(4),
    );
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.contains("Method: uniform sampling, "), "{text}");
    // Exact counting that cannot finish exits 4 and says so.
    let args = ["--method", "exact", "--time-limit", "0.2"];
    let (o, _) = posterior(&args, four.as_bytes(), Duration::from_secs(4));
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    assert!(stderr(&o).contains("exact counting did not finish"));
}

#[test]
fn a_board_no_fleet_can_cover_answers_at_once() {
    // Every square hit: no ship has a placement left (this once looped over 2^36 subsets).
    let all: Vec<(usize, usize)> = (0..100).map(|i| (i / 10, i % 10)).collect();
    // Bad input (issue 51: `/api/advise` answers it 422): exit 2 at once, naming the line of the
    // data set, with no partial output.
    let (o, _) = posterior(&[], rowan(&all).as_bytes(), Duration::from_secs(4));
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(o.stdout.is_empty());
    let err = stderr(&o);
    assert!(
        err.contains("line 2: no arrangement") && err.lines().count() == 1,
        "{err}"
    );
}

#[test]
fn hint_and_grade_stop_at_their_limit() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/generated");
    // Hints on a 50x50 take about 2 s, the grade of a 30x30 over a minute (two-step look-ahead
    // over 900 cells).
    for (command, puzzle) in [("hint", "50x50/001.json"), ("grade", "30x30/001.json")] {
        let path = root.join(puzzle);
        let o = run_within(
            &[command, "--time-limit", "0.5", arg(&path)],
            b"",
            Duration::from_secs(4),
        );
        match o.status.code() {
            Some(0) => assert!(!o.stdout.is_empty()),
            Some(4) => assert!(
                stderr(&o).contains("time limit of 0.5 s reached") && o.stdout.is_empty(),
                "{}",
                stderr(&o)
            ),
            other => panic!("{command}: exit {other:?}: {}", stderr(&o)),
        }
    }
}

/// A run stopped by its limit keeps what it finished (issue 34): `generate --count` with far
/// more puzzles than the limit allows prints the puzzles it made, each whole, then exits 4; with
/// `--out` they are written to the folder.
#[test]
fn generate_stopped_by_its_limit_keeps_the_puzzles_it_made() {
    let o = run_within(
        &["generate", "--count", "1000000000", "--time-limit", "2"],
        b"",
        Duration::from_secs(5),
    );
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    let text = String::from_utf8(o.stdout.clone()).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(!lines.is_empty(), "no puzzle printed: {}", stderr(&o));
    for line in &lines {
        let json: Value = serde_json::from_str(line).unwrap();
        assert_eq!(json["rows"], 10, "{line}");
    }
    let made = lines.len();
    assert!(
        stderr(&o).contains(&format!(
            "time limit of 2 s reached after {made} of 1000000000 puzzles"
        )),
        "{}",
        stderr(&o)
    );
    // Into a folder: the files made are there.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("set");
    let o = run_within(
        &[
            "generate",
            "--count",
            "1000000000",
            "--time-limit",
            "1",
            "--out",
            arg(&out),
        ],
        b"",
        Duration::from_secs(4),
    );
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    let files = std::fs::read_dir(&out).unwrap().count();
    assert!(files >= 1, "{}", stderr(&o));
    assert!(
        stderr(&o).contains(&format!("after {files} of")),
        "{}",
        stderr(&o)
    );
    let first: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("0000000001.json")).unwrap())
            .unwrap();
    assert_eq!(first["cols"], 10);
}

/// Every reduction of `generate` reads the deadline (issue 34): on a 30x30 board each stops at
/// a two-second limit, with a puzzle (exit 0) or without (exit 4), never long after it.
#[test]
fn every_reduction_of_a_30x30_board_stops_at_a_two_second_limit() {
    for reduce in ["deduction", "unique", "propagation", "look-ahead"] {
        let o = run_within(
            &[
                "generate",
                "--size",
                "30x30",
                "--reduce",
                reduce,
                "--time-limit",
                "2",
            ],
            b"",
            Duration::from_secs(5),
        );
        match o.status.code() {
            Some(0) => assert!(!o.stdout.is_empty(), "{reduce}"),
            Some(4) => assert!(o.stdout.is_empty() && stderr(&o).contains("time limit")),
            other => panic!("{reduce}: exit {other:?}: {}", stderr(&o)),
        }
    }
}

/// A reduction by CNF deduction on a 100x100 board would need a formula of more than
/// `MAX_CLAUSES` clauses (gigabytes): it is refused at once with a message that says why and
/// which reduction builds no formula.
#[test]
fn propagation_on_a_100x100_board_is_refused_before_its_formula_passes_the_cap() {
    let o = run_within(
        &[
            "generate",
            "--size",
            "100x100",
            "--reduce",
            "propagation",
            "--time-limit",
            "10",
        ],
        b"",
        Duration::from_secs(13),
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(
        e.contains("too large for a reduction by CNF deduction")
            && e.contains("the `deduction` reduction builds no formula"),
        "{e}"
    );
    assert_eq!(e.lines().count(), 1, "{e}");
    assert!(o.stdout.is_empty());
}

/// The open 100x100 board with one ship of every length 1..100: the native search, then an
/// encoding of tens of millions of clauses that the limit must cut short.
#[test]
fn the_open_100x100_board_with_every_ship_length_stops_at_its_limit() {
    let dir = tempfile::tempdir().unwrap();
    let fleet: serde_json::Map<String, Value> = (1..=100)
        .map(|len| (len.to_string(), Value::from(1)))
        .collect();
    let text = serde_json::json!({
        "rows": 100, "cols": 100,
        "row_counts": vec![Value::Null; 100],
        "col_counts": vec![Value::Null; 100],
        "fleet": fleet,
    })
    .to_string();
    let path = file(&dir, "open100.json", &text);
    for limit in ["1", "5"] {
        let watchdog = Duration::from_secs(limit.parse::<u64>().unwrap() + 3);
        let o = run_within(&["--time-limit", limit, arg(&path)], b"", watchdog);
        match o.status.code() {
            Some(0) => assert!(!o.stdout.is_empty()),
            Some(4) => assert!(o.stdout.is_empty() && stderr(&o).contains("time limit")),
            other => panic!("--time-limit {limit}: exit {other:?}: {}", stderr(&o)),
        }
    }
}

/// `check-proof`'s limit counts from the start and covers reading the proof: a valid proof
/// padded with 100 MB of lemmas (each a copy of a clause, then deleted) stops at one second.
#[test]
fn check_proof_stops_at_its_limit_on_a_huge_proof() {
    let dir = tempfile::tempdir().unwrap();
    let puzzle = file(&dir, "p.txt", EXAMPLE);
    let proof = dir.path().join("p.drat");
    let o = run(&["--unique", "--proof", arg(&proof), arg(&puzzle)], b"");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let cnf = std::fs::read_to_string(dir.path().join("p.drat.cnf")).unwrap();
    let clause = cnf
        .lines()
        .find(|l| !l.starts_with(['c', 'p']) && l.split(' ').count() == 3)
        .unwrap()
        .to_string();
    let pad = format!("{clause}\nd {clause}\n");
    let mut big = pad.repeat(100_000_000 / pad.len()).into_bytes();
    big.extend(std::fs::read(&proof).unwrap());
    let huge = dir.path().join("huge.drat");
    std::fs::write(&huge, big).unwrap();
    std::fs::write(dir.path().join("huge.drat.cnf"), cnf).unwrap();
    let o = run_within(
        &["check-proof", "--time-limit", "1", arg(&puzzle), arg(&huge)],
        b"",
        Duration::from_secs(4),
    );
    match o.status.code() {
        Some(0) => assert!(String::from_utf8_lossy(&o.stdout).starts_with("certified")),
        Some(4) => assert!(stderr(&o).contains("time limit of 1 s reached while checking")),
        other => panic!("exit {other:?}: {}", stderr(&o)),
    }
}

/// `compare --repeat` with a billion repeats: the limit covers the whole comparison, every
/// configuration and all its repeats, and the table says how many ran.
#[test]
fn compare_repeats_stop_at_the_commands_limit() {
    let dir = tempfile::tempdir().unwrap();
    let puzzle = file(&dir, "p.txt", EXAMPLE);
    let one = ["--backend", "sat", "--encoding", "cell", "--card", "seq"];
    // One configuration, then all of them (14 with CaDiCaL linked): before, the limit was per
    // run, and the second took 14 s. `run_within` kills the process after 4 s.
    for selection in [&one[..], &[]] {
        let mut args = vec!["compare", "--repeat", "1000000000", "--time-limit", "1"];
        args.extend_from_slice(selection);
        args.push(arg(&puzzle));
        let o = run_within(&args, b"", Duration::from_secs(4));
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(
            out.contains("(of 1000000000 asked: the time limit came first)"),
            "{out}"
        );
        assert!(out.contains("all configurations agree"), "{out}");
    }
}
