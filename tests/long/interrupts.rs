//! The solvers' interrupt under stress: a search stopped part way, at delays from nothing to
//! half a second, answers as one uninterrupted call does once it is called again.

use crate::common::read;
use bimaru_sat::encode::sat::card::CardKind;
use bimaru_sat::encode::sat::dimacs::Formula;
use bimaru_sat::encode::sat::model::Model;
use bimaru_sat::{Outcome, SolveOptions, solve};
use std::time::Duration;

/// A search that the interrupt flag stops part way, on real formulas (50x50 boards, tens of
/// thousands of clauses: more than a simplification pass of the solver handles between two
/// looks at the flag), answers as one uninterrupted call does once it is called again: the
/// puzzle's unique grid, then no solution once that grid is blocked. The flag is set after
/// delays from nothing to tens of milliseconds, so that stops land inside propagation rounds,
/// watchlist rebuilds and simplifications by the units found, each finished by the next call.
#[test]
fn a_search_stopped_part_way_answers_as_one_call_does() {
    let _machine = crate::machine_shared();
    use bimaru_sat::solver::{Answer, SolverKind, load};
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/generated/50x50");
    for file in ["001.json", "002.json", "003.json"] {
        let text = String::from_utf8(read(&root.join(file))).expect("UTF-8");
        let puzzle = bimaru_sat::format::json::parse(&text, &bimaru_sat::Limits::default())
            .expect("a generated puzzle");
        let options = SolveOptions {
            model: Model::Cell,
            card: CardKind::Seq,
            ..SolveOptions::unique()
        };
        let Outcome::Unique(expected) = solve(&puzzle, &options).expect("solves").outcome else {
            panic!("{file}: expected a unique solution");
        };
        let mut formula = Formula::build(&puzzle, Model::Cell, CardKind::Seq);
        assert!(
            formula.cnf.len() > 4 * 4096,
            "{file}: {}",
            formula.cnf.len()
        );
        for blocked in [false, true] {
            if blocked {
                formula.exclude(&expected);
            }
            for &kind in SolverKind::LINKED {
                for delay in [0, 3, 10, 30, 60, 100, 150, 200, 300, 500] {
                    let mut solver = kind.new_solver().expect("linked");
                    load(solver.as_mut(), &formula.cnf);
                    let flag = Arc::new(AtomicBool::new(false));
                    solver.set_interrupt(Some(flag.clone()));
                    let setter = flag.clone();
                    let alarm = std::thread::spawn(move || {
                        std::thread::sleep(Duration::from_millis(delay));
                        setter.store(true, Ordering::Relaxed);
                    });
                    let mut answer = solver.solve().expect("solves");
                    alarm.join().expect("the alarm thread");
                    let what = format!("{file} {kind} blocked {blocked} stopped after {delay} ms");
                    if answer == Answer::Stopped {
                        flag.store(false, Ordering::Relaxed);
                        // A clause added between the stopped call and the next is taken as
                        // usual (this one repeats a clause of the formula).
                        solver.add_clause(
                            formula
                                .cnf
                                .iter()
                                .nth(delay as usize % 97)
                                .expect("a clause"),
                        );
                        answer = solver.solve().expect("solves");
                    }
                    if blocked {
                        assert_eq!(answer, Answer::Unsat, "{what}");
                        continue;
                    }
                    assert_eq!(answer, Answer::Sat, "{what}");
                    for clause in formula.cnf.iter() {
                        assert!(
                            clause.iter().any(|&l| solver.value(l) == Some(true)),
                            "{what}: {clause:?} is false in the model"
                        );
                    }
                    let ship: Vec<bool> = formula
                        .encoding
                        .cells
                        .iter()
                        .map(|v| solver.value(v.positive()) == Some(true))
                        .collect();
                    assert_eq!(ship, expected.ship_cells(), "{what}");
                }
            }
        }
    }
}
