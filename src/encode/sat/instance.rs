//! What a CNF model encodes ([`Instance`]: the puzzle, its placements, the cardinality encoding
//! and what pre-solving knows) and the variables it allocates ([`Encoding`]: cell and placement
//! variables), which every model fills the same way so that decoding, blocking clauses and
//! DIMACS variable maps work alike.
use super::card::CardKind;
use crate::model::lit::Var;
use crate::model::placement::Placements;
use crate::model::puzzle::{Puzzle, Shape};
use crate::reason::deduce::Knowledge;
use crate::solver::sink::{ClauseSink, Counted};

/// What a CNF model encodes: a puzzle, its legal placements, what pre-solving decided (if it
/// ran) and the cardinality encoding of every count.
#[derive(Clone, Copy, Debug)]
pub struct Instance<'a> {
    /// The puzzle.
    pub puzzle: &'a Puzzle,
    /// Its legal placements ([`Placements::new`]), pruned by [`crate::reason::deduce::deduce`]
    /// when `knowledge` is given.
    pub placements: &'a Placements,
    /// The facts pre-solving decided, aligned with `placements`. Each decided cell and certain
    /// placement becomes a unit clause; the cell model also leaves out the clauses they satisfy
    /// (see `encodings/sat-cell.md`).
    pub knowledge: Option<&'a Knowledge>,
    /// The cardinality encoding of every count.
    pub card: CardKind,
}

impl<'a> Instance<'a> {
    /// The whole encoding of `puzzle` over `placements`, without pre-solved facts.
    pub fn plain(puzzle: &'a Puzzle, placements: &'a Placements, card: CardKind) -> Self {
        Instance {
            puzzle,
            placements,
            knowledge: None,
            card,
        }
    }

    /// Starts an encoding into `sink`: a counter of what the model adds, and the cell and
    /// placement variables every model begins with.
    pub(crate) fn start<'s, S: ClauseSink + ?Sized>(
        &self,
        sink: &'s mut S,
    ) -> (Counted<'s, S>, Encoding) {
        let mut sink = Counted::new(sink);
        let encoding = Encoding::allocate(&mut sink, self.puzzle.shape(), self.placements);
        (sink, encoding)
    }
}

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
    pub(crate) fn allocate<S: ClauseSink + ?Sized>(
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
    pub(crate) fn counted<S: ClauseSink + ?Sized>(self, sink: &Counted<'_, S>) -> Self {
        Encoding {
            vars: sink.vars,
            clauses: sink.clauses,
            ..self
        }
    }
}
