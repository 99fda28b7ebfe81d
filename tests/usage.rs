//! The rough edges a newcomer met: counts of zero, IST puzzles that cannot share standard
//! output, `render --solve` on a puzzle of several solutions, `--emit-only` for both exports,
//! `decode` given the other kind of answer or a formula of another model, shell completions and
//! the manual page.

use crate::common::{COMMANDS, bin, run};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn puzzle(rel: &str) -> String {
    Path::new(ROOT).join(rel).to_str().unwrap().to_string()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Asserts a usage error: exit 2, nothing on stdout, every needle on stderr.
fn assert_usage(out: &Output, needles: &[&str]) {
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(out.stdout.is_empty(), "{}", text(&out.stdout));
    for needle in needles {
        assert!(err.contains(needle), "{needle:?} not in {err:?}");
    }
}

#[test]
fn a_count_of_zero_is_a_usage_error() {
    let example = puzzle("puzzles/ist-example.txt");
    let position = puzzle("puzzles/advise/position.txt");
    let folder = puzzle("puzzles/generated/10x10");
    for args in [
        vec!["--count", "0", &example],
        vec!["batch", "--count", "0", &folder],
        vec!["generate", "--count", "0"],
        vec!["simulate", "--games", "0"],
        vec!["advise", "--posterior", "--samples", "0", &position],
        vec!["compare", "--repeat", "0", &example],
        vec!["compare", "--limit", "0", &example],
        vec!["compare", "--first", "0", &example],
    ] {
        let out = run(&args, b"");
        assert_usage(&out, &["'0'", "expected a whole number of at least 1"]);
    }
    // The reproducer printed "mean -0.000 ±NaN"; one game is fine.
    let out = run(&["simulate", "--games", "1"], b"");
    assert_eq!(out.status.code(), Some(0));
    assert!(!text(&out.stdout).contains("NaN"));
}

#[test]
fn thread_counts_have_a_bound_and_more_than_the_cores_run_one_a_core() {
    let board = puzzle("puzzles/generated/20x20/001.json");
    // Before the bound, 65535 spawned threads until one failed ("failed to spawn thread").
    for bad in ["0", "1025", "65535"] {
        let out = run(&["--unique", "--threads", bad, &board], b"");
        assert_usage(&out, &["--threads", bad, "1..=1024"]);
    }
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let default = run(&["--unique", "--to", "pretty", &board], b"");
    assert_eq!(default.status.code(), Some(0), "{}", text(&default.stderr));
    let many = cores + 62;
    let out = run(
        &[
            "--unique",
            "--to",
            "pretty",
            "--threads",
            &many.to_string(),
            &board,
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), text(&default.stdout));
    assert_eq!(
        text(&out.stderr).trim(),
        format!(
            "--threads {many}: this machine has {cores} {}; a hard question runs on {cores} threads",
            if cores == 1 { "core" } else { "cores" }
        )
    );
}

#[test]
fn several_ist_puzzles_need_a_folder() {
    let out = run(&["generate", "--to", "ist", "--count", "5"], b"");
    assert_usage(
        &out,
        &["--to ist", "an IST file holds one puzzle", "--out DIR"],
    );
    // One IST puzzle on standard output reads back.
    let out = run(&["generate", "--to", "ist"], b"");
    assert_eq!(out.status.code(), Some(0));
    let back = run(&[], &out.stdout);
    assert_eq!(back.status.code(), Some(0), "{}", text(&back.stderr));
}

#[test]
fn render_solve_refuses_a_puzzle_of_several_solutions() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("board.svg");
    let several = puzzle("puzzles/formats/sxchx.txt");
    let out = bin()
        .args(["render", &several, "--solve", "--svg"])
        .arg(&svg)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("not unique: at least 2 solutions"));
    assert!(!svg.exists(), "nothing drawn");
    // Without --solve the puzzle is drawn; a unique puzzle is drawn solved.
    let unique = puzzle("puzzles/generated/10x10/001.json");
    for args in [
        vec!["render", several.as_str(), "--svg"],
        vec!["render", unique.as_str(), "--solve", "--svg"],
    ] {
        let out = bin().args(&args).arg(&svg).output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert!(fs::read_to_string(&svg).unwrap().contains("<svg"));
        fs::remove_file(&svg).unwrap();
    }
}

#[test]
fn emit_only_means_the_same_for_dimacs_and_lp() {
    let dir = tempfile::tempdir().unwrap();
    let example = puzzle("puzzles/ist-example.txt");
    let solution = fs::read(Path::new(ROOT).join("puzzles/ist-example.out")).unwrap();
    for (flag, header) in [("--emit-dimacs", "p cnf"), ("--emit-lp", "Subject To")] {
        let file = dir.path().join("export");
        let file_arg = file.to_str().unwrap();
        // Without --emit-only: the export, then the solution.
        let out = run(&[&example, flag, file_arg], b"");
        assert_eq!(out.status.code(), Some(0), "{flag}: {}", text(&out.stderr));
        assert_eq!(out.stdout, solution, "{flag} solves too");
        assert!(
            fs::read_to_string(&file).unwrap().contains(header),
            "{flag}"
        );
        fs::remove_file(&file).unwrap();
        // With it: the export only.
        let out = run(&[&example, flag, file_arg, "--emit-only"], b"");
        assert_eq!(out.status.code(), Some(0), "{flag}");
        assert!(out.stdout.is_empty(), "{flag} --emit-only does not solve");
        assert!(
            fs::read_to_string(&file).unwrap().contains(header),
            "{flag}"
        );
        // To standard output, only with --emit-only or an OUTPUT file.
        let out = run(&[&example, flag, "-"], b"");
        assert_usage(&out, &[flag, "without --emit-only"]);
        let out = run(&[&example, flag, "-", "--emit-only"], b"");
        assert!(text(&out.stdout).contains(header), "{flag} -");
        // One board's formula: a file of boards is refused, even of one board.
        let out = run(&[&puzzle("puzzles/formats/rubin.txt"), flag, file_arg], b"");
        assert_usage(&out, &[flag, "a Rubin file of boards"]);
    }
    // --emit-only needs one of them.
    let out = run(&[&example, "--emit-only"], b"");
    assert_usage(&out, &["--emit-only"]);
    // Both exports in one run, then stop.
    let (cnf, lp) = (dir.path().join("both.cnf"), dir.path().join("both.lp"));
    let out = bin()
        .arg(&example)
        .arg("--emit-dimacs")
        .arg(&cnf)
        .arg("--emit-lp")
        .arg(&lp)
        .arg("--emit-only")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(out.stdout.is_empty());
    assert!(cnf.exists() && lp.exists());
}

/// A SAT solver's answer to the DIMACS file `cnf`, from varisat, in SAT-competition form.
fn answer_to(cnf: &Path) -> String {
    let formula = varisat::dimacs::DimacsParser::parse(fs::File::open(cnf).unwrap()).unwrap();
    let mut solver = varisat::Solver::new();
    solver.add_formula(&formula);
    assert!(solver.solve().unwrap());
    let model = solver.model().unwrap();
    let literals: Vec<String> = model.iter().map(|l| l.to_dimacs().to_string()).collect();
    format!("s SATISFIABLE\nv {} 0\n", literals.join(" "))
}

#[test]
fn decode_tells_which_answer_and_which_formula_it_needs() {
    let dir = tempfile::tempdir().unwrap();
    let example = puzzle("puzzles/ist-example.txt");
    let solution = fs::read(Path::new(ROOT).join("puzzles/ist-example.out")).unwrap();
    // A placement-model formula: decode needs its header (--cnf), and says so.
    let cnf = dir.path().join("placement.cnf");
    let out = bin()
        .arg(&example)
        .args(["--encoding", "placement", "--emit-only", "--emit-dimacs"])
        .arg(&cnf)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let answer = dir.path().join("answer.txt");
    fs::write(&answer, answer_to(&cnf)).unwrap();
    let answer_arg = answer.to_str().unwrap();
    let out = run(&["decode", &example, answer_arg], b"");
    assert_usage(&out, &["answer.txt", "--cnf", "--encoding and --card"]);
    let out = run(
        &[
            "decode",
            &example,
            answer_arg,
            "--cnf",
            cnf.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(out.stdout, solution);
    let out = run(
        &["decode", &example, answer_arg, "--encoding", "placement"],
        b"",
    );
    assert_eq!(out.stdout, solution);
    // The SAT answer given as a MIP solution, and a CBC solution given as a SAT answer.
    let out = run(&["decode", &example, answer_arg, "--backend", "ilp"], b"");
    assert_usage(
        &out,
        &["a SAT solver's answer", "decode it without --backend ilp"],
    );
    let cbc = dir.path().join("model.sol");
    fs::write(
        &cbc,
        "Optimal - objective value 20.00000000\n      0 x_1h_0_0                 1                       0\n",
    )
    .unwrap();
    let out = run(&["decode", &example, cbc.to_str().unwrap()], b"");
    assert_usage(
        &out,
        &[
            "model.sol",
            "a MIP solver's solution",
            "decode it with --backend ilp",
        ],
    );
}

#[test]
fn library_decode_errors_name_no_flag() {
    use bimaru_sat::encode::sat::card::CardKind;
    use bimaru_sat::encode::sat::model::Model;
    use bimaru_sat::usecase::Source;
    use bimaru_sat::usecase::job::decode::{ilp_answer, sat_answer, sat_formula};
    let example = fs::read_to_string(Path::new(ROOT).join("puzzles/ist-example.txt")).unwrap();
    let puzzle = bimaru_sat::format::ist::parse(&example).unwrap();
    let formula = sat_formula(&puzzle, Model::Cell, CardKind::Seq, None).unwrap();
    let answers = [
        "Optimal - objective value 1\n 0 x_1h_0_0 1 0\n",
        "s SATISFIABLE\nv 1 0\n",
        "s SATISFIABLE\nv 5000 0\n",
        "s SATISFIABLE\nv -1 -2 -3 0\n",
    ];
    let mut messages: Vec<String> = answers
        .iter()
        .map(|a| {
            let source = Source {
                name: "answer".into(),
                text: a.to_string(),
            };
            sat_answer(&formula, &puzzle, &source)
                .unwrap_err()
                .to_string()
        })
        .collect();
    let sat = Source {
        name: "answer".into(),
        text: "s SATISFIABLE\nv 1 0\n".into(),
    };
    messages.push(ilp_answer(&puzzle, None, &sat).unwrap_err().to_string());
    for message in messages {
        assert!(!message.contains("--"), "a flag in {message:?}");
    }
}

fn shell_available(shell: &str) -> bool {
    Command::new(shell)
        .arg("-c")
        .arg("true")
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn completions_and_the_manual_page_cover_every_command() {
    let commands = COMMANDS;
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let out = run(&["completions", shell], b"");
        assert_eq!(out.status.code(), Some(0), "{shell}");
        let script = text(&out.stdout);
        for command in commands {
            assert!(script.contains(command), "{shell}: {command}");
        }
        assert!(script.contains("--emit-dimacs"), "{shell}");
    }
    // The bash and zsh scripts parse.
    for shell in ["bash", "zsh"] {
        if !shell_available(shell) {
            continue;
        }
        let dir = tempfile::tempdir().unwrap();
        let file: PathBuf = dir.path().join("script");
        fs::write(&file, run(&["completions", shell], b"").stdout).unwrap();
        let check = Command::new(shell).arg("-n").arg(&file).output().unwrap();
        assert!(check.status.success(), "{shell}: {}", text(&check.stderr));
    }
    let out = run(&["completions", "tcsh"], b"");
    assert_eq!(out.status.code(), Some(2));
    // The manual page: roff with a title, every command listed, every flag of the default
    // command described.
    let out = run(&["man"], b"");
    assert_eq!(out.status.code(), Some(0));
    let page = text(&out.stdout);
    assert!(page.contains(".TH bimaru-sat 1"), "{page}");
    for command in commands {
        assert!(
            page.contains(&format!(
                "bimaru\\-sat\\-{}(1)",
                command.replace('-', "\\-")
            )),
            "{command}"
        );
    }
    for flag in ["\\-\\-unique", "\\-\\-emit\\-only", "\\-\\-time\\-limit"] {
        assert!(page.contains(flag), "{flag}");
    }
    let out = run(&["man", "batch"], b"");
    assert_eq!(out.status.code(), Some(0));
    let page = text(&out.stdout);
    assert!(page.contains(".TH bimaru-sat-batch 1"), "{page}");
    assert!(page.contains("\\-\\-time\\-limit"));
    let out = run(&["man", "nope"], b"");
    assert_usage(&out, &["no command \"nope\"", "batch"]);
    // groff, where installed, reads the page (UTF-8 through preconv, as man does) without a
    // warning.
    if Command::new("groff").arg("--version").output().is_ok() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("bimaru-sat.1");
        fs::write(&file, run(&["man"], b"").stdout).unwrap();
        let out = Command::new("groff")
            .args(["-k", "-man", "-Tutf8", "-ww", "-z"])
            .arg(&file)
            .output()
            .unwrap();
        assert!(out.status.success());
        assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
    }
}
