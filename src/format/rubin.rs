//! Moshe Rubin's CSPLib boards (`unsolvable_for_csplib.txt`, described in
//! `SBInstanceFileFormat.pdf`): several boards per file, separated by `=` lines. A board gives
//! `Board ID:`, `START-NEW-BOARD rows cols`, `Hint: r c Type`, its solution as
//! `PLACESHIP len r c S|E` lines, the tallies, and an ASCII drawing of the solution.

use super::Inexpressible;
use super::{
    Board, FileBudget, Found, Line, ParseError, ParseErrorKind, check_board, tokenize, whole_number,
};
use crate::model::limits::Limits;
use crate::model::puzzle::{Clue, Dir, Fleet, Grid, Orientation, Piece, Pos, Puzzle, Shape, Ship};

/// Hint type names, for messages.
const HINTS: &str = "Water Circle Top Bottom Left Right Middle";

/// A board being read.
#[derive(Default)]
struct Pending {
    id: Option<String>,
    line: usize,
    size: Option<BoardSize>,
    hints: Vec<RubinHint>,
    ships: Vec<Ship>,
    row_tallies: Option<Vec<Option<usize>>>,
    col_tallies: Option<Vec<Option<usize>>>,
    drawing: Option<Drawing>,
}

/// A `START-NEW-BOARD` line.
#[derive(Clone, Copy)]
struct BoardSize {
    line: usize,
    rows: usize,
    cols: usize,
}

/// A `Hint:` line.
struct RubinHint {
    line: usize,
    column: usize,
    pos: Pos,
    piece: Piece,
}

/// The board drawing: ship-cell flags, and the line where it starts.
struct Drawing {
    line: usize,
    ship: Vec<bool>,
}

/// Parses every board of a Rubin file within `limits`.
pub fn parse(text: &str, limits: &Limits) -> Result<Vec<Board>, ParseError> {
    let lines = tokenize(text.strip_prefix('\u{feff}').unwrap_or(text));
    let mut boards = Vec::new();
    let mut budget = FileBudget::default();
    let mut current: Option<Pending> = None;
    let mut i = 0;
    while i < lines.len() {
        let line = &lines[i];
        i += 1;
        let (col, first) = line.tokens[0];
        if first.starts_with('#') {
            continue;
        }
        if first.chars().all(|c| c == '=') {
            if let Some(p) = current.take() {
                boards.push(finish(p)?);
            }
            continue;
        }
        match (first, line.tokens.get(1).map(|t| t.1)) {
            ("Board", Some("ID:")) => {
                if let Some(p) = current.take() {
                    boards.push(finish(p)?);
                }
                let id = line.tokens[2..]
                    .iter()
                    .map(|t| t.1)
                    .collect::<Vec<_>>()
                    .join(" ");
                if id.is_empty() {
                    return Err(ParseError::at_line(
                        line.number,
                        ParseErrorKind::Expected {
                            expected: "a board ID after Board ID:",
                            found: Found::end_of_line(),
                        },
                    ));
                }
                current = Some(Pending {
                    id: Some(id),
                    line: line.number,
                    ..Pending::default()
                });
            }
            ("START-NEW-BOARD", _) => {
                if current.as_ref().is_some_and(|p| p.size.is_some()) {
                    boards.push(finish(current.take().expect("checked"))?);
                }
                let p = current.get_or_insert_with(|| Pending {
                    line: line.number,
                    ..Pending::default()
                });
                let [rows, cols] = numbers::<2>(line, 1, "the board size (rows columns)")?;
                check_board(line.number, rows, cols, limits)?;
                budget.take(line.number, rows * cols, limits)?;
                p.size = Some(BoardSize {
                    line: line.number,
                    rows,
                    cols,
                });
            }
            _ if current.is_none() => continue,
            ("Nodes:" | "Solutions:", _) => {}
            ("Hint:", _) => {
                let Shape { rows, cols } = size_of(&current, line)?;
                let [r, c] = numbers::<2>(line, 1, "a row and a column")?;
                let pos = on_board(line, Pos::new(r, c), rows, cols)?;
                let &(tc, name) = line.tokens.get(3).ok_or_else(|| {
                    ParseError::at_line(
                        line.number,
                        ParseErrorKind::Expected {
                            expected: "a hint type",
                            found: Found::end_of_line(),
                        },
                    )
                })?;
                let piece = piece_of_hint(name).ok_or_else(|| {
                    ParseError::at(
                        line.number,
                        tc,
                        ParseErrorKind::UnknownWord {
                            found: name.to_string(),
                            allowed: HINTS,
                        },
                    )
                })?;
                let p = current.as_mut().expect("checked above");
                p.hints.push(RubinHint {
                    line: line.number,
                    column: tc,
                    pos,
                    piece,
                });
            }
            ("PLACESHIP", _) => {
                let Shape { rows, cols } = size_of(&current, line)?;
                let [len, r, c] = numbers::<3>(line, 1, "a length, a row and a column")?;
                let &(dc, dir) = line.tokens.get(4).ok_or_else(|| {
                    ParseError::at_line(
                        line.number,
                        ParseErrorKind::Expected {
                            expected: "a direction (S or E)",
                            found: Found::end_of_line(),
                        },
                    )
                })?;
                let dir = match dir {
                    "S" => Dir::Down,
                    "E" => Dir::Right,
                    "N" => Dir::Up,
                    "W" => Dir::Left,
                    other => {
                        return Err(ParseError::at(
                            line.number,
                            dc,
                            ParseErrorKind::UnknownWord {
                                found: other.to_string(),
                                allowed: "S E N W",
                            },
                        ));
                    }
                };
                let (dr, dcol) = dir.delta();
                let back = len.saturating_sub(1) as isize;
                let end = Pos::new(r, c).offset(dr * back, dcol * back, rows, cols);
                let (Some(end), true) = (end, len > 0 && r < rows && c < cols) else {
                    return Err(ParseError::at_line(
                        line.number,
                        ParseErrorKind::Expected {
                            expected: "a ship that lies on the board",
                            found: Found::new(&format!("length {len} at ({r}, {c}) going {dir:?}")),
                        },
                    ));
                };
                let start = Pos::new(r.min(end.row), c.min(end.col));
                let ship = Ship {
                    start,
                    len,
                    orientation: if len == 1 {
                        Orientation::Horizontal
                    } else {
                        dir.orientation()
                    },
                };
                current.as_mut().expect("checked above").ships.push(ship);
            }
            ("Row", Some("tallies:")) | ("Column", Some("tallies:")) => {
                let Shape { rows, cols } = size_of(&current, line)?;
                let is_row = first == "Row";
                let want = if is_row { rows } else { cols };
                let tallies = tallies(
                    line,
                    2,
                    want,
                    if is_row {
                        "row tallies"
                    } else {
                        "column tallies"
                    },
                )?;
                let p = current.as_mut().expect("checked above");
                if is_row {
                    p.row_tallies = Some(tallies);
                } else {
                    p.col_tallies = Some(tallies);
                }
            }
            ("DisplayBoardASCII:", _) => {
                let Shape { rows, cols } = size_of(&current, line)?;
                let mut ship = Vec::with_capacity(rows * cols);
                for r in 0..rows {
                    let row = lines.get(i).ok_or_else(|| {
                        ParseError::at_line(
                            line.number + r + 1,
                            ParseErrorKind::UnexpectedEnd {
                                expected: "a row of the board drawing",
                            },
                        )
                    })?;
                    i += 1;
                    let (_, cells) = row.tokens[0];
                    if cells.chars().count() != cols {
                        return Err(ParseError::at_line(
                            row.number,
                            ParseErrorKind::WrongCount {
                                what: "cells in this row of the drawing",
                                expected: cols,
                                found: cells.chars().count(),
                            },
                        ));
                    }
                    for (c, ch) in cells.chars().enumerate() {
                        match ch.to_ascii_lowercase() {
                            '.' | 'w' => ship.push(false),
                            'c' | 't' | 'b' | 'l' | 'r' | 'm' => ship.push(true),
                            _ => {
                                return Err(ParseError::at(
                                    row.number,
                                    row.tokens[0].0 + c,
                                    ParseErrorKind::UnknownLetter {
                                        found: ch.to_string(),
                                        allowed: ". W c t b l r m (hints upper case)",
                                    },
                                ));
                            }
                        }
                    }
                }
                // The column tallies under the drawing, when present.
                if let Some(next) = lines.get(i)
                    && next.tokens.len() == 1
                    && next.tokens[0]
                        .1
                        .bytes()
                        .all(|b| b.is_ascii_digit() || b == b'?')
                {
                    i += 1;
                }
                current.as_mut().expect("checked above").drawing = Some(Drawing {
                    line: line.number,
                    ship,
                });
            }
            _ => {
                return Err(ParseError::at(
                    line.number,
                    col,
                    ParseErrorKind::Expected {
                        expected: "a Rubin board line (Board ID:, START-NEW-BOARD, Hint:, PLACESHIP, tallies, DisplayBoardASCII:)",
                        found: Found::new(first),
                    },
                ));
            }
        }
    }
    if let Some(p) = current.take() {
        boards.push(finish(p)?);
    }
    if boards.is_empty() {
        return Err(ParseError::at_line(
            lines.last().map_or(1, |l| l.number + 1),
            ParseErrorKind::UnexpectedEnd {
                expected: "a board (START-NEW-BOARD rows columns)",
            },
        ));
    }
    Ok(boards)
}

fn size_of(current: &Option<Pending>, line: &Line<'_>) -> Result<Shape, ParseError> {
    current
        .as_ref()
        .and_then(|p| p.size)
        .map(|s| Shape::new(s.rows, s.cols))
        .ok_or_else(|| {
            ParseError::at_line(
                line.number,
                ParseErrorKind::Expected {
                    expected: "START-NEW-BOARD before this line",
                    found: Found::new(line.tokens[0].1),
                },
            )
        })
}

fn on_board(line: &Line<'_>, pos: Pos, rows: usize, cols: usize) -> Result<Pos, ParseError> {
    if pos.row < rows && pos.col < cols {
        Ok(pos)
    } else {
        Err(ParseError::at_line(
            line.number,
            ParseErrorKind::OutsideBoard { pos, rows, cols },
        ))
    }
}

/// `N` whole numbers from token `from` on.
fn numbers<const N: usize>(
    line: &Line<'_>,
    from: usize,
    expected: &'static str,
) -> Result<[usize; N], ParseError> {
    let mut out = [0; N];
    for (k, slot) in out.iter_mut().enumerate() {
        let Some(&(col, tok)) = line.tokens.get(from + k) else {
            return Err(ParseError::at_line(
                line.number,
                ParseErrorKind::Expected {
                    expected,
                    found: Found::end_of_line(),
                },
            ));
        };
        *slot = whole_number(line.number, col, tok, expected)?;
    }
    Ok(out)
}

fn tallies(
    line: &Line<'_>,
    from: usize,
    want: usize,
    what: &'static str,
) -> Result<Vec<Option<usize>>, ParseError> {
    line.exactly(from, want, what)?
        .iter()
        .map(|&(col, t)| {
            if t == "?" {
                return Ok(None);
            }
            whole_number(line.number, col, t, "a tally (a whole number or ?)").map(Some)
        })
        .collect()
}

fn finish(p: Pending) -> Result<Board, ParseError> {
    let Some(BoardSize {
        line: size_line,
        rows,
        cols,
    }) = p.size
    else {
        return Err(ParseError::at_line(
            p.line,
            ParseErrorKind::Expected {
                expected: "a START-NEW-BOARD line in this board",
                found: Found::new(&format!("Board ID: {}", p.id.as_deref().unwrap_or(""))),
            },
        ));
    };
    let missing =
        |expected| ParseError::at_line(size_line, ParseErrorKind::UnexpectedEnd { expected });
    let row_counts = p
        .row_tallies
        .ok_or_else(|| missing("a Row tallies: line in this board"))?;
    let col_counts = p
        .col_tallies
        .ok_or_else(|| missing("a Column tallies: line in this board"))?;

    let placed = if p.ships.is_empty() {
        None
    } else {
        Some(Grid::from_ships(rows, cols, &p.ships))
    };
    let drawn = match &p.drawing {
        Some(Drawing { line, ship }) => Some((
            *line,
            Grid::from_ship_cells(rows, cols, ship).ok_or_else(|| {
                ParseError::at_line(
                    *line,
                    ParseErrorKind::Expected {
                        expected: "a drawing of straight ships",
                        found: Found::new("ship cells in an L or T shape"),
                    },
                )
            })?,
        )),
        None => None,
    };
    if let (Some(placed), Some((line, drawn))) = (&placed, &drawn)
        && placed.ship_cells() != drawn.ship_cells()
    {
        return Err(ParseError::at_line(
            *line,
            ParseErrorKind::Expected {
                expected: "a drawing that agrees with the PLACESHIP lines",
                found: Found::new("a different board"),
            },
        ));
    }
    let lengths: Vec<usize> = match (&placed, &drawn) {
        (Some(_), _) => p.ships.iter().map(|s| s.len).collect(),
        (None, Some((_, grid))) => grid.ships().iter().map(|s| s.len).collect(),
        (None, None) => Vec::new(),
    };
    let embedded = placed.or(drawn.map(|(_, g)| g));
    let fleet = if embedded.is_some() {
        let mut counts = vec![0; lengths.iter().copied().max().unwrap_or(0)];
        for len in lengths {
            counts[len - 1] += 1;
        }
        Fleet::from_counts(counts)
    } else {
        Fleet::standard()
    };
    let mut puzzle = Puzzle::new(row_counts, col_counts, fleet).expect("size checked non-zero");
    // The line of the hint that gave each cell its clue.
    let mut given = vec![None; puzzle.shape().cells()];
    for RubinHint {
        line,
        column,
        pos,
        piece,
    } in p.hints
    {
        let at = puzzle.shape().index(pos);
        if let Some(first_line) = given[at] {
            let kind = if puzzle.clue(pos) == Some(Clue::Piece(piece)) {
                ParseErrorKind::Duplicate { pos, first_line }
            } else {
                ParseErrorKind::Contradiction { pos, first_line }
            };
            return Err(ParseError::at(line, column, kind));
        }
        given[at] = Some(line);
        puzzle
            .add_clue(pos, Clue::Piece(piece))
            .expect("on the board and not seen before");
    }
    Ok(Board {
        id: p.id,
        line: p.line,
        puzzle,
        embedded,
    })
}

fn piece_of_hint(name: &str) -> Option<Piece> {
    Some(match name {
        "Water" => Piece::Water,
        "Circle" | "Submarine" => Piece::Submarine,
        "Top" => Piece::End(Dir::Down),
        "Bottom" => Piece::End(Dir::Up),
        "Left" => Piece::End(Dir::Right),
        "Right" => Piece::End(Dir::Left),
        "Middle" => Piece::Middle,
        _ => return None,
    })
}

fn hint_name(piece: Piece) -> &'static str {
    match piece {
        Piece::Water => "Water",
        Piece::Submarine => "Circle",
        Piece::End(Dir::Down) => "Top",
        Piece::End(Dir::Up) => "Bottom",
        Piece::End(Dir::Right) => "Left",
        Piece::End(Dir::Left) => "Right",
        Piece::Middle => "Middle",
    }
}

/// Rubin's letter for a piece (lower case; `.` for water).
fn letter(piece: Piece) -> char {
    match piece {
        Piece::Water => '.',
        Piece::Submarine => 'c',
        Piece::End(Dir::Down) => 't',
        Piece::End(Dir::Up) => 'b',
        Piece::End(Dir::Right) => 'l',
        Piece::End(Dir::Left) => 'r',
        Piece::Middle => 'm',
    }
}

fn tally_text(count: Option<usize>) -> String {
    count.map_or_else(|| "?".to_string(), |c| c.to_string())
}

/// Draws a solved board as Rubin does: each row's cells (`.` water, `c t b l r m` ships) and
/// its tally, then the column tallies as one digit string (space-separated when a tally has
/// two digits or is unknown). With `upper_hints`, hinted cells are upper case (`W` for water).
pub(crate) fn drawing(puzzle: &Puzzle, grid: &Grid, upper_hints: bool) -> String {
    let mut out = String::new();
    for r in 0..grid.rows() {
        for c in 0..grid.cols() {
            let pos = Pos::new(r, c);
            let piece = grid.get(pos);
            let ch = match (upper_hints && puzzle.clue(pos).is_some(), piece) {
                (true, Piece::Water) => 'W',
                (true, p) => letter(p).to_ascii_uppercase(),
                (false, p) => letter(p),
            };
            out.push(ch);
        }
        out.push(' ');
        out.push_str(&tally_text(puzzle.row_counts().get(r).copied().flatten()));
        out.push('\n');
    }
    let cols = puzzle.col_counts();
    let sep = if cols.iter().all(|c| c.is_some_and(|v| v < 10)) {
        ""
    } else {
        " "
    };
    let texts: Vec<String> = cols.iter().map(|c| tally_text(*c)).collect();
    out.push_str(&texts.join(sep));
    out.push('\n');
    out
}

/// Writes one board in Rubin's layout. The fleet is carried by the solution's `PLACESHIP`
/// lines; without a solution only the standard fleet (the one Rubin's boards use) can be
/// written. "Some ship part" clues have no hint type.
pub fn write_board(
    id: &str,
    puzzle: &Puzzle,
    solution: Option<&Grid>,
) -> Result<String, Inexpressible> {
    let inexpressible = |reason| Inexpressible {
        format: "rubin",
        reason,
    };
    if solution.is_none() && *puzzle.fleet() != Fleet::standard() {
        return Err(inexpressible(
            "its fleet is given by a solution's PLACESHIP lines, and no solution is known",
        ));
    }
    let mut out = format!(
        "Board ID: {id}\nSTART-NEW-BOARD {} {}\n",
        puzzle.rows(),
        puzzle.cols()
    );
    for (pos, clue) in puzzle.clues() {
        let Clue::Piece(piece) = clue else {
            return Err(inexpressible("it has no hint type for \"some ship part\""));
        };
        out.push_str(&format!(
            "Hint: {} {} {}\n",
            pos.row,
            pos.col,
            hint_name(piece)
        ));
    }
    if let Some(grid) = solution {
        let mut ships = grid.ships();
        ships.sort_by_key(|s| std::cmp::Reverse(s.len));
        for s in ships {
            let dir = if s.orientation == Orientation::Vertical {
                'S'
            } else {
                'E'
            };
            out.push_str(&format!(
                "PLACESHIP {} {} {} {dir}\n",
                s.len, s.start.row, s.start.col
            ));
        }
    }
    let join = |v: &[Option<usize>]| {
        v.iter()
            .map(|c| tally_text(*c))
            .collect::<Vec<_>>()
            .join(" ")
    };
    out.push_str(&format!("Row tallies: {}\n", join(puzzle.row_counts())));
    out.push_str(&format!("Column tallies: {}\n", join(puzzle.col_counts())));
    if let Some(grid) = solution {
        out.push_str("DisplayBoardASCII: After generating a board\n");
        out.push_str(&drawing(puzzle, grid, true));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const BOARD: &str = "List of boards\r\n====\r\n\r\nBoard ID: 7\r\nNodes: 5\r\nSolutions: 2\r\nSTART-NEW-BOARD 3 4\r\nHint: 0 0 Left 1\r\nPLACESHIP 2 0 0 E\r\nPLACESHIP 1 2 3 S\r\nRow tallies: 2 0 1\r\nColumn tallies: 1 1 0 1\r\nDisplayBoardASCII: After generating a board\r\nLr.. 2\r\n.... 0\r\n...c 1\r\n1101\r\n====\r\n# boards: 1\r\n";

    #[test]
    fn reads_a_board_with_its_solution() {
        let boards = parse(BOARD, &Limits::default()).unwrap();
        assert_eq!(boards.len(), 1);
        let b = &boards[0];
        assert_eq!(b.id.as_deref(), Some("7"));
        assert_eq!(b.puzzle.rows(), 3);
        assert_eq!(b.puzzle.cols(), 4);
        assert_eq!(b.puzzle.fleet().counts(), &[1, 1]);
        let grid = b.embedded.as_ref().unwrap();
        assert_eq!(grid.get(Pos::new(0, 1)), Piece::End(Dir::Left));
        let text = write_board("7", &b.puzzle, Some(grid)).unwrap();
        let again = parse(&text, &Limits::default()).unwrap();
        assert_eq!(again[0].puzzle, b.puzzle);
        assert_eq!(again[0].embedded, b.embedded);
        assert!(text.ends_with("Lr.. 2\n.... 0\n...c 1\n1101\n"));
    }

    #[test]
    fn rejects_with_lines() {
        let e = |t: &str| parse(t, &Limits::default()).unwrap_err().to_string();
        assert_eq!(
            e("START-NEW-BOARD 2 2\nHint: 2 0 Water\n"),
            "line 2: cell (2, 0) lies outside the 2x2 board"
        );
        assert_eq!(
            e("START-NEW-BOARD 2 2\nHint: 1 0 Boat\n"),
            "line 2, column 11: unknown word \"Boat\", expected one of Water Circle Top Bottom Left Right Middle"
        );
        assert_eq!(
            e("START-NEW-BOARD 2 2\nRow tallies: 1 1\n"),
            "line 1: unexpected end of input, expected a Column tallies: line in this board"
        );
        assert_eq!(
            e("START-NEW-BOARD 2 2\nPLACESHIP 3 0 0 E\n"),
            "line 2: expected a ship that lies on the board, found \"length 3 at (0, 0) going Right\""
        );
        assert_eq!(
            e("hello\n"),
            "line 2: unexpected end of input, expected a board (START-NEW-BOARD rows columns)"
        );
    }
}
