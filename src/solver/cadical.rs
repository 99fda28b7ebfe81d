//! The CaDiCaL adapter (cargo feature `cadical`): [`Cadical`] implements [`Solver`] with
//! CaDiCaL 2.2.1 through `rustsat-cadical`, which compiles CaDiCaL from the C++ sources it ships.
//! This is the one file of the crate that names rustsat or CaDiCaL. It has no `unsafe` code:
//! the binding is `Send`, and the two callbacks below only touch atomics.
//!
//! **Variables.** The crate numbers variables from 0 (its own [`Var`]); CaDiCaL from 1. rustsat's
//! `Var` is 0-based like the crate's and converts to CaDiCaL's numbering itself, so a variable
//! keeps its index and a literal its sign; the crate's literals are converted here and nowhere
//! else.
//!
//! **Conflict cap and interrupt.** CaDiCaL offers a per-call conflict limit, fixed when the call
//! starts, and a terminate callback, polled every tenth step of its search loop (and inside
//! pre- and inprocessing). [`Solver::solve`] uses both:
//!
//! - When a call starts, the remaining budget (cap minus [`Solver::conflicts`]) becomes
//!   CaDiCaL's own conflict limit. CaDiCaL checks it after each propagation that ends without
//!   a conflict, so a call whose cap stays put stops at the cap, or a few conflicts past it when
//!   conflicts follow one another with no decision between them (0 to 2 in the tests), at a
//!   count that depends on the formula and the calls before it only. A call that starts with
//!   the cap already reached returns [`Answer::Stopped`] at once.
//! - If another thread lowers the cap while the call runs, the terminate callback notices it.
//!   The callback cannot read CaDiCaL's conflict counter (the binding holds the solver while it
//!   runs), so it counts instead the clauses of two or more literals that CaDiCaL learns,
//!   through the learn callback. Each comes out of the analysis of one conflict, so the count at
//!   the start plus the clauses learnt since is a lower bound on the conflicts: the callback
//!   never stops a call before the cap, so any answer found below the cap is still found, at the
//!   same count. It stops the call soon after: past the cap by the conflicts that learnt no such
//!   clause (units, chronological-backtracking conflicts; a few percent) plus at most ten
//!   search steps.
//! - The interrupt flag is read by the same callback, so a call stops within ten search steps
//!   (or at the next check of an inprocessing round) of the flag being set.
//!
//! **Proofs.** [`Cadical::proving`] has CaDiCaL trace a DRAT proof (text or binary) to a
//! temporary file, the only way the binding offers; [`ProofSolver::finish_proof`] releases that
//! CaDiCaL instance, which flushes and closes the file, and reads it back.
//!
//! A stopped call keeps every learnt clause; the next call starts a new CaDiCaL `solve`, which
//! restarts from the top level, so "resuming" is CaDiCaL's incremental search, not a
//! continuation of the same run.

use super::interface::{Answer, ProofFormat, ProofSolver, Solver, SolverError};
use crate::model::lit::{Lit, Var};
use crate::solver::sink::ClauseSink;
use rustsat::solvers::{
    ControlSignal, GetInternalStats, Learn, Solve, SolveIncremental, SolverResult, Terminate,
};
use rustsat::types::{Clause, TernaryVal};
use rustsat_cadical::{CaDiCaL, Limit};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

const NAME: &str = "cadical";

/// CaDiCaL behind the crate's solver interface.
pub struct Cadical {
    solver: CaDiCaL<'static, 'static>,
    /// Variables handed out by [`ClauseSink::new_var`].
    vars: usize,
    /// Variables CaDiCaL has been told about (so that every one has a model value).
    reserved: usize,
    /// Per variable, the value in the last model (`None`: CaDiCaL left it open).
    model: Vec<Option<bool>>,
    /// The failed assumptions of the last call that answered [`Answer::Unsat`].
    failed: Vec<Lit>,
    limit: Option<Arc<AtomicU64>>,
    interrupt: Option<Arc<AtomicBool>>,
    /// Learnt clauses of two or more literals, over all calls, once the learn callback is
    /// attached (see the module documentation).
    learnt: Arc<AtomicU64>,
    counting: bool,
    /// Reused to convert clauses.
    buffer: Vec<rustsat::types::Lit>,
    /// The file CaDiCaL traces its proof to ([`Cadical::proving`]).
    proof: Option<tempfile::NamedTempFile>,
}

impl Cadical {
    /// A new, empty solver.
    pub fn new() -> Self {
        Cadical {
            solver: CaDiCaL::default(),
            vars: 0,
            reserved: 0,
            model: Vec::new(),
            failed: Vec::new(),
            limit: None,
            interrupt: None,
            learnt: Arc::new(AtomicU64::new(0)),
            counting: false,
            buffer: Vec::new(),
            proof: None,
        }
    }

    /// A new, empty solver that traces a DRAT proof in `format` ([`ProofSolver`]).
    pub fn proving(format: ProofFormat) -> Result<Self, SolverError> {
        let file = tempfile::NamedTempFile::new().map_err(Cadical::error)?;
        let mut solver = Cadical::new();
        let binary = format == ProofFormat::Binary;
        solver
            .solver
            .trace_proof(file.path(), rustsat_cadical::ProofFormat::Drat { binary })
            .map_err(Cadical::error)?;
        solver.proof = Some(file);
        Ok(solver)
    }

    /// Starts counting learnt clauses (once; the count only ever grows). The learner is never
    /// detached: `rustsat-cadical` 0.7.5's `detach_learner` frees the terminate callback instead
    /// of the learn callback.
    fn count_learnt_clauses(&mut self) {
        if self.counting {
            return;
        }
        let learnt = self.learnt.clone();
        self.solver.attach_learner(
            move |clause: Clause| {
                if clause.len() >= 2 {
                    learnt.fetch_add(1, Ordering::Relaxed);
                }
            },
            // Every clause: the callback only counts.
            i32::MAX as usize,
        );
        self.counting = true;
    }

    /// Installs the terminate callback for one call that starts at `conflicts`, or removes it
    /// when there is neither a cap nor an interrupt flag.
    fn watch(&mut self, conflicts: u64) {
        if self.limit.is_none() && self.interrupt.is_none() {
            self.solver.detach_terminator();
            return;
        }
        let limit = self.limit.clone();
        let interrupt = self.interrupt.clone();
        let learnt = self.learnt.clone();
        let learnt_at_start = learnt.load(Ordering::Relaxed);
        self.solver.attach_terminator(move || {
            let interrupted = interrupt
                .as_ref()
                .is_some_and(|flag| flag.load(Ordering::Relaxed));
            // A lower bound on the conflicts so far (see the module documentation).
            let at_least = conflicts + (learnt.load(Ordering::Relaxed) - learnt_at_start);
            let capped = limit
                .as_ref()
                .is_some_and(|cap| at_least >= cap.load(Ordering::Relaxed));
            if interrupted || capped {
                ControlSignal::Terminate
            } else {
                ControlSignal::Continue
            }
        });
    }

    fn error(e: impl std::fmt::Display) -> SolverError {
        SolverError {
            solver: NAME,
            message: e.to_string(),
        }
    }

    fn read_model(&mut self) -> Result<(), SolverError> {
        self.model.clear();
        for index in 0..self.vars {
            let value = self
                .solver
                .lit_val(rs_var(index).pos_lit())
                .map_err(Cadical::error)?;
            self.model.push(match value {
                TernaryVal::True => Some(true),
                TernaryVal::False => Some(false),
                TernaryVal::DontCare => None,
            });
        }
        Ok(())
    }
}

impl Default for Cadical {
    fn default() -> Self {
        Cadical::new()
    }
}

/// The crate's variable `index` in rustsat's numbering (the same index).
fn rs_var(index: usize) -> rustsat::types::Var {
    let index = u32::try_from(index).expect("fewer than 2^31 variables");
    rustsat::types::Var::new(index)
}

/// A literal of the crate as a rustsat literal.
fn rs_lit(lit: Lit) -> rustsat::types::Lit {
    rs_var(lit.index()).lit(lit.is_negative())
}

/// A rustsat literal as a literal of the crate.
fn crate_lit(lit: rustsat::types::Lit) -> Lit {
    Lit::from_index(lit.vidx(), !lit.is_neg())
}

impl ClauseSink for Cadical {
    fn new_var(&mut self) -> Var {
        self.vars += 1;
        Var::from_index(self.vars - 1)
    }

    fn add_clause(&mut self, clause: &[Lit]) {
        self.buffer.clear();
        self.buffer.extend(clause.iter().map(|&lit| rs_lit(lit)));
        // `ClauseSink` has no error channel; CaDiCaL reports only running out of memory here.
        self.solver
            .add_clause_ref(&self.buffer)
            .expect("CaDiCaL out of memory while adding a clause");
        if let Some(max) = clause.iter().map(|lit| lit.index() + 1).max() {
            self.vars = self.vars.max(max);
        }
    }
}

impl Solver for Cadical {
    fn name(&self) -> &'static str {
        NAME
    }

    fn solve(&mut self, assumptions: &[Lit]) -> Result<Answer, SolverError> {
        let conflicts = self.conflicts();
        let cap = self.limit.as_ref().map(|cap| cap.load(Ordering::Relaxed));
        let interrupted = self
            .interrupt
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed));
        if interrupted || cap.is_some_and(|cap| conflicts >= cap) {
            return Ok(Answer::Stopped);
        }
        // CaDiCaL's own limit for the cap as it stands; none for a budget past `i32::MAX` (the
        // terminate callback still stops the call, a little past the cap).
        let budget = cap
            .and_then(|cap| i32::try_from(cap - conflicts).ok())
            .unwrap_or(-1);
        self.solver
            .set_limit(Limit::Conflicts(budget))
            .map_err(Cadical::error)?;
        self.watch(conflicts);
        for lit in assumptions {
            self.vars = self.vars.max(lit.index() + 1);
        }
        if self.vars > self.reserved {
            self.solver
                .reserve(rs_var(self.vars - 1))
                .map_err(Cadical::error)?;
            self.reserved = self.vars;
        }
        self.failed.clear();
        let assumed: Vec<_> = assumptions.iter().map(|&lit| rs_lit(lit)).collect();
        match self
            .solver
            .solve_assumps(&assumed)
            .map_err(Cadical::error)?
        {
            SolverResult::Sat => {
                self.read_model()?;
                Ok(Answer::Sat)
            }
            SolverResult::Unsat => {
                // rustsat's core is the clause of the negated failed assumptions.
                let core = self.solver.core().map_err(Cadical::error)?;
                self.failed = core.into_iter().map(|lit| !crate_lit(lit)).collect();
                Ok(Answer::Unsat)
            }
            SolverResult::Interrupted => Ok(Answer::Stopped),
        }
    }

    fn value(&self, lit: Lit) -> Option<bool> {
        self.model
            .get(lit.index())
            .copied()
            .flatten()
            .map(|v| v == lit.is_positive())
    }

    fn failed_assumptions(&self) -> Vec<Lit> {
        self.failed.clone()
    }

    fn conflicts(&self) -> u64 {
        GetInternalStats::conflicts(&self.solver) as u64
    }

    fn set_conflict_limit(&mut self, limit: Option<Arc<AtomicU64>>) {
        if limit.is_some() {
            self.count_learnt_clauses();
        }
        self.limit = limit;
    }

    fn set_interrupt(&mut self, flag: Option<Arc<AtomicBool>>) {
        self.interrupt = flag;
    }
}

impl ProofSolver for Cadical {
    fn finish_proof(&mut self) -> Result<Vec<u8>, SolverError> {
        let file = self
            .proof
            .take()
            .ok_or_else(|| Cadical::error("this solver writes no proof"))?;
        // Releasing the CaDiCaL instance flushes and closes the proof file.
        self.solver = CaDiCaL::default();
        self.counting = false;
        std::fs::read(file.path()).map_err(Cadical::error)
    }
}

/// The generic solver tests run for CaDiCaL too (`super::tests`); these check what only this
/// adapter does.
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_learnt_clause_count_bounds_the_conflicts_from_below() {
        let mut solver = Cadical::new();
        super::super::tests::pigeonhole(&mut solver, 8);
        let limit = Arc::new(AtomicU64::new(0));
        solver.set_conflict_limit(Some(limit.clone()));
        for cap in (500..).step_by(500) {
            limit.store(cap, Ordering::Relaxed);
            let answer = solver.solve(&[]);
            let learnt = solver.learnt.load(Ordering::Relaxed);
            assert!(
                learnt <= solver.conflicts(),
                "{learnt} > {}",
                solver.conflicts()
            );
            if answer == Ok(Answer::Unsat) {
                break;
            }
            assert_eq!(answer, Ok(Answer::Stopped));
        }
        assert!(solver.learnt.load(Ordering::Relaxed) > 1_000);
    }

    #[test]
    fn a_certificate_written_by_cadical_checks_in_text_and_binary() {
        use crate::usecase::proof::{Claim, ProofFormat, ProofOptions, certify, check};
        // A puzzle that pre-solving leaves open, so that CaDiCaL has to search.
        let text = include_str!("../../puzzles/generated/15x15/001.json");
        let puzzle = crate::format::parse_document(
            text,
            crate::format::Format::Json,
            &crate::model::limits::Limits::default(),
        )
        .expect("valid")
        .boards
        .remove(0)
        .puzzle;
        let grid = crate::solve(&puzzle, &crate::SolveOptions::unique())
            .expect("solves")
            .outcome
            .grid()
            .cloned()
            .expect("unique");
        for format in [ProofFormat::Text, ProofFormat::Binary] {
            let options = ProofOptions {
                format,
                solver: crate::solver::SolverKind::Cadical,
                ..ProofOptions::default()
            };
            let cert = certify(&puzzle, std::slice::from_ref(&grid), &options).expect("certified");
            let cnf = String::from_utf8(cert.cnf).expect("ASCII");
            let certified = check(&puzzle, &cnf, &cert.proof).expect("accepted");
            assert_eq!(certified.claim, Claim::Unique);
            assert_eq!(certified.stats.binary, format == ProofFormat::Binary);
        }
    }
}
