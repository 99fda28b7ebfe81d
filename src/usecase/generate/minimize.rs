//! Exact minimality for uniqueness (`--reduce unique`, from the default reduction's clues) and minimality for CNF deduction
//! (`--reduce propagation` and `look-ahead`): which clues a unique set can lose.

use super::ahead;
use super::deduction::DeductionOracle;
use super::native::{Deducer, Reveal};
use super::oracle::{ClueOracle, Removal, Settle, check_removal_by};
use super::spec::{
    GenerateError, GenerateOptions, Minimizer, Phase, clue_free_puzzle, report, report_asked,
};
use crate::encode::sat::card::CardKind;
use crate::encode::sat::formula::{FormulaError, MAX_CLAUSES};
use crate::model::deadline::Deadline;
use crate::model::placement::Placements;
use crate::model::puzzle::{Clue, Fleet, Grid, Pos, Puzzle};
use rand::RngExt;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// The clues [`unique_minimal_clues`] chose.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct UniqueClues {
    /// The clue positions, sorted; they leave the solution as the only one.
    pub clues: Vec<Pos>,
    /// Those among them whose check ran out of its conflict budget: each may or may not be
    /// removable. Empty means the set is minimal (every other clue was proved needed by a
    /// second solution).
    pub undecided: Vec<Pos>,
}

/// A set of clue positions (revealing the solution's pieces) that makes `solution` the only
/// solution of its clue-free puzzle, exactly minimal unless a conflict budget is given. The
/// `locked` clues are in it and never removed: clues are added to them, and only the added
/// ones are asked about, so no added clue can go.
///
/// It starts from the default reduction's clues ([`deduction_start`]: the rules of
/// [`crate::reason::deduce`] decide every cell, so the solution is unique, found without
/// search) and reduces them with [`unique_reduction`].
pub(crate) fn unique_minimal_clues(
    solution: &Grid,
    options: &GenerateOptions,
    locked: &[Pos],
    rng: &mut ChaCha8Rng,
) -> Result<UniqueClues, GenerateError> {
    let start = deduction_start(solution, options, locked, rng);
    unique_reduction(solution, options, start, locked, rng)
}

/// The clues of a `--grade fiendish` puzzle: water revealed at random (a ship part only once no
/// water is open) until the rules of [`crate::reason::deduce`] decide every cell, then each
/// clue, in random order, dropped when pre-solving or the native search proves the rest still
/// unique ([`Settle::Native`]: no SAT question; a clue they leave open stays). Every set on
/// the way is unique; fewer clues only leave more to deduce, and the water clues that stay
/// tell little, so two-step look-ahead no longer decides the set in nearly every draw (the
/// grade is measured afterwards all the same). The clues are sorted; the second list holds
/// those that stayed without an answer (each may or may not be needed).
pub(crate) fn sparse_reduced_clues(
    solution: &Grid,
    options: &GenerateOptions,
    rng: &mut ChaCha8Rng,
) -> Result<UniqueClues, GenerateError> {
    let start = sparse_start(solution, options, rng);
    reduction(solution, options, start, &[], rng, Settle::Native)
}

/// Water revealed at random (a ship part only once no water is open) until the rules of
/// [`crate::reason::deduce`] decide every cell; sorted.
fn sparse_start(solution: &Grid, options: &GenerateOptions, rng: &mut ChaCha8Rng) -> Vec<Pos> {
    let puzzle = clue_free_puzzle(solution, &options.fleet);
    let placements = Placements::new(&puzzle);
    let mut deducer = Deducer::new(&puzzle, &placements, solution, false, Deadline::NONE)
        .revealing(Reveal::WaterFirst);
    let mut start = deducer
        .reveal_until_decided(rng)
        .expect("no deadline to pass");
    start.sort();
    start
}

/// `start`, a clue set that leaves `solution` unique, reduced to an exactly minimal one: each
/// clue, in random order, is asked whether the others still make the solution unique;
/// `options.minimizer` says how (see [`Minimizer`]). A clue whose removal gives a second
/// solution is needed for good: removing other clues only adds solutions. A clue whose check
/// needs more than `options.budget.conflicts` conflicts (only when one is given) stays and is reported
/// undecided; those are tried once more at the end, when fewer clues often make a second
/// solution easy to find. The `locked` clues of `start` are never asked about.
fn unique_reduction(
    solution: &Grid,
    options: &GenerateOptions,
    start: Vec<Pos>,
    locked: &[Pos],
    rng: &mut ChaCha8Rng,
) -> Result<UniqueClues, GenerateError> {
    reduction(solution, options, start, locked, rng, Settle::Exact)
}

/// `start` reduced clue by clue in random order, each question settled as `settle` says
/// ([`Settle::Native`] always one by one, [`Settle::Exact`] as `options.minimizer` says); the
/// `locked` clues of `start` stay, unasked.
fn reduction(
    solution: &Grid,
    options: &GenerateOptions,
    start: Vec<Pos>,
    locked: &[Pos],
    rng: &mut ChaCha8Rng,
    settle: Settle,
) -> Result<UniqueClues, GenerateError> {
    let mut order: Vec<Pos> = start
        .iter()
        .copied()
        .filter(|p| !locked.contains(p))
        .collect();
    order.shuffle(rng);
    report(options, Phase::Minimizing);
    report_asked(options, 0, order.len(), start.len());
    // The deadline interrupts the question under way; the loops ask no more after it.
    let stop = Arc::new(AtomicBool::new(false));
    let _alarm = options.budget.deadline.alarm(stop.clone());
    let (mut clues, mut undecided) = match (settle, options.minimizer) {
        (Settle::Exact, Minimizer::Cores) => {
            with_cores(solution, options, start, order, locked, &stop)?
        }
        _ => one_by_one(solution, options, start, order, locked, &stop, settle)?,
    };
    clues.sort();
    undecided.sort();
    Ok(UniqueClues { clues, undecided })
}

/// The clues exact minimisation starts from: revealed (beside the `locked` ones) until the
/// rules of [`crate::reason::deduce`] decide every cell (so the solution is unique, without
/// search), then reduced until each is needed by those rules ([`native::deduction_minimal`],
/// the default reduction). The reveal is never cut short; when the deadline passes during the
/// reduction, the whole revealed set is the start (unique, and every clue of it unproven).
/// The `locked` clues are among the start, sorted with the rest.
fn deduction_start(
    solution: &Grid,
    options: &GenerateOptions,
    locked: &[Pos],
    rng: &mut ChaCha8Rng,
) -> Vec<Pos> {
    let puzzle = with_clues(clue_free_puzzle(solution, &options.fleet), solution, locked);
    let placements = Placements::new(&puzzle);
    let mut deducer = Deducer::new(&puzzle, &placements, solution, false, Deadline::NONE);
    let mut clues = deducer
        .reveal_until_decided(rng)
        .expect("no deadline to pass");
    clues.shuffle(rng);
    deducer.set_deadline(options.budget.deadline.clone());
    let mut start = deducer.minimal(&clues).unwrap_or(clues);
    start.extend_from_slice(locked);
    start.sort();
    start
}

/// `puzzle` with the solution's pieces at `clues` as clues.
pub(super) fn with_clues(mut puzzle: Puzzle, solution: &Grid, clues: &[Pos]) -> Puzzle {
    for &pos in clues {
        puzzle
            .add_clue(pos, Clue::Piece(solution.get(pos)))
            .expect("clue positions lie on the board");
    }
    puzzle
}

/// [`Minimizer::OneByOne`]: each clue of `order` checked by [`check_removal_by`] against the
/// clues left, as far as `settle` says, on every core of the thread pool
/// ([`ahead::settle_in_order`]: questions asked ahead, answers settled in order, the outcome
/// that of one core). Returns the clues and the undecided ones. With a conflict budget, the
/// undecided clues of an exact reduction are asked once more at the end.
fn one_by_one(
    solution: &Grid,
    options: &GenerateOptions,
    mut clues: Vec<Pos>,
    mut order: Vec<Pos>,
    locked: &[Pos],
    stop: &Arc<AtomicBool>,
    settle: Settle,
) -> Result<(Vec<Pos>, Vec<Pos>), GenerateError> {
    let mut undecided: Vec<Pos> = Vec::new();
    // Clues proven needed (a second solution without them): with a deadline, the others are
    // the ones reported undecided.
    let mut needed: Vec<Pos> = Vec::new();
    let start = clues.len();
    let check =
        |rest: &[Pos], pos: Pos| check_removal_by(solution, options, rest, pos, stop, settle);
    // Every exact answer without a conflict budget is the truth about its clues (the native
    // search's node budget only hands the question to the SAT solver).
    let facts = settle == Settle::Exact && options.budget.conflicts.is_none();
    let workers = rayon::current_num_threads();
    for _round in 0..2 {
        let known = needed.len();
        let go = |more: usize, left: usize| go_on(options, known + more, start, left);
        let round = ahead::settle_in_order(clues, &order, workers, facts, check, go)?;
        clues = round.clues;
        needed.extend(round.needed);
        undecided = round.undecided;
        if undecided.is_empty()
            || options.budget.conflicts.is_none()
            || settle != Settle::Exact
            || options.budget.deadline.passed()
        {
            break;
        }
        order = undecided.clone();
    }
    Ok(finish(options, clues, undecided, &needed, locked, start))
}

/// [`Minimizer::Cores`]: every clue of `order` asked of one [`ClueOracle`]; an UNSAT answer
/// keeps only its core (and the `locked` clues). Returns the clues and the undecided ones.
fn with_cores(
    solution: &Grid,
    options: &GenerateOptions,
    mut clues: Vec<Pos>,
    mut order: Vec<Pos>,
    locked: &[Pos],
    stop: &Arc<AtomicBool>,
) -> Result<(Vec<Pos>, Vec<Pos>), GenerateError> {
    let puzzle = clue_free_puzzle(solution, &options.fleet);
    let placements = Placements::new(&puzzle);
    let mut oracle = ClueOracle::new(solution, &puzzle, &placements, options, &clues)?;
    oracle.set_interrupt(stop.clone());
    let start = clues.len();
    let mut needed: Vec<Pos> = Vec::new();
    let mut undecided: Vec<Pos> = Vec::new();
    for _round in 0..2 {
        let mut still = Vec::new();
        for &pos in &order {
            if !go_on(options, needed.len(), start, clues.len()) {
                break;
            }
            if needed.contains(&pos) {
                continue;
            }
            let Some(rest) = drop_clue(&clues, pos) else {
                continue; // already dropped, here or with a core
            };
            match oracle.check(&rest, pos)? {
                // Every needed clue is in every unique subset, so in the core too.
                Removal::Unique(core) => {
                    // A superset of a unique set is unique: the locked clues stay.
                    clues = core;
                    clues.extend(
                        locked
                            .iter()
                            .filter(|p| !clues.contains(p))
                            .collect::<Vec<_>>(),
                    );
                }
                Removal::Needed(_) => needed.push(pos),
                Removal::Undecided => still.push(pos),
            }
        }
        undecided = still;
        if undecided.is_empty()
            || options.budget.conflicts.is_none()
            || options.budget.deadline.passed()
        {
            break;
        }
        order = undecided.clone();
    }
    undecided.retain(|p| clues.contains(p));
    Ok(finish(options, clues, undecided, &needed, locked, start))
}

/// The end of a minimisation that started with `start` clues: past the deadline, every clue
/// not proven needed (nor locked) is undecided; the progress shows the final count. Returns
/// the clues and the undecided ones.
fn finish(
    options: &GenerateOptions,
    clues: Vec<Pos>,
    mut undecided: Vec<Pos>,
    needed: &[Pos],
    locked: &[Pos],
    start: usize,
) -> (Vec<Pos>, Vec<Pos>) {
    if options.budget.deadline.passed() {
        undecided = clues
            .iter()
            .copied()
            .filter(|p| !needed.contains(p) && !locked.contains(p))
            .collect();
    }
    go_on(options, needed.len(), start, clues.len());
    (clues, undecided)
}

/// Reports the progress of a minimisation that started with `start` clues, `needed` of them
/// proven needed and `left` left; `false` once the deadline has passed (ask no more).
fn go_on(options: &GenerateOptions, needed: usize, start: usize, left: usize) -> bool {
    report_asked(options, needed + start - left, start, left);
    !options.budget.deadline.passed()
}

/// `clues` without `pos`, or `None` when `pos` is not among them.
pub(super) fn drop_clue(clues: &[Pos], pos: Pos) -> Option<Vec<Pos>> {
    let i = clues.iter().position(|&p| p == pos)?;
    let mut rest = clues.to_vec();
    rest.remove(i);
    Some(rest)
}

/// A set of clue positions from which unit propagation (with failed-literal probing to `depth`)
/// decides every cell, and such that removing any one of them leaves a cell undecided. Clues are revealed at
/// random among the undecided cells, then dropped in random order. No SAT search is needed:
/// deduction that decides every cell proves the solution unique. Returned sorted. The `locked`
/// clues are revealed first and kept: the set holds them, and only the clues added are dropped.
///
/// Gives up with [`GenerateError::OutOfTime`] once `deadline` passes (the formula, propagation,
/// probing and every step of both loops read it), and with [`GenerateError::TooLarge`] when the
/// board's formula would pass [`MAX_CLAUSES`] (its memory stays under about 1 GB).
pub(crate) fn deduction_minimal_clues(
    solution: &Grid,
    fleet: &Fleet,
    card: CardKind,
    depth: usize,
    locked: &[Pos],
    deadline: Deadline,
    rng: &mut ChaCha8Rng,
) -> Result<Vec<Pos>, GenerateError> {
    let mut oracle =
        DeductionOracle::new(solution, fleet, card, depth, deadline.clone(), MAX_CLAUSES).map_err(
            |e| match e {
                FormulaError::TooLarge { max } => GenerateError::TooLarge { max },
                _ => GenerateError::OutOfTime,
            },
        )?;
    let outer = oracle.prop.mark();
    for &pos in locked {
        oracle.reveal(pos);
    }
    let clues = reduce_by_oracle(&mut oracle, solution, deadline.clone(), rng).map(|mut clues| {
        clues.extend_from_slice(locked);
        clues.sort();
        clues
    });
    oracle.undo(outer);
    // A large propagator takes a while to free: not on the caller's time once it is out.
    deadline.discard(oracle);
    clues
}

/// [`deduction_minimal_clues`] with an oracle loaded for `solution`, which it leaves as it found
/// it (nothing revealed but what was revealed before, which stays and is not among the clues).
fn reduce_by_oracle(
    oracle: &mut DeductionOracle,
    solution: &Grid,
    deadline: Deadline,
    rng: &mut ChaCha8Rng,
) -> Result<Vec<Pos>, GenerateError> {
    let out_of_time = |oracle: &DeductionOracle| oracle.stopped() || deadline.passed();
    let root = oracle.prop.mark();
    let mut clues: Vec<Pos> = Vec::new();
    loop {
        // The clues so far stay revealed: each round only propagates the new ones.
        let open = oracle.open_cells(&[]);
        if out_of_time(oracle) {
            return Err(GenerateError::OutOfTime);
        }
        if open.is_empty() {
            break;
        }
        // Reveal an open cell, a ship part when one is open (it tells more than water).
        let ships: Vec<Pos> = open
            .iter()
            .copied()
            .filter(|&p| solution.is_ship(p))
            .collect();
        let from = if ships.is_empty() { &open } else { &ships };
        let pos = from[rng.random_range(0..from.len())];
        oracle.reveal(pos);
        clues.push(pos);
    }
    oracle.undo(root);
    // Deletion in random order: at step i the clues are those kept so far plus order[i+1..].
    // The not-yet-tried clues are revealed last-first, so that dropping order[i+1] for the next
    // step is an undo; only the kept clues are propagated again at each step. Deduction is a
    // closure, so the result equals checking each set from scratch.
    let mut order = clues.clone();
    order.shuffle(rng);
    let mut marks = vec![root; order.len()];
    for i in (1..order.len()).rev() {
        marks[i] = oracle.reveal(order[i]);
    }
    let mut kept: Vec<Pos> = Vec::new();
    for i in 0..order.len() {
        let open = oracle.open_cells(&kept);
        if out_of_time(oracle) {
            return Err(GenerateError::OutOfTime);
        }
        if !open.is_empty() {
            kept.push(order[i]);
        }
        if i + 1 < order.len() {
            oracle.undo(marks[i + 1]);
        }
    }
    oracle.undo(root);
    let mut clues = kept;
    clues.sort();
    Ok(clues)
}
