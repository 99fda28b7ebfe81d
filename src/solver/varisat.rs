//! The varisat adapter: `Varisat` implements [`Solve`], [`SolveIncremental`], [`Interrupt`]
//! and [`LimitConflicts`] with the vendored varisat 0.2.2
//! (`vendor/varisat`, patched with a shared conflict limit, a stop flag and a conflict counter;
//! see its `PATCH.md`). This is the one file of the crate that names varisat or its patched
//! functions, and the SAT side's one place with `unsafe` code: the `Send` promise below (the
//! other is HiGHS's interrupt callback, `encode/ilp/highs.rs`, built only with the `highs`
//! feature). The crate's own literals ([`crate::model::lit`]) have varisat's representation
//! (twice the variable's index, plus one when negative), so they are converted here by copying
//! their code.
//!
//! `ProvingVarisat` is varisat with its DRAT writer attached, and implements [`WriteProof`]
//! only: the proof goes into an in-memory buffer that [`WriteProof::prove`] hands back. varisat
//! writes DRAT only for one non-incremental call (it panics on clauses added after a call, and
//! on assumptions); a [`WriteProof`] answers one call without assumptions and is consumed by it,
//! so neither can be asked of it.

use super::interface::{
    Answer, ExportLearnt, Interrupt, LearntPool, LimitConflicts, ProofFormat, Proved, Solve,
    SolveIncremental, SolverError, SolverFailure, WriteProof,
};
use crate::model::lit::{Lit, Var};
use crate::solver::sink::ClauseSink;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::sync::{Arc, Mutex};
use varisat::ExtendFormula;
use varisat::solver::SolverError as VarisatError;

/// A literal of the crate as varisat's.
fn to_varisat(lit: Lit) -> varisat::Lit {
    varisat::Lit::from_code(lit.code())
}

/// A varisat literal as the crate's.
fn from_varisat(lit: varisat::Lit) -> Lit {
    Lit::from_code(lit.code())
}

/// varisat behind the crate's solver interface.
pub(crate) struct Varisat {
    solver: varisat::Solver<'static>,
    /// Per variable, the value in the last model.
    model: Vec<bool>,
    /// The assumptions varisat holds. varisat restarts its search whenever they are set, so
    /// they are set only when they change: a call that resumes a stopped search with the same
    /// assumptions goes on where it stopped.
    assumed: Vec<Lit>,
    /// Reused to convert clauses and assumptions.
    buffer: Vec<varisat::Lit>,
}

/// varisat writing a DRAT proof of its one call ([`WriteProof`]).
pub(crate) struct ProvingVarisat {
    solver: Varisat,
    proof: ProofBuffer,
}

/// The proof writer varisat is given: a byte buffer behind an `Arc<Mutex>`, so that it is
/// `Send` (see the promise below) and readable once varisat has flushed it.
#[derive(Clone, Default)]
struct ProofBuffer(Arc<Mutex<Vec<u8>>>);

impl Write for ProofBuffer {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let mut buffer = self
            .0
            .lock()
            .map_err(|_| io::Error::other("the proof buffer's lock is poisoned"))?;
        buffer.extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The proof writer must be `Send` for the promise below to hold.
const _: fn() = || {
    fn send<T: Send>() {}
    send::<ProofBuffer>();
};

// SAFETY: a varisat `Solver` is not `Send` only because a proof writer (`Box<dyn Write>`) or
// proof processors (`&mut dyn ProofProcessor`) may be attached to it. `Varisat` attaches no
// proof processor, and the only proof writer ever attached to it is a `ProofBuffer`
// (`ProvingVarisat::new`), an `Arc<Mutex<Vec<u8>>>`, which is `Send` (checked above). So
// everything the solver inside holds may move between threads.
#[allow(unsafe_code)]
unsafe impl Send for Varisat {}

impl Varisat {
    /// A new, empty solver.
    pub(crate) fn new() -> Self {
        Varisat {
            solver: varisat::Solver::new(),
            model: Vec::new(),
            assumed: Vec::new(),
            buffer: Vec::new(),
        }
    }
}

impl ProvingVarisat {
    /// A new, empty solver that writes a DRAT proof in `format` of an unsatisfiable answer.
    pub(crate) fn new(format: ProofFormat) -> Self {
        let mut solver = Varisat::new();
        let proof = ProofBuffer::default();
        let format = match format {
            ProofFormat::Text => varisat::ProofFormat::Drat,
            ProofFormat::Binary => varisat::ProofFormat::BinaryDrat,
        };
        solver.solver.write_proof(proof.clone(), format);
        ProvingVarisat { solver, proof }
    }
}

impl Default for Varisat {
    fn default() -> Self {
        Varisat::new()
    }
}

impl ClauseSink for Varisat {
    fn new_var(&mut self) -> Var {
        Var::from_index(self.solver.new_var().index())
    }
    fn add_clause(&mut self, clause: &[Lit]) {
        self.buffer.clear();
        self.buffer
            .extend(clause.iter().map(|&lit| to_varisat(lit)));
        self.solver.add_clause(&self.buffer);
    }
}

impl ClauseSink for ProvingVarisat {
    fn new_var(&mut self) -> Var {
        self.solver.new_var()
    }
    fn add_clause(&mut self, clause: &[Lit]) {
        self.solver.add_clause(clause);
    }
}

impl Solve for Varisat {
    fn name(&self) -> &'static str {
        "varisat"
    }

    fn solve(&mut self) -> Result<Answer, SolverError> {
        self.solve_assuming(&[])
    }

    fn value(&self, lit: Lit) -> Option<bool> {
        self.model.get(lit.index()).map(|&v| v == lit.is_positive())
    }

    fn conflicts(&self) -> u64 {
        self.solver.conflicts()
    }
}

impl SolveIncremental for Varisat {
    fn solve_assuming(&mut self, assumptions: &[Lit]) -> Result<Answer, SolverError> {
        if assumptions != self.assumed.as_slice() {
            self.buffer.clear();
            self.buffer
                .extend(assumptions.iter().map(|&lit| to_varisat(lit)));
            self.solver.assume(&self.buffer);
            self.assumed = assumptions.to_vec();
        }
        match self.solver.solve() {
            Ok(true) => {
                let model = self.solver.model().ok_or(SolverError {
                    solver: "varisat",
                    kind: SolverFailure::NoModel,
                })?;
                self.model.clear();
                self.model.resize(model.len(), false);
                for lit in model {
                    if let Some(slot) = self.model.get_mut(lit.index()) {
                        *slot = lit.is_positive();
                    }
                }
                Ok(Answer::Sat)
            }
            Ok(false) => Ok(Answer::Unsat),
            Err(VarisatError::Interrupted) => Ok(Answer::Stopped),
            Err(e) => Err(SolverError::failed("varisat", e)),
        }
    }

    fn failed_assumptions(&self) -> Vec<Lit> {
        self.solver
            .failed_core()
            .map(|core| core.iter().map(|&lit| from_varisat(lit)).collect())
            .unwrap_or_default()
    }
}

impl LimitConflicts for Varisat {
    fn set_conflict_limit(&mut self, limit: Option<Arc<AtomicU64>>) {
        self.solver.set_conflict_limit(limit);
    }
}

impl Interrupt for Varisat {
    fn set_interrupt(&mut self, flag: Option<Arc<AtomicBool>>) {
        self.solver.set_stop_flag(flag);
    }
}

impl ExportLearnt for Varisat {
    /// varisat hands no learnt clause on.
    fn export_learnt(&mut self, _pool: Arc<LearntPool>, _max_len: usize) -> bool {
        false
    }
}

impl WriteProof for ProvingVarisat {
    fn name(&self) -> &'static str {
        self.solver.name()
    }

    fn prove(mut self: Box<Self>) -> Result<Proved, SolverError> {
        let answer = self.solver.solve()?;
        let conflicts = self.solver.conflicts();
        if answer != Answer::Unsat {
            return Ok(Proved {
                answer,
                conflicts,
                proof: Vec::new(),
            });
        }
        self.solver
            .solver
            .close_proof()
            .map_err(|e| SolverError::failed("varisat", e))?;
        let mut bytes =
            self.proof.0.lock().map_err(|_| {
                SolverError::failed("varisat", "the proof buffer's lock is poisoned")
            })?;
        Ok(Proved {
            answer,
            conflicts,
            proof: std::mem::take(&mut *bytes),
        })
    }
}
