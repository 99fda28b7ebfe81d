//! What deduction knows and is asked: the decided cells and forced ships ([`Knowledge`], [`Facts`]),
//! each placement's [`PlacementStatus`], the rule set ([`Rules`]) and the effort ([`Effort`]), and a
//! position on the trail ([`Mark`]).

/// What pre-solving decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Knowledge {
    /// Per cell, row-major: `Some(true)` ship, `Some(false)` water, `None` undecided.
    pub cells: Vec<Option<bool>>,
    /// Per placement of the pruned list: whether the ship is certainly there.
    pub forced: Vec<bool>,
}

impl Knowledge {
    /// Whether every cell is decided.
    pub fn is_complete(&self) -> bool {
        self.cells.iter().all(Option::is_some)
    }
}

/// The rules found the puzzle unsolvable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Contradiction;

/// How hard to try.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Effort {
    /// The rules alone, to a fixpoint.
    #[default]
    Rules,
    /// The rules, then probing every candidate ship (longest first) until a round strikes
    /// nothing.
    Probing,
}

/// Which rules run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Rules {
    /// Every rule, including "the cells that every candidate ship through a ship cell covers
    /// are ship, and the cells in all their halos are water" (pre-solving).
    #[default]
    Full,
    /// Every rule but that one: the placement model's own propagation, whose clause counts
    /// `encodings/sat-placement.md` states.
    Basic,
}

/// What propagation decided about a placement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlacementStatus {
    /// Undecided.
    Open,
    /// Part of every solution.
    Chosen,
    /// Part of no solution.
    Dead,
}

/// The facts that `facts` derived, on the placement list it was given.
#[derive(Clone, Debug)]
pub struct Facts {
    /// Per cell, row-major: `Some(true)` ship, `Some(false)` water, `None` open.
    pub cells: Vec<Option<bool>>,
    /// Per placement, in [`Placements::ships`](crate::model::placement::Placements::ships) order.
    pub placements: Vec<PlacementStatus>,
}

/// A position on the trail to undo back to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mark(pub(super) usize);
