//! The DIMACS formula ([`Cnf`], read by [`parse_dimacs`]), the checker's errors and what a check
//! counted.

use std::fmt;

/// A literal as DIMACS writes it: a non-zero integer.
pub(crate) type DimacsLit = i32;

/// A DIMACS CNF file read by [`parse_dimacs`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cnf {
    /// The variable count of the `p cnf` line.
    pub vars: usize,
    /// The clauses, in file order.
    pub clauses: Vec<Vec<DimacsLit>>,
    /// The comment lines before the `p cnf` line, without their leading `c `.
    pub comments: Vec<String>,
}

/// Why a DIMACS file or a proof was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DratError {
    /// The DIMACS text breaks the format.
    #[error("the formula, line {line}: {message}")]
    Formula {
        /// 1-based line.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// The proof text breaks the DRAT format.
    #[error("the proof, {at}: {message}")]
    Syntax {
        /// Where.
        at: Step,
        /// What is wrong.
        message: String,
    },
    /// A lemma does not follow from the clauses before it.
    #[error(
        "the proof, {at}: the lemma `{}` does not follow (neither RUP nor RAT on its first literal)",
        show(lemma)
    )]
    NotImplied {
        /// Where.
        at: Step,
        /// The lemma, as DIMACS literals.
        lemma: Vec<DimacsLit>,
    },
    /// Every lemma checked, but the formula was not refuted.
    #[error(
        "the proof ends after {steps} steps without deriving the empty clause (the formula is not refuted)"
    )]
    NoRefutation {
        /// Steps read.
        steps: usize,
    },
}

/// A place in a proof: a line of text DRAT, or a step (clause) of binary DRAT.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// 1-based line of a text proof.
    Line(usize),
    /// 1-based step of a binary proof.
    Binary(usize),
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Step::Line(n) => write!(f, "line {n}"),
            Step::Binary(n) => write!(f, "binary step {n}"),
        }
    }
}

pub(super) fn show(clause: &[DimacsLit]) -> String {
    let mut s: String = clause.iter().map(|l| format!("{l} ")).collect();
    s.push('0');
    s
}

/// What a successful check saw.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CheckStats {
    /// Whether the proof was binary DRAT.
    pub binary: bool,
    /// Lemmas checked.
    pub lemmas: usize,
    /// Lemmas that needed the RAT check.
    pub rat: usize,
    /// Deletions applied.
    pub deletions: usize,
    /// Deletions ignored (unit or reason clauses, clauses not in the database).
    pub ignored_deletions: usize,
}

/// Reads a DIMACS CNF file: comments, one `p cnf VARS CLAUSES` line, then the clauses, each
/// ending with `0`. The clause count and every variable are checked against the `p` line.
pub(crate) fn parse_dimacs(text: &str) -> Result<Cnf, DratError> {
    let mut cnf = Cnf::default();
    let mut declared: Option<usize> = None;
    let mut current: Vec<DimacsLit> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let number = i + 1;
        let bad = |message: String| DratError::Formula {
            line: number,
            message,
        };
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        if let Some(rest) = line.strip_prefix('c') {
            if declared.is_none() {
                cnf.comments
                    .push(rest.strip_prefix(' ').unwrap_or(rest).to_string());
            }
            continue;
        }
        if line.starts_with('p') {
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.as_slice() {
                ["p", "cnf", vars, clauses] if declared.is_none() => {
                    cnf.vars = vars
                        .parse()
                        .map_err(|_| bad(format!("bad variable count `{vars}`")))?;
                    declared = Some(
                        clauses
                            .parse()
                            .map_err(|_| bad(format!("bad clause count `{clauses}`")))?,
                    );
                }
                _ => {
                    return Err(bad(format!(
                        "expected one `p cnf VARS CLAUSES`, found `{line}`"
                    )));
                }
            }
            continue;
        }
        if declared.is_none() {
            return Err(bad("a clause before the `p cnf` line".into()));
        }
        for word in line.split_whitespace() {
            let lit: DimacsLit = word
                .parse()
                .map_err(|_| bad(format!("`{word}` is not a literal")))?;
            if lit == 0 {
                cnf.clauses.push(std::mem::take(&mut current));
            } else if lit.unsigned_abs() as usize > cnf.vars {
                return Err(bad(format!(
                    "literal {lit} is past the {} variables of the `p` line",
                    cnf.vars
                )));
            } else {
                current.push(lit);
            }
        }
    }
    let last = text.lines().count();
    let Some(declared) = declared else {
        return Err(DratError::Formula {
            line: last,
            message: "no `p cnf` line".into(),
        });
    };
    if !current.is_empty() {
        return Err(DratError::Formula {
            line: last,
            message: "the last clause does not end with 0".into(),
        });
    }
    if cnf.clauses.len() != declared {
        return Err(DratError::Formula {
            line: last,
            message: format!(
                "the `p` line announces {declared} clauses, the file holds {}",
                cnf.clauses.len()
            ),
        });
    }
    Ok(cnf)
}
