//! The five corpus formats added after the seed formats (RPI, demystify Essence′, Krazydad,
//! jolyonb, sxchx): every file read and solved, with the outcomes `SOURCES.md` states, the RPI
//! sample solutions compared, and detection unchanged for every other corpus file.

use crate::common::{files, read, run, shared, walk};
use bimaru_sat::format::{self, DetectError, Format, eprime, jolyonb, krazydad, rpi, sxchx};
use bimaru_sat::{Goal, Grid, Outcome, Puzzle, SolveOptions, solve, verify};
use std::path::{Path, PathBuf};

fn text(path: &Path) -> String {
    String::from_utf8(read(path)).expect("corpus files are UTF-8")
}

fn name(path: &Path) -> &str {
    path.file_name()
        .and_then(|n| n.to_str())
        .expect("UTF-8 name")
}

/// Solves with up to `limit` solutions, checking every grid found with the verifier.
fn solve_up_to(puzzle: &Puzzle, limit: usize) -> Outcome {
    let options = SolveOptions {
        goal: Goal::Count(limit),
        ..SolveOptions::default()
    };
    let outcome = solve(puzzle, &options).unwrap().outcome;
    for grid in outcome.grids() {
        verify(puzzle, grid).unwrap();
    }
    outcome
}

/// What detection gives each corpus file: the seed folders as before these formats existed
/// (their puzzles in their formats, solutions and metadata matching none), the new folders in
/// their new formats.
fn expected_detection(rel: &str, name: &str) -> Option<Format> {
    let folder = rel.split('/').next().unwrap_or("");
    match folder {
        "ist-bimaru" => (name.ends_with(".txt") && name != "Read.txt").then_some(Format::Ist),
        "csc384" => {
            (!name.contains("sol") && !name.starts_with("output")).then_some(Format::Csc384)
        }
        "csplib-014" => (name == "unsolvable_for_csplib.txt").then_some(Format::Rubin),
        "minizinc-solbat" => name.ends_with(".dzn").then_some(Format::Dzn),
        "rpi-csci1200" => name.starts_with("puzzle").then_some(Format::Rpi),
        "demystify-eprime" => Some(Format::Eprime),
        _ if rel.starts_with("misc/jolyonb-puzzles/") => Some(Format::Jolyonb),
        _ if rel.starts_with("misc/krazydad-via-mrhube/") => Some(Format::Krazydad),
        _ if rel.starts_with("misc/sxchx-heuristic/") => Some(Format::Sxchx),
        _ => panic!("a corpus folder this test does not know: {rel}"),
    }
}

#[cfg_attr(
    no_shared,
    ignore = "needs ../shared, missing when this test was built"
)]
#[test]
fn every_corpus_file_detects_as_expected() {
    let Some(root) = shared("corpus") else {
        return;
    };
    let mut checked = 0;
    for path in walk(&root) {
        let rel = path
            .strip_prefix(&root)
            .unwrap()
            .to_str()
            .unwrap()
            .to_string();
        if rel == "SOURCES.md" {
            continue;
        }
        let want = expected_detection(&rel, name(&path));
        let got = match String::from_utf8(read(&path)) {
            Ok(t) => format::detect(&t),
            // The zips and the PDF: not text, and no format.
            Err(_) => Err(DetectError::NoMatch),
        };
        match want {
            Some(f) => assert_eq!(got, Ok(f), "{rel}"),
            None => assert_eq!(got, Err(DetectError::NoMatch), "{rel}"),
        }
        checked += 1;
    }
    assert_eq!(checked, 632);
}

#[cfg_attr(
    no_shared,
    ignore = "needs ../shared, missing when this test was built"
)]
#[test]
fn rpi_puzzles_have_the_stated_solution_counts_and_the_sample_solutions() {
    let Some(dir) = shared("corpus/rpi-csci1200") else {
        return;
    };
    // SOURCES.md: solution counts of the find-all-solutions task (puzzle10: 200 or more).
    let stated = [
        ("puzzle1", 1),
        ("puzzle2", 1),
        ("puzzle3", 1),
        ("puzzle4", 1),
        ("puzzle5", 2),
        ("puzzle6", 24),
        ("puzzle6_unknowns", 24),
        ("puzzle7", 14),
        ("puzzle8", 2),
        ("puzzle9", 152),
        ("puzzle9_constraints", 1),
        ("puzzle10", 200),
        ("puzzle10_constraints", 1),
        ("puzzle_sample", 2),
        ("puzzle_sample_constraints", 1),
    ];
    for (stem, count) in stated {
        let puzzle = rpi::parse(
            &text(&dir.join(format!("{stem}.txt"))),
            &bimaru_sat::Limits::default(),
        )
        .unwrap();
        let outcome = solve_up_to(&puzzle, 200);
        assert_eq!(outcome.count(), count, "{stem}");
        assert_eq!(outcome.is_complete(), stem != "puzzle10", "{stem}");
    }
    // Ships of unknown length cannot be modelled: refused, naming the line.
    for stem in ["puzzle4_unknowns", "puzzle_sample_unknowns"] {
        let e = rpi::parse(
            &text(&dir.join(format!("{stem}.txt"))),
            &bimaru_sat::Limits::default(),
        )
        .unwrap_err();
        assert!(
            e.to_string().contains("unknown-length ships"),
            "{stem}: {e}"
        );
    }
    // The shipped outputs: every solution of the sample, and the constrained sample's one.
    let sample = rpi::parse(
        &text(&dir.join("puzzle_sample.txt")),
        &bimaru_sat::Limits::default(),
    )
    .unwrap();
    let mut all: Vec<Grid> =
        rpi::parse_solutions(&text(&dir.join("out_puzzle_sample_all.txt"))).unwrap();
    let mut found: Vec<Grid> = solve_up_to(&sample, 10)
        .grids()
        .into_iter()
        .cloned()
        .collect();
    let key = |g: &Grid| g.ship_cells();
    all.sort_by_key(key);
    found.sort_by_key(key);
    assert_eq!(found, all);
    let first = rpi::parse_solutions(&text(&dir.join("out_puzzle_sample.txt"))).unwrap();
    assert!(all.contains(&first[0]));
    let path = dir.join("puzzle_sample_constraints.txt");
    let want = text(&dir.join("out_puzzle_sample_constraints.txt"));
    let constrained = rpi::parse(&text(&path), &bimaru_sat::Limits::default()).unwrap();
    let Outcome::Unique(grid) = solve_up_to(&constrained, 2) else {
        panic!("puzzle_sample_constraints is unique");
    };
    assert_eq!(vec![grid], rpi::parse_solutions(&want).unwrap());
    // The binary prints it as the assignment's program does (the default output for RPI).
    let o = run(&["--unique", path.to_str().unwrap()], b"");
    assert!(o.status.success());
    assert_eq!(String::from_utf8(o.stdout).unwrap(), want.replace('\r', ""));
}

#[cfg_attr(
    no_shared,
    ignore = "needs ../shared, missing when this test was built"
)]
#[test]
fn demystify_params_are_all_unique() {
    let Some(dir) = shared("corpus/demystify-eprime") else {
        return;
    };
    let all: Vec<PathBuf> = walk(&dir);
    assert_eq!(all.len(), 14);
    for path in &all {
        let puzzle = eprime::parse(&text(path)).unwrap();
        assert!(
            matches!(solve_up_to(&puzzle, 2), Outcome::Unique(_)),
            "{}",
            path.display()
        );
    }
}

#[cfg_attr(
    no_shared,
    ignore = "needs ../shared, missing when this test was built"
)]
#[test]
fn krazydad_boards_are_all_unique() {
    let Some(path) = shared("corpus/misc/krazydad-via-mrhube/FreePuzzles.txt") else {
        return;
    };
    let boards = krazydad::parse(&text(&path), &bimaru_sat::Limits::default()).unwrap();
    let ids: Vec<&str> = boards.iter().filter_map(|b| b.id.as_deref()).collect();
    let want: Vec<String> = (1..=12).map(|i| i.to_string()).collect();
    assert_eq!(ids, want);
    for board in &boards {
        assert!(board.puzzle.rows() == 10 && board.puzzle.cols() == 10);
        assert!(
            matches!(solve_up_to(&board.puzzle, 2), Outcome::Unique(_)),
            "board {:?}",
            board.id
        );
    }
}

/// `grid` with a water row or column added at the bottom or the right, to `rows` x `cols`.
fn padded(grid: &Grid, rows: usize, cols: usize) -> Grid {
    let mut ship = vec![false; rows * cols];
    for r in 0..grid.rows() {
        for c in 0..grid.cols() {
            ship[r * cols + c] = grid.is_ship(bimaru_sat::Pos::new(r, c));
        }
    }
    Grid::from_ship_cells(rows, cols, &ship).unwrap()
}

#[cfg_attr(
    no_shared,
    ignore = "needs ../shared, missing when this test was built"
)]
#[test]
fn jolyonb_puzzles_have_the_stated_counts_and_the_b_files_pad_them() {
    let Some(dir) = shared("corpus/misc/jolyonb-puzzles") else {
        return;
    };
    let read_puzzle =
        |n: &str| jolyonb::parse(&text(&dir.join(n)), &bimaru_sat::Limits::default()).unwrap();
    // SOURCES.md: puzzle3/4/5 have 6/12/5 solutions, puzzle6 and puzzle7 are unique.
    for (n, count) in [
        ("puzzle3", 6),
        ("puzzle4", 12),
        ("puzzle5", 5),
        ("puzzle6", 1),
        ("puzzle7", 1),
    ] {
        assert_eq!(solve_up_to(&read_puzzle(n), 20).count(), count, "{n}");
    }
    assert_eq!(
        (read_puzzle("puzzle6").rows(), read_puzzle("puzzle6").cols()),
        (5, 3)
    );
    // puzzle1 is the Conceptis puzzle of demystify's solitaire_battleship_conceptis_1 (unique).
    if let Some(param) =
        shared("corpus/demystify-eprime/instances/solitaire_battleship_conceptis_1.param")
    {
        assert_eq!(
            read_puzzle("puzzle1"),
            eprime::parse(&text(&param)).unwrap()
        );
    }
    // Each `b` file is its puzzle with one more empty line: the same solutions, padded.
    for n in 1..=5 {
        let (a, b) = (
            read_puzzle(&format!("puzzle{n}")),
            read_puzzle(&format!("puzzle{n}b")),
        );
        assert_eq!(a.rows() + a.cols() + 1, b.rows() + b.cols(), "puzzle{n}b");
        let mut small: Vec<Grid> = solve_up_to(&a, 20)
            .grids()
            .into_iter()
            .map(|g| padded(g, b.rows(), b.cols()))
            .collect();
        let mut big: Vec<Grid> = solve_up_to(&b, 20).grids().into_iter().cloned().collect();
        small.sort_by_key(Grid::ship_cells);
        big.sort_by_key(Grid::ship_cells);
        assert_eq!(small, big, "puzzle{n}b");
    }
}

#[cfg_attr(
    no_shared,
    ignore = "needs ../shared, missing when this test was built"
)]
#[test]
fn sxchx_files_have_several_solutions() {
    let Some(dir) = shared("corpus/misc/sxchx-heuristic") else {
        return;
    };
    // SOURCES.md: no hints; 2 or more solutions, 1000 or more for 10x10 and 15x15.
    for path in files(&dir, ".txt") {
        let puzzle = sxchx::parse(&text(&path), &bimaru_sat::Limits::default()).unwrap();
        assert_eq!(puzzle.clue_count(), 0);
        let n = puzzle.rows();
        let limit = if n >= 10 { 1000 } else { 2 };
        let outcome = solve_up_to(&puzzle, limit);
        assert_eq!(outcome.count(), limit, "{}", path.display());
    }
}

#[test]
fn malformed_files_of_the_new_formats_get_one_line_naming_file_and_line() {
    let tmp = tempfile::tempdir().unwrap();
    let cases = [
        (
            "bad.rpi",
            "rpi",
            "board 1 2\nrows 1\ncols 1 0\nconstraint 0 1 #\n",
            "line 4, column 16",
        ),
        (
            "bad.param",
            "eprime",
            "letting row_tallies be [1,\n",
            "line 1",
        ),
        (
            "bad.kd",
            "krazydad",
            "1)\n. # .\n{1}\n{0,1,0}\n",
            "line 2, column 3",
        ),
        (
            "bad.jb",
            "jolyonb",
            "1, 1\n1, 1\n1\n2, 0, o\n",
            "line 4, column 1",
        ),
        ("bad.sx", "sxchx", "3\n1 1\n1 1\n", "line 1, column 1"),
    ];
    for (file_name, fmt, body, line) in cases {
        let file = tmp.path().join(file_name);
        std::fs::write(&file, body).unwrap();
        let path = file.to_str().unwrap();
        for args in [vec!["--format", fmt, path], vec![path]] {
            let o = run(&args, b"");
            assert_eq!(o.status.code(), Some(2), "{file_name}");
            assert!(o.stdout.is_empty());
            let err = String::from_utf8(o.stderr).unwrap();
            assert_eq!(err.lines().count(), 1, "{err}");
            assert!(
                err.contains(file_name) && err.contains(line),
                "{file_name}: {err}"
            );
        }
    }
}

#[cfg_attr(
    no_shared,
    ignore = "needs ../shared, missing when this test was built"
)]
#[test]
fn the_binary_reads_every_file_of_the_five_formats() {
    let Some(root) = shared("corpus") else {
        return;
    };
    let mut read_files = 0;
    for folder in [
        "rpi-csci1200",
        "demystify-eprime",
        "misc/krazydad-via-mrhube",
        "misc/jolyonb-puzzles",
        "misc/sxchx-heuristic",
    ] {
        for path in walk(&root.join(folder)) {
            let file = name(&path);
            if file.starts_with("out_") {
                continue; // RPI's sample solutions, compared below
            }
            let o = run(&[path.to_str().unwrap()], b"");
            let err = String::from_utf8_lossy(&o.stderr);
            if file.contains("unknowns") && file != "puzzle6_unknowns.txt" {
                // Ships of unknown length: refused, naming the file and the line.
                assert_eq!(o.status.code(), Some(2), "{file}: {err}");
                assert!(err.contains(file) && err.contains("line"), "{err}");
                continue;
            }
            assert_eq!(o.status.code(), Some(0), "{file}: {err}");
            assert!(!o.stdout.is_empty(), "{file}");
            read_files += 1;
        }
    }
    // 15 RPI puzzles, 14 parameter files, the Krazydad file, 12 jolyonb and 3 sxchx files.
    assert_eq!(read_files, 15 + 14 + 1 + 12 + 3);
}

/// The solution blocks of an RPI output (`Solution:` ... up to a blank line), sorted.
fn rpi_solutions(text: &str) -> Vec<String> {
    let mut blocks: Vec<String> = text
        .replace('\r', "")
        .split("\n\n")
        .map(|b| b.trim().to_string())
        .filter(|b| b.starts_with("Solution:"))
        .map(|b| {
            // The last block carries the count line after it.
            b.lines()
                .take_while(|l| !l.starts_with("Found ") && !l.starts_with("solutions:"))
                .collect::<Vec<_>>()
                .join("\n")
        })
        .collect();
    blocks.sort();
    blocks
}

#[cfg_attr(
    no_shared,
    ignore = "needs ../shared, missing when this test was built"
)]
#[test]
fn rpi_count_prints_the_shipped_solutions_as_the_homework_does() {
    let Some(dir) = shared("corpus/rpi-csci1200") else {
        return;
    };
    let sample = dir.join("puzzle_sample.txt");
    let o = run(&["--count", "10", sample.to_str().unwrap()], b"");
    assert_eq!(o.status.code(), Some(0));
    let printed = String::from_utf8(o.stdout).unwrap();
    assert!(printed.ends_with("solutions: 2\n"), "{printed}");
    let shipped = text(&dir.join("out_puzzle_sample_all.txt"));
    assert_eq!(rpi_solutions(&printed), rpi_solutions(&shipped));
    assert_eq!(rpi_solutions(&printed).len(), 2);
    // The one-solution output is one of them.
    let one = rpi_solutions(&text(&dir.join("out_puzzle_sample.txt")));
    assert_eq!(one.len(), 1);
    assert!(rpi_solutions(&printed).contains(&one[0]));
}
