//! Keeps the README honest: its IST example input, run through the binary, prints exactly the
//! output the README shows; every file its shell examples name ships with the repository; and
//! every shell example runs as written, from the repository's top folder, with the exit code its
//! comment allows.

use crate::common::run;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn readme() -> String {
    std::fs::read_to_string(Path::new(ROOT).join("README.md")).unwrap()
}

/// A fenced code block: its info string (`sh`, or empty) and its text.
struct Block {
    info: String,
    text: String,
}

/// The fenced code blocks of `text`, in order.
fn code_blocks(text: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut current: Option<Block> = None;
    for line in text.lines() {
        if let Some(info) = line.strip_prefix("```") {
            match current.take() {
                Some(block) => blocks.push(block),
                None => {
                    current = Some(Block {
                        info: info.trim().to_string(),
                        text: String::new(),
                    })
                }
            }
        } else if let Some(block) = current.as_mut() {
            block.text.push_str(line);
            block.text.push('\n');
        }
    }
    blocks
}

/// One shell example: the command and its comment.
struct Example {
    command: String,
    comment: String,
}

/// Every line of the README's `sh` blocks but the build and test commands (`cargo ...`), in
/// order, split at the comment (` # `). The Python block (`sh python`) installs a package: its
/// commands run in the pytest suite (`python/tests`), which `.ci/run` runs after this one.
fn examples() -> Vec<Example> {
    code_blocks(&readme())
        .into_iter()
        .filter(|b| b.info == "sh")
        .flat_map(|b| {
            b.text
                .lines()
                .map(|line| match line.find(" #") {
                    Some(at) => Example {
                        command: line[..at].trim().to_string(),
                        comment: line[at + 2..].trim().to_string(),
                    },
                    None => Example {
                        command: line.trim().to_string(),
                        comment: String::new(),
                    },
                })
                .filter(|e| !e.command.is_empty() && !e.command.starts_with("cargo "))
                .collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn the_readme_example_prints_what_the_readme_shows() {
    let blocks = code_blocks(&readme());
    let input = blocks
        .iter()
        .position(|b| b.text.starts_with("ROW "))
        .expect("README shows an IST input");
    let output = &blocks[input + 1].text;
    let out = run(&[], blocks[input].text.as_bytes());
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8(out.stdout).unwrap(), *output);
    // The same example is the puzzle the set-up command solves.
    let example = std::fs::read_to_string(Path::new(ROOT).join("puzzles/ist-example.txt")).unwrap();
    assert_eq!(example, blocks[input].text);
}

#[test]
fn every_file_the_readme_examples_read_ships_with_the_repository() {
    let examples = examples();
    assert!(examples.len() > 40, "{} examples", examples.len());
    let mut named = 0;
    for example in &examples {
        for word in example.command.split_whitespace() {
            let word = word.trim_matches(|c| c == '\'' || c == '"' || c == '<' || c == '>');
            assert!(
                !word.starts_with("../"),
                "{}: names a file outside the repository",
                example.command
            );
            if word.starts_with("puzzles/") {
                assert!(
                    Path::new(ROOT).join(word).exists(),
                    "{}: {word} does not exist",
                    example.command
                );
                named += 1;
            }
        }
    }
    assert!(named > 30, "{named} files named");
}

/// Whether `program` can be run (a name on the PATH).
fn on_path(program: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(program).is_file()))
}

/// The programs a command line runs: the first word of each `;`, `&&` or `|` part.
fn programs(command: &str) -> Vec<String> {
    command
        .split([';', '|'])
        .flat_map(|part| part.split("&&"))
        .filter_map(|part| part.split_whitespace().next())
        .map(str::to_string)
        .collect()
}

/// The exit codes an example may end with: 0, and each `exit N` its comment names.
fn allowed_exits(comment: &str) -> Vec<i32> {
    let mut allowed = vec![0];
    let words: Vec<&str> = comment.split_whitespace().collect();
    for pair in words.windows(2) {
        if pair[0].trim_start_matches('(') == "exit" {
            let digits: String = pair[1].chars().take_while(char::is_ascii_digit).collect();
            if let Ok(code) = digits.parse() {
                allowed.push(code);
            }
        }
    }
    allowed
}

/// Starts a server example, reads the address it prints first, and stops it.
fn serves(command: &mut Command) {
    use std::io::BufRead;
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    let read = std::io::BufReader::new(child.stdout.take().unwrap()).read_line(&mut line);
    let alive = child.try_wait().unwrap().is_none();
    let _ = child.kill();
    let out = child.wait_with_output().unwrap();
    assert!(
        read.is_ok() && line.starts_with("listening on http://127.0.0.1:"),
        "{line:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        alive || out.status.code().is_none(),
        "the server stopped by itself"
    );
}

#[test]
fn every_readme_example_runs_as_written() {
    // A copy of the repository's top folder: `puzzles/` linked, everything written lands in
    // the sandbox, `bimaru-sat` on the PATH.
    let sandbox = tempfile::tempdir().unwrap();
    let (top, bin, home) = (
        sandbox.path().join("repo"),
        sandbox.path().join("bin"),
        sandbox.path().join("home"),
    );
    for dir in [&top, &bin, &home] {
        std::fs::create_dir(dir).unwrap();
    }
    std::os::unix::fs::symlink(Path::new(ROOT).join("puzzles"), top.join("puzzles")).unwrap();
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_bimaru-sat"), bin.join("bimaru-sat")).unwrap();
    // `serve --open` starts a browser: not here.
    for launcher in ["xdg-open", "open"] {
        let fake = bin.join(launcher);
        std::fs::write(&fake, "#!/bin/sh\nexit 0\n").unwrap();
        std::fs::set_permissions(&fake, std::os::unix::fs::PermissionsExt::from_mode(0o755))
            .unwrap();
    }
    let path = std::env::join_paths(std::iter::once(bin.clone()).chain(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    )))
    .unwrap();
    let ci = std::env::var("CI").is_ok_and(|v| v == "true");
    let mut ran = 0;
    for example in examples() {
        let missing: Vec<String> = programs(&example.command)
            .into_iter()
            .filter(|p| p != "bimaru-sat" && !on_path(p))
            .collect();
        if !missing.is_empty() {
            assert!(
                !ci,
                "CI=true but {missing:?} is missing for: {}",
                example.command
            );
            eprintln!("skipping (no {missing:?}): {}", example.command);
            continue;
        }
        let mut command = Command::new("sh");
        command
            .arg("-c")
            .current_dir(&top)
            .env("PATH", &path)
            .env("HOME", &home)
            .stdin(Stdio::null());
        if example.command.starts_with("bimaru-sat serve") {
            // The server runs until interrupted: on any free port (8080 may be taken here),
            // it must print its address; then it is stopped.
            serves(command.arg(format!("exec {} --port 0", example.command)));
            ran += 1;
            continue;
        }
        let out = command.arg(&example.command).output().unwrap();
        let code = out.status.code().unwrap_or(-1);
        assert!(
            allowed_exits(&example.comment).contains(&code),
            "{}: exit {code}\n{}",
            example.command,
            String::from_utf8_lossy(&out.stderr)
        );
        ran += 1;
    }
    assert!(ran > 40, "{ran} examples ran");
    every_file_written_is_ignored(&top);
    // The files the examples write are there, whole.
    for written in [
        "solution.txt",
        "board.svg",
        "new/001.txt",
        "new/001.out",
        "bimaru-sat.1",
    ] {
        let file: PathBuf = top.join(written);
        assert!(
            std::fs::metadata(&file).is_ok_and(|m| m.len() > 0),
            "{written} was not written"
        );
    }
}

/// Every file the examples wrote in the copy of the top folder `top` is one the repository's
/// `.gitignore` ignores, so that the README's commands, run in a clone, leave `git status`
/// clean.
fn every_file_written_is_ignored(top: &Path) {
    let mut written: Vec<String> = std::fs::read_dir(top)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name != "puzzles")
        .collect();
    written.sort();
    assert!(written.len() >= 10, "{written:?}");
    let check = Command::new("git")
        .args(["check-ignore", "--no-index", "--stdin"])
        .current_dir(ROOT)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn();
    let Ok(mut check) = check else {
        assert!(
            !std::env::var("CI").is_ok_and(|v| v == "true"),
            "CI=true but git is missing"
        );
        eprintln!("skipping the .gitignore check: no git");
        return;
    };
    {
        use std::io::Write;
        let mut stdin = check.stdin.take().unwrap();
        for name in &written {
            // A folder is matched by its `/NAME/` pattern as `NAME/`.
            let slash = if top.join(name).is_dir() { "/" } else { "" };
            writeln!(stdin, "{name}{slash}").unwrap();
        }
    }
    let out = check.wait_with_output().unwrap();
    let ignored: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| l.trim_end_matches('/').to_string())
        .collect();
    let left: Vec<&String> = written.iter().filter(|w| !ignored.contains(w)).collect();
    assert!(
        left.is_empty(),
        "the README's examples leave {left:?} in the top folder, which .gitignore does not name"
    );
}

/// The README line whose command contains `needle`, split into its arguments after
/// `bimaru-sat`.
fn readme_args(needle: &str) -> Vec<String> {
    let text = readme();
    let line = text
        .lines()
        .find(|l| l.starts_with("bimaru-sat ") && l.contains(needle))
        .unwrap_or_else(|| panic!("no README example with {needle:?}"));
    let command = line.split(" # ").next().unwrap_or_default();
    command
        .split_whitespace()
        .skip(1)
        .map(str::to_string)
        .collect()
}

/// What the README's comments promise for the examples issue 34 found untrue: the time-limit
/// example gives up with exit 4; the `--stats` example prints a formula's size, not zeros; a
/// Krazydad file of several boards names each by its number.
#[test]
fn the_readme_examples_keep_what_their_comments_say() {
    let args = readme_args("--time-limit 2");
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = run(&args, b"");
    let e = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(4), "{args:?}: {e}");
    assert!(e.contains("time limit of 2 s reached"), "{e}");
    let args = readme_args("--stats");
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = run(&args, b"");
    assert_eq!(o.status.code(), Some(0));
    let e = String::from_utf8_lossy(&o.stderr);
    let count = |name: &str| -> usize {
        e.lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|n| n.trim().parse().ok())
            .unwrap_or_else(|| panic!("no {name:?} in {e}"))
    };
    assert!(count("variables:") > 0 && count("clauses:") > 0, "{e}");
    // The README's Krazydad file, twice: boards 1 and 2.
    let one =
        std::fs::read_to_string(Path::new(ROOT).join("puzzles/formats/krazydad.txt")).unwrap();
    let two = format!("{one}\n{}", one.replacen("1)", "2)", 1));
    let o = run(&["--unique", "--format", "krazydad"], two.as_bytes());
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(out.contains("Board 1") && out.contains("Board 2"), "{out}");
}
