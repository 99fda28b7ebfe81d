//! Property tests: random legal fleets solve back to verified grids; redundant constraints (SAT)
//! and cuts (ILP) keep every solution; the IST parser never panics and always names a line. (The cardinality encodings are checked against brute force next to
//! their code, in `src/encode/sat/card/mod.rs`.)

use bimaru_sat::Goal;
use bimaru_sat::encode::ilp::{IlpCut, IlpCuts, IlpModel, LinearModel, VarRole};
use bimaru_sat::encode::sat::model::Model;
use bimaru_sat::encode::sat::redundant::{Implied, Redundant};
use bimaru_sat::format::{Format, ist};
use bimaru_sat::usecase::Source;
use bimaru_sat::{
    Backend, Clue, Fleet, Grid, Orientation, Outcome, Pos, Puzzle, Ship, SolveOptions, solve,
    verify,
};
use proptest::prelude::*;
use strum::VariantArray;

/// Places ships of the given lengths at the chosen starts (modulo the board), skipping any that
/// would leave the board or touch one already placed. Returns the ships placed.
fn place(rows: usize, cols: usize, wishes: &[(usize, usize, usize, bool)]) -> Vec<Ship> {
    let mut grid = Grid::water(rows, cols);
    let mut ships = Vec::new();
    for &(len, r, c, vertical) in wishes {
        let ship = Ship {
            start: Pos::new(r % rows, c % cols),
            len,
            orientation: if vertical && len > 1 {
                Orientation::Vertical
            } else {
                Orientation::Horizontal
            },
        };
        let cells: Vec<Pos> = ship.cells().collect();
        let fits = cells.iter().all(|p| p.row < rows && p.col < cols)
            && cells.iter().all(|p| {
                (-1..=1).all(|dr| {
                    (-1..=1).all(|dc| {
                        p.offset(dr, dc, rows, cols)
                            .is_none_or(|n| !grid.is_ship(n))
                    })
                })
            });
        if fits {
            ships.push(ship);
            grid = Grid::from_ships(rows, cols, &ships);
        }
    }
    ships
}

/// The board of the ships `place` makes from `wishes`: its grid, and a puzzle with the counts
/// of that grid (the rows and columns named in `hidden_rows` and `hidden_cols` unknown), its
/// fleet and a clue from the grid at each of `clue_cells` (all taken modulo the board's size).
fn board(
    rows: usize,
    cols: usize,
    wishes: &[(usize, usize, usize, bool)],
    clue_cells: &[(usize, usize)],
    hidden_rows: &[usize],
    hidden_cols: &[usize],
) -> (Puzzle, Grid) {
    let ships = place(rows, cols, wishes);
    let grid = Grid::from_ships(rows, cols, &ships);
    let mut counts = vec![0; ships.iter().map(|s| s.len).max().unwrap_or(0)];
    for s in &ships {
        counts[s.len - 1] += 1;
    }
    let mut row_counts: Vec<Option<usize>> = (0..rows).map(|r| Some(grid.row_total(r))).collect();
    for h in hidden_rows {
        row_counts[h % rows] = None;
    }
    let mut col_counts: Vec<Option<usize>> = (0..cols).map(|c| Some(grid.col_total(c))).collect();
    for h in hidden_cols {
        col_counts[h % cols] = None;
    }
    let mut puzzle = Puzzle::new(row_counts, col_counts, Fleet::from_counts(counts)).unwrap();
    for &(r, c) in clue_cells {
        let pos = Pos::new(r % rows, c % cols);
        puzzle.add_clue(pos, Clue::Piece(grid.get(pos))).unwrap();
    }
    (puzzle, grid)
}

prop_compose! {
    /// A random board from 6x6 to 15x15 with a random legal fleet, its counts (some hidden), and
    /// some clues taken from the hidden grid.
    fn random_puzzle()(rows in 6usize..=15, cols in 6usize..=15,
                       wishes in prop::collection::vec((1usize..=6, 0usize..15, 0usize..15, any::<bool>()), 1..14),
                       clue_cells in prop::collection::vec((0usize..15, 0usize..15), 0..8),
                       hidden_rows in prop::collection::vec(0usize..15, 0..3))
                      -> (Puzzle, Grid) {
        board(rows, cols, &wishes, &clue_cells, &hidden_rows, &[])
    }
}

prop_compose! {
    /// A small board (4x4 to 8x8) with a random legal fleet, some counts hidden and at most two
    /// clues, so that it often has many solutions.
    fn small_open_puzzle()(rows in 4usize..=8, cols in 4usize..=8,
                           wishes in prop::collection::vec((1usize..=4, 0usize..8, 0usize..8, any::<bool>()), 1..7),
                           clue_cells in prop::collection::vec((0usize..8, 0usize..8), 0..3),
                           hidden_rows in prop::collection::vec(0usize..8, 0..3),
                           hidden_cols in prop::collection::vec(0usize..8, 0..3))
                          -> Puzzle {
        board(rows, cols, &wishes, &clue_cells, &hidden_rows, &hidden_cols).0
    }
}

/// Every solution (up to `limit`) with these options, as sorted grid texts, and whether the
/// enumeration was complete.
fn solutions(puzzle: &Puzzle, options: &SolveOptions) -> (Vec<String>, bool) {
    let report = solve(puzzle, options).unwrap();
    let mut grids: Vec<String> = report
        .outcome
        .grids()
        .into_iter()
        .map(|g| format!("{g:?}"))
        .collect();
    grids.sort();
    (grids, report.outcome.is_complete())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Each redundant constraint of `encodings/redundant.md`, alone and all together, keeps the
    /// solutions of the plain model: the same grids, counted to the end, in both models, with
    /// and without pre-solving.
    #[test]
    fn redundant_constraints_keep_every_solution(puzzle in small_open_puzzle()) {
        let mut sets: Vec<Redundant> = Implied::VARIANTS.iter().map(|k| Redundant::of(&[*k])).collect();
        sets.push(Redundant::of(Implied::VARIANTS));
        for &model in Model::VARIANTS {
            for presolve in [true, false] {
                let base = SolveOptions { model, presolve, native: 0, goal: Goal::Count(60), ..SolveOptions::default() };
                let plain = solutions(&puzzle, &base);
                // A board with more solutions than the cap cannot be compared grid for grid.
                prop_assume!(plain.1, "more than 60 solutions");
                for &redundant in &sets {
                    let with = solutions(&puzzle, &SolveOptions { redundant, ..base.clone() });
                    prop_assert_eq!(&with, &plain, "{:?} {:?} presolve {}", redundant, model, presolve);
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// The native search (`src/reason/search.rs`) finds the solutions of the SAT solver alone:
    /// the same grids, counted to the end, whether it exhausts the search itself or runs out of
    /// nodes and hands its grids over to the solver (budgets of 1, 3 and 10 nodes).
    #[test]
    fn the_native_search_keeps_every_solution(puzzle in small_open_puzzle()) {
        let base = SolveOptions { native: 0, goal: Goal::Count(60), ..SolveOptions::default() };
        let plain = solutions(&puzzle, &base);
        // A board with more solutions than the cap cannot be compared grid for grid.
        prop_assume!(plain.1, "more than 60 solutions");
        for native in [1, 3, 10, bimaru_sat::encode::sat::engine::NATIVE_NODES] {
            for limit in [1, 2, 60] {
                let options = SolveOptions { native, goal: Goal::Count(limit), ..base.clone() };
                let with = solutions(&puzzle, &options);
                let expect = plain.0.len().min(limit);
                prop_assert_eq!(with.0.len(), expect, "native {} limit {}", native, limit);
                prop_assert!(with.0.iter().all(|g| plain.0.contains(g)));
                prop_assert_eq!(with.1, expect < limit);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn random_fleets_solve_to_verified_grids((puzzle, hidden) in random_puzzle()) {
        prop_assert_eq!(verify(&puzzle, &hidden), Ok(()));
        for presolve in [true, false] {
            let options = SolveOptions { presolve, ..SolveOptions::unique() };
            let report = solve(&puzzle, &options).unwrap();
            for grid in report.outcome.grids() {
                prop_assert_eq!(verify(&puzzle, grid), Ok(()));
            }
            match &report.outcome {
                Outcome::Unique(grid) => prop_assert_eq!(grid, &hidden),
                Outcome::Multiple { grids, .. } => prop_assert_eq!(grids.len(), 2),
                other => prop_assert!(false, "hidden grid exists, got {:?}", other),
            }
        }
    }

    #[test]
    fn the_ist_parser_never_panics_on_garbage(text in "\\PC*") {
        check_parse(&text);
    }

    #[test]
    fn the_ist_parser_never_panics_on_damaged_instances(
        edits in prop::collection::vec((0usize..40, 0usize..6, "[A-Z0-9 \\t\\-?]{0,4}"), 1..6)
    ) {
        let mut tokens: Vec<String> = include_str!("../puzzles/ist-example.txt")
            .split_inclusive(|c: char| c.is_whitespace())
            .map(str::to_string)
            .collect();
        for (at, op, text) in edits {
            let at = at % tokens.len().max(1);
            match op {
                0 => { tokens.remove(at); }
                1 => tokens.insert(at, text),
                2 => tokens[at] = text,
                3 => tokens.insert(at, "\n".into()),
                4 => tokens.insert(at, "\r\n".into()),
                _ => { let t = tokens[at].clone(); tokens.insert(at, t); }
            }
            if tokens.is_empty() { break; }
        }
        check_parse(&tokens.concat());
    }
}

/// Parsing either fails with a located message or gives a puzzle the solver can take.
fn check_parse(text: &str) {
    let input = Source {
        name: "<fuzz>".into(),
        text: text.into(),
    };
    match input.puzzle(Format::Auto, &bimaru_sat::Limits::default()) {
        Ok(puzzle) => {
            let report = solve(&puzzle, &SolveOptions::unique()).unwrap();
            for grid in report.outcome.grids() {
                assert_eq!(verify(&puzzle, grid), Ok(()));
            }
        }
        Err(e) => {
            let msg = e.to_string();
            assert!(msg.starts_with("<fuzz>: "), "{msg}");
            // Bad input (exit 2), never a failure of the solver (exit 70).
            assert!(!matches!(e, bimaru_sat::Error::Solve(_)), "{msg}");
            assert_eq!(msg.lines().count(), 1, "{msg}");
        }
    }
    if let Err(e) = ist::parse(text) {
        assert!(e.line >= 1, "{e}");
    }
}

/// The value of each variable of `program` at the solution `grid`: a placement is 1 when it is
/// one of the grid's ships, a cell when it holds a ship part.
fn point_of(program: &LinearModel, grid: &Grid) -> Vec<i64> {
    let ships = grid.ships();
    program
        .vars
        .iter()
        .map(|v| match v.role {
            VarRole::Placement(ship) => i64::from(ships.contains(&ship)),
            VarRole::Cell(pos) => i64::from(grid.is_ship(pos)),
            _ => unreachable!("a variable of unknown role"),
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Every cut family of `--ilp-cuts` holds at a solution: the hidden grid of a random board
    /// (counts partly hidden, some clues) is a point of both integer programs with all cuts
    /// added, row by row.
    #[test]
    fn ilp_cuts_hold_at_every_solution((puzzle, hidden) in random_puzzle()) {
        for &model in IlpModel::VARIANTS {
            let mut program = model.build(&puzzle);
            let placed = program
                .vars
                .iter()
                .filter(|v| matches!(v.role, VarRole::Placement(s) if hidden.ships().contains(&s)))
                .count();
            prop_assert_eq!(placed, hidden.ships().len(), "the grid's ships are legal placements");
            IlpCuts::of(IlpCut::VARIANTS).add_to(&mut program, &puzzle);
            let point = point_of(&program, &hidden);
            for row in &program.constraints {
                prop_assert!(row.holds(&point), "{:?}: {} breaks at the solution", model, row.name);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Each cut family of `--ilp-cuts`, alone and all together, keeps the solutions: microlp
    /// enumerates the same grids as the SAT backend, counted to the end (to 30), in both integer
    /// programs, with and without pre-solving.
    #[test]
    fn ilp_cuts_keep_every_solution(puzzle in small_open_puzzle()) {
        let plain = solutions(&puzzle, &SolveOptions { goal: Goal::Count(30), ..SolveOptions::default() });
        let mut sets: Vec<IlpCuts> = IlpCut::VARIANTS.iter().map(|k| IlpCuts::of(&[*k])).collect();
        sets.push(IlpCuts::of(IlpCut::VARIANTS));
        for &ilp_model in IlpModel::VARIANTS {
            for presolve in [true, false] {
                for &ilp_cuts in &sets {
                    let options = SolveOptions {
                        backend: Backend::Ilp,
                        ilp_model,
                        ilp_cuts,
                        presolve,
                        goal: Goal::Count(30),
                        ..SolveOptions::default()
                    };
                    let with = solutions(&puzzle, &options);
                    if plain.1 {
                        prop_assert_eq!(&with, &plain, "{:?} {:?} presolve {}", ilp_cuts, ilp_model, presolve);
                    } else {
                        // More than 30 solutions: each backend stops at 30 of its own choosing.
                        prop_assert_eq!(with.0.len(), 30);
                        prop_assert!(!with.1);
                    }
                }
            }
        }
    }
}
