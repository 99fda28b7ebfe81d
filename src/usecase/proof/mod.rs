//! Certified answers. [`certify`] turns "no solution", "unique" or "exactly N solutions" into a
//! pair of files a sceptic can check: the whole CNF encoding of the puzzle plus one blocking
//! clause per solution found (`sat/dimacs.rs`'s [`Formula`], as `--emit-dimacs
//! --exclude-solution` writes it), and a DRAT proof that this formula is unsatisfiable. The
//! proof opens with pre-solving's facts as unit lemmas, each implied by unit propagation over
//! the formula and the lemmas before it, and goes on with what a fresh proof-writing solver
//! ([`ProofSolver`]) writes while it refutes the formula and those units in one call.
//! [`check`] is the other side: it re-derives the formula from the puzzle, compares it clause
//! for clause with the file, has the independent verifier accept every blocked grid, and runs
//! the DRAT checker of [`drat`], which shares no code with any solver. `docs/proofs.md` says
//! what is still trusted (the encoder) and how [`cross_check`] narrows that.

pub mod drat;

use crate::encode::sat::Lit;
use crate::encode::sat::card::CardKind;
use crate::encode::sat::dimacs::{Formula, fingerprint, read_header, read_solutions};
use crate::encode::sat::engine::Configuration;
use crate::encode::sat::model::Model;
use crate::model::placement::Placements;
use crate::model::puzzle::{Grid, Puzzle};
use crate::model::verify::{Violation, verify};
use crate::reason::deduce::{Rules, Status, facts};
use crate::reason::unit::Propagator;
pub use crate::solver::ProofFormat;
use crate::solver::{Answer, SolverError, SolverKind};
use crate::usecase::compare::Config;
use crate::usecase::solve::{Outcome, SolveError};
use std::fmt;
use std::time::{Duration, Instant};

/// What a certificate establishes about its puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Claim {
    /// No grid solves the puzzle.
    NoSolution,
    /// Exactly one grid does.
    Unique,
    /// Exactly this many do (two or more).
    Exactly(usize),
}

impl Claim {
    /// The claim of a refuted formula that blocks `solutions` grids.
    pub fn of(solutions: usize) -> Claim {
        match solutions {
            0 => Claim::NoSolution,
            1 => Claim::Unique,
            n => Claim::Exactly(n),
        }
    }

    /// The outcome's claim, when the outcome is one a proof can certify: no solution, a unique
    /// one, or a complete count.
    pub fn of_outcome(outcome: &Outcome) -> Option<Claim> {
        outcome
            .is_complete()
            .then(|| Claim::of(outcome.grids().len()))
    }
}

impl fmt::Display for Claim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Claim::NoSolution => f.write_str("no solution"),
            Claim::Unique => f.write_str("unique solution"),
            Claim::Exactly(n) => write!(f, "exactly {n} solutions"),
        }
    }
}

/// The configuration a certificate's formula is written in unless another is asked for: the
/// cell model with totalizers. Refuting the whole encoding (no pre-solving) is fastest there on
/// the 30x30 set (`docs/benchmarks.md`, "Proofs").
pub const DEFAULT_CONFIG: Configuration = Configuration {
    model: Model::Cell,
    card: CardKind::Totalizer,
};

/// How to certify: the encoding of the refuted formula, the DRAT flavour and the solver that
/// writes the proof.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProofOptions {
    /// The model and cardinality encoding of the formula ([`DEFAULT_CONFIG`] by default).
    pub config: Configuration,
    /// Text or binary DRAT.
    pub format: ProofFormat,
    /// The solver that refutes the formula and writes the proof.
    pub solver: SolverKind,
}

impl Default for ProofOptions {
    fn default() -> Self {
        ProofOptions {
            config: DEFAULT_CONFIG,
            format: ProofFormat::Text,
            solver: SolverKind::Varisat,
        }
    }
}

/// A formula and its refutation.
#[derive(Clone, Debug)]
pub struct Certificate {
    /// What it establishes.
    pub claim: Claim,
    /// The refuted formula, DIMACS with the header of [`Formula::write`].
    pub cnf: Vec<u8>,
    /// The DRAT proof of its unsatisfiability.
    pub proof: Vec<u8>,
    /// The encoding the formula was written in.
    pub config: Configuration,
    /// Pre-solving facts written as unit lemmas at the head of the proof.
    pub units: usize,
    /// Conflicts of the proof-writing call.
    pub conflicts: u64,
    /// Wall time of encoding, solving and writing the proof.
    pub time: Duration,
}

/// Why no certificate could be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ProofError {
    /// A grid to block breaks the puzzle's rules.
    #[error("solution {index} given to the proof is not a solution: {violation}")]
    NotASolution {
        /// 1-based.
        index: usize,
        /// What the verifier found.
        violation: Violation,
    },
    /// The formula with every given solution blocked is satisfiable: the search that found
    /// them missed one (or the encodings disagree). Never expected; a bug to report.
    #[error(
        "the {config} formula blocking the {found} solution(s) found is satisfiable: the search missed a solution"
    )]
    NotRefuted {
        /// The encoding.
        config: Configuration,
        /// Solutions blocked.
        found: usize,
    },
    /// The proof-writing solver failed or cannot write a proof.
    #[error(transparent)]
    Solver(#[from] SolverError),
}

impl From<ProofError> for SolveError {
    fn from(e: ProofError) -> Self {
        SolveError::Solver {
            message: e.to_string(),
        }
    }
}

/// The whole encoding of `puzzle` in `config`, with one blocking clause per grid of `solutions`
/// (in order): the formula a certificate refutes.
pub fn formula(puzzle: &Puzzle, solutions: &[Grid], config: Configuration) -> Formula {
    let mut formula = Formula::build(puzzle, config.model, config.card);
    for grid in solutions {
        formula.exclude(grid);
    }
    formula
}

/// Certifies that `solutions` are all the solutions of `puzzle`: writes the formula that blocks
/// them (the whole encoding in `options.config`) and a DRAT proof in `options.format`: the
/// pre-solving facts as unit lemmas ([`presolved_units`]), then the proof of a fresh
/// `options.solver` that refutes the formula and those units in one call.
pub fn certify(
    puzzle: &Puzzle,
    solutions: &[Grid],
    options: &ProofOptions,
) -> Result<Certificate, ProofError> {
    let start = Instant::now();
    for (i, grid) in solutions.iter().enumerate() {
        verify(puzzle, grid).map_err(|violation| ProofError::NotASolution {
            index: i + 1,
            violation,
        })?;
    }
    let config = options.config;
    let formula = formula(puzzle, solutions, config);
    let units = presolved_units(puzzle, &formula);
    let mut prover = options.solver.new_proof_solver(options.format)?;
    for _ in 0..formula.cnf.var_count() {
        prover.new_var();
    }
    for clause in formula.cnf.iter() {
        prover.add_clause(clause);
    }
    for &unit in &units {
        prover.add_clause(&[unit]);
    }
    match prover.solve(&[])? {
        Answer::Unsat => {}
        Answer::Sat => {
            return Err(ProofError::NotRefuted {
                config,
                found: solutions.len(),
            });
        }
        Answer::Stopped => {
            return Err(ProofError::Solver(SolverError {
                solver: prover.name(),
                message: "stopped without an answer".into(),
            }));
        }
    }
    let conflicts = prover.conflicts();
    let mut proof = Vec::new();
    for &unit in &units {
        write_lemma(&mut proof, &[unit], options.format);
    }
    proof.extend(prover.finish_proof()?);
    Ok(Certificate {
        claim: Claim::of(solutions.len()),
        cnf: formula.write(puzzle),
        proof,
        config,
        units: units.len(),
        conflicts,
        time: start.elapsed(),
    })
}

/// Pre-solving's facts about `puzzle` (its cells, and the placements it chose or struck off) as
/// literals of `formula`, in an order where each is a RUP lemma: unit propagation over the
/// formula and the literals before it, with the fact's negation assumed, reaches a conflict.
/// Facts that unit propagation already sets are left out, and so is any fact that is not RUP
/// (it is left to the solver). Empty when pre-solving or unit propagation finds no solution.
pub fn presolved_units(puzzle: &Puzzle, formula: &Formula) -> Vec<Lit> {
    let placements = Placements::new(puzzle);
    let Ok(known) = facts(puzzle, &placements, Rules::Full) else {
        return Vec::new();
    };
    let cells = known
        .cells
        .iter()
        .zip(&formula.encoding.cells)
        .filter_map(|(value, var)| value.map(|ship| var.lit(ship)));
    let ships = known
        .placements
        .iter()
        .zip(&formula.encoding.placements)
        .filter_map(|(status, var)| match status {
            Status::Chosen => Some(var.positive()),
            Status::Dead => Some(var.negative()),
            Status::Open => None,
        });
    let mut pending: Vec<Lit> = cells.chain(ships).collect();
    let mut up = Propagator::new(&formula.cnf);
    if up.propagate_root().is_err() {
        return Vec::new();
    }
    let mut units = Vec::new();
    loop {
        let before = units.len();
        let mut open = Vec::new();
        for lit in pending {
            match up.value(lit) {
                Some(true) => {}
                _ if up.probe(!lit) => {
                    if up.imply(lit, None).is_err() {
                        // The units refute the formula by themselves; the solver closes it.
                        units.push(lit);
                        return units;
                    }
                    units.push(lit);
                }
                _ => open.push(lit),
            }
        }
        if units.len() == before || open.is_empty() {
            return units;
        }
        pending = open;
    }
}

/// Appends the lemma `clause` to a proof in `format`: text DRAT (`1 -2 0`) or binary DRAT (`a`,
/// each literal as the variable-length number `2 * variable + sign`, a 0 byte).
fn write_lemma(proof: &mut Vec<u8>, clause: &[Lit], format: ProofFormat) {
    match format {
        ProofFormat::Text => {
            for lit in clause {
                proof.extend_from_slice(format!("{} ", lit.to_dimacs()).as_bytes());
            }
            proof.extend_from_slice(b"0\n");
        }
        ProofFormat::Binary => {
            proof.push(b'a');
            for lit in clause {
                let mut n = 2 * (lit.index() + 1) + usize::from(lit.is_negative());
                while n >= 0x80 {
                    proof.push((n as u8 & 0x7f) | 0x80);
                    n >>= 7;
                }
                proof.push(n as u8);
            }
            proof.push(0);
        }
    }
}

/// What [`check`] accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Certified {
    /// What the pair establishes.
    pub claim: Claim,
    /// The blocked grids, each accepted by the verifier.
    pub solutions: Vec<Grid>,
    /// The encoding of the formula.
    pub config: Configuration,
    /// What the DRAT checker saw.
    pub stats: drat::CheckStats,
}

/// The step of [`check`] that refused a certificate, and why. Each names its step first.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Rejection {
    /// The formula file's header does not say how it was made, or names another puzzle.
    #[error("step 1 (the formula's header): {0}")]
    Header(String),
    /// A blocked grid is not a solution of the puzzle, or is blocked twice.
    #[error("step 2 (the blocked solutions): solution {index}: {reason}")]
    Solution {
        /// 1-based.
        index: usize,
        /// What is wrong with it.
        reason: String,
    },
    /// The formula file is not the puzzle's formula.
    #[error("step 3 (the formula, clause for clause): {0}")]
    Formula(String),
    /// The proof does not refute the formula.
    #[error("step 4 (the DRAT proof): {0}")]
    Proof(drat::DratError),
}

/// The puzzle among `puzzles` whose fingerprint the formula's header names (`c puzzle:`), for a
/// file of several boards; `None` when the header names none of them.
pub fn named_puzzle<'a>(
    puzzles: impl IntoIterator<Item = &'a Puzzle>,
    cnf: &str,
) -> Option<&'a Puzzle> {
    let print = read_header(cnf).ok()?.fingerprint?;
    puzzles.into_iter().find(|p| fingerprint(p) == print)
}

fn show(clause: impl IntoIterator<Item = i64>) -> String {
    let mut s: String = clause.into_iter().map(|l| format!("{l} ")).collect();
    s.push('0');
    s
}

/// Checks a certificate of `puzzle`: `cnf` (the text of `FILE.cnf`) and `proof` (text or
/// binary DRAT). In order: the header names the puzzle's fingerprint, a model and a
/// cardinality encoding; every blocked grid it lists solves the puzzle (the independent
/// verifier) and is listed once; the formula re-derived from the puzzle, those choices and
/// those grids equals the file clause for clause; and the proof refutes the file's clauses.
pub fn check(puzzle: &Puzzle, cnf: &str, proof: &[u8]) -> Result<Certified, Rejection> {
    let header = read_header(cnf).map_err(|e| Rejection::Header(e.to_string()))?;
    let (Some(model), Some(card), Some(print)) = (header.model, header.card, header.fingerprint)
    else {
        return Err(Rejection::Header(
            "it lacks a `c model:`, `c card:` or `c puzzle:` line (it was not written by bimaru-sat)"
                .into(),
        ));
    };
    if print != fingerprint(puzzle) {
        return Err(Rejection::Header(format!(
            "it was written for another puzzle (puzzle {print:016x}; this puzzle is {:016x})",
            fingerprint(puzzle)
        )));
    }
    let config = Configuration { model, card };
    let solutions = read_solutions(cnf, puzzle.rows(), puzzle.cols())
        .map_err(|e| Rejection::Header(e.to_string()))?;
    for (i, grid) in solutions.iter().enumerate() {
        let index = i + 1;
        if let Err(violation) = verify(puzzle, grid) {
            return Err(Rejection::Solution {
                index,
                reason: format!("the verifier rejects it: {violation}"),
            });
        }
        if let Some(j) = solutions[..i].iter().position(|g| g == grid) {
            return Err(Rejection::Solution {
                index,
                reason: format!("the same grid as solution {}", j + 1),
            });
        }
    }
    let file = drat::parse_dimacs(cnf).map_err(|e| Rejection::Formula(e.to_string()))?;
    compare_formula(&formula(puzzle, &solutions, config), &file)?;
    let stats = drat::check(&file, proof).map_err(Rejection::Proof)?;
    Ok(Certified {
        claim: Claim::of(solutions.len()),
        solutions,
        config,
        stats,
    })
}

/// The re-derived formula against the file's, clause for clause.
fn compare_formula(expected: &Formula, file: &drat::Cnf) -> Result<(), Rejection> {
    let vars = expected.cnf.var_count();
    if file.vars != vars {
        return Err(Rejection::Formula(format!(
            "the file declares {} variables; the puzzle's {} formula has {vars}",
            file.vars,
            Configuration {
                model: expected.model,
                card: expected.card
            }
        )));
    }
    let ours: Vec<Vec<i64>> = expected
        .cnf
        .iter()
        .map(|c| c.iter().map(|l| l.to_dimacs() as i64).collect())
        .collect();
    for (i, (want, got)) in ours.iter().zip(&file.clauses).enumerate() {
        let got: Vec<i64> = got.iter().map(|&l| i64::from(l)).collect();
        if *want != got {
            return Err(Rejection::Formula(format!(
                "clause {} of the file is `{}`; the puzzle's formula has `{}`",
                i + 1,
                show(got),
                show(want.iter().copied())
            )));
        }
    }
    if ours.len() != file.clauses.len() {
        let (fewer, more) = (ours.len().min(file.clauses.len()), ours.len());
        return Err(Rejection::Formula(format!(
            "the file holds {} clauses; the puzzle's formula has {more} (they agree on the first {fewer})",
            file.clauses.len()
        )));
    }
    Ok(())
}

/// What one leg of a [`cross_check`] came to.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Leg {
    /// It answered the uniqueness question within its budget.
    Answered(Outcome),
    /// Its budget ran out first; these grids (verified, possibly none) were found by then.
    Unconfirmed(Vec<Grid>),
    /// It failed: a solver error, or a grid the verifier rejected.
    Failed(String),
}

/// One engine's verdict in a [`cross_check`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The configuration's name (as `compare` names it).
    pub config: String,
    /// The solver that answered for it (`varisat`, `microlp`, `highs`, ...).
    pub solver: String,
    /// What it came to.
    pub leg: Leg,
}

/// How a leg stands against the reference leg (the first that answered).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Standing {
    /// Same verdict and, for one solution, the same grid (the reference agrees with itself).
    Agrees,
    /// Another verdict or grid, or a failure; the text says what the leg says.
    Disagrees(String),
    /// No answer within the budget, and nothing found by then contradicts the reference.
    Unconfirmed,
}

/// Counts of a [`CrossCheck`]'s legs by [`Standing`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LegTally {
    /// Legs that agree with the reference, the reference included.
    pub agree: usize,
    /// Legs that disagree or failed.
    pub disagree: usize,
    /// Legs that did not answer within their budget.
    pub unconfirmed: usize,
}

impl fmt::Display for LegTally {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} agree, {} disagree, {} unconfirmed",
            self.agree, self.disagree, self.unconfirmed
        )
    }
}

/// Independent engines on one uniqueness question.
#[derive(Clone, Debug)]
pub struct CrossCheck {
    /// One verdict per configuration, in order.
    pub verdicts: Vec<Verdict>,
    /// Each leg's budget (none: unlimited).
    pub budget: Option<Duration>,
}

impl CrossCheck {
    /// The verdict others are held against: the first leg that answered.
    fn reference(&self) -> Option<&Verdict> {
        self.verdicts
            .iter()
            .find(|v| matches!(v.leg, Leg::Answered(_)))
    }

    /// How each leg stands against the reference, in order. Without a reference (no leg
    /// answered) a failed leg disagrees and the others are unconfirmed.
    pub fn standings(&self) -> Vec<Standing> {
        let reference = self.reference();
        self.verdicts
            .iter()
            .map(|v| standing(v, reference))
            .collect()
    }

    /// The counts of [`CrossCheck::standings`]. An unconfirmed leg is never counted as agreeing.
    pub fn tally(&self) -> LegTally {
        let mut tally = LegTally::default();
        for s in self.standings() {
            match s {
                Standing::Agrees => tally.agree += 1,
                Standing::Disagrees(_) => tally.disagree += 1,
                Standing::Unconfirmed => tally.unconfirmed += 1,
            }
        }
        tally
    }

    /// The first leg that disagrees with the reference (or failed), with a message naming it;
    /// `None` when no leg does (some may be unconfirmed: see [`CrossCheck::unconfirmed`]).
    pub fn disagreement(&self) -> Option<String> {
        let reference = self.reference();
        self.verdicts
            .iter()
            .zip(self.standings())
            .find_map(|(v, s)| match s {
                Standing::Disagrees(says) => Some(match reference {
                    Some(r) => format!(
                        "{} disagrees with {}: {says}, where {} says {}",
                        v.config,
                        r.config,
                        r.config,
                        describe(&r.leg)
                    ),
                    None => format!("{}: {says}", v.config),
                }),
                _ => None,
            })
    }

    /// One line per leg that did not answer within its budget: "ilp/ship (microlp): not
    /// confirmed within 10 s".
    pub fn unconfirmed(&self) -> Vec<String> {
        self.verdicts
            .iter()
            .zip(self.standings())
            .filter(|(_, s)| *s == Standing::Unconfirmed)
            .map(|(v, _)| {
                let within = self
                    .budget
                    .map_or(String::new(), |b| format!(" within {} s", b.as_secs_f64()));
                format!("{} ({}): not confirmed{within}", v.config, v.solver)
            })
            .collect()
    }
}

/// What a leg says, in words.
fn describe(leg: &Leg) -> String {
    match leg {
        Leg::Answered(Outcome::Unsat) => "no solution".to_string(),
        Leg::Answered(Outcome::Unique(_)) => "unique".to_string(),
        Leg::Answered(Outcome::Found(_)) => "found".to_string(),
        Leg::Answered(Outcome::Multiple { grids, complete }) => format!(
            "not unique ({}{} solutions)",
            if *complete { "" } else { "at least " },
            grids.len()
        ),
        Leg::Unconfirmed(found) => format!("no answer in time ({} grid(s) found)", found.len()),
        Leg::Failed(e) => format!("failed: {e}"),
    }
}

/// How `leg` stands against `reference`.
fn standing(leg: &Verdict, reference: Option<&Verdict>) -> Standing {
    let answer = match reference.map(|r| &r.leg) {
        Some(Leg::Answered(o)) => Some(o),
        _ => None,
    };
    match (&leg.leg, answer) {
        (Leg::Failed(_), _) => Standing::Disagrees(describe(&leg.leg)),
        (Leg::Unconfirmed(found), Some(answer)) => {
            // A grid found in time contradicts "no solution" and any other unique grid.
            let contradicts = match answer {
                Outcome::Unsat => !found.is_empty(),
                Outcome::Unique(g) => found.iter().any(|f| f != g),
                _ => false,
            };
            if contradicts {
                Standing::Disagrees(format!(
                    "a solution {}found before its budget ran out",
                    if matches!(answer, Outcome::Unique(_)) {
                        "with another grid "
                    } else {
                        ""
                    }
                ))
            } else {
                Standing::Unconfirmed
            }
        }
        (Leg::Unconfirmed(_), None) => Standing::Unconfirmed,
        (Leg::Answered(o), Some(answer)) => {
            // Two "not unique" verdicts agree whatever grids and counts they found.
            let key = |o: &Outcome| match o {
                Outcome::Multiple { .. } => None,
                o => Some((std::mem::discriminant(o), o.grid().cloned())),
            };
            if key(o) == key(answer) {
                Standing::Agrees
            } else if std::mem::discriminant(o) == std::mem::discriminant(answer) {
                Standing::Disagrees(format!("{} with another grid", describe(&leg.leg)))
            } else {
                Standing::Disagrees(describe(&leg.leg))
            }
        }
        (Leg::Answered(_), None) => unreachable!("an answered leg is a reference"),
    }
}

/// The budget of each `--cross-check` leg when none is given: ten seconds.
pub const LEG_BUDGET: Duration = Duration::from_secs(10);

/// The configurations `--cross-check` runs: the cell model, the placement model (both SAT,
/// with `card`, no race partner) and the ILP ship model, each proving uniqueness. The ILP leg
/// uses HiGHS when the build links it (cargo feature `highs`), else microlp.
pub fn cross_configs(card: CardKind) -> Vec<Config> {
    use crate::encode::ilp::IlpSolver;
    use crate::usecase::solve::{Backend, SolveOptions};
    let sat = |model| SolveOptions {
        model,
        card,
        race: false,
        ..SolveOptions::unique()
    };
    let ilp_solver = if IlpSolver::Highs.is_available() {
        IlpSolver::Highs
    } else {
        IlpSolver::Microlp
    };
    vec![
        Config::from_options(sat(Model::Cell)),
        Config::from_options(sat(Model::Placement)),
        Config::from_options(SolveOptions {
            backend: Backend::Ilp,
            ilp_solver,
            ..SolveOptions::unique()
        }),
    ]
}

/// Runs each of `configs` on `puzzle`, looking for two solutions, each within `budget` (none:
/// no limit), and collects the verdicts (every grid verified). A leg whose budget runs out is
/// [`Leg::Unconfirmed`], never an agreement.
pub fn cross_check(puzzle: &Puzzle, configs: &[Config], budget: Option<Duration>) -> CrossCheck {
    CrossCheck {
        verdicts: configs
            .iter()
            .map(|config| Verdict {
                config: config.name.clone(),
                solver: config.solver.clone(),
                leg: match config.run_within(puzzle, 2, budget) {
                    Ok(report) if report.stopped => {
                        Leg::Unconfirmed(report.outcome.grids().into_iter().cloned().collect())
                    }
                    Ok(report) => Leg::Answered(report.outcome),
                    Err(SolveError::TimeLimit) => Leg::Unconfirmed(Vec::new()),
                    Err(e) => Leg::Failed(e.to_string()),
                },
            })
            .collect(),
        budget,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::ist;

    const EXAMPLE: &str = "ROW 2 3 2 2 3 0 1 3 2 2\nCOLUMN 6 0 1 0 2 1 3 1 2 4\n6\n\
        HINT 0 0 T\nHINT 1 6 M\nHINT 3 2 C\nHINT 6 0 W\nHINT 8 8 B\nHINT 9 5 C\n";

    fn solved() -> (Puzzle, Grid) {
        let puzzle = ist::parse(EXAMPLE).expect("valid");
        let report = crate::solve(&puzzle, &crate::SolveOptions::unique()).expect("solves");
        let Outcome::Unique(grid) = report.outcome else {
            panic!("unique")
        };
        (puzzle, grid)
    }

    #[test]
    fn a_certificate_of_uniqueness_checks_in_every_configuration_and_format() {
        let (puzzle, grid) = solved();
        let configs = Model::ALL.iter().flat_map(|&model| {
            CardKind::ALL
                .iter()
                .map(move |&card| Configuration { model, card })
        });
        for config in configs {
            for format in [ProofFormat::Text, ProofFormat::Binary] {
                let options = ProofOptions {
                    config,
                    format,
                    ..ProofOptions::default()
                };
                let cert =
                    certify(&puzzle, std::slice::from_ref(&grid), &options).expect("certified");
                assert_eq!(cert.claim, Claim::Unique);
                assert_eq!(cert.config, config);
                let text = String::from_utf8(cert.cnf).expect("ASCII");
                let certified = check(&puzzle, &text, &cert.proof).expect("accepted");
                assert_eq!(certified.claim, Claim::Unique);
                assert_eq!(certified.solutions, vec![grid.clone()]);
                assert_eq!(certified.stats.binary, format == ProofFormat::Binary);
            }
        }
    }

    #[test]
    fn a_missed_solution_is_no_certificate() {
        let (puzzle, _) = solved();
        let err =
            certify(&puzzle, &[], &ProofOptions::default()).expect_err("the puzzle has a solution");
        assert!(matches!(err, ProofError::NotRefuted { found: 0, .. }));
    }

    #[test]
    fn a_tampered_header_or_formula_is_rejected_at_its_step() {
        let (puzzle, grid) = solved();
        let cert = certify(
            &puzzle,
            std::slice::from_ref(&grid),
            &ProofOptions::default(),
        )
        .expect("certified");
        let text = String::from_utf8(cert.cnf).expect("ASCII");
        // Blocking the solution twice would claim two solutions.
        let line = text
            .lines()
            .find(|l| l.starts_with("c solution 1: "))
            .expect("listed");
        let twice = text.replace(
            line,
            &format!("{line}\n{}", line.replace("solution 1", "solution 2")),
        );
        let err = check(&puzzle, &twice, &cert.proof).unwrap_err();
        assert!(matches!(err, Rejection::Solution { index: 2, .. }), "{err}");
        // Another card in the header: the re-derived formula differs.
        let other = text.replace("c card: totalizer", "c card: seq");
        let err = check(&puzzle, &other, &cert.proof).unwrap_err();
        assert!(matches!(err, Rejection::Formula(_)), "{err}");
        let err = check(&puzzle, "p cnf 1 0\n", &cert.proof).unwrap_err();
        assert!(matches!(err, Rejection::Header(_)), "{err}");
    }

    /// An engine that returns `grids` one per call, then runs out of time.
    struct OutOfTime(Vec<Grid>);

    impl crate::usecase::solve::Engine for OutOfTime {
        fn next_solution(&mut self) -> Result<Option<Grid>, SolveError> {
            if self.0.is_empty() {
                Err(SolveError::TimeLimit)
            } else {
                Ok(Some(self.0.remove(0)))
            }
        }
        fn stats(&self) -> crate::usecase::solve::Stats {
            crate::usecase::solve::Stats::default()
        }
    }

    #[test]
    fn a_leg_out_of_time_is_unconfirmed_unless_what_it_found_contradicts() {
        let (puzzle, grid) = solved();
        let slow = |grids: Vec<Grid>| {
            Config::custom("slow", crate::usecase::solve::Backend::Ilp, move |_| {
                Box::new(OutOfTime(grids.clone())) as Box<dyn crate::usecase::solve::Engine>
            })
        };
        let mut configs = cross_configs(CardKind::Seq);
        configs.push(slow(Vec::new()));
        configs.push(slow(vec![grid.clone()]));
        let checked = cross_check(&puzzle, &configs, Some(Duration::from_secs(60)));
        assert_eq!(checked.disagreement(), None);
        assert_eq!(
            checked.tally(),
            LegTally {
                agree: 3,
                disagree: 0,
                unconfirmed: 2
            }
        );
        assert_eq!(
            checked.unconfirmed(),
            [
                "slow (custom): not confirmed within 60 s",
                "slow (custom): not confirmed within 60 s"
            ]
        );
        // A grid found in time (verified by `solve::run`) other than the unique one
        // contradicts it: a disagreement, never an agreement.
        let other = Grid::water(grid.rows(), grid.cols());
        let leg = Verdict {
            config: "slow".to_string(),
            solver: "custom".to_string(),
            leg: Leg::Unconfirmed(vec![other]),
        };
        let reference = &checked.verdicts[0];
        assert!(matches!(
            standing(&leg, Some(reference)),
            Standing::Disagrees(_)
        ));
    }
}
