//! The ILP backend on whole corpora: 50 Rubin boards agree with SAT under every linked ILP
//! solver, the 25 official IST instances go through the LP export, cbc and `decode` to their
//! `.out` files, and every MiniZinc solbat board ends in a verified grid, no solution or the
//! time limit.

use crate::common::{read, rubin_boards, run};
use crate::ilp_support::{cbc, ilp, ist_official, out_of, solbat, solvers};
use bimaru_sat::encode::ilp::IlpModel;
use bimaru_sat::{Outcome, SolveOptions, solve};
use std::process::Command;

#[cfg_attr(
    no_shared,
    ignore = "needs ../shared, missing when this test was built"
)]
#[test]
fn fifty_rubin_boards_agree_with_sat() {
    let _machine = crate::machine_shared();
    let boards = rubin_boards(50);
    if boards.is_empty() {
        return;
    }
    assert_eq!(boards.len(), 50);
    for board in &boards {
        let sat = solve(&board.puzzle, &SolveOptions::unique()).unwrap();
        let Outcome::Unique(sat_grid) = &sat.outcome else {
            panic!("board {}: SAT says {:?}", board.id, sat.outcome)
        };
        assert_eq!(sat_grid.ship_cells(), board.ship, "board {}", board.id);
        for solver in solvers() {
            // The ship model proves uniqueness; the cell model (slower under microlp, see
            // docs/benchmarks/2026-11-21-ilp-backend.md) must find the same grid.
            let ship = solve(&board.puzzle, &ilp(IlpModel::Ship, solver, 2)).unwrap();
            assert_eq!(ship.outcome, sat.outcome, "board {} ship", board.id);
            let cell = solve(&board.puzzle, &ilp(IlpModel::Cell, solver, 1)).unwrap();
            assert_eq!(
                cell.outcome.grid(),
                Some(sat_grid),
                "board {} cell",
                board.id
            );
        }
    }
}

#[test]
fn emitted_lp_solved_by_cbc_decodes_to_the_out_files() {
    let _machine = crate::machine_shared();
    let instances = ist_official();
    if instances.is_empty() {
        return;
    }
    let Some(cbc) = cbc() else { return };
    let dir = tempfile::tempdir().unwrap();
    for path in &instances {
        let p = path.to_str().unwrap();
        for model in ["ship", "cell"] {
            let lp = dir.path().join("model.lp");
            let sol = dir.path().join("model.sol");
            let out = run(
                &[
                    "--emit-lp",
                    lp.to_str().unwrap(),
                    "--emit-only",
                    "--ilp-model",
                    model,
                    p,
                ],
                b"",
            );
            assert_eq!(out.status.code(), Some(0), "{p} {model}");
            assert!(out.stdout.is_empty());
            let status = Command::new(cbc)
                .arg(&lp)
                .args(["solve", "solu"])
                .arg(&sol)
                .output()
                .unwrap();
            assert!(status.status.success(), "cbc on {p} {model}");
            let decoded = run(
                &["decode", p, sol.to_str().unwrap(), "--backend", "ilp"],
                b"",
            );
            assert_eq!(decoded.status.code(), Some(0), "{p} {model}");
            assert_eq!(
                String::from_utf8_lossy(&decoded.stdout),
                String::from_utf8_lossy(&read(&out_of(path))),
                "{p} {model}"
            );
        }
    }
}

#[test]
fn every_solbat_board_ends_in_a_verified_grid_no_solution_or_the_time_limit() {
    let _machine = crate::machine_shared();
    use rayon::prelude::*;
    let boards = solbat();
    for solver in solvers() {
        boards.par_iter().for_each(|(name, puzzle)| {
            let options = SolveOptions {
                budget: bimaru_sat::model::deadline::Budget::within(Some(
                    std::time::Duration::from_secs(1),
                )),
                ..ilp(IlpModel::Ship, solver, 1)
            };
            let sat = solve(puzzle, &SolveOptions::default()).unwrap().outcome;
            match solve(puzzle, &options) {
                Ok(report) => match report.outcome.grid() {
                    Some(grid) => {
                        bimaru_sat::model::verify::verify(puzzle, grid).unwrap();
                        assert_ne!(sat, Outcome::Unsat, "{name} {solver:?}");
                    }
                    None => assert_eq!(sat, Outcome::Unsat, "{name} {solver:?}"),
                },
                Err(bimaru_sat::usecase::solve::SolveError::TimeLimit) => {}
                Err(e) => panic!("{name} {solver:?}: {e}"),
            }
        });
    }
}
