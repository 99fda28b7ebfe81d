//! Each square's probability of holding a ship, given the board: the fraction of all fleet
//! configurations consistent with it (ships afloat on no miss or sunk square, not overlapping,
//! every hit covered, none with all squares hit, and under `--no-touch` no two ships touching
//! and none touching a sunk square) that cover the square.
//!
//! The exact engine counts configurations without listing them. Two ships conflict when the
//! boxes `[r0, r1 + t] x [c0, c1 + t]` of their squares intersect (`t` = 0 when ships may touch,
//! 1 when they may not). A box intersection is a box, whose Euler characteristic (lattice
//! points minus unit edges plus unit squares) is 1, so the conflict indicator is a signed sum
//! over lattice features shared by both boxes; and pairwise-intersecting boxes share a point
//! (Helly), so the same holds for three. Inclusion-exclusion over the three pairs of three
//! ships then counts their conflict-free triples (and each placement's share) in time linear
//! in the placements. The remaining ships are enumerated around that closed form, and hits
//! that must be covered are handled by inclusion-exclusion over the hits left uncovered.
//! When the work would be too large, uniform rejection sampling takes over.
//!
//! Both honour a deadline ([`Options::deadline`]): [`PosteriorMethod::Auto`] counts exactly only when
//! the estimated work fits in part of the time left (at [`WORK_PER_SECOND`]), and falls back to
//! sampling if the count still runs out of time; sampling stops at the deadline with the
//! configurations drawn so far, and says so ([`Used::Sampled`]'s `stopped`).

use super::board::Position;
use crate::model::deadline::TimeLimit;

mod exact;
mod lists;
mod options;
mod sample;

use exact::exact_posterior;
use lists::{exact_work, hopeless, lists};
pub use options::{
    Options, Posterior, PosteriorError, PosteriorMethod, QUICK_EXACT_WORK, QUICK_SAMPLES,
    TouchRule, Used, WORK_PER_SECOND,
};
pub(crate) use sample::WeightedSample;
use sample::{sampled_posterior, weighted_sample};

/// The board's probabilities.
pub fn posterior(pos: &Position, opts: &Options) -> Result<Posterior, PosteriorError> {
    let lists = lists(pos, opts.rule);
    if hopeless(&lists) {
        return Err(PosteriorError::Inconsistent);
    }
    let timed_out = |TimeLimit| PosteriorError::TimeLimit {
        exact: true,
        draws: 0,
    };
    match opts.method {
        PosteriorMethod::Exact => {
            exact_posterior(&lists, opts.deadline.clone()).map_err(timed_out)?
        }
        PosteriorMethod::Sample => sampled_posterior(&lists, opts),
        PosteriorMethod::Quick => quick(&lists, opts).map(|(posterior, _)| posterior),
        PosteriorMethod::Auto => {
            let work = exact_work(&lists);
            let fits = opts
                .deadline
                .remaining()
                .is_none_or(|left| work / WORK_PER_SECOND <= left.as_secs_f64() / 2.0);
            if work <= opts.exact_budget && fits {
                // Exact gets half the time left; if the estimate was wrong, sampling the rest.
                if let Ok(exact) = exact_posterior(&lists, opts.deadline.share(0.5)) {
                    return exact;
                }
            }
            sampled_posterior(&lists, opts)
        }
    }
}

/// [`posterior`] with [`PosteriorMethod::Quick`], and, where it sampled, its sample kept
/// ([`WeightedSample`]) for the posteriors of the same board with more misses: a salvo's
/// squares after the first cost no new draw.
pub(crate) fn quick_posterior(
    pos: &Position,
    opts: &Options,
) -> Result<(Posterior, Option<WeightedSample>), PosteriorError> {
    let lists = lists(pos, opts.rule);
    if hopeless(&lists) {
        return Err(PosteriorError::Inconsistent);
    }
    quick(&lists, opts)
}

/// Exact where the work is at most [`QUICK_EXACT_WORK`] (and the count ends in time), else
/// sequential importance sampling, with its sample.
fn quick(
    lists: &lists::ShipLists,
    opts: &Options,
) -> Result<(Posterior, Option<WeightedSample>), PosteriorError> {
    if exact_work(lists) <= QUICK_EXACT_WORK
        && let Ok(exact) = exact_posterior(lists, opts.deadline.clone())
    {
        return Ok((exact?, None));
    }
    let sample = weighted_sample(lists, opts)?;
    Ok((sample.posterior(0)?, Some(sample)))
}

/// Estimated work of the exact engine.
pub(crate) fn estimated_work(pos: &Position, rule: TouchRule) -> f64 {
    exact_work(&lists(pos, rule))
}

#[cfg(test)]
mod tests {
    use super::super::board::{Bits, CELLS, SIZE, ShipKind, ShotBoard, Square, SquareMark};
    use super::lists::ShipLists;
    use super::*;
    use crate::model::deadline::Deadline;

    /// Brute force over all configurations, for small fleets.
    fn brute(pos: &Position, rule: TouchRule) -> (u128, [u128; CELLS]) {
        let l = lists(pos, rule);
        let mut cover = [0u128; CELLS];
        let mut total = 0u128;
        fn rec(
            l: &ShipLists,
            k: usize,
            occ: Bits,
            forbid: Bits,
            total: &mut u128,
            cover: &mut [u128; CELLS],
        ) {
            if k == l.items.len() {
                if occ & l.hits == l.hits {
                    *total += 1;
                    for (i, c) in cover.iter_mut().enumerate() {
                        *c += occ >> i & 1;
                    }
                }
                return;
            }
            for it in &l.items[k] {
                if it.cells & forbid == 0 {
                    rec(l, k + 1, occ | it.cells, forbid | it.conflict, total, cover);
                }
            }
        }
        rec(&l, 0, 0, 0, &mut total, &mut cover);
        (total, cover)
    }

    fn check_against_brute(pos: &Position, rule: TouchRule) {
        let (total, cover) = brute(pos, rule);
        let opts = Options {
            rule,
            method: PosteriorMethod::Exact,
            ..Options::default()
        };
        match posterior(pos, &opts) {
            Ok(p) => {
                assert_eq!(
                    p.used,
                    Used::Exact {
                        configurations: total
                    }
                );
                for (i, (&c, &got)) in cover.iter().zip(&p.probabilities).enumerate() {
                    let want = c as f64 / total as f64;
                    assert!((got - want).abs() < 1e-12, "square {i}");
                }
            }
            Err(e) => assert_eq!((total, e), (0, PosteriorError::Inconsistent)),
        }
    }

    fn small_board() -> ShotBoard {
        let mut b = ShotBoard::new();
        // A crowded corner: misses, a sunk ship and two hits.
        for (r, c, m) in [
            (0, 3, SquareMark::Miss),
            (2, 2, SquareMark::Miss),
            (4, 4, SquareMark::Sunk),
            (4, 5, SquareMark::Sunk),
            (3, 7, SquareMark::Hit),
            (6, 1, SquareMark::Hit),
            (7, 1, SquareMark::Miss),
        ] {
            b.set(Square::new(r, c), m);
        }
        b
    }

    /// Rows 7 to 10 all misses, so that brute force over four ships stays quick.
    fn crowded(mut b: ShotBoard) -> ShotBoard {
        for r in 6..SIZE {
            for c in 0..SIZE {
                b.set(Square::new(r, c), SquareMark::Miss);
            }
        }
        b
    }

    #[test]
    fn a_passed_deadline_stops_exact_counting_and_sampling() {
        let pos = Position {
            ships: vec![
                ShipKind::Carrier,
                ShipKind::Battleship,
                ShipKind::Destroyer,
                ShipKind::Submarine,
                ShipKind::PtBoat,
            ],
            board: small_board(),
        };
        let passed = Deadline::after(std::time::Duration::ZERO);
        let with = |method| Options {
            method,
            deadline: passed.clone(),
            ..Options::default()
        };
        assert!(matches!(
            posterior(&pos, &with(PosteriorMethod::Exact)),
            Err(PosteriorError::TimeLimit { exact: true, .. })
        ));
        for method in [PosteriorMethod::Sample, PosteriorMethod::Auto] {
            assert!(matches!(
                posterior(&pos, &with(method)),
                Err(PosteriorError::TimeLimit { exact: false, .. })
            ));
        }
        // A short limit: sampling keeps what it drew and says it stopped.
        let short = Options {
            method: PosteriorMethod::Sample,
            samples: u64::MAX / 2,
            deadline: Deadline::after(std::time::Duration::from_millis(200)),
            ..Options::default()
        };
        let p = posterior(&pos, &short).unwrap();
        let Used::Sampled {
            samples, stopped, ..
        } = p.used
        else {
            panic!("{:?}", p.used)
        };
        assert!(stopped && samples > 0);
        let total: f64 = p.probabilities.iter().sum();
        assert!((total - 17.0).abs() < 1e-9, "{total}");
    }

    #[test]
    fn no_configuration_fits_more_hits_than_the_ships_have_squares() {
        let mut board = ShotBoard::new();
        for i in 0..CELLS {
            board.set(Square::from_index(i), SquareMark::Hit);
        }
        let pos = Position {
            ships: vec![ShipKind::Carrier],
            board,
        };
        for method in [
            PosteriorMethod::Exact,
            PosteriorMethod::Sample,
            PosteriorMethod::Auto,
        ] {
            let opts = Options {
                method,
                ..Options::default()
            };
            assert_eq!(posterior(&pos, &opts), Err(PosteriorError::Inconsistent));
        }
    }

    #[test]
    fn quick_sampling_is_close_to_exact_and_the_same_for_a_seed() {
        let mut board = small_board();
        board.set(Square::new(4, 5), SquareMark::Hit);
        let pos = Position {
            ships: ShipKind::FLEET.to_vec(),
            board,
        };
        let l = lists(&pos, TouchRule::Touch);
        let exact = exact_posterior(&l, Deadline::NONE).unwrap().unwrap();
        let opts = Options {
            seed: 7,
            ..Options::default()
        };
        let sample = weighted_sample(&l, &opts).unwrap();
        let a = sample.posterior(0).unwrap();
        assert_eq!(a, weighted_sample(&l, &opts).unwrap().posterior(0).unwrap());
        for (i, (x, y)) in a.probabilities.iter().zip(&exact.probabilities).enumerate() {
            assert!((x - y).abs() < 0.03, "square {i}: {x} against {y}");
        }
        let sum: f64 = a.probabilities.iter().sum();
        assert!((sum - 17.0).abs() < 1e-6, "{sum}");
        // The same sample given three more misses (a salvo's earlier squares): close to the
        // exact posterior of the board with them marked.
        let mut missed = pos.clone();
        let squares = [Square::new(4, 4), Square::new(2, 2), Square::new(7, 1)];
        let mut misses: Bits = 0;
        for sq in squares {
            missed.board.set(sq, SquareMark::Miss);
            misses |= 1 << sq.index();
        }
        let given = sample.posterior(misses).unwrap();
        let exact = exact_posterior(&lists(&missed, TouchRule::Touch), Deadline::NONE)
            .unwrap()
            .unwrap();
        for (i, (x, y)) in given
            .probabilities
            .iter()
            .zip(&exact.probabilities)
            .enumerate()
        {
            assert!((x - y).abs() < 0.04, "square {i}: {x} against {y}");
        }
        assert!(
            squares
                .iter()
                .all(|sq| given.probabilities[sq.index()] == 0.0)
        );
    }

    #[test]
    fn exact_agrees_with_brute_force() {
        let fleets: [&[ShipKind]; 4] = [
            &[ShipKind::Destroyer],
            &[ShipKind::Carrier, ShipKind::PtBoat],
            &[ShipKind::Battleship, ShipKind::Destroyer, ShipKind::PtBoat],
            &[
                ShipKind::Battleship,
                ShipKind::Destroyer,
                ShipKind::Submarine,
                ShipKind::PtBoat,
            ],
        ];
        for ships in fleets {
            for board in [ShotBoard::new(), small_board()] {
                let board = if ships.len() == 4 {
                    crowded(board)
                } else {
                    board
                };
                let pos = Position {
                    ships: ships.to_vec(),
                    board,
                };
                check_against_brute(&pos, TouchRule::Touch);
                check_against_brute(&pos, TouchRule::NoTouch);
            }
        }
    }
}
