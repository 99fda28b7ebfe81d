//! IST corpus conformance: the seed example, the 25 official instances byte for byte, the 180
//! student instances (verified, and counted against the solution counts in SOURCES.md), and the
//! unsolvable instance.

use crate::common::{files, read, run, shared};
use bimaru_sat::format::ist;
use bimaru_sat::{Goal, Outcome, SolveOptions, solve, verify};
use std::collections::HashMap;
use std::path::Path;

fn assert_prints_out(txt: &Path, args: &[&str]) {
    let out = run(args, &read(txt));
    let expected = read(&txt.with_extension("out"));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&expected),
        "{} {args:?}: stderr {}",
        txt.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(out.status.code(), Some(0), "{}", txt.display());
    assert!(out.stderr.is_empty(), "{}", txt.display());
}

#[test]
fn seed_example_prints_the_expected_solution() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    assert_prints_out(&root.join("puzzles/ist-example.txt"), &[]);
    assert_prints_out(&root.join("puzzles/ist-example.txt"), &["--unique"]);
}

#[cfg_attr(
    no_shared,
    ignore = "needs ../shared, missing when this test was built"
)]
#[test]
fn official_instances_print_their_out_files_byte_for_byte() {
    let Some(root) = shared("corpus/ist-bimaru") else {
        return;
    };
    let mut n = 0;
    for dir in ["public", "mooshak-private"] {
        for txt in files(&root.join(dir), ".txt") {
            assert_prints_out(&txt, &[]);
            assert_prints_out(&txt, &["--backend", "sat"]);
            assert_prints_out(&txt, &["--unique"]);
            n += 1;
        }
    }
    assert_eq!(n, 25);
}

#[cfg_attr(
    no_shared,
    ignore = "needs ../shared, missing when this test was built"
)]
#[test]
fn official_instances_are_unique_without_presolving_too() {
    let Some(root) = shared("corpus/ist-bimaru") else {
        return;
    };
    for dir in ["public", "mooshak-private"] {
        for txt in files(&root.join(dir), ".txt") {
            let puzzle = ist::parse(&String::from_utf8(read(&txt)).unwrap()).unwrap();
            let options = SolveOptions {
                presolve: false,
                ..SolveOptions::unique()
            };
            let report = solve(&puzzle, &options).unwrap();
            let Outcome::Unique(grid) = report.outcome else {
                panic!("{}: not unique", txt.display())
            };
            let expected = String::from_utf8(read(&txt.with_extension("out"))).unwrap();
            assert_eq!(ist::write_solution(&puzzle, &grid), expected);
        }
    }
}

/// Solution counts from SOURCES.md ("easy: 001:6 002:1 ..."), `>=1000` read as 1000.
fn solution_counts(sources: &str) -> HashMap<String, usize> {
    let mut counts = HashMap::new();
    for line in sources.lines() {
        let line = line.trim().trim_start_matches("* ");
        for set in ["easy", "medium", "hard", "impossible"] {
            if let Some(rest) = line.strip_prefix(&format!("{set}: ")) {
                for item in rest.split_whitespace() {
                    let (id, n) = item.split_once(':').expect("id:count");
                    let n = n.trim_start_matches(">=").parse().expect("count");
                    counts.insert(format!("{set}{id}"), n);
                }
            }
        }
    }
    counts
}

#[cfg_attr(
    no_shared,
    ignore = "needs ../shared, missing when this test was built"
)]
#[test]
fn student_instances_give_verified_grids_and_the_right_uniqueness() {
    let Some(dir) = shared("corpus/ist-bimaru/student-random-set") else {
        return;
    };
    let sources = std::fs::read_to_string(dir.join("../../SOURCES.md")).unwrap();
    let counts = solution_counts(&sources);
    assert_eq!(counts.len(), 180, "SOURCES.md lists 180 counts");
    let txts: Vec<_> = files(&dir, ".txt")
        .into_iter()
        .filter(|p| !p.ends_with("Read.txt"))
        .collect();
    assert_eq!(txts.len(), 180);
    let mut multi = 0;
    for txt in txts {
        let name = txt.file_stem().unwrap().to_string_lossy().into_owned();
        let puzzle = ist::parse(&String::from_utf8(read(&txt)).unwrap()).unwrap();
        let report = solve(&puzzle, &SolveOptions::unique()).unwrap();
        for grid in report.outcome.grids() {
            verify(&puzzle, grid).unwrap();
        }
        let expected = counts[&name];
        match (&report.outcome, expected) {
            (Outcome::Unique(_), 1) => {}
            (Outcome::Multiple { grids, .. }, n) if n >= 2 => {
                assert_eq!(grids.len(), 2);
                multi += 1;
            }
            (o, n) => panic!("{name}: SOURCES.md says {n} solutions, got {o:?}"),
        }
    }
    assert!(multi > 100, "most student instances have several solutions");
}

#[cfg_attr(
    no_shared,
    ignore = "needs ../shared, missing when this test was built"
)]
#[test]
fn count_reports_at_least_two_for_multi_solution_instances() {
    let Some(dir) = shared("corpus/ist-bimaru/student-random-set") else {
        return;
    };
    // easy001 has 6 solutions, easy003 has 3, easy002 is unique (SOURCES.md).
    let out = run(&["--count", "2"], &read(&dir.join("easy001.txt")));
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.ends_with("solutions: 2 (stopped at --count 2; there may be more)\n"),
        "{stdout}"
    );
    let out = run(&["--count", "10"], &read(&dir.join("easy003.txt")));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.ends_with("solutions: 3\n"), "{stdout}");
    // Three grids of ten lines each, each followed by a blank line, then the summary.
    assert_eq!(stdout.lines().count(), 3 * 11 + 1);
    let out = run(&["--count", "5"], &read(&dir.join("easy002.txt")));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.ends_with("solutions: 1\n"), "{stdout}");
    let out = run(&["--unique"], &read(&dir.join("easy001.txt")));
    assert_eq!(out.status.code(), Some(3));
    assert!(out.stdout.is_empty());
    assert!(String::from_utf8_lossy(&out.stderr).contains("not unique"));
}

#[cfg_attr(
    no_shared,
    ignore = "needs ../shared, missing when this test was built"
)]
#[test]
fn pedrocurvo_extras_match_and_instance14_has_no_solution() {
    let Some(dir) = shared("corpus/ist-bimaru/extra-pedrocurvo") else {
        return;
    };
    let out = run(&[], &read(&dir.join("instance14.txt")));
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "<stdin>: no solution\n"
    );
    for txt in files(&dir, ".txt") {
        let name = txt.file_stem().unwrap().to_string_lossy().into_owned();
        let puzzle = ist::parse(&String::from_utf8(read(&txt)).unwrap()).unwrap();
        let report = solve(
            &puzzle,
            &SolveOptions {
                goal: Goal::Count(10),
                ..SolveOptions::default()
            },
        )
        .unwrap();
        let expected = match name.as_str() {
            "instance14" => 0,
            "instance15" => 3,
            _ => 1,
        };
        assert_eq!(report.outcome.count(), expected, "{name}");
        assert!(report.outcome.is_complete(), "{name}");
        let out = txt.with_extension("out");
        if expected == 1 && out.exists() {
            let grid = report.outcome.grid().unwrap();
            let text = String::from_utf8(read(&out)).unwrap();
            assert_eq!(
                ist::write_solution(&puzzle, grid).trim_end(),
                text.replace("\r\n", "\n").trim_end(),
                "{name}"
            );
        }
    }
}
