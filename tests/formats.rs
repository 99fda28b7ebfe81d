//! Every seed format on its corpus (CSC384, Rubin, solbat), general boards, unknown counts,
//! detection, `--to`, batch mode and convert, through the library and the binary.

use crate::common::{files, read, run, shared};
use bimaru_sat::format::{self, Format, csc384, dzn, json, rubin};
use bimaru_sat::usecase::solve::{SatSetup, SolvedBy};
use bimaru_sat::usecase::{CardKind, Model};
use bimaru_sat::{Goal, Grid, Outcome, Puzzle, SolveOptions, solve, verify};
use std::path::Path;

fn text(path: &Path) -> String {
    String::from_utf8(read(path)).expect("corpus files are UTF-8")
}

/// Text without CR and without trailing newlines: the comparison the acceptance allows.
fn normal(s: &str) -> String {
    s.replace('\r', "").trim_end_matches('\n').to_string()
}

fn path_str(p: &Path) -> &str {
    p.to_str().expect("UTF-8 path")
}

#[cfg_attr(
    no_shared,
    ignore = "needs ../shared, missing when this test was built"
)]
#[test]
fn csc384_v1_and_v2_outputs_equal_the_official_solutions() {
    let Some(root) = shared("corpus/csc384") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let mut checked = 0;
    for edition in ["v1-letters", "v2-symbols"] {
        for input in files(&root.join(edition), ".txt") {
            let name = input.file_name().unwrap().to_str().unwrap().to_string();
            let Some(rest) = name.strip_prefix("input_") else {
                continue;
            };
            let out = tmp.path().join(format!("{edition}-{rest}"));
            let o = run(
                &["--format", "csc384", path_str(&input), path_str(&out)],
                b"",
            );
            assert!(
                o.status.success(),
                "{name}: {}",
                String::from_utf8_lossy(&o.stderr)
            );
            assert!(o.stdout.is_empty(), "{name}: output goes to the file only");
            let want = text(&input.with_file_name(format!("solution_{rest}")));
            assert_eq!(normal(&text(&out)), normal(&want), "{edition}/{name}");
            checked += 1;
        }
    }
    assert_eq!(checked, 15);
}

#[cfg_attr(
    no_shared,
    ignore = "needs ../shared, missing when this test was built"
)]
#[test]
fn csc384_v3_carrier_solutions_are_valid_and_unique() {
    let Some(dir) = shared("corpus/csc384/v3-carriers") else {
        return;
    };
    let inputs: Vec<_> = files(&dir, ".txt")
        .into_iter()
        .filter(|p| {
            !p.file_name()
                .unwrap()
                .to_str()
                .unwrap()
                .starts_with("output_")
        })
        .collect();
    assert_eq!(inputs.len(), 8);
    let tmp = tempfile::tempdir().unwrap();
    for input in inputs {
        let body = text(&input);
        let puzzle = csc384::parse(&body, &bimaru_sat::Limits::default())
            .map(|(p, _)| p)
            .unwrap();
        // The carrier edition's fleet line has five digits (carriers last, often 0).
        assert_eq!(body.lines().nth(2).map(str::trim).map(str::len), Some(5));
        let out = tmp.path().join("out.txt");
        let o = run(&["--unique", path_str(&input), path_str(&out)], b"");
        assert!(
            o.status.success(),
            "{}: {}",
            input.display(),
            String::from_utf8_lossy(&o.stderr)
        );
        // Read the written file back as a grid and check it with the verifier.
        let rows: Vec<String> = text(&out)
            .lines()
            .map(|l| l.chars().map(csc_to_json).collect())
            .collect();
        let grid = json::grid_from_rows(puzzle.rows(), puzzle.cols(), &rows).unwrap();
        verify(&puzzle, &grid).unwrap_or_else(|v| panic!("{}: {v}", input.display()));
    }
}

fn csc_to_json(c: char) -> char {
    csc384::Dialect::piece_of(c).map_or('?', |(p, _)| piece_char(p))
}

fn piece_char(p: bimaru_sat::Piece) -> char {
    use bimaru_sat::{Dir, Piece};
    match p {
        Piece::Water => '.',
        Piece::Submarine => 'c',
        Piece::Middle => 'm',
        Piece::End(Dir::Down) => 't',
        Piece::End(Dir::Up) => 'b',
        Piece::End(Dir::Right) => 'l',
        Piece::End(Dir::Left) => 'r',
    }
}

#[cfg_attr(
    no_shared,
    ignore = "needs ../shared, missing when this test was built"
)]
#[test]
fn all_rubin_boards_are_unique_and_equal_their_embedded_solution() {
    let Some(path) = shared("corpus/csplib-014/SBInstances/unsolvable_for_csplib.txt") else {
        return;
    };
    let boards = rubin::parse(&text(&path), &bimaru_sat::Limits::default()).unwrap();
    assert_eq!(boards.len(), 303);
    for board in &boards {
        let id = board.id.as_deref().unwrap();
        let report = solve(&board.puzzle, &SolveOptions::unique()).unwrap();
        let Outcome::Unique(grid) = &report.outcome else {
            panic!("board {id}: {:?}", report.outcome);
        };
        assert_eq!(Some(grid), board.embedded.as_ref(), "board {id}");
    }
}

#[cfg_attr(
    no_shared,
    ignore = "needs ../shared, missing when this test was built"
)]
#[test]
fn rubin_file_reports_every_board_by_id_through_the_cli() {
    let Some(path) = shared("corpus/csplib-014/SBInstances/unsolvable_for_csplib.txt") else {
        return;
    };
    let o = run(&["--unique", "--to", "json", path_str(&path)], b"");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let lines: Vec<json::ResultJson> = String::from_utf8(o.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 303);
    assert!(lines.iter().all(|r| r.status == json::Status::Unique));
    assert!(lines.iter().all(|r| r.matches_embedded == Some(true)));
    assert_eq!(lines[0].board.as_deref(), Some("113"));
    let stderr = String::from_utf8(o.stderr).unwrap();
    assert!(stderr.contains("303 boards: 303 unique"), "{stderr}");
    assert!(
        stderr.contains("303 of 303 embedded solutions found"),
        "{stderr}"
    );
}

#[cfg_attr(
    no_shared,
    ignore = "needs ../shared, missing when this test was built"
)]
#[test]
fn solbat_cli_counts_two_and_exits_1_when_unsat() {
    let Some(dir) = shared("corpus/minizinc-solbat") else {
        return;
    };
    let o = run(
        &["--count", "2", path_str(&dir.join("sb_12_12_5_0.dzn"))],
        b"",
    );
    assert!(o.status.success());
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(
        out.ends_with("solutions: 2 (stopped at --count 2; there may be more)\n"),
        "{out}"
    );
    // Two drawings in the model's own output style: 12 rows with sums, then the column sums.
    assert_eq!(
        out.lines().filter(|l| l.ends_with("173371145090")).count(),
        2,
        "{out}"
    );
    let o = run(&[path_str(&dir.join("sb_13_13_5_5.dzn"))], b"");
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.is_empty());
    assert!(String::from_utf8_lossy(&o.stderr).contains("no solution"));
}

#[cfg_attr(
    no_shared,
    ignore = "needs ../shared, missing when this test was built"
)]
#[test]
fn the_portfolio_is_deterministic_and_agrees_with_the_lone_configuration() {
    let Some(dir) = shared("corpus/minizinc-solbat") else {
        return;
    };
    // The default configuration alone needs tens of thousands of conflicts here, more than
    // its solo budget, so this file's calls go to the portfolio.
    let puzzle = dzn::parse(&text(&dir.join("sb_13_13_5_2.dzn"))).unwrap();
    let raced = |threads| SolveOptions {
        goal: Goal::Count(3),
        threads,
        ..SolveOptions::default()
    };
    let first = solve(&puzzle, &raced(1)).unwrap();
    assert!(
        matches!(first.stats.model, SolvedBy::Member { .. }),
        "the portfolio did not answer: {}",
        first.stats.model
    );
    assert_eq!(first.outcome.count(), 3);
    for grid in first.outcome.grids() {
        verify(&puzzle, grid).unwrap();
    }
    // The grids are the specialist's, never chosen by the clock: the same grids, in the same
    // order, every time and with any number of threads, whatever the threads did.
    for threads in [1, 2, 3, 4] {
        let again = solve(&puzzle, &raced(threads)).unwrap();
        assert_eq!(again.outcome, first.outcome, "{threads} threads");
    }
    // Without the race, the chosen configuration finds its own (verified) solutions.
    let alone = solve(
        &puzzle,
        &SolveOptions {
            race: false,
            ..SolveOptions::default()
        },
    )
    .unwrap();
    assert_eq!(
        alone.stats.model,
        SolvedBy::Sat(SatSetup {
            model: Model::Cell,
            card: CardKind::Seq
        })
    );
    assert_eq!(alone.outcome.count(), 1);
    for grid in alone.outcome.grids() {
        verify(&puzzle, grid).unwrap();
    }
}

#[cfg_attr(
    no_shared,
    ignore = "needs ../shared, missing when this test was built"
)]
#[test]
fn a_set_stop_flag_interrupts_the_sat_search() {
    let Some(dir) = shared("corpus/minizinc-solbat") else {
        return;
    };
    // No clues: pre-solving cannot decide this board, so the answer needs varisat's search.
    let puzzle = dzn::parse(&text(&dir.join("sb_13_13_5_2.dzn"))).unwrap();
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let options = SolveOptions {
        budget: bimaru_sat::model::deadline::Budget::default().stopped_by(stop),
        ..SolveOptions::default()
    };
    assert!(matches!(
        solve(&puzzle, &options),
        Err(bimaru_sat::usecase::solve::SolveError::Interrupted)
    ));
}

/// A 7x12 board with a length-6 ship, drawn as JSON rows.
const WIDE: [&str; 7] = [
    "lmmmmr...t..",
    ".........m..",
    "c..t.....b..",
    "...m........",
    "...b..lmmmmr",
    "c...........",
    "..lr....lmr.",
];

fn wide() -> (Puzzle, Grid) {
    let rows: Vec<String> = WIDE.iter().map(|s| s.to_string()).collect();
    let grid = json::grid_from_rows(7, 12, &rows).unwrap();
    let mut counts = vec![0; 6];
    for ship in grid.ships() {
        counts[ship.len - 1] += 1;
    }
    let mut puzzle = Puzzle::new(
        (0..7).map(|r| Some(grid.row_total(r))).collect(),
        (0..12).map(|c| Some(grid.col_total(c))).collect(),
        bimaru_sat::Fleet::from_counts(counts),
    )
    .unwrap();
    puzzle
        .add_clue(
            bimaru_sat::Pos::new(0, 0),
            bimaru_sat::Clue::Piece(grid.get(bimaru_sat::Pos::new(0, 0))),
        )
        .unwrap();
    verify(&puzzle, &grid).unwrap();
    (puzzle, grid)
}

#[test]
fn a_7x12_board_with_length_6_ships_solves_in_every_format_that_can_express_it() {
    let (puzzle, grid) = wide();
    assert_eq!(puzzle.fleet().count(6), 2);
    let tmp = tempfile::tempdir().unwrap();
    let texts = [
        ("json", json::write_puzzle(&puzzle, None)),
        (
            "rubin",
            rubin::write_board("wide", &puzzle, Some(&grid)).unwrap(),
        ),
        ("dzn", dzn::write_puzzle(&puzzle).unwrap()),
    ];
    for (name, body) in texts {
        let file = tmp.path().join(format!("wide.{name}"));
        std::fs::write(&file, &body).unwrap();
        assert_eq!(
            format::detect(&body),
            Ok(match name {
                "json" => Format::Json,
                "rubin" => Format::Rubin,
                _ => Format::Dzn,
            })
        );
        let o = run(&["--to", "json", path_str(&file)], b"");
        assert!(
            o.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let out = String::from_utf8(o.stdout).unwrap();
        let result: json::ResultJson = serde_json::from_str(out.lines().next().unwrap_or(""))
            .or_else(|_| serde_json::from_str(&out))
            .unwrap();
        let found = json::grid_from_rows(7, 12, &result.grid.unwrap()).unwrap();
        verify(&puzzle, &found).unwrap();
        // The default output (the input's own format) works too.
        let o = run(&[path_str(&file)], b"");
        assert!(o.status.success(), "{name}");
    }
    // CSC384 (square boards) and IST (10x10) cannot express it: a usage error, exit 2.
    assert!(matches!(
        csc384::write_puzzle(&puzzle, csc384::Dialect::Symbols),
        Err(bimaru_sat::format::Inexpressible { .. })
    ));
    let file = tmp.path().join("wide.json");
    for to in ["csc384", "ist"] {
        let o = run(&["--to", to, path_str(&file)], b"");
        assert_eq!(o.status.code(), Some(2), "{to}");
        assert!(String::from_utf8_lossy(&o.stderr).contains("cannot express"));
        let o = run(&["convert", "--to", to, path_str(&file)], b"");
        assert_eq!(o.status.code(), Some(2), "{to}");
    }
}

#[test]
fn unknown_counts_solve_end_to_end() {
    // CSC384 `?` (an extension) and JSON `null`.
    let csc = "1?0\n?01\n1\n000\n000\n000\n";
    let o = run(&["--format", "csc384", "--count", "9"], csc.as_bytes());
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8(o.stdout).unwrap();
    // No cell shows the dialect and the fleet line has one digit: letters, as the 2022-23
    // handout, and a note on stderr says so.
    assert!(String::from_utf8_lossy(&o.stderr).contains("--cells"));
    // One submarine in row 0 and column 2, or (?,?) cells elsewhere: row 0 col 2 is forced.
    assert!(out.starts_with("WWS\nWWW\nWWW\n"), "{out}");
    assert!(out.ends_with("solutions: 1\n"), "{out}");
    let puzzle = csc384::parse(csc, &bimaru_sat::Limits::default())
        .map(|(p, _)| p)
        .unwrap();
    let json_text = json::write_puzzle(&puzzle, None);
    assert!(json_text.contains("null"));
    let o = run(
        &["--to", "csc384", "--cells", "letters"],
        json_text.as_bytes(),
    );
    assert!(o.status.success());
    assert_eq!(String::from_utf8(o.stdout).unwrap(), "WWS\nWWW\nWWW\n");
}

#[test]
fn ambiguous_or_unknown_input_asks_for_format() {
    let o = run(&[], b"ROW 1\nSTART-NEW-BOARD 1 1\n");
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(err.contains("<stdin>") && err.contains("--format"), "{err}");
    assert_eq!(err.lines().count(), 1);
    let o = run(&[], b"WLMRWS\n");
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn malformed_files_get_one_line_naming_file_and_line() {
    let tmp = tempfile::tempdir().unwrap();
    let cases = [
        (
            "bad.csc",
            "csc384",
            "11\n11\n1\n0X\n00\n",
            "line 4, column 2",
        ),
        (
            "bad.rubin",
            "rubin",
            "START-NEW-BOARD 2 2\nHint: 0 0 Boat\n",
            "line 2, column 11",
        ),
        ("bad.dzn", "dzn", "rowsum = [1];\ncolsum = [1]\n", "line 2"),
        (
            "bad.json",
            "json",
            "{\n\"rows\": 1,\n\"cols\": 2,\n\"row_counts\": [1],\n\"col_counts\": [1],\n\"fleet\": {}\n}",
            "line 5",
        ),
        ("bad.ist", "ist", "ROW 1 2\n", "line 1"),
    ];
    for (name, fmt, body, line) in cases {
        let file = tmp.path().join(name);
        std::fs::write(&file, body).unwrap();
        for args in [
            vec!["--format", fmt, path_str(&file)],
            vec![path_str(&file)],
        ] {
            let o = run(&args, b"");
            assert_eq!(o.status.code(), Some(2), "{name}");
            assert!(o.stdout.is_empty());
            let err = String::from_utf8(o.stderr).unwrap();
            assert_eq!(err.lines().count(), 1, "{err}");
            assert!(err.contains(name) && err.contains(line), "{name}: {err}");
        }
    }
}

#[cfg_attr(
    no_shared,
    ignore = "needs ../shared, missing when this test was built"
)]
#[test]
fn to_changes_the_output_format() {
    let Some(input) = shared("corpus/csc384/v1-letters/input_hard1.txt") else {
        return;
    };
    let ist = run(&["--to", "ist", path_str(&input)], b"");
    assert!(ist.status.success());
    let csc = run(&[path_str(&input)], b"");
    let sol = text(&input.with_file_name("solution_hard1.txt"));
    assert_eq!(
        normal(&String::from_utf8(csc.stdout).unwrap()),
        normal(&sol)
    );
    // IST: hinted cells upper case, others lower case, water `.`.
    let ist = String::from_utf8(ist.stdout).unwrap();
    assert_eq!(ist.lines().count(), 10);
    let pretty = run(&["--to", "pretty", path_str(&input)], b"");
    let pretty = String::from_utf8(pretty.stdout).unwrap();
    assert!(pretty.contains('┌') && pretty.contains('◀'), "{pretty}");
    let symbols = run(&["--cells", "symbols", path_str(&input)], b"");
    let symbols = String::from_utf8(symbols.stdout).unwrap();
    assert_eq!(
        symbols
            .replace('.', "W")
            .replace('<', "L")
            .replace('>', "R")
            .replace('^', "T")
            .replace('v', "B"),
        normal(&sol) + "\n"
    );
}

#[cfg_attr(
    no_shared,
    ignore = "needs ../shared, missing when this test was built"
)]
#[test]
fn batch_gives_one_json_line_per_board_and_a_summary() {
    let Some(dir) = shared("corpus/csc384/v1-letters") else {
        return;
    };
    let o = run(&["batch", "--unique", path_str(&dir)], b"");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let results: Vec<json::ResultJson> = String::from_utf8(o.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // The six inputs; the six solution files hold solved grids and are skipped.
    assert_eq!(results.len(), 6);
    for r in &results {
        assert_eq!(r.status, json::Status::Unique, "{:?}", r.file);
        assert!(r.file.as_deref().unwrap().contains("input_"));
        assert!(r.stats.is_some());
    }
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(
        err.contains("6 files, 6 boards: 6 unique") && err.contains("6 solution files skipped"),
        "{err}"
    );
    // Named files that cannot be read are reported, and the run exits 2.
    let o = run(
        &[
            "batch",
            path_str(&dir.join("solution_easy1.txt")),
            path_str(&dir.join("input_easy1.txt")),
        ],
        b"",
    );
    assert_eq!(o.status.code(), Some(2));
    let out = String::from_utf8(o.stdout).unwrap();
    assert_eq!(out.lines().count(), 2);
    assert!(out.lines().next().unwrap().contains("\"status\":\"error\""));
}

#[cfg_attr(
    no_shared,
    ignore = "needs ../shared, missing when this test was built"
)]
#[test]
fn batch_over_the_solbat_folder_skips_metadata_and_stops_boards_at_the_time_limit() {
    let Some(dir) = shared("corpus/minizinc-solbat") else {
        return;
    };
    let results = |o: &std::process::Output| -> Vec<json::ResultJson> {
        String::from_utf8(o.stdout.clone())
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    // The `KEY=value` .metadata files are of no known format: skipped, not errors. The unsat
    // file makes the run exit 1. Results come in file order although files run in parallel.
    let o = run(&["batch", path_str(&dir)], b"");
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let all = results(&o);
    assert_eq!(all.len(), 39);
    let files: Vec<&str> = all.iter().map(|r| r.file.as_deref().unwrap()).collect();
    let mut sorted = files.clone();
    sorted.sort();
    assert_eq!(files, sorted);
    assert_eq!(
        all.iter()
            .filter(|r| r.status == json::Status::Unsat)
            .count(),
        1
    );
    assert!(all.iter().all(|r| r.status != json::Status::Error));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("32 files of unknown format skipped"), "{err}");
    // A limit reached at once stops every board: status `timeout`, exit 4, and the batch still
    // reports every file. (A zero limit is a usage error.)
    let o = run(
        &[
            "batch",
            "--time-limit",
            "1e-9",
            path_str(&dir.join("sb_13_13_5_2.dzn")),
            path_str(&dir.join("sb_12_12_5_0.dzn")),
        ],
        b"",
    );
    assert_eq!(o.status.code(), Some(4));
    let two = results(&o);
    assert_eq!(two.len(), 2);
    for r in &two {
        assert_eq!(r.status, json::Status::Timeout, "{:?}", r.file);
        assert!(r.error.as_deref().unwrap().contains("time limit"));
        assert!(r.grid.is_none());
    }
    assert!(String::from_utf8_lossy(&o.stderr).contains("2 boards hit the time limit"));
}

#[cfg_attr(
    no_shared,
    ignore = "needs ../shared, missing when this test was built"
)]
#[test]
fn convert_round_trips_a_corpus_puzzle() {
    let Some(input) = shared("corpus/csc384/v2-symbols/input_hard2.txt") else {
        return;
    };
    let o = run(&["convert", "--to", "json", path_str(&input)], b"");
    assert!(o.status.success());
    let o = run(&["convert", "--to", "csc384"], &o.stdout);
    assert!(o.status.success());
    let back = String::from_utf8(o.stdout).unwrap();
    assert_eq!(
        csc384::parse(&back, &bimaru_sat::Limits::default())
            .map(|(p, _)| p)
            .unwrap(),
        csc384::parse(&text(&input), &bimaru_sat::Limits::default())
            .map(|(p, _)| p)
            .unwrap()
    );
}

#[cfg_attr(
    no_shared,
    ignore = "needs ../shared, missing when this test was built"
)]
#[test]
fn rubin_corpus_boards_round_trip_through_the_writer() {
    let Some(path) = shared("corpus/csplib-014/SBInstances/unsolvable_for_csplib.txt") else {
        return;
    };
    let boards = rubin::parse(&text(&path), &bimaru_sat::Limits::default()).unwrap();
    let mut all = String::new();
    for (i, b) in boards.iter().enumerate() {
        if i > 0 {
            all.push_str("====\n");
        }
        let id = b.id.as_deref().unwrap();
        all.push_str(&rubin::write_board(id, &b.puzzle, b.embedded.as_ref()).unwrap());
    }
    let again = rubin::parse(&all, &bimaru_sat::Limits::default()).unwrap();
    assert_eq!(again.len(), boards.len());
    for (a, b) in again.iter().zip(&boards) {
        assert_eq!(
            (&a.id, &a.puzzle, &a.embedded),
            (&b.id, &b.puzzle, &b.embedded)
        );
    }
}

#[test]
fn puzzles_formats_holds_one_puzzle_in_every_format() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let board = json::parse_with_solution(
        &text(&root.join("puzzles/generated/10x10/001.json")),
        &bimaru_sat::Limits::default(),
    )
    .unwrap();
    let (want, solution) = (board.puzzle, board.embedded.expect("a stored solution"));
    let cases = [
        ("csc384.txt", Format::Csc384),
        ("essence.param", Format::Eprime),
        ("ist.txt", Format::Ist),
        ("jolyonb.txt", Format::Jolyonb),
        ("krazydad.txt", Format::Krazydad),
        ("puzzle.json", Format::Json),
        ("puzzlink.url", Format::Puzzlink),
        ("rpi.txt", Format::Rpi),
        ("rubin.txt", Format::Rubin),
        ("solbat.dzn", Format::Dzn),
        ("sxchx.txt", Format::Sxchx),
    ];
    let dir = root.join("puzzles/formats");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != "README.md")
        .collect();
    names.sort();
    assert_eq!(names, cases.map(|(n, _)| n.to_string()));
    for (name, want_format) in cases {
        let source =
            bimaru_sat::usecase::Source::read(&dir.join(name), &bimaru_sat::Limits::default())
                .unwrap();
        assert_eq!(format::detect(&source.text), Ok(want_format), "{name}");
        let doc = source
            .document(Format::Auto, &bimaru_sat::Limits::default())
            .unwrap();
        assert_eq!(doc.boards.len(), 1, "{name}");
        let puzzle = &doc.boards[0].puzzle;
        if want_format == Format::Sxchx {
            // No hints in this format: the same board without its clue, and several solutions.
            assert_eq!(puzzle.clue_count(), 0);
            assert_eq!(puzzle.row_counts(), want.row_counts());
            assert_eq!(puzzle.col_counts(), want.col_counts());
            assert_eq!(puzzle.fleet(), want.fleet());
            verify(puzzle, &solution).unwrap();
            continue;
        }
        assert_eq!(*puzzle, want, "{name}");
        let options = SolveOptions {
            goal: Goal::Count(2),
            ..SolveOptions::default()
        };
        let Outcome::Unique(grid) = solve(puzzle, &options).unwrap().outcome else {
            panic!("{name} is unique");
        };
        assert_eq!(grid, solution, "{name}");
    }
}
