//! The candidate placements of every ship afloat ([`ShipLists`]), each with the boxes the
//! engines intersect.

use super::super::board::{Bits, Placement, Position, ShipKind, SquareMark, dilate, placements};
use super::options::*;

/// One candidate placement of one ship, with what the engines need.
#[derive(Clone, Copy, Debug)]
pub(super) struct ShipItem {
    pub(super) cells: Bits,
    /// Squares another ship may not cover (its own squares, or with their ring when ships may
    /// not touch).
    pub(super) conflict: Bits,
    /// Feature box, inclusive, in the 21x21 feature lattice.
    pub(super) rect: Rect,
}

#[derive(Clone, Copy, Debug)]
pub(super) struct Rect {
    pub(super) r0: usize,
    pub(super) r1: usize,
    pub(super) c0: usize,
    pub(super) c1: usize,
}

/// The candidate placements of each ship afloat.
pub(super) struct ShipLists {
    pub(super) ships: Vec<ShipKind>,
    pub(super) items: Vec<Vec<ShipItem>>,
    pub(super) hits: Bits,
}

pub(super) fn lists(pos: &Position, rule: TouchRule) -> ShipLists {
    let b = &pos.board;
    let empty = b.bits(SquareMark::Empty);
    let sunk = b.bits(SquareMark::Sunk);
    let mut blocked = b.bits(SquareMark::Miss) | sunk;
    if rule == TouchRule::NoTouch {
        blocked |= dilate(sunk);
    }
    let t = usize::from(rule == TouchRule::NoTouch);
    let items = pos
        .ships
        .iter()
        .map(|s| {
            placements(s.len())
                .iter()
                .filter(|p| p.cells & blocked == 0 && p.cells & empty != 0)
                .map(|p| item(p, rule, t))
                .collect()
        })
        .collect();
    ShipLists {
        ships: pos.ships.clone(),
        items,
        hits: b.bits(SquareMark::Hit),
    }
}

pub(super) fn item(p: &Placement, rule: TouchRule, t: usize) -> ShipItem {
    let e = p.end();
    ShipItem {
        cells: p.cells,
        conflict: match rule {
            TouchRule::Touch => p.cells,
            TouchRule::NoTouch => dilate(p.cells),
        },
        rect: Rect {
            r0: 2 * p.start.row as usize,
            r1: 2 * (e.row as usize + t),
            c0: 2 * p.start.col as usize,
            c1: 2 * (e.col as usize + t),
        },
    }
}

/// Whether no configuration can fit, at a glance: a ship without a placement, or more hits
/// than the ships afloat have squares (which also keeps the exact engine's subsets of hits
/// below 2^64).
pub(super) fn hopeless(lists: &ShipLists) -> bool {
    let reach: usize = lists.ships.iter().map(|s| s.len()).sum();
    lists.items.iter().any(Vec::is_empty) || lists.hits.count_ones() as usize > reach
}

pub(super) fn exact_work(lists: &ShipLists) -> f64 {
    let mut sizes: Vec<f64> = lists.items.iter().map(|l| l.len() as f64).collect();
    sizes.sort_by(f64::total_cmp);
    let k = sizes.len();
    let outer: f64 = sizes[..k.saturating_sub(3)].iter().product();
    let inner: f64 = sizes[k.saturating_sub(3)..].iter().sum::<f64>() * 20.0 + 15.0 * 500.0;
    let subsets = 2f64.powi(lists.hits.count_ones() as i32);
    subsets * outer * inner
}
