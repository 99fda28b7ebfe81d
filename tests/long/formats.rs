//! The MiniZinc solbat corpus through the library: every board solved and counted to two, the
//! one unique board unique and the unsatisfiable one without solution.

use crate::common::{files, shared};
use bimaru_sat::format::dzn;
use bimaru_sat::{Outcome, SolveOptions, solve, verify};

#[cfg_attr(
    no_shared,
    ignore = "needs ../shared, missing when this test was built"
)]
#[test]
fn solbat_files_solve_count_and_the_unsat_one_fails() {
    let _machine = crate::machine_shared();
    let Some(dir) = shared("corpus/minizinc-solbat") else {
        return;
    };
    let all = files(&dir, ".dzn");
    assert_eq!(all.len(), 39);
    let options = SolveOptions::unique();
    for path in &all {
        let name = path.file_stem().unwrap().to_str().unwrap();
        let puzzle = dzn::parse(&std::fs::read_to_string(path).unwrap()).unwrap();
        assert_eq!(puzzle.clue_count(), 0, "{name}: solbat has no hints");
        let report = solve(&puzzle, &options).unwrap();
        for grid in report.outcome.grids() {
            verify(&puzzle, grid).unwrap();
        }
        match name {
            "sb_13_13_5_5" => assert_eq!(report.outcome, Outcome::Unsat),
            // SOURCES.md: the one unique solbat instance.
            "sb_15_15_7_0" => assert!(matches!(report.outcome, Outcome::Unique(_)), "{name}"),
            _ => assert_eq!(report.outcome.count(), 2, "{name}"),
        }
    }
}
