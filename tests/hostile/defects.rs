//! The small defects and unbounded commands of issue 26, each with a test: a byte-order mark,
//! JSON messages cut mid-word, a duplicate clue "first on line 0", a 300-digit time limit, a
//! folder refusal that contradicted itself, `simulate` with a trillion games or a time limit,
//! and `check-proof` reading a proof without a size cap.

use super::assert_exit;
use crate::common::{bin, run};
use std::path::Path;
use std::time::{Duration, Instant};

fn example() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/ist-example.txt"))
        .unwrap()
}

#[test]
fn a_byte_order_mark_is_read_as_notepad_means_it() {
    let with_bom = format!("\u{feff}{}", example());
    let plain = run(&[], example().as_bytes());
    let out = run(&[], with_bom.as_bytes());
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(out.stdout, plain.stdout);
    // Every format goes through the same reader: JSON with a mark too.
    let json = run(&["convert", "--to", "json", "-"], example().as_bytes());
    let mut marked = "\u{feff}".as_bytes().to_vec();
    marked.extend_from_slice(&json.stdout);
    let out = run(&["--unique", "-"], &marked);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_json_error_is_said_whole() {
    let out = run(&["--format", "json", "-"], br#"{"rowz": 10}"#);
    assert_exit(
        &out,
        2,
        &[
            "unknown field `rowz`, expected one of `rows`, `cols`, `row_counts`, `col_counts`, `fleet`, `clues`, `solution`",
        ],
    );
    assert!(!String::from_utf8_lossy(&out.stderr).contains('…'));
}

#[test]
fn a_duplicate_json_clue_names_both_entries() {
    let text = r#"{"rows":3,"cols":3,"row_counts":[1,0,0],"col_counts":[1,0,0],"fleet":{"1":1},
"clues":[{"row":0,"col":0,"piece":"submarine"},{"row":2,"col":2,"piece":"water"},{"row":0,"col":0,"piece":"submarine"}]}"#;
    let out = run(&["-"], text.as_bytes());
    assert_exit(&out, 2, &["is given twice (clues 1 and 3 of the list"]);
    assert!(!String::from_utf8_lossy(&out.stderr).contains("line 0"));
}

#[test]
fn a_tiny_time_limit_is_printed_short() {
    let out = run(&["--time-limit", "1e-300", "-"], example().as_bytes());
    assert_exit(&out, 4, &["time limit of 1e-300 s reached"]);
    assert!(String::from_utf8_lossy(&out.stderr).len() < 200);
}

#[test]
fn a_file_where_a_folder_is_wanted_is_called_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("taken");
    std::fs::write(&file, "keep").unwrap();
    let out = run(
        &[
            "generate",
            "--size",
            "6x6",
            "--seed",
            "1",
            "--out",
            file.to_str().unwrap(),
        ],
        b"",
    );
    assert_exit(&out, 2, &["is a regular file, not a directory"]);
    assert!(!String::from_utf8_lossy(&out.stderr).contains("not a regular file"));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "keep");
}

#[test]
fn simulate_refuses_a_trillion_games_and_stops_at_its_time_limit() {
    let out = run(&["simulate", "--games", "1000000000000"], b"");
    assert_exit(&out, 2, &["--games", "at most 1000000000 games"]);
    let start = Instant::now();
    let out = run(
        &["simulate", "--games", "1000000000", "--time-limit", "1"],
        b"",
    );
    let took = start.elapsed();
    assert_exit(
        &out,
        4,
        &["time limit of 1 s reached after", "of 1000000000 games"],
    );
    assert!(out.stdout.is_empty());
    assert!(took < Duration::from_secs(10), "{took:?}");
}

#[test]
fn check_proof_refuses_an_endless_proof_or_formula() {
    let puzzle = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/ist-example.txt");
    let dir = tempfile::tempdir().unwrap();
    let proof = dir.path().join("p.drat");
    std::os::unix::fs::symlink("/dev/zero", &proof).unwrap();
    let start = Instant::now();
    let out = bin()
        .args([
            "check-proof",
            puzzle.to_str().unwrap(),
            proof.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_exit(&out, 2, &["p.drat", "over the limit of 268435456 bytes"]);
    assert!(start.elapsed() < Duration::from_secs(20));
    // A real proof with an endless formula beside it.
    let real = dir.path().join("q.drat");
    let made = bin()
        .args([
            "--unique",
            "--proof",
            real.to_str().unwrap(),
            puzzle.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_eq!(made.status.code(), Some(0));
    let out = bin()
        .args([
            "check-proof",
            puzzle.to_str().unwrap(),
            real.to_str().unwrap(),
            "--cnf",
            "/dev/zero",
        ])
        .output()
        .unwrap();
    assert_exit(&out, 2, &["/dev/zero", "over the limit"]);
}

#[test]
fn check_proof_honours_its_time_limit() {
    let puzzle = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/generated/15x15/001.json");
    let dir = tempfile::tempdir().unwrap();
    let proof = dir.path().join("p.drat");
    let made = bin()
        .args([
            "--unique",
            "--proof",
            proof.to_str().unwrap(),
            puzzle.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_eq!(made.status.code(), Some(0));
    let check = |limit: &str| {
        bin()
            .args([
                "check-proof",
                puzzle.to_str().unwrap(),
                proof.to_str().unwrap(),
                "--time-limit",
                limit,
            ])
            .output()
            .unwrap()
    };
    assert_exit(
        &check("1e-9"),
        4,
        &["time limit of 0.000000001 s reached while checking the proof"],
    );
    let out = check("600");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("certified: unique solution"));
}
