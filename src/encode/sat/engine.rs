//! The SAT engine: pre-solves a puzzle, lets the native search ([`crate::reason::search`]) try
//! it within [`NATIVE_NODES`] nodes, and otherwise encodes what is left straight into a solver
//! (through [`crate::solver::Solver`]), solves, decodes each model into a [`Grid`], and blocks it
//! so that the next call finds another solution. Grids the native search found are blocked in
//! the solver before it starts.
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
//! race needs the solver's shared conflict limit ([`Solver::set_conflict_limit`]).

use super::card::CardKind;
use super::instance::{Encoding, Instance};
use super::model::Model;
use super::redundant::Redundant;
use crate::model::deadline::{Budget, Deadline, TimeLimit};
use crate::model::lit::Lit;
use crate::model::outcome::{Engine, SolveError, Stats};
use crate::model::placement::Placements;
use crate::model::puzzle::{Grid, Puzzle};
use crate::reason::deduce::{Contradiction, Effort, Knowledge, deduce};
use crate::reason::search::{End, search};
use crate::solver::sink::Timed;
use crate::solver::{self, Solver, SolverKind};
use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Conflicts the chosen configuration gets alone, per call, before its partner joins. A Rubin
/// board needs a median of 141 for its two calls (solution and uniqueness) and at most 873, so
/// the race never starts on them; the hard solbat files pass this budget early.
pub const SOLO_CONFLICTS: u64 = 2_000;

/// Branch nodes the native search gets before the solver takes over (about 0.1 s on a 25x25
/// board). On the tuning half of `puzzles/hard/` the native search proves 8 of the 12 exactly
/// minimal 25x25 boards unique within 13,000 nodes and needs 150,000 or more on the others
/// (`docs/benchmarks.md`).
pub const NATIVE_NODES: u64 = 20_000;

/// A CNF configuration: the model and the cardinality encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Configuration {
    /// The CNF model.
    pub model: Model,
    /// The cardinality encoding of every count.
    pub card: CardKind,
}

impl std::fmt::Display for Configuration {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.model, self.card.name())
    }
}

/// The configuration that races `lead`: the cell model with totalizers, or with sequential
/// counters when that is the lead.
pub fn partner(lead: Configuration) -> Configuration {
    let card = match (lead.model, lead.card) {
        (Model::Cell, CardKind::Totalizer) => CardKind::Seq,
        _ => CardKind::Totalizer,
    };
    Configuration {
        model: Model::Cell,
        card,
    }
}

/// How the SAT engine works.
#[derive(Clone, Debug)]
pub struct SatConfig {
    /// The CNF model.
    pub model: Model,
    /// The cardinality encoding.
    pub card: CardKind,
    /// The SAT solver.
    pub solver: SolverKind,
    /// Let the [`partner`] configuration race calls that need more than [`SOLO_CONFLICTS`].
    pub race: bool,
    /// Pre-solve with [`crate::reason::deduce`] and encode only what is left open.
    pub presolve: bool,
    /// After pre-solving, the native search looks for `limit` solutions within this many
    /// branch nodes before a solver is built (0: not at all).
    pub native: u64,
    /// How many solutions the caller will ask for (what the native search looks for).
    pub limit: usize,
    /// Redundant constraints added to every configuration's encoding.
    pub redundant: Redundant,
    /// Stops every solver once set.
    pub stop: Option<Arc<AtomicBool>>,
    /// Placement enumeration, pre-solving and encoding give up once it passes (the solver
    /// itself is stopped through `stop`); the engine then answers [`SolveError::TimeLimit`].
    pub deadline: Deadline,
}

/// A puzzle loaded into a SAT solver, ready to enumerate its solutions.
pub struct SatEngine {
    state: EngineState,
    chosen: Configuration,
    shape: crate::model::puzzle::Shape,
    encode_time: Duration,
    solve_time: Duration,
    calls: usize,
}

enum EngineState {
    /// Pre-solving left cells open: search with the solver.
    Search(Box<Search>),
    /// Pre-solving decided every cell, or found a contradiction (`None`): no formula needed.
    Decided(Option<Grid>),
    /// The native search's grids, handed out first; then no more (`rest` is `None`: the search
    /// was exhausted) or the solver, built on demand with these grids blocked.
    Searched {
        grids: VecDeque<Grid>,
        rest: Option<Box<Prepared>>,
        nodes: u64,
        /// What the search took.
        time: Duration,
    },
    /// The deadline passed while the puzzle was being prepared.
    TimedOut,
}

/// A pre-solved puzzle, ready to be encoded.
struct Prepared {
    puzzle: Puzzle,
    placements: Placements,
    knowledge: Option<Knowledge>,
    config: SatConfig,
    chosen: Configuration,
    /// Ship cells of the grids found before the solver starts.
    found: Vec<Vec<bool>>,
}

impl Prepared {
    /// Builds the lead solver, with every grid found so far blocked.
    fn encode(self) -> Result<Search, TimeLimit> {
        let config = &self.config;
        let lead = Racer::build(
            (self.chosen, config.redundant),
            config.solver,
            &self.puzzle,
            &self.placements,
            self.knowledge.as_ref(),
            &self.found,
            (config.stop.as_ref(), config.deadline),
        )?;
        Ok(Search {
            puzzle: self.puzzle,
            placements: self.placements,
            knowledge: self.knowledge,
            solver: config.solver,
            lead,
            found: self.found,
            retired_conflicts: 0,
            race: config.race,
            stop: config.stop.clone(),
            deadline: config.deadline,
            redundant: config.redundant,
        })
    }
}

/// What a challenger needs to be built in the middle of an enumeration.
struct Search {
    puzzle: Puzzle,
    placements: Placements,
    knowledge: Option<Knowledge>,
    solver: SolverKind,
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
    /// Encoding a race partner gives up once it passes.
    deadline: Deadline,
    /// Redundant constraints of every configuration.
    redundant: Redundant,
}

/// One configuration's solver.
struct Racer {
    config: Configuration,
    solver: Box<dyn Solver>,
    encoding: Encoding,
    limit: Arc<AtomicU64>,
}

/// What one solver call ended with.
enum CallAnswer {
    /// A model, as ship cells.
    Sat(Vec<bool>),
    Unsat,
    /// The conflict limit or the stop flag stopped it.
    Stopped,
}

impl Racer {
    fn new(config: Configuration, search: &Search) -> Result<Self, TimeLimit> {
        Racer::build(
            (config, search.redundant),
            search.solver,
            &search.puzzle,
            &search.placements,
            search.knowledge.as_ref(),
            &search.found,
            (search.stop.as_ref(), search.deadline),
        )
    }

    fn build(
        (config, redundant): (Configuration, Redundant),
        kind: SolverKind,
        puzzle: &Puzzle,
        placements: &Placements,
        knowledge: Option<&Knowledge>,
        found: &[Vec<bool>],
        (stop, deadline): (Option<&Arc<AtomicBool>>, Deadline),
    ) -> Result<Self, TimeLimit> {
        let mut solver = kind.new_solver();
        solver.set_interrupt(stop.cloned());
        let instance = Instance {
            puzzle,
            placements,
            knowledge,
            card: config.card,
        };
        let mut sink = Timed::new(solver.as_mut(), deadline);
        let encoding = config.model.encode(&instance, &mut sink);
        let encoding = super::redundant::encode(&instance, encoding, redundant, &mut sink);
        sink.finish()?;
        let limit = Arc::new(AtomicU64::new(u64::MAX));
        solver.set_conflict_limit(Some(limit.clone()));
        let mut racer = Racer {
            config,
            solver,
            encoding,
            limit,
        };
        for ship in found {
            racer.block(ship);
        }
        Ok(racer)
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
    fn run(&mut self, limit: u64) -> Result<CallAnswer, SolveError> {
        self.limit.store(limit, Ordering::Relaxed);
        self.solve()
    }

    /// Solves until an answer or until the conflict limit, as it stands, stops it.
    fn solve(&mut self) -> Result<CallAnswer, SolveError> {
        let answer = self.solver.solve(&[]).map_err(|e| SolveError::Solver {
            message: e.to_string(),
        })?;
        Ok(match answer {
            solver::Answer::Sat => CallAnswer::Sat(
                self.encoding
                    .cells
                    .iter()
                    .map(|v| self.solver.value(v.positive()) == Some(true))
                    .collect(),
            ),
            solver::Answer::Unsat => CallAnswer::Unsat,
            solver::Answer::Stopped => CallAnswer::Stopped,
        })
    }

    /// Runs in a race: on an answer after `clock` conflicts of this race, caps `rival` (whose
    /// count stood at `rival_start` when the race began) at the same clock plus `tie`. The
    /// challenger passes `tie = 1`, so that a lead that would answer at the very same clock (and
    /// win the tie) is not stopped first, whichever thread is faster. Both limits are lifted
    /// before the race starts, never here, so a cap the rival set early stays set.
    fn race(
        &mut self,
        rival: &AtomicU64,
        rival_start: u64,
        tie: u64,
    ) -> Result<Option<(CallAnswer, u64)>, SolveError> {
        let start = self.conflicts();
        let answer = self.solve()?;
        if let CallAnswer::Stopped = answer {
            return Ok(None);
        }
        let clock = self.conflicts() - start;
        rival.fetch_min(rival_start + clock + tie, Ordering::Relaxed);
        Ok(Some((answer, clock)))
    }
}

impl SatEngine {
    /// Pre-solves `puzzle` (unless `config.presolve` is off), then encodes what is left with
    /// `config.model` and `config.card`; with `config.race`, the [`partner`] configuration
    /// joins calls that need more than [`SOLO_CONFLICTS`] conflicts.
    pub fn new(puzzle: &Puzzle, config: &SatConfig) -> Self {
        let start = Instant::now();
        let chosen = Configuration {
            model: config.model,
            card: config.card,
        };
        let state = Self::prepare(puzzle, config, chosen).unwrap_or(EngineState::TimedOut);
        let searching = match &state {
            EngineState::Searched { time, .. } => *time,
            _ => Duration::ZERO,
        };
        SatEngine {
            state,
            chosen,
            shape: puzzle.shape(),
            encode_time: start.elapsed().saturating_sub(searching),
            solve_time: searching,
            calls: 0,
        }
    }

    /// Enumerates the placements, pre-solves and encodes, within `config.deadline`.
    fn prepare(
        puzzle: &Puzzle,
        config: &SatConfig,
        chosen: Configuration,
    ) -> Result<EngineState, TimeLimit> {
        let shape = puzzle.shape();
        let mut placements = Placements::within(puzzle, config.deadline)?;
        let knowledge = if config.presolve {
            match deduce(
                puzzle,
                &mut placements,
                Effort::Rules,
                &Budget::until(config.deadline),
            )? {
                Ok(k) => Some(k),
                Err(Contradiction) => return Ok(EngineState::Decided(None)),
            }
        } else {
            None
        };
        if let Some(k) = knowledge.as_ref().filter(|k| k.is_complete()) {
            let ship: Vec<bool> = k.cells.iter().map(|c| *c == Some(true)).collect();
            // Every cell is forced; if the forced grid breaks a rule the rules are
            // contradictory, and the verifier in `solve` reports such a grid as no solution.
            let grid = Grid::from_ship_cells(shape.rows, shape.cols, &ship)
                .filter(|g| crate::model::verify::verify(puzzle, g).is_ok());
            return Ok(EngineState::Decided(grid));
        }
        let prepared = Prepared {
            puzzle: puzzle.clone(),
            placements,
            knowledge,
            config: config.clone(),
            chosen,
            found: Vec::new(),
        };
        if config.native == 0 {
            return Ok(EngineState::Search(Box::new(prepared.encode()?)));
        }
        let budget = Budget {
            nodes: Some(config.native),
            deadline: config.deadline,
            stop: config.stop.clone(),
        };
        let start = Instant::now();
        let found = search(puzzle, &prepared.placements, config.limit, &budget);
        let time = start.elapsed();
        let rest = match found.end {
            End::Exhausted => None,
            // A stop flag with nothing found goes on to the solver, which sees the same flag at
            // once and reports the solve as interrupted, not timed out.
            End::TimeLimit if found.grids.is_empty() => return Err(TimeLimit),
            _ => {
                let found = found.grids.iter().map(Grid::ship_cells).collect();
                Some(Box::new(Prepared { found, ..prepared }))
            }
        };
        Ok(EngineState::Searched {
            grids: found.grids.into(),
            rest,
            nodes: found.nodes,
            time,
        })
    }
}

impl Search {
    /// One call's answer: the lead alone, then (with `race`) the lead against a fresh partner.
    fn answer(&mut self) -> Result<CallAnswer, SolveError> {
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
        if !matches!(answer, CallAnswer::Stopped) || stopped {
            return Ok(answer);
        }
        let mut rival = Racer::new(partner(self.lead.config), self)?;
        let (lead_start, rival_start) = (self.lead.conflicts(), rival.conflicts());
        let (lead_limit, rival_limit) = (self.lead.limit.clone(), rival.limit.clone());
        lead_limit.store(u64::MAX, Ordering::Relaxed);
        rival_limit.store(u64::MAX, Ordering::Relaxed);
        let lead = &mut self.lead;
        let (ours, theirs) = std::thread::scope(|s| {
            let theirs = s.spawn(|| rival.race(&lead_limit, lead_start, 1));
            let ours = lead.race(&rival_limit, rival_start, 0);
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
            (None, None) => return Ok(CallAnswer::Stopped),
        };
        let (answer, loser) = if rival_wins {
            let loser = std::mem::replace(&mut self.lead, rival);
            (theirs, loser)
        } else {
            (ours, rival)
        };
        self.retired_conflicts += loser.conflicts();
        Ok(answer.map_or(CallAnswer::Stopped, |(a, _)| a))
    }
}

impl Engine for SatEngine {
    fn next_solution(&mut self) -> Result<Option<Grid>, SolveError> {
        let start = Instant::now();
        if let EngineState::Searched { grids, rest, .. } = &mut self.state {
            if let Some(grid) = grids.pop_front() {
                return Ok(Some(grid));
            }
            let Some(prepared) = rest.take() else {
                return Ok(None);
            };
            self.state = match prepared.encode() {
                Ok(search) => EngineState::Search(Box::new(search)),
                Err(TimeLimit) => EngineState::TimedOut,
            };
        }
        let search = match &mut self.state {
            EngineState::Decided(grid) => return Ok(grid.take()),
            EngineState::TimedOut => return Err(SolveError::TimeLimit),
            EngineState::Searched { .. } => {
                unreachable!("the native search's grids were handed out")
            }
            EngineState::Search(search) => search,
        };
        let answer = search.answer();
        self.solve_time += start.elapsed();
        self.calls += 1;
        let ship = match answer? {
            CallAnswer::Sat(ship) => ship,
            CallAnswer::Unsat => return Ok(None),
            CallAnswer::Stopped => return Err(SolveError::Interrupted),
        };
        search.lead.block(&ship);
        let grid = Grid::from_ship_cells(self.shape.rows, self.shape.cols, &ship)
            .ok_or(SolveError::Decode)?;
        search.found.push(ship);
        Ok(Some(grid))
    }

    fn stats(&self) -> Stats {
        let (variables, constraints, model, conflicts) = match &self.state {
            EngineState::Search(search) => {
                let lead = &search.lead;
                let model = if lead.config == self.chosen {
                    lead.config.to_string()
                } else {
                    format!("{}, race partner of {}", lead.config, self.chosen)
                };
                (
                    lead.encoding.vars,
                    lead.encoding.clauses,
                    model,
                    Some(search.retired_conflicts + lead.conflicts()),
                )
            }
            EngineState::Decided(_) => (
                0,
                0,
                format!("{}, decided by pre-solving", self.chosen),
                None,
            ),
            EngineState::Searched { nodes, .. } => {
                (0, 0, format!("native search, {nodes} nodes"), None)
            }
            EngineState::TimedOut => (0, 0, self.chosen.to_string(), None),
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

    #[test]
    fn partners_differ_from_the_chosen_configuration() {
        for &model in Model::ALL {
            for &card in CardKind::ALL {
                let lead = Configuration { model, card };
                assert_ne!(partner(lead), lead);
            }
        }
    }
}
