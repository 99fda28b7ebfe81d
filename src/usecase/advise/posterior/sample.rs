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
