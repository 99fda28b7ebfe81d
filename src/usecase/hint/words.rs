//! A hint in words: how it was found ([`Method`]), the forced cell and the rules that force it
//! ([`Hint`]), with cells counted from 1 and long lists of rules summarised ([`RULES_SHOWN`]).

use crate::model::puzzle::{Clue, Piece, Pos};
pub use crate::model::rule::{Rule, cell_name, content_name};
use std::fmt;

/// How a hint was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Method {
    /// The rules force the cell directly (unit propagation).
    Propagation,
    /// The other content breaks the rules after a chain of direct consequences (one-step
    /// look-ahead).
    LookAhead,
    /// With the other content, a second open cell breaks the rules whatever it holds (a case
    /// split: two-step look-ahead through one named cell).
    CaseSplit,
    /// Only a search shows that the other content leaves no solution; the rules it needed are
    /// named (a minimal set of counts, clues and filled cells that rule it out).
    Search,
}

/// The case split behind a [`Method::CaseSplit`] hint: were the hinted cell the other content,
/// `pos` could be neither a ship part nor water.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Split {
    /// The second cell.
    pub pos: Pos,
    /// The rules that could not all hold with a ship part there.
    pub if_ship: Vec<Rule>,
    /// The rules that could not all hold with water there.
    pub if_water: Vec<Rule>,
}

/// One forced cell and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hint {
    /// The cell.
    pub pos: Pos,
    /// What it holds: water, a ship part, or a piece when its neighbours already fix it.
    pub content: Clue,
    /// How it was found.
    pub method: Method,
    /// The rules involved: every one of them (the text names the key ones, see
    /// [`RULES_SHOWN`]); for [`Method::CaseSplit`], those of both branches.
    pub rules: Vec<Rule>,
    /// The case split, for [`Method::CaseSplit`].
    pub split: Option<Split>,
}

/// How many rules of each kind a hint's text names before it summarises the rest ("and 12
/// other cells already filled"): counts and other rules, clues, filled cells. The lines, clues
/// and filled cells nearest the hinted cell come first. A case split names up to `[3, 2, 2]`
/// per branch, a search `[4, 2, 2]`.
pub const RULES_SHOWN: [usize; 3] = [6, 3, 3];

/// The rules as a hint's text names them: the fleet, shape and no-touch rules and the counts
/// of the lines nearest `near` first, then the clues and filled cells nearest it, each kind
/// capped at `shown` with a count of the rest.
pub(super) fn rule_list(rules: &[Rule], near: Pos, shown: [usize; 3]) -> String {
    // Counts of the lines nearest `near` first (after the other rules), then clues and
    // filled cells nearest it.
    let distance = |r: &Rule| match (*r, r.cell()) {
        (_, Some(p)) => 1 + p.row.abs_diff(near.row) + p.col.abs_diff(near.col),
        (Rule::RowCount { row, .. }, _) => 1 + row.abs_diff(near.row),
        (Rule::ColCount { col, .. }, _) => 1 + col.abs_diff(near.col),
        _ => 0,
    };
    let mut general: Vec<Rule> = rules
        .iter()
        .copied()
        .filter(|r| r.cell().is_none())
        .collect();
    let mut clues: Vec<Rule> = Vec::new();
    let mut filled: Vec<Rule> = Vec::new();
    for &r in rules {
        match r {
            Rule::Clue { .. } => clues.push(r),
            Rule::Filled { .. } => filled.push(r),
            _ => {}
        }
    }
    general.sort_by_key(distance);
    clues.sort_by_key(distance);
    filled.sort_by_key(distance);
    let mut parts: Vec<String> = Vec::new();
    let mut add = |list: &mut Vec<Rule>, cap: usize, rest: &str, rest_one: &str| {
        let more = list.len().saturating_sub(cap);
        list.truncate(cap);
        parts.extend(list.iter().map(Rule::to_string));
        match more {
            0 => {}
            1 => parts.push(format!("and 1 {rest_one}")),
            n => parts.push(format!("and {n} {rest}")),
        }
    };
    add(&mut general, shown[0], "other counts", "other count");
    add(&mut clues, shown[1], "other clues", "other clue");
    add(
        &mut filled,
        shown[2],
        "other cells already filled",
        "other cell already filled",
    );
    parts.join("; ")
}

/// `Row 3, column 5`: a cell at the start of a sentence.
pub(super) fn cell_title(pos: Pos) -> String {
    let name = cell_name(pos);
    let mut chars = name.chars();
    chars
        .next()
        .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
        .unwrap_or_default()
}

impl fmt::Display for Hint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.content {
            Clue::Piece(Piece::Water) => "water".to_string(),
            Clue::Ship => "a ship part".to_string(),
            c => format!("a {}", content_name(c)),
        };
        let other = if self.content.is_ship() {
            "water"
        } else {
            "a ship part"
        };
        let cell = cell_title(self.pos);
        let rules = |rules: &[Rule], shown| rule_list(rules, self.pos, shown);
        match (self.method, &self.split) {
            (Method::Propagation, _) => {
                write!(
                    f,
                    "{cell} is {what}, because {}.",
                    rules(&self.rules, RULES_SHOWN)
                )
            }
            (Method::LookAhead, _) => write!(
                f,
                "{cell} is {what}: were it {other}, these rules could not all hold: {}.",
                rules(&self.rules, RULES_SHOWN)
            ),
            (Method::CaseSplit, Some(split)) => {
                let half = [3, 2, 2];
                write!(
                    f,
                    "{cell} is {what}: were it {other}, {} would break the rules either way. As a ship part, these could not all hold: {}. As water, these could not: {}.",
                    cell_name(split.pos),
                    rules(&split.if_ship, half),
                    rules(&split.if_water, half)
                )
            }
            _ => write!(
                f,
                "{cell} is {what}: were it {other}, no arrangement of the fleet could satisfy these rules together with the ship-shape and no-touch rules (a search shows it; no short chain of deductions does): {}.",
                rules(&self.rules, [4, 2, 2])
            ),
        }
    }
}
