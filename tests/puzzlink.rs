//! puzz.link URLs: the example URLs of pzprjs' and cspuz's own tests, a solution reasoned out
//! by hand, round trips over the generated sets and the corpus, and refusals through the binary.

use crate::common::{read, run, shared, walk};
use bimaru_sat::format::{self, ParseErrorKind, json, puzzlink};
use bimaru_sat::{Clue, Dir, Fleet, Grid, Piece, Pos, Puzzle};
use std::path::Path;

/// pzprjs `test/script/battleship.js` (robx/pzprjs), also cspuz_core's
/// `cspuz_rs_puzzles/src/puzzles/battleship.rs` `problem_for_tests1`.
const PZPRJS_URL: &str = "https://puzz.link/p?battleship/6/6/g12h2g30g3gk0r3w//c";

/// The solution of [`PZPRJS_URL`], reasoned out from the rules, not copied from a solver:
///
/// * Counts: columns `? 1 2 ? ? 2`, rows `? 3 0 ? 3 ?`; fleet `//c` = 3 submarines, 2
///   destroyers, 1 cruiser (10 cells). Clues: (0,5) water, (3,0) a left end.
/// * Row 2 is empty. The left end at (3,0) puts a ship at (3,1); column 1 holds 1, so the rest
///   of column 1 is water. (4,0), (4,1), (4,2) touch that ship, so row 4's three cells are
///   (4,3), (4,4), (4,5): a run of three, the cruiser. Then (3,2) cannot be ship (it would touch
///   (4,3)), so (3,0)-(3,1) is a destroyer, and everything around the cruiser is water.
/// * Column 5 (2): (0,5) is water, (2,5) lies in row 2, (3,5) and (5,5) touch the cruiser, so
///   (1,5) is the other cell. Column 2 (2): (2,2), (3,2), (4,2), (5,2) are all water by now, so
///   (0,2)-(1,2) is a vertical destroyer.
/// * Row 1 (3): (1,2) and (1,5), with (1,1) and (1,3) water; (1,4) would make (1,4)-(1,5) a
///   third destroyer, so (1,0) is ship. It cannot grow into (0,0) (a third destroyer again):
///   (1,0) and (1,5) are submarines.
/// * Nine cells are placed; the last submarine must go where nothing forbids it: row 0 is full
///   ((0,0), (0,1), (0,3), (0,4) touch ships or were ruled out), and in row 5 only (5,0) is left.
///   Columns 0, 3, 4 then hold 3, 1, 1, which the unknown counts allow. Nothing was guessed, so
///   the solution is unique; pzprjs' test gives the same grid as a solution with no error.
const PZPRJS_SOLUTION: [&str; 6] = [
    "..t...", //
    "c.b..c", //
    "......", //
    "lr....", //
    "...lmr", //
    "c.....",
];

fn grid(rows: &[&str]) -> Grid {
    let rows: Vec<String> = rows.iter().map(|s| s.to_string()).collect();
    json::grid_from_rows(rows.len(), rows[0].len(), &rows).unwrap()
}

#[test]
fn the_pzprjs_test_url_has_the_solution_reasoned_by_hand() {
    let o = run(&["--unique", "--to", "json", PZPRJS_URL], b"");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let result: json::ResultJson = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(result.status, json::Status::Unique);
    let found = json::grid_from_rows(6, 6, &result.grid.unwrap()).unwrap();
    assert_eq!(found, grid(&PZPRJS_SOLUTION));
    // The same URL on standard input and in a file; the default output is the pretty drawing.
    let o = run(&["--unique"], PZPRJS_URL.as_bytes());
    assert!(o.status.success());
    assert!(
        String::from_utf8(o.stdout)
            .unwrap()
            .contains("│ ◀ ▶ · · · · │")
    );
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("p.url");
    std::fs::write(&file, format!("{PZPRJS_URL}\n")).unwrap();
    let o = run(&["--unique", "--to", "json", file.to_str().unwrap()], b"");
    assert!(o.status.success());
}

#[test]
fn the_pzprjs_and_cspuz_test_urls_decode_to_the_puzzles_their_tests_state() {
    // pzprjs test/script/battleship.js and cspuz problem_for_tests1: clues[3][0] = ShipLeft,
    // clues[0][5] = Water, columns [None, 1, 2, None, None, 2], rows [None, 3, 0, None, 3, None].
    let p = puzzlink::parse(PZPRJS_URL, &bimaru_sat::Limits::default()).unwrap();
    let mut want = Puzzle::new(
        vec![None, Some(3), Some(0), None, Some(3), None],
        vec![None, Some(1), Some(2), None, None, Some(2)],
        Fleet::from_counts(vec![3, 2, 1]),
    )
    .unwrap();
    want.add_clue(Pos::new(3, 0), Clue::Piece(Piece::End(Dir::Right)))
        .unwrap();
    want.add_clue(Pos::new(0, 5), Clue::Piece(Piece::Water))
        .unwrap();
    assert_eq!(p, want);
    assert_eq!(puzzlink::url(&p).unwrap(), PZPRJS_URL);

    // cspuz problem_for_tests2: 2x2 squares and the corner clues UpLeft (0,0), DownRight (1,1),
    // UpRight (3,1), DownLeft (4,0). Not straight ships: refused at the first corner clue.
    let e = puzzlink::parse(
        "https://puzz.link/p?battleship/2/5/m7hai89g/2/22u/22u",
        &bimaru_sat::Limits::default(),
    )
    .unwrap_err();
    assert_eq!((e.line, e.column), (1, Some(37)));
    assert!(
        matches!(e.kind, ParseErrorKind::NotStraightShips { .. }),
        "{e}"
    );

    // cspuz problem_for_tests3: four 1x3 ships and a plus pentomino. Refused at the plus...
    let url3 = "https://puzz.link/p?battleship/7/7/ti5s1i5g3g4g5i2s5i/5/31s/31s/31s/31s/33bk";
    let e = puzzlink::parse(url3, &bimaru_sat::Limits::default()).unwrap_err();
    assert_eq!(e.column, Some(url3.find("33bk").unwrap() + 1));
    assert!(
        e.to_string()
            .contains("not a straight-ship fleet: piece 33bk (3x3)")
    );
    // ... while its clues, with the four straight ships alone, decode to cspuz's statement:
    // squares (middles) at (0,3), (3,0), (3,6), (6,3); ShipUp (2,3), ShipLeft (3,2), ShipRight
    // (3,4), ShipDown (4,3); no counts.
    let straight = url3.replace("/5/31s/31s/31s/31s/33bk", "/4/31s/31s/31s/31s");
    let p = puzzlink::parse(&straight, &bimaru_sat::Limits::default()).unwrap();
    let mut want = Puzzle::new(
        vec![None; 7],
        vec![None; 7],
        Fleet::from_counts(vec![0, 0, 4]),
    )
    .unwrap();
    for (r, c, piece) in [
        (0, 3, Piece::Middle),
        (3, 0, Piece::Middle),
        (3, 6, Piece::Middle),
        (6, 3, Piece::Middle),
        (2, 3, Piece::End(Dir::Down)),
        (3, 2, Piece::End(Dir::Right)),
        (3, 4, Piece::End(Dir::Left)),
        (4, 3, Piece::End(Dir::Up)),
    ] {
        want.add_clue(Pos::new(r, c), Clue::Piece(piece)).unwrap();
    }
    assert_eq!(p, want);
    // Written back in pzprjs' own form: the bank's pieces, not a preset.
    assert_eq!(puzzlink::url(&p).unwrap(), straight);
}

/// URL -> puzzle -> URL -> puzzle for every board of every file below `dir` that some format
/// reads; returns how many boards went round.
fn round_trip_all(dir: &Path) -> usize {
    let mut boards = 0;
    for path in walk(dir) {
        let Ok(text) = String::from_utf8(read(&path)) else {
            continue;
        };
        let Ok(f) = format::detect(&text) else {
            continue;
        };
        let Ok(doc) = format::parse_document(&text, f, &bimaru_sat::Limits::default()) else {
            continue;
        };
        for board in &doc.boards {
            let url =
                puzzlink::url(&board.puzzle).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let again = puzzlink::parse(&url, &bimaru_sat::Limits::default())
                .unwrap_or_else(|e| panic!("{url}: {e}"));
            assert_eq!(again, board.puzzle, "{}", path.display());
            assert_eq!(puzzlink::url(&again).unwrap(), url);
            boards += 1;
        }
    }
    boards
}

#[test]
fn every_generated_puzzle_round_trips_through_a_url() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/generated");
    // 100 + 20 + 20 + 20 + 5 + 2 (30x30-minimal) + 5 (100x100) JSON files, and the 10x10 set
    // again as IST.
    assert_eq!(round_trip_all(&root), 272);
}

#[cfg_attr(
    no_shared,
    ignore = "needs ../shared, missing when this test was built"
)]
#[test]
fn every_corpus_puzzle_round_trips_through_a_url() {
    let Some(root) = shared("corpus") else {
        return;
    };
    // IST 227, CSC384 36, Rubin 303, solbat 39, and the later formats: demystify 14, RPI 15 (two
    // need unknown-length ships), Krazydad 12, jolyonb 12, sxchx 3.
    assert_eq!(round_trip_all(&root), 605 + 14 + 15 + 12 + 12 + 3);
}

#[test]
fn bad_urls_exit_2_with_one_line_naming_the_input_and_column() {
    let cases = [
        (
            "battleship/2/2/jj//p",
            "column 20",
            "not a straight-ship fleet",
        ),
        ("battleship/2/2/gggg7ggg//c", "column 20", "corner clue 7"),
        ("battleship/3/1/ji/1/22u", "column 21", "piece 22u"),
        ("battleship/2/2/gg", "column 18", "unexpected end of input"),
        ("battleship/2/2/gg#", "column 18", "found \"#\""),
        (
            "battleship/9999/9999/g",
            "column 12",
            "over the limit of 1000000",
        ),
        ("battleship/2x/2/g", "column 13", "the width"),
        (
            "https://puzz.link/p?battleship/2/2/jj//c/",
            "column 41",
            "the end of the URL",
        ),
    ];
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("bad.url");
    for (url, column, what) in cases {
        std::fs::write(&file, url).unwrap();
        let path = file.to_str().unwrap();
        for (args, name) in [
            (vec![url], url),
            (vec![path], path),
            (vec!["--format", "puzzlink", path], path),
            (vec!["convert", "--to", "json", path], path),
        ] {
            let o = run(&args, b"");
            assert_eq!(o.status.code(), Some(2), "{url}");
            assert!(o.stdout.is_empty());
            let err = String::from_utf8(o.stderr).unwrap();
            assert_eq!(err.lines().count(), 1, "{err}");
            assert!(
                err.contains(name)
                    && err.contains(&format!("line 1, {column}"))
                    && err.contains(what),
                "{url}: {err}"
            );
        }
    }
    // A URL holds no solution: `--to puzzlink` is refused, `convert --to puzzlink` writes one.
    let o = run(&["--to", "puzzlink", PZPRJS_URL], b"");
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("cannot express"));
    let o = run(&["convert", "--to", "puzzlink", PZPRJS_URL], b"");
    assert_eq!(
        String::from_utf8(o.stdout).unwrap(),
        format!("{PZPRJS_URL}\n")
    );
}
