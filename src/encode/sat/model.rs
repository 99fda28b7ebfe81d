//! The choice of CNF model (`--encoding`). Each model is a file of its own ([`super::cell`],
//! [`super::placement_model`]) with its spec in `encodings/`; both fill the same
//! [`Encoding`] (cell and placement variables), so decoding, blocking clauses and DIMACS
//! variable maps work the same way for every model.

use super::cell;
use super::instance::{Encoding, Instance};
use super::placement_model;
pub use crate::model::setup::Model;
use crate::solver::sink::ClauseSink;

impl Model {
    /// Encodes `instance` into `sink` with this model. Variable numbering is deterministic:
    /// cells row-major first, then placements in [`crate::model::placement::Placements::ships`] order, then auxiliaries.
    pub(crate) fn encode<S: ClauseSink + ?Sized>(
        self,
        instance: &Instance<'_>,
        sink: &mut S,
    ) -> Encoding {
        match self {
            Model::Cell => cell::encode(instance, sink),
            Model::Placement => placement_model::encode(instance, sink),
        }
    }
}
