//! The CaDiCaL adapter (cargo feature `cadical`, on by default): `Cadical` implements
//! [`Solve`], [`SolveIncremental`], [`Interrupt`], [`LimitConflicts`] and [`ExportLearnt`] with CaDiCaL 3.0.1 through `cadical-sys`, which compiles CaDiCaL's C++ sources
//! with the `cc` and `cxx` crates: a C++ compiler is all it needs (no cmake, no libclang). This
//! is the one file of the crate that names CaDiCaL, and its one `unsafe` line is the `Send`
//! promise below.
//!
//! **Variables.** The crate numbers variables from 0 (its own [`Var`]); CaDiCaL from 1. A
//! variable of index `i` is CaDiCaL's `i + 1`, and a literal keeps its sign; the crate's literals
//! are converted here and nowhere else.
//!
//! **Conflict cap and interrupt.** CaDiCaL offers a per-call conflict limit, fixed when the call
//! starts, and a terminate callback, polled between search steps (and inside pre- and
//! inprocessing). Every call ([`SolveIncremental::solve_assuming`]) uses both:
//!
//! - When a call starts, the remaining budget (cap minus [`Solve::conflicts`]) becomes
//!   CaDiCaL's own conflict limit, so a call whose cap stays put stops at the cap (or a few
//!   conflicts past it when conflicts follow one another with no decision between them), at a
//!   count that depends on the formula and the calls before it only. A call that starts with
//!   the cap already reached returns [`Answer::Stopped`] at once.
//! - If another thread lowers the cap while the call runs, the terminate callback notices it.
//!   The callback cannot read CaDiCaL's conflict counter (the solver is busy), so it counts
//!   instead the clauses of two or more literals that CaDiCaL learns, through the learn
//!   callback. CaDiCaL exports such a clause only from the analysis of a search conflict, one
//!   per conflict, so the count at the start plus the clauses learnt since is a lower bound on
//!   the conflicts: the callback never stops a call before the cap, and an answer found below
//!   the cap is still found, at the same count.
//! - The interrupt flag is read by the same callback.
//!
//! **Proofs.** `ProvingCadical` has CaDiCaL trace a DRAT proof (text or binary) to a
//! temporary file; [`WriteProof::prove`] answers its one call, closes the trace and reads it
//! back. It implements [`WriteProof`] only.
//!
//! A stopped call keeps every learnt clause; the next call starts a new CaDiCaL `solve`, which
//! restarts from the top level, so "resuming" is CaDiCaL's incremental search.

use super::interface::{
    Answer, ExportLearnt, Interrupt, LearntPool, LimitConflicts, Mode, ProofFormat, Proved, Solve,
    SolveIncremental, SolverError, Tuning, WriteProof,
};
use crate::model::lit::{Lit, Var};
use crate::solver::sink::ClauseSink;
use cadical_sys::{CaDiCal, Learner, Status, Terminator};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

const NAME: &str = "cadical";

/// CaDiCaL behind the crate's solver interface.
pub(crate) struct Cadical {
    solver: CaDiCal,
    /// Variables handed out by [`ClauseSink::new_var`] or named in a clause.
    vars: usize,
    /// Variables CaDiCaL has been told about (so that every one has a model value).
    declared: usize,
    /// Per variable, the value in the last model.
    model: Vec<bool>,
    /// The failed assumptions of the last call that answered [`Answer::Unsat`].
    failed: Vec<Lit>,
    limit: Option<Arc<AtomicU64>>,
    interrupt: Option<Arc<AtomicBool>>,
    /// Learnt clauses of two or more literals, over all calls, once the learn callback is
    /// connected (see the module documentation).
    learnt: Arc<AtomicU64>,
    counting: bool,
    /// Where learnt clauses of at most so many literals go ([`ExportLearnt`]).
    export: Option<(Arc<LearntPool>, usize)>,
    /// Reused to convert clauses.
    buffer: Vec<i32>,
}

/// CaDiCaL tracing a DRAT proof of its one call ([`WriteProof`]).
pub(crate) struct ProvingCadical {
    solver: Cadical,
    /// The file CaDiCaL traces its proof to.
    file: tempfile::NamedTempFile,
}

// SAFETY: a CaDiCaL solver has no thread affinity: it may be used from any thread, one at a
// time, which `&mut self` guarantees. `cadical-sys` does not mark it `Send` because it holds
// raw pointers to the callbacks connected to it; the only callbacks connected here are the two
// below, which hold `Arc`s of atomics, an `Arc` of a mutex-guarded `LearntPool` and owned
// literals, and are themselves `Send`.
#[allow(unsafe_code)]
unsafe impl Send for Cadical {}

/// Counts the learnt clauses of two or more literals and, once the solver exports them
/// ([`ExportLearnt`]), hands the short ones to a pool.
struct CountLearnt {
    count: Arc<AtomicU64>,
    export: Option<(Arc<LearntPool>, usize)>,
    /// The literals of the clause being exported (`None`: this clause is not).
    clause: Option<Vec<Lit>>,
}

impl Learner for CountLearnt {
    fn learning(&mut self, size: i32) -> bool {
        if size >= 2 {
            self.count.fetch_add(1, Ordering::Relaxed);
        }
        let take = self
            .export
            .as_ref()
            .is_some_and(|(_, max)| usize::try_from(size).is_ok_and(|size| size <= *max));
        self.clause = take.then(Vec::new);
        take
    }
    fn learn(&mut self, lit: i32) {
        if lit == 0 {
            if let (Some(clause), Some((pool, _))) = (self.clause.take(), &self.export) {
                pool.push(clause);
            }
        } else if let Some(clause) = &mut self.clause {
            clause.push(crate_lit(lit));
        }
    }
}

/// Stops a call once the interrupt flag is set or the cap falls to the conflicts so far.
struct Watch {
    limit: Option<Arc<AtomicU64>>,
    interrupt: Option<Arc<AtomicBool>>,
    learnt: Arc<AtomicU64>,
    /// Conflicts when the call started, and the learnt clauses counted then.
    conflicts_at_start: u64,
    learnt_at_start: u64,
}

impl Terminator for Watch {
    fn terminated(&mut self) -> bool {
        let interrupted = self
            .interrupt
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed));
        // A lower bound on the conflicts so far (see the module documentation).
        let at_least =
            self.conflicts_at_start + (self.learnt.load(Ordering::Relaxed) - self.learnt_at_start);
        let capped = self
            .limit
            .as_ref()
            .is_some_and(|cap| at_least >= cap.load(Ordering::Relaxed));
        interrupted || capped
    }
}

/// Both callbacks must be `Send` for the promise above to hold.
const _: fn() = || {
    fn send<T: Send>() {}
    send::<CountLearnt>();
    send::<Watch>();
};

impl Cadical {
    /// A new, empty solver.
    pub(crate) fn new() -> Self {
        Cadical {
            solver: CaDiCal::new(),
            vars: 0,
            declared: 0,
            model: Vec::new(),
            failed: Vec::new(),
            limit: None,
            interrupt: None,
            learnt: Arc::new(AtomicU64::new(0)),
            counting: false,
            export: None,
            buffer: Vec::new(),
        }
    }

    /// A new, empty solver set up as `tuning` says.
    pub(crate) fn tuned(tuning: Tuning) -> Self {
        let mut solver = Cadical::new();
        let configuration = match tuning.mode {
            Mode::Default => None,
            Mode::Stable => Some("sat"),
            Mode::Focused => Some("unsat"),
        };
        if let Some(name) = configuration {
            solver.solver.configure(name);
        }
        if tuning.seed != 0 {
            solver
                .solver
                .set("seed", i32::try_from(tuning.seed).unwrap_or(i32::MAX));
        }
        solver
    }

    /// Starts counting learnt clauses (once; the count only ever grows).
    fn count_learnt_clauses(&mut self) {
        if !self.counting {
            self.connect_learner();
        }
    }

    /// (Re)connects the learn callback: it counts, and exports where asked.
    fn connect_learner(&mut self) {
        self.solver.connect_learner(CountLearnt {
            count: self.learnt.clone(),
            export: self.export.clone(),
            clause: None,
        });
        self.counting = true;
    }

    /// Connects the terminate callback for one call that starts at `conflicts`, or disconnects
    /// it when there is neither a cap nor an interrupt flag.
    fn watch(&mut self, conflicts: u64) {
        if self.limit.is_none() && self.interrupt.is_none() {
            self.solver.disconnect_terminator();
            return;
        }
        self.solver.connect_terminator(Watch {
            limit: self.limit.clone(),
            interrupt: self.interrupt.clone(),
            learnt: self.learnt.clone(),
            conflicts_at_start: conflicts,
            learnt_at_start: self.learnt.load(Ordering::Relaxed),
        });
    }

    fn error(e: impl std::fmt::Display) -> SolverError {
        SolverError::failed(NAME, e)
    }

    /// Tells CaDiCaL about every variable handed out so far.
    fn declare(&mut self) -> Result<(), SolverError> {
        if self.vars > self.declared {
            let max =
                i32::try_from(self.vars).map_err(|_| Cadical::error("more than 2^31 variables"))?;
            self.solver.resize(max);
            self.declared = self.vars;
        }
        Ok(())
    }
}

impl ProvingCadical {
    /// A new, empty solver that traces a DRAT proof in `format`.
    pub(crate) fn new(format: ProofFormat) -> Result<Self, SolverError> {
        let file = tempfile::NamedTempFile::new().map_err(Cadical::error)?;
        let path = file
            .path()
            .to_str()
            .ok_or_else(|| Cadical::error("the proof file's path is not UTF-8"))?
            .to_owned();
        let mut solver = Cadical::new();
        let binary = i32::from(format == ProofFormat::Binary);
        if !solver.solver.set("binary", binary) || !solver.solver.trace_proof2(&path) {
            return Err(Cadical::error(format!("cannot trace a proof to {path}")));
        }
        Ok(ProvingCadical { solver, file })
    }
}

impl Default for Cadical {
    fn default() -> Self {
        Cadical::new()
    }
}

/// A literal in CaDiCaL's numbering (not 0) as the crate's.
fn crate_lit(lit: i32) -> Lit {
    let var = Var::from_index(lit.unsigned_abs() as usize - 1);
    if lit > 0 {
        var.positive()
    } else {
        var.negative()
    }
}

/// A literal of the crate in CaDiCaL's numbering.
fn cadical_lit(lit: Lit) -> i32 {
    let var = i32::try_from(lit.index() + 1).expect("fewer than 2^31 variables");
    if lit.is_positive() { var } else { -var }
}

impl ClauseSink for Cadical {
    fn new_var(&mut self) -> Var {
        self.vars += 1;
        Var::from_index(self.vars - 1)
    }

    fn add_clause(&mut self, clause: &[Lit]) {
        self.buffer.clear();
        self.buffer
            .extend(clause.iter().map(|&lit| cadical_lit(lit)));
        if let Some(max) = clause.iter().map(|lit| lit.index() + 1).max() {
            self.vars = self.vars.max(max);
        }
        self.solver.clause6(&self.buffer);
    }
}

impl ClauseSink for ProvingCadical {
    fn new_var(&mut self) -> Var {
        self.solver.new_var()
    }
    fn add_clause(&mut self, clause: &[Lit]) {
        self.solver.add_clause(clause);
    }
}

impl Solve for Cadical {
    fn name(&self) -> &'static str {
        NAME
    }

    fn solve(&mut self) -> Result<Answer, SolverError> {
        self.solve_assuming(&[])
    }

    fn value(&self, lit: Lit) -> Option<bool> {
        self.model.get(lit.index()).map(|&v| v == lit.is_positive())
    }

    fn conflicts(&self) -> u64 {
        u64::try_from(self.solver.get_statistic_value("conflicts")).unwrap_or(0)
    }
}

impl SolveIncremental for Cadical {
    fn solve_assuming(&mut self, assumptions: &[Lit]) -> Result<Answer, SolverError> {
        let conflicts = self.conflicts();
        let cap = self.limit.as_ref().map(|cap| cap.load(Ordering::Relaxed));
        let interrupted = self
            .interrupt
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed));
        if interrupted || cap.is_some_and(|cap| conflicts >= cap) {
            return Ok(Answer::Stopped);
        }
        for lit in assumptions {
            self.vars = self.vars.max(lit.index() + 1);
        }
        self.declare()?;
        // CaDiCaL's own limit for the cap as it stands; none (-1) for a budget past `i32::MAX`
        // (the terminate callback still stops the call, a little past the cap).
        let budget = cap
            .and_then(|cap| i32::try_from(cap - conflicts).ok())
            .unwrap_or(-1);
        self.solver.limit("conflicts", budget);
        self.watch(conflicts);
        self.failed.clear();
        for &lit in assumptions {
            self.solver.assume(cadical_lit(lit));
        }
        match self.solver.solve() {
            Status::SATISFIABLE => {
                self.model.clear();
                for index in 0..self.vars {
                    let var = cadical_lit(Var::from_index(index).positive());
                    let value = self.solver.val(var);
                    self.model.push(value > 0);
                }
                Ok(Answer::Sat)
            }
            Status::UNSATISFIABLE => {
                let mut failed = Vec::new();
                for &lit in assumptions {
                    if self.solver.failed(cadical_lit(lit)) && !failed.contains(&lit) {
                        failed.push(lit);
                    }
                }
                self.failed = failed;
                Ok(Answer::Unsat)
            }
            Status::UNKNOWN => Ok(Answer::Stopped),
        }
    }

    fn failed_assumptions(&self) -> Vec<Lit> {
        self.failed.clone()
    }
}

impl LimitConflicts for Cadical {
    fn set_conflict_limit(&mut self, limit: Option<Arc<AtomicU64>>) {
        if limit.is_some() {
            self.count_learnt_clauses();
        }
        self.limit = limit;
    }
}

impl ExportLearnt for Cadical {
    fn export_learnt(&mut self, pool: Arc<LearntPool>, max_len: usize) -> bool {
        self.export = Some((pool, max_len));
        self.connect_learner();
        true
    }
}

impl Interrupt for Cadical {
    fn set_interrupt(&mut self, flag: Option<Arc<AtomicBool>>) {
        self.interrupt = flag;
    }
}

impl WriteProof for ProvingCadical {
    fn name(&self) -> &'static str {
        NAME
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
        self.solver.solver.close_proof_trace(false);
        let proof = std::fs::read(self.file.path()).map_err(Cadical::error)?;
        Ok(Proved {
            answer,
            conflicts,
            proof,
        })
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
            let answer = solver.solve();
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
    fn the_clauses_cadical_exports_hold_in_its_formula() {
        // Pigeonhole of 7 into 6 holes, with pigeon 0 free to stay out unless x: satisfiable,
        // but only without x.
        fn formula(solver: &mut Cadical) -> Lit {
            let x = solver.new_var().positive();
            let p: Vec<Vec<Lit>> = (0..7)
                .map(|_| (0..6).map(|_| solver.new_var().positive()).collect())
                .collect();
            for (i, row) in p.iter().enumerate() {
                let mut clause = row.clone();
                if i == 0 {
                    clause.push(!x);
                }
                solver.add_clause(&clause);
            }
            for h in 0..6 {
                for (a, first) in p.iter().enumerate() {
                    for second in &p[a + 1..] {
                        solver.add_clause(&[!first[h], !second[h]]);
                    }
                }
            }
            x
        }
        let mut solver = Cadical::new();
        let x = formula(&mut solver);
        let pool = Arc::new(LearntPool::default());
        assert!(solver.export_learnt(pool.clone(), 4));
        // Refuting x takes many conflicts; what is learnt holds without x too.
        assert_eq!(solver.solve_assuming(&[x]), Ok(Answer::Unsat));
        assert_eq!(solver.solve(), Ok(Answer::Sat));
        let mut read = 0;
        let learnt = pool.since(&mut read);
        assert!(!learnt.is_empty(), "no clause exported");
        assert!(learnt.iter().all(|c| !c.is_empty() && c.len() <= 4));
        assert!(pool.since(&mut read).is_empty(), "read twice");
        // Each is implied: the formula with the clause's negation assumed is UNSAT.
        let mut check = Cadical::new();
        formula(&mut check);
        for clause in learnt.iter().take(200) {
            let negated: Vec<Lit> = clause.iter().map(|&lit| !lit).collect();
            assert_eq!(
                check.solve_assuming(&negated),
                Ok(Answer::Unsat),
                "{clause:?}"
            );
        }
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
