//! A solved board for people at a terminal: Unicode pieces in a box, the column counts above,
//! the row counts at the left. Output only; nothing reads it back.

use crate::model::puzzle::{Dir, Grid, Piece, Pos, Puzzle};

/// The symbol of a piece: `·` water, `●` submarine, `◀ ▶ ▲ ▼` ends, `■` middle.
pub(crate) fn symbol(piece: Piece) -> char {
    match piece {
        Piece::Water => '·',
        Piece::Submarine => '●',
        Piece::End(Dir::Right) => '◀',
        Piece::End(Dir::Left) => '▶',
        Piece::End(Dir::Down) => '▲',
        Piece::End(Dir::Up) => '▼',
        Piece::Middle => '■',
    }
}

fn count_text(c: Option<usize>) -> String {
    c.map_or_else(|| "?".to_string(), |v| v.to_string())
}

/// Draws `grid` with the counts of `puzzle` at the margins. Hinted cells are the same symbols;
/// the board is small enough to compare with the clues by eye.
pub(crate) fn write_solution(puzzle: &Puzzle, grid: &Grid) -> String {
    let cols: Vec<String> = puzzle.col_counts().iter().map(|c| count_text(*c)).collect();
    let rows: Vec<String> = puzzle.row_counts().iter().map(|c| count_text(*c)).collect();
    let cell = cols.iter().map(|s| s.chars().count()).max().unwrap_or(1) + 1;
    let margin = rows.iter().map(|s| s.chars().count()).max().unwrap_or(1);
    let pad = " ".repeat(margin + 1);
    let inner = cell * grid.cols() + 1;
    let mut out = String::new();
    out.push_str(&pad);
    out.push(' ');
    for c in &cols {
        out.push_str(&format!("{c:>cell$}"));
    }
    out.push('\n');
    out.push_str(&format!("{pad}┌{}┐\n", "─".repeat(inner)));
    for (r, count) in rows.iter().enumerate() {
        out.push_str(&format!("{count:>margin$} │"));
        for c in 0..grid.cols() {
            let s = symbol(grid.get(Pos::new(r, c)));
            out.push_str(&format!("{s:>cell$}"));
        }
        out.push_str(" │\n");
    }
    out.push_str(&format!("{pad}└{}┘\n", "─".repeat(inner)));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::puzzle::{Fleet, Orientation, Ship};

    #[test]
    fn draws_counts_and_pieces() {
        let p = Puzzle::new(
            vec![Some(2), None],
            vec![Some(1), Some(1), Some(10)],
            Fleet::from_counts(vec![0, 1]),
        )
        .unwrap();
        let g = Grid::from_ships(
            2,
            3,
            &[Ship {
                start: Pos::new(0, 0),
                len: 2,
                orientation: Orientation::Horizontal,
            }],
        );
        let text = write_solution(&p, &g);
        assert_eq!(
            text,
            "     1  1 10\n  ┌──────────┐\n2 │  ◀  ▶  · │\n? │  ·  ·  · │\n  └──────────┘\n"
        );
    }
}
