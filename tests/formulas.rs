//! The size formulas in `encodings/` against the encoders.

use bimaru_sat::encode::sat::card::{CardKind, EncodingSize};
use bimaru_sat::encode::sat::cell;
use bimaru_sat::encode::sat::instance::Instance;
use bimaru_sat::model::cnf::CnfFormula;
use bimaru_sat::model::placement::Placements;
use bimaru_sat::{Clue, Dir, Fleet, Piece, Pos, Puzzle};
use strum::VariantArray;

/// Placements of length `len` on an open board (`encodings/sat-cell.md`).
fn placements(r: usize, c: usize, len: usize) -> usize {
    if len == 1 {
        r * c
    } else {
        r * (c + 1).saturating_sub(len) + c * (r + 1).saturating_sub(len)
    }
}

/// Caps summed over the placements of length `len`.
fn caps(r: usize, c: usize, len: usize) -> usize {
    if len == 1 {
        2 * r * (c - 1) + 2 * c * (r - 1)
    } else {
        let h = if len <= c { 2 * r * (c - len) } else { 0 };
        let v = if len <= r { 2 * c * (r - len) } else { 0 };
        h + v
    }
}

/// Orthogonal neighbours of `pos` on the board.
fn neighbours(r: usize, c: usize, pos: Pos) -> usize {
    Dir::ALL
        .iter()
        .filter(|&&d| pos.step(d, r, c).is_some())
        .count()
}

fn clue_clauses(puzzle: &Puzzle) -> usize {
    puzzle
        .clues()
        .map(|(pos, clue)| match clue {
            Clue::Piece(Piece::Water) | Clue::Ship => 1,
            Clue::Piece(Piece::Middle) => 5,
            Clue::Piece(Piece::Submarine) => 1 + neighbours(puzzle.rows(), puzzle.cols(), pos),
            Clue::Piece(Piece::End(d)) => {
                let off = usize::from(pos.step(d, puzzle.rows(), puzzle.cols()).is_none());
                1 + neighbours(puzzle.rows(), puzzle.cols(), pos) + off
            }
        })
        .sum()
}

/// The formula of `encodings/sat-cell.md`.
fn cell_formula(puzzle: &Puzzle, card: CardKind) -> EncodingSize {
    let (r, c) = (puzzle.rows(), puzzle.cols());
    let mut size = EncodingSize {
        vars: r * c,
        clauses: r * c + 2 * (r - 1) * (c - 1) + clue_clauses(puzzle),
    };
    for class in puzzle.fleet().classes() {
        let p = placements(r, c, class.len);
        size.vars += p;
        size.clauses += p * (class.len + 1) + caps(r, c, class.len);
        size = size + card.size(p, class.count);
    }
    for k in puzzle.row_counts().iter().flatten() {
        size = size + card.size(c, *k);
    }
    for k in puzzle.col_counts().iter().flatten() {
        size = size + card.size(r, *k);
    }
    size
}

#[test]
fn cell_model_sizes_match_the_spec() {
    let cases: &[(usize, usize, &[usize], usize)] = &[
        (10, 10, &[4, 3, 2, 1], 4),
        (7, 12, &[2, 0, 1, 0, 0, 1], 6),
        (6, 6, &[3, 2, 1], 3),
        (15, 13, &[5, 4, 3, 2, 1], 5),
    ];
    for &(r, c, fleet, count) in cases {
        // Counts at least the longest ship prune nothing.
        let puzzle = Puzzle::new(
            vec![Some(count); r],
            vec![Some(count); c],
            Fleet::from_counts(fleet.to_vec()),
        )
        .unwrap();
        let mut with_clues = puzzle.clone();
        with_clues
            .add_clue(Pos::new(0, 0), Clue::Piece(Piece::Water))
            .unwrap();
        with_clues
            .add_clue(Pos::new(2, 2), Clue::Piece(Piece::Middle))
            .unwrap();
        with_clues
            .add_clue(Pos::new(r - 1, 3), Clue::Piece(Piece::Submarine))
            .unwrap();
        with_clues
            .add_clue(Pos::new(4, c - 1), Clue::Piece(Piece::End(Dir::Left)))
            .unwrap();
        with_clues.add_clue(Pos::new(3, 4), Clue::Ship).unwrap();
        with_clues
            .add_clue(Pos::new(r - 1, 0), Clue::Piece(Piece::End(Dir::Down)))
            .unwrap();
        for &card in CardKind::VARIANTS {
            let mut formula = CnfFormula::new();
            let open = Placements::new(&puzzle);
            let enc = cell::encode(&Instance::plain(&puzzle, &open, card), &mut formula);
            assert_eq!(
                EncodingSize {
                    vars: enc.vars,
                    clauses: enc.clauses
                },
                cell_formula(&puzzle, card),
                "{r}x{c} {card:?}"
            );
            assert_eq!(formula.var_count(), enc.vars);
            assert_eq!(formula.len(), enc.clauses);
            // Clue clauses: compare against the open board's placements, so that only the clue
            // term of the formula changes.
            let mut formula = CnfFormula::new();
            let enc = cell::encode(&Instance::plain(&with_clues, &open, card), &mut formula);
            assert_eq!(
                EncodingSize {
                    vars: enc.vars,
                    clauses: enc.clauses
                },
                cell_formula(&with_clues, card),
                "{r}x{c} {card:?} with clues"
            );
        }
    }
}
