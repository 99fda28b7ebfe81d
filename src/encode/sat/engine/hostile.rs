//! Whole calls under hostile schedules: every call forced through the race (no solo phase),
//! with delays and yields wherever the members meet ([`Site`]), on small boards with one, two
//! or three solutions and with many, for one to four threads. Each schedule must give the
//! facts of the unperturbed one-thread run: every grid, in order, and whether the enumeration
//! ended. A planted fault (a helper's first grid taken as the only one left) must be caught.

use super::*;
use crate::encode::sat::schedule::Hostile;
use crate::model::puzzle::{Clue, Fleet, Piece, Pos};

/// What a run establishes: the grids, in the order printed, and whether no other is left.
#[derive(Debug, PartialEq, Eq)]
struct Established {
    grids: Vec<Vec<bool>>,
    complete: bool,
}

/// Up to `limit` grids of `puzzle` with `threads` threads under `schedule`, each verified.
fn facts(puzzle: &Puzzle, threads: usize, limit: usize, schedule: Schedule) -> Established {
    let config = SatConfig {
        model: Model::Cell,
        card: CardKind::Seq,
        solver: SolverKind::strongest(),
        race: true,
        threads,
        presolve: true,
        native: 0,
        limit,
        redundant: Redundant::default(),
        budget: Budget::default(),
        schedule,
    };
    let mut engine = SatEngine::new(puzzle, &config);
    let mut grids = Vec::new();
    while grids.len() < limit {
        match engine.next_solution().unwrap() {
            Some(grid) => {
                crate::model::verify::verify(puzzle, &grid).unwrap();
                grids.push(grid.ship_cells());
            }
            None => {
                return Established {
                    grids,
                    complete: true,
                };
            }
        }
    }
    Established {
        grids,
        complete: false,
    }
}

fn generated(text: &str) -> Puzzle {
    crate::format::json::parse(text, &crate::Limits::default()).unwrap()
}

/// The boards, each with the number of grids asked for: unique (asked for two, as `--unique`),
/// with two and three solutions (asked for three, as `--count 3`: a helper may hold the last
/// one), and with many.
fn boards() -> Vec<(&'static str, Puzzle, usize)> {
    let unique = generated(include_str!("../../../../puzzles/generated/10x10/001.json"));
    // Generated boards less the first clue whose removal leaves `n` solutions (003 has one
    // clue that leaves two, 007 one that leaves three).
    let count = |p: &Puzzle| facts(p, 1, 4, Schedule::default()).grids.len();
    let less_one_clue = |text: &str, n: usize| {
        let puzzle = generated(text);
        puzzle
            .clues()
            .map(|(pos, _)| {
                let mut less = puzzle.clone();
                less.remove_clue(pos);
                less
            })
            .find(|less| count(less) == n)
            .expect("a clue whose removal leaves n solutions")
    };
    let two = less_one_clue(
        include_str!("../../../../puzzles/generated/10x10/003.json"),
        2,
    );
    let three = less_one_clue(
        include_str!("../../../../puzzles/generated/10x10/007.json"),
        3,
    );
    // Two submarines on a 3x3 board, rows and columns 1, 0, 1: two solutions.
    let counts = vec![Some(1), Some(0), Some(1)];
    let corners = Puzzle::new(counts.clone(), counts, Fleet::from_counts(vec![2])).unwrap();
    // A 6x6 board with no counts, one ship of each length 1 to 3 and one clue: many solutions.
    let mut open = Puzzle::new(
        vec![None; 6],
        vec![None; 6],
        Fleet::from_counts(vec![1, 1, 1]),
    )
    .unwrap();
    open.add_clue(Pos { row: 0, col: 0 }, Clue::Piece(Piece::Submarine))
        .unwrap();
    vec![
        ("10x10/001", unique.clone(), 2),
        ("10x10/001", unique, 3),
        ("10x10/003 less a clue, 2 solutions", two, 3),
        ("10x10/007 less a clue, 3 solutions", three, 3),
        ("3x3 corners", corners, 3),
        ("6x6 open", open, 3),
    ]
}

/// The facts of each board, unperturbed on one thread, with the race `forced` or not, as in
/// the runs compared with them.
fn references(boards: &[(&str, Puzzle, usize)], forced: bool) -> Vec<Established> {
    boards
        .iter()
        .map(|(_, puzzle, limit)| {
            facts(
                puzzle,
                1,
                *limit,
                Hostile::schedule(0, false, forced, false),
            )
        })
        .collect()
}

/// How the runs are scheduled.
#[derive(Clone, Copy, Debug)]
enum Runs {
    /// As the tests before this one ran the engine: repeated, with the solo phase, unperturbed.
    Repeated,
    /// Every call through the race, unperturbed.
    Forced,
    /// Every call through the race, with delays and yields at every [`Site`].
    Hostile,
}

/// How many of `schedules` runs differ from the references, with the planted fault or not:
/// run `i` takes board `i` modulo their number and `threads(i)` threads.
fn mismatches(schedules: u64, runs: Runs, planted: bool, threads: impl Fn(u64) -> usize) -> usize {
    let (perturb, forced) = match runs {
        Runs::Repeated => (false, false),
        Runs::Forced => (false, true),
        Runs::Hostile => (true, true),
    };
    let boards = boards();
    let references = references(&boards, forced);
    let mut differ = 0;
    for seed in 0..schedules {
        let i = usize::try_from(seed).unwrap() % boards.len();
        let (name, puzzle, limit) = &boards[i];
        let threads = threads(seed);
        let schedule = Hostile::schedule(seed, perturb, forced, planted);
        let got = facts(puzzle, threads, *limit, schedule);
        if got != references[i] {
            assert!(
                planted,
                "{name}, {threads} threads, {runs:?} schedule {seed}: {got:?}"
            );
            differ += 1;
        }
    }
    differ
}

/// Whether this build races at all (without CaDiCaL the specialist runs alone).
fn races() -> bool {
    portfolio(2).len() == 2
}

#[test]
fn hostile_schedules_change_no_fact() {
    // 200 schedules, one to four threads in turn.
    let differ = mismatches(200, Runs::Hostile, false, |seed| {
        1 + (seed / 5 % 4) as usize
    });
    assert_eq!(differ, 0);
}

/// The planted fault (a helper's first grid decides the call, though others may be left):
/// today's repeated runs, 200 of them with two to four threads, never see it, as no call of
/// these boards passes the solo phase; 200 hostile schedules do.
#[test]
fn hostile_schedules_catch_a_helper_grid_printed_while_two_are_left() {
    if !races() {
        return;
    }
    let threads = |seed| 2 + (seed % 3) as usize;
    assert_eq!(mismatches(200, Runs::Repeated, true, threads), 0);
    let caught = mismatches(200, Runs::Hostile, true, threads);
    assert!(
        caught > 0,
        "the planted fault went unseen in 200 hostile schedules"
    );
}

/// How often each way of running sees the planted fault (`--ignored --nocapture`: the
/// figures of the closing note; forced but unperturbed runs see it as timing allows).
#[test]
#[ignore = "prints figures"]
fn how_often_the_planted_fault_is_seen() {
    let threads = |seed| 2 + (seed % 3) as usize;
    for runs in [Runs::Repeated, Runs::Forced, Runs::Hostile] {
        let seen = mismatches(200, runs, true, threads);
        println!("{runs:?}: the planted fault seen in {seen} of 200 runs");
    }
}
