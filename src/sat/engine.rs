//! The varisat engine: encodes a puzzle straight into a varisat solver, solves, decodes each
//! model into a [`Grid`], and blocks it so that the next call finds another solution.

use super::cell::CellEncoding;
use super::model::Model;
use crate::deduce::{Contradiction, deduce};
use crate::placement::Placements;
use crate::puzzle::{Grid, Puzzle};
use crate::solve::{Engine, SolveError, SolveOptions, Stats};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};
use varisat::checker::{CheckedProofStep, CheckerData, ProofProcessor};
use varisat::{ExtendFormula, Lit, Solver};

/// A puzzle loaded into varisat, ready to enumerate its solutions.
pub struct SatEngine {
    state: State,
    model: Model,
    rows: usize,
    cols: usize,
    learned: Option<Arc<AtomicU64>>,
    encode_time: Duration,
    solve_time: Duration,
    calls: usize,
}

enum State {
    /// Pre-solving left cells open: search with varisat.
    Search {
        solver: Box<Solver<'static>>,
        encoding: CellEncoding,
    },
    /// Pre-solving decided every cell, or found a contradiction (`None`): no formula needed.
    Decided(Option<Grid>),
}

impl SatEngine {
    /// Pre-solves `puzzle` (unless `options.presolve` is off), then encodes what is left with
    /// `options.model` and `options.card`. With `options.detailed_stats`, varisat sends its proof
    /// through a checker and every learnt clause (one per conflict) is counted; this costs
    /// time, so it is only for `--stats`.
    pub fn new(puzzle: &Puzzle, options: &SolveOptions) -> Self {
        let start = Instant::now();
        let (rows, cols) = (puzzle.rows(), puzzle.cols());
        let mut placements = Placements::new(puzzle);
        let knowledge = if options.presolve {
            match deduce(puzzle, &mut placements) {
                Ok(k) => Some(k),
                Err(Contradiction) => return Self::decided(puzzle, options.model, None, start),
            }
        } else {
            None
        };
        if let Some(k) = knowledge.as_ref().filter(|k| k.is_complete()) {
            let ship: Vec<bool> = k.cells.iter().map(|c| *c == Some(true)).collect();
            // Every cell is forced; if the forced grid breaks a rule the rules are
            // contradictory, and the verifier in `solve` reports such a grid as no solution.
            let grid = Grid::from_ship_cells(rows, cols, &ship)
                .filter(|g| crate::verify::verify(puzzle, g).is_ok());
            return Self::decided(puzzle, options.model, grid, start);
        }
        let mut solver = Box::new(Solver::new());
        let learned = options.detailed_stats.then(|| {
            let counter = Arc::new(AtomicU64::new(0));
            // varisat hands proof steps to a processor borrowed for the solver's lifetime; the
            // counter is a few bytes, leaked once per `--stats` run.
            let processor: &'static mut LearntCounter = Box::leak(Box::new(LearntCounter {
                count: counter.clone(),
            }));
            solver.add_proof_processor(processor);
            counter
        });
        let encoding = options.model.encode_residual(
            puzzle,
            &placements,
            knowledge.as_ref(),
            options.card,
            solver.as_mut(),
        );
        SatEngine {
            state: State::Search { solver, encoding },
            model: options.model,
            rows,
            cols,
            learned,
            encode_time: start.elapsed(),
            solve_time: Duration::ZERO,
            calls: 0,
        }
    }

    fn decided(puzzle: &Puzzle, model: Model, grid: Option<Grid>, start: Instant) -> Self {
        SatEngine {
            state: State::Decided(grid),
            model,
            rows: puzzle.rows(),
            cols: puzzle.cols(),
            learned: None,
            encode_time: start.elapsed(),
            solve_time: Duration::ZERO,
            calls: 0,
        }
    }

    /// The encoding's variables, or `None` when pre-solving decided the puzzle without one.
    pub fn encoding(&self) -> Option<&CellEncoding> {
        match &self.state {
            State::Search { encoding, .. } => Some(encoding),
            State::Decided(_) => None,
        }
    }
}

impl Engine for SatEngine {
    fn next_solution(&mut self) -> Result<Option<Grid>, SolveError> {
        let (solver, encoding) = match &mut self.state {
            State::Decided(grid) => return Ok(grid.take()),
            State::Search { solver, encoding } => (solver, encoding),
        };
        let start = Instant::now();
        let sat = solver.solve().map_err(|e| SolveError::Solver {
            message: e.to_string(),
        });
        self.solve_time += start.elapsed();
        self.calls += 1;
        if !sat? {
            return Ok(None);
        }
        let model = solver.model().ok_or_else(|| SolveError::Solver {
            message: "varisat reported SAT without a model".into(),
        })?;
        let value = |lit: Lit| model.get(lit.index()).is_some_and(|m| m.is_positive());
        let ship: Vec<bool> = encoding.cells.iter().map(|v| value(v.positive())).collect();
        // Block this grid: the fleet fixes the number of ship cells, so another solution must
        // turn at least one of these ship cells into water.
        let block: Vec<Lit> = encoding
            .cells
            .iter()
            .zip(&ship)
            .filter(|(_, s)| **s)
            .map(|(v, _)| v.negative())
            .collect();
        solver.add_clause(&block);
        Grid::from_ship_cells(self.rows, self.cols, &ship)
            .map(Some)
            .ok_or(SolveError::Decode)
    }

    fn stats(&self) -> Stats {
        let (variables, constraints, model) = match &self.state {
            State::Search { encoding, .. } => (
                encoding.vars,
                encoding.clauses,
                self.model.name().to_string(),
            ),
            State::Decided(_) => (0, 0, format!("{} (decided by pre-solving)", self.model)),
        };
        Stats {
            backend: "sat",
            model,
            variables,
            constraints,
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
        if let CheckedProofStep::AtClause { .. } = step {
            self.count.fetch_add(1, Ordering::Relaxed);
        }
        Ok(())
    }
}
