//! A DRAT proof checker of its own: it reads the DIMACS formula and the proof (text or binary
//! DRAT) with its own parsers and checks every lemma forward, by unit propagation (RUP) and,
//! failing that, the RAT property on the lemma's first literal (Wetzler, Heule and Hunt,
//! "DRAT-trim: efficient checking and trimming using expressive clausal proofs", SAT 2014).
//! It shares no code with any solver: it uses nothing of varisat, not even its literal type.
//!
//! **Semantics.** A deletion of a clause that is the reason of a top-level assignment, or of a
//! unit clause, is ignored (as drat-trim does); a deletion of a clause that is not in the
//! database is ignored too. Both keep more clauses than the proof asks for, which is sound:
//! every step keeps "the original formula is satisfiable ⇒ the database is", since a RUP or RAT
//! lemma preserves satisfiability and removing clauses (or not removing them) does too. The
//! proof is accepted when the database becomes refutable by unit propagation (normally when
//! the proof adds the empty clause).

use std::collections::HashMap;
use std::fmt;

/// A literal as DIMACS writes it: a non-zero integer.
pub type DimacsLit = i32;

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

fn show(clause: &[DimacsLit]) -> String {
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
pub fn parse_dimacs(text: &str) -> Result<Cnf, DratError> {
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

/// One proof step.
enum ProofItem {
    Add(Vec<DimacsLit>),
    Delete(Vec<DimacsLit>),
}

impl ProofItem {
    fn new(delete: bool, clause: Vec<DimacsLit>) -> Self {
        if delete {
            ProofItem::Delete(clause)
        } else {
            ProofItem::Add(clause)
        }
    }
}

/// Whether `proof` is binary DRAT: text DRAT never holds a 0 byte, binary DRAT ends every
/// clause with one.
pub fn is_binary(proof: &[u8]) -> bool {
    proof.contains(&0)
}

/// Checks that `proof` (text or binary DRAT, told apart by [`is_binary`]) refutes `cnf`.
pub fn check(cnf: &Cnf, proof: &[u8]) -> Result<CheckStats, DratError> {
    let mut checker = Checker::default();
    for clause in &cnf.clauses {
        checker.add(clause);
    }
    let mut stats = CheckStats {
        binary: is_binary(proof),
        ..CheckStats::default()
    };
    let mut steps = 0;
    let mut step = |at: Step, item: ProofItem| -> Result<(), DratError> {
        steps += 1;
        match item {
            ProofItem::Add(lemma) => {
                stats.lemmas += 1;
                match checker.implied(&lemma) {
                    Derivation::Rup => {}
                    Derivation::Rat => stats.rat += 1,
                    Derivation::No => return Err(DratError::NotImplied { at, lemma }),
                }
                checker.add(&lemma);
            }
            ProofItem::Delete(clause) => {
                if checker.delete(&clause) {
                    stats.deletions += 1;
                } else {
                    stats.ignored_deletions += 1;
                }
            }
        }
        Ok(())
    };
    if stats.binary {
        read_binary(proof, &mut step)?;
    } else {
        read_text(proof, &mut step)?;
    }
    if checker.refuted {
        Ok(stats)
    } else {
        Err(DratError::NoRefutation { steps })
    }
}

fn read_text(
    proof: &[u8],
    step: &mut impl FnMut(Step, ProofItem) -> Result<(), DratError>,
) -> Result<(), DratError> {
    let text = std::str::from_utf8(proof).map_err(|e| DratError::Syntax {
        at: Step::Line(proof[..e.valid_up_to()].split(|&b| b == b'\n').count()),
        message: "not text (and no 0 byte, so not binary DRAT either)".into(),
    })?;
    for (i, line) in text.lines().enumerate() {
        let at = Step::Line(i + 1);
        let mut words = line.split_whitespace().peekable();
        let delete = match words.peek() {
            None => continue,
            Some(w) if w.starts_with('c') => continue,
            Some(&"d") => {
                words.next();
                true
            }
            Some(_) => false,
        };
        let mut clause = Vec::new();
        let mut ended = false;
        for word in words {
            if ended {
                return Err(DratError::Syntax {
                    at,
                    message: format!("`{word}` after the 0 that ends the clause"),
                });
            }
            let lit: DimacsLit = word.parse().map_err(|_| DratError::Syntax {
                at,
                message: format!("`{word}` is not a literal"),
            })?;
            if lit == 0 {
                ended = true;
            } else {
                clause.push(lit);
            }
        }
        if !ended {
            return Err(DratError::Syntax {
                at,
                message: "the clause does not end with 0".into(),
            });
        }
        step(at, ProofItem::new(delete, clause))?;
    }
    Ok(())
}

fn read_binary(
    proof: &[u8],
    step: &mut impl FnMut(Step, ProofItem) -> Result<(), DratError>,
) -> Result<(), DratError> {
    let mut bytes = proof.iter().copied();
    let mut number = 0;
    while let Some(kind) = bytes.next() {
        number += 1;
        let at = Step::Binary(number);
        let delete = match kind {
            b'a' => false,
            b'd' => true,
            other => {
                return Err(DratError::Syntax {
                    at,
                    message: format!("byte {other:#04x} where `a` or `d` starts a step"),
                });
            }
        };
        let mut clause = Vec::new();
        loop {
            let mut code: u64 = 0;
            let mut shift = 0;
            loop {
                let Some(byte) = bytes.next() else {
                    return Err(DratError::Syntax {
                        at,
                        message: "the proof ends inside a clause".into(),
                    });
                };
                if shift > 35 {
                    return Err(DratError::Syntax {
                        at,
                        message: "a literal too large".into(),
                    });
                }
                code |= u64::from(byte & 0x7f) << shift;
                shift += 7;
                if byte & 0x80 == 0 {
                    break;
                }
            }
            if code == 0 {
                break;
            }
            let var = DimacsLit::try_from(code >> 1).map_err(|_| DratError::Syntax {
                at,
                message: "a literal too large".into(),
            })?;
            if var == 0 {
                return Err(DratError::Syntax {
                    at,
                    message: "literal code 1 names no variable".into(),
                });
            }
            clause.push(if code & 1 == 1 { -var } else { var });
        }
        step(at, ProofItem::new(delete, clause))?;
    }
    Ok(())
}

/// A literal inside the checker: `2 * (variable - 1) + negative`.
type Lit = u32;

const NO_REASON: u32 = u32::MAX;

fn lit_of(l: DimacsLit) -> Lit {
    let var = l.unsigned_abs() - 1;
    2 * var + u32::from(l < 0)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Derivation {
    Rup,
    Rat,
    No,
}

/// One clause of the database: its literals are `lits[start..start + len]`, the first two
/// watched.
#[derive(Clone, Copy)]
struct Meta {
    start: u32,
    len: u32,
    deleted: bool,
}

/// The clause database, with watched literals and the top-level assignment.
#[derive(Default)]
struct Checker {
    lits: Vec<Lit>,
    clauses: Vec<Meta>,
    /// Clauses by their sorted literals, for deletions.
    index: HashMap<Vec<Lit>, Vec<u32>>,
    /// Per literal, the clauses watching it.
    watches: Vec<Vec<u32>>,
    /// Per variable: 0 open, 1 true, 2 false.
    values: Vec<u8>,
    /// Per variable, the clause that set it at the top level.
    reasons: Vec<u32>,
    trail: Vec<Lit>,
    head: usize,
    /// The database is refuted by unit propagation: every later lemma follows.
    refuted: bool,
}

impl Checker {
    fn ensure(&mut self, lit: Lit) {
        let var = (lit >> 1) as usize;
        if var >= self.values.len() {
            self.values.resize(var + 1, 0);
            self.reasons.resize(var + 1, NO_REASON);
            self.watches.resize(2 * (var + 1), Vec::new());
        }
    }

    /// 1 true, 2 false, 0 open.
    fn value(&self, lit: Lit) -> u8 {
        match self.values[(lit >> 1) as usize] {
            0 => 0,
            v if (v == 1) == (lit & 1 == 0) => 1,
            _ => 2,
        }
    }

    fn assign(&mut self, lit: Lit, reason: u32) {
        let var = (lit >> 1) as usize;
        self.values[var] = if lit & 1 == 0 { 1 } else { 2 };
        self.reasons[var] = reason;
        self.trail.push(lit);
    }

    fn backtrack(&mut self, to: usize) {
        for &lit in &self.trail[to..] {
            let var = (lit >> 1) as usize;
            self.values[var] = 0;
            self.reasons[var] = NO_REASON;
        }
        self.trail.truncate(to);
        self.head = to;
    }

    /// Unit propagation from `head`; true on a conflict.
    fn propagate(&mut self) -> bool {
        while self.head < self.trail.len() {
            let falsified = self.trail[self.head] ^ 1;
            self.head += 1;
            let mut watching = std::mem::take(&mut self.watches[falsified as usize]);
            let (mut i, mut j) = (0, 0);
            let mut conflict = false;
            while i < watching.len() {
                let id = watching[i];
                i += 1;
                let meta = self.clauses[id as usize];
                if meta.deleted {
                    continue;
                }
                let s = meta.start as usize;
                let len = meta.len as usize;
                if self.lits[s] == falsified {
                    self.lits.swap(s, s + 1);
                }
                let first = self.lits[s];
                if self.value(first) == 1 {
                    watching[j] = id;
                    j += 1;
                    continue;
                }
                let mut moved = false;
                for k in s + 2..s + len {
                    if self.value(self.lits[k]) != 2 {
                        self.lits.swap(s + 1, k);
                        let new = self.lits[s + 1];
                        self.watches[new as usize].push(id);
                        moved = true;
                        break;
                    }
                }
                if moved {
                    continue;
                }
                watching[j] = id;
                j += 1;
                if self.value(first) == 2 {
                    conflict = true;
                    while i < watching.len() {
                        watching[j] = watching[i];
                        i += 1;
                        j += 1;
                    }
                    break;
                }
                self.assign(first, id);
            }
            watching.truncate(j);
            self.watches[falsified as usize] = watching;
            if conflict {
                return true;
            }
        }
        false
    }

    /// Adds a clause of the formula or a checked lemma, and propagates at the top level.
    fn add(&mut self, clause: &[DimacsLit]) {
        let mut lits: Vec<Lit> = clause.iter().map(|&l| lit_of(l)).collect();
        lits.sort_unstable();
        lits.dedup();
        for &l in &lits {
            self.ensure(l);
        }
        let id = self.clauses.len() as u32;
        self.index.entry(lits.clone()).or_default().push(id);
        let tautology = lits.windows(2).any(|w| w[0] ^ 1 == w[1]);
        // Non-false literals first: they are the watches.
        lits.sort_by_key(|&l| self.value(l) == 2);
        let start = self.lits.len() as u32;
        self.lits.extend_from_slice(&lits);
        self.clauses.push(Meta {
            start,
            len: lits.len() as u32,
            deleted: false,
        });
        if tautology || self.refuted {
            return;
        }
        let open = lits.iter().take_while(|&&l| self.value(l) != 2).count();
        if lits.len() >= 2 {
            self.watches[lits[0] as usize].push(id);
            self.watches[lits[1] as usize].push(id);
        }
        match open {
            0 => self.refuted = true,
            1 if self.value(lits[0]) == 0 => {
                self.assign(lits[0], id);
                if self.propagate() {
                    self.refuted = true;
                }
            }
            _ => {}
        }
    }

    /// Deletes a clause with these literals; false when the deletion is ignored.
    fn delete(&mut self, clause: &[DimacsLit]) -> bool {
        let mut key: Vec<Lit> = clause.iter().map(|&l| lit_of(l)).collect();
        key.sort_unstable();
        key.dedup();
        if self.refuted || key.len() < 2 {
            return false;
        }
        let Some(&id) = self.index.get(&key).and_then(|ids| ids.last()) else {
            return false;
        };
        let meta = self.clauses[id as usize];
        let first = self.lits[meta.start as usize];
        let var = (first >> 1) as usize;
        if self.reasons[var] == id && self.value(first) == 1 {
            return false;
        }
        if let Some(ids) = self.index.get_mut(&key) {
            ids.pop();
            if ids.is_empty() {
                self.index.remove(&key);
            }
        }
        self.clauses[id as usize].deleted = true;
        true
    }

    /// Whether assigning the negation of `clause` (on top of the top-level assignment) leads
    /// to a conflict by unit propagation; the assignment is undone.
    fn rup(&mut self, clause: &[Lit]) -> bool {
        let saved = self.trail.len();
        let mut implied = false;
        for &l in clause {
            match self.value(l) {
                1 => {
                    implied = true;
                    break;
                }
                2 => {}
                _ => self.assign(l ^ 1, NO_REASON),
            }
        }
        if !implied {
            implied = self.propagate();
        }
        self.backtrack(saved);
        implied
    }

    fn implied(&mut self, lemma: &[DimacsLit]) -> Derivation {
        if self.refuted {
            return Derivation::Rup;
        }
        let lits: Vec<Lit> = lemma.iter().map(|&l| lit_of(l)).collect();
        for &l in &lits {
            self.ensure(l);
        }
        if self.rup(&lits) {
            return Derivation::Rup;
        }
        let Some(&pivot) = lits.first() else {
            return Derivation::No;
        };
        // RAT on the pivot: every resolvent with a clause holding its negation is RUP.
        let negated = pivot ^ 1;
        let mut resolvent = Vec::new();
        for id in 0..self.clauses.len() {
            let meta = self.clauses[id];
            let s = meta.start as usize;
            let other = &self.lits[s..s + meta.len as usize];
            if meta.deleted || !other.contains(&negated) {
                continue;
            }
            resolvent.clear();
            resolvent.extend_from_slice(&lits);
            resolvent.extend(other.iter().copied().filter(|&l| l != negated));
            if !self.rup(&resolvent) {
                return Derivation::No;
            }
        }
        Derivation::Rat
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cnf(clauses: &[&[DimacsLit]]) -> Cnf {
        let vars = clauses
            .iter()
            .flat_map(|c| c.iter())
            .map(|l| l.unsigned_abs() as usize)
            .max()
            .unwrap_or(0);
        Cnf {
            vars,
            clauses: clauses.iter().map(|c| c.to_vec()).collect(),
            comments: Vec::new(),
        }
    }

    /// All four clauses over two variables: unsatisfiable.
    fn square() -> Cnf {
        cnf(&[&[1, 2], &[-1, 2], &[1, -2], &[-1, -2]])
    }

    #[test]
    fn a_rup_proof_is_accepted_in_text_and_binary() {
        // (1 2) needs 3 split both ways; then 2 refutes the formula by propagation.
        let formula = cnf(&[&[1, 2, 3], &[1, 2, -3], &[-1, 2], &[1, -2], &[-1, -2]]);
        let stats = check(&formula, b"1 2 0\nd 1 2 3 0\n2 0\n0\n").expect("valid");
        assert_eq!((stats.lemmas, stats.deletions, stats.binary), (3, 1, false));
        // a 1 2 0 (codes 2, 4), d 1 2 3 0 (codes 2, 4, 6), a 2 0 (code 4), a 0.
        let binary = [b'a', 2, 4, 0, b'd', 2, 4, 6, 0, b'a', 4, 0, b'a', 0];
        let stats = check(&formula, &binary).expect("valid");
        assert_eq!((stats.lemmas, stats.deletions, stats.binary), (3, 1, true));
        // Once refuted, later steps are not checked: the deletion is ignored.
        let stats = check(&square(), b"2 0\nd 1 2 0\n0\n").expect("valid");
        assert_eq!((stats.deletions, stats.ignored_deletions), (0, 1));
    }

    #[test]
    fn a_lemma_that_does_not_follow_is_rejected_with_its_line() {
        let formula = cnf(&[&[1, 2], &[-1, 2], &[1, -2], &[-1, -2], &[3, 4]]);
        let err = check(&formula, b"c a comment\n-3 0\n0\n").unwrap_err();
        assert!(
            matches!(
                &err,
                DratError::NotImplied { at: Step::Line(2), lemma } if lemma == &vec![-3]
            ),
            "{err}"
        );
    }

    #[test]
    fn a_proof_without_the_empty_clause_refutes_nothing() {
        let formula = cnf(&[&[1, 2], &[-1, 2], &[1, -2]]);
        assert!(matches!(
            check(&formula, b"2 0\n"),
            Err(DratError::NoRefutation { steps: 1 })
        ));
        // A formula refuted by unit propagation needs no lemma.
        assert!(check(&cnf(&[&[1], &[-1]]), b"").is_ok());
    }

    #[test]
    fn rat_lemmas_over_new_variables_are_accepted() {
        // Extended resolution: 5 <-> (1 and 2), defined by RAT clauses on 5 (none of them RUP),
        // then the square over 3 and 4 refuted.
        let formula = cnf(&[&[1, 2], &[3, 4], &[-3, 4], &[3, -4], &[-3, -4]]);
        let proof = b"5 -1 -2 0\n-5 1 0\n-5 2 0\n4 0\n0\n";
        let stats = check(&formula, proof).expect("valid");
        assert_eq!((stats.lemmas, stats.rat), (5, 3));
        // Not RAT: -1 resolves with (1 2) and (1 -2) into tautology-free clauses that UP
        // cannot refute in a satisfiable formula.
        let open = cnf(&[&[1, 2], &[1, -2], &[3, 4]]);
        assert!(matches!(
            check(&open, b"-1 0\n0\n"),
            Err(DratError::NotImplied { .. })
        ));
    }

    #[test]
    fn deleting_a_reason_or_a_unit_is_ignored() {
        let formula = cnf(&[&[1], &[-1, 2], &[-2, 3], &[-3, -1, 4], &[-4, -2]]);
        // (-1 2) is the reason of 2: its deletion is ignored, so the formula stays refuted.
        let stats = check(&formula, b"d -1 2 0\nd 1 0\n0\n").expect("valid");
        assert_eq!(stats.ignored_deletions, 2);
    }

    #[test]
    fn dimacs_files_are_read_and_checked_against_their_p_line() {
        let text = "c hello\nc model: cell\np cnf 3 2\n1 -2 0\n3\n0\n";
        let cnf = parse_dimacs(text).expect("valid");
        assert_eq!(cnf.vars, 3);
        assert_eq!(cnf.clauses, vec![vec![1, -2], vec![3]]);
        assert_eq!(cnf.comments, vec!["hello", "model: cell"]);
        assert!(parse_dimacs("p cnf 2 2\n1 0\n").is_err());
        assert!(parse_dimacs("p cnf 2 1\n3 0\n").is_err());
        assert!(parse_dimacs("1 0\n").is_err());
    }

    #[test]
    fn malformed_proofs_are_syntax_errors() {
        assert!(matches!(
            check(&square(), b"2 x 0\n"),
            Err(DratError::Syntax {
                at: Step::Line(1),
                ..
            })
        ));
        assert!(matches!(
            check(&square(), b"2\n"),
            Err(DratError::Syntax { .. })
        ));
        assert!(matches!(
            check(&square(), &[b'x', 0]),
            Err(DratError::Syntax {
                at: Step::Binary(1),
                ..
            })
        ));
    }
}
