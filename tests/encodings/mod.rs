//! Every CNF model x cardinality encoding pair (issue 4): one generic test body, instantiated per
//! pair with `gen_tests!` (the rustsat pattern). Each pair must find the shipped solution of the
//! 25 official IST instances and of 50 CSPLib/Rubin boards, prove it unique, and survive a
//! DIMACS round trip through varisat's own parser. An ignored test prints the figures of
//! `docs/encodings.md`.

use crate::common::{files, read, rubin_boards, shared};
use bimaru_sat::encode::sat::card::CardKind;
use bimaru_sat::encode::sat::dimacs::{Assignment, Formula, read_answer};
use bimaru_sat::encode::sat::model::Model;
use bimaru_sat::format::ist;
use bimaru_sat::{Fleet, Grid, Outcome, Puzzle, SolveOptions, solve};
use std::path::PathBuf;
use std::time::{Duration, Instant};
use strum::VariantArray;
use varisat::Solver;

/// The 25 official IST instances (public + mooshak-private), each with its `.out`.
pub fn official_ist() -> Vec<(PathBuf, Puzzle, String)> {
    let mut out = Vec::new();
    for dir in [
        "corpus/ist-bimaru/public",
        "corpus/ist-bimaru/mooshak-private",
    ] {
        let Some(dir) = shared(dir) else {
            return Vec::new();
        };
        for txt in files(&dir, ".txt") {
            let text = String::from_utf8(read(&txt)).expect("UTF-8 instance");
            let puzzle = ist::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", txt.display()));
            let expected = String::from_utf8(read(&txt.with_extension("out"))).expect("UTF-8");
            out.push((txt, puzzle, expected));
        }
    }
    assert!(
        out.is_empty() || out.len() == 25,
        "expected 25 official instances, found {}",
        out.len()
    );
    out
}

fn normalize(text: &str) -> String {
    text.lines()
        .map(str::trim_end)
        .collect::<Vec<_>>()
        .join("\n")
}

fn options(model: Model, card: CardKind) -> SolveOptions {
    SolveOptions {
        model,
        card,
        ..SolveOptions::unique()
    }
}

fn unique_grid(puzzle: &Puzzle, model: Model, card: CardKind, name: &str) -> Grid {
    let report = solve(puzzle, &options(model, card)).expect("solver works");
    match report.outcome {
        Outcome::Unique(grid) => grid,
        other => panic!("{name} with {model}/{card:?}: expected a unique solution, got {other:?}"),
    }
}

/// Item 1 on the official IST set: same grid as the `.out`, and unique.
fn agrees_on_official_ist(model: Model, card: CardKind) {
    for (path, puzzle, expected) in official_ist() {
        let name = path.display().to_string();
        let grid = unique_grid(&puzzle, model, card, &name);
        assert_eq!(
            normalize(&ist::write_solution(&puzzle, &grid)),
            normalize(&expected),
            "{name} with {model}/{card:?}"
        );
    }
}

/// Item 1 on 50 Rubin boards: the embedded solution, and unique.
fn agrees_on_rubin(model: Model, card: CardKind) {
    for board in rubin_boards(50) {
        let name = format!("Rubin board {}", board.id);
        let grid = unique_grid(&board.puzzle, model, card, &name);
        assert_eq!(
            grid.ship_cells(),
            board.ship,
            "{name} with {model}/{card:?}"
        );
    }
}

/// Solves `formula` in-process and returns its model as SAT-competition output.
pub fn competition_output(formula: &varisat::CnfFormula) -> String {
    let mut solver = Solver::new();
    solver.add_formula(formula);
    if !solver.solve().expect("solver works") {
        return "s UNSATISFIABLE\n".to_string();
    }
    let mut out = String::from("c solved by varisat in the test\ns SATISFIABLE\nv");
    for lit in solver.model().expect("model") {
        out.push_str(&format!(" {}", lit.to_dimacs()));
    }
    out.push_str(" 0\n");
    out
}

/// Item 5: write the formula, read it back with varisat's DIMACS parser: the same clauses,
/// satisfiable, its model decodes to the in-process grid; with the solution excluded it is
/// unsatisfiable.
fn dimacs_round_trip(model: Model, card: CardKind) {
    for (path, puzzle, _) in official_ist() {
        let name = path.display();
        let mut formula = Formula::build(&puzzle, model, card);
        let written = formula.write(&puzzle);
        let parsed = varisat::dimacs::DimacsParser::parse(&written[..])
            .unwrap_or_else(|e| panic!("{name}: varisat rejects our DIMACS: {e}"));
        assert_eq!(parsed.var_count(), formula.cnf.var_count(), "{name}");
        assert_eq!(parsed.len(), formula.cnf.len(), "{name}");
        let read_back = parsed
            .iter()
            .map(|c| c.iter().map(|l| l.to_dimacs()).collect::<Vec<_>>());
        let ours = formula
            .cnf
            .iter()
            .map(|c| c.iter().map(|l| l.to_dimacs()).collect::<Vec<_>>());
        assert!(
            read_back.eq(ours),
            "{name}: clauses differ after the round trip"
        );
        // The crate writes its own DIMACS: byte for byte what varisat's writer makes of it.
        let mut by_varisat = Vec::new();
        varisat::dimacs::write_dimacs(&mut by_varisat, &parsed).expect("to a Vec");
        let body = written
            .windows(6)
            .position(|w| w == b"p cnf ")
            .map(|at| &written[at..])
            .expect("a problem line");
        assert!(body == by_varisat, "{name}: DIMACS differs from varisat's");
        let answer = competition_output(&parsed);
        let bimaru_sat::encode::sat::dimacs::DimacsAnswer::Sat(assignment) =
            read_answer(&answer, bimaru_sat::Limits::default().max_variable)
                .expect("our own answer parses")
        else {
            panic!("{name} with {model}/{card:?}: the parsed formula is unsatisfiable");
        };
        let grid = formula.decode(&puzzle, &assignment).expect("decodes");
        let expected = unique_grid(&puzzle, model, card, &name.to_string());
        assert_eq!(grid, expected, "{name} with {model}/{card:?}");

        formula.exclude(&grid);
        let reparsed =
            varisat::dimacs::DimacsParser::parse(&formula.write(&puzzle)[..]).expect("parses");
        let mut solver = Solver::new();
        solver.add_formula(&reparsed);
        assert!(
            !solver.solve().expect("solver works"),
            "{name} with {model}/{card:?}: the uniqueness query is satisfiable"
        );
    }
}

macro_rules! gen_tests {
    ($($name:ident: $model:expr, $card:expr;)*) => {
        /// The pairs instantiated below.
        const PAIRS: &[(Model, CardKind)] = &[$(($model, $card)),*];
        $(
            mod $name {
                use super::*;

                #[cfg_attr(no_shared, ignore = "needs ../shared, missing when this test was built")]
                #[test]
                fn agrees_on_official_ist() {
                    super::agrees_on_official_ist($model, $card);
                }

                #[cfg_attr(no_shared, ignore = "needs ../shared, missing when this test was built")]
                #[test]
                fn agrees_on_50_rubin_boards() {
                    super::agrees_on_rubin($model, $card);
                }

                #[test]
                fn dimacs_round_trip() {
                    super::dimacs_round_trip($model, $card);
                }
            }
        )*
    };
}

gen_tests! {
    cell_seq: Model::Cell, CardKind::Seq;
    cell_totalizer: Model::Cell, CardKind::Totalizer;
    cell_cardnet: Model::Cell, CardKind::Cardnet;
    placement_seq: Model::Placement, CardKind::Seq;
    placement_totalizer: Model::Placement, CardKind::Totalizer;
    placement_cardnet: Model::Placement, CardKind::Cardnet;
}

#[test]
fn every_model_and_card_pair_is_instantiated() {
    for &model in Model::VARIANTS {
        for &card in CardKind::VARIANTS {
            assert!(
                PAIRS.contains(&(model, card)),
                "gen_tests! lacks {model}/{card:?}"
            );
        }
    }
    assert_eq!(
        PAIRS.len(),
        Model::VARIANTS.len() * CardKind::VARIANTS.len()
    );
}

#[test]
fn all_303_rubin_boards_are_read_with_full_fleets() {
    let boards = rubin_boards(usize::MAX);
    if boards.is_empty() {
        return; // corpus missing (skipped by `shared`)
    }
    assert_eq!(boards.len(), 303);
    for board in &boards {
        let cells = board.ship.iter().filter(|s| **s).count();
        assert_eq!(cells, Fleet::standard().total_cells(), "board {}", board.id);
    }
}

#[test]
fn read_answer_rejects_an_assignment_missing_its_final_zero() {
    let err = read_answer(
        "s SATISFIABLE\nv 1 -2 3\n",
        bimaru_sat::Limits::default().max_variable,
    )
    .unwrap_err();
    assert!(err.to_string().contains("truncated"), "{err}");
    let ok = read_answer(
        "SAT\n1 -2 3 0\n",
        bimaru_sat::Limits::default().max_variable,
    )
    .unwrap();
    let bimaru_sat::encode::sat::dimacs::DimacsAnswer::Sat(a) = ok else {
        panic!("expected SAT")
    };
    assert_eq!(a.value(1), Some(false));
    assert_eq!(Assignment::default().value(0), None);
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn table_rows(label: &str, puzzles: &[Puzzle]) -> Vec<String> {
    let mut rows = Vec::new();
    for &model in Model::VARIANTS {
        for &card in CardKind::VARIANTS {
            let mut vars = Vec::new();
            let mut clauses = Vec::new();
            let mut times = Vec::new();
            for puzzle in puzzles {
                let formula = Formula::build(puzzle, model, card);
                vars.push(formula.cnf.var_count());
                clauses.push(formula.cnf.len());
                // Best of 5 runs per puzzle (solve + prove unique), then the median over puzzles.
                let best = (0..5)
                    .map(|_| {
                        let start = Instant::now();
                        let report = solve(puzzle, &options(model, card)).expect("solves");
                        assert!(matches!(report.outcome, Outcome::Unique(_)));
                        start.elapsed()
                    })
                    .min()
                    .expect("five runs");
                times.push(best);
            }
            vars.sort_unstable();
            clauses.sort_unstable();
            rows.push(format!(
                "| {label} | {model} | {card} | {} | {} | {:.3} |",
                vars[vars.len() / 2],
                clauses[clauses.len() / 2],
                median(times).as_secs_f64() * 1e3
            ));
        }
    }
    rows
}

/// Prints the table of `docs/encodings.md`:
/// `cargo test --release --test tests encodings::encoding_table -- --ignored --nocapture`.
#[test]
#[ignore = "prints the figures of docs/encodings.md; run by hand"]
fn encoding_table() {
    let ist: Vec<Puzzle> = official_ist().into_iter().map(|(_, p, _)| p).collect();
    let rubin: Vec<Puzzle> = rubin_boards(usize::MAX)
        .into_iter()
        .map(|b| b.puzzle)
        .collect();
    println!("| set | model | card | median vars | median clauses | median solve+unique (ms) |");
    println!("|---|---|---|---|---|---|");
    for row in table_rows("IST official (25)", &ist)
        .into_iter()
        .chain(table_rows("Rubin (303)", &rubin))
    {
        println!("{row}");
    }
}
