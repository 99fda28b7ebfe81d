//! Clues as clauses over cell variables. A clue at a cell is fixed by the cell and its four
//! orthogonal neighbours being ship or water; these clauses say exactly that. The generator
//! guards them with a selector literal (so that a clue becomes an assumption of an incremental
//! solver) and the hint engine tags them with the clue they come from.

use crate::model::lit::Lit;
use crate::model::puzzle::{Clue, Dir, Piece, Pos, Shape};

/// The clauses stating `clue` at `pos` on a board of `shape`, given the cell literal of each
/// position (`x(pos)` is true when the cell holds a ship part). An end clue pointing off the
/// board gives the empty clause.
pub(crate) fn clauses(pos: Pos, clue: Clue, shape: Shape, x: impl Fn(Pos) -> Lit) -> Vec<Vec<Lit>> {
    let nb = |dir: Dir| shape.step(pos, dir).map(&x);
    let mut out: Vec<Vec<Lit>> = Vec::new();
    match clue {
        Clue::Piece(Piece::Water) => out.push(vec![!x(pos)]),
        Clue::Ship => out.push(vec![x(pos)]),
        Clue::Piece(Piece::Submarine) => {
            out.push(vec![x(pos)]);
            out.extend(Dir::ALL.into_iter().filter_map(nb).map(|n| vec![!n]));
        }
        Clue::Piece(Piece::End(toward)) => {
            out.push(vec![x(pos)]);
            for dir in Dir::ALL {
                match nb(dir) {
                    Some(n) if dir == toward => out.push(vec![n]),
                    Some(n) => out.push(vec![!n]),
                    None if dir == toward => out.push(Vec::new()),
                    None => {}
                }
            }
        }
        Clue::Piece(Piece::Middle) => {
            out.push(vec![x(pos)]);
            // (left & right) | (up & down); a missing neighbour is water.
            for a in [nb(Dir::Left), nb(Dir::Right)] {
                for b in [nb(Dir::Up), nb(Dir::Down)] {
                    out.push([a, b].into_iter().flatten().collect());
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::sink::ClauseSink;
    use crate::solver::varisat::Varisat;
    use crate::solver::{Answer, SolveIncremental};

    /// On a 3x3 board, every clue at the centre admits exactly the ship-cell patterns of its
    /// piece (brute force over the five cells that matter).
    #[test]
    fn clue_clauses_admit_exactly_their_piece() {
        let centre = Pos::new(1, 1);
        let pieces = [
            Piece::Water,
            Piece::Submarine,
            Piece::Middle,
            Piece::End(Dir::Up),
            Piece::End(Dir::Down),
            Piece::End(Dir::Left),
            Piece::End(Dir::Right),
        ];
        for piece in pieces {
            for mask in 0u32..32 {
                let mut solver = Varisat::new();
                let vars: Vec<Lit> = (0..9).map(|_| solver.new_var().positive()).collect();
                let x = |p: Pos| vars[Shape::new(3, 3).index(p)];
                for c in clauses(centre, Clue::Piece(piece), Shape::new(3, 3), x) {
                    solver.add_clause(&c);
                }
                let flag = |i: u32| mask >> i & 1 == 1;
                let (c, u, d, l, r) = (flag(0), flag(1), flag(2), flag(3), flag(4));
                let cells = [
                    (centre, c),
                    (Pos::new(0, 1), u),
                    (Pos::new(2, 1), d),
                    (Pos::new(1, 0), l),
                    (Pos::new(1, 2), r),
                ];
                let assumptions: Vec<Lit> = cells
                    .iter()
                    .map(|&(p, s)| if s { x(p) } else { !x(p) })
                    .collect();
                let expected = match piece {
                    Piece::Water => !c,
                    Piece::Submarine => c && !u && !d && !l && !r,
                    Piece::Middle => c && ((l && r) || (u && d)),
                    Piece::End(Dir::Up) => c && u && !d && !l && !r,
                    Piece::End(Dir::Down) => c && d && !u && !l && !r,
                    Piece::End(Dir::Left) => c && l && !u && !d && !r,
                    Piece::End(Dir::Right) => c && r && !u && !d && !l,
                };
                assert_eq!(
                    solver.solve_assuming(&assumptions).unwrap() == Answer::Sat,
                    expected,
                    "{piece:?} mask {mask:05b}"
                );
            }
        }
    }
}
