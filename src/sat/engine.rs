//! The varisat engine: encodes a puzzle straight into a varisat solver, solves, decodes each
//! model into a [`Grid`], and blocks it so that the next call finds another solution.
//!
//! **Configuration race.** Which cardinality encoding lets CDCL find an answer fast varies from
//! puzzle to puzzle, and on dense boards without clues (the MiniZinc solbat set) the spread is
//! tenfold. Each call therefore first runs the chosen configuration alone for
//! [`SOLO_CONFLICTS`] conflicts, which settles almost every puzzle. If it has not answered, a
//! second configuration (its [`partner`]) is built and both run on their own threads. Who wins is
//! decided by conflicts, not by the clock: each solver's conflict count when it answers is
//! deterministic, the first to answer caps the other at its own count, and the lower count wins
//! (the chosen configuration on a tie). The loser is dropped, so the state carried into the next
//! call is deterministic too: the same puzzle and options always print the same solutions. The
//! conflict cap is the one patch in `vendor/varisat`.

use super::card::CardKind;
use super::cell::CellEncoding;
use super::model::Model;
use crate::deduce::{Contradiction, Knowledge, deduce};
use crate::placement::Placements;
use crate::puzzle::{Grid, Puzzle};
use crate::solve::{Engine, SolveError, SolveOptions, Stats};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};
use varisat::solver::SolverError;
use varisat::{ExtendFormula, Lit, SendSolver};

/// Conflicts the chosen configuration gets alone, per call, before its partner joins. A Rubin
/// board needs a median of 141 for its two calls (solution and uniqueness) and at most 873, so
/// the race never starts on them; the hard solbat files pass this budget early.
pub const SOLO_CONFLICTS: u64 = 2_000;

/// The configuration that races `model`/`card`: the cell model with totalizers, or with
/// sequential counters when that is the chosen one.
pub fn partner(model: Model, card: CardKind) -> (Model, CardKind) {
    match (model, card) {
        (Model::Cell, CardKind::Totalizer) => (Model::Cell, CardKind::Seq),
        _ => (Model::Cell, CardKind::Totalizer),
    }
}

/// A puzzle loaded into varisat, ready to enumerate its solutions.
pub struct SatEngine {
    state: State,
    model: Model,
    card: CardKind,
    rows: usize,
    cols: usize,
    encode_time: Duration,
    solve_time: Duration,
    calls: usize,
}

enum State {
    /// Pre-solving left cells open: search with varisat.
    Search(Box<Search>),
    /// Pre-solving decided every cell, or found a contradiction (`None`): no formula needed.
    Decided(Option<Grid>),
}

/// What a challenger needs to be built in the middle of an enumeration.
struct Search {
    puzzle: Puzzle,
    placements: Placements,
    knowledge: Option<Knowledge>,
    /// The configuration that runs alone at the start of each call.
    lead: Racer,
    /// Ship cells of every solution returned so far (each blocked in every solver).
    found: Vec<Vec<bool>>,
    /// Conflicts of dropped solvers.
    retired_conflicts: u64,
    /// Whether a partner may join (see [`SOLO_CONFLICTS`]).
    race: bool,
    /// Stops every solver of this search once set.
    stop: Option<Arc<AtomicBool>>,
}

/// One configuration's solver.
struct Racer {
    model: Model,
    card: CardKind,
    solver: Box<SendSolver>,
    encoding: CellEncoding,
    limit: Arc<AtomicU64>,
}

/// What one solver call ended with.
enum Answer {
    /// A model, as ship cells.
    Sat(Vec<bool>),
    Unsat,
    /// The conflict limit stopped it.
    Stopped,
}

impl Racer {
    fn new(
        (model, card): (Model, CardKind),
        puzzle: &Puzzle,
        placements: &Placements,
        knowledge: Option<&Knowledge>,
        found: &[Vec<bool>],
        stop: Option<&Arc<AtomicBool>>,
    ) -> Self {
        let mut solver = Box::new(SendSolver::new());
        solver.set_stop_flag(stop.cloned());
        let encoding = model.encode_residual(puzzle, placements, knowledge, card, solver.as_mut());
        let limit = Arc::new(AtomicU64::new(u64::MAX));
        solver.set_conflict_limit(Some(limit.clone()));
        let mut racer = Racer {
            model,
            card,
            solver,
            encoding,
            limit,
        };
        for ship in found {
            racer.block(ship);
        }
        racer
    }

    fn conflicts(&self) -> u64 {
        self.solver.conflicts()
    }

    /// Adds the clause that rules out the grid with these ship cells: the fleet fixes the number
    /// of ship cells, so another solution must turn one of them into water.
    fn block(&mut self, ship: &[bool]) {
        let clause: Vec<Lit> = self
            .encoding
            .cells
            .iter()
            .zip(ship)
            .filter(|(_, s)| **s)
            .map(|(v, _)| v.negative())
            .collect();
        self.solver.add_clause(&clause);
    }

    /// Solves until an answer or until the solver's conflict count reaches `limit`.
    fn run(&mut self, limit: u64) -> Result<Answer, SolveError> {
        self.limit.store(limit, Ordering::Relaxed);
        self.solve()
    }

    /// Solves until an answer or until the conflict limit, as it stands, stops it.
    fn solve(&mut self) -> Result<Answer, SolveError> {
        match self.solver.solve() {
            Ok(true) => {
                let model = self.solver.model().ok_or_else(|| SolveError::Solver {
                    message: "varisat reported SAT without a model".into(),
                })?;
                let value = |lit: Lit| model.get(lit.index()).is_some_and(|m| m.is_positive());
                Ok(Answer::Sat(
                    self.encoding
                        .cells
                        .iter()
                        .map(|v| value(v.positive()))
                        .collect(),
                ))
            }
            Ok(false) => Ok(Answer::Unsat),
            Err(SolverError::Interrupted) => Ok(Answer::Stopped),
            Err(e) => Err(SolveError::Solver {
                message: e.to_string(),
            }),
        }
    }

    /// Runs in a race: on an answer after `clock` conflicts of this race, caps `rival` (whose
    /// count stood at `rival_start` when the race began) at the same clock. Both limits are
    /// lifted before the race starts, never here, so a cap the rival set early stays set.
    fn race(
        &mut self,
        rival: &AtomicU64,
        rival_start: u64,
    ) -> Result<Option<(Answer, u64)>, SolveError> {
        let start = self.conflicts();
        let answer = self.solve()?;
        if let Answer::Stopped = answer {
            return Ok(None);
        }
        let clock = self.conflicts() - start;
        rival.fetch_min(rival_start + clock, Ordering::Relaxed);
        Ok(Some((answer, clock)))
    }
}

impl SatEngine {
    /// Pre-solves `puzzle` (unless `options.presolve` is off), then encodes what is left with
    /// `options.model` and `options.card`; with `options.race`, the [`partner`] configuration
    /// joins calls that need more than [`SOLO_CONFLICTS`] conflicts.
    pub fn new(puzzle: &Puzzle, options: &SolveOptions) -> Self {
        let start = Instant::now();
        let (rows, cols) = (puzzle.rows(), puzzle.cols());
        let mut placements = Placements::new(puzzle);
        let knowledge = if options.presolve {
            match deduce(puzzle, &mut placements) {
                Ok(k) => Some(k),
                Err(Contradiction) => return Self::decided(puzzle, options, None, start),
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
            return Self::decided(puzzle, options, grid, start);
        }
        let lead = Racer::new(
            (options.model, options.card),
            puzzle,
            &placements,
            knowledge.as_ref(),
            &[],
            options.stop.as_ref(),
        );
        SatEngine {
            state: State::Search(Box::new(Search {
                puzzle: puzzle.clone(),
                placements,
                knowledge,
                lead,
                found: Vec::new(),
                retired_conflicts: 0,
                race: options.race,
                stop: options.stop.clone(),
            })),
            model: options.model,
            card: options.card,
            rows,
            cols,
            encode_time: start.elapsed(),
            solve_time: Duration::ZERO,
            calls: 0,
        }
    }

    fn decided(
        puzzle: &Puzzle,
        options: &SolveOptions,
        grid: Option<Grid>,
        start: Instant,
    ) -> Self {
        SatEngine {
            state: State::Decided(grid),
            model: options.model,
            card: options.card,
            rows: puzzle.rows(),
            cols: puzzle.cols(),
            encode_time: start.elapsed(),
            solve_time: Duration::ZERO,
            calls: 0,
        }
    }
}

impl Search {
    /// One call's answer: the lead alone, then (with `race`) the lead against a fresh partner.
    fn answer(&mut self) -> Result<Answer, SolveError> {
        let solo_end = if self.race {
            self.lead.conflicts() + SOLO_CONFLICTS
        } else {
            u64::MAX
        };
        let answer = self.lead.run(solo_end)?;
        let stopped = self
            .stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed));
        if !matches!(answer, Answer::Stopped) || stopped {
            return Ok(answer);
        }
        let mut rival = Racer::new(
            partner(self.lead.model, self.lead.card),
            &self.puzzle,
            &self.placements,
            self.knowledge.as_ref(),
            &self.found,
            self.stop.as_ref(),
        );
        let (lead_start, rival_start) = (self.lead.conflicts(), rival.conflicts());
        let (lead_limit, rival_limit) = (self.lead.limit.clone(), rival.limit.clone());
        lead_limit.store(u64::MAX, Ordering::Relaxed);
        rival_limit.store(u64::MAX, Ordering::Relaxed);
        let lead = &mut self.lead;
        let (ours, theirs) = std::thread::scope(|s| {
            let theirs = s.spawn(|| rival.race(&lead_limit, lead_start));
            let ours = lead.race(&rival_limit, rival_start);
            (ours, theirs.join())
        });
        let theirs = theirs.map_err(|_| SolveError::Solver {
            message: "the racing solver thread panicked".into(),
        })??;
        let ours = ours?;
        let rival_wins = match (&ours, &theirs) {
            (Some((_, a)), Some((_, b))) => b < a,
            (None, Some(_)) => true,
            (Some(_), None) => false,
            // Only the stop flag stops both.
            (None, None) => return Ok(Answer::Stopped),
        };
        let (answer, loser) = if rival_wins {
            let loser = std::mem::replace(&mut self.lead, rival);
            (theirs, loser)
        } else {
            (ours, rival)
        };
        self.retired_conflicts += loser.conflicts();
        Ok(answer.map_or(Answer::Stopped, |(a, _)| a))
    }
}

impl Engine for SatEngine {
    fn next_solution(&mut self) -> Result<Option<Grid>, SolveError> {
        let search = match &mut self.state {
            State::Decided(grid) => return Ok(grid.take()),
            State::Search(search) => search,
        };
        let start = Instant::now();
        let answer = search.answer();
        self.solve_time += start.elapsed();
        self.calls += 1;
        let ship = match answer? {
            Answer::Sat(ship) => ship,
            Answer::Unsat => return Ok(None),
            Answer::Stopped => return Err(SolveError::Interrupted),
        };
        search.lead.block(&ship);
        let grid = Grid::from_ship_cells(self.rows, self.cols, &ship).ok_or(SolveError::Decode)?;
        search.found.push(ship);
        Ok(Some(grid))
    }

    fn stats(&self) -> Stats {
        let (variables, constraints, model, conflicts) = match &self.state {
            State::Search(search) => {
                let lead = &search.lead;
                let model = if (lead.model, lead.card) == (self.model, self.card) {
                    format!("{}/{}", lead.model, lead.card.name())
                } else {
                    format!(
                        "{}/{}, race partner of {}/{}",
                        lead.model,
                        lead.card.name(),
                        self.model,
                        self.card.name()
                    )
                };
                (
                    lead.encoding.vars,
                    lead.encoding.clauses,
                    model,
                    Some(search.retired_conflicts + lead.conflicts()),
                )
            }
            State::Decided(_) => (
                0,
                0,
                format!(
                    "{}/{}, decided by pre-solving",
                    self.model,
                    self.card.name()
                ),
                None,
            ),
        };
        Stats {
            backend: "sat",
            model,
            variables,
            constraints,
            conflicts,
            encode_time: self.encode_time,
            solve_time: self.solve_time,
            solver_calls: self.calls,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use varisat::ExtendFormula;

    /// Pigeonhole: `n + 1` pigeons in `n` holes; unsatisfiable, and hard enough for CDCL to
    /// need many conflicts.
    fn pigeonhole(solver: &mut SendSolver, n: usize) {
        let p: Vec<Vec<Lit>> = (0..=n)
            .map(|_| (0..n).map(|_| solver.new_lit()).collect())
            .collect();
        for row in &p {
            solver.add_clause(row);
        }
        for h in 0..n {
            for (a, first) in p.iter().enumerate() {
                for second in &p[a + 1..] {
                    solver.add_clause(&[!first[h], !second[h]]);
                }
            }
        }
    }

    #[test]
    fn the_conflict_limit_stops_the_solver_and_a_later_call_resumes() {
        let mut solver = SendSolver::new();
        pigeonhole(&mut solver, 7);
        let limit = Arc::new(AtomicU64::new(50));
        solver.set_conflict_limit(Some(limit.clone()));
        assert!(matches!(solver.solve(), Err(SolverError::Interrupted)));
        assert_eq!(solver.conflicts(), 50);
        limit.store(120, Ordering::Relaxed);
        assert!(matches!(solver.solve(), Err(SolverError::Interrupted)));
        assert_eq!(solver.conflicts(), 120);
        limit.store(u64::MAX, Ordering::Relaxed);
        assert!(!solver.solve().unwrap());
        assert!(solver.conflicts() > 120);
    }

    #[test]
    fn partners_differ_from_the_chosen_configuration() {
        for &model in Model::ALL {
            for &card in CardKind::ALL {
                assert_ne!(partner(model, card), (model, card));
            }
        }
    }
}
