//! The puzzle model, the lowest layer: the puzzle and its grid ([`puzzle`]), board geometry,
//! the rules, ship placements, the independent verifier, input limits, deadlines and what a
//! solve returns ([`outcome`]) and what it is set up with ([`setup`]), and the crate's own literals ([`lit`]) and CNF formulas
//! ([`cnf`]), in which every formula is written whatever solver answers it. It imports nothing
//! else of the crate.

pub mod choice;
pub mod cnf;
pub mod deadline;
pub mod geometry;
pub mod grid;
pub mod limits;
pub mod lit;
pub mod outcome;
pub mod placement;
pub mod puzzle;
pub mod rule;
pub mod setup;
pub mod verify;
