//! The command line: exit codes, one-line messages naming file and line, output files written
//! whole or not at all.

use crate::common::{bin, run};
use std::path::Path;

const EXAMPLE: &str = include_str!("../puzzles/ist-example.txt");

fn example_with(replace: &str, with: &str) -> Vec<u8> {
    EXAMPLE.replacen(replace, with, 1).into_bytes()
}

/// Runs with `stdin` and checks: exit 2, nothing on stdout, exactly one line on stderr that
/// contains every `needle`.
fn assert_bad_input(args: &[&str], stdin: &[u8], needles: &[&str]) {
    let out = run(args, stdin);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "stderr: {stderr}");
    assert!(out.stdout.is_empty(), "no partial output");
    assert_eq!(stderr.lines().count(), 1, "one line: {stderr}");
    for needle in needles {
        assert!(stderr.contains(needle), "{needle:?} not in {stderr:?}");
    }
}

#[test]
fn bad_input_gets_one_line_with_the_line_number_and_exit_2() {
    assert_bad_input(
        &[],
        &example_with("ROW 2 3 2 2 3 0 1 3 2 2", "ROW 2 3 2 2 3 0 1 3 2"),
        &["<stdin>: line 1", "expected 10 row counts, found 9"],
    );
    assert_bad_input(
        &[],
        &example_with("HINT 9 5 C", "HINT 9 10 C"),
        &["line 9", "outside the 10x10 board"],
    );
    assert_bad_input(
        &[],
        &example_with("HINT 9 5 C", "HINT 9 5 Q"),
        &["line 9", "unknown cell letter \"Q\""],
    );
    assert_bad_input(
        &[],
        &example_with("\n6\n", "\n7\n"),
        &["expected 7 HINT lines", "found 6"],
    );
    assert_bad_input(
        &[],
        &example_with("COLUMN 6 0 1", "COLUMN 6 zero 1"),
        &[
            "line 2",
            "expected a count (a whole number), found \"zero\"",
        ],
    );
    assert_bad_input(
        &[],
        &example_with("HINT 9 5 C", "HINT 8 8 B"),
        &["line 9", "given twice (first on line 8)"],
    );
    assert_bad_input(
        &[],
        &example_with("HINT 9 5 C", "HINT 8 8 W"),
        &["line 9", "contradicts the clue on line 8"],
    );
    assert_bad_input(
        &[],
        b"",
        &["<stdin>: the input is empty; expected a puzzle"],
    );
    assert_bad_input(&[], b"hello", &["<stdin>", "--format"]);
    assert_bad_input(&[], b"\x00\x01\x02garbage", &["not text"]);
    assert_bad_input(&[], &[0xff, 0xfe, b'R'], &["not text"]);
}

#[test]
fn bad_input_in_a_file_names_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("broken.txt");
    std::fs::write(&path, example_with("HINT 3 2 C", "HINT 3 2")).unwrap();
    let path = path.to_str().unwrap();
    assert_bad_input(&[path], b"", &[&format!("{path}: line 6"), "expected 3"]);
}

#[test]
fn missing_file_and_bad_flags_exit_2() {
    assert_bad_input(
        &["/nonexistent/puzzle.txt"],
        b"",
        &["/nonexistent/puzzle.txt"],
    );
    let out = run(&["--backend", "quantum"], b"");
    assert_eq!(out.status.code(), Some(2));
    let out = run(&["--count", "2", "--unique"], b"");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_failed_run_never_truncates_the_output_file() {
    let dir = tempfile::tempdir().unwrap();
    let out_path = dir.path().join("solution.txt");
    std::fs::write(&out_path, "precious\n").unwrap();
    let input = dir.path().join("in.txt");
    std::fs::write(&input, example_with("HINT 9 5 C", "HINT 9 5 X")).unwrap();
    let status = bin()
        .args([input.to_str().unwrap(), out_path.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(status.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(&out_path).unwrap(), "precious\n");

    // A good run replaces it whole.
    std::fs::write(&input, EXAMPLE).unwrap();
    let status = bin()
        .args([input.to_str().unwrap(), out_path.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(status.status.code(), Some(0));
    let expected = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/ist-example.out"),
    )
    .unwrap();
    assert_eq!(std::fs::read_to_string(&out_path).unwrap(), expected);
    assert!(status.stdout.is_empty());
}

#[test]
fn unsolvable_puzzles_exit_1_and_say_so() {
    // Column 1 has count 0, but a hint puts a ship there.
    let out = run(&[], &example_with("HINT 6 0 W", "HINT 6 1 C"));
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "<stdin>: no solution\n"
    );
}

#[test]
fn stats_go_to_stderr_and_leave_stdout_exact() {
    let out = run(&["--stats", "--unique"], EXAMPLE.as_bytes());
    assert_eq!(out.status.code(), Some(0));
    let expected =
        std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/ist-example.out"))
            .unwrap();
    assert_eq!(out.stdout, expected);
    let stderr = String::from_utf8(out.stderr).unwrap();
    for key in [
        "variables:",
        "clauses:",
        "conflicts:",
        "encode:",
        "solve:",
        "total:",
    ] {
        assert!(stderr.contains(key), "{key} missing from {stderr}");
    }
    // Without pre-solving the formula is the whole encoding.
    let out = run(&["--stats", "--no-presolve"], EXAMPLE.as_bytes());
    assert_eq!(out.stdout, expected);
    let stderr = String::from_utf8(out.stderr).unwrap();
    let clauses: usize = stderr
        .lines()
        .find_map(|l| l.strip_prefix("clauses: "))
        .unwrap()
        .parse()
        .unwrap();
    assert!(clauses > 1000, "{stderr}");
}

#[test]
fn help_documents_every_flag() {
    let out = run(&["--help"], b"");
    assert_eq!(out.status.code(), Some(0));
    let help = String::from_utf8(out.stdout).unwrap();
    for flag in [
        "--backend",
        "--card",
        "--count",
        "--unique",
        "--stats",
        "--format",
    ] {
        assert!(help.contains(flag), "{flag} missing from --help");
    }
}

#[test]
fn a_tiny_time_limit_exits_4_without_output() {
    let out = run(&["--time-limit", "1e-9"], EXAMPLE.as_bytes());
    assert_eq!(out.status.code(), Some(4));
    assert!(out.stdout.is_empty());
    assert!(String::from_utf8_lossy(&out.stderr).contains("time limit"));
    let out = run(&["--time-limit", "60"], EXAMPLE.as_bytes());
    assert_eq!(out.status.code(), Some(0));
}

#[cfg(unix)]
#[test]
fn output_files_get_the_usual_mode_or_keep_theirs() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let input = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/ist-example.txt");
    let fresh = dir.path().join("fresh.txt");
    let kept = dir.path().join("kept.txt");
    std::fs::write(&kept, "old\n").unwrap();
    std::fs::set_permissions(&kept, std::fs::Permissions::from_mode(0o600)).unwrap();
    for out in [&fresh, &kept] {
        let status = bin().arg(&input).arg(out).status().unwrap();
        assert_eq!(status.code(), Some(0));
    }
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&fresh), 0o644);
    assert_eq!(mode(&kept), 0o600);
}
