//! The reasoning core: what follows from the rules of the puzzle, without search.
//!
//! - [`deduce`]: the one propagation engine over cells and placements. Pre-solving, the
//!   placement model and the generator run it.
//! - [`formula`]: the clue-free formula of a puzzle plus its clues, built in one place, with
//!   every clause tagged by the rule it states. Grading, hints and the generator reason on it.
//! - [`mod@unit`]: unit propagation with reasons and failed-literal probing over such a formula:
//!   what grades measure and what hints explain.

pub mod deduce;
pub mod unit;
