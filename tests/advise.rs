//! The shot advisor through the binary: the Rowan 2013 samples, malformed contest input, the
//! posterior on the empty board, and reproducible self-play.

use crate::common::{read, run, shared};
use serde_json::Value;

/// Contest input: one data set with `letters` afloat and `rows` as the board.
fn data_set(letters: &str, rows: &[&str]) -> String {
    let n = letters.split_whitespace().count();
    let mut s = format!("1\n{n}\n{letters}\n");
    for r in rows {
        s.push_str(r);
        s.push('\n');
    }
    s
}

fn empty_board(letters: &str) -> String {
    data_set(letters, &["0 0 0 0 0 0 0 0 0 0"; 10])
}

fn stdout(out: &std::process::Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("utf-8 output")
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8(out.stderr.clone()).expect("utf-8 errors")
}

#[cfg_attr(
    no_shared,
    ignore = "needs ../shared, missing when this test was built"
)]
#[test]
fn samples_give_the_expected_output() {
    let Some(dir) = shared("seeds/rowan-samples") else {
        return;
    };
    for n in 1..=3 {
        let input = dir.join(format!("sample{n}.txt"));
        let expected = String::from_utf8(read(&dir.join(format!("sample{n}.expected")))).unwrap();
        // From a file and from standard input alike.
        let from_file = run(&["advise", input.to_str().unwrap()], b"");
        assert_eq!(from_file.status.code(), Some(0), "{}", stderr(&from_file));
        assert_eq!(stdout(&from_file), expected, "sample {n}");
        let from_stdin = run(&["advise"], &read(&input));
        assert_eq!(stdout(&from_stdin), expected, "sample {n} on stdin");
    }
}

#[cfg_attr(
    no_shared,
    ignore = "needs ../shared, missing when this test was built"
)]
#[test]
fn packed_rows_read_like_spaced_rows() {
    let Some(dir) = shared("seeds/rowan-samples") else {
        return;
    };
    let text = String::from_utf8(read(&dir.join("sample2.txt"))).unwrap();
    // The contest's PDF writes some rows and letter lines without spaces.
    let packed: String = text
        .lines()
        .map(|l| {
            if l.len() == 19 || l.contains('A') {
                l.replace(' ', "")
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    assert_ne!(packed, text);
    let a = run(&["advise"], text.as_bytes());
    let b = run(&["advise"], packed.as_bytes());
    assert_eq!(b.status.code(), Some(0), "{}", stderr(&b));
    assert_eq!(stdout(&a), stdout(&b));
}

/// Bad input: exit 2, one line on stderr naming the input and the line, nothing on stdout.
fn assert_rejected(input: &str, line: usize, what: &str) {
    let out = run(&["advise"], input.as_bytes());
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{what}: {err}");
    assert!(out.stdout.is_empty(), "{what}: partial output");
    assert!(!err.contains("panicked"), "{what}: {err}");
    assert_eq!(err.lines().count(), 1, "{what}: {err}");
    assert!(
        err.contains("<stdin>") && err.contains(&format!("line {line}")),
        "{what}: {err}"
    );
}

#[test]
fn malformed_contest_input_is_rejected_with_its_line() {
    let good = empty_board("A B D S P");
    let mut short_row: Vec<&str> = vec!["0 0 0 0 0 0 0 0 0 0"; 10];
    short_row[4] = "0 0 0 0 0 0 0 0 0";
    assert_rejected(&data_set("A B D S P", &short_row), 8, "a row of 9 squares");
    let mut long_row = short_row.clone();
    long_row[4] = "00000000000";
    assert_rejected(&data_set("A B D S P", &long_row), 8, "a row of 11 squares");
    let mut bad_digit = short_row.clone();
    bad_digit[4] = "0 0 0 0 7 0 0 0 0 0";
    assert_rejected(&data_set("A B D S P", &bad_digit), 8, "a square marked 7");
    assert_rejected(&good.replace("A B D S P", "A B C S P"), 3, "unknown ship C");
    assert_rejected(
        &good.replace("A B D S P", "A B D S"),
        3,
        "4 letters for 5 ships",
    );
    assert_rejected(&good.replace("A B D S P", "A B D S S"), 3, "a ship twice");
    assert_rejected(
        &good.replacen('1', "2", 1),
        1,
        "2 data sets announced, 1 given",
    );
    assert_rejected(&format!("{good}5\n"), 14, "more data than announced");
    assert_rejected(
        &good.replacen("\n5\n", "\nfive\n", 1),
        2,
        "a ship count in words",
    );
    assert_rejected(&good.replacen("\n5\n", "\n6\n", 1), 2, "six ships");
    let truncated: String = good.lines().take(8).collect::<Vec<_>>().join("\n");
    assert_rejected(&truncated, 8, "a board cut short");
}

fn posterior_json(args: &[&str], input: &str) -> Value {
    let mut all = vec!["advise", "--posterior", "--to", "json"];
    all.extend_from_slice(args);
    let out = run(&all, input.as_bytes());
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v: Value = serde_json::from_str(&stdout(&out)).expect("JSON");
    v["data_sets"][0].clone()
}

/// Probability of the square at `name` (column letter, row number).
fn prob(set: &Value, name: &str) -> f64 {
    let col = (name.as_bytes()[0] - b'A') as usize;
    let row: usize = name[1..].parse::<usize>().unwrap() - 1;
    set["probabilities"][row][col].as_f64().unwrap()
}

fn total(set: &Value) -> f64 {
    set["probabilities"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r.as_array().unwrap().iter().map(|v| v.as_f64().unwrap()))
        .sum()
}

#[test]
fn exact_posterior_of_the_empty_board() {
    let set = posterior_json(
        &["--method", "exact", "--time-limit", "600"],
        &empty_board("A B D S P"),
    );
    assert_eq!(set["method"], "exact");
    for sq in ["E5", "E6", "F5", "F6"] {
        assert_eq!(format!("{:.4}", prob(&set, sq)), "0.2136", "{sq}");
    }
    assert!((total(&set) - 17.0).abs() < 1e-9, "{}", total(&set));
    let best: Vec<&str> = set["best"]["squares"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(best, ["E5", "F5", "E6", "F6"]);
}

#[test]
fn exact_posterior_without_touching_peaks_at_the_edge_midpoints() {
    let set = posterior_json(
        &["--method", "exact", "--no-touch", "--time-limit", "600"],
        &empty_board("A B D S P"),
    );
    let best: Vec<&str> = set["best"]["squares"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(best, ["E1", "F1", "A5", "J5", "A6", "J6", "E10", "F10"]);
    assert_eq!(
        format!("{:.4}", set["best"]["probability"].as_f64().unwrap()),
        "0.2052"
    );
    assert!((total(&set) - 17.0).abs() < 1e-9);
}

#[test]
fn sampled_posterior_of_the_empty_board() {
    let args = [
        "--method",
        "sample",
        "--samples",
        "400000",
        "--seed",
        "11",
        "--time-limit",
        "600",
    ];
    let set = posterior_json(&args, &empty_board("A B D S P"));
    assert_eq!(set["method"], "sampled");
    for sq in ["E5", "E6", "F5", "F6"] {
        let p = prob(&set, sq);
        assert!((p - 0.2136).abs() <= 0.003, "{sq}: {p}");
    }
    assert!((total(&set) - 17.0).abs() < 1e-9);
    // The same seed gives the same numbers.
    assert_eq!(posterior_json(&args, &empty_board("A B D S P")), set);
}

#[cfg_attr(
    no_shared,
    ignore = "needs ../shared, missing when this test was built"
)]
#[test]
fn exact_and_sampled_posteriors_agree_mid_game() {
    let Some(dir) = shared("seeds/rowan-samples") else {
        return;
    };
    // Section 1.3's board: three hits in a column with a miss at both ends.
    let text = String::from_utf8(read(&dir.join("sample3.txt"))).unwrap();
    let first: String = text
        .lines()
        .skip(1)
        .take(12)
        .fold("1\n".into(), |a, l| a + l + "\n");
    // Explicit limits: the default of 4 s would cut both short on a loaded machine.
    let exact = posterior_json(&["--method", "exact", "--time-limit", "600"], &first);
    let sampled = posterior_json(
        &[
            "--method",
            "sample",
            "--samples",
            "20000",
            "--seed",
            "3",
            "--time-limit",
            "600",
        ],
        &first,
    );
    assert_eq!(sampled["stopped_by_time_limit"], false);
    for r in 0..10 {
        for c in 0..10 {
            let e = exact["probabilities"][r][c].as_f64().unwrap();
            let s = sampled["probabilities"][r][c].as_f64().unwrap();
            assert!((e - s).abs() < 0.01, "row {r} col {c}: {e} vs {s}");
        }
    }
    // Every hit holds a ship for certain, every miss for certain not.
    assert!((prob(&exact, "D6") - 1.0).abs() < 1e-12);
    assert_eq!(prob(&exact, "D4"), 0.0);
}

fn simulate(args: &[&str]) -> Value {
    let mut all = vec!["simulate", "--to", "json"];
    all.extend_from_slice(args);
    let out = run(&all, b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // Nothing on stderr: no progress bar when stderr is not a terminal.
    assert!(out.stderr.is_empty(), "{}", stderr(&out));
    let mut v: Value = serde_json::from_str(&stdout(&out)).expect("JSON");
    for timing in ["seconds", "games_per_second", "threads"] {
        v.as_object_mut().unwrap().remove(timing);
    }
    v
}

#[test]
fn simulation_is_reproducible_and_sane() {
    for strategy in ["rowan", "density", "posterior", "tuned"] {
        let args = ["--strategy", strategy, "--games", "300", "--seed", "5"];
        let a = simulate(&args);
        assert_eq!(a, simulate(&args), "{strategy}: same seed, same report");
        let mean = a["mean"].as_f64().unwrap();
        assert!(a["min"].as_u64().unwrap() >= 17, "{strategy}: {a}");
        assert!(a["max"].as_u64().unwrap() <= 100, "{strategy}: {a}");
        // Far better than random shooting (about 96 shots), far worse than perfect (17).
        assert!((30.0..60.0).contains(&mean), "{strategy}: {a}");
        assert_eq!(a["games"], 300);
    }
    let other = simulate(&["--strategy", "rowan", "--games", "300", "--seed", "6"]);
    let base = simulate(&["--strategy", "rowan", "--games", "300", "--seed", "5"]);
    assert_ne!(
        other["mean"], base["mean"],
        "a different seed plays different games"
    );
}

#[test]
fn sunk_squares_that_cannot_hold_the_ships_no_longer_afloat_are_rejected() {
    let mut rows = vec!["0 0 0 0 0 0 0 0 0 0"; 10];
    rows[0] = "3 0 0 0 0 0 0 0 0 0";
    // One square marked sunk, and the PT boat (two squares) sunk: exit 2, with or without
    // --posterior, naming the line of the ships afloat and the problem.
    let one = data_set("A B D S", &rows);
    assert_rejected(&one, 3, "one sunk square for a sunk PT boat");
    let out = run(&["advise"], one.as_bytes());
    assert!(
        stderr(&out).contains(
            "line 3: the squares marked sunk (3) cannot hold the ships no longer afloat \
             (P: 2 squares, each ship in a straight line); 1 marked"
        ),
        "{}",
        stderr(&out)
    );
    let posterior = run(&["advise", "--posterior"], one.as_bytes());
    assert_eq!(posterior.status.code(), Some(2), "{}", stderr(&posterior));
    assert!(posterior.stdout.is_empty());
    // A square marked sunk with every ship afloat.
    assert_rejected(
        &data_set("A B D S P", &rows),
        3,
        "a sunk square, no ship sunk",
    );
    // The PT boat's two squares in a line: a position like any other.
    rows[1] = "3 0 0 0 0 0 0 0 0 0";
    let two = run(&["advise"], data_set("A B D S", &rows).as_bytes());
    assert_eq!(two.status.code(), Some(0), "{}", stderr(&two));
    assert!(stdout(&two).contains("Best Move Value: "));
}

#[test]
fn boards_no_arrangement_fits_are_rejected_as_the_api_rejects_them() {
    // Eighteen hits for five ships of seventeen squares in all; and a hit walled in by misses
    // where no ship of length 1 is afloat.
    let mut rows = vec!["0 0 0 0 0 0 0 0 0 0"; 10];
    rows[0] = "2 2 2 2 2 2 2 2 2 2";
    rows[1] = "2 2 2 2 2 2 2 2 0 0";
    let many = data_set("A B D S P", &rows);
    let mut rows = vec!["0 0 0 0 0 0 0 0 0 0"; 10];
    rows[0] = "2 1 0 0 0 0 0 0 0 0";
    rows[1] = "1 0 0 0 0 0 0 0 0 0";
    let walled = data_set("A B D S P", &rows);
    for (input, what) in [(&many, "18 hits"), (&walled, "a walled-in hit")] {
        assert_rejected(input, 2, what);
        let out = run(&["advise"], input.as_bytes());
        assert!(
            stderr(&out).contains("no arrangement of the ships afloat"),
            "{what}"
        );
        for flags in [
            &["advise", "--posterior"][..],
            &["advise", "--salvo", "3"][..],
        ] {
            let out = run(flags, input.as_bytes());
            assert_eq!(
                out.status.code(),
                Some(2),
                "{what} {flags:?}: {}",
                stderr(&out)
            );
            assert!(out.stdout.is_empty(), "{what} {flags:?}: partial output");
        }
    }
    // With the hit opened up (no miss below it), a ship fits again: a position like any other.
    let mut rows = vec!["0 0 0 0 0 0 0 0 0 0"; 10];
    rows[0] = "2 1 0 0 0 0 0 0 0 0";
    let open = run(&["advise"], data_set("A B D S P", &rows).as_bytes());
    assert_eq!(open.status.code(), Some(0), "{}", stderr(&open));
}

#[test]
fn simulate_salvo_counts_turns_reproducibly_for_every_level() {
    for strategy in ["beginner", "hunter", "density", "tuned"] {
        let args = ["--strategy", strategy, "--games", "200", "--seed", "5"];
        let shots = simulate(&args);
        let salvo = [&args[..], &["--salvo", "5"]].concat();
        let turns = simulate(&salvo);
        assert_eq!(
            turns,
            simulate(&salvo),
            "{strategy}: same seed, same report"
        );
        // `--salvo` alone fires five a turn.
        assert_eq!(turns, simulate(&[&args[..], &["--salvo"]].concat()));
        assert_eq!(turns["salvo"], 5, "{turns}");
        assert!(shots.get("salvo").is_none(), "{shots}");
        let (t, s) = (
            turns["mean"].as_f64().unwrap(),
            shots["mean"].as_f64().unwrap(),
        );
        // Seventeen ship squares take four salvos at least, and fewer turns than shots.
        assert!(turns["min"].as_u64().unwrap() >= 4, "{strategy}: {turns}");
        assert!(t < s && t * 5.0 >= s, "{strategy}: {t} turns, {s} shots");
    }
    let out = run(&["simulate", "--salvo", "3", "--games", "50"], b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("salvo: 3 shots a turn\nmean turns: "),
        "{text}"
    );
    for bad in ["0", "11", "five"] {
        let out = run(&["simulate", "--salvo", bad, "--games", "5"], b"");
        assert_eq!(
            out.status.code(),
            Some(2),
            "--salvo {bad}: {}",
            stderr(&out)
        );
    }
}

#[test]
fn advise_salvo_names_k_squares_and_exits_2_on_a_bad_k() {
    let input = empty_board("A B D S P");
    let one = run(&["advise", "--to", "json"], input.as_bytes());
    let best: Value = serde_json::from_str(&stdout(&one)).expect("JSON");
    let out = run(&["advise", "--salvo", "5"], input.as_bytes());
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let line = text
        .lines()
        .find_map(|l| l.strip_prefix("Salvo: "))
        .expect("a salvo line");
    let squares: Vec<&str> = line.split(", ").collect();
    assert_eq!(squares.len(), 5, "{text}");
    // The first is the contest rule's first best square; the five are distinct.
    assert_eq!(squares[0], best["data_sets"][0]["squares"][0], "{text}");
    let mut distinct = squares.clone();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(distinct.len(), 5, "{text}");
    let json = run(
        &["advise", "--salvo", "5", "--to", "json"],
        input.as_bytes(),
    );
    let v: Value = serde_json::from_str(&stdout(&json)).expect("JSON");
    assert_eq!(v["data_sets"][0]["salvo"], serde_json::json!(squares));
    // The PT boat afloat and three squares left untouched (H10 to J10), the other ships sunk
    // along rows 1 and 2: a salvo of three is fine, one of four bad input.
    let mut rows = vec!["1 1 1 1 1 1 1 1 1 1"; 10];
    rows[0] = "3 3 3 3 3 3 3 3 3 1";
    rows[1] = "3 3 3 3 3 3 1 1 1 1";
    rows[9] = "1 1 1 1 1 1 1 0 0 0";
    let late = data_set("P", &rows);
    let ok = run(&["advise", "--salvo", "3"], late.as_bytes());
    assert_eq!(ok.status.code(), Some(0), "{}", stderr(&ok));
    assert!(
        stdout(&ok).contains("Salvo: I10, H10, J10"),
        "{}",
        stdout(&ok)
    );
    let over = run(&["advise", "--salvo", "4"], late.as_bytes());
    assert_eq!(over.status.code(), Some(2), "{}", stderr(&over));
    assert!(
        stderr(&over).contains("data set 1: salvo: 4 shots asked for, but only 3 squares"),
        "{}",
        stderr(&over)
    );
    assert!(over.stdout.is_empty());
    for bad in ["0", "11"] {
        let out = run(&["advise", "--salvo", bad], input.as_bytes());
        assert_eq!(
            out.status.code(),
            Some(2),
            "--salvo {bad}: {}",
            stderr(&out)
        );
    }
    let both = run(&["advise", "--salvo", "2", "--posterior"], input.as_bytes());
    assert_eq!(both.status.code(), Some(2), "{}", stderr(&both));
}
