//! The choice of CNF model (`--encoding`). Each model is a file of its own ([`super::cell`],
//! [`super::placement_model`]) with its spec in `encodings/`; both fill the same
//! [`Encoding`] (cell and placement variables), so decoding, blocking clauses and DIMACS
//! variable maps work the same way for every model.

use super::card::CardKind;
use super::cell;
use super::placement_model;
use super::sink::{ClauseSink, Counted};
use crate::placement::Placements;
use crate::puzzle::{Puzzle, Shape};
use crate::reason::deduce::Knowledge;
use varisat::Var;

/// The variables of an encoded puzzle, whatever the model: for decoding models, blocking
/// solutions and naming variables.
#[derive(Clone, Debug)]
pub struct Encoding {
    /// Cell variables, row-major: true when the cell holds a ship part.
    pub cells: Vec<Var>,
    /// One variable per placement, in the order of [`Placements::ships`].
    pub placements: Vec<Var>,
    /// Variables created (cells, placements and auxiliaries).
    pub vars: usize,
    /// Clauses added.
    pub clauses: usize,
}

impl Encoding {
    /// Allocates the variables every model starts with: one per cell of `shape` (row-major),
    /// then one per placement. The counts start at zero; see [`Encoding::counted`].
    pub fn allocate<S: ClauseSink + ?Sized>(
        sink: &mut S,
        shape: Shape,
        placements: &Placements,
    ) -> Self {
        let cells = (0..shape.cells()).map(|_| sink.new_var()).collect();
        let placements = (0..placements.len()).map(|_| sink.new_var()).collect();
        Encoding {
            cells,
            placements,
            vars: 0,
            clauses: 0,
        }
    }

    /// The encoding with the variables and clauses `sink` counted.
    pub fn counted<S: ClauseSink + ?Sized>(self, sink: &Counted<'_, S>) -> Self {
        Encoding {
            vars: sink.vars,
            clauses: sink.clauses,
            ..self
        }
    }
}

/// The CNF models offered on the command line.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
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

    /// Encodes `puzzle` into `sink` with this model, using `placements` (from
    /// [`Placements::new`]) and `card` for every count. Variable numbering is deterministic:
    /// cells row-major first, then placements in [`Placements::ships`] order, then auxiliaries.
    pub fn encode<S: ClauseSink + ?Sized>(
        self,
        puzzle: &Puzzle,
        placements: &Placements,
        card: CardKind,
        sink: &mut S,
    ) -> Encoding {
        match self {
            Model::Cell => cell::encode(puzzle, placements, card, sink),
            Model::Placement => placement_model::encode(puzzle, placements, card, sink),
        }
    }
}

impl Model {
    /// Like [`Model::encode`], with the facts of [`crate::reason::deduce`] as constants: `placements`
    /// is the list pruned by [`crate::reason::deduce::deduce`], and every decided cell and certain
    /// placement gets a unit clause. The cell model also leaves out the clauses these satisfy
    /// (see `encodings/sat-cell.md`).
    pub fn encode_residual<S: ClauseSink + ?Sized>(
        self,
        puzzle: &Puzzle,
        placements: &Placements,
        knowledge: Option<&Knowledge>,
        card: CardKind,
        sink: &mut S,
    ) -> Encoding {
        match (self, knowledge) {
            (Model::Cell, _) => cell::encode_residual(puzzle, placements, knowledge, card, sink),
            (Model::Placement, None) => placement_model::encode(puzzle, placements, card, sink),
            (Model::Placement, Some(k)) => {
                let mut encoding = placement_model::encode(puzzle, placements, card, sink);
                for (var, value) in encoding.cells.iter().zip(&k.cells) {
                    if let Some(ship) = value {
                        sink.add_clause(&[var.lit(*ship)]);
                        encoding.clauses += 1;
                    }
                }
                for (var, forced) in encoding.placements.iter().zip(&k.forced) {
                    if *forced {
                        sink.add_clause(&[var.positive()]);
                        encoding.clauses += 1;
                    }
                }
                encoding
            }
        }
    }
}

impl std::fmt::Display for Model {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
