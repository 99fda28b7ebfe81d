//! The SAT engine: pre-solves a puzzle, lets the native search ([`crate::reason::search`]) try
//! it within [`NATIVE_NODES`] nodes, and otherwise encodes what is left straight into a solver
//! (a [`crate::solver::Solve`] with an [`crate::solver::Interrupt`] and a
//! [`crate::solver::LimitConflicts`]), solves, decodes each model into a [`Grid`], and blocks it
//! so that the next call finds another solution. Grids the native search found are blocked in
//! the solver before it starts. On large boards with two or more threads, the helpers of the
//! first call search beside the native search, and the lead starts once it found nothing (see
//! `SatEngine::race_native`), so the answers are those of the search first, then the solver.
//! There the native search goes on past its budget, up to `NATIVE_PAST_NODES`, on its own
//! thread, while the last helper waits for it: once it has found every solution, the one left
//! (or none) is a fact that answers a call, as a helper's does. The engine owns that thread:
//! dropping the engine stops the search and joins it. A board whose placements cover more than
//! `SOLO_COVER` cells runs one member: each would load its own copy of a formula that large.
//!
//! **Hard questions: stages and the portfolio.** Each call first runs the chosen configuration
//! (the lead) alone for `SOLO_CONFLICTS` conflicts, which settles almost every puzzle a person
//! makes (on boards of `LARGE_BOARD_CELLS` or more, the first stage leads instead). A call
//! that needs more is a hard question, and goes through the [`stages`]: the
//! [`specialist`] (CaDiCaL in stable mode, placement model with totalizers) on the formula
//! pre-solving left, within its conflicts, then on the whole encoding, where it stays the lead.
//! With more threads, the other members of the [`portfolio`] (the whole encoding in CaDiCaL's
//! default configuration, further seeds and modes) run beside the lead, one a thread, from the
//! moment a call is hard (at once, when the lead is a stage). The lead on the whole encoding
//! hands the short clauses it learns to the helpers of its formula, and takes none back, so
//! that its own search stays the same with any number of threads. Each helper blocks the
//! grids it finds, and decides the call only when what is left is a fact:
//!
//! - its formula is UNSAT with no grid of its own: no solution is left;
//! - its formula is UNSAT with one grid of its own that the lead has not returned: that grid is
//!   the only one left, the call's answer and the last.
//!
//! Otherwise the lead's answer counts, and a grid it returns is blocked in (or dropped from)
//! every helper. Every switch of the lead happens at a conflict count and the last stage is
//! never stopped before its answer but by a helper's fact, so the grids printed never depend on
//! timing, the machine's load or the number of threads; verdicts and counts are facts.
//! `--no-race` keeps the chosen configuration for every call.

use super::card::CardKind;
use super::decision::{Decision, Fact};
use super::model::Model;
use super::portfolio::SHARED_LENGTH;
pub use super::portfolio::{
    Configuration, MAX_THREADS, Member, default_threads, portfolio, specialist, stages,
    usable_threads,
};
use super::racer::{
    CallAnswer, Ground, Helper, HelperSeed, NativeGate, NativeHold, Racer, Unbuilt, leaves_open,
};
use super::redundant::Redundant;
use super::schedule::{Schedule, Site};
use crate::model::deadline::{Budget, Deadline, TimeLimit};
use crate::model::outcome::{Engine, SolveError, SolvedBy, Stats};
use crate::model::placement::Placements;
use crate::model::puzzle::{Grid, Puzzle};
use crate::reason::deduce::{Contradiction, Effort, Knowledge, deduce};
use crate::reason::search::{End, Past, Searched, search, search_past};
use crate::solver::{LearntPool, SolverError, SolverKind};
use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

mod native_search;
mod race;

/// Conflicts the chosen configuration gets alone, per call, before the call counts as a hard
/// question and goes to the [`stages`]. A Rubin board needs a median of 141 for its two calls
/// (solution and uniqueness) and at most 873, so none of its calls is hard; the hard solbat
/// files pass this budget early.
pub(crate) const SOLO_CONFLICTS: u64 = 2_000;

/// Boards of at least this many cells (20x20) skip the chosen configuration's solo phase when
/// racing: a question the native search leaves open there goes straight to the first of the
/// [`stages`]. Measured (`docs/encodings.md`): that stage answers such questions faster than
/// the cell model with sequential counters on the generated 20x20 and 30x30 sets and on
/// `puzzles/hard` (0.93, 0.76 and 0.94 of the time), while on the solbat boards (12x12 to 15x15)
/// it is 1.4-1.6 times slower, so smaller boards keep the solo phase.
pub(crate) const LARGE_BOARD_CELLS: usize = 400;

/// Branch nodes the native search gets before the solver takes over (about 0.1 s on a 25x25
/// board). On the tuning half of `puzzles/hard/` the native search proves 8 of the 12 exactly
/// minimal 25x25 boards unique within 13,000 nodes and needs 150,000 or more on the others
/// (`docs/benchmarks/2026-11-25-issue-22-hard-boards-second-session.md`).
pub const NATIVE_NODES: u64 = 20_000;

/// Branch nodes the native search beside the solvers may visit in all, past its budget of
/// [`NATIVE_NODES`] (see [`SatEngine::race_native`]). Its findings within the budget answer the
/// first call as before; what it finds past it counts only as a fact (every solution found),
/// which decides a call as a helper's does. Many hard questions need 22,000-90,000 nodes
/// (0.05-0.2 s), where CDCL needs 0.15-0.6 s; the boards it does not settle pay with the last
/// helper's later start, which waits for the search (session 49, `docs/encodings.md`).
const NATIVE_PAST_NODES: u64 = 100_000;

/// Placement cells (the sum of the placements' lengths, [`Placements::cover_len`]) above which
/// a call has one member, whatever the thread count: the formula grows with them, and each
/// member holds its own copy. On the open 100x100 board with one ship of every length (3.4 *
/// 10^7), a second member took the peak at a 5 s limit from 0.51 to 1.27 GB, and the native
/// search beside them made the call overrun its limit. The largest boards of `puzzles/` and
/// the tests (200x200, standard fleet) have under 10^6, and keep their helpers.
const SOLO_COVER: usize = 4_000_000;

/// How long the native search runs alone before the lead is built and the helpers start beside
/// it (on the boards where they do). Work beside the search slows it (on a 2-core machine, by
/// 20-30 %), and a search that settles the call wastes that work: with 25 ms instead of 10, the
/// generated 30x30 boards the search settles in 10-25 ms take 15-25 % less time whole process,
/// while the hard boards a helper answers take 0-3 % more (session 48). Most generated 20x20
/// boards take the search under 5 ms.
const NATIVE_HEAD_START: Duration = Duration::from_millis(25);

/// How the SAT engine works.
#[derive(Clone, Debug)]
pub(crate) struct SatConfig {
    /// The CNF model.
    pub model: Model,
    /// The cardinality encoding.
    pub card: CardKind,
    /// The SAT solver.
    pub solver: SolverKind,
    /// Give calls that need more than [`SOLO_CONFLICTS`] to the [`portfolio`]; otherwise the
    /// chosen configuration answers every call alone.
    pub race: bool,
    /// Threads of a hard question's portfolio (at least 1).
    pub threads: usize,
    /// Pre-solve with [`crate::reason::deduce`] and encode only what is left open.
    pub presolve: bool,
    /// After pre-solving, the native search looks for `limit` solutions within this many
    /// branch nodes before a solver is built (0: not at all).
    pub native: u64,
    /// How many solutions the caller will ask for (what the native search looks for).
    pub limit: usize,
    /// Redundant constraints added to every configuration's encoding.
    pub redundant: Redundant,
    /// What the call may spend: placement enumeration, pre-solving and encoding give up once
    /// its deadline passes (the engine then answers [`SolveError::TimeLimit`]), and its stop flag
    /// stops every solver. Its node cap, if any, bounds the native search below
    /// [`SatConfig::native`].
    pub budget: Budget,
    /// How the members of a call are scheduled (hostile in the engine's tests).
    pub schedule: Schedule,
}

/// A puzzle loaded into a SAT solver, ready to enumerate its solutions.
pub(crate) struct SatEngine {
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
    /// The native search and the first call's helpers, side by side, are still to run.
    Pending(Box<Prepared>),
    /// The deadline passed while the puzzle was being prepared.
    TimedOut,
    /// The chosen solver is not linked into this build (or could not be built).
    NoSolver(SolverError),
}

/// A pre-solved puzzle, ready to be encoded.
#[derive(Clone)]
struct Prepared {
    puzzle: Puzzle,
    placements: Arc<Placements>,
    knowledge: Option<Knowledge>,
    config: SatConfig,
    chosen: Configuration,
    /// Ship cells of the grids found before the solver starts.
    found: Vec<Vec<bool>>,
    /// The native search past its budget, beside the solvers.
    native: Option<Arc<NativeHold>>,
}

impl Prepared {
    /// Builds the lead solver, with every grid found so far blocked. Beside the native search
    /// (`gate`), the build gives up once the search settles the call.
    fn encode(self, gate: Option<&NativeGate>) -> Result<Search, Unbuilt> {
        let config = &self.config;
        let shape = self.puzzle.shape();
        let solo = Member::solo(self.chosen, config.solver);
        let lead = if config.race && shape.rows * shape.cols >= LARGE_BOARD_CELLS {
            stages()[0].0
        } else {
            solo
        };
        let solo_helper = (lead != solo && !self.found.is_empty()).then_some(solo);
        let mut search = Search {
            puzzle: self.puzzle,
            placements: self.placements,
            whole: None,
            knowledge: self.knowledge,
            lead: None,
            found: self.found,
            retired_conflicts: 0,
            race: config.race,
            threads: config.threads.max(1),
            stop: config.budget.stop().cloned(),
            deadline: config.budget.deadline.clone(),
            redundant: config.redundant,
            helpers: Vec::new(),
            exhausted: false,
            learnt: Arc::default(),
            solo_helper,
            native: self.native,
            schedule: config.schedule.clone(),
        };
        let deadline = search.deadline.clone();
        if let Some(gate) = gate {
            search.deadline = gate.or_settled(&deadline);
        }
        let built = search.racer(lead);
        search.deadline = deadline;
        search.lead = Some(built?);
        Ok(search)
    }
}

/// The puzzle being searched, and what a new member of the portfolio needs to be built in the
/// middle of an enumeration.
struct Search {
    puzzle: Puzzle,
    /// The placements pre-solving left.
    placements: Arc<Placements>,
    /// Every placement the clues allow, for members that encode the whole puzzle (built on the
    /// first hard question).
    whole: Option<Placements>,
    knowledge: Option<Knowledge>,
    /// The solver that runs alone at the start of each call (always `Some` between calls).
    lead: Option<Racer>,
    /// Ship cells of every solution returned so far (each blocked in every solver).
    found: Vec<Vec<bool>>,
    /// Conflicts of dropped solvers.
    retired_conflicts: u64,
    /// Whether hard calls go to the portfolio (see [`SOLO_CONFLICTS`]).
    race: bool,
    /// Threads of the portfolio.
    threads: usize,
    /// Stops every solver of this search once set.
    stop: Option<Arc<AtomicBool>>,
    /// Encoding a new member gives up once it passes.
    deadline: Deadline,
    /// Redundant constraints of every configuration.
    redundant: Redundant,
    /// The other members of the [`portfolio`], beside the lead on hard questions (built on the
    /// first, kept between calls).
    helpers: Vec<Helper>,
    /// A helper proved that no solution is left beyond those returned.
    exhausted: bool,
    /// What the [`specialist`] learns as the lead, for the helpers of its formula.
    learnt: Arc<LearntPool>,
    /// The first helper, in place of the portfolio's: the chosen configuration on the
    /// pre-solved formula, when the native search found a grid on a large board.
    solo_helper: Option<Member>,
    /// The native search past its budget: once it has found every solution, a fact for the
    /// call ([`NativeGate::fact`]).
    native: Option<Arc<NativeHold>>,
    /// How the members of each call are scheduled.
    schedule: Schedule,
}

impl From<Unbuilt> for EngineState {
    fn from(unbuilt: Unbuilt) -> Self {
        match unbuilt {
            Unbuilt::TimeLimit => EngineState::TimedOut,
            Unbuilt::Solver(e) => EngineState::NoSolver(e),
        }
    }
}

impl Search {
    /// Builds `member`'s solver for this search, with every grid found so far blocked.
    fn racer(&mut self, member: Member) -> Result<Racer, Unbuilt> {
        if !member.presolved && self.whole.is_none() {
            let whole = Placements::within(&self.puzzle, &self.deadline)
                .map_err(|TimeLimit| Unbuilt::TimeLimit)?;
            self.whole = Some(whole);
        }
        let (placements, knowledge) = match &self.whole {
            Some(whole) if !member.presolved => (whole, None),
            _ => (&*self.placements, self.knowledge.as_ref()),
        };
        let ground = Ground {
            puzzle: &self.puzzle,
            placements,
            knowledge,
            stop: self.stop.clone(),
            deadline: &self.deadline,
            redundant: self.redundant,
            found: &self.found,
        };
        Racer::build(member, &ground)
    }
}

impl SatEngine {
    /// Pre-solves `puzzle` (unless `config.presolve` is off), then encodes what is left with
    /// `config.model` and `config.card`; with `config.race`, calls that need more than
    /// [`SOLO_CONFLICTS`] conflicts go to the [`stages`] and the [`portfolio`].
    pub(crate) fn new(puzzle: &Puzzle, config: &SatConfig) -> Self {
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

    /// Enumerates the placements, pre-solves and encodes, within `config.budget`.
    fn prepare(
        puzzle: &Puzzle,
        config: &SatConfig,
        chosen: Configuration,
    ) -> Result<EngineState, TimeLimit> {
        let shape = puzzle.shape();
        let mut placements = Placements::within(puzzle, &config.budget.deadline)?;
        let knowledge = if config.presolve {
            match deduce(
                puzzle,
                &mut placements,
                Effort::Rules,
                &Budget::until(config.budget.deadline.clone()),
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
        let mut config = config.clone();
        if placements.cover_len() > SOLO_COVER {
            // One member: each would hold its own copy of a formula this large.
            config.threads = 1;
        }
        let prepared = Prepared {
            puzzle: puzzle.clone(),
            placements: Arc::new(placements),
            knowledge,
            config,
            chosen,
            found: Vec::new(),
            native: None,
        };
        if prepared.config.native == 0 {
            return Ok(prepared
                .encode(None)
                .map_or_else(EngineState::from, |search| {
                    EngineState::Search(Box::new(search))
                }));
        }
        if prepared.races_native() {
            return Ok(EngineState::Pending(Box::new(prepared)));
        }
        let start = Instant::now();
        let found = prepared.native_search();
        prepared.searched(found, start.elapsed())
    }
}

impl Engine for SatEngine {
    fn next_solution(&mut self) -> Result<Option<Grid>, SolveError> {
        let start = Instant::now();
        let mut raced = None;
        if matches!(self.state, EngineState::Pending(_)) {
            let EngineState::Pending(prepared) =
                std::mem::replace(&mut self.state, EngineState::TimedOut)
            else {
                unreachable!("the state was pending")
            };
            let (state, answer) = Self::race_native(*prepared);
            self.state = state;
            raced = answer;
            if raced.is_none() {
                self.solve_time += start.elapsed();
            }
        }
        if let EngineState::Searched {
            grids, rest, nodes, ..
        } = &mut self.state
        {
            if let Some(grid) = grids.pop_front() {
                return Ok(Some(grid));
            }
            let Some(prepared) = rest.take() else {
                return Ok(None);
            };
            // The native search, past its budget, may have found every solution meanwhile.
            if let Some(native) = &prepared.native
                && let Some(fact) = native.0.fact(&prepared.found)
            {
                *nodes = native.0.nodes();
                let Fact::Only(ship) = fact else {
                    return Ok(None);
                };
                let grid = Grid::from_ship_cells(self.shape.rows, self.shape.cols, &ship)
                    .ok_or(SolveError::Decode)?;
                return Ok(Some(grid));
            }
            self.state = match prepared.encode(None) {
                Ok(search) => EngineState::Search(Box::new(search)),
                Err(unbuilt) => unbuilt.into(),
            };
        }
        let search = match &mut self.state {
            EngineState::Decided(grid) => return Ok(grid.take()),
            EngineState::TimedOut => return Err(SolveError::TimeLimit),
            EngineState::NoSolver(e) => return Err(SolveError::failed(e.clone())),
            EngineState::Searched { .. } | EngineState::Pending(_) => {
                unreachable!("the native search ran and its grids were handed out")
            }
            EngineState::Search(search) => search,
        };
        let answer = raced.unwrap_or_else(|| search.answer(None));
        self.solve_time += start.elapsed();
        self.calls += 1;
        let ship = match answer? {
            CallAnswer::Sat(ship) => ship,
            CallAnswer::Unsat => return Ok(None),
            CallAnswer::Stopped => return Err(SolveError::Interrupted),
        };
        search.lead().block(&ship);
        let grid = Grid::from_ship_cells(self.shape.rows, self.shape.cols, &ship)
            .ok_or(SolveError::Decode)?;
        search.found.push(ship);
        Ok(Some(grid))
    }

    fn stats(&self) -> Stats {
        let chosen = self.chosen.setup();
        let (variables, constraints, model, conflicts) = match &self.state {
            EngineState::Search(search) => {
                let lead = search.lead.as_ref().expect("a lead between calls");
                let model = if lead.member.config == self.chosen && lead.member.presolved {
                    SolvedBy::Sat(chosen)
                } else {
                    SolvedBy::Member {
                        member: lead.member.into(),
                        chosen,
                    }
                };
                (
                    lead.encoding.vars,
                    lead.encoding.clauses,
                    model,
                    Some(
                        search.retired_conflicts
                            + lead.conflicts()
                            + search
                                .helpers
                                .iter()
                                .map(|h| h.racer.conflicts())
                                .sum::<u64>(),
                    ),
                )
            }
            EngineState::Decided(_) => (0, 0, SolvedBy::Presolving(chosen), None),
            EngineState::Searched { nodes, .. } => {
                (0, 0, SolvedBy::NativeSearch { nodes: *nodes }, None)
            }
            EngineState::Pending(_) | EngineState::TimedOut | EngineState::NoSolver(_) => {
                (0, 0, SolvedBy::Sat(chosen), None)
            }
        };
        Stats {
            backend: crate::model::setup::Backend::Sat,
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
mod hostile;
#[cfg(test)]
mod tests;
