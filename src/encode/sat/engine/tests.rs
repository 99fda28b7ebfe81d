//! The helpers of hard questions, on a 3x3 board with two solutions: when one decides a call,
//! and how a grid the lead returns reaches them.

use super::*;
use crate::model::puzzle::{Clue, Fleet, Piece};
use std::sync::atomic::AtomicU64;

/// A 3x3 board with two submarines, rows and columns 1, 0, 1: its solutions are the two
/// diagonals' corners; with the top left corner a ship (`one`), only the first is left.
fn corners(one: bool) -> Puzzle {
    let counts = vec![Some(1), Some(0), Some(1)];
    let mut puzzle = Puzzle::new(counts.clone(), counts, Fleet::from_counts(vec![2])).unwrap();
    if one {
        let pos = crate::model::puzzle::Pos { row: 0, col: 0 };
        puzzle.add_clue(pos, Clue::Piece(Piece::Submarine)).unwrap();
    }
    puzzle
}

/// The puzzle loaded for the solver (neither pre-solved nor searched natively), and a
/// helper for it, the portfolio's second member.
fn loaded(puzzle: &Puzzle) -> (Search, Helper) {
    let config = SatConfig {
        model: Model::Placement,
        card: CardKind::Totalizer,
        solver: SolverKind::strongest(),
        race: true,
        threads: 2,
        presolve: false,
        native: 0,
        limit: 2,
        redundant: Redundant::default(),
        budget: Budget::default(),
        schedule: Schedule::default(),
    };
    let EngineState::Search(search) = SatEngine::new(puzzle, &config).state else {
        panic!("the puzzle was decided before the solver");
    };
    let mut search = *search;
    let member = *portfolio(2).last().unwrap();
    let racer = search.racer(member).ok().unwrap();
    let helper = Helper {
        racer,
        own: Vec::new(),
        reader: None,
    };
    (search, helper)
}

fn corner_ships(first: bool) -> Vec<bool> {
    let ships = if first { [0, 8] } else { [2, 6] };
    (0..9).map(|i| ships.contains(&i)).collect()
}

fn hunt(helper: &mut Helper) -> Option<Fact> {
    let lead = Arc::new(AtomicU64::new(u64::MAX));
    let decision = Decision::new(lead.clone(), Schedule::default());
    helper.hunt(&decision);
    let decided = decision.decided();
    assert_eq!(
        decided,
        lead.load(Ordering::SeqCst) == 0,
        "the lead stopped"
    );
    decision.fact()
}

#[test]
fn a_helper_decides_a_call_only_when_at_most_one_grid_is_left() {
    // The one grid left: the call's answer.
    let (_, mut helper) = loaded(&corners(true));
    assert_eq!(hunt(&mut helper), Some(Fact::Only(corner_ships(true))));
    // Two grids left: the order is the lead's, so the helper keeps both and decides nothing.
    let (_, mut helper) = loaded(&corners(false));
    assert_eq!(hunt(&mut helper), None);
    assert_eq!(helper.own.len(), 2);
    // Once the lead returns one of them, the other is the last: a fact again.
    let last = helper.own[1].clone();
    helper.own.remove(0);
    assert_eq!(hunt(&mut helper), Some(Fact::Only(last)));
}

#[test]
fn a_grid_the_lead_returns_is_blocked_in_the_helpers_or_dropped_from_their_own() {
    let (mut search, helper) = loaded(&corners(false));
    search.helpers.push(helper);
    let returned = search.returned(CallAnswer::Sat(corner_ships(true)));
    assert!(matches!(returned, CallAnswer::Sat(_)));
    // Blocked: the helper finds the other grid, the last one.
    let mut helper = search.helpers.pop().unwrap();
    assert_eq!(hunt(&mut helper), Some(Fact::Only(corner_ships(false))));
    // Held already: dropped from its own, and nothing is left.
    search.helpers.push(helper);
    search.returned(CallAnswer::Sat(corner_ships(false)));
    let mut helper = search.helpers.pop().unwrap();
    assert!(helper.own.is_empty());
    assert_eq!(hunt(&mut helper), Some(Fact::NoneLeft));
}

/// A 20x20 board with no counts and no clues: a great many solutions.
fn open_sea() -> Puzzle {
    let counts = vec![None; 20];
    Puzzle::new(counts.clone(), counts, Fleet::from_counts(vec![4, 3, 2, 1])).unwrap()
}

/// Placement/totalizer on the strongest solver, racing, pre-solved, looking for three grids,
/// with `threads` threads and `native` nodes.
fn three_grids(threads: usize, native: u64) -> SatConfig {
    SatConfig {
        model: Model::Placement,
        card: CardKind::Totalizer,
        solver: SolverKind::strongest(),
        race: true,
        threads,
        presolve: true,
        native,
        limit: 3,
        redundant: Redundant::default(),
        budget: Budget::default(),
        schedule: Schedule::default(),
    }
}

/// The first three grids the engine gives with `threads` threads and `native` nodes, and
/// whether the native search gave them.
fn first_grids(puzzle: &Puzzle, threads: usize, native: u64) -> (Vec<Grid>, bool) {
    let mut engine = SatEngine::new(puzzle, &three_grids(threads, native));
    let grids = (0..3)
        .map_while(|_| engine.next_solution().unwrap())
        .collect();
    let native = matches!(engine.stats().model, SolvedBy::NativeSearch { .. });
    (grids, native)
}

#[test]
fn the_native_search_beside_the_helpers_changes_no_grid() {
    let puzzle = open_sea();
    // One node leaves the question to the solvers (the lead's grids count); the full budget
    // finds the three grids itself (its grids come first, the solvers are dropped).
    for native in [1, NATIVE_NODES] {
        let alone = first_grids(&puzzle, 1, native);
        assert_eq!(alone.0.len(), 3);
        assert_eq!(alone.1, native == NATIVE_NODES);
        for _ in 0..3 {
            assert_eq!(first_grids(&puzzle, 2, native), alone, "{native} nodes");
        }
    }
}

/// Once the native search has found a grid on a large board and left the rest open, the first
/// helper is the chosen configuration on the pre-solved formula (with CaDiCaL in the build:
/// without it, that configuration is the lead's); the grids are still those of one thread.
#[test]
fn after_a_native_grid_the_chosen_configuration_helps_on_the_pre_solved_formula() {
    let puzzle = open_sea();
    // The smallest node budget in which the native search finds one grid, not three.
    let (native, rest) = (1..500)
        .find_map(
            |native| match SatEngine::new(&puzzle, &three_grids(1, native)).state {
                EngineState::Searched {
                    grids,
                    rest: Some(rest),
                    ..
                } if grids.len() == 1 => Some((native, rest)),
                _ => None,
            },
        )
        .expect("a budget that finds one grid");
    let search = rest.encode(None).ok().expect("the solver is built");
    let solo = Member::solo(
        Configuration {
            model: Model::Placement,
            card: CardKind::Totalizer,
        },
        SolverKind::strongest(),
    );
    let helps = SolverKind::strongest() == SolverKind::Cadical;
    assert_eq!(search.solo_helper, helps.then_some(solo));
    // Before any grid, the portfolio's own helpers.
    let first = SatEngine::new(&puzzle, &three_grids(1, 0));
    let EngineState::Search(search) = first.state else {
        panic!("no native search: the solver");
    };
    assert_eq!(search.solo_helper, None);
    let alone = first_grids(&puzzle, 1, native);
    assert_eq!(alone.0.len(), 3);
    for _ in 0..3 {
        assert_eq!(first_grids(&puzzle, 2, native), alone);
    }
}

/// Beside the native search, building the lead gives up once the search settles the call (its
/// grids come first, or none is left), and goes on while the search leaves the call open.
#[test]
fn building_the_lead_beside_the_native_search_stops_once_the_search_settles() {
    let puzzle = open_sea();
    let EngineState::Pending(prepared) = SatEngine::new(&puzzle, &three_grids(2, 1)).state else {
        // Nothing races without a second member (a build without CaDiCaL).
        assert!(
            portfolio(2).len() < 2,
            "a large board with two threads races the search"
        );
        return;
    };
    let gate = |end| {
        let gate = NativeGate::new();
        gate.run(|| Searched {
            grids: Vec::new(),
            nodes: 1,
            end,
        });
        gate
    };
    let settled = gate(End::Exhausted);
    assert!(matches!(
        prepared.clone().encode(Some(&settled)),
        Err(Unbuilt::TimeLimit)
    ));
    let open = gate(End::OutOfNodes);
    let search = prepared
        .encode(Some(&open))
        .ok()
        .expect("the lead is built");
    // The search keeps the call's own deadline for the helpers it builds later.
    assert!(!search.deadline.passed());
}

/// Past its budget, the native search's solutions are a fact once it has found them all: the
/// one left beyond those returned, or none; with two or more left, the order is the lead's.
#[test]
fn the_native_search_past_its_budget_decides_only_what_is_left() {
    let grid = |first| Grid::from_ship_cells(3, 3, &corner_ships(first)).unwrap();
    let ended = |end| {
        let gate = NativeGate::new();
        gate.run(|| Searched {
            grids: vec![grid(true), grid(false)],
            nodes: 7,
            end,
        });
        gate
    };
    let all = ended(End::Exhausted);
    assert_eq!(all.fact(&[]), None);
    assert_eq!(
        all.fact(&[corner_ships(true)]),
        Some(Fact::Only(corner_ships(false)))
    );
    assert_eq!(
        all.fact(&[corner_ships(false), corner_ships(true)]),
        Some(Fact::NoneLeft)
    );
    assert_eq!(all.nodes(), 7);
    // Out of nodes, the grids found are not all of them.
    let some = ended(End::OutOfNodes);
    assert_eq!(some.fact(&[corner_ships(true)]), None);
    // A call waits for the fact, and takes it.
    let decision = Decision::new(Arc::new(AtomicU64::new(u64::MAX)), Schedule::default());
    all.decide(&decision, &[corner_ships(true)]);
    assert!(decision.decided());
    assert_eq!(decision.fact(), Some(Fact::Only(corner_ships(false))));
    let decision = Decision::new(Arc::new(AtomicU64::new(u64::MAX)), Schedule::default());
    some.decide(&decision, &[]);
    assert!(!decision.decided());
}

/// A generated 20x20 board whose native search ends after 159 nodes: with a smaller budget,
/// the search goes on past it beside the solvers, and once it has ended, the engine takes its
/// fact (the board is unique) without asking a solver.
#[test]
fn once_the_native_search_has_ended_past_its_budget_its_fact_answers() {
    let puzzle = crate::format::json::parse(
        include_str!("../../../../puzzles/generated/20x20/003.json"),
        &crate::Limits::default(),
    )
    .unwrap();
    let unique = |threads, native| SatConfig {
        limit: 2,
        ..three_grids(threads, native)
    };
    let mut engine = SatEngine::new(&puzzle, &unique(1, NATIVE_NODES));
    let alone: Vec<Grid> = (0..2)
        .map_while(|_| engine.next_solution().unwrap())
        .collect();
    assert_eq!(alone.len(), 1);
    for native in [1, 20, 100] {
        let mut engine = SatEngine::new(&puzzle, &unique(2, native));
        if portfolio(2).len() < 2 {
            // Nothing races without a second member (a build without CaDiCaL).
            assert!(!matches!(engine.state, EngineState::Pending(_)));
            return;
        }
        assert!(matches!(engine.state, EngineState::Pending(_)));
        assert_eq!(engine.next_solution().unwrap().as_ref(), alone.first());
        let gate = match &engine.state {
            EngineState::Search(search) => search.native.clone(),
            EngineState::Searched {
                rest: Some(rest), ..
            } => rest.native.clone(),
            _ => None,
        };
        let gate = gate.expect("the search goes on past its budget");
        while gate.0.nodes() == 0 {
            std::thread::sleep(Duration::from_millis(1));
        }
        assert_eq!(gate.0.fact(&[alone[0].ship_cells()]), Some(Fact::NoneLeft));
        assert_eq!(engine.next_solution().unwrap(), None, "{native} nodes");
        if let SolvedBy::NativeSearch { nodes } = engine.stats().model {
            assert_eq!(nodes, 159);
        }
    }
}
