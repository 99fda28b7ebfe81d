//! The choice of CNF model (`--encoding`). Each model is a file of its own ([`super::cell`],
//! [`super::placement_model`]) with its spec in `encodings/`; both fill the same
//! [`Encoding`] (cell and placement variables), so decoding, blocking clauses and DIMACS
//! variable maps work the same way for every model.

use super::cell;
use super::instance::{Encoding, Instance};
use super::placement_model;
use crate::model::choice::choice;
use crate::solver::sink::ClauseSink;

choice! {
    serde;
    /// The CNF models offered on the command line.
    #[derive(Default)]
    #[non_exhaustive]
    pub enum Model {
        /// Cell variables tied to placement variables, local no-touch rule (`encodings/sat-cell.md`).
        #[default]
        Cell,
        /// One variable per legal placement, halo clauses between placements, cells derived
        /// (`encodings/sat-placement.md`).
        Placement,
    }
}

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
