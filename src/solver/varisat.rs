//! The varisat adapter: [`Varisat`] implements [`Solver`] with the vendored varisat 0.2.2
//! (`vendor/varisat`, patched with a shared conflict limit, a stop flag and a conflict counter;
//! see its `PATCH.md`). This is the one file of the crate that names varisat or its patched
//! functions, and the SAT side's one place with `unsafe` code: the `Send` promise below (the
//! other is HiGHS's interrupt callback, `encode/ilp/highs.rs`, built only with the `highs`
//! feature). The crate's own literals ([`crate::model::lit`]) have varisat's representation
//! (twice the variable's index, plus one when negative), so they are converted here by copying
//! their code.
//!
//! [`Varisat::proving`] attaches varisat's DRAT writer ([`ProofSolver`]): the proof goes into
//! an in-memory buffer that [`ProofSolver::finish_proof`] hands back. varisat writes DRAT only
//! for one non-incremental call (it panics on clauses added after a call, and on assumptions),
//! so a proving solver refuses both with an error instead.

use super::interface::{Answer, ProofFormat, ProofSolver, Solver, SolverError, SolverFailure};
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
pub struct Varisat {
    solver: varisat::Solver<'static>,
    /// Per variable, the value in the last model.
    model: Vec<bool>,
    /// The assumptions varisat holds. varisat restarts its search whenever they are set, so
    /// they are set only when they change: a call that resumes a stopped search with the same
    /// assumptions goes on where it stopped.
    assumed: Vec<Lit>,
    /// The proof being written, for a solver made by [`Varisat::proving`].
    proof: Option<Proof>,
    /// Reused to convert clauses and assumptions.
    buffer: Vec<varisat::Lit>,
}

/// A proof being written, and what varisat's DRAT writer cannot take.
struct Proof {
    buffer: ProofBuffer,
    /// A call has started: varisat's DRAT writer takes no clause after it.
    solved: bool,
    /// A clause came after a call and was not passed on: the next call fails.
    late_clause: bool,
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
// proof processor, and the only proof writer it attaches is a `ProofBuffer` (`Varisat::proving`),
// an `Arc<Mutex<Vec<u8>>>`, which is `Send` (checked above). So everything the solver inside
// holds may move between threads.
#[allow(unsafe_code)]
unsafe impl Send for Varisat {}

impl Varisat {
    /// A new, empty solver.
    pub fn new() -> Self {
        Varisat {
            solver: varisat::Solver::new(),
            model: Vec::new(),
            assumed: Vec::new(),
            proof: None,
            buffer: Vec::new(),
        }
    }

    /// A new, empty solver that writes a DRAT proof in `format` of an unsatisfiable answer
    /// ([`ProofSolver`]). It answers one call without assumptions: every clause must come
    /// before it.
    pub fn proving(format: ProofFormat) -> Self {
        let mut solver = Varisat::new();
        let buffer = ProofBuffer::default();
        let format = match format {
            ProofFormat::Text => varisat::ProofFormat::Drat,
            ProofFormat::Binary => varisat::ProofFormat::BinaryDrat,
        };
        solver.solver.write_proof(buffer.clone(), format);
        solver.proof = Some(Proof {
            buffer,
            solved: false,
            late_clause: false,
        });
        solver
    }

    /// Why a proving solver cannot take this call, if it cannot.
    fn refuse(&self, assumptions: &[Lit]) -> Option<SolverError> {
        let proof = self.proof.as_ref()?;
        let kind = if !assumptions.is_empty() {
            SolverFailure::ProofUnderAssumptions
        } else if proof.late_clause {
            SolverFailure::ProofAfterCall
        } else {
            return None;
        };
        Some(SolverError {
            solver: "varisat",
            kind,
        })
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
        match &mut self.proof {
            Some(proof) if proof.solved => proof.late_clause = true,
            _ => {
                self.buffer.clear();
                self.buffer
                    .extend(clause.iter().map(|&lit| to_varisat(lit)));
                self.solver.add_clause(&self.buffer);
            }
        }
    }
}

impl Solver for Varisat {
    fn name(&self) -> &'static str {
        "varisat"
    }

    fn solve(&mut self, assumptions: &[Lit]) -> Result<Answer, SolverError> {
        if let Some(refused) = self.refuse(assumptions) {
            return Err(refused);
        }
        if let Some(proof) = &mut self.proof {
            proof.solved = true;
        }
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

    fn value(&self, lit: Lit) -> Option<bool> {
        self.model.get(lit.index()).map(|&v| v == lit.is_positive())
    }

    fn failed_assumptions(&self) -> Vec<Lit> {
        self.solver
            .failed_core()
            .map(|core| core.iter().map(|&lit| from_varisat(lit)).collect())
            .unwrap_or_default()
    }

    fn conflicts(&self) -> u64 {
        self.solver.conflicts()
    }

    fn set_conflict_limit(&mut self, limit: Option<Arc<AtomicU64>>) {
        self.solver.set_conflict_limit(limit);
    }

    fn set_interrupt(&mut self, flag: Option<Arc<AtomicBool>>) {
        self.solver.set_stop_flag(flag);
    }
}

impl ProofSolver for Varisat {
    fn finish_proof(&mut self) -> Result<Vec<u8>, SolverError> {
        let Some(proof) = self.proof.take() else {
            return Err(SolverError {
                solver: "varisat",
                kind: SolverFailure::NoProof,
            });
        };
        self.solver
            .close_proof()
            .map_err(|e| SolverError::failed("varisat", e))?;
        let mut bytes =
            proof.buffer.0.lock().map_err(|_| {
                SolverError::failed("varisat", "the proof buffer's lock is poisoned")
            })?;
        Ok(std::mem::take(&mut *bytes))
    }
}
