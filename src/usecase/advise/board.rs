//! The two-player game's 10x10 board as the Rowan 2013 contest describes it: squares marked
//! empty, miss, hit or sunk, the five ship kinds, and every straight placement of a ship as a
//! 128-bit bitboard. Squares are named by a column letter and a row number (`G4` is column G,
//! row 4), the contest's convention; bit `row * 10 + col` stands for a square.

use std::fmt;
use std::sync::OnceLock;

/// Side length of the board.
pub const SIZE: usize = 10;
/// Number of squares.
pub(crate) const CELLS: usize = SIZE * SIZE;

/// A set of squares: bit `row * 10 + col`.
pub(crate) type Bits = u128;

/// Every square of the board.
pub(crate) const ALL: Bits = (1u128 << CELLS) - 1;

/// What the board shows on a square (the contest's digits 0 to 3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SquareMark {
    /// 0: not shot yet.
    #[default]
    Empty,
    /// 1: shot, water.
    Miss,
    /// 2: shot, a ship that is still afloat.
    Hit,
    /// 3: part of a sunk ship.
    Sunk,
}

impl SquareMark {
    /// The mark for a contest digit.
    pub(crate) fn from_digit(d: char) -> Option<SquareMark> {
        match d {
            '0' => Some(SquareMark::Empty),
            '1' => Some(SquareMark::Miss),
            '2' => Some(SquareMark::Hit),
            '3' => Some(SquareMark::Sunk),
            _ => None,
        }
    }
}

/// The five ships of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum ShipKind {
    /// A: aircraft carrier, length 5.
    Carrier,
    /// B: battleship, length 4.
    Battleship,
    /// D: destroyer, length 3.
    Destroyer,
    /// S: submarine, length 3.
    Submarine,
    /// P: PT boat, length 2.
    PtBoat,
}

impl ShipKind {
    /// The standard fleet, in the contest's letter order.
    pub(crate) const FLEET: [ShipKind; 5] = [
        ShipKind::Carrier,
        ShipKind::Battleship,
        ShipKind::Destroyer,
        ShipKind::Submarine,
        ShipKind::PtBoat,
    ];

    /// The ship's length.
    #[allow(clippy::len_without_is_empty)] // a ship is never empty
    pub(crate) const fn len(self) -> usize {
        match self {
            ShipKind::Carrier => 5,
            ShipKind::Battleship => 4,
            ShipKind::Destroyer | ShipKind::Submarine => 3,
            ShipKind::PtBoat => 2,
        }
    }

    /// The contest letter.
    pub const fn letter(self) -> char {
        match self {
            ShipKind::Carrier => 'A',
            ShipKind::Battleship => 'B',
            ShipKind::Destroyer => 'D',
            ShipKind::Submarine => 'S',
            ShipKind::PtBoat => 'P',
        }
    }

    /// The ship for a contest letter.
    pub(crate) fn from_letter(c: char) -> Option<ShipKind> {
        ShipKind::FLEET.into_iter().find(|k| k.letter() == c)
    }
}

/// A square, 0-based.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square {
    /// Row, 0 at the top (printed as 1).
    pub row: u8,
    /// Column, 0 at the left (printed as A).
    pub col: u8,
}

impl Square {
    /// The square at `row`, `col` (both 0-based, below 10).
    pub(crate) const fn new(row: usize, col: usize) -> Square {
        Square {
            row: row as u8,
            col: col as u8,
        }
    }

    /// The square of bit `index`.
    pub(crate) const fn from_index(index: usize) -> Square {
        Square::new(index / SIZE, index % SIZE)
    }

    /// The bit index.
    pub(crate) const fn index(self) -> usize {
        self.row as usize * SIZE + self.col as usize
    }

    /// The square's bit.
    pub(crate) const fn bit(self) -> Bits {
        1u128 << self.index()
    }

    /// Parses a name such as `G4` or `J10`.
    pub(crate) fn parse(name: &str) -> Option<Square> {
        let mut chars = name.chars();
        let letter = chars.next()?.to_ascii_uppercase();
        let col = (letter as usize).checked_sub('A' as usize)?;
        let row: usize = chars.as_str().parse().ok()?;
        (col < SIZE && (1..=SIZE).contains(&row)).then(|| Square::new(row - 1, col))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'A' + self.col) as char, self.row + 1)
    }
}

/// The squares of `bits`, in row-then-column order.
pub(crate) fn squares(bits: Bits) -> impl Iterator<Item = Square> {
    let mut rest = bits;
    std::iter::from_fn(move || {
        if rest == 0 {
            return None;
        }
        let i = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        Some(Square::from_index(i))
    })
}

/// `bits` grown by one square in all eight directions (the squares a ship may not share
/// with, nor touch, when ships must not touch).
pub(crate) fn dilate(bits: Bits) -> Bits {
    let row = bits | ((bits << 1) & NOT_COL0) | ((bits >> 1) & NOT_COL9);
    (row | (row << SIZE) | (row >> SIZE)) & ALL
}

/// One square up, down, left or right.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shift {
    /// One row up.
    Up,
    /// One row down.
    Down,
    /// One column left.
    Left,
    /// One column right.
    Right,
}

impl Shift {
    /// The four steps.
    pub(crate) const ALL: [Shift; 4] = [Shift::Up, Shift::Down, Shift::Left, Shift::Right];

    /// `bits` moved one square this way; squares moved off the board are gone.
    pub(crate) fn apply(self, bits: Bits) -> Bits {
        match self {
            Shift::Up => bits >> SIZE,
            Shift::Down => (bits << SIZE) & ALL,
            Shift::Left => (bits >> 1) & NOT_COL9,
            Shift::Right => (bits << 1) & NOT_COL0,
        }
    }
}

/// Squares outside column A (where a bit shifted one column right may land).
const NOT_COL0: Bits = ALL & !column(0);
/// Squares outside column J (where a bit shifted one column left may land).
const NOT_COL9: Bits = ALL & !column(SIZE - 1);

/// The squares of column `col` (0-based).
pub(crate) const fn column_bits(col: usize) -> Bits {
    column(col)
}

const fn column(col: usize) -> Bits {
    let mut m = 0u128;
    let mut r = 0;
    while r < SIZE {
        m |= 1u128 << (r * SIZE + col);
        r += 1;
    }
    m
}

/// One way to lay a ship on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Placement {
    /// The squares it covers.
    pub cells: Bits,
    /// Its top-left square.
    pub start: Square,
    /// Its length.
    pub len: u8,
    /// Whether it runs along a row.
    pub horizontal: bool,
}

impl Placement {
    /// The last row and column it covers.
    pub(crate) fn end(&self) -> Square {
        if self.horizontal {
            Square::new(
                self.start.row as usize,
                self.start.col as usize + self.len as usize - 1,
            )
        } else {
            Square::new(
                self.start.row as usize + self.len as usize - 1,
                self.start.col as usize,
            )
        }
    }
}

/// Every placement of a ship of length `len` (1 to 10), horizontal ones first.
pub(crate) fn placements(len: usize) -> &'static [Placement] {
    static TABLE: OnceLock<Vec<Vec<Placement>>> = OnceLock::new();
    let table = TABLE.get_or_init(|| (0..=SIZE).map(build).collect());
    table.get(len).map_or(&[], Vec::as_slice)
}

/// The placements of a ship of length `len` that cover square `index`.
pub(crate) fn covering(len: usize, index: usize) -> &'static [Placement] {
    static TABLE: OnceLock<Vec<Vec<Vec<Placement>>>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        (0..=SIZE)
            .map(|l| {
                (0..CELLS)
                    .map(|i| {
                        placements(l)
                            .iter()
                            .filter(|p| p.cells >> i & 1 == 1)
                            .copied()
                            .collect()
                    })
                    .collect()
            })
            .collect()
    });
    table
        .get(len)
        .and_then(|t| t.get(index))
        .map_or(&[], Vec::as_slice)
}

fn build(len: usize) -> Vec<Placement> {
    let mut out = Vec::new();
    if len == 0 || len > SIZE {
        return out;
    }
    for horizontal in [true, false] {
        for row in 0..SIZE {
            for col in 0..SIZE {
                let (er, ec) = if horizontal {
                    (row, col + len - 1)
                } else {
                    (row + len - 1, col)
                };
                if er >= SIZE || ec >= SIZE {
                    continue;
                }
                let mut cells = 0;
                for k in 0..len {
                    let sq = if horizontal {
                        Square::new(row, col + k)
                    } else {
                        Square::new(row + k, col)
                    };
                    cells |= sq.bit();
                }
                out.push(Placement {
                    cells,
                    start: Square::new(row, col),
                    len: len as u8,
                    horizontal,
                });
            }
        }
    }
    out
}

/// The board: a mark on each square, kept as one bitboard per mark.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ShotBoard {
    miss: Bits,
    hit: Bits,
    sunk: Bits,
}

impl ShotBoard {
    /// A board with no shots.
    pub(crate) fn new() -> ShotBoard {
        ShotBoard::default()
    }

    /// The mark on `sq`.
    pub(crate) fn get(&self, sq: Square) -> SquareMark {
        let b = sq.bit();
        if self.miss & b != 0 {
            SquareMark::Miss
        } else if self.hit & b != 0 {
            SquareMark::Hit
        } else if self.sunk & b != 0 {
            SquareMark::Sunk
        } else {
            SquareMark::Empty
        }
    }

    /// Puts `mark` on `sq`.
    pub(crate) fn set(&mut self, sq: Square, mark: SquareMark) {
        let b = sq.bit();
        self.miss &= !b;
        self.hit &= !b;
        self.sunk &= !b;
        match mark {
            SquareMark::Empty => {}
            SquareMark::Miss => self.miss |= b,
            SquareMark::Hit => self.hit |= b,
            SquareMark::Sunk => self.sunk |= b,
        }
    }

    /// The squares carrying `mark`.
    pub(crate) fn bits(&self, mark: SquareMark) -> Bits {
        match mark {
            SquareMark::Empty => ALL & !(self.miss | self.hit | self.sunk),
            SquareMark::Miss => self.miss,
            SquareMark::Hit => self.hit,
            SquareMark::Sunk => self.sunk,
        }
    }
}

/// A position to advise on: the ships still afloat and the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    /// The ships not sunk yet, each at most once.
    pub ships: Vec<ShipKind>,
    /// The board.
    pub board: ShotBoard,
}

impl Position {
    /// The opening position: the standard fleet and an empty board.
    pub(crate) fn opening() -> Position {
        Position {
            ships: ShipKind::FLEET.to_vec(),
            board: ShotBoard::new(),
        }
    }

    /// The ships of the standard fleet that are not afloat: those sunk.
    pub(crate) fn sunk_ships(&self) -> Vec<ShipKind> {
        ShipKind::FLEET
            .into_iter()
            .filter(|k| !self.ships.contains(k))
            .collect()
    }

    /// Whether the squares marked sunk are exactly the squares of the ships no longer afloat
    /// ([`Position::sunk_ships`]), each laid straight, none overlapping another.
    pub(crate) fn sunk_squares_fit(&self) -> bool {
        fill(self.board.bits(SquareMark::Sunk), &self.sunk_ships())
    }

    /// A 64-bit FNV-1a hash of which ships are afloat (in whatever order they are listed) and
    /// of the marks on the board: the same on every machine and every build, so that it can
    /// seed what a position's advice draws at random.
    pub(crate) fn fingerprint(&self) -> u64 {
        const PRIME: u64 = 0x0000_0100_0000_01b3;
        let mut bytes: Vec<u8> = ShipKind::FLEET
            .iter()
            .map(|k| u8::from(self.ships.contains(k)))
            .collect();
        for bits in [self.board.miss, self.board.hit, self.board.sunk] {
            bytes.extend_from_slice(&bits.to_le_bytes());
        }
        bytes.into_iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(PRIME)
        })
    }
}

/// Whether `ships`, each laid straight and none overlapping another, cover exactly `left`.
fn fill(left: Bits, ships: &[ShipKind]) -> bool {
    if left == 0 {
        return ships.is_empty();
    }
    // The first square left, in row-then-column order, is the top-left square of its ship.
    let first = left.trailing_zeros() as usize;
    ships.iter().enumerate().any(|(k, ship)| {
        covering(ship.len(), first).iter().any(|p| {
            let fits = p.start.index() == first && p.cells & !left == 0;
            fits && {
                let mut rest = ships.to_vec();
                rest.remove(k);
                fill(left & !p.cells, &rest)
            }
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placement_counts_match_the_formula() {
        for len in 1..=SIZE {
            let expected = if len == 1 {
                2 * SIZE * SIZE
            } else {
                2 * SIZE * (SIZE + 1 - len)
            };
            assert_eq!(placements(len).len(), expected, "length {len}");
            for p in placements(len) {
                assert_eq!(p.cells.count_ones() as usize, len);
            }
        }
    }

    #[test]
    fn dilate_grows_by_one_without_wrapping() {
        let corner = Square::new(0, 9).bit();
        let grown: Vec<String> = squares(dilate(corner)).map(|s| s.to_string()).collect();
        assert_eq!(grown, ["I1", "J1", "I2", "J2"]);
        let left = Square::new(4, 0).bit();
        let grown: Vec<String> = squares(dilate(left)).map(|s| s.to_string()).collect();
        assert_eq!(grown, ["A4", "B4", "A5", "B5", "A6", "B6"]);
    }

    #[test]
    fn sunk_squares_must_be_exactly_the_ships_no_longer_afloat() {
        let position = |afloat: &[ShipKind], sunk: &[&str]| {
            let mut board = ShotBoard::new();
            for name in sunk {
                board.set(Square::parse(name).unwrap(), SquareMark::Sunk);
            }
            Position {
                ships: afloat.to_vec(),
                board,
            }
            .sunk_squares_fit()
        };
        use ShipKind::{Battleship, Carrier, Destroyer, PtBoat, Submarine};
        let all = ShipKind::FLEET;
        assert!(position(&all, &[]));
        // The PT boat sunk: two squares in a line, not one, not two apart, not three.
        let four = [Carrier, Battleship, Destroyer, Submarine];
        assert!(position(&four, &["C3", "C4"]));
        assert!(position(&four, &["C3", "D3"]));
        assert!(!position(&four, &["C3"]));
        assert!(!position(&four, &["C3", "E3"]));
        assert!(!position(&four, &["C3", "D4"]));
        assert!(!position(&four, &["C3", "C4", "C5"]));
        // A square marked sunk with every ship afloat.
        assert!(!position(&all, &["J10"]));
        // The battleship and the submarine sunk (the contest's sample 2): B2-E2 and G3-G5
        // fit; a T of seven squares does not, though the count is right.
        let three = [Carrier, Destroyer, PtBoat];
        assert!(position(
            &three,
            &["B2", "C2", "D2", "E2", "G3", "G4", "G5"]
        ));
        assert!(!position(
            &three,
            &["C1", "B2", "C2", "D2", "C3", "C4", "C5"]
        ));
        // Ships sunk side by side are told apart: B along row 1, S along row 2.
        assert!(position(
            &three,
            &["A1", "B1", "C1", "D1", "A2", "B2", "C2"]
        ));
        // Every ship sunk: the whole fleet's 17 squares.
        let lines = ["A1", "B1", "C1", "D1", "E1", "A3", "B3", "C3", "D3"];
        let rest = ["A5", "B5", "C5", "A7", "B7", "C7", "A9", "B9"];
        assert!(position(&[], &[&lines[..], &rest[..]].concat()));
        assert!(!position(&[], &lines));
    }

    #[test]
    fn square_names_round_trip() {
        for i in 0..CELLS {
            let sq = Square::from_index(i);
            assert_eq!(Square::parse(&sq.to_string()), Some(sq));
        }
        assert_eq!(Square::new(3, 6).to_string(), "G4");
        assert_eq!(Square::parse("K1"), None);
        assert_eq!(Square::parse("A11"), None);
    }
}
