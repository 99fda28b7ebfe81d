//! MiniZinc solbat data (`sb_H_W_maxship_k.dzn`, for Peter Stuckey's `sb.mzn`): `height`,
//! `width`, `maxship`, `ship` (ships per length), `hint` (a 2-D array of piece codes, 0 = no
//! hint) and `rowsum`/`colsum`. The board is `rowsum` rows by `colsum` columns; `sb.mzn` itself
//! names its rows `1..width`, so `height` and `width` are accepted in either order.

use super::Inexpressible;
use super::params::{self, Cursor, HintCodes, ParamValue, Params, Syntax, Tok};
use super::{Found, ParseError, ParseErrorKind, check_board, check_ship_len};
use crate::model::limits::Limits;
use crate::model::puzzle::{Clue, Dir, Piece, Pos, Puzzle};

/// `name = value;` statements with `%` comments.
pub(super) static SYNTAX: Syntax = Syntax {
    comment: '%',
    header: None,
    punctuation: &[
        ("=", Tok::Eq),
        (";", Tok::Semi),
        (",", Tok::Comma),
        ("[|", Tok::OpenBar),
        ("[", Tok::Open),
        ("|]", Tok::CloseBar),
        ("|", Tok::Bar),
        ("]", Tok::Close),
    ],
    data: "MiniZinc data (name = value;)",
    lead: None,
    sep: "=",
    end: Some(";"),
    names: "height width maxship ship hint rowsum colsum",
    not_a_number: "as a list",
    value,
    build,
};

/// The hint codes of `sb.mzn`, both ways: 0 no hint, 1 water, 2 submarine, 3 left end (the ship
/// goes right), 4 right end, 5 top, 6 bottom, 7 middle.
static HINTS: HintCodes = HintCodes {
    clues: &[
        None,
        Some(Clue::Piece(Piece::Water)),
        Some(Clue::Piece(Piece::Submarine)),
        Some(Clue::Piece(Piece::End(Dir::Right))),
        Some(Clue::Piece(Piece::End(Dir::Left))),
        Some(Clue::Piece(Piece::End(Dir::Down))),
        Some(Clue::Piece(Piece::End(Dir::Up))),
        Some(Clue::Piece(Piece::Middle)),
    ],
    size: "a hint matrix of one row per rowsum and one column per colsum",
    items: "numbers",
    shape: "a hint matrix [| ... |]",
    other: "a list or a number",
};

/// A number, `[a, b, ...]` or `[| a, b, ... | c, d, ... |]`.
fn value(cur: &mut Cursor) -> Result<ParamValue, ParseError> {
    const VALUE: &str = "a number, [list] or [| matrix |]";
    let t = cur.next(VALUE)?;
    match t.tok() {
        Tok::Int(v) => Ok(ParamValue::Int(*v)),
        Tok::Open => {
            let mut items = Vec::new();
            if cur.eat(&Tok::Close) {
                return Ok(ParamValue::List(items));
            }
            loop {
                items.push(cur.int("a number")?);
                if cur.comma_or_close()? {
                    return Ok(ParamValue::List(items));
                }
            }
        }
        Tok::OpenBar => {
            let mut rows = vec![Vec::new()];
            loop {
                if cur.eat(&Tok::CloseBar) {
                    break;
                }
                if cur.eat(&Tok::Bar) {
                    if cur.peek() != Some(&Tok::CloseBar) {
                        rows.push(Vec::new());
                    }
                    continue;
                }
                let v = cur.int("a number, | or |]")?;
                rows.last_mut().expect("never empty").push(v);
                cur.eat(&Tok::Comma);
            }
            if rows.last().is_some_and(Vec::is_empty) {
                rows.pop();
            }
            Ok(ParamValue::Matrix(rows))
        }
        _ => Err(t.unexpected(VALUE)),
    }
}

/// Parses solbat data within the default limits
/// ([`super::parse_document`] takes others).
pub fn parse(text: &str) -> Result<Puzzle, ParseError> {
    params::parse(text, &SYNTAX, &Limits::default())
}

fn build(params: &Params, limits: &Limits) -> Result<Puzzle, ParseError> {
    let (_, rowsum) = params
        .list("rowsum", "a list of row sums")?
        .ok_or_else(|| params.missing("rowsum = [...];"))?;
    let (_, colsum) = params
        .list("colsum", "a list of column sums")?
        .ok_or_else(|| params.missing("colsum = [...];"))?;
    let (_, ships) = params
        .list("ship", "a list of ship counts")?
        .ok_or_else(|| params.missing("ship = [...];"))?;
    let (rows, cols) = (rowsum.len(), colsum.len());
    if rows == 0 || cols == 0 {
        return Err(ParseError::at_line(
            params.line(if rows == 0 { "rowsum" } else { "colsum" }),
            ParseErrorKind::Expected {
                expected: "at least one row and one column",
                found: Found::new("an empty list"),
            },
        ));
    }
    let h = params.int("height")?;
    let w = params.int("width")?;
    for (key, dim) in [("height", h), ("width", w)] {
        if let Some((line, v)) = dim
            && v != rows
            && v != cols
        {
            return Err(ParseError::at_line(
                line,
                ParseErrorKind::Expected {
                    expected: "a size that matches rowsum and colsum",
                    found: Found::new(&format!("{key} = {v} for a {rows}x{cols} board")),
                },
            ));
        }
    }
    if let (Some((line, hv)), Some((_, wv))) = (h, w)
        && !((hv == rows && wv == cols) || (hv == cols && wv == rows))
    {
        return Err(ParseError::at_line(
            line,
            ParseErrorKind::Expected {
                expected: "height and width that match rowsum and colsum",
                found: Found::new(&format!("{hv}x{wv} for a {rows}x{cols} board")),
            },
        ));
    }
    check_board(params.line("colsum"), rows, cols, limits)?;
    check_ship_len(params.line("ship"), None, ships.len(), limits)?;
    if let Some((line, m)) = params.int("maxship")?
        && m != ships.len()
    {
        return Err(ParseError::at_line(
            line,
            ParseErrorKind::WrongCount {
                what: "ship counts (maxship)",
                expected: m,
                found: ships.len(),
            },
        ));
    }
    params.puzzle(
        (params.line("rowsum"), rowsum),
        (params.line("colsum"), colsum),
        ships,
        "sum",
        &HINTS,
    )
}

fn code(piece: Piece) -> usize {
    HINTS
        .clues
        .iter()
        .position(|&clue| clue == Some(Clue::Piece(piece)))
        .expect("every piece has a code")
}

/// Writes `puzzle` as solbat data (`height` = rows, `width` = columns). Unknown counts and
/// "some ship part" clues have no encoding there.
pub fn write_puzzle(puzzle: &Puzzle) -> Result<String, Inexpressible> {
    let inexpressible = |reason| Inexpressible {
        format: "dzn",
        reason,
    };
    let sums = |v: &[Option<usize>]| -> Result<String, Inexpressible> {
        let known: Option<Vec<String>> = v.iter().map(|c| c.map(|c| c.to_string())).collect();
        known
            .map(|k| k.join(","))
            .ok_or_else(|| inexpressible("rowsum and colsum cannot hold unknown counts"))
    };
    let rowsum = sums(puzzle.row_counts())?;
    let colsum = sums(puzzle.col_counts())?;
    let fleet = puzzle.fleet().counts();
    let mut out = format!(
        "height = {};\nwidth = {};\nmaxship = {};\nship = [{}];\nhint = [|\n",
        puzzle.rows(),
        puzzle.cols(),
        fleet.len(),
        fleet
            .iter()
            .map(usize::to_string)
            .collect::<Vec<_>>()
            .join(",")
    );
    for r in 0..puzzle.rows() {
        let mut cells = Vec::with_capacity(puzzle.cols());
        for c in 0..puzzle.cols() {
            cells.push(match puzzle.clue(Pos::new(r, c)) {
                None => 0,
                Some(Clue::Piece(p)) => code(p),
                Some(Clue::Ship) => {
                    return Err(inexpressible("it has no hint code for \"some ship part\""));
                }
            });
        }
        let cells: Vec<String> = cells.iter().map(usize::to_string).collect();
        out.push_str(&cells.join(", "));
        out.push_str(if r + 1 == puzzle.rows() {
            " |];\n"
        } else {
            " |\n"
        });
    }
    out.push_str(&format!("rowsum = [{rowsum}];\ncolsum = [{colsum}];\n"));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: &str = "height = 3;\nwidth = 4; % a comment\nmaxship = 2;\nship = [1,1];\nhint = [|\n3, 0, 0, 0 |\n0, 0, 0, 0 |\n0, 0, 0, 0 |];\nrowsum = [2,0,1];\ncolsum = [1,1,0,1];\n% 1 1 . .\n";

    #[test]
    fn reads_and_writes_back() {
        let p = parse(SMALL).unwrap();
        assert_eq!((p.rows(), p.cols()), (3, 4));
        assert_eq!(p.fleet().counts(), &[1, 1]);
        assert_eq!(
            p.clue(Pos::new(0, 0)),
            Some(Clue::Piece(Piece::End(Dir::Right)))
        );
        assert_eq!(parse(&write_puzzle(&p).unwrap()).unwrap(), p);
    }

    #[test]
    fn rejects_with_lines() {
        let e = |t: &str| parse(t).unwrap_err().to_string();
        assert_eq!(
            e("height = 3\nwidth = 4;"),
            "line 2, column 1: expected ;, found \"width\""
        );
        assert_eq!(
            e("rowsum = [1];\ncolsum = [1];\nships = [1];"),
            "line 3, column 1: unknown word \"ships\", expected one of height width maxship ship hint rowsum colsum"
        );
        assert_eq!(
            e("rowsum = [1];\ncolsum = [1];\n"),
            "line 2: unexpected end of input, expected ship = [...];"
        );
        assert_eq!(
            e("rowsum = [1];\ncolsum = [1];\nship=[1];\nhint=[|9|];"),
            "line 4: hint code 9 is out of range (at most 7)"
        );
        assert_eq!(
            e("rowsum = [1;"),
            "line 1, column 12: expected , or ], found \";\""
        );
        assert_eq!(
            e("rowsum = [1] $"),
            "line 1, column 14: expected MiniZinc data (name = value;), found \"$\""
        );
    }
}
