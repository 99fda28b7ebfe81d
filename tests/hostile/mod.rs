//! Hostile and oversized input (issue 14): each reproducer of the issue is a test. No panic (101),
//! abort (134) or signal; a size over a limit is one clear line and exit 2; a board the limits
//! allow finishes. The small reproducers are files in `tests/hostile/corpus/` (the regression
//! corpus, which `fuzz` also runs through every reader); the large ones are made here.

mod defects;

use crate::common::{bin, files, run};
use std::path::{Path, PathBuf};
use std::process::Output;

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hostile/corpus")
}

fn s(p: &Path) -> &str {
    p.to_str().expect("UTF-8 path")
}

/// The run ended by itself (no signal, no panic) with `code`, and said one line on stderr
/// containing every needle; nothing on stdout when it refused.
fn assert_exit(out: &Output, code: i32, needles: &[&str]) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "stderr: {stderr}");
    for needle in needles {
        assert!(stderr.contains(needle), "{needle:?} not in {stderr:?}");
    }
    if code == 2 {
        assert_eq!(stderr.lines().count(), 1, "one line: {stderr}");
        assert!(out.stdout.is_empty(), "no partial output");
    }
}

/// A JSON puzzle with the given size, counts (`null` when `None`) and fleet.
fn json_board(
    rows: usize,
    cols: usize,
    counts: Option<(&[usize], &[usize])>,
    fleet: &str,
) -> String {
    let list = |n: usize, given: Option<&[usize]>| -> String {
        let items: Vec<String> = (0..n)
            .map(|i| given.map_or("null".to_string(), |g| g[i].to_string()))
            .collect();
        format!("[{}]", items.join(","))
    };
    format!(
        "{{\"rows\": {rows}, \"cols\": {cols}, \"row_counts\": {}, \"col_counts\": {}, \"fleet\": {fleet}}}\n",
        list(rows, counts.map(|c| c.0)),
        list(cols, counts.map(|c| c.1)),
    )
}

#[test]
fn fleet_lengths_and_counts_over_the_limits_are_refused_by_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("x.svg");
    for name in [
        "fleet-len-9223372036854775808.json",
        "fleet-len-4294967296.json",
        "fleet-len-1000000000000000000.json",
    ] {
        let path = corpus().join(name);
        let len = name
            .trim_start_matches("fleet-len-")
            .trim_end_matches(".json");
        let needle = format!("a ship of length {len} is over the limit of 1000");
        for args in [
            vec![s(&path)],
            vec!["convert", "--to", "json", s(&path)],
            vec!["render", "--svg", s(&svg), s(&path)],
            vec!["hint", s(&path)],
            vec!["grade", s(&path)],
            vec!["batch", s(&path)],
        ] {
            let out = run(&args, b"");
            if args[0] == "batch" {
                // Batch goes on after a bad file and reports it in its JSON line.
                assert_eq!(out.status.code(), Some(2), "{args:?}");
                assert!(String::from_utf8_lossy(&out.stdout).contains(&needle));
            } else {
                assert_exit(&out, 2, &[name, "line 1", &needle]);
            }
        }
        assert!(!svg.exists(), "render wrote nothing");
    }
    let ships = corpus().join("fleet-count-2e63.json");
    assert_exit(
        &run(&[s(&ships)], b""),
        2,
        &["the fleet has 9223372036854775808 ships, over the limit of 100000"],
    );
}

#[test]
fn decode_refuses_answers_naming_huge_variables_at_once() {
    let puzzle = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/ist-example.txt");
    for (name, var) in [
        ("answer-var-i64-max.txt", "9223372036854775807"),
        ("answer-var-i64-min.txt", "9223372036854775808"),
        ("answer-var-u32-max.txt", "4294967295"),
    ] {
        let answer = corpus().join(name);
        let out = run(&["decode", s(&puzzle), s(&answer)], b"");
        assert_exit(
            &out,
            2,
            &[
                name,
                &format!("the model names variable {var}, but this puzzle's formula has only"),
            ],
        );
    }
}

#[test]
fn boards_over_the_cell_limit_are_refused_before_they_are_read_whole() {
    let dir = tempfile::tempdir().unwrap();
    // 100000 x 100000 with one ship, and 3000 x 3000: refused on the size, naming the flag.
    let huge = dir.path().join("huge.json");
    std::fs::write(&huge, json_board(100_000, 100_000, None, "{\"1\": 1}")).unwrap();
    let big = dir.path().join("big.json");
    std::fs::write(&big, json_board(3000, 3000, None, "{\"1\": 1}")).unwrap();
    for (path, cells) in [(&huge, "10000000000"), (&big, "9000000")] {
        for args in [
            vec![s(path)],
            vec!["--time-limit", "2", s(path)],
            vec!["hint", s(path)],
        ] {
            assert_exit(
                &run(&args, b""),
                2,
                &[
                    &format!(
                        "the board has {cells} cells (rows x columns), over the limit of 1000000"
                    ),
                    "--max-cells",
                ],
            );
        }
    }
    // 1000 x 1000 without counts and the standard fleet: within the cell limit, but its
    // 6,988,000 placements and their counters would need over 12 GB in the SAT solver. So would
    // 20,000 submarines on 300 x 300 (their counter alone).
    let open = dir.path().join("open.json");
    std::fs::write(
        &open,
        json_board(1000, 1000, None, "{\"4\": 1, \"3\": 2, \"2\": 3, \"1\": 4}"),
    )
    .unwrap();
    assert_exit(
        &run(&[s(&open)], b""),
        2,
        &[
            "the puzzle's model would have about 30956000 variables (cells, placements and counters), over the limit of 8000000",
            "--max-model-size",
        ],
    );
    let subs = dir.path().join("subs.json");
    std::fs::write(&subs, json_board(300, 300, None, "{\"1\": 20000}")).unwrap();
    for args in [
        vec![s(&subs)],
        vec!["hint", s(&subs)],
        vec!["--backend", "ilp", s(&subs)],
    ] {
        assert_exit(&run(&args, b""), 2, &["about 1800270000 variables"]);
    }
    // The generator's flags are held to the same limits.
    assert_exit(
        &run(&["generate", "--size", "100000x100000"], b""),
        2,
        &["--size: the board has 10000000000 cells"],
    );
    assert_exit(
        &run(&["generate", "--fleet", "99999999999999x1"], b""),
        2,
        &["--fleet: the fleet has 99999999999999 ships, over the limit of 100000"],
    );
    // A CSC384 board of 1001 x 1001 is refused on its first line.
    let csc = dir.path().join("wide.txt");
    std::fs::write(&csc, format!("{}\n", "0".repeat(1001))).unwrap();
    assert_exit(
        &run(&["--format", "csc384", s(&csc)], b""),
        2,
        &["line 1: the board has 1002001 cells"],
    );
    // The same through standard input, and in a puzz.link URL.
    assert_exit(
        &run(
            &["-"],
            json_board(1, 2_000_000, None, "{\"1\": 1}").as_bytes(),
        ),
        2,
        &[
            "<stdin>",
            "the board has 2000000 rows or columns, over the limit of 1000000",
        ],
    );
    assert_exit(
        &run(&["https://puzz.link/p?battleship/100000/100000/z"], b""),
        2,
        &["the board has 10000000000 cells"],
    );
}

#[test]
fn max_cells_moves_the_limit_both_ways() {
    let text = json_board(20, 20, None, "{\"2\": 1}");
    assert_exit(
        &run(&["--max-cells", "399", "-"], text.as_bytes()),
        2,
        &["the board has 400 cells (rows x columns), over the limit of 399"],
    );
    let out = run(
        &["--max-cells", "400", "--to", "pretty", "-"],
        text.as_bytes(),
    );
    assert_exit(&out, 0, &[]);
    // The flag is global: it works after a command too.
    assert_exit(
        &run(
            &["convert", "--to", "json", "--max-cells", "10", "-"],
            text.as_bytes(),
        ),
        2,
        &["over the limit of 10"],
    );
}

/// Any board the limits allow finishes: the largest of each shape, with a small fleet.
#[test]
fn boards_at_the_limit_finish() {
    let dir = tempfile::tempdir().unwrap();
    // 1 x 1,000,000 with one submarine, counts given: solved, one row of a million cells.
    let n = 1_000_000;
    let mut cols = vec![0; n];
    cols[n / 2] = 1;
    let line = dir.path().join("line.json");
    std::fs::write(&line, json_board(1, n, Some((&[1], &cols)), "{\"1\": 1}")).unwrap();
    let out = run(&["--to", "ist", s(&line)], b"");
    // IST cannot draw it; the JSON result can.
    assert_exit(&out, 2, &["the ist format cannot express this puzzle"]);
    let out = run(&[s(&line)], b"");
    assert_exit(&out, 0, &[]);
    let result: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON result");
    let grid = result["grid"].as_array().expect("a grid");
    assert_eq!(grid.len(), 1);
    let row = grid[0].as_str().unwrap();
    assert_eq!(row.len(), n);
    assert_eq!(
        row.find('c'),
        Some(n / 2),
        "the submarine where the counts put it"
    );

    // 1000 x 1000 in CSC384: every count 0 and one submarine, so no solution (exit 1).
    let side = 1000;
    let zeros = "0".repeat(side);
    let mut text = format!("{zeros}\n{zeros}\n1\n");
    for _ in 0..side {
        text.push_str(&zeros);
        text.push('\n');
    }
    let csc = dir.path().join("square.txt");
    std::fs::write(&csc, text).unwrap();
    assert_exit(
        &run(&["--format", "csc384", s(&csc)], b""),
        1,
        &["no solution"],
    );

    // 1000 x 1000 with the standard fleet and counts: solved.
    let mut rows = vec![0; side];
    let mut cols = vec![0; side];
    let ships = [
        (4, 10, 10, true),
        (3, 100, 100, false),
        (3, 300, 700, true),
        (2, 500, 20, true),
        (2, 600, 600, false),
        (2, 900, 990, true),
        (1, 0, 0, true),
        (1, 999, 999, true),
        (1, 0, 999, true),
        (1, 999, 0, true),
    ];
    for &(len, r, c, across) in &ships {
        for i in 0..len {
            let (r, c) = if across { (r, c + i) } else { (r + i, c) };
            rows[r] += 1;
            cols[c] += 1;
        }
    }
    let square = dir.path().join("square.json");
    std::fs::write(
        &square,
        json_board(
            side,
            side,
            Some((&rows, &cols)),
            "{\"4\": 1, \"3\": 2, \"2\": 3, \"1\": 4}",
        ),
    )
    .unwrap();
    let out = bin().arg(s(&square)).output().unwrap();
    assert_exit(&out, 0, &[]);
    let result: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON result");
    assert_eq!(result["status"], "found");
    let cells: usize = result["grid"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap().chars().filter(|&c| c != '.').count())
        .sum();
    assert_eq!(cells, 20, "the fleet's twenty ship cells");
}

/// Every file of the regression corpus goes through every command that reads a puzzle: none
/// panics, aborts or dies on a signal.
#[test]
fn the_regression_corpus_never_crashes_a_command() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("x.svg");
    let puzzle = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/ist-example.txt");
    for file in files(&corpus(), "") {
        let f = s(&file);
        for args in [
            vec![f],
            vec!["convert", "--to", "json", f],
            vec!["render", "--svg", s(&svg), f],
            vec!["hint", f],
            vec!["grade", f],
            vec!["decode", s(&puzzle), f],
            vec!["advise", f],
        ] {
            let out = run(&args, b"");
            let code = out.status.code();
            assert!(
                matches!(code, Some(0..=4)),
                "{args:?} ended with {:?}: {}",
                out.status,
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
}

/// Files of many boards are held to the number of boards and to their cells together, before
/// each board is built.
#[test]
fn files_of_many_boards_are_bounded() {
    use bimaru_sat::Limits;
    use bimaru_sat::format::{self, Format};
    // Eleven 1000 x 1000 boards in JSON Lines: 11,000,000 cells together.
    let board = json_board(1000, 1000, None, "{\"1\": 1}").replace('\n', "");
    let lines = format!("{board}\n").repeat(11);
    let out = run(&["batch", "-"], lines.as_bytes());
    assert_eq!(out.status.code(), Some(2));
    let out = run(&["convert", "--to", "json", "-"], lines.as_bytes());
    assert_exit(
        &out,
        2,
        &[
            "line 11: the boards of the file have 11000000 cells together, over the limit of 10000000",
        ],
    );
    // Rubin: boards counted at their START-NEW-BOARD line.
    let rubin = "START-NEW-BOARD 2 2\nRow tallies: 1 0\nColumn tallies: 1 0\n=====\n".repeat(3);
    let limits = Limits::default().with_max_boards(2);
    let err = format::parse_document(&rubin, Format::Rubin, &limits).unwrap_err();
    assert_eq!(err.line, 9, "{err}");
    assert!(err.to_string().contains("more than 2 boards"), "{err}");
    assert!(format::parse_document(&rubin, Format::Rubin, &Limits::default()).is_ok());
    // Input bytes: standard input over the limit is refused before it is read whole.
    let small = Limits::default().with_max_input_bytes(10);
    let err = bimaru_sat::usecase::Source::read_from("<stdin>", &b"0123456789abc"[..], &small)
        .unwrap_err();
    assert!(
        err.to_string().contains("over the limit of 10 bytes"),
        "{err}"
    );
}
