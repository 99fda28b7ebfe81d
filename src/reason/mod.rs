//! The reasoning core: what follows from the rules of the puzzle, and a search that uses them.
//!
//! - [`deduce`]: the one propagation engine over cells and placements. Pre-solving, the
//!   placement model and the generator run it.
//! - [`search`]: depth-first search over candidate ships with [`deduce`] as propagation, which
//!   the SAT engine tries within a node budget before it builds a solver.
//! - [`mod@unit`]: unit propagation with reasons and failed-literal probing over a formula
//!   ([`crate::encode::sat::formula`], the clue-free formula plus its clues, every clause tagged
//!   by the rule it states): what grades measure and what hints explain.

pub mod deduce;
pub mod search;
pub mod unit;
