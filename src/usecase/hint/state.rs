//! What a player has filled in so far ([`State`]), read from and written as text.

use crate::format::{ParseError, ParseErrorKind};
use crate::model::puzzle::{Clue, Dir, Piece, Pos, Puzzle, Shape};

/// What a player has filled in so far: per cell nothing, water, a ship part of unknown kind, or
/// a piece (the same values as clues).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    pub(super) shape: Shape,
    cells: Vec<Option<Clue>>,
}

impl State {
    /// The state showing only the puzzle's clues.
    pub fn from_puzzle(puzzle: &Puzzle) -> Self {
        let shape = puzzle.shape();
        let mut cells = vec![None; shape.cells()];
        for (pos, clue) in puzzle.clues() {
            cells[shape.index(pos)] = Some(clue);
        }
        State { shape, cells }
    }

    /// Reads a state for a `rows` x `cols` board: one line per row, `?` open, `.` or `w` water,
    /// `s` or `#` a ship part, `c t b l r m` pieces; case does not matter, blank lines and
    /// surrounding spaces are ignored.
    pub fn parse(text: &str, rows: usize, cols: usize) -> Result<State, ParseError> {
        let lines: Vec<(usize, &str)> = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim()))
            .filter(|(_, l)| !l.is_empty())
            .collect();
        if lines.len() != rows {
            return Err(ParseError::at_line(
                0,
                ParseErrorKind::WrongCount {
                    what: "state rows",
                    expected: rows,
                    found: lines.len(),
                },
            ));
        }
        let mut cells = Vec::with_capacity(rows * cols);
        for (number, line) in lines {
            let chars: Vec<char> = line.chars().collect();
            if chars.len() != cols {
                return Err(ParseError::at_line(
                    number,
                    ParseErrorKind::WrongCount {
                        what: "cells in a state row",
                        expected: cols,
                        found: chars.len(),
                    },
                ));
            }
            for (i, ch) in chars.into_iter().enumerate() {
                let cell = match ch.to_ascii_lowercase() {
                    '?' => None,
                    '.' | 'w' => Some(Clue::Piece(Piece::Water)),
                    's' | '#' => Some(Clue::Ship),
                    'c' => Some(Clue::Piece(Piece::Submarine)),
                    't' => Some(Clue::Piece(Piece::End(Dir::Down))),
                    'b' => Some(Clue::Piece(Piece::End(Dir::Up))),
                    'l' => Some(Clue::Piece(Piece::End(Dir::Right))),
                    'r' => Some(Clue::Piece(Piece::End(Dir::Left))),
                    'm' => Some(Clue::Piece(Piece::Middle)),
                    _ => {
                        return Err(ParseError::at(
                            number,
                            i + 1,
                            ParseErrorKind::UnknownLetter {
                                found: ch.to_string(),
                                allowed: "? . w s # c t b l r m",
                            },
                        ));
                    }
                };
                cells.push(cell);
            }
        }
        Ok(State {
            shape: Shape::new(rows, cols),
            cells,
        })
    }

    /// The state as text, in the form [`State::parse`] reads.
    pub fn write(&self) -> String {
        let mut out = String::with_capacity(self.shape.rows * (self.shape.cols + 1));
        for r in 0..self.shape.rows {
            for c in self.shape.row(r) {
                out.push(match self.cells[c] {
                    None => '?',
                    Some(Clue::Ship) => 's',
                    Some(Clue::Piece(Piece::Water)) => '.',
                    Some(Clue::Piece(p)) => {
                        crate::format::ist::letter_of_piece(p).to_ascii_lowercase()
                    }
                });
            }
            out.push('\n');
        }
        out
    }

    /// What is filled at `pos`.
    pub fn get(&self, pos: Pos) -> Option<Clue> {
        self.cells[self.shape.index(pos)]
    }

    /// Fills `pos`.
    pub fn set(&mut self, pos: Pos, content: Clue) {
        self.cells[self.shape.index(pos)] = Some(content);
    }

    /// Ship-cell flags, when no cell is open.
    pub fn ship_cells(&self) -> Option<Vec<bool>> {
        self.cells.iter().map(|c| c.map(|c| c.is_ship())).collect()
    }
}
