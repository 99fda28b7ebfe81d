//! An external SAT solver's answer, read: SAT-competition output or a MiniSat result file, each
//! literal checked against the formula's variables ([`read_answer`]).

use crate::format::{Found, ParseError, ParseErrorKind};
use crate::model::limits::Limits;

/// What an external solver answered.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum DimacsAnswer {
    /// Satisfiable, with this model.
    Sat(Assignment),
    /// Unsatisfiable.
    Unsat,
    /// The solver gave up (`s UNKNOWN`, MiniSat's `INDET`).
    Unknown,
}

/// A (possibly partial) assignment read from a solver's output, by variable index (0-based).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Assignment {
    pub(super) values: Vec<Option<bool>>,
}

impl Assignment {
    /// The value of the variable with 0-based `index`, if assigned.
    pub fn value(&self, index: usize) -> Option<bool> {
        self.values.get(index).copied().flatten()
    }

    /// One past the largest variable index assigned.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether nothing is assigned.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    fn set(&mut self, lit: isize) -> Result<(), ParseErrorKind> {
        let index = lit.unsigned_abs() - 1;
        if index >= self.values.len() {
            self.values.resize(index + 1, None);
        }
        let value = lit > 0;
        match self.values[index] {
            Some(old) if old != value => Err(ParseErrorKind::Expected {
                expected: "each variable once",
                found: Found(format!("both {} and {}", -lit, lit)),
            }),
            _ => {
                self.values[index] = Some(value);
                Ok(())
            }
        }
    }
}

/// Reads a solver's answer for a formula of `vars` variables: SAT-competition output (`c`
/// comments, one `s` line, `v` lines ending with `0`) or a MiniSat result file (`SAT`, `UNSAT`
/// or `INDET`, then the literals ending with `0`). A model without its final `0` is truncated
/// and rejected. A literal naming a variable above `vars` is refused where it stands
/// ([`crate::model::limits::Limit::Variable`]), before anything is sized by it; pass
/// [`Limits::max_variable`] when the formula is not known.
pub fn read_answer(text: &str, vars: usize) -> Result<DimacsAnswer, ParseError> {
    let lines = crate::format::tokenize(text);
    let first = lines.iter().find(|l| l.tokens[0].1 != "c").ok_or_else(|| {
        ParseError::at_line(
            0,
            ParseErrorKind::UnexpectedEnd {
                expected: "`s SATISFIABLE`, `s UNSATISFIABLE`, or MiniSat's `SAT` or `UNSAT`",
            },
        )
    })?;
    let (col, word) = first.tokens[0];
    // A file cut in the middle of a literal ends without a newline on a bad token.
    let cut = |e: ParseError| {
        let last = lines.last().map_or(0, |l| l.number);
        if e.line == last && !text.ends_with('\n') {
            truncated()
        } else {
            e
        }
    };
    match word {
        "s" => read_competition(&lines, vars).map_err(cut),
        "SAT" | "UNSAT" | "INDET" => read_minisat(&lines, vars).map_err(cut),
        _ => Err(ParseError::at(
            first.number,
            col,
            ParseErrorKind::Expected {
                expected: "`s SATISFIABLE`, `s UNSATISFIABLE`, or MiniSat's `SAT` or `UNSAT`",
                found: Found::new(word),
            },
        )),
    }
}

/// Parses literals into `assignment` until the terminating `0`; returns whether it was seen.
fn read_literals(
    line: &crate::format::Line<'_>,
    tokens: &[(usize, &str)],
    assignment: &mut Assignment,
    done: &mut bool,
    vars: usize,
) -> Result<(), ParseError> {
    for &(col, tok) in tokens {
        if *done {
            return Err(ParseError::at(
                line.number,
                col,
                ParseErrorKind::Expected {
                    expected: "nothing after the 0 that ends the model",
                    found: Found::new(tok),
                },
            ));
        }
        let lit: isize = tok.parse().map_err(|_| {
            ParseError::at(
                line.number,
                col,
                ParseErrorKind::Expected {
                    expected: "a literal (a non-zero integer) or the final 0",
                    found: Found::new(tok),
                },
            )
        })?;
        if lit == 0 {
            *done = true;
        } else {
            let var = u64::try_from(lit.unsigned_abs()).unwrap_or(u64::MAX);
            Limits::default()
                .variable(var, Some(vars))
                .map_err(|e| ParseError::at(line.number, col, e.into()))?;
            assignment
                .set(lit)
                .map_err(|kind| ParseError::at(line.number, col, kind))?;
        }
    }
    Ok(())
}

fn truncated() -> ParseError {
    ParseError::at_line(
        0,
        ParseErrorKind::UnexpectedEnd {
            expected: "the 0 that ends the model (the file is truncated)",
        },
    )
}

fn read_competition(
    lines: &[crate::format::Line<'_>],
    vars: usize,
) -> Result<DimacsAnswer, ParseError> {
    let mut status: Option<&str> = None;
    let mut assignment = Assignment::default();
    let mut done = false;
    let mut saw_v = false;
    for line in lines {
        let (col, head) = line.tokens[0];
        match head {
            "c" => {}
            "s" => {
                if status.is_some() {
                    return Err(ParseError::at(
                        line.number,
                        col,
                        ParseErrorKind::Expected {
                            expected: "one `s` line",
                            found: Found::new("a second `s` line"),
                        },
                    ));
                }
                let rest: Vec<&str> = line.tokens[1..].iter().map(|t| t.1).collect();
                let word = match rest.as_slice() {
                    [w @ ("SATISFIABLE" | "UNSATISFIABLE" | "UNKNOWN")] => *w,
                    _ => {
                        return Err(ParseError::at(
                            line.number,
                            line.tokens.get(1).map_or(col, |t| t.0),
                            ParseErrorKind::Expected {
                                expected: "SATISFIABLE, UNSATISFIABLE or UNKNOWN",
                                found: Found::new(&rest.join(" ")),
                            },
                        ));
                    }
                };
                status = Some(word);
            }
            "v" if status == Some("SATISFIABLE") => {
                saw_v = true;
                read_literals(line, &line.tokens[1..], &mut assignment, &mut done, vars)?;
            }
            _ => {
                return Err(ParseError::at(
                    line.number,
                    col,
                    ParseErrorKind::Expected {
                        expected: if status == Some("SATISFIABLE") {
                            "a `v` or `c` line"
                        } else {
                            "`c` or `s` line"
                        },
                        found: Found::new(head),
                    },
                ));
            }
        }
    }
    match status {
        Some("SATISFIABLE") if saw_v && done => Ok(DimacsAnswer::Sat(assignment)),
        Some("SATISFIABLE") => Err(truncated()),
        Some("UNSATISFIABLE") => Ok(DimacsAnswer::Unsat),
        _ => Ok(DimacsAnswer::Unknown),
    }
}

fn read_minisat(
    lines: &[crate::format::Line<'_>],
    vars: usize,
) -> Result<DimacsAnswer, ParseError> {
    let mut rest = lines.iter().filter(|l| l.tokens[0].1 != "c");
    let Some(first) = rest.next() else {
        return Err(truncated());
    };
    let (col, word) = first.tokens[0];
    if first.tokens.len() > 1 {
        return Err(ParseError::at(
            first.number,
            first.tokens[1].0,
            ParseErrorKind::Expected {
                expected: "end of line after the answer",
                found: Found::new(first.tokens[1].1),
            },
        ));
    }
    match word {
        "SAT" => {
            let mut assignment = Assignment::default();
            let mut done = false;
            for line in rest {
                read_literals(line, &line.tokens, &mut assignment, &mut done, vars)?;
            }
            if done {
                Ok(DimacsAnswer::Sat(assignment))
            } else {
                Err(truncated())
            }
        }
        "UNSAT" | "INDET" => {
            if let Some(extra) = rest.next() {
                return Err(ParseError::at(
                    extra.number,
                    extra.tokens[0].0,
                    ParseErrorKind::Expected {
                        expected: "end of file after UNSAT or INDET",
                        found: Found::new(extra.tokens[0].1),
                    },
                ));
            }
            Ok(if word == "UNSAT" {
                DimacsAnswer::Unsat
            } else {
                DimacsAnswer::Unknown
            })
        }
        _ => Err(ParseError::at(
            first.number,
            col,
            ParseErrorKind::Expected {
                expected: "SAT, UNSAT or INDET",
                found: Found::new(word),
            },
        )),
    }
}
