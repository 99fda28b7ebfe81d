//! Parameter files of constraint models, as MiniZinc `.dzn` data and Essence′ `.param` files write
//! them: statements that give a named parameter a number, a list or a matrix of numbers. One
//! lexer, statement reader and parameter table serve both formats; each brings its [`Syntax`]
//! (punctuation, comments, statement words, value grammar) and its [`HintCodes`].

use super::{Found, ParseError, ParseErrorKind};
use crate::model::limits::Limits;
use crate::model::puzzle::{Clue, Fleet, Pos, Puzzle};

/// A token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Tok {
    Word(String),
    Int(usize),
    Eq,
    Semi,
    Comma,
    Open,
    Close,
    OpenBar,
    CloseBar,
    Bar,
}

impl Tok {
    /// The token as written (a number without its leading zeros).
    fn text(&self) -> String {
        match self {
            Tok::Word(s) => s.clone(),
            Tok::Int(v) => v.to_string(),
            Tok::Eq => "=".into(),
            Tok::Semi => ";".into(),
            Tok::Comma => ",".into(),
            Tok::Open => "[".into(),
            Tok::Close => "]".into(),
            Tok::OpenBar => "[|".into(),
            Tok::CloseBar => "|]".into(),
            Tok::Bar => "|".into(),
        }
    }
}

/// A token with its 1-based line and column.
pub(super) struct Lexed {
    tok: Tok,
    line: usize,
    col: usize,
}

impl Lexed {
    /// The token.
    pub(super) fn tok(&self) -> &Tok {
        &self.tok
    }

    /// An error: `expected` should stand where this token does.
    pub(super) fn unexpected(&self, expected: &'static str) -> ParseError {
        ParseError::at(
            self.line,
            self.col,
            ParseErrorKind::Expected {
                expected,
                found: Found::new(&self.tok.text()),
            },
        )
    }
}

/// How a format writes its parameters.
pub(super) struct Syntax {
    /// The character that starts a comment running to the end of the line.
    pub comment: char,
    /// A word that, first on a line, makes the line a header to skip (`language ESSENCE' 1.0`).
    pub header: Option<&'static str>,
    /// The punctuation tokens as written, longer ones first (`[|` before `[`).
    pub punctuation: &'static [(&'static str, Tok)],
    /// What a character that starts no token should have been.
    pub data: &'static str,
    /// The word before each parameter name (`letting`), if any.
    pub lead: Option<&'static str>,
    /// The token between a name and its value (`=`, `be`).
    pub sep: &'static str,
    /// The token after each value (`;`), if any.
    pub end: Option<&'static str>,
    /// The parameter names, separated by spaces.
    pub names: &'static str,
    /// How a parameter that should be a number but is not is described, after its name
    /// (`as a list`).
    pub not_a_number: &'static str,
    /// Reads a value, the separator before it already read.
    pub value: fn(&mut Cursor) -> Result<ParamValue, ParseError>,
    /// Builds the puzzle from the parameters read, within the limits.
    pub build: fn(&Params, &Limits) -> Result<Puzzle, ParseError>,
}

fn lex(text: &str, syntax: &Syntax) -> Result<Vec<Lexed>, ParseError> {
    let mut out = Vec::new();
    for (i, raw) in text.split('\n').enumerate() {
        let line = i + 1;
        let code = raw.split(syntax.comment).next().unwrap_or("");
        if syntax.header.is_some() && code.split_whitespace().next() == syntax.header {
            continue;
        }
        let chars: Vec<char> = code.chars().collect();
        let mut k = 0;
        while k < chars.len() {
            let ch = chars[k];
            let col = k + 1;
            if ch.is_whitespace() || ch == '\u{feff}' {
                k += 1;
                continue;
            }
            let punctuation = syntax.punctuation.iter().find(|(text, _)| {
                text.chars()
                    .enumerate()
                    .all(|(j, c)| chars.get(k + j) == Some(&c))
            });
            let (tok, len) = if let Some((text, tok)) = punctuation {
                (tok.clone(), text.chars().count())
            } else if ch.is_ascii_digit() {
                let digits: String = chars[k..]
                    .iter()
                    .take_while(|c| c.is_ascii_digit())
                    .collect();
                let n = digits.len();
                let v = super::whole_number(line, col, &digits, "a number below 1000000000")?;
                (Tok::Int(v), n)
            } else if ch.is_ascii_alphabetic() || ch == '_' {
                let word: String = chars[k..]
                    .iter()
                    .take_while(|c| c.is_ascii_alphanumeric() || **c == '_')
                    .collect();
                let n = word.chars().count();
                (Tok::Word(word), n)
            } else {
                return Err(ParseError::at(
                    line,
                    col,
                    ParseErrorKind::Expected {
                        expected: syntax.data,
                        found: Found::new(&ch.to_string()),
                    },
                ));
            };
            out.push(Lexed { tok, line, col });
            k += len;
        }
    }
    Ok(out)
}

/// The tokens of a file, read from the front.
pub(super) struct Cursor {
    toks: Vec<Lexed>,
    at: usize,
    end_line: usize,
}

impl Cursor {
    /// The next token, or an error at the end of the input naming `expected`.
    pub(super) fn next(&mut self, expected: &'static str) -> Result<&Lexed, ParseError> {
        let t = self.toks.get(self.at).ok_or(ParseError::at_line(
            self.end_line,
            ParseErrorKind::UnexpectedEnd { expected },
        ))?;
        self.at += 1;
        Ok(t)
    }

    /// The next token, without taking it.
    pub(super) fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.at).map(|t| &t.tok)
    }

    /// Takes the next token if it is `tok`.
    pub(super) fn eat(&mut self, tok: &Tok) -> bool {
        let hit = self.peek() == Some(tok);
        if hit {
            self.at += 1;
        }
        hit
    }

    /// Takes the next token, which must be written `want`.
    fn expect(&mut self, want: &'static str) -> Result<(), ParseError> {
        let t = self.next(want)?;
        if t.tok.text() == want {
            Ok(())
        } else {
            Err(t.unexpected(want))
        }
    }

    /// Takes the next token, which must be a number.
    pub(super) fn int(&mut self, expected: &'static str) -> Result<usize, ParseError> {
        let t = self.next(expected)?;
        match t.tok {
            Tok::Int(v) => Ok(v),
            _ => Err(t.unexpected(expected)),
        }
    }

    /// Takes what follows a list item: `,` (false) or the closing `]` (true).
    pub(super) fn comma_or_close(&mut self) -> Result<bool, ParseError> {
        let t = self.next(", or ]")?;
        match t.tok {
            Tok::Comma => Ok(false),
            Tok::Close => Ok(true),
            _ => Err(t.unexpected(", or ]")),
        }
    }
}

/// A parameter's value: a number, a list of numbers or a matrix.
#[derive(Clone, Debug)]
pub(super) enum ParamValue {
    Int(usize),
    List(Vec<usize>),
    Matrix(Vec<Vec<usize>>),
}

/// The parameters a file gives, each once, with the line where it is given.
pub(super) struct Params {
    syntax: &'static Syntax,
    found: Vec<(&'static str, usize, ParamValue)>,
    /// The last line holding data, where errors about the end of the input point.
    end_line: usize,
}

/// Reads `text` in `syntax` and builds its puzzle within `limits`.
pub(super) fn parse(
    text: &str,
    syntax: &'static Syntax,
    limits: &Limits,
) -> Result<Puzzle, ParseError> {
    (syntax.build)(&read(text, syntax)?, limits)
}

/// Reads the parameter statements of `text`.
fn read(text: &str, syntax: &'static Syntax) -> Result<Params, ParseError> {
    let toks = lex(text, syntax)?;
    let end_line = toks.last().map_or(1, |t| t.line);
    let mut cur = Cursor {
        toks,
        at: 0,
        end_line,
    };
    let mut params = Params {
        syntax,
        found: Vec::new(),
        end_line,
    };
    while cur.peek().is_some() {
        if let Some(lead) = syntax.lead {
            cur.expect(lead)?;
        }
        let t = cur.next("a parameter name")?;
        let (line, col) = (t.line, t.col);
        let Tok::Word(name) = &t.tok else {
            return Err(t.unexpected("a parameter name"));
        };
        let Some(key) = syntax.names.split(' ').find(|n| n == name) else {
            return Err(ParseError::at(
                line,
                col,
                ParseErrorKind::UnknownWord {
                    found: name.clone(),
                    allowed: syntax.names,
                },
            ));
        };
        cur.expect(syntax.sep)?;
        let v = (syntax.value)(&mut cur)?;
        if let Some(end) = syntax.end {
            cur.expect(end)?;
        }
        if let Some((_, first, _)) = params.found.iter().find(|(k, _, _)| *k == key) {
            return Err(ParseError::at(
                line,
                col,
                ParseErrorKind::Expected {
                    expected: "each parameter once",
                    found: Found::new(&format!("{key} again (first on line {first})")),
                },
            ));
        }
        params.found.push((key, line, v));
    }
    Ok(params)
}

impl Params {
    /// The line and value of `key`, if given.
    pub(super) fn get(&self, key: &str) -> Option<(usize, &ParamValue)> {
        self.found
            .iter()
            .find(|(k, _, _)| *k == key)
            .map(|(_, l, v)| (*l, v))
    }

    /// The line where `key` is given, or the last line holding data.
    pub(super) fn line(&self, key: &str) -> usize {
        self.get(key).map_or(self.end_line, |(line, _)| line)
    }

    /// An error for a parameter that is missing: `expected` by the end of the input.
    pub(super) fn missing(&self, expected: &'static str) -> ParseError {
        ParseError::at_line(self.end_line, ParseErrorKind::UnexpectedEnd { expected })
    }

    fn shape(line: usize, expected: &'static str, found: &str) -> ParseError {
        ParseError::at_line(
            line,
            ParseErrorKind::Expected {
                expected,
                found: Found::new(found),
            },
        )
    }

    /// The list `key`, if given, with its line; another shape is an error naming `expected`.
    pub(super) fn list(
        &self,
        key: &'static str,
        expected: &'static str,
    ) -> Result<Option<(usize, Vec<usize>)>, ParseError> {
        match self.get(key) {
            None => Ok(None),
            Some((line, ParamValue::List(v))) => Ok(Some((line, v.clone()))),
            Some((line, _)) => Err(Self::shape(
                line,
                expected,
                &format!("{key} of another shape"),
            )),
        }
    }

    /// The number `key`, if given, with its line.
    pub(super) fn int(&self, key: &'static str) -> Result<Option<(usize, usize)>, ParseError> {
        match self.get(key) {
            None => Ok(None),
            Some((line, ParamValue::Int(v))) => Ok(Some((line, *v))),
            Some((line, _)) => Err(Self::shape(
                line,
                "a number",
                &format!("{key} {}", self.syntax.not_a_number),
            )),
        }
    }

    /// The puzzle of the row and column tallies (each with the line that gives it), `fleet`
    /// (ships per length, from 1) and the `hint` matrix. A tally over the other side's length
    /// is an error naming it as `tally`. The board's size must have been checked.
    pub(super) fn puzzle(
        &self,
        (row_line, rows): (usize, Vec<usize>),
        (col_line, cols): (usize, Vec<usize>),
        fleet: Vec<usize>,
        tally: &'static str,
        codes: &HintCodes,
    ) -> Result<Puzzle, ParseError> {
        for (line, tallies, max) in [(row_line, &rows, cols.len()), (col_line, &cols, rows.len())] {
            if let Some(&v) = tallies.iter().find(|&&v| v > max) {
                return Err(ParseError::at_line(
                    line,
                    ParseErrorKind::OutOfRange {
                        what: tally,
                        value: v,
                        max,
                    },
                ));
            }
        }
        let mut puzzle = Puzzle::new(
            rows.into_iter().map(Some).collect(),
            cols.into_iter().map(Some).collect(),
            Fleet::from_counts(fleet),
        )
        .expect("the size was checked non-zero");
        self.add_hints(&mut puzzle, codes)?;
        Ok(puzzle)
    }

    /// Adds the clues of the `hint` matrix, if given, to `puzzle`.
    fn add_hints(&self, puzzle: &mut Puzzle, codes: &HintCodes) -> Result<(), ParseError> {
        let (rows, cols) = (puzzle.rows(), puzzle.cols());
        let (line, m) = match self.get("hint") {
            None => return Ok(()),
            Some((line, ParamValue::Matrix(m))) => (line, m),
            Some((line, _)) => return Err(Self::shape(line, codes.shape, codes.other)),
        };
        if m.len() != rows || m.iter().any(|r| r.len() != cols) {
            return Err(Self::shape(
                line,
                codes.size,
                &format!(
                    "{} rows of {} {}",
                    m.len(),
                    m.first().map_or(0, Vec::len),
                    codes.items
                ),
            ));
        }
        for (r, row) in m.iter().enumerate() {
            for (c, &code) in row.iter().enumerate() {
                let clue = codes.clues.get(code).ok_or_else(|| {
                    ParseError::at_line(
                        line,
                        ParseErrorKind::OutOfRange {
                            what: "hint code",
                            value: code,
                            max: codes.clues.len() - 1,
                        },
                    )
                })?;
                if let Some(clue) = *clue {
                    puzzle
                        .add_clue(Pos::new(r, c), clue)
                        .expect("on the board, once");
                }
            }
        }
        Ok(())
    }
}

/// What the codes of a format's `hint` matrix mean, and how it words a wrong matrix.
pub(super) struct HintCodes {
    /// The clue of each code, indexed by code (`None`: no hint).
    pub clues: &'static [Option<Clue>],
    /// What a matrix of the wrong size should have been.
    pub size: &'static str,
    /// What its items are called, to count them.
    pub items: &'static str,
    /// What a `hint` of another shape should have been.
    pub shape: &'static str,
    /// How a `hint` of another shape is described.
    pub other: &'static str,
}
