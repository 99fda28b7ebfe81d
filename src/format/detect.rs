//! Format detection for `--format auto`. Each format has a signature that the others cannot
//! show (a `ROW` keyword, a `{`, a `START-NEW-BOARD` line, a MiniZinc assignment, three
//! digit-string lines, a puzz.link URL, a `board R C` line, an Essence′ `letting`, an `N)`
//! board header, comma-separated clue lines, three lines of space-separated numbers); a text that shows none, or more than one, is refused rather than guessed.

use super::Format;

/// Why detection could not name one format.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DetectError {
    /// The text is empty.
    #[error("the input is empty")]
    Empty,
    /// The text holds white space and nothing else.
    #[error("the input holds only white space")]
    Blank,
    /// No format's signature matches.
    #[error("no known format starts like this")]
    NoMatch,
    /// Several formats' signatures match.
    #[error("it looks like more than one format")]
    Ambiguous(Vec<Format>),
}

impl DetectError {
    /// A fixed phrase for messages.
    pub(crate) fn reason(&self) -> &'static str {
        match self {
            DetectError::Empty => "the input is empty",
            DetectError::Blank => "the input holds only white space",
            DetectError::NoMatch => "no known format starts like this",
            DetectError::Ambiguous(_) => "it looks like more than one format",
        }
    }
}

/// The one format whose signature `text` shows.
pub fn detect(text: &str) -> Result<Format, DetectError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.is_empty() {
        return Err(DetectError::Empty);
    }
    if text.trim().is_empty() {
        return Err(DetectError::Blank);
    }
    type Check = fn(&str) -> bool;
    let checks: [(Format, Check); 11] = [
        (Format::Json, looks_json),
        (Format::Ist, looks_ist),
        (Format::Rubin, looks_rubin),
        (Format::Dzn, looks_dzn),
        (Format::Csc384, looks_csc384),
        (Format::Puzzlink, super::puzzlink::looks_like_url),
        (Format::Rpi, super::rpi::looks_rpi),
        (Format::Eprime, super::eprime::looks_eprime),
        (Format::Krazydad, super::krazydad::looks_krazydad),
        (Format::Jolyonb, super::jolyonb::looks_jolyonb),
        (Format::Sxchx, super::sxchx::looks_sxchx),
    ];
    let found: Vec<Format> = checks
        .iter()
        .filter(|(_, check)| check(text))
        .map(|(f, _)| *f)
        .collect();
    match found.as_slice() {
        [] => Err(DetectError::NoMatch),
        [one] => Ok(*one),
        _ => Err(DetectError::Ambiguous(found)),
    }
}

fn looks_json(text: &str) -> bool {
    text.trim_start().starts_with('{')
}

fn looks_ist(text: &str) -> bool {
    text.split_whitespace().next() == Some("ROW")
}

fn looks_rubin(text: &str) -> bool {
    text.lines()
        .any(|l| l.split_whitespace().next() == Some("START-NEW-BOARD"))
}

/// A MiniZinc data file: its first statement (after `%` comments) is `identifier =`, and
/// statements end with `;` (which tells it from `KEY=value` files such as the solbat
/// `.metadata` files beside the data).
fn looks_dzn(text: &str) -> bool {
    let code: String = text
        .lines()
        .map(|l| l.split('%').next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    let rest = code.trim_start();
    let ident_len = rest
        .char_indices()
        .take_while(|&(i, c)| c == '_' || c.is_ascii_alphabetic() || (i > 0 && c.is_ascii_digit()))
        .count();
    ident_len > 0 && rest[ident_len..].trim_start().starts_with('=') && code.contains(';')
}

/// CSC384: the first three non-blank lines are digit strings (`?` allowed in the counts).
fn looks_csc384(text: &str) -> bool {
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let counts =
        |l: Option<&str>| l.is_some_and(|l| l.bytes().all(|b| b.is_ascii_digit() || b == b'?'));
    counts(lines.next())
        && counts(lines.next())
        && lines
            .next()
            .is_some_and(|l| l.bytes().all(|b| b.is_ascii_digit()))
}

/// A solved grid, as the solver writes it and no puzzle format reads it: rows of one width, of
/// pieces and water alone (IST's `T B L R M C W` upper or lower case and `.`, CSC384's `< > ^ v
/// S M W .`), no counts.
pub(crate) fn looks_solved_grid(text: &str) -> bool {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut rows = text.lines().map(str::trim_end).filter(|l| !l.is_empty());
    let Some(first) = rows.next() else {
        return false;
    };
    let width = first.chars().count();
    let piece = |c: char| "TBLRMCW.<>^vS".contains(c.to_ascii_uppercase()) || c == 'v';
    std::iter::once(first)
        .chain(rows)
        .all(|row| row.chars().count() == width && row.chars().all(piece))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_solved_grid_is_told_from_puzzles() {
        assert!(looks_solved_grid("T.....t...\nb.....M..t\n"));
        assert!(looks_solved_grid("^..\nv.S\n...\n"));
        assert!(!looks_solved_grid("T..\nb.\n"));
        assert!(!looks_solved_grid("ROW 1 2\n"));
        assert!(!looks_solved_grid("21\n12\n1\n00\n00"));
        assert!(!looks_solved_grid(""));
    }

    #[test]
    fn each_signature_is_recognised() {
        assert_eq!(detect("ROW 1 2\n"), Ok(Format::Ist));
        assert_eq!(detect("  {\"rows\": 1}"), Ok(Format::Json));
        assert_eq!(
            detect("Board ID: 1\nSTART-NEW-BOARD 10 10\n"),
            Ok(Format::Rubin)
        );
        assert_eq!(detect("% c\nheight = 12;\n"), Ok(Format::Dzn));
        assert_eq!(
            detect("\u{feff}21\r\n12\r\n1\r\n00\r\n00"),
            Ok(Format::Csc384)
        );
        assert_eq!(
            detect("\nhttps://puzz.link/p?battleship/6/6/g12h2g30g3gk0r3w//c\n"),
            Ok(Format::Puzzlink)
        );
        assert_eq!(detect("battleship/1/1/g0g//z"), Ok(Format::Puzzlink));
        assert_eq!(detect("board 1 2\nrows 1\ncols 1 0\n"), Ok(Format::Rpi));
        assert_eq!(detect("$ c\nletting width be 6\n"), Ok(Format::Eprime));
        assert_eq!(detect("1)\n. . =\n{0}\n{0,0,0}\n"), Ok(Format::Krazydad));
        assert_eq!(
            detect("# rows\n1, ?\n# cols\n0, 1\n1\n"),
            Ok(Format::Jolyonb)
        );
        assert_eq!(detect("2 1\n1 2\n2 1\n"), Ok(Format::Sxchx));
    }

    #[test]
    fn unknown_and_ambiguous_texts_are_refused() {
        assert_eq!(detect(""), Err(DetectError::Empty));
        assert_eq!(detect(" \n\n"), Err(DetectError::Blank));
        assert_eq!(detect("WLMRWS\n"), Err(DetectError::NoMatch));
        assert_eq!(detect("12\n12\n"), Err(DetectError::NoMatch));
        // The solbat corpus keeps `KEY=value` metadata files beside its data.
        assert_eq!(
            detect("METHOD=sat\nTAGS=model2010\n"),
            Err(DetectError::NoMatch)
        );
        assert!(matches!(
            detect("ROW 1\nSTART-NEW-BOARD 1 1\n"),
            Err(DetectError::Ambiguous(f)) if f == vec![Format::Ist, Format::Rubin]
        ));
    }
}
