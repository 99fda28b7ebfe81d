//! Making a certificate: the formula with one blocking clause per solution, and a DRAT proof
//! that opens with pre-solving's facts as unit lemmas.

use crate::encode::sat::Lit;
use crate::encode::sat::card::CardKind;
use crate::encode::sat::dimacs::Formula;
use crate::encode::sat::engine::Configuration;
use crate::encode::sat::model::Model;
use crate::model::deadline::Deadline;
use crate::model::placement::Placements;
use crate::model::puzzle::{Grid, Puzzle};
use crate::model::verify::{Violation, verify};
use crate::reason::deduce::{PlacementStatus, Rules, facts};
use crate::reason::unit::Propagator;
pub use crate::solver::ProofFormat;
use crate::solver::{Answer, SolverError, SolverFailure, SolverKind};
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
    pub(crate) fn of(solutions: usize) -> Claim {
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
        SolveError::failed(e)
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
    let solver = prover.name();
    let proved = prover.prove()?;
    match proved.answer {
        Answer::Unsat => {}
        Answer::Sat => {
            return Err(ProofError::NotRefuted {
                config,
                found: solutions.len(),
            });
        }
        Answer::Stopped => {
            return Err(ProofError::Solver(SolverError {
                solver,
                kind: SolverFailure::Stopped,
            }));
        }
    }
    let conflicts = proved.conflicts;
    let mut proof = Vec::new();
    for &unit in &units {
        write_lemma(&mut proof, &[unit], options.format);
    }
    proof.extend(proved.proof);
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
    let Ok(Ok(known)) = facts(puzzle, &placements, Rules::Full, &Deadline::NONE) else {
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
            PlacementStatus::Chosen => Some(var.positive()),
            PlacementStatus::Dead => Some(var.negative()),
            PlacementStatus::Open => None,
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
pub(super) fn write_lemma(proof: &mut Vec<u8>, clause: &[Lit], format: ProofFormat) {
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
