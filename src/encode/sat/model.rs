//! The choice of CNF model (`--encoding`). Each model is a file of its own ([`super::cell`],
//! [`super::placement_model`]) with its spec in `encodings/`; both fill the same
//! [`Encoding`] (cell and placement variables), so decoding, blocking clauses and DIMACS
//! variable maps work the same way for every model.

use super::cell;
use super::instance::{Encoding, Instance};
use super::placement_model;
use crate::solver::sink::ClauseSink;

/// The CNF models offered on the command line.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    Hash,
    serde::Serialize,
    serde::Deserialize,
    strum::VariantArray,
    strum::IntoStaticStr,
    strum::EnumMessage,
)]
#[strum(serialize_all = "kebab-case")]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Model {
    /// Cell variables tied to placement variables, local no-touch rule (`encodings/sat-cell.md`).
    #[default]
    Cell,
    /// One variable per legal placement, halo clauses between placements, cells derived
    /// (`encodings/sat-placement.md`).
    Placement,
}

impl Model {
    /// Every model, for tests and comparisons.
    pub const ALL: &'static [Model] = &[Model::Cell, Model::Placement];

    /// The name used on the command line and in DIMACS headers.
    pub fn name(self) -> &'static str {
        match self {
            Model::Cell => "cell",
            Model::Placement => "placement",
        }
    }

    /// The model called `name` (as written by [`Model::name`]).
    pub fn from_name(name: &str) -> Option<Model> {
        Model::ALL.iter().copied().find(|m| m.name() == name)
    }

    /// Encodes `instance` into `sink` with this model. Variable numbering is deterministic:
    /// cells row-major first, then placements in [`crate::model::placement::Placements::ships`] order, then auxiliaries.
    pub fn encode<S: ClauseSink + ?Sized>(self, instance: &Instance<'_>, sink: &mut S) -> Encoding {
        match self {
            Model::Cell => cell::encode(instance, sink),
            Model::Placement => placement_model::encode(instance, sink),
        }
    }
}

impl std::fmt::Display for Model {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
