//! One clear line naming the input and the rule, for inputs a newcomer tried (issue 34): each
//! test asserts the message and the exit code that replaced a misleading one.

use crate::common::run;
use std::path::Path;
use std::process::Output;

const EXAMPLE: &str = include_str!("../puzzles/ist-example.txt");

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn example() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("puzzles/ist-example.txt")
        .display()
        .to_string()
}

/// One line on standard error, exit 2, nothing on standard output, and every needle present.
fn assert_one_line(o: &Output, needles: &[&str]) {
    let e = stderr(o);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(o.stdout.is_empty(), "{e}");
    assert_eq!(e.trim_end().lines().count(), 1, "{e}");
    for needle in needles {
        assert!(e.contains(needle), "{needle:?} not in {e:?}");
    }
    assert!(!e.contains("panicked"), "{e}");
}

#[test]
fn a_number_over_the_machines_range_in_ist_is_shown_as_written() {
    let text = EXAMPLE.replacen("ROW 2", "ROW 99999999999999999999999", 1);
    let o = run(&[], text.as_bytes());
    assert_one_line(
        &o,
        &[
            "<stdin>: line 1, column 5",
            "expected a number of at most 100",
            "\"99999999999999999999999\"",
        ],
    );
    assert!(!stderr(&o).contains("18446744073709551615"));
}

#[test]
fn cr_only_line_ends_are_named_as_such() {
    let text = EXAMPLE.replace('\n', "\r");
    let o = run(&[], text.as_bytes());
    assert_one_line(
        &o,
        &[
            "<stdin>: line 1",
            "carriage return alone",
            "lines must end in LF or CRLF",
        ],
    );
    assert!(!stderr(&o).contains("row counts"), "{}", stderr(&o));
}

#[test]
fn a_negative_generate_size_is_a_bad_size_not_an_unknown_flag() {
    let o = run(&["generate", "--size", "-5x10"], b"");
    assert_eq!(o.status.code(), Some(2));
    // clap's usage errors end with a pointer to --help; the first line says it all.
    let e = stderr(&o);
    let first = e.lines().next().unwrap_or_default();
    for needle in ["--size", "bad board size \"-5x10\"", "at least 1"] {
        assert!(first.contains(needle), "{needle:?} not in {first:?}");
    }
    assert!(
        !stderr(&o).contains("unexpected argument"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn an_output_file_that_cannot_be_replaced_names_it_and_why() {
    // procfs (Linux): the file exists, and no file can be made beside it.
    let o = run(
        &["convert", "--to", "json", &example(), "/proc/version"],
        b"",
    );
    assert_one_line(
        &o,
        &[
            "/proc/version: cannot be replaced",
            "no temporary file can be made in /proc",
        ],
    );
    assert!(!stderr(&o).contains(".bimaru-sat-"), "{}", stderr(&o));
}

/// `convert` and `render` build no formula: with `--max-cells` raised, a 3000x3000 board is
/// converted and drawn (the model-size cap refused it before), while solving it is still
/// refused by the model-size cap.
#[test]
fn convert_and_render_of_a_huge_board_skip_the_model_size_cap() {
    let dir = tempfile::tempdir().unwrap();
    let board = serde_json::json!({
        "rows": 3000, "cols": 3000,
        "row_counts": vec![serde_json::Value::Null; 3000],
        "col_counts": vec![serde_json::Value::Null; 3000],
        "fleet": {"1": 1, "2": 1, "3": 1, "4": 1},
    })
    .to_string();
    let path = dir.path().join("b3000.json");
    std::fs::write(&path, board).unwrap();
    let p = path.to_str().unwrap();
    let out = dir.path().join("b3000.txt");
    let o = run(
        &[
            "convert",
            "--max-cells",
            "9000000",
            "--to",
            "puzzlink",
            p,
            out.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        std::fs::read_to_string(&out)
            .unwrap()
            .contains("battleship/3000/3000/")
    );
    let svg = dir.path().join("b3000.svg");
    let o = run(
        &[
            "render",
            "--max-cells",
            "9000000",
            p,
            "--svg",
            svg.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(std::fs::read_to_string(&svg).unwrap().starts_with("<svg"));
    let o = run(&["--max-cells", "9000000", p], b"");
    assert_one_line(&o, &["over the limit", "--max-model-size"]);
}

/// `batch` over a folder holding a symbolic-link loop, a link to a folder and a FIFO: the loop
/// fails as it does given by name, and the folder and the FIFO are named as skipped, never
/// dropped in silence (nor read: a FIFO would block).
#[test]
fn batch_names_what_it_leaves_out_of_a_folder() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("set");
    std::fs::create_dir(&folder).unwrap();
    std::fs::create_dir(dir.path().join("elsewhere")).unwrap();
    std::fs::write(folder.join("a.txt"), EXAMPLE).unwrap();
    std::os::unix::fs::symlink("loop", folder.join("loop")).unwrap();
    std::os::unix::fs::symlink(dir.path().join("elsewhere"), folder.join("linked")).unwrap();
    let fifo = folder.join("fifo");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    let o = run(&["batch", folder.to_str().unwrap()], b"");
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{e}");
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("a.txt") && out.contains("\"status\":\"found\""),
        "{out}"
    );
    assert!(
        out.contains("loop: Too many levels of symbolic links"),
        "{out}"
    );
    assert!(e.contains("linked: skipped: a folder"), "{e}");
    assert!(e.contains("fifo: skipped: a special file"), "{e}");
    // Given by name, the loop fails the same way.
    let o = run(&["batch", folder.join("loop").to_str().unwrap()], b"");
    assert!(String::from_utf8_lossy(&o.stdout).contains("Too many levels of symbolic links"));
}

// --- Issue 52, the newcomer's list: each test holds one item fixed. ---------------------------

fn path_of(path: &Path) -> &str {
    path.to_str().unwrap()
}

#[test]
fn an_empty_input_and_one_of_white_space_are_told_apart() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.txt");
    let blank = dir.path().join("blank.txt");
    std::fs::write(&empty, b"").unwrap();
    std::fs::write(&blank, vec![b' '; 12_000_000]).unwrap();
    let o = run(&[path_of(&empty)], b"");
    assert_one_line(&o, &["empty.txt: the input is empty; expected a puzzle"]);
    let o = run(&[path_of(&blank)], b"");
    assert_one_line(
        &o,
        &["blank.txt: the input is 12 MB of white space and nothing else; expected a puzzle"],
    );
    let o = run(&[], b" \n\t\n");
    assert_one_line(
        &o,
        &["<stdin>: the input is 4 bytes of white space and nothing else"],
    );
    assert!(!stderr(&o).contains("--format"), "{}", stderr(&o));
}

#[test]
fn an_empty_folder_is_an_error_as_input_and_to_batch() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        vec![path_of(dir.path())],
        vec!["batch", path_of(dir.path())],
    ] {
        let o = run(&args, b"");
        assert_one_line(
            &o,
            &[
                path_of(dir.path()),
                "the folder holds no file; expected puzzle files directly inside it",
            ],
        );
    }
    // A folder whose files hold no puzzle: the same exit, one line that says what it found.
    std::fs::write(dir.path().join("notes.md"), "# notes\n").unwrap();
    let o = run(&["batch", path_of(dir.path())], b"");
    assert_one_line(
        &o,
        &["batch: no file holds a puzzle (1 of unknown format, 0 with a solved grid)"],
    );
}

#[test]
fn a_third_positional_argument_is_one_too_many_not_a_subcommand() {
    let o = run(&[&example(), "out.txt", "extra"], b"");
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    let first = e.lines().next().unwrap_or_default();
    assert!(
        first.contains("unexpected argument 'extra'") && first.contains("INPUT and OUTPUT"),
        "{e}"
    );
    assert!(!e.contains("subcommand"), "{e}");
    assert!(!Path::new("out.txt").exists());
}

#[test]
fn a_negative_number_reaches_the_flags_own_parser() {
    for (args, needle) in [
        (
            vec!["--count", "-1"],
            "invalid value '-1' for '--count <N>'",
        ),
        (
            vec!["simulate", "--games", "-3"],
            "invalid value '-3' for '--games",
        ),
        (
            vec!["--time-limit", "-1"],
            "invalid value '-1' for '--time-limit",
        ),
    ] {
        let mut args = args;
        let file = example();
        if args[0].starts_with("--") {
            args.push(&file);
        }
        let o = run(&args, b"");
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let e = stderr(&o);
        assert!(e.lines().next().unwrap_or_default().contains(needle), "{e}");
        assert!(!e.contains("-- -"), "{e}");
    }
}

#[test]
fn decode_with_a_junk_cnf_blames_the_cnf() {
    let dir = tempfile::tempdir().unwrap();
    let (cnf, answer) = (dir.path().join("junk.cnf"), dir.path().join("answer.txt"));
    std::fs::write(&cnf, "c a comment\njunk\n").unwrap();
    std::fs::write(&answer, "s SATISFIABLE\nv 1 -2 0\n").unwrap();
    let o = run(
        &[
            "decode",
            &example(),
            path_of(&answer),
            "--cnf",
            path_of(&cnf),
        ],
        b"",
    );
    assert_one_line(
        &o,
        &[
            "junk.cnf: line 2: expected the DIMACS problem line `p cnf VARIABLES CLAUSES`",
            "found \"junk\"",
        ],
    );
    assert!(!stderr(&o).contains("answer.txt"), "{}", stderr(&o));
}

#[test]
fn a_grade_no_puzzle_of_the_size_has_is_refused_before_any_draw() {
    let o = run(&["generate", "--size", "6x6", "--grade", "fiendish"], b"");
    assert_one_line(
        &o,
        &["no 6x6 puzzle of grade fiendish exists with the default fleet"],
    );
    // Told before drawing: the search's own message counts its tries.
    assert!(!stderr(&o).contains("tries"), "{}", stderr(&o));
}

#[test]
fn one_of_a_thing_is_singular() {
    let one = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/generated/10x10/001.txt");
    let o = run(&["batch", path_of(&one)], b"");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).starts_with("batch: 1 file, 1 board: "),
        "{}",
        stderr(&o)
    );
    // The picture's title: the puzzle has one clue.
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("one.svg");
    let o = run(&["render", path_of(&one), "--svg", path_of(&svg)], b"");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let svg = std::fs::read_to_string(&svg).unwrap();
    assert!(svg.contains(", 1 clue</title>"), "{svg}");
}

#[test]
fn batch_skips_solution_files_and_solves_each_puzzle_once() {
    // puzzles/generated/10x10 keeps each puzzle twice (NNN.json, NNN.txt) and its solution
    // (NNN.out), and a README.
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/generated/10x10");
    let o = run(&["batch", path_of(&folder)], b"");
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{e}");
    let out = String::from_utf8(o.stdout).unwrap();
    assert_eq!(out.lines().count(), 100, "{e}");
    assert!(out.lines().all(|l| l.contains(".json\"")), "{out}");
    for needle in [
        "batch: 100 files, 100 boards: ",
        "1 file of unknown format skipped",
        "100 solution files skipped",
        "100 files skipped that hold the puzzle of another file",
        "001.txt repeats ",
    ] {
        assert!(e.contains(needle), "{needle:?} not in {e}");
    }
    // Given by name, a file is always solved, even the same puzzle twice.
    let (json, txt) = (folder.join("001.json"), folder.join("001.txt"));
    let o = run(&["batch", path_of(&json), path_of(&txt)], b"");
    assert_eq!(String::from_utf8_lossy(&o.stdout).lines().count(), 2);
}

#[test]
fn serve_open_says_so_when_no_browser_opens() {
    use std::io::BufRead;
    let bin_dir = tempfile::tempdir().unwrap();
    let fake = bin_dir.path().join("xdg-open");
    std::fs::write(&fake, "#!/bin/sh\nexit 3\n").unwrap();
    std::fs::set_permissions(&fake, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let mut child = crate::common::bin()
        .args(["serve", "--open", "--port", "0", "--pool", "0"])
        .env("PATH", bin_dir.path())
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut address = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut address)
        .unwrap();
    let mut said = String::new();
    std::io::BufReader::new(child.stderr.take().unwrap())
        .read_line(&mut said)
        .unwrap();
    let _ = child.kill();
    let _ = child.wait();
    let url = address.trim().trim_start_matches("listening on ");
    assert!(url.starts_with("http://127.0.0.1:"), "{address}");
    assert!(
        said.contains("xdg-open opened no browser")
            && said.contains(&format!("open {url} yourself")),
        "{said}"
    );
}
