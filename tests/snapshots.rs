//! Snapshots (insta) of what people read first: every command's `--help`, and the pretty
//! drawing of the IST example's solution. A change to either shows up as a snapshot diff to
//! review (`cargo insta review`), never silently.

use crate::common::{COMMANDS, run};

#[test]
fn every_help_text_matches_its_snapshot() {
    for command in std::iter::once(&"").chain(COMMANDS) {
        let mut args: Vec<&str> = Vec::new();
        if !command.is_empty() {
            args.push(command);
        }
        args.push("--help");
        let out = run(&args, b"");
        assert!(out.status.success(), "{command} --help");
        let name = if command.is_empty() {
            "help".to_string()
        } else {
            format!("help_{command}")
        };
        insta::assert_snapshot!(name, String::from_utf8_lossy(&out.stdout));
    }
}

#[test]
fn the_pretty_drawing_matches_its_snapshot() {
    let example = include_bytes!("../puzzles/ist-example.txt");
    let out = run(&["--to", "pretty"], example);
    assert!(out.status.success());
    insta::assert_snapshot!("pretty_ist_example", String::from_utf8_lossy(&out.stdout));
}
