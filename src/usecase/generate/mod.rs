//! The puzzle generator: a random legal fleet and its row and column counts; then clues revealed
//! at random among the cells unit propagation has not decided, until it decides them all (so
//! the solution is unique, without any search); then every clue removed whose removal keeps the
//! solution unique. Which clues keep the solution unique is a minimal-unsatisfiable-subset
//! question over the clues, answered by one of two [`Minimizer`]s: one clue at a time, each a
//! targeted SAT question on the small residual formula the other clues leave after pre-solving
//! (the default, measured fastest), or core-guided, with one incremental solver whose
//! failed-assumption cores can drop several clues at once. Both give an exactly minimal set; a
//! conflict budget per question is an explicit opt-in, and a clue whose question outruns it is
//! kept and reported as undecided.

mod ahead;
mod deduction;
mod from;
mod minimize;
pub mod native;
mod oracle;
mod spec;

pub use from::{Given, generate_from};
pub(crate) use minimize::{deduction_minimal_clues, sparse_reduced_clues, unique_minimal_clues};
use minimize::{drop_clue, with_clues};
pub(crate) use oracle::{Removal, check_removal};
pub use spec::{
    CHECK_CONFIGURATION, FleetSpecError, GenerateError, GenerateOptions, GenerateProgress,
    Generated, Inconsistency, Minimizer, Phase, Question, Reduce, SettledBy, Size, SizeSpecError,
    clue_free_puzzle, default_fleet, parse_fleet,
};
use spec::{absent_grade, report};

use crate::encode::sat::card::CardKind;
use crate::model::geometry::{all_ships, halo};
use crate::model::puzzle::{Fleet, Grid, Pos, Shape, Ship};
use crate::usecase::grade::{Grade, deduction_depth_knowing};
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// The random source for puzzle `index` of a run with `seed`: ChaCha8 seeded by `seed`, on its
/// own stream per index, so that puzzle `i` is the same whatever `--count` is.
pub fn rng_for(seed: u64, index: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(index);
    rng
}

/// Places the fleet at random: ships longest first, each at a position drawn uniformly among
/// those that touch no ship placed before; when a ship finds no room, the board is cleared and
/// drawn again.
pub(crate) fn random_ships(
    size: Size,
    fleet: &Fleet,
    rng: &mut ChaCha8Rng,
) -> Result<Vec<Ship>, GenerateError> {
    const TRIES: usize = 1000;
    let shape = Shape::new(size.rows, size.cols);
    let mut lengths: Vec<usize> = fleet
        .classes()
        .flat_map(|c| std::iter::repeat_n(c.len, c.count))
        .collect();
    lengths.sort_unstable_by(|a, b| b.cmp(a));
    let mut candidates: Vec<Ship> = Vec::new();
    'tries: for _ in 0..TRIES {
        // blocked[i]: the cell holds a ship or touches one.
        let mut blocked = vec![false; shape.cells()];
        let mut ships = Vec::with_capacity(lengths.len());
        for &len in &lengths {
            candidates.clear();
            candidates.extend(
                all_ships(len, shape).filter(|ship| ship.cells().all(|p| !blocked[shape.index(p)])),
            );
            if candidates.is_empty() {
                continue 'tries;
            }
            let ship = candidates[rng.random_range(0..candidates.len())];
            for p in ship.cells().chain(halo(ship, shape)) {
                blocked[shape.index(p)] = true;
            }
            ships.push(ship);
        }
        ships.sort();
        return Ok(ships);
    }
    Err(GenerateError::FleetDoesNotFit {
        fleet: fleet.to_string(),
        rows: shape.rows,
        cols: shape.cols,
        tries: TRIES,
    })
}

/// Generates one puzzle with a unique solution and a minimal clue set from `rng`.
pub fn generate(
    options: &GenerateOptions,
    rng: &mut ChaCha8Rng,
) -> Result<Generated, GenerateError> {
    generate_for(options, None, rng)
}

/// [`generate`], with the clue set steered towards `grade` by [`steered_clues`] instead of
/// made by `options.reduce`, when given.
fn generate_for(
    options: &GenerateOptions,
    grade: Option<Grade>,
    rng: &mut ChaCha8Rng,
) -> Result<Generated, GenerateError> {
    report(options, Phase::Placing);
    let ships = random_ships(options.size, &options.fleet, rng)?;
    let solution = Grid::from_ships(options.size.rows, options.size.cols, &ships);
    report(options, Phase::Revealing);
    let (clues, undecided) = match grade {
        Some(grade) => (steered_clues(&solution, options, grade, rng)?, Vec::new()),
        None => reduced_clues(&solution, options, &[], rng)?,
    };
    if grade.is_some() && options.budget.deadline.passed() {
        // What the reduction printed must not depend on speed: all or nothing.
        return Err(GenerateError::OutOfTime);
    }
    Ok(Generated::of(solution, &options.fleet, &clues, undecided))
}

/// The clues of `solution` that `options.reduce` keeps, sorted, and those of them not proven
/// needed (only [`Reduce::Unique`] with a budget leaves any). The `locked` clues are among them:
/// clues are added to them until the reduction's own reasoning decides the solution, and only
/// the added ones are removed again, so the set is minimal among the sets that hold `locked`.
pub(crate) fn reduced_clues(
    solution: &Grid,
    options: &GenerateOptions,
    locked: &[Pos],
    rng: &mut ChaCha8Rng,
) -> Result<(Vec<Pos>, Vec<Pos>), GenerateError> {
    let reduce = options.reduce;
    let (clues, undecided) = match reduce {
        Reduce::Deduction => {
            let puzzle = with_clues(clue_free_puzzle(solution, &options.fleet), solution, locked);
            let mut clues = native::deduction_minimal(
                solution,
                &puzzle,
                false,
                options.budget.deadline.clone(),
                rng,
            )
            .map_err(|_| GenerateError::OutOfTime)?;
            clues.extend_from_slice(locked);
            clues.sort();
            (clues, Vec::new())
        }
        Reduce::Unique => {
            let u = unique_minimal_clues(solution, options, locked, rng)?;
            (u.clues, u.undecided)
        }
        Reduce::Propagation | Reduce::LookAhead => {
            let depth = usize::from(reduce == Reduce::LookAhead);
            let clues = deduction_minimal_clues(
                solution,
                &options.fleet,
                options.card,
                depth,
                locked,
                options.budget.deadline.clone(),
                rng,
            )?;
            (clues, Vec::new())
        }
    };
    if reduce != Reduce::Unique && options.budget.deadline.passed() {
        // What the reduction printed must not depend on speed: all or nothing.
        return Err(GenerateError::OutOfTime);
    }
    Ok((clues, undecided))
}

/// A clue set of `solution` built towards `grade`, on the grade measure's own formula
/// (`docs/grading.md`), each step starting from the last one's set:
/// - easy: minimal for unit propagation (so easy, by construction);
/// - medium: minimal for one-step look-ahead (at most medium);
/// - hard: the medium set less the first clue (in random order) without which the solution
///   stays unique (SAT checks, as `--reduce unique`; two-step look-ahead would be too slow on
///   large boards): one-step look-ahead no longer decides every cell, so the puzzle is hard or
///   fiendish, and with one clue gone rarely fiendish;
/// - fiendish: water revealed until the rules decide every cell, then reduced while
///   pre-solving or the native search proves the rest unique ([`sparse_reduced_clues`]): unique
///   at every step, and once two-step look-ahead no longer decides every cell, fiendish by
///   definition, which the water clues (each telling little) reach early in the removal. Not
///   exactly minimal: a clue that the native search cannot settle stays.
///
/// The grade is then measured; a set off the grade is drawn again by the caller.
fn steered_clues(
    solution: &Grid,
    options: &GenerateOptions,
    grade: Grade,
    rng: &mut ChaCha8Rng,
) -> Result<Vec<Pos>, GenerateError> {
    if grade == Grade::Fiendish {
        return Ok(sparse_reduced_clues(solution, options, rng)?.clues);
    }
    let card = CardKind::default(); // the grade measure's formula
    let depth = usize::from(grade >= Grade::Medium);
    let mut clues = deduction_minimal_clues(
        solution,
        &options.fleet,
        card,
        depth,
        &[],
        options.budget.deadline.clone(),
        rng,
    )?;
    if grade >= Grade::Hard {
        let stop = Arc::new(AtomicBool::new(false));
        let _alarm = options.budget.deadline.alarm(stop.clone());
        let mut order = clues.clone();
        order.shuffle(rng);
        for pos in order {
            let Some(rest) = drop_clue(&clues, pos) else {
                continue;
            };
            if let Removal::Unique(_) = check_removal(solution, options, &rest, pos, &stop)? {
                // One clue fewer than look-ahead needs: more would drift towards fiendish.
                clues = rest;
                break;
            }
        }
    }
    clues.sort();
    Ok(clues)
}

/// Tries per puzzle before [`generate_graded`] gives up.
pub(crate) const GRADE_TRIES: usize = 2000;

/// Generates puzzles from `rng` until one has grade `grade` (any puzzle when `None`), drawing
/// no new puzzle once `options.budget`'s deadline passes and grading none past it (one puzzle
/// is always drawn, and a draw under way stops at the same deadline).
pub fn generate_graded(
    options: &GenerateOptions,
    grade: Option<Grade>,
    rng: &mut ChaCha8Rng,
) -> Result<Generated, GenerateError> {
    let budget = &options.budget;
    let deadline = &budget.deadline;
    let Some(want) = grade else {
        return generate(options, rng);
    };
    if absent_grade(options.size, &options.fleet, want) {
        return Err(GenerateError::GradeAbsent {
            grade: want,
            rows: options.size.rows,
            cols: options.size.cols,
        });
    }
    // Steered by construction (see [`steered_clues`]); with `--reduce unique`, every grade draws
    // exactly minimal puzzles until the grade fits.
    let steer = (options.reduce != Reduce::Unique).then_some(want);
    let exact = GenerateOptions {
        reduce: Reduce::Unique,
        ..options.clone()
    };
    let options = if steer.is_some() { options } else { &exact };
    let decided = AtomicUsize::new(usize::MAX);
    // Draw `i`, unless an earlier draw decides first (then it does not matter: `Ok(None)`).
    let draw = |i: usize, seed: u64| -> Result<Option<Generated>, GenerateError> {
        let generated = generate_for(options, steer, &mut ChaCha8Rng::seed_from_u64(seed))?;
        if decided.load(Ordering::SeqCst) < i {
            return Ok(None);
        }
        if want == Grade::Fiendish && native::probing_decides(&generated.puzzle) {
            // The reasoning engine's look-ahead decides the puzzle: it is not fiendish on the
            // grade's formula in our samples, and this costs far less than grading it. Only
            // candidates are skipped; the puzzle returned is always graded below.
            return Ok(None);
        }
        // The solution is known, which saves half of the look-ahead's probes.
        match deduction_depth_knowing(&generated.puzzle, &generated.solution, budget) {
            Some(report) if report.grade == want => Ok(Some(generated)),
            Some(_) => Ok(None),
            None => Err(GenerateError::TimeLimit {
                grade: want,
                tries: 0,
            }),
        }
    };
    // Draw `i` has its own random stream, seeded by the `i`-th number from `rng`. Every core
    // runs draws, each taking the next index as soon as it is free; the first index in draw
    // order whose draw fits (or fails) decides, and every index before it is drawn to the end,
    // so the puzzle is the same on one core or many. No index past a decided one is taken.
    let seeds = Mutex::new((rng, Vec::<u64>::new()));
    let seed = |i: usize| {
        let mut guard = seeds
            .lock()
            .expect("no draw panics while holding the seeds");
        let (rng, drawn) = &mut *guard;
        while drawn.len() <= i {
            drawn.push(rng.random());
        }
        drawn[i]
    };
    let next = AtomicUsize::new(0);
    let ends: Mutex<BTreeMap<usize, Result<Generated, GenerateError>>> = Mutex::default();
    let worker = || {
        loop {
            let i = next.fetch_add(1, Ordering::SeqCst);
            if i >= GRADE_TRIES || i > decided.load(Ordering::SeqCst) {
                return;
            }
            let end = if i > 0 && deadline.passed() {
                Err(GenerateError::TimeLimit {
                    grade: want,
                    tries: i,
                })
            } else {
                match draw(i, seed(i)) {
                    Ok(None) => continue,
                    Ok(Some(generated)) => Ok(generated),
                    Err(GenerateError::TimeLimit { grade, .. }) => Err(GenerateError::TimeLimit {
                        grade,
                        tries: i + 1,
                    }),
                    Err(e) => Err(e),
                }
            };
            ends.lock()
                .expect("no draw panics while holding the ends")
                .insert(i, end);
            decided.fetch_min(i, Ordering::SeqCst);
        }
    };
    // A fiendish draw nearly always fits (see [`steered_clues`]) and asks two uniqueness
    // questions at once itself: the draws run one by one, so that a draw after it does not
    // take the other core (the first fitting draw in draw order wins either way).
    let workers = match steer {
        Some(Grade::Fiendish) => 1,
        _ => rayon::current_num_threads().max(1),
    };
    rayon::scope(|scope| {
        for _ in 1..workers {
            scope.spawn(|_| worker());
        }
        worker();
    });
    let first = ends
        .into_inner()
        .expect("no draw panics while holding the ends")
        .into_iter()
        .next();
    match first {
        Some((_, end)) => end,
        None => Err(GenerateError::NoPuzzleOfGrade {
            grade: want,
            tries: GRADE_TRIES,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::deadline::{Budget, Deadline};

    #[test]
    fn a_passed_deadline_stops_a_graded_search() {
        let options = GenerateOptions {
            budget: Budget::until(Deadline::at(std::time::Instant::now())),
            ..GenerateOptions::new(Size { rows: 8, cols: 8 })
        };
        // One budget for the draws and the search: the first draw already stops at it, before
        // any grade (a fiendish draw reduces its clues, which checks the deadline).
        let result = generate_graded(&options, Some(Grade::Fiendish), &mut rng_for(1, 0));
        assert!(
            matches!(result, Err(GenerateError::OutOfTime)),
            "{result:?}"
        );
    }

    #[test]
    fn fleet_specs() {
        assert_eq!(parse_fleet("4,3,2,1").unwrap(), Fleet::standard());
        assert_eq!(parse_fleet("1x4,2x3,3x2,4x1").unwrap(), Fleet::standard());
        assert_eq!(parse_fleet("4x1, 1X4 ,3x2,2x3").unwrap(), Fleet::standard());
        assert_eq!(parse_fleet("0,0,1").unwrap().count(3), 1);
        assert!(parse_fleet("").is_err());
        assert!(parse_fleet("0,0").is_err());
        assert!(parse_fleet("1x0").is_err());
        assert!(parse_fleet("a,b").is_err());
        assert!(parse_fleet("2x").is_err());
    }

    #[test]
    fn sizes() {
        assert_eq!(
            "10x12".parse::<Size>().unwrap(),
            Size { rows: 10, cols: 12 }
        );
        assert_eq!("7".parse::<Size>().unwrap(), Size { rows: 7, cols: 7 });
        assert!("0x3".parse::<Size>().is_err());
        assert!("x".parse::<Size>().is_err());
    }

    #[test]
    fn default_fleets_fit_their_boards() {
        assert_eq!(
            default_fleet(Size { rows: 10, cols: 10 }),
            Fleet::standard()
        );
        for n in [3, 5, 8, 10, 15, 20, 30, 50] {
            let size = Size { rows: n, cols: n };
            let fleet = default_fleet(size);
            assert!(fleet.total_cells() <= (n * n / 5).max(1), "{n}: {fleet}");
            assert!(fleet.max_len() <= n);
            let ships = random_ships(size, &fleet, &mut rng_for(1, 0)).unwrap();
            assert_eq!(ships.len(), fleet.total_ships());
        }
    }

    #[test]
    fn an_impossible_fleet_is_an_error() {
        let size = Size { rows: 3, cols: 3 };
        let fleet = parse_fleet("1x4").unwrap();
        assert!(matches!(
            random_ships(size, &fleet, &mut rng_for(0, 0)),
            Err(GenerateError::FleetDoesNotFit { .. })
        ));
    }
}
