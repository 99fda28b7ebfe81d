//! The SAT side: a clause sink that encoders write into, the cardinality encodings, the CNF
//! models of the puzzle, DIMACS, and the engine that solves them (through [`crate::solver`]) and
//! enumerates solutions.

pub mod answer;
pub mod card;
pub mod cell;
pub mod clue;
mod decision;
pub mod dimacs;
pub mod engine;
pub mod formula;
pub mod instance;
pub mod model;
pub mod placement_model;
pub mod portfolio;
mod racer;
pub mod redundant;
mod schedule;

pub(crate) use crate::model::lit::Lit;

/// A portfolio member as a solve's statistics name it ([`crate::model::outcome::SolvedBy`]).
impl From<portfolio::Member> for crate::model::outcome::SatMember {
    fn from(member: portfolio::Member) -> Self {
        crate::model::outcome::SatMember {
            setup: member.config.setup(),
            solver: member.solver,
            tuning: member.tuning,
            presolved: member.presolved,
        }
    }
}
