//! The puzzle model, the lowest layer: the puzzle and its grid ([`puzzle`]), board geometry,
//! the rules, ship placements, the independent verifier, input limits, deadlines and what a
//! solve returns ([`outcome`]). It imports nothing else of the crate.

pub mod deadline;
pub mod geometry;
pub mod grid;
pub mod limits;
pub mod outcome;
pub mod placement;
pub mod puzzle;
pub mod rule;
pub mod verify;
