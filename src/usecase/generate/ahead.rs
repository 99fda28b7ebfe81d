//! The one-by-one reduction's questions asked ahead on every core and settled in order, so that
//! the clue set is the one a single core asking them one after another would reach.

use super::oracle::Removal;
use super::spec::GenerateError;
use crate::model::puzzle::Pos;
use std::sync::{Mutex, MutexGuard, PoisonError};

/// One round of the one-by-one reduction: each clue of `order` that is still a clue is asked
/// (by `ask`, against the clues less that one) whether it can go, in order, as one core would,
/// but with up to `workers` questions under way at once.
///
/// A worker free to take a question takes the first one not yet answered, against the clues as
/// they stand: one behind the first open question (the head) is asked ahead, against clues the
/// head's answer may still reduce. Answers are settled in order. The head's answer stands when
/// it was asked against the clues as they now stand, which is the very question one core would
/// have asked; and when `facts` holds (every answer is the truth about its clues: no conflict or
/// node budget can leave it open), a clue found needed stands whatever was removed meanwhile,
/// because fewer clues only add solutions. Any other answer asked ahead is asked again. So the
/// outcome never depends on timing or on `workers`.
///
/// `go_on(needed, left)` is called before each question (`needed` clues proven needed so far,
/// `left` clues left); once it says no, no more are asked. Returns the clues left, those found
/// needed and those left undecided, in the order of `order`.
pub(super) fn settle_in_order<F, G>(
    clues: Vec<Pos>,
    order: &[Pos],
    workers: usize,
    facts: bool,
    ask: F,
    go_on: G,
) -> Result<Round, GenerateError>
where
    F: Fn(&[Pos], Pos) -> Result<Removal, GenerateError> + Sync,
    G: Fn(usize, usize) -> bool + Sync,
{
    let queue = AskedAhead {
        order,
        facts,
        workers: workers.max(1),
        state: Mutex::new(Questions {
            round: Round {
                clues,
                needed: Vec::new(),
                undecided: Vec::new(),
            },
            version: 0,
            head: 0,
            answers: (0..order.len()).map(|_| None).collect(),
            asking: vec![false; order.len()],
            running: 1,
            ended: false,
            error: None,
        }),
    };
    rayon::scope(|scope| queue.work(scope, &ask, &go_on));
    let state = queue
        .state
        .into_inner()
        .unwrap_or_else(PoisonError::into_inner);
    match state.error {
        Some(error) => Err(error),
        None => Ok(state.round),
    }
}

/// What a round of [`settle_in_order`] leaves.
pub(super) struct Round {
    /// The clues left.
    pub clues: Vec<Pos>,
    /// The clues proven needed, in order.
    pub needed: Vec<Pos>,
    /// The clues whose question stayed open, in order.
    pub undecided: Vec<Pos>,
}

/// The questions of a round and the workers' shared state.
struct AskedAhead<'o> {
    order: &'o [Pos],
    facts: bool,
    workers: usize,
    state: Mutex<Questions>,
}

struct Questions {
    round: Round,
    /// Counts the changes of `round.clues`: an answer holds the version it was asked against.
    version: u64,
    /// The first question of `order` not yet settled.
    head: usize,
    answers: Vec<Option<(u64, Removal)>>,
    asking: Vec<bool>,
    /// Workers in [`AskedAhead::work`].
    running: usize,
    /// No more questions are asked (`go_on` said no, or a question failed).
    ended: bool,
    error: Option<GenerateError>,
}

impl AskedAhead<'_> {
    fn lock(&self) -> MutexGuard<'_, Questions> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Whether the answer at `i` can be settled as it is.
    fn stands(&self, state: &Questions, i: usize) -> bool {
        match &state.answers[i] {
            Some((version, answer)) => {
                *version == state.version || (self.facts && matches!(answer, Removal::Needed(_)))
            }
            None => false,
        }
    }

    /// Settles the answers from the head on, as far as they stand.
    fn settle(&self, state: &mut Questions) {
        while state.head < self.order.len() && self.stands(state, state.head) {
            let pos = self.order[state.head];
            let (_, answer) = state.answers[state.head].take().expect("an answer stands");
            match answer {
                Removal::Unique(_) => {
                    state.round.clues.retain(|&p| p != pos);
                    state.version += 1;
                }
                Removal::Needed(_) => state.round.needed.push(pos),
                Removal::Undecided => state.round.undecided.push(pos),
            }
            state.head += 1;
        }
        // A head no longer among the clues (none in a round: each goes at its own turn) is
        // passed; an answer that no longer stands is left for `next` to ask again.
        while state.head < self.order.len()
            && !state.asking[state.head]
            && !state.round.clues.contains(&self.order[state.head])
        {
            state.head += 1;
        }
    }

    /// The first question from the head on that is neither under way nor answered so that its
    /// answer stands.
    fn next(&self, state: &Questions) -> Option<usize> {
        (state.head..self.order.len()).find(|&i| {
            !state.asking[i] && !self.stands(state, i) && state.round.clues.contains(&self.order[i])
        })
    }

    /// A worker: takes questions until none is left to take; while another is left, it starts
    /// a helper worker, up to `workers`.
    fn work<'s, F, G>(&'s self, scope: &rayon::Scope<'s>, ask: &'s F, go_on: &'s G)
    where
        F: Fn(&[Pos], Pos) -> Result<Removal, GenerateError> + Sync,
        G: Fn(usize, usize) -> bool + Sync,
    {
        let mut state = self.lock();
        loop {
            self.settle(&mut state);
            if !state.ended && !go_on(state.round.needed.len(), state.round.clues.len()) {
                state.ended = true;
            }
            let task = if state.ended { None } else { self.next(&state) };
            let Some(i) = task else {
                state.running -= 1;
                return;
            };
            state.asking[i] = true;
            let version = state.version;
            let pos = self.order[i];
            let rest: Vec<Pos> = state
                .round
                .clues
                .iter()
                .copied()
                .filter(|&p| p != pos)
                .collect();
            if state.running < self.workers && self.next(&state).is_some() {
                state.running += 1;
                scope.spawn(move |scope| self.work(scope, ask, go_on));
            }
            drop(state);
            let answer = ask(&rest, pos);
            state = self.lock();
            state.asking[i] = false;
            match answer {
                Ok(answer) => state.answers[i] = Some((version, answer)),
                Err(error) => {
                    state.ended = true;
                    state.error.get_or_insert(error);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::puzzle::Grid;
    use std::collections::BTreeSet;
    use std::time::Duration;

    /// A clue set is unique when it holds at least `need` of the clues, and always holds the
    /// clues in `must`: a toy rule with needed clues and removable ones, whose answers sleep a
    /// little (longer for some) so that questions asked ahead finish out of order.
    fn toy(
        must: &[usize],
        need: usize,
    ) -> impl Fn(&[Pos], Pos) -> Result<Removal, GenerateError> + Sync {
        let must: BTreeSet<usize> = must.iter().copied().collect();
        move |rest: &[Pos], pos: Pos| {
            std::thread::sleep(Duration::from_millis(if pos.col.is_multiple_of(3) {
                8
            } else {
                1
            }));
            let has: BTreeSet<usize> = rest.iter().map(|p| p.col).collect();
            if must.iter().all(|m| has.contains(m)) && rest.len() >= need {
                Ok(Removal::Unique(rest.to_vec()))
            } else {
                Ok(Removal::Needed(
                    Grid::from_ship_cells(1, 1, &[false]).expect("a 1x1 grid"),
                ))
            }
        }
    }

    fn positions(cols: &[usize]) -> Vec<Pos> {
        cols.iter().map(|&col| Pos { row: 0, col }).collect()
    }

    #[test]
    fn every_number_of_workers_settles_as_one_does() {
        let clues = positions(&(0..24).collect::<Vec<_>>());
        let order = positions(&[
            5, 3, 17, 0, 9, 12, 21, 1, 4, 23, 8, 15, 2, 6, 19, 11, 7, 22, 10, 13, 16, 14, 18, 20,
        ]);
        for facts in [false, true] {
            let one = settle_in_order(
                clues.clone(),
                &order,
                1,
                facts,
                toy(&[3, 9, 15], 10),
                |_, _| true,
            )
            .unwrap();
            assert_eq!(one.clues.len(), 10, "the toy keeps ten clues");
            for workers in [2, 3, 8] {
                let many = settle_in_order(
                    clues.clone(),
                    &order,
                    workers,
                    facts,
                    toy(&[3, 9, 15], 10),
                    |_, _| true,
                )
                .unwrap();
                assert_eq!(many.clues, one.clues, "{workers} workers, facts {facts}");
                assert_eq!(many.needed, one.needed, "{workers} workers, facts {facts}");
                assert!(many.undecided.is_empty());
            }
        }
    }

    #[test]
    fn a_failed_question_ends_the_round_with_its_error() {
        let clues = positions(&(0..8).collect::<Vec<_>>());
        let ask = |_: &[Pos], pos: Pos| {
            if pos.col == 4 {
                Err(GenerateError::OutOfTime)
            } else {
                Ok(Removal::Undecided)
            }
        };
        let end = settle_in_order(clues.clone(), &clues, 2, true, ask, |_, _| true);
        assert!(matches!(end, Err(GenerateError::OutOfTime)));
    }

    #[test]
    fn no_question_is_asked_once_go_on_says_no() {
        let clues = positions(&(0..8).collect::<Vec<_>>());
        let asked = std::sync::atomic::AtomicUsize::new(0);
        let ask = |rest: &[Pos], _: Pos| {
            asked.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            Ok(Removal::Unique(rest.to_vec()))
        };
        let round =
            settle_in_order(clues.clone(), &clues, 1, true, ask, |_, left| left > 5).unwrap();
        assert_eq!(round.clues.len(), 5);
        assert_eq!(asked.load(std::sync::atomic::Ordering::SeqCst), 3);
    }
}
