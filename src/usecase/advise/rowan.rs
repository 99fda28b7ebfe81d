//! The Rowan 2013 contest's rule for the best shot: a square's value is the number of
//! placements of the ships still afloat that cover it. With no hits on the board every
//! placement on untouched squares counts; with hits, only placements that explain the longest
//! string(s) of hits count, a string with a miss at both ends being several ships whose hits
//! are taken one at a time (section 1.3 of the specification). `docs/advisor.md` states the
//! rules with the specification's worked examples.

#[cfg(test)]
use super::board::placements;
use super::board::{Bits, CELLS, Position, SIZE, ShipKind, Square, SquareMark, covering};
use std::sync::OnceLock;

/// The contest's answer for one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Advice {
    /// The best value (0 when no ship fits).
    pub value: u32,
    /// Every square with that value, by row, then column.
    pub squares: Vec<Square>,
}

/// A string of hits the rules pursue, and whether it is taken as one ship.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct HitString {
    /// Its squares.
    pub cells: Bits,
    /// Number of hits in it.
    pub len: u32,
}

/// The board's squares by mark, as bitboards.
#[derive(Clone, Copy, Debug)]
struct Marks {
    empty: Bits,
    hits: Bits,
    blocked: Bits,
}

impl Marks {
    fn of(pos: &Position) -> Marks {
        let b = &pos.board;
        Marks {
            empty: b.bits(SquareMark::Empty),
            hits: b.bits(SquareMark::Hit),
            blocked: b.bits(SquareMark::Miss) | b.bits(SquareMark::Sunk),
        }
    }

    /// A placement may hold a ship still afloat: no miss or sunk square, and at least one
    /// untouched square (a ship with every square hit would have been announced sunk).
    fn fits(&self, cells: Bits) -> bool {
        cells & self.blocked == 0 && cells & self.empty != 0
    }
}

/// The strings of hits on the board: each maximal run of two or more hits along a row or a
/// column that one ship afloat can still extend is one string (one ship); every other hit is
/// a string of its own. A run that no ship afloat can extend — the specification's "miss at
/// both ends" — is several ships side by side, shot across.
pub(crate) fn hit_strings(pos: &Position) -> Vec<HitString> {
    let m = Marks::of(pos);
    let lens: Vec<usize> = pos.ships.iter().map(|s| s.len()).collect();
    let mut strings = Vec::new();
    let mut in_open_run: Bits = 0;
    for run in runs(m.hits) {
        let horizontal = run.horizontal;
        let first = run.cells.trailing_zeros() as usize;
        let open = lens.iter().any(|&len| {
            covering(len, first).iter().any(|p| {
                p.horizontal == horizontal && p.cells & run.cells == run.cells && m.fits(p.cells)
            })
        });
        if open {
            in_open_run |= run.cells;
            strings.push(HitString {
                cells: run.cells,
                len: run.cells.count_ones(),
            });
        }
    }
    let mut single = m.hits & !in_open_run;
    while single != 0 {
        let bit = single & single.wrapping_neg();
        single &= single - 1;
        strings.push(HitString { cells: bit, len: 1 });
    }
    strings
}

struct Run {
    cells: Bits,
    horizontal: bool,
}

/// Maximal runs of two or more hits along rows and columns.
fn runs(hits: Bits) -> Vec<Run> {
    let mut out = Vec::new();
    // Quick exit when no two hits are side by side.
    let beside =
        (hits & (hits >> 1) & !super::board::column_bits(SIZE - 1)) | (hits & (hits >> SIZE));
    if beside == 0 {
        return out;
    }
    for horizontal in [true, false] {
        for line in 0..SIZE {
            let mut cur: Bits = 0;
            for k in 0..=SIZE {
                let sq = (k < SIZE).then(|| {
                    if horizontal {
                        Square::new(line, k)
                    } else {
                        Square::new(k, line)
                    }
                });
                match sq {
                    Some(sq) if hits & sq.bit() != 0 => cur |= sq.bit(),
                    _ => {
                        if cur.count_ones() >= 2 {
                            out.push(Run {
                                cells: cur,
                                horizontal,
                            });
                        }
                        cur = 0;
                    }
                }
            }
        }
    }
    out
}

/// Each square's value under the contest's rules (0 for squares already shot).
pub(crate) fn scores(pos: &Position) -> [u32; CELLS] {
    let m = Marks::of(pos);
    if m.hits != 0 {
        let strings = hit_strings(pos);
        let mut lens: Vec<u32> = strings.iter().map(|s| s.len).collect();
        lens.sort_unstable_by(|a, b| b.cmp(a));
        lens.dedup();
        // The longest strings first; a shorter one only if the longer ones give no square.
        for len in lens {
            let targets: Vec<Bits> = strings
                .iter()
                .filter(|s| s.len == len)
                .map(|s| s.cells)
                .collect();
            let s = target(pos, &m, &targets);
            if s.iter().any(|&v| v > 0) {
                return s;
            }
        }
    }
    // Hunting: placements on untouched squares only.
    hunt(pos, m.empty)
}

/// Placements lying wholly on untouched squares, counted per square from the runs of
/// untouched squares along each row and column (the same numbers as listing the placements,
/// several times faster).
fn hunt(pos: &Position, empty: Bits) -> [u32; CELLS] {
    let mut mask = 0usize;
    for ship in &pos.ships {
        if let Some(k) = ShipKind::FLEET.iter().position(|f| f == ship) {
            mask |= 1 << k;
        }
    }
    let table = &hunt_table()[mask];
    // The board transposed, so that columns are read like rows.
    let mut transposed: Bits = 0;
    let mut rest = empty;
    while rest != 0 {
        let i = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        transposed |= 1u128 << ((i % SIZE) * SIZE + i / SIZE);
    }
    let mut s = [0u32; CELLS];
    for (bits, horizontal) in [(empty, true), (transposed, false)] {
        for line in 0..SIZE {
            let mut r = (bits >> (line * SIZE)) as u32 & ((1 << SIZE) - 1);
            let mut base = 0usize;
            while r != 0 {
                let z = r.trailing_zeros();
                r >>= z;
                base += z as usize;
                let run = (!r).trailing_zeros() as usize;
                for (off, &v) in table[run].iter().enumerate().take(run) {
                    let k = base + off;
                    let idx = if horizontal {
                        line * SIZE + k
                    } else {
                        k * SIZE + line
                    };
                    s[idx] += v;
                }
                r >>= run;
                base += run;
            }
        }
    }
    s
}

/// For each set of ships afloat (bit k for `ShipKind::FLEET[k]`), each run length and each
/// offset in the run: the number of placements of those ships inside the run that cover the
/// offset.
fn hunt_table() -> &'static [[[u32; SIZE]; SIZE + 1]] {
    static TABLE: OnceLock<Vec<[[u32; SIZE]; SIZE + 1]>> = OnceLock::new();
    TABLE.get_or_init(|| {
        (0..1usize << ShipKind::FLEET.len())
            .map(|mask| {
                let mut t = [[0u32; SIZE]; SIZE + 1];
                for (run, row) in t.iter_mut().enumerate() {
                    for (off, v) in row.iter_mut().enumerate().take(run) {
                        for (k, ship) in ShipKind::FLEET.iter().enumerate() {
                            let len = ship.len();
                            if mask >> k & 1 == 1 && run >= len {
                                let hi = off.min(run - len);
                                let lo = (off + 1).saturating_sub(len);
                                *v += (hi + 1 - lo) as u32;
                            }
                        }
                    }
                }
                t
            })
            .collect()
    })
}

/// Placements that contain at least one of `targets` wholly, each counted once.
fn target(pos: &Position, m: &Marks, targets: &[Bits]) -> [u32; CELLS] {
    let mut s = [0u32; CELLS];
    for ship in &pos.ships {
        for (k, &t) in targets.iter().enumerate() {
            for p in covering(ship.len(), t.trailing_zeros() as usize) {
                if p.cells & t != t || !m.fits(p.cells) {
                    continue;
                }
                // Counted already through an earlier target.
                if targets[..k].iter().any(|&e| e & !p.cells == 0) {
                    continue;
                }
                let mut open = p.cells & m.empty;
                while open != 0 {
                    s[open.trailing_zeros() as usize] += 1;
                    open &= open - 1;
                }
            }
        }
    }
    s
}

#[cfg(test)]
fn count(pos: &Position, m: &Marks, keep: impl Fn(Bits) -> bool) -> [u32; CELLS] {
    let mut s = [0u32; CELLS];
    for ship in &pos.ships {
        for p in placements(ship.len()) {
            if m.fits(p.cells) && keep(p.cells) {
                let mut open = p.cells & m.empty;
                while open != 0 {
                    s[open.trailing_zeros() as usize] += 1;
                    open &= open - 1;
                }
            }
        }
    }
    s
}

/// The best squares and their value.
pub fn advise(pos: &Position) -> Advice {
    best(&scores(pos))
}

/// The largest value in `scores` and every square that has it, in row-then-column order.
pub(crate) fn best(scores: &[u32; CELLS]) -> Advice {
    let value = scores.iter().copied().max().unwrap_or(0);
    let squares = if value == 0 {
        Vec::new()
    } else {
        (0..CELLS)
            .filter(|&i| scores[i] == value)
            .map(Square::from_index)
            .collect()
    };
    Advice { value, squares }
}

#[cfg(test)]
mod tests {
    use super::super::board::ShotBoard;
    use super::*;

    /// A board from ten rows of digits.
    fn board(rows: [&str; 10]) -> ShotBoard {
        let mut b = ShotBoard::new();
        for (r, row) in rows.iter().enumerate() {
            for (c, ch) in row.chars().enumerate() {
                b.set(Square::new(r, c), SquareMark::from_digit(ch).unwrap());
            }
        }
        b
    }

    fn value_at(s: &[u32; CELLS], name: &str) -> u32 {
        s[Square::parse(name).unwrap().index()]
    }

    #[test]
    fn run_counting_agrees_with_listing_placements() {
        let mut b = ShotBoard::new();
        for (i, name) in ["C3", "D7", "J1", "E5", "E6", "A10"].iter().enumerate() {
            let m = if i % 2 == 0 {
                SquareMark::Miss
            } else {
                SquareMark::Sunk
            };
            b.set(Square::parse(name).unwrap(), m);
        }
        let pos = Position {
            ships: vec![ShipKind::Carrier, ShipKind::Destroyer, ShipKind::Submarine],
            board: b,
        };
        let m = Marks::of(&pos);
        assert_eq!(
            hunt(&pos, m.empty),
            count(&pos, &m, |cells| cells & !m.empty == 0)
        );
    }

    #[test]
    fn section_1_3_counts_each_hit_of_a_closed_string_alone() {
        let pos = Position {
            ships: ShipKind::FLEET.to_vec(),
            board: board([
                "0000000000",
                "0000000000",
                "0000000000",
                "0001000000",
                "0002100000",
                "0002010000",
                "0002000000",
                "0001000000",
                "0000000000",
                "0000000000",
            ]),
        };
        let s = scores(&pos);
        // The values the specification works out in section 1.3.
        for (sq, v) in [("C5", 4), ("C6", 8), ("E6", 5), ("C7", 11), ("E7", 12)] {
            assert_eq!(value_at(&s, sq), v, "{sq}");
        }
        assert_eq!(hit_strings(&pos).len(), 3);
    }

    #[test]
    fn section_1_1_counts_placements_by_ship() {
        let pos = Position {
            ships: vec![
                ShipKind::Carrier,
                ShipKind::Destroyer,
                ShipKind::Submarine,
                ShipKind::PtBoat,
            ],
            board: board([
                "0000000000",
                "0000000000",
                "0000000000",
                "0000000000",
                "0000100000",
                "0001010000",
                "0000310000",
                "0000300000",
                "0000300000",
                "0000300000",
            ]),
        };
        let s = scores(&pos);
        for (sq, v) in [("D7", 6), ("C8", 17), ("C4", 23), ("G4", 24), ("E6", 0)] {
            assert_eq!(value_at(&s, sq), v, "{sq}");
        }
    }
}
