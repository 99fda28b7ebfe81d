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

use super::board::{
    Bits, CELLS, Placement, Position, SIZE, ShipKind, SquareMark, dilate, placements,
};
use crate::model::deadline::{Deadline, TimeLimit};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

/// Whether ships may touch.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TouchRule {
    /// Ships may lie side by side (the board game).
    #[default]
    Touch,
    /// Ships may not touch, not even at a corner.
    NoTouch,
}

impl TouchRule {
    /// `touch` or `no-touch`.
    pub fn name(self) -> &'static str {
        match self {
            TouchRule::Touch => "touch",
            TouchRule::NoTouch => "no-touch",
        }
    }
}

/// How to compute the probabilities.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[non_exhaustive]
pub enum PosteriorMethod {
    /// Exact when the estimated work is small enough, sampling otherwise.
    #[default]
    Auto,
    /// Exact enumeration, however long it takes.
    Exact,
    /// Uniform sampling.
    Sample,
}

/// Settings of [`posterior`].
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Touching rule.
    pub rule: TouchRule,
    /// Exact, sampled, or chosen by estimated work.
    pub method: PosteriorMethod,
    /// Number of configurations to sample.
    pub samples: u64,
    /// Seed of the sampler.
    pub seed: u64,
    /// Largest estimated work (abstract operations) that [`PosteriorMethod::Auto`] does exactly.
    pub exact_budget: f64,
    /// Give up at this point: exact counting fails with [`PosteriorError::TimeLimit`] (under
    /// [`PosteriorMethod::Auto`], sampling takes over), sampling keeps what it drew by then.
    pub deadline: Deadline,
}

/// Estimated work ([`estimated_work`]) the exact engine gets through in a second, measured on
/// Rowan's sample 3 and a 4-hit board on two cores (1.2e9 to 4.7e9 in 2.0 to 7.7 s) and rounded
/// down: [`PosteriorMethod::Auto`] counts exactly only when the estimate fits in half the time left.
pub const WORK_PER_SECOND: f64 = 4e8;

impl Default for Options {
    fn default() -> Self {
        Options {
            rule: TouchRule::Touch,
            method: PosteriorMethod::Auto,
            samples: 1_000_000,
            seed: 0,
            exact_budget: 4e9,
            deadline: Deadline::NONE,
        }
    }
}

/// Which computation gave the probabilities.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Used {
    /// Exact enumeration over this many configurations (ships told apart by letter).
    Exact {
        /// The number of consistent configurations.
        configurations: u128,
    },
    /// Uniform sampling.
    Sampled {
        /// Configurations drawn and accepted.
        samples: u64,
        /// Configurations asked for ([`Options::samples`]).
        requested: u64,
        /// Draws made (accepted or rejected).
        draws: u64,
        /// The seed.
        seed: u64,
        /// The deadline stopped sampling before `requested` were accepted (the numbers then
        /// depend on the machine's speed, not only on the seed).
        stopped: bool,
    },
}

/// Probabilities for every square.
#[derive(Clone, Debug, PartialEq)]
pub struct Posterior {
    /// Probability that a ship covers each square (bit index order).
    pub probabilities: [f64; CELLS],
    /// How they were obtained.
    pub used: Used,
}

impl Posterior {
    /// The squares not yet shot with the highest probability (within 1e-12), in row-then-
    /// column order.
    pub fn best(&self, board_empty: Bits) -> Vec<usize> {
        let max = (0..CELLS)
            .filter(|&i| board_empty >> i & 1 == 1)
            .map(|i| self.probabilities[i])
            .fold(f64::NEG_INFINITY, f64::max);
        (0..CELLS)
            .filter(|&i| board_empty >> i & 1 == 1 && self.probabilities[i] >= max - 1e-12)
            .collect()
    }
}

/// Why no probabilities could be given.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PosteriorError {
    /// No configuration of the ships afloat fits the board.
    #[error("no arrangement of the ships afloat is consistent with this board")]
    Inconsistent,
    /// Sampling drew too few consistent configurations.
    #[error("sampling found only {accepted} consistent configurations in {draws} draws")]
    SamplingStalled {
        /// Accepted draws.
        accepted: u64,
        /// Draws made.
        draws: u64,
    },
    /// The deadline passed before exact counting finished, or before sampling accepted a
    /// single configuration (in `draws` draws).
    #[error(
        "time limit reached: {}",
        if *.exact { "exact counting did not finish".to_string() } else { format!("sampling accepted no configuration in {draws} draws") }
    )]
    TimeLimit {
        /// Whether exact counting was running.
        exact: bool,
        /// Draws made when sampling.
        draws: u64,
    },
}

/// One candidate placement of one ship, with what the engines need.
#[derive(Clone, Copy, Debug)]
struct ShipItem {
    cells: Bits,
    /// Squares another ship may not cover (its own squares, or with their ring when ships may
    /// not touch).
    conflict: Bits,
    /// Feature box, inclusive, in the 21x21 feature lattice.
    rect: Rect,
}

#[derive(Clone, Copy, Debug)]
struct Rect {
    r0: usize,
    r1: usize,
    c0: usize,
    c1: usize,
}

/// The candidate placements of each ship afloat.
struct ShipLists {
    ships: Vec<ShipKind>,
    items: Vec<Vec<ShipItem>>,
    hits: Bits,
}

fn lists(pos: &Position, rule: TouchRule) -> ShipLists {
    let b = &pos.board;
    let empty = b.bits(SquareMark::Empty);
    let sunk = b.bits(SquareMark::Sunk);
    let mut blocked = b.bits(SquareMark::Miss) | sunk;
    if rule == TouchRule::NoTouch {
        blocked |= dilate(sunk);
    }
    let t = usize::from(rule == TouchRule::NoTouch);
    let items = pos
        .ships
        .iter()
        .map(|s| {
            placements(s.len())
                .iter()
                .filter(|p| p.cells & blocked == 0 && p.cells & empty != 0)
                .map(|p| item(p, rule, t))
                .collect()
        })
        .collect();
    ShipLists {
        ships: pos.ships.clone(),
        items,
        hits: b.bits(SquareMark::Hit),
    }
}

fn item(p: &Placement, rule: TouchRule, t: usize) -> ShipItem {
    let e = p.end();
    ShipItem {
        cells: p.cells,
        conflict: match rule {
            TouchRule::Touch => p.cells,
            TouchRule::NoTouch => dilate(p.cells),
        },
        rect: Rect {
            r0: 2 * p.start.row as usize,
            r1: 2 * (e.row as usize + t),
            c0: 2 * p.start.col as usize,
            c1: 2 * (e.col as usize + t),
        },
    }
}

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
        PosteriorMethod::Exact => exact_posterior(&lists, opts.deadline).map_err(timed_out)?,
        PosteriorMethod::Sample => sampled_posterior(&lists, opts),
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

/// Estimated work of the exact engine.
pub fn estimated_work(pos: &Position, rule: TouchRule) -> f64 {
    exact_work(&lists(pos, rule))
}

/// Whether no configuration can fit, at a glance: a ship without a placement, or more hits
/// than the ships afloat have squares (which also keeps the exact engine's subsets of hits
/// below 2^64).
fn hopeless(lists: &ShipLists) -> bool {
    let reach: usize = lists.ships.iter().map(|s| s.len()).sum();
    lists.items.iter().any(Vec::is_empty) || lists.hits.count_ones() as usize > reach
}

fn exact_work(lists: &ShipLists) -> f64 {
    let mut sizes: Vec<f64> = lists.items.iter().map(|l| l.len() as f64).collect();
    sizes.sort_by(f64::total_cmp);
    let k = sizes.len();
    let outer: f64 = sizes[..k.saturating_sub(3)].iter().product();
    let inner: f64 = sizes[k.saturating_sub(3)..].iter().sum::<f64>() * 20.0 + 15.0 * 500.0;
    let subsets = 2f64.powi(lists.hits.count_ones() as i32);
    subsets * outer * inner
}

// ---------------------------------------------------------------------------------------
// Exact engine.

const F: usize = 2 * SIZE + 1;
const P: usize = F + 1;

/// Per-feature values, `F` x `F`.
type Weights = Vec<i64>;

/// A 2-D prefix sum of signed feature values, for O(1) box sums.
struct Prefix(Vec<i64>);

impl Prefix {
    fn of(values: &[i64]) -> Prefix {
        let mut p = vec![0i64; P * P];
        for i in 0..F {
            let mut row = 0i64;
            for j in 0..F {
                let v = values[i * F + j];
                row += if (i + j).is_multiple_of(2) { v } else { -v };
                p[(i + 1) * P + j + 1] = p[i * P + j + 1] + row;
            }
        }
        Prefix(p)
    }

    fn sum(&self, r: &Rect) -> i64 {
        let p = &self.0;
        p[(r.r1 + 1) * P + r.c1 + 1] - p[r.r0 * P + r.c1 + 1] - p[(r.r1 + 1) * P + r.c0]
            + p[r.r0 * P + r.c0]
    }
}

/// Sum of `weight(x)` over the items whose box holds each feature.
fn accumulate<'a>(items: impl Iterator<Item = (&'a ShipItem, i64)>) -> Weights {
    let mut d = vec![0i64; P * P];
    for (it, w) in items {
        let r = &it.rect;
        d[r.r0 * P + r.c0] += w;
        d[r.r0 * P + r.c1 + 1] -= w;
        d[(r.r1 + 1) * P + r.c0] -= w;
        d[(r.r1 + 1) * P + r.c1 + 1] += w;
    }
    let mut g = vec![0i64; F * F];
    let mut col = [0i64; F];
    for i in 0..F {
        let mut row = 0i64;
        for j in 0..F {
            row += d[i * P + j];
            col[j] += row;
            g[i * F + j] = col[j];
        }
    }
    g
}

/// Result of the closed form for three ships: the number of conflict-free triples and each
/// placement's count of partners.
struct Triple {
    total: i64,
    weights: [Vec<i64>; 3],
}

/// Conflict-free triples from three lists (some may be the one-item dummy list).
fn triple(lists: [&[&ShipItem]; 3]) -> Triple {
    let n: [i64; 3] = lists.map(|l| l.len() as i64);
    let a: Vec<Weights> = (0..3)
        .map(|k| accumulate(lists[k].iter().map(|&it| (it, 1))))
        .collect();
    let pa: Vec<Prefix> = a.iter().map(|g| Prefix::of(g)).collect();
    // o[k][j][x]: placements of ship j in conflict with x of ship k.
    let mut o: [[Vec<i64>; 3]; 3] = Default::default();
    for k in 0..3 {
        for j in 0..3 {
            if j != k {
                o[k][j] = lists[k].iter().map(|it| pa[j].sum(&it.rect)).collect();
            }
        }
    }
    let s = |j: usize, k: usize| -> i64 { o[j][k].iter().sum() };
    let t: i64 = (0..F * F)
        .map(|f| {
            let v = a[0][f] * a[1][f] * a[2][f];
            if (f / F + f % F).is_multiple_of(2) {
                v
            } else {
                -v
            }
        })
        .sum();
    let pair_of_pairs = |k: usize, j: usize, h: usize| -> i64 {
        o[k][j].iter().zip(&o[k][h]).map(|(x, y)| x * y).sum()
    };
    let total = n[0] * n[1] * n[2] - (s(0, 1) * n[2] + s(0, 2) * n[1] + s(1, 2) * n[0])
        + pair_of_pairs(0, 1, 2)
        + pair_of_pairs(1, 0, 2)
        + pair_of_pairs(2, 0, 1)
        - t;
    let weights = [0usize, 1, 2].map(|i| {
        let (j, h) = match i {
            0 => (1, 2),
            1 => (0, 2),
            _ => (0, 1),
        };
        let pb_jh = Prefix::of(&accumulate(
            lists[j].iter().zip(&o[j][h]).map(|(&it, &w)| (it, w)),
        ));
        let pb_hj = Prefix::of(&accumulate(
            lists[h].iter().zip(&o[h][j]).map(|(&it, &w)| (it, w)),
        ));
        let aa: Weights = (0..F * F).map(|f| a[j][f] * a[h][f]).collect();
        let paa = Prefix::of(&aa);
        let s_jh = s(j, h);
        lists[i]
            .iter()
            .enumerate()
            .map(|(x, it)| {
                let (oj, oh) = (o[i][j][x], o[i][h][x]);
                n[j] * n[h] - oj * n[h] - oh * n[j] - s_jh
                    + oj * oh
                    + pb_jh.sum(&it.rect)
                    + pb_hj.sum(&it.rect)
                    - paa.sum(&it.rect)
            })
            .collect()
    });
    Triple { total, weights }
}

/// Configuration count and per-placement counts (by ship, by index in its list).
struct Counts {
    total: i128,
    weights: Vec<Vec<i128>>,
}

impl Counts {
    fn zero(lists: &[Vec<ShipItem>]) -> Counts {
        Counts {
            total: 0,
            weights: lists.iter().map(|l| vec![0; l.len()]).collect(),
        }
    }

    fn add(mut self, other: Counts) -> Counts {
        self.total += other.total;
        for (a, b) in self.weights.iter_mut().zip(other.weights) {
            for (x, y) in a.iter_mut().zip(b) {
                *x += y;
            }
        }
        self
    }
}

/// Counts conflict-free configurations of `lists` (no cover requirement), checking `deadline`
/// before each placement of the outermost ship.
fn count_free(lists: &[Vec<ShipItem>], deadline: Deadline) -> Result<Counts, TimeLimit> {
    let k = lists.len();
    let mut order: Vec<usize> = (0..k).collect();
    order.sort_by_key(|&i| lists[i].len());
    let n_outer = k.saturating_sub(3);
    let outer: Vec<usize> = order[..n_outer].to_vec();
    let inner: Vec<usize> = order[n_outer..].to_vec();
    let leaf = |forbid: Bits, chosen: &[(usize, usize)], acc: &mut Counts| {
        let dummy = ShipItem {
            cells: 0,
            conflict: 0,
            rect: Rect {
                r0: 0,
                r1: 0,
                c0: 0,
                c1: 0,
            },
        };
        let mut free: Vec<Vec<(usize, &ShipItem)>> = inner
            .iter()
            .map(|&s| {
                lists[s]
                    .iter()
                    .enumerate()
                    .filter(|(_, it)| it.cells & forbid == 0)
                    .collect()
            })
            .collect();
        let real = free.len();
        while free.len() < 3 {
            free.push(vec![(usize::MAX, &dummy)]);
        }
        let refs: Vec<Vec<&ShipItem>> = free
            .iter()
            .map(|l| l.iter().map(|&(_, it)| it).collect())
            .collect();
        let tr = if real < 3 {
            triple_with_dummies(&refs, real)
        } else {
            triple([&refs[0], &refs[1], &refs[2]])
        };
        acc.total += tr.total as i128;
        for &(s, idx) in chosen {
            acc.weights[s][idx] += tr.total as i128;
        }
        for (slot, &s) in inner.iter().enumerate() {
            for (&(idx, _), &w) in free[slot].iter().zip(&tr.weights[slot]) {
                acc.weights[s][idx] += w as i128;
            }
        }
    };
    if outer.is_empty() {
        let mut acc = Counts::zero(lists);
        leaf(0, &[], &mut acc);
        return Ok(acc);
    }
    let first = outer[0];
    lists[first]
        .par_iter()
        .enumerate()
        .try_fold(
            || Counts::zero(lists),
            |mut acc, (i, it)| {
                deadline.check()?;
                let mut chosen = vec![(first, i)];
                descend(
                    lists,
                    &outer[1..],
                    it.conflict,
                    &mut chosen,
                    &mut acc,
                    &leaf,
                );
                Ok(acc)
            },
        )
        .try_reduce(|| Counts::zero(lists), |a, b| Ok(a.add(b)))
}

fn descend(
    lists: &[Vec<ShipItem>],
    outer: &[usize],
    forbid: Bits,
    chosen: &mut Vec<(usize, usize)>,
    acc: &mut Counts,
    leaf: &impl Fn(Bits, &[(usize, usize)], &mut Counts),
) {
    let Some((&s, rest)) = outer.split_first() else {
        leaf(forbid, chosen, acc);
        return;
    };
    for (i, it) in lists[s].iter().enumerate() {
        if it.cells & forbid == 0 {
            chosen.push((s, i));
            descend(lists, rest, forbid | it.conflict, chosen, acc, leaf);
            chosen.pop();
        }
    }
}

/// The closed form when fewer than three real ships remain: the dummy lists (one item with
/// an empty box) conflict with nothing.
fn triple_with_dummies(refs: &[Vec<&ShipItem>], real: usize) -> Triple {
    match real {
        0 => Triple {
            total: 1,
            weights: [vec![1], vec![1], vec![1]],
        },
        1 => Triple {
            total: refs[0].len() as i64,
            weights: [vec![1; refs[0].len()], vec![0], vec![0]],
        },
        _ => {
            let a1 = Prefix::of(&accumulate(refs[1].iter().map(|&it| (it, 1))));
            let a0 = Prefix::of(&accumulate(refs[0].iter().map(|&it| (it, 1))));
            let n0 = refs[0].len() as i64;
            let n1 = refs[1].len() as i64;
            let w0: Vec<i64> = refs[0].iter().map(|it| n1 - a1.sum(&it.rect)).collect();
            let w1: Vec<i64> = refs[1].iter().map(|it| n0 - a0.sum(&it.rect)).collect();
            Triple {
                total: w0.iter().sum(),
                weights: [w0, w1, vec![0]],
            }
        }
    }
}

/// The exact posterior, or `Err(TimeLimit)` when `deadline` passes first.
fn exact_posterior(
    lists: &ShipLists,
    deadline: Deadline,
) -> Result<Result<Posterior, PosteriorError>, TimeLimit> {
    let hits: Vec<Bits> = super::board::squares(lists.hits).map(|s| s.bit()).collect();
    if hopeless(lists) {
        return Ok(Err(PosteriorError::Inconsistent));
    }
    let mut total = Counts::zero(&lists.items);
    // Inclusion-exclusion over the hits: configurations covering every hit = sum over sets T
    // of hits of (-1)^|T| times the configurations avoiding T.
    for mask in 0u64..(1u64 << hits.len()) {
        deadline.check()?;
        let avoid: Bits = hits
            .iter()
            .enumerate()
            .filter(|(k, _)| mask >> k & 1 == 1)
            .map(|(_, &b)| b)
            .fold(0, |a, b| a | b);
        let sub: Vec<Vec<ShipItem>> = lists
            .items
            .iter()
            .map(|l| {
                l.iter()
                    .filter(|it| it.cells & avoid == 0)
                    .copied()
                    .collect()
            })
            .collect();
        // Keep the indices of the full lists: map back after counting.
        let c = count_free(&sub, deadline)?;
        let sign: i128 = if mask.count_ones() % 2 == 0 { 1 } else { -1 };
        total.total += sign * c.total;
        for (s, l) in lists.items.iter().enumerate() {
            let mut k = 0;
            for (idx, it) in l.iter().enumerate() {
                if it.cells & avoid == 0 {
                    total.weights[s][idx] += sign * c.weights[s][k];
                    k += 1;
                }
            }
        }
    }
    if total.total <= 0 {
        return Ok(Err(PosteriorError::Inconsistent));
    }
    let mut cover = [0i128; CELLS];
    for (s, l) in lists.items.iter().enumerate() {
        for (idx, it) in l.iter().enumerate() {
            let w = total.weights[s][idx];
            let mut cells = it.cells;
            while cells != 0 {
                cover[cells.trailing_zeros() as usize] += w;
                cells &= cells - 1;
            }
        }
    }
    let z = total.total as f64;
    let mut probabilities = [0.0; CELLS];
    for (p, &c) in probabilities.iter_mut().zip(&cover) {
        *p = c as f64 / z;
    }
    Ok(Ok(Posterior {
        probabilities,
        used: Used::Exact {
            configurations: total.total as u128,
        },
    }))
}

// ---------------------------------------------------------------------------------------
// Sampling.

const CHUNK: u64 = 1 << 14;

fn sampled_posterior(lists: &ShipLists, opts: &Options) -> Result<Posterior, PosteriorError> {
    if lists.items.iter().any(Vec::is_empty) {
        return Err(PosteriorError::Inconsistent);
    }
    let samples = opts.samples.max(1);
    let chunks = samples.div_ceil(CHUNK);
    // Each chunk has its own generator seeded from (seed, chunk): the result does not depend
    // on how rayon schedules the chunks (unless the deadline stops it). The sums are kept in
    // one place, not per chunk, so that a huge `samples` allocates nothing; the first chunk to
    // meet the deadline ends the iteration.
    let sums = std::sync::Mutex::new(([0u64; CELLS], 0u64, 0u64, false));
    let _ = (0..chunks).into_par_iter().try_for_each(|c| {
        let want = CHUNK.min(samples - c * CHUNK);
        let mut rng =
            ChaCha8Rng::seed_from_u64(opts.seed ^ (c.wrapping_mul(0x9E37_79B9_7F4A_7C15)));
        let mut counts = [0u64; CELLS];
        let (mut got, mut draws) = (0u64, 0u64);
        let max_draws = want.saturating_mul(20_000);
        let mut pulse = opts.deadline.pulse();
        let mut stopped = opts.deadline.passed();
        while !stopped && got < want && draws < max_draws {
            draws += 1;
            if let Some(occ) = draw(lists, &mut rng) {
                got += 1;
                let mut cells = occ;
                while cells != 0 {
                    counts[cells.trailing_zeros() as usize] += 1;
                    cells &= cells - 1;
                }
            }
            stopped = pulse.beat().is_err();
        }
        let mut sums = sums
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        for (a, b) in sums.0.iter_mut().zip(counts) {
            *a += b;
        }
        sums.1 += got;
        sums.2 += draws;
        sums.3 |= stopped;
        if stopped { Err(TimeLimit) } else { Ok(()) }
    });
    let (counts, got, draws, stopped) = sums
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if stopped && got == 0 {
        return Err(PosteriorError::TimeLimit {
            exact: false,
            draws,
        });
    }
    if got < samples && !stopped {
        return Err(PosteriorError::SamplingStalled {
            accepted: got,
            draws,
        });
    }
    let mut probabilities = [0.0; CELLS];
    for (p, &c) in probabilities.iter_mut().zip(&counts) {
        *p = c as f64 / got as f64;
    }
    Ok(Posterior {
        probabilities,
        used: Used::Sampled {
            samples: got,
            requested: samples,
            draws,
            seed: opts.seed,
            stopped: stopped && got < samples,
        },
    })
}

/// One draw: every ship placed independently and uniformly; `None` if two conflict or a hit
/// is left uncovered.
fn draw(lists: &ShipLists, rng: &mut ChaCha8Rng) -> Option<Bits> {
    let mut occ: Bits = 0;
    let mut forbid: Bits = 0;
    for l in &lists.items {
        let it = &l[rng.random_range(0..l.len())];
        if it.cells & forbid != 0 {
            return None;
        }
        occ |= it.cells;
        forbid |= it.conflict;
    }
    (occ & lists.hits == lists.hits).then_some(occ)
}

#[cfg(test)]
mod tests {
    use super::super::board::{ShotBoard, Square};
    use super::*;

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
            deadline: passed,
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
