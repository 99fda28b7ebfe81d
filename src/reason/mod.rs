//! The reasoning core: what follows from the rules of the puzzle, without search.
//!
//! - [`deduce`]: the one propagation engine over cells and placements. Pre-solving, the
//!   placement model and the generator run it.
//! - [`mod@unit`]: unit propagation with reasons and failed-literal probing over a formula
//!   ([`crate::encode::sat::formula`], the clue-free formula plus its clues, every clause tagged
//!   by the rule it states):
//!   what grades measure and what hints explain.

pub mod deduce;
pub mod unit;
