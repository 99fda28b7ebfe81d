//! What a posterior is asked with ([`Options`]: the touch rule, the method, the deadline) and
//! what it returns ([`Posterior`], how it was [`Used`], [`PosteriorError`]).

use super::super::board::{Bits, CELLS};
use crate::model::choice::choice;
use crate::model::deadline::Deadline;

choice! {
    /// Whether ships may touch (`touch` or `no-touch`).
    #[derive(Default)]
    #[non_exhaustive]
    pub enum TouchRule {
        /// Ships may lie side by side (the board game).
        #[default]
        Touch,
        /// Ships may not touch, not even at a corner.
        NoTouch,
    }
}

choice! {
    /// How to compute the probabilities.
    #[derive(Default)]
    #[non_exhaustive]
    pub enum PosteriorMethod {
        /// Exact when the estimated work is small enough, sampling otherwise.
        #[default]
        Auto,
        /// Exact enumeration, however long it takes.
        Exact,
        /// Uniform sampling.
        Sample,
        /// Exact when the estimated work is below 1e7 (tens of milliseconds),
        /// otherwise sequential importance sampling of 20,000 configurations with the seed: the
        /// same answer on any machine, within a fraction of a second.
        Quick,
    }
}

/// Settings of [`super::posterior`].
#[derive(Clone, Debug)]
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

/// The largest estimated work [`PosteriorMethod::Quick`] counts exactly.
pub const QUICK_EXACT_WORK: f64 = 1e7;

/// The configurations [`PosteriorMethod::Quick`] samples when it does not count exactly.
pub const QUICK_SAMPLES: u64 = 20_000;

/// Estimated work (`estimated_work`) the exact engine gets through in a second, measured on
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
    /// Sequential importance sampling: ships placed one after another, each uniformly among
    /// the placements left (the first uncovered hit covered first), every configuration
    /// weighted by the product of the choices it had.
    Weighted {
        /// Configurations drawn.
        samples: u64,
        /// The seed.
        seed: u64,
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
    pub(crate) fn best(&self, board_empty: Bits) -> Vec<usize> {
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
