//! SVG pictures of puzzles: the grid, the row counts at the right and the column counts below,
//! the clues, and (when given) the solution. Ships are drawn as shapes: whole solved ships as
//! capsules with rounded ends, submarines as circles, clue pieces as the matching part of a
//! capsule.

use crate::model::puzzle::{Clue, Dir, Grid, Orientation, Piece, Pos, Puzzle};
use crate::model::rule::plural;
use std::fmt::Write;

/// Side of one cell, in SVG user units (pixels).
pub(crate) const CELL: usize = 32;
/// Space around the board.
const PAD: usize = 8;
/// Inset of a ship shape inside its cell.
const INSET: f64 = 4.0;

const GIVEN_SHIP: &str = "#1f3a5f";
const SOLVED_SHIP: &str = "#6d8fb8";
const GIVEN_WATER: &str = "#9cc9ee";
const SOLVED_WATER: &str = "#e3f1fc";
const GRID_LINE: &str = "#9aa5b1";

/// Draws `puzzle` (and `solution`, if given) as a standalone SVG document.
pub fn svg(puzzle: &Puzzle, solution: Option<&Grid>) -> String {
    let (rows, cols) = (puzzle.rows(), puzzle.cols());
    let board_w = cols * CELL;
    let board_h = rows * CELL;
    let width = PAD + board_w + CELL + PAD;
    let height = PAD + board_h + CELL + PAD;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Arial, sans-serif">"#
    );
    let _ = writeln!(
        s,
        "<title>Bimaru {rows}x{cols}, fleet {}, {}</title>",
        puzzle.fleet(),
        plural(puzzle.clue_count(), "clue", "clues")
    );
    let _ = writeln!(
        s,
        r#"<rect x="0" y="0" width="{width}" height="{height}" fill="white"/>"#
    );
    let x0 = PAD as f64;
    let y0 = PAD as f64;
    let cell = CELL as f64;
    let corner = |pos: Pos| (x0 + pos.col as f64 * cell, y0 + pos.row as f64 * cell);

    // Water backgrounds.
    s.push_str("<g id=\"water\">\n");
    for pos in puzzle.positions() {
        let given = puzzle.clue(pos) == Some(Clue::Piece(Piece::Water));
        let solved = solution.is_some_and(|g| !g.is_ship(pos));
        if given || solved {
            let (x, y) = corner(pos);
            let fill = if given { GIVEN_WATER } else { SOLVED_WATER };
            let _ = writeln!(
                s,
                r#"<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="{fill}"/>"#
            );
            if given {
                // A wave marks given water.
                let (a, b, c) = (x + 6.0, y + cell / 2.0, cell - 12.0);
                let _ = writeln!(
                    s,
                    r#"<path d="M {a} {b} q {q} -5 {h} 0 t {h} 0" fill="none" stroke="{GIVEN_SHIP}" stroke-width="2"/>"#,
                    q = c / 4.0,
                    h = c / 2.0
                );
            }
        }
    }
    s.push_str("</g>\n");

    // Grid.
    s.push_str(&format!(
        "<g id=\"grid\" stroke=\"{GRID_LINE}\" stroke-width=\"1\">\n"
    ));
    for r in 0..=rows {
        let y = y0 + r as f64 * cell;
        let _ = writeln!(
            s,
            r#"<line x1="{x0}" y1="{y}" x2="{}" y2="{y}"/>"#,
            x0 + board_w as f64
        );
    }
    for c in 0..=cols {
        let x = x0 + c as f64 * cell;
        let _ = writeln!(
            s,
            r#"<line x1="{x}" y1="{y0}" x2="{x}" y2="{}"/>"#,
            y0 + board_h as f64
        );
    }
    s.push_str("</g>\n");
    let _ = writeln!(
        s,
        r##"<rect x="{x0}" y="{y0}" width="{board_w}" height="{board_h}" fill="none" stroke="#2b3440" stroke-width="2"/>"##
    );

    // Solved ships, whole.
    if let Some(grid) = solution {
        s.push_str(&format!("<g id=\"solution\" fill=\"{SOLVED_SHIP}\">\n"));
        for ship in grid.ships() {
            let (x, y) = corner(ship.start);
            let r = cell / 2.0 - INSET;
            if ship.len == 1 {
                let _ = writeln!(
                    s,
                    r#"<circle cx="{}" cy="{}" r="{r}"/>"#,
                    x + cell / 2.0,
                    y + cell / 2.0
                );
                continue;
            }
            let long = ship.len as f64 * cell - 2.0 * INSET;
            let short = cell - 2.0 * INSET;
            let (w, h) = match ship.orientation {
                Orientation::Horizontal => (long, short),
                Orientation::Vertical => (short, long),
            };
            let _ = writeln!(
                s,
                r#"<rect x="{}" y="{}" width="{w}" height="{h}" rx="{r}" ry="{r}"/>"#,
                x + INSET,
                y + INSET
            );
        }
        s.push_str("</g>\n");
    }

    // Clue pieces, drawn over the solution.
    s.push_str(&format!("<g id=\"clues\" fill=\"{GIVEN_SHIP}\">\n"));
    for (pos, clue) in puzzle.clues() {
        let (x, y) = corner(pos);
        let (cx, cy) = (x + cell / 2.0, y + cell / 2.0);
        let r = cell / 2.0 - INSET;
        match clue {
            Clue::Piece(Piece::Water) => {}
            Clue::Piece(Piece::Submarine) => {
                let _ = writeln!(s, r#"<circle cx="{cx}" cy="{cy}" r="{r}"/>"#);
            }
            Clue::Piece(Piece::Middle) => {
                let _ = writeln!(
                    s,
                    r#"<rect x="{}" y="{}" width="{}" height="{}"/>"#,
                    x + INSET,
                    y + INSET,
                    cell - 2.0 * INSET,
                    cell - 2.0 * INSET
                );
            }
            Clue::Piece(Piece::End(dir)) => {
                // Drawn as a left end (rounded on the left, square towards the ship), turned.
                let angle = match dir {
                    Dir::Right => 0,
                    Dir::Down => 90,
                    Dir::Left => 180,
                    Dir::Up => 270,
                };
                let (left, top, bottom, right) =
                    (x + INSET, y + INSET, y + cell - INSET, x + cell - INSET);
                let _ = writeln!(
                    s,
                    r#"<path d="M {a} {top} H {right} V {bottom} H {a} A {r} {r} 0 0 1 {a} {top} Z" transform="rotate({angle} {cx} {cy})"/>"#,
                    a = left + r
                );
            }
            Clue::Ship => {
                let _ = writeln!(
                    s,
                    r#"<rect x="{}" y="{}" width="{w}" height="{w}" rx="3" ry="3"/>"#,
                    x + cell / 4.0,
                    y + cell / 4.0,
                    w = cell / 2.0
                );
            }
        }
    }
    s.push_str("</g>\n");

    // Counts.
    let font = (cell * 0.55).round();
    s.push_str(&format!(
        "<g id=\"counts\" font-size=\"{font}\" text-anchor=\"middle\" dominant-baseline=\"central\" fill=\"#2b3440\">\n"
    ));
    let text_x = x0 + board_w as f64 + cell / 2.0;
    for (r, count) in puzzle.row_counts().iter().enumerate() {
        if let Some(k) = count {
            let _ = writeln!(
                s,
                r#"<text x="{text_x}" y="{}">{k}</text>"#,
                y0 + r as f64 * cell + cell / 2.0
            );
        }
    }
    let text_y = y0 + board_h as f64 + cell / 2.0;
    for (c, count) in puzzle.col_counts().iter().enumerate() {
        if let Some(k) = count {
            let _ = writeln!(
                s,
                r#"<text x="{}" y="{text_y}">{k}</text>"#,
                x0 + c as f64 * cell + cell / 2.0
            );
        }
    }
    s.push_str("</g>\n</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::ist;

    #[test]
    fn draws_every_clue_and_count() {
        let text = "ROW 2 3 2 2 3 0 1 3 2 2\nCOLUMN 6 0 1 0 2 1 3 1 2 4\n6\n\
                    HINT 0 0 T\nHINT 1 6 M\nHINT 3 2 C\nHINT 6 0 W\nHINT 8 8 B\nHINT 9 5 C\n";
        let puzzle = ist::parse(text).unwrap();
        let out = svg(&puzzle, None);
        assert_eq!(out.matches("<text").count(), 20);
        // Two submarine clues as circles, two ends as paths, one middle, one water wave.
        assert_eq!(out.matches("<circle").count(), 2);
        assert_eq!(out.matches("rotate(").count(), 2);
        assert!(out.starts_with("<svg") && out.trim_end().ends_with("</svg>"));
    }
}
