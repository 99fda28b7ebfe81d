//! Grades: monotone (more clues never make a puzzle harder; propagation-solved puzzles are easy
//! and never above one that needs look-ahead or search) and the command's output.

use crate::common::{run, shared};
use bimaru_sat::format::json;
use bimaru_sat::usecase::grade::{Grade, Graded, deduction_depth, grade};
use bimaru_sat::{Clue, Puzzle};
use std::path::Path;

fn set_10x10() -> Vec<(Puzzle, bimaru_sat::Grid)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/generated/10x10");
    crate::common::files(&dir, ".json")
        .into_iter()
        .take(30)
        .map(|f| {
            let board = json::parse_with_solution(
                &std::fs::read_to_string(f).unwrap(),
                &bimaru_sat::Limits::default(),
            )
            .unwrap();
            let (p, s) = (board.puzzle, board.embedded);
            (p, s.unwrap())
        })
        .collect()
}

#[test]
fn revealing_more_of_the_solution_never_raises_the_grade() {
    let mut seen = std::collections::BTreeSet::new();
    for (puzzle, solution) in set_10x10() {
        let mut current = puzzle.clone();
        let mut last = deduction_depth(&current, &bimaru_sat::model::deadline::Budget::default())
            .expect("no budget to run out");
        seen.insert(last.grade);
        for pos in puzzle.positions().filter(|p| puzzle.clue(*p).is_none()) {
            current
                .add_clue(pos, Clue::Piece(solution.get(pos)))
                .unwrap();
            let now = deduction_depth(&current, &bimaru_sat::model::deadline::Budget::default())
                .expect("no budget to run out");
            assert!(
                now.grade <= last.grade,
                "{pos}: {:?} after {:?}",
                now.grade,
                last.grade
            );
            last = now;
        }
        assert_eq!(
            last.grade,
            Grade::Easy,
            "the whole solution revealed is easy"
        );
    }
    assert!(seen.len() >= 2, "the set spans several grades: {seen:?}");
}

#[test]
fn the_grade_matches_what_each_level_decides() {
    for (puzzle, _) in set_10x10() {
        let r = deduction_depth(&puzzle, &bimaru_sat::model::deadline::Budget::default())
            .expect("no budget to run out");
        match r.grade {
            Grade::Easy => assert_eq!(r.by_propagation, r.cells),
            Grade::Medium => {
                assert!(r.by_propagation < r.cells);
                assert_eq!(r.by_propagation + r.by_probing, r.cells);
            }
            Grade::Hard => {
                assert!(r.by_propagation + r.by_probing < r.cells);
                assert_eq!(r.by_propagation + r.by_probing + r.by_deep_probing, r.cells);
            }
            _ => assert!(r.by_propagation + r.by_probing + r.by_deep_probing < r.cells),
        }
    }
}

#[cfg_attr(
    no_shared,
    ignore = "needs ../shared, missing when this test was built"
)]
#[test]
fn grade_command_on_an_ist_instance() {
    let Some(path) = shared("corpus/ist-bimaru/public/instance01.txt") else {
        return;
    };
    let o = run(&["grade", path.to_str().unwrap()], b"");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8(o.stdout).unwrap();
    let word = text.split(':').next().unwrap();
    assert!(
        ["easy", "medium", "hard", "fiendish"].contains(&word),
        "{text}"
    );
    let puzzle = bimaru_sat::format::ist::parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let Graded::Unique(r) = grade(&puzzle, &bimaru_sat::SolveOptions::unique()).unwrap() else {
        panic!("instance01 is unique")
    };
    assert_eq!(word, r.grade.to_string());
}

#[test]
fn grade_refuses_a_puzzle_with_several_solutions() {
    let text = "{\"rows\":2,\"cols\":3,\"row_counts\":[1,0],\"col_counts\":[null,null,null],\"fleet\":{\"1\":1}}";
    let o = run(&["grade", "-"], text.as_bytes());
    assert_eq!(o.status.code(), Some(3));
    assert!(o.stdout.is_empty());
}
