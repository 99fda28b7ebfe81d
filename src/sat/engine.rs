//! The varisat engine: encodes a puzzle straight into a varisat solver, solves, decodes each
//! model into a [`Grid`], and blocks it so that the next call finds another solution.

use super::card::CardKind;
use super::cell::CellEncoding;
use super::model::Model;
use crate::placement::Placements;
use crate::puzzle::{Grid, Puzzle};
use crate::solve::{Engine, SolveError, Stats};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};
use varisat::checker::{CheckedProofStep, CheckerData, ProofProcessor};
use varisat::{ExtendFormula, Lit, Solver};

/// A puzzle loaded into varisat, ready to enumerate its solutions.
pub struct SatEngine {
    solver: Solver<'static>,
    encoding: CellEncoding,
    model: Model,
    rows: usize,
    cols: usize,
    learned: Option<Arc<AtomicU64>>,
    encode_time: Duration,
    solve_time: Duration,
    calls: usize,
}

impl SatEngine {
    /// Encodes `puzzle` with cardinality encoding `card`. With `count_conflicts`, varisat writes
    /// its proof through a checker and every learnt clause (one per conflict) is counted; this
    /// costs time, so it is only for `--stats`.
    pub fn new(puzzle: &Puzzle, card: CardKind, count_conflicts: bool) -> Self {
        Self::with_model(puzzle, Model::Cell, card, count_conflicts)
    }

    /// Encodes `puzzle` with CNF model `model` and cardinality encoding `card` (see
    /// [`SatEngine::new`] for `count_conflicts`).
    pub fn with_model(
        puzzle: &Puzzle,
        model: Model,
        card: CardKind,
        count_conflicts: bool,
    ) -> Self {
        let start = Instant::now();
        let mut solver = Solver::new();
        let learned = count_conflicts.then(|| {
            let counter = Arc::new(AtomicU64::new(0));
            // varisat hands proof steps to a processor borrowed for the solver's lifetime; the
            // counter is a few bytes, leaked once per `--stats` run.
            let processor: &'static mut LearntCounter = Box::leak(Box::new(LearntCounter {
                count: counter.clone(),
            }));
            solver.add_proof_processor(processor);
            counter
        });
        let placements = Placements::new(puzzle);
        let encoding = model.encode(puzzle, &placements, card, &mut solver);
        SatEngine {
            solver,
            encoding,
            model,
            rows: puzzle.rows(),
            cols: puzzle.cols(),
            learned,
            encode_time: start.elapsed(),
            solve_time: Duration::ZERO,
            calls: 0,
        }
    }

    /// The encoding's variables.
    pub fn encoding(&self) -> &CellEncoding {
        &self.encoding
    }
}

impl Engine for SatEngine {
    fn next_solution(&mut self) -> Result<Option<Grid>, SolveError> {
        let start = Instant::now();
        let sat = self.solver.solve().map_err(|e| SolveError::Solver {
            message: e.to_string(),
        });
        self.solve_time += start.elapsed();
        self.calls += 1;
        if !sat? {
            return Ok(None);
        }
        let model = self.solver.model().ok_or_else(|| SolveError::Solver {
            message: "varisat reported SAT without a model".into(),
        })?;
        let value = |lit: Lit| model.get(lit.index()).is_some_and(|m| m.is_positive());
        let ship: Vec<bool> = self
            .encoding
            .cells
            .iter()
            .map(|v| value(v.positive()))
            .collect();
        // Block this grid: the fleet fixes the number of ship cells, so another solution must
        // turn at least one of these ship cells into water.
        let block: Vec<Lit> = self
            .encoding
            .cells
            .iter()
            .zip(&ship)
            .filter(|(_, s)| **s)
            .map(|(v, _)| v.negative())
            .collect();
        self.solver.add_clause(&block);
        Grid::from_ship_cells(self.rows, self.cols, &ship)
            .map(Some)
            .ok_or(SolveError::Decode)
    }

    fn stats(&self) -> Stats {
        Stats {
            backend: "sat",
            model: self.model.name().into(),
            variables: self.encoding.vars,
            constraints: self.encoding.clauses,
            conflicts: self.learned.as_ref().map(|c| c.load(Ordering::Relaxed)),
            encode_time: self.encode_time,
            solve_time: self.solve_time,
            solver_calls: self.calls,
        }
    }
}

/// Counts learnt clauses (one per conflict) in varisat's checked proof.
struct LearntCounter {
    count: Arc<AtomicU64>,
}

impl ProofProcessor for LearntCounter {
    fn process_step(
        &mut self,
        step: &CheckedProofStep,
        _data: CheckerData,
    ) -> Result<(), anyhow::Error> {
        if let CheckedProofStep::AtClause {
            redundant: true, ..
        } = step
        {
            self.count.fetch_add(1, Ordering::Relaxed);
        }
        Ok(())
    }
}
