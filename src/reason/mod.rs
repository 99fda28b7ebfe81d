//! The reasoning core: what follows from the rules of the puzzle, and a search that uses them.
//!
//! - [`deduce`]: the one propagation engine over cells and placements. Pre-solving, the
//!   placement model and the generator run it.
//! - [`formula`]: the clue-free formula of a puzzle plus its clues, built in one place, with
//!   every clause tagged by the rule it states. Grading, hints and the generator reason on it.
//! - [`search`]: depth-first search over candidate ships with [`deduce`] as propagation, which
//!   the SAT engine tries within a node budget before it builds a solver.
//! - [`mod@unit`]: unit propagation with reasons and failed-literal probing over such a formula:
//!   what grades measure and what hints explain.

pub mod deduce;
pub mod formula;
pub mod search;
pub mod unit;
