//! The generator: unique and minimal puzzles (property test on small boards and a check over
//! the 10x10 set in `puzzles/`), byte-identical output per seed, and the command's errors.

use crate::common::run;
use bimaru_sat::format::{ist, json};
use bimaru_sat::usecase::generate::{
    GenerateOptions, Minimizer, Reduce, Size, generate, parse_fleet, rng_for,
};
use bimaru_sat::usecase::grade::{Grade, deduction_depth};
use bimaru_sat::{Outcome, Puzzle, SolveOptions, solve};
use proptest::prelude::*;
use std::path::Path;

/// The puzzle has exactly `solution` as its solution, and dropping any clue gives another,
/// which the independent verifier accepts. Minimality is checked, not assumed: a fresh solve
/// per clue, through the public solving API (not the generator's own checks).
fn assert_unique_and_minimal(puzzle: &Puzzle, solution: &bimaru_sat::Grid, what: &str) {
    assert_unique_and_minimal_with(puzzle, solution, what, &SolveOptions::unique());
}

/// [`assert_unique_and_minimal`] with the solver configuration `options` (limit 2).
fn assert_unique_and_minimal_with(
    puzzle: &Puzzle,
    solution: &bimaru_sat::Grid,
    what: &str,
    options: &SolveOptions,
) {
    match solve(puzzle, options).unwrap().outcome {
        Outcome::Unique(grid) => assert_eq!(&grid, solution, "{what}: wrong solution"),
        other => panic!("{what}: not unique: {other:?}"),
    }
    for (pos, _) in puzzle.clues() {
        let mut fewer = puzzle.clone();
        fewer.remove_clue(pos);
        let outcome = solve(&fewer, options).unwrap().outcome;
        let Outcome::Multiple { grids, .. } = outcome else {
            panic!("{what}: the clue at {pos} is not needed: {outcome:?}");
        };
        let other = grids
            .iter()
            .find(|g| *g != solution)
            .unwrap_or_else(|| panic!("{what}: no second grid without {pos}"));
        assert!(
            bimaru_sat::model::verify::verify(&fewer, other).is_ok(),
            "{what}: the second solution without {pos} fails the verifier"
        );
        assert!(
            bimaru_sat::model::verify::verify(puzzle, other).is_err(),
            "{what}: the second solution without {pos} satisfies the full puzzle"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn small_generated_puzzles_are_unique_and_minimal(
        rows in 4usize..=8,
        cols in 4usize..=8,
        seed in any::<u64>(),
    ) {
        let options = GenerateOptions { reduce: Reduce::Unique, ..GenerateOptions::new(Size { rows, cols }) };
        let g = generate(&options, &mut rng_for(seed, 0)).unwrap();
        prop_assert!(g.undecided.is_empty(), "no budget by default: nothing undecided");
        assert_unique_and_minimal(&g.puzzle, &g.solution, &format!("{rows}x{cols} seed {seed}"));
    }

    /// Cores are sound: the core-guided minimiser (one incremental solver, clauses dropped by
    /// failed-assumption cores) and the one-clue-at-a-time loop both give minimal sets, on the
    /// same solution (they may keep different clues).
    #[test]
    fn the_core_guided_and_one_by_one_minimisers_both_give_minimal_sets(
        rows in 5usize..=9,
        cols in 5usize..=9,
        seed in any::<u64>(),
    ) {
        let mut sets = Vec::new();
        for minimizer in [Minimizer::OneByOne, Minimizer::Cores] {
            let options = GenerateOptions {
                minimizer,
                reduce: Reduce::Unique,
                ..GenerateOptions::new(Size { rows, cols })
            };
            let g = generate(&options, &mut rng_for(seed, 0)).unwrap();
            prop_assert!(g.undecided.is_empty());
            let what = format!("{rows}x{cols} seed {seed}, {minimizer}");
            assert_unique_and_minimal(&g.puzzle, &g.solution, &what);
            sets.push(g.solution);
        }
        prop_assert_eq!(&sets[0], &sets[1], "the same seed draws the same fleet");
    }

    #[test]
    fn propagation_minimal_puzzles_are_easy_and_every_clue_is_needed(
        n in 5usize..=10,
        seed in any::<u64>(),
    ) {
        let mut options = GenerateOptions::new(Size { rows: n, cols: n });
        options.reduce = Reduce::Propagation;
        let g = generate(&options, &mut rng_for(seed, 0)).unwrap();
        prop_assert!(matches!(
            solve(&g.puzzle, &SolveOptions::unique()).unwrap().outcome,
            Outcome::Unique(ref grid) if *grid == g.solution
        ));
        prop_assert_eq!(deduction_depth(&g.puzzle, &bimaru_sat::model::deadline::Budget::default()).expect("no budget to run out").grade, Grade::Easy);
        for (pos, _) in g.puzzle.clues() {
            let mut fewer = g.puzzle.clone();
            fewer.remove_clue(pos);
            prop_assert!(deduction_depth(&fewer, &bimaru_sat::model::deadline::Budget::default()).expect("no budget to run out").grade > Grade::Easy, "clue {} not needed", pos);
        }
    }
}

#[test]
fn other_fleets_are_placed_exactly() {
    let mut options = GenerateOptions::new(Size { rows: 7, cols: 9 });
    options.fleet = parse_fleet("2x3,3x1").unwrap();
    options.reduce = Reduce::Unique;
    let g = generate(&options, &mut rng_for(3, 0)).unwrap();
    let ships = g.solution.ships();
    assert_eq!(ships.len(), 5);
    assert_eq!(ships.iter().filter(|s| s.len == 3).count(), 2);
    assert_unique_and_minimal(&g.puzzle, &g.solution, "7x9 2x3,3x1");
}

#[test]
fn clues_past_the_budget_are_reported_and_the_rest_are_needed() {
    // One conflict per check: on this 20x20 board the native search leaves four checks to the
    // solver, which cannot finish them.
    let mut options = GenerateOptions::new(Size { rows: 20, cols: 20 });
    options.budget.conflicts = Some(1);
    options.reduce = Reduce::Unique;
    let g = generate(&options, &mut rng_for(4, 0)).unwrap();
    assert!(
        !g.undecided.is_empty(),
        "a budget of one conflict is reached"
    );
    match solve(&g.puzzle, &SolveOptions::unique()).unwrap().outcome {
        Outcome::Unique(grid) => assert_eq!(grid, g.solution),
        other => panic!("not unique: {other:?}"),
    }
    let clues: Vec<_> = g.puzzle.clues().map(|(pos, _)| pos).collect();
    for pos in &g.undecided {
        assert!(clues.contains(pos), "an undecided clue {pos} is a clue");
    }
    for pos in clues.iter().filter(|p| !g.undecided.contains(p)) {
        let mut fewer = g.puzzle.clone();
        fewer.remove_clue(*pos);
        let outcome = solve(&fewer, &SolveOptions::unique()).unwrap().outcome;
        assert!(
            matches!(outcome, Outcome::Multiple { .. }),
            "the clue at {pos} is not needed"
        );
    }
    // With no limit, the same board gets a minimal set.
    options.budget.conflicts = None;
    let g = generate(&options, &mut rng_for(4, 0)).unwrap();
    assert!(g.undecided.is_empty());
    assert_unique_and_minimal(&g.puzzle, &g.solution, "20x20 seed 4, no limit");
    // The command says so on standard error, and still succeeds.
    let out = run(
        &[
            "generate",
            "--size",
            "20x20",
            "--seed",
            "4",
            "--reduce",
            "unique",
            "--max-conflicts",
            "1",
        ],
        b"",
    );
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("clue(s) undecided"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

fn repo(sub: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(sub)
}

#[test]
fn the_10x10_set_is_unique_minimal_and_its_ist_copy_agrees() {
    let dir = repo("puzzles/generated/10x10");
    let files = crate::common::files(&dir, ".json");
    assert_eq!(files.len(), 100, "the 10x10 set has 100 puzzles");
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let board = json::parse_with_solution(&text, &bimaru_sat::Limits::default()).unwrap();
        let (puzzle, solution) = (board.puzzle, board.embedded);
        let solution = solution.expect("the set stores solutions");
        let name = file.display().to_string();
        assert_unique_and_minimal(&puzzle, &solution, &name);
        // The IST copy: same puzzle, and the .out is its solution.
        let ist_text = std::fs::read_to_string(file.with_extension("txt")).unwrap();
        assert_eq!(ist::parse(&ist_text).unwrap(), puzzle, "{name}");
        let out = std::fs::read_to_string(file.with_extension("out")).unwrap();
        assert_eq!(out, ist::write_solution(&puzzle, &solution), "{name}");
    }
}

#[test]
fn the_15x15_set_is_unique_and_minimal() {
    let files = crate::common::files(&repo("puzzles/generated/15x15"), ".json");
    assert_eq!(files.len(), 20, "the 15x15 set has 20 puzzles");
    for file in files {
        let board = json::parse_with_solution(
            &std::fs::read_to_string(&file).unwrap(),
            &bimaru_sat::Limits::default(),
        )
        .unwrap();
        let solution = board.embedded.expect("the set stores solutions");
        assert_unique_and_minimal(&board.puzzle, &solution, &file.display().to_string());
    }
}

/// One exactly minimal 30x30 of the set, checked clue by clue with a fresh solve per clue
/// (seconds in release mode: proving a minimal 30x30 unique is the hard part).
#[test]
#[cfg_attr(debug_assertions, ignore = "release only: cargo test --release")]
fn a_minimal_30x30_is_unique_and_minimal() {
    let file = repo("puzzles/generated/30x30-minimal/001.json");
    let board = json::parse_with_solution(
        &std::fs::read_to_string(&file).unwrap(),
        &bimaru_sat::Limits::default(),
    )
    .unwrap();
    let solution = board.embedded.expect("the set stores solutions");
    // The placement model with totalizers proves a minimal 30x30 about three times faster.
    let options = SolveOptions {
        model: bimaru_sat::encode::sat::model::Model::Placement,
        card: bimaru_sat::encode::sat::card::CardKind::Totalizer,
        race: false,
        ..SolveOptions::unique()
    };
    assert_unique_and_minimal_with(&board.puzzle, &solution, "30x30-minimal/001", &options);
}

#[test]
fn the_readme_commands_remake_the_10x10_and_15x15_sets_byte_for_byte() {
    // The commands of puzzles/generated/*/README.md, into a scratch folder; the speculative
    // second check of the generator must not change what one-by-one checking gives.
    for (size, seed, count, to) in [
        ("10x10", "10", "100", "json"),
        ("10x10", "10", "100", "ist"),
        ("15x15", "15", "20", "json"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().to_str().unwrap();
        let args = [
            "generate", "--size", size, "--seed", seed, "--count", count, "--to", to, "--reduce",
            "unique", "--out", out,
        ];
        let made = run(&args, b"");
        assert!(
            made.status.success(),
            "{}",
            String::from_utf8_lossy(&made.stderr)
        );
        let stored = repo(&format!("puzzles/generated/{size}"));
        let new_files = crate::common::files(dir.path(), "");
        assert!(!new_files.is_empty());
        for file in new_files {
            let name = file.file_name().unwrap();
            assert_eq!(
                std::fs::read(&file).unwrap(),
                std::fs::read(stored.join(name)).unwrap(),
                "{size}/{}",
                name.to_string_lossy()
            );
        }
    }
}

#[test]
fn every_set_in_puzzles_holds_verified_solutions() {
    for (size, count) in [
        ("15x15", 20),
        ("20x20", 20),
        ("30x30", 20),
        ("50x50", 5),
        ("100x100", 5),
    ] {
        let dir = repo(&format!("puzzles/generated/{size}"));
        let files = crate::common::files(&dir, ".json");
        assert_eq!(files.len(), count, "{size}");
        assert!(dir.join("README.md").exists(), "{size} has a README");
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            let board = json::parse_with_solution(&text, &bimaru_sat::Limits::default()).unwrap();
            let (puzzle, solution) = (board.puzzle, board.embedded);
            bimaru_sat::verify(&puzzle, &solution.expect("solution stored"))
                .unwrap_or_else(|v| panic!("{}: {v}", file.display()));
        }
    }
}

#[test]
fn the_same_seed_gives_byte_identical_output() {
    let args = ["generate", "--seed", "77", "--count", "3", "--to", "json"];
    let a = run(&args, b"");
    let b = run(&args, b"");
    assert!(a.status.success(), "{}", String::from_utf8_lossy(&a.stderr));
    assert!(!a.stdout.is_empty());
    assert_eq!(a.stdout, b.stdout);
    let other = run(
        &["generate", "--seed", "78", "--count", "3", "--to", "json"],
        b"",
    );
    assert_ne!(a.stdout, other.stdout, "another seed, other puzzles");
    // IST holds one puzzle a file: several go to a folder, byte-identical again.
    let dir = tempfile::tempdir().unwrap();
    let made: Vec<Vec<Vec<u8>>> = ["77", "77", "78"]
        .iter()
        .enumerate()
        .map(|(i, seed)| {
            let out_dir = dir.path().join(i.to_string());
            let args = [
                "generate", "--seed", seed, "--count", "3", "--to", "ist", "--out",
            ];
            let o = crate::common::bin()
                .args(args)
                .arg(&out_dir)
                .output()
                .unwrap();
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            crate::common::walk(&out_dir)
                .iter()
                .map(|f| crate::common::read(f))
                .collect()
        })
        .collect();
    assert_eq!(made[0].len(), 6, "3 puzzles and 3 solutions");
    assert_eq!(made[0], made[1]);
    assert_ne!(made[0], made[2], "another seed, other puzzles");
    // Puzzle i does not depend on --count.
    let one = run(&["generate", "--seed", "5", "--size", "8x9"], b"");
    let three = run(
        &["generate", "--seed", "5", "--size", "8x9", "--count", "3"],
        b"",
    );
    // One puzzle is pretty JSON; several are JSON Lines, one compact object per line.
    let one = json::parse_all(
        std::str::from_utf8(&one.stdout).unwrap(),
        &bimaru_sat::Limits::default(),
    )
    .unwrap();
    let text = String::from_utf8(three.stdout).unwrap();
    assert_eq!(text.lines().count(), 3, "{text}");
    let three = json::parse_all(&text, &bimaru_sat::Limits::default()).unwrap();
    assert_eq!(three.len(), 3);
    assert_eq!(three[0].puzzle, one[0].puzzle);
    assert_eq!(three[0].embedded, one[0].embedded);
    assert_eq!(
        three.iter().map(|b| b.line).collect::<Vec<_>>(),
        [1, 2, 3],
        "each puzzle starts on its own line"
    );
}

#[test]
fn several_generated_puzzles_read_back_as_one_json_lines_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("set.jsonl");
    let o = run(
        &["generate", "--seed", "9", "--count", "4", "--to", "json"],
        b"",
    );
    assert!(o.status.success());
    std::fs::write(&path, &o.stdout).unwrap();
    let solved = run(&["--unique", path.to_str().unwrap()], b"");
    assert!(
        solved.status.success(),
        "{}",
        String::from_utf8_lossy(&solved.stderr)
    );
    let summary = String::from_utf8_lossy(&solved.stderr);
    assert!(
        summary.contains("4 boards: 4 unique")
            && summary.contains("4 of 4 embedded solutions found"),
        "{summary}"
    );
    // A broken second puzzle is reported on its own line.
    let first = String::from_utf8(o.stdout)
        .unwrap()
        .lines()
        .next()
        .unwrap()
        .to_string();
    std::fs::write(&path, format!("{first}\n{{\"rows\": 10, \"cols\": 10}}\n")).unwrap();
    let bad = run(&[path.to_str().unwrap()], b"");
    assert_eq!(bad.status.code(), Some(2));
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(err.contains("line 2") && err.lines().count() == 1, "{err}");
    assert!(bad.stdout.is_empty());
}

#[test]
fn out_folder_and_grade_filter() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("set");
    let o = run(
        &[
            "generate",
            "--seed",
            "4",
            "--count",
            "2",
            "--grade",
            "medium",
            "--to",
            "ist",
            "--out",
            out.to_str().unwrap(),
        ],
        b"",
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for stem in ["001", "002"] {
        let text = std::fs::read_to_string(out.join(format!("{stem}.txt"))).unwrap();
        let puzzle = ist::parse(&text).unwrap();
        assert_eq!(
            deduction_depth(&puzzle, &bimaru_sat::model::deadline::Budget::default())
                .expect("no budget to run out")
                .grade,
            Grade::Medium
        );
        assert!(out.join(format!("{stem}.out")).exists());
    }
}

#[test]
fn bad_requests_exit_2_with_one_line() {
    for args in [
        &["generate", "--size", "15x15", "--to", "ist"][..],
        &["generate", "--fleet", "4,x"][..],
        &["generate", "--size", "0x3"][..],
        &["generate", "--size", "3x3", "--fleet", "1x5"][..],
    ] {
        let o = run(args, b"");
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(o.stdout.is_empty(), "{args:?}");
        assert!(!o.stderr.is_empty(), "{args:?}");
    }
}

/// A solver this build does not link is refused up front, naming its cargo feature, by
/// `generate`, `solve` and `compare`.
#[cfg(not(feature = "cadical"))]
#[test]
fn a_solver_this_build_lacks_is_refused_with_its_feature() {
    let puzzle = repo("puzzles/ist-example.txt");
    let puzzle = puzzle.to_str().unwrap();
    for args in [
        &["generate", "--size", "6x6", "--solver", "cadical"][..],
        &["--solver", "cadical", puzzle][..],
        &["compare", "--solver", "cadical", puzzle][..],
    ] {
        let o = run(args, b"");
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(o.stdout.is_empty(), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains("cadical") && err.contains("feature"),
            "{args:?}: {err}"
        );
    }
}

/// The boards the issue named: with no budget by default, nothing is left undecided.
#[test]
#[cfg_attr(debug_assertions, ignore = "release only: cargo test --release")]
fn generate_20x20_seed_201_leaves_no_clue_undecided() {
    let o = run(
        &[
            "generate", "--size", "20x20", "--seed", "201", "--reduce", "unique",
        ],
        b"",
    );
    assert_eq!(o.status.code(), Some(0));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!err.contains("undecided"), "{err}");
    let board = json::parse_with_solution(
        &String::from_utf8_lossy(&o.stdout),
        &bimaru_sat::Limits::default(),
    )
    .unwrap();
    let solution = board.embedded.expect("generate writes the solution");
    assert_unique_and_minimal(&board.puzzle, &solution, "20x20 seed 201");
}

/// The number after `label` on the line of `text` that starts with it.
fn stat(text: &str, label: &str) -> usize {
    let line = text
        .lines()
        .find(|l| l.starts_with(label))
        .unwrap_or_else(|| panic!("no line {label:?} in {text}"));
    line[label.len()..]
        .split(|c: char| !c.is_ascii_digit())
        .find(|w| !w.is_empty())
        .and_then(|w| w.parse().ok())
        .unwrap_or_else(|| panic!("no number in {line:?}"))
}

/// `--stats` accounts for every uniqueness question: the ways they were settled and their
/// answers add up, every clue of an exactly minimal puzzle was answered "needed", and clues left
/// undecided by a conflict budget were SAT questions that ran out.
#[test]
fn generate_stats_account_for_every_question() {
    let args = [
        "generate", "--size", "20x20", "--seed", "4", "--reduce", "unique",
    ];
    for budget in [None, Some("1")] {
        let mut argv: Vec<&str> = args.to_vec();
        argv.push("--stats");
        if let Some(b) = budget {
            argv.extend(["--max-conflicts", b]);
        }
        let out = run(&argv, b"");
        assert!(out.status.success(), "{argv:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        let asked = stat(&err, "uniqueness questions:");
        let settled = stat(&err, "settled by pre-solving:")
            + stat(&err, "settled by the native search:")
            + stat(&err, "settled by SAT:");
        assert_eq!(settled, asked, "{err}");
        let answers = err
            .lines()
            .find_map(|l| l.strip_prefix("answers: "))
            .expect("an answers line");
        let numbers: Vec<usize> = answers
            .split(|c: char| !c.is_ascii_digit())
            .filter_map(|w| w.parse().ok())
            .collect();
        let [needed, removable, undecided] = numbers[..] else {
            panic!("{answers}");
        };
        assert_eq!(needed + removable + undecided, asked, "{err}");
        assert!(
            removable > 0,
            "the start set of 20x20 seed 4 loses clues: {err}"
        );
        let text = String::from_utf8_lossy(&out.stdout);
        let puzzle = json::parse(&text, &bimaru_sat::Limits::default()).unwrap();
        let clues = puzzle.clues().count();
        match budget {
            // Each clue kept was proven needed by a question.
            None => assert!(undecided == 0 && needed >= clues, "{clues} clues: {err}"),
            // One conflict: SAT questions run out, and only they.
            Some(_) => {
                assert!(
                    undecided > 0 && stat(&err, "settled by SAT:") >= undecided,
                    "{err}"
                );
                assert!(err.contains("clue(s) undecided"), "{err}");
            }
        }
        assert!(err.contains("slow question: clue ("), "{err}");
    }
    // Without --reduce unique nothing is asked.
    let out = run(
        &["generate", "--size", "10x10", "--seed", "1", "--stats"],
        b"",
    );
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stat(&err, "uniqueness questions:"), 0, "{err}");
}
