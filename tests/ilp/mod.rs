//! The ILP backend: byte-exact IST output with both models, agreement with SAT on the Rubin
//! (CSPLib 014) and CSC384 boards, the size formulas of `encodings/ilp-*.md`, solution counting
//! by no-good cuts. The corpus-wide runs (50 Rubin boards, the LP export → cbc → decode round
//! trip on the IST instances, the solbat boards) are in the long suite (`tests/long/ilp.rs`).

use crate::common::{files, read, run, shared};
use bimaru_sat::encode::ilp::{IlpModel, IlpSolver, LinearModel};
use bimaru_sat::model::geometry::caps;
use bimaru_sat::model::placement::Placements;
use bimaru_sat::model::puzzle::{Clue, Dir, Fleet, Grid, Orientation, Piece, Pos, Puzzle, Ship};
use bimaru_sat::{Goal, Outcome, SolveOptions, format::ist, solve};
use proptest::prelude::*;
use std::process::Command;

mod support;
use strum::VariantArray;
use support::{ilp, ist_official, out_of, solbat, solvers};

#[test]
fn ist_official_instances_print_the_out_files_with_both_models() {
    let instances = ist_official();
    for path in &instances {
        let expected = read(&out_of(path));
        for model in ["ship", "cell"] {
            for solver in solvers() {
                let p = path.to_str().unwrap();
                let out = run(
                    &[
                        "--backend",
                        "ilp",
                        "--ilp-model",
                        model,
                        "--ilp-solver",
                        solver.into(),
                        "--unique",
                        p,
                    ],
                    b"",
                );
                assert_eq!(out.status.code(), Some(0), "{p} {model} {solver:?}");
                assert_eq!(
                    String::from_utf8_lossy(&out.stdout),
                    String::from_utf8_lossy(&expected),
                    "{p} with the {model} model under {solver:?}"
                );
            }
        }
    }
}

fn ship_cells(grid: &Grid) -> Vec<Vec<bool>> {
    (0..grid.rows())
        .map(|r| {
            (0..grid.cols())
                .map(|c| grid.is_ship(Pos::new(r, c)))
                .collect()
        })
        .collect()
}

/// A CSC384 `battle.py` input: row counts, column counts, fleet counts (digit strings), then
/// the board with `0` for unknown; v1 letters `S W L R T B M`, v2 symbols `S . < > ^ v M`.
fn csc384_puzzle(text: &str) -> Puzzle {
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let digits = |l: &str| -> Vec<usize> {
        l.chars()
            .map(|c| c.to_digit(10).unwrap() as usize)
            .collect()
    };
    let rows = digits(lines[0]);
    let cols = digits(lines[1]);
    let mut puzzle = Puzzle::new(
        rows.iter().map(|&r| Some(r)).collect(),
        cols.iter().map(|&c| Some(c)).collect(),
        Fleet::from_counts(digits(lines[2])),
    )
    .unwrap();
    for (r, line) in lines[3..3 + rows.len()].iter().enumerate() {
        for (c, ch) in line.chars().enumerate() {
            let piece = match ch {
                '0' => continue,
                'W' | '.' => Piece::Water,
                'S' => Piece::Submarine,
                'M' => Piece::Middle,
                'L' | '<' => Piece::End(Dir::Right),
                'R' | '>' => Piece::End(Dir::Left),
                'T' | '^' => Piece::End(Dir::Down),
                'B' | 'v' => Piece::End(Dir::Up),
                other => panic!("unknown CSC384 cell {other:?}"),
            };
            puzzle.add_clue(Pos::new(r, c), Clue::Piece(piece)).unwrap();
        }
    }
    puzzle
}

#[test]
fn csc384_official_puzzles_agree_with_sat_and_their_solutions() {
    let mut checked = 0;
    for dir in ["corpus/csc384/v1-letters", "corpus/csc384/v2-symbols"] {
        let Some(dir) = shared(dir) else { continue };
        for input in files(&dir, ".txt").into_iter().filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("input_")
        }) {
            let text = String::from_utf8_lossy(&read(&input)).into_owned();
            let puzzle = csc384_puzzle(&text);
            let name = input.file_name().unwrap().to_string_lossy().into_owned();
            let solution_path = input.with_file_name(name.replace("input_", "solution_"));
            let solution_text = String::from_utf8_lossy(&read(&solution_path)).into_owned();
            let expected: Vec<Vec<bool>> = solution_text
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .map(|l| l.chars().map(|c| c != '.' && c != 'W').collect())
                .collect();
            let sat = solve(&puzzle, &SolveOptions::unique()).unwrap();
            let Outcome::Unique(grid) = &sat.outcome else {
                panic!("{name}: SAT says {:?}", sat.outcome)
            };
            assert_eq!(ship_cells(grid), expected, "{name}");
            for model in [IlpModel::Ship, IlpModel::Cell] {
                for solver in solvers() {
                    let report = solve(&puzzle, &ilp(model, solver, 2)).unwrap();
                    assert_eq!(report.outcome, sat.outcome, "{name} {model:?} {solver:?}");
                }
            }
            checked += 1;
        }
    }
    if checked > 0 {
        assert_eq!(checked, 6 + 9);
    }
}

/// Size formulas of `encodings/ilp-ship.md` and `encodings/ilp-cell.md`, computed from the board,
/// the fleet, the clues and the placement list, independently of the builders.
struct Expected {
    ship_vars: usize,
    ship_constraints: usize,
    cell_vars: usize,
    cell_constraints: usize,
}

fn expected_sizes(puzzle: &Puzzle) -> Expected {
    let (r, c) = (puzzle.rows(), puzzle.cols());
    let placements = Placements::new(puzzle);
    let p = placements.len();
    let k = puzzle.fleet().classes().count();
    let rk = puzzle.row_counts().iter().flatten().count();
    let ck = puzzle.col_counts().iter().flatten().count();
    let s = puzzle.clues().filter(|(_, clue)| clue.is_ship()).count();
    let w = r.saturating_sub(1).max(1) * c.saturating_sub(1).max(1);
    // Cells beyond the ends on the board; all on-board orthogonal neighbours of a submarine.
    let on_board = |pos: Pos, dir: Dir| pos.step(dir, r, c).is_some();
    let parts_and_caps: usize = placements
        .ships()
        .iter()
        .map(|ship| {
            let last = ship.cells().last().unwrap();
            let capped = match (ship.len, ship.orientation) {
                (1, _) => Dir::ALL
                    .iter()
                    .filter(|&&d| on_board(ship.start, d))
                    .count(),
                (_, Orientation::Horizontal) => {
                    usize::from(on_board(ship.start, Dir::Left))
                        + usize::from(on_board(last, Dir::Right))
                }
                (_, Orientation::Vertical) => {
                    usize::from(on_board(ship.start, Dir::Up))
                        + usize::from(on_board(last, Dir::Down))
                }
            };
            ship.len + capped
        })
        .sum();
    Expected {
        ship_vars: p,
        ship_constraints: k + rk + ck + w + s,
        cell_vars: r * c + p,
        cell_constraints: rk
            + ck
            + 2 * r.saturating_sub(1) * c.saturating_sub(1)
            + parts_and_caps
            + r * c
            + k
            + 1,
    }
}

fn assert_sizes(puzzle: &Puzzle, label: &str) {
    let e = expected_sizes(puzzle);
    let ship: LinearModel = IlpModel::Ship.build(puzzle);
    let cell: LinearModel = IlpModel::Cell.build(puzzle);
    assert_eq!(ship.vars.len(), e.ship_vars, "{label}: ship variables");
    assert_eq!(
        ship.constraints.len(),
        e.ship_constraints,
        "{label}: ship constraints"
    );
    assert_eq!(cell.vars.len(), e.cell_vars, "{label}: cell variables");
    assert_eq!(
        cell.constraints.len(),
        e.cell_constraints,
        "{label}: cell constraints"
    );
    // The caps counted by the formula are the ones the SAT cell model uses too.
    let caps_total: usize = Placements::new(puzzle)
        .ships()
        .iter()
        .map(|s| caps(*s, puzzle.shape()).count())
        .sum();
    assert_eq!(cell.families.get("cap"), caps_total, "{label}: caps");
}

#[test]
fn model_sizes_match_the_formulas_in_the_encoding_docs() {
    for path in ist_official() {
        let text = String::from_utf8_lossy(&read(&path)).into_owned();
        let puzzle = ist::parse(&text).unwrap();
        assert_sizes(&puzzle, &path.display().to_string());
    }
    // Open boards of odd shapes, unknown counts, a fleet with a gap, a one-row board.
    let shapes = [
        (1, 6, vec![2, 1]),
        (5, 1, vec![1, 0, 1]),
        (7, 12, vec![1, 1, 0, 0, 0, 1]),
        (3, 3, vec![]),
    ];
    for (rows, cols, fleet) in shapes {
        let mut puzzle = Puzzle::new(
            (0..rows).map(|i| (i % 2 == 0).then_some(1)).collect(),
            vec![None; cols],
            Fleet::from_counts(fleet),
        )
        .unwrap();
        if rows > 1 && cols > 1 {
            puzzle.add_clue(Pos::new(0, 0), Clue::Ship).unwrap();
        }
        assert_sizes(&puzzle, &format!("{rows}x{cols}"));
    }
}

#[cfg_attr(
    no_shared,
    ignore = "needs ../shared, missing when this test was built"
)]
#[test]
fn counting_enumerates_every_solution_with_no_good_cuts() {
    let Some(path) = shared("corpus/ist-bimaru/extra-pedrocurvo/instance15.txt") else {
        return;
    };
    let text = String::from_utf8_lossy(&read(&path)).into_owned();
    let puzzle = ist::parse(&text).unwrap();
    let sat = solve(
        &puzzle,
        &SolveOptions {
            goal: Goal::Count(10),
            ..SolveOptions::default()
        },
    )
    .unwrap();
    let mut sat_grids: Vec<String> = sat
        .outcome
        .grids()
        .iter()
        .map(|g| ist::write_solution(&puzzle, g))
        .collect();
    sat_grids.sort();
    assert_eq!(sat_grids.len(), 3);
    for model in [IlpModel::Ship, IlpModel::Cell] {
        let report = solve(&puzzle, &ilp(model, IlpSolver::Microlp, 10)).unwrap();
        assert!(report.outcome.is_complete(), "{model:?}");
        let mut grids: Vec<String> = report
            .outcome
            .grids()
            .iter()
            .map(|g| ist::write_solution(&puzzle, g))
            .collect();
        grids.sort();
        assert_eq!(grids, sat_grids, "{model:?}");
        let out = run(
            &[
                "--backend",
                "ilp",
                "--ilp-model",
                model.into(),
                "--unique",
                path.to_str().unwrap(),
            ],
            b"",
        );
        assert_eq!(out.status.code(), Some(3));
        assert!(out.stdout.is_empty());
    }
}

#[cfg_attr(
    no_shared,
    ignore = "needs ../shared, missing when this test was built"
)]
#[test]
fn an_unsatisfiable_instance_exits_one() {
    let Some(path) = shared("corpus/ist-bimaru/extra-pedrocurvo/instance14.txt") else {
        return;
    };
    for model in ["ship", "cell"] {
        let out = run(
            &[
                "--backend",
                "ilp",
                "--ilp-model",
                model,
                path.to_str().unwrap(),
            ],
            b"",
        );
        assert_eq!(out.status.code(), Some(1), "{model}");
        assert!(out.stdout.is_empty());
        assert!(String::from_utf8_lossy(&out.stderr).contains("no solution"));
    }
}

#[test]
fn a_ship_clue_no_ship_can_cover_has_no_solution() {
    // Row 1 has count 0, so nothing fits under the clue at (1, 1).
    let mut puzzle = Puzzle::new(
        vec![Some(1), Some(0), Some(1)],
        vec![Some(1), Some(0), Some(1)],
        Fleet::from_counts(vec![2]),
    )
    .unwrap();
    puzzle.add_clue(Pos::new(1, 1), Clue::Ship).unwrap();
    assert_eq!(
        solve(&puzzle, &SolveOptions::default()).unwrap().outcome,
        Outcome::Unsat
    );
    for model in [IlpModel::Ship, IlpModel::Cell] {
        let report = solve(&puzzle, &ilp(model, IlpSolver::Microlp, 2)).unwrap();
        assert_eq!(report.outcome, Outcome::Unsat, "{model:?}");
    }
}

#[test]
fn glpsol_reports_decode_too() {
    let Some(path) = ist_official().into_iter().next() else {
        return;
    };
    if Command::new("glpsol").arg("--version").output().is_err() {
        eprintln!("skipping: glpsol is not installed (optional)");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (lp, report) = (dir.path().join("m.lp"), dir.path().join("m.txt"));
    let p = path.to_str().unwrap();
    assert!(
        run(
            &[
                "--emit-lp",
                lp.to_str().unwrap(),
                "--emit-only",
                "--ilp-model",
                "cell",
                p,
            ],
            b""
        )
        .status
        .success()
    );
    let status = Command::new("glpsol")
        .arg("--lp")
        .arg(&lp)
        .arg("-o")
        .arg(&report)
        .output()
        .unwrap();
    assert!(status.status.success());
    let decoded = run(
        &["decode", p, report.to_str().unwrap(), "--backend", "ilp"],
        b"",
    );
    assert_eq!(decoded.status.code(), Some(0));
    assert_eq!(decoded.stdout, read(&out_of(&path)));
}

#[test]
fn decode_rejects_bad_solution_files_with_one_line() {
    let Some(path) = ist_official().into_iter().next() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let p = path.to_str().unwrap();
    let cases = [
        ("garbage", "hello world\n", "line 1"),
        (
            "unknown variable",
            "Optimal - objective value 1\n 0 x_9v_9_9 1 0\n",
            "line 2",
        ),
        (
            "not a solution",
            "Optimal - objective value 1\n 0 x_1h_0_4 1 0\n",
            "satisfy every constraint",
        ),
    ];
    for (what, text, needle) in cases {
        let sol = dir.path().join("bad.sol");
        std::fs::write(&sol, text).unwrap();
        let out = run(
            &["decode", p, sol.to_str().unwrap(), "--backend", "ilp"],
            b"",
        );
        assert_eq!(out.status.code(), Some(2), "{what}");
        assert!(out.stdout.is_empty(), "{what}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{what}: {err}");
        assert!(
            err.contains("bad.sol") && err.contains(needle),
            "{what}: {err}"
        );
    }
    // An infeasible verdict is "no solution", exit 1.
    let sol = dir.path().join("infeasible.sol");
    std::fs::write(&sol, "Infeasible - objective value 0\n").unwrap();
    let out = run(
        &["decode", p, sol.to_str().unwrap(), "--backend", "ilp"],
        b"",
    );
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn solvers_missing_from_the_build_are_a_usage_error() {
    let Some(path) = ist_official().into_iter().next() else {
        return;
    };
    for solver in IlpSolver::VARIANTS {
        let out = run(
            &[
                "--backend",
                "ilp",
                "--ilp-solver",
                solver.into(),
                path.to_str().unwrap(),
            ],
            b"",
        );
        if solver.is_available() {
            assert_eq!(out.status.code(), Some(0), "{solver:?}");
        } else {
            assert_eq!(out.status.code(), Some(2), "{solver:?}");
            assert!(String::from_utf8_lossy(&out.stderr).contains("--features"));
        }
    }
}

/// A random legal fleet on a small board: ships dropped at random free spots.
fn random_board() -> impl Strategy<Value = (usize, usize, Vec<Ship>, u64)> {
    (3usize..7, 3usize..7, any::<u64>()).prop_map(|(rows, cols, seed)| {
        let mut state = seed | 1;
        let mut next = move |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        let mut ships: Vec<Ship> = Vec::new();
        for len in [3, 2, 2, 1, 1, 1] {
            for _ in 0..20 {
                let orientation = if next(2) == 0 {
                    Orientation::Horizontal
                } else {
                    Orientation::Vertical
                };
                let ship = Ship {
                    start: Pos::new(next(rows), next(cols)),
                    len,
                    orientation: if len == 1 {
                        Orientation::Horizontal
                    } else {
                        orientation
                    },
                };
                let fits = ship.cells().all(|p| p.row < rows && p.col < cols);
                let clear = ships.iter().all(|other| {
                    other.cells().all(|a| {
                        ship.cells()
                            .all(|b| a.row.abs_diff(b.row) > 1 || a.col.abs_diff(b.col) > 1)
                    })
                });
                if fits && clear {
                    ships.push(ship);
                    break;
                }
            }
        }
        (rows, cols, ships, seed)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// A random legal fleet → its counts (and one clue) → every ILP model counts the same
    /// solutions as SAT, and the planted grid is among them.
    #[test]
    fn ilp_counts_agree_with_sat_on_random_boards((rows, cols, ships, seed) in random_board()) {
        let grid = Grid::from_ships(rows, cols, &ships);
        let mut counts = vec![0; 3];
        for s in &ships {
            counts[s.len - 1] += 1;
        }
        let mut puzzle = Puzzle::new(
            (0..rows).map(|r| Some(grid.row_total(r))).collect(),
            (0..cols).map(|c| Some(grid.col_total(c))).collect(),
            Fleet::from_counts(counts),
        )
        .unwrap();
        let clue_at = Pos::new(seed as usize % rows, (seed >> 8) as usize % cols);
        puzzle.add_clue(clue_at, Clue::Piece(grid.get(clue_at))).unwrap();
        let limit = 40;
        let sat = solve(&puzzle, &SolveOptions { goal: Goal::Count(limit), ..SolveOptions::default() }).unwrap();
        let mut sat_grids: Vec<String> =
            sat.outcome.grids().iter().map(|g| format!("{g:?}")).collect();
        sat_grids.sort();
        for model in [IlpModel::Ship, IlpModel::Cell] {
            let report = solve(&puzzle, &ilp(model, IlpSolver::Microlp, limit)).unwrap();
            prop_assert_eq!(report.outcome.is_complete(), sat.outcome.is_complete());
            if sat.outcome.is_complete() {
                let mut grids: Vec<String> =
                    report.outcome.grids().iter().map(|g| format!("{g:?}")).collect();
                grids.sort();
                prop_assert_eq!(&grids, &sat_grids);
                prop_assert!(report.outcome.grids().contains(&&grid));
            }
        }
    }
}

/// A stop flag (what a Ctrl-C handler or the Python binding sets) ends an ILP solve that
/// microlp would otherwise run on for minutes and HiGHS for half a minute (`--unique`): between
/// the engine's nodes, between slices of microlp's own branch-and-bound, and inside HiGHS through
/// its interrupt callback; both on the caller's thread (no time limit) and on the worker thread
/// of a solve with a time limit. Without the callback HiGHS would return its first solution
/// after seconds and the solve would end stopped with it, not interrupted.
#[test]
fn a_stop_flag_interrupts_a_long_ilp_solve() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::{Duration, Instant};
    let Some((name, puzzle)) = solbat()
        .into_iter()
        .find(|(name, _)| name.ends_with("sb_15_15_7_0.dzn"))
    else {
        return;
    };
    for (solver, time_limit) in solvers()
        .into_iter()
        .filter(|&s| s != IlpSolver::Cbc)
        .flat_map(|s| [(s, None), (s, Some(Duration::from_secs(600)))])
    {
        let stop = Arc::new(AtomicBool::new(false));
        let raise = {
            let stop = stop.clone();
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(300));
                stop.store(true, Ordering::Relaxed);
            })
        };
        let options = SolveOptions {
            budget: bimaru_sat::model::deadline::Budget::within(time_limit).stopped_by(stop),
            ..ilp(IlpModel::Ship, solver, 2)
        };
        let start = Instant::now();
        let result = solve(&puzzle, &options);
        raise.join().unwrap();
        assert!(
            matches!(
                result,
                Err(bimaru_sat::usecase::solve::SolveError::Interrupted)
            ),
            "{name} {solver:?} {time_limit:?}: {result:?} after {:?}",
            start.elapsed()
        );
    }
}
