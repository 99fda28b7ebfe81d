//! Uniform rejection sampling of fleet configurations, on every core, until the deadline.

use super::super::board::{Bits, CELLS};
use super::lists::*;
use super::options::*;
use crate::model::deadline::TimeLimit;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

// Sampling.

pub(super) const CHUNK: u64 = 1 << 14;

pub(super) fn sampled_posterior(
    lists: &ShipLists,
    opts: &Options,
) -> Result<Posterior, PosteriorError> {
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
pub(super) fn draw(lists: &ShipLists, rng: &mut ChaCha8Rng) -> Option<Bits> {
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

/// Configurations a weighted chunk draws.
const WEIGHTED_CHUNK: u64 = 1 << 11;

/// The configurations of the weighted sampling ([`weighted_sample`]), kept: the posterior of the same board with
/// more misses is the weighted share of those that miss them too ([`WeightedSample::posterior`]),
/// an unbiased estimate as the whole sample's is, with no new draw. A salvo's squares after the
/// first are picked on it.
pub(crate) struct WeightedSample {
    /// Each chunk's configurations (squares covered, weight), in the order drawn.
    chunks: Vec<Vec<(Bits, f64)>>,
    seed: u64,
}

/// Sequential importance sampling of [`QUICK_SAMPLES`] configurations: while a hit is left
/// uncovered, a ship afloat and a placement of it through the first such hit are chosen
/// uniformly among those that fit; then the other ships, in order, each uniformly among its
/// placements that fit. Every configuration comes from exactly one such sequence, so
/// weighting it by the product of the numbers of choices makes the weighted sums unbiased
/// estimates of the counts. No draw is rejected except at a dead end (no choice left). Each
/// chunk has its own generator, seeded from the seed and the chunk, so the seed alone decides
/// the sample.
pub(super) fn weighted_sample(
    lists: &ShipLists,
    opts: &Options,
) -> Result<WeightedSample, PosteriorError> {
    let samples = QUICK_SAMPLES;
    let chunks = samples.div_ceil(WEIGHTED_CHUNK);
    let chunks: Vec<Result<Vec<(Bits, f64)>, TimeLimit>> = (0..chunks)
        .into_par_iter()
        .map(|c| {
            opts.deadline.check()?;
            let want = WEIGHTED_CHUNK.min(samples - c * WEIGHTED_CHUNK);
            let mut rng =
                ChaCha8Rng::seed_from_u64(opts.seed ^ (c.wrapping_mul(0x9E37_79B9_7F4A_7C15)));
            let mut choices: Vec<(usize, Bits, Bits)> = Vec::with_capacity(1024);
            Ok((0..want)
                .filter_map(|_| weighted_draw(lists, &mut rng, &mut choices))
                .collect())
        })
        .collect();
    let chunks = chunks
        .into_iter()
        .collect::<Result<_, _>>()
        .map_err(|TimeLimit| PosteriorError::TimeLimit {
            exact: false,
            draws: 0,
        })?;
    Ok(WeightedSample {
        chunks,
        seed: opts.seed,
    })
}

impl WeightedSample {
    /// The probabilities given that the squares of `misses` (beyond the board's) are misses:
    /// the weighted share of the configurations that cover none of them. Each chunk is summed
    /// in the order drawn, and the chunks in order, so the answer does not depend on the
    /// threads. `Inconsistent` when every configuration covers one of them.
    pub(crate) fn posterior(&self, misses: Bits) -> Result<Posterior, PosteriorError> {
        let mut cover = [0f64; CELLS];
        let mut total = 0f64;
        for chunk in &self.chunks {
            let mut part = [0f64; CELLS];
            let mut part_total = 0f64;
            for &(occ, w) in chunk.iter().filter(|(occ, _)| occ & misses == 0) {
                part_total += w;
                let mut cells = occ;
                while cells != 0 {
                    part[cells.trailing_zeros() as usize] += w;
                    cells &= cells - 1;
                }
            }
            for (a, b) in cover.iter_mut().zip(part) {
                *a += b;
            }
            total += part_total;
        }
        if total == 0.0 {
            return Err(PosteriorError::Inconsistent);
        }
        let mut probabilities = [0.0; CELLS];
        for (p, &c) in probabilities.iter_mut().zip(&cover) {
            *p = c / total;
        }
        Ok(Posterior {
            probabilities,
            used: Used::Weighted {
                samples: QUICK_SAMPLES,
                seed: self.seed,
            },
        })
    }
}

/// One weighted draw: the squares covered and the weight, or `None` at a dead end.
fn weighted_draw(
    lists: &ShipLists,
    rng: &mut ChaCha8Rng,
    choices: &mut Vec<(usize, Bits, Bits)>,
) -> Option<(Bits, f64)> {
    let n = lists.items.len();
    let mut placed = vec![false; n];
    let mut occ: Bits = 0;
    let mut forbid: Bits = 0;
    let mut weight = 1f64;
    for _ in 0..n {
        choices.clear();
        let open = lists.hits & !occ;
        if open != 0 {
            let first = open & open.wrapping_neg();
            for (k, l) in lists.items.iter().enumerate() {
                if placed[k] {
                    continue;
                }
                for it in l {
                    if it.cells & first != 0 && it.cells & forbid == 0 {
                        choices.push((k, it.cells, it.conflict));
                    }
                }
            }
        } else {
            let k = placed.iter().position(|&p| !p)?;
            for it in &lists.items[k] {
                if it.cells & forbid == 0 && it.cells & lists.hits == 0 {
                    choices.push((k, it.cells, it.conflict));
                }
            }
        }
        if choices.is_empty() {
            return None;
        }
        let (k, cells, conflict) = choices[rng.random_range(0..choices.len())];
        weight *= choices.len() as f64;
        placed[k] = true;
        occ |= cells;
        forbid |= conflict;
    }
    (occ & lists.hits == lists.hits).then_some((occ, weight))
}
