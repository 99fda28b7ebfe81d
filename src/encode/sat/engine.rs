//! The SAT engine: pre-solves a puzzle, lets the native search ([`crate::reason::search`]) try
//! it within [`NATIVE_NODES`] nodes, and otherwise encodes what is left straight into a solver
//! (a [`crate::solver::Solve`] with an [`crate::solver::Interrupt`] and a
//! [`crate::solver::LimitConflicts`]), solves, decodes each model into a [`Grid`], and blocks it
//! so that the next call finds another solution. Grids the native search found are blocked in
//! the solver before it starts.
//!
//! **Hard questions: stages and the portfolio.** Each call first runs the chosen configuration
//! (the lead) alone for [`SOLO_CONFLICTS`] conflicts, which settles almost every puzzle a person
//! makes (on boards of [`LARGE_BOARD_CELLS`] or more, the first stage leads instead). A call
//! that needs more is a hard question, and goes through the [`stages`]: the
//! [`specialist`] (CaDiCaL in stable mode, placement model with totalizers) on the formula
//! pre-solving left, within its conflicts, then on the whole encoding, where it stays the lead.
//! With more threads, further members of the [`portfolio`] (the specialist with other seeds and
//! modes) run beside that last stage, one a thread, to prove UNSAT sooner:
//!
//! - an UNSAT answer is a fact, whoever gives it: the first stops the others at once;
//! - a SAT answer (a grid) counts only from the specialist, which stops the others.
//!
//! Every switch happens at a conflict count, the other members are dropped after each call, and
//! the last stage is never stopped before its answer, so the grids printed never depend on
//! timing, the machine's load or the number of threads; verdicts and counts are facts.
//! `--no-race` keeps the chosen configuration for every call.

use super::card::CardKind;
use super::instance::{Encoding, Instance};
use super::model::Model;
pub use super::portfolio::{Configuration, Member, default_threads, portfolio, specialist, stages};
use super::redundant::Redundant;
use crate::model::deadline::{Budget, Deadline, TimeLimit};
use crate::model::lit::Lit;
use crate::model::outcome::{Engine, SolveError, SolvedBy, Stats};
use crate::model::placement::Placements;
use crate::model::puzzle::{Grid, Puzzle};
use crate::reason::deduce::{Contradiction, Effort, Knowledge, deduce};
use crate::reason::search::{End, search};
use crate::solver::sink::Timed;
use crate::solver::{self, Incremental, SolverError, SolverKind, Tuning};
use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

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
    /// The deadline passed while the puzzle was being prepared.
    TimedOut,
    /// The chosen solver is not linked into this build (or could not be built).
    NoSolver(SolverError),
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
    fn encode(self) -> Result<Search, Unbuilt> {
        let config = &self.config;
        let shape = self.puzzle.shape();
        let lead = if config.race && shape.rows * shape.cols >= LARGE_BOARD_CELLS {
            stages()[0].0
        } else {
            Member {
                config: self.chosen,
                solver: config.solver,
                tuning: Tuning::default(),
                presolved: true,
            }
        };
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
        };
        search.lead = Some(Racer::new(lead, &mut search)?);
        Ok(search)
    }
}

/// The puzzle being searched, and what a new member of the portfolio needs to be built in the
/// middle of an enumeration.
struct Search {
    puzzle: Puzzle,
    /// The placements pre-solving left.
    placements: Placements,
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
}

/// Why a member's solver was not built.
enum Unbuilt {
    /// The deadline passed while encoding.
    TimeLimit,
    /// The solver could not be made (not linked into this build).
    Solver(SolverError),
}

impl From<Unbuilt> for SolveError {
    fn from(unbuilt: Unbuilt) -> Self {
        match unbuilt {
            Unbuilt::TimeLimit => SolveError::TimeLimit,
            Unbuilt::Solver(e) => SolveError::failed(e),
        }
    }
}

impl From<Unbuilt> for EngineState {
    fn from(unbuilt: Unbuilt) -> Self {
        match unbuilt {
            Unbuilt::TimeLimit => EngineState::TimedOut,
            Unbuilt::Solver(e) => EngineState::NoSolver(e),
        }
    }
}

/// One member's solver.
struct Racer {
    member: Member,
    solver: Box<dyn Incremental>,
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
    /// Builds `member`'s solver for `search`, with every grid found so far blocked.
    fn new(member: Member, search: &mut Search) -> Result<Self, Unbuilt> {
        let mut solver = member
            .solver
            .new_tuned(member.tuning)
            .map_err(Unbuilt::Solver)?;
        let (placements, knowledge) = if member.presolved {
            (&search.placements, search.knowledge.as_ref())
        } else {
            let whole = match search.whole.take() {
                Some(whole) => whole,
                None => Placements::within(&search.puzzle, &search.deadline)
                    .map_err(|TimeLimit| Unbuilt::TimeLimit)?,
            };
            (&*search.whole.insert(whole), None)
        };
        solver.set_interrupt(search.stop.clone());
        let instance = Instance {
            puzzle: &search.puzzle,
            placements,
            knowledge,
            card: member.config.card,
        };
        let mut sink = Timed::new(solver.as_mut(), search.deadline.clone());
        let encoding = member.config.model.encode(&instance, &mut sink);
        let encoding = super::redundant::encode(&instance, encoding, search.redundant, &mut sink);
        if let Err(TimeLimit) = sink.finish() {
            // Freeing a large solver takes a while: not on the caller's time.
            search.deadline.discard(solver);
            return Err(Unbuilt::TimeLimit);
        }
        let limit = Arc::new(AtomicU64::new(u64::MAX));
        solver.set_conflict_limit(Some(limit.clone()));
        let mut racer = Racer {
            member,
            solver,
            encoding,
            limit,
        };
        for ship in &search.found {
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
        let answer = self.solver.solve().map_err(SolveError::failed)?;
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

    /// Runs as member `me` of a race whose members' limits are `limits`: an UNSAT answer, or
    /// any answer of the first member, stops every other member at once. The other members'
    /// SAT answers do not count (the first member's grid is the one printed).
    fn race(&mut self, me: usize, limits: &[Arc<AtomicU64>]) -> Result<CallAnswer, SolveError> {
        let answer = match self.solve() {
            Ok(answer) => answer,
            Err(e) => {
                // Nobody else can give the first member's answer.
                if me == 0 {
                    limits.iter().for_each(|l| l.store(0, Ordering::Relaxed));
                }
                return Err(e);
            }
        };
        let decides = match answer {
            CallAnswer::Stopped => false,
            CallAnswer::Unsat => true,
            CallAnswer::Sat(_) => me == 0,
        };
        if decides {
            for (other, limit) in limits.iter().enumerate() {
                if other != me {
                    limit.store(0, Ordering::Relaxed);
                }
            }
        }
        Ok(answer)
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
        let prepared = Prepared {
            puzzle: puzzle.clone(),
            placements,
            knowledge,
            config: config.clone(),
            chosen,
            found: Vec::new(),
        };
        if config.native == 0 {
            return Ok(prepared.encode().map_or_else(EngineState::from, |search| {
                EngineState::Search(Box::new(search))
            }));
        }
        let budget = Budget {
            nodes: Some(
                config
                    .budget
                    .nodes
                    .map_or(config.native, |n| n.min(config.native)),
            ),
            ..config.budget.clone()
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
    fn lead(&mut self) -> &mut Racer {
        self.lead.as_mut().expect("a lead between calls")
    }

    /// One call's answer: the lead alone, then (with `race`) the later [`stages`], each
    /// within its conflicts, and last the [`portfolio`].
    fn answer(&mut self) -> Result<CallAnswer, SolveError> {
        let members = portfolio(self.threads);
        // Each stage before the last runs alone within its conflicts; the whole-encoding
        // specialist, once it leads, is never stopped before its answer (a stop and a restart
        // would change the grid it finds), so that its grids are the same with any number of
        // threads.
        let stages = stages();
        while !self.race || self.lead().member != members[0] {
            let race = self.race;
            let lead = self.lead();
            let stage = stages.iter().position(|(member, _)| *member == lead.member);
            let budget = match stage {
                _ if !race => u64::MAX,
                Some(stage) => stages[stage].1,
                None => SOLO_CONFLICTS,
            };
            let answer = lead.run(lead.conflicts().saturating_add(budget))?;
            let stopped = self
                .stop
                .as_ref()
                .is_some_and(|s| s.load(Ordering::Relaxed));
            if !matches!(answer, CallAnswer::Stopped) || stopped {
                return Ok(answer);
            }
            // The next stage takes over (the last stage is the portfolio's first member, which
            // ends the loop).
            let (member, _) = stages[stage.map_or(0, |stage| stage + 1)];
            let racer = Racer::new(member, self)?;
            let retired = self.lead.replace(racer).map_or(0, |r| r.conflicts());
            self.retired_conflicts += retired;
        }
        // A hard question for the last stage, the portfolio's first member, and the rest of the
        // portfolio beside it.
        let lead = self.lead.take().expect("a lead between calls");
        let mut racers = Vec::with_capacity(members.len());
        racers.push(lead);
        for &member in &members[1..] {
            match Racer::new(member, self) {
                Ok(racer) => racers.push(racer),
                Err(unbuilt) => {
                    self.lead = racers.into_iter().next();
                    return Err(unbuilt.into());
                }
            }
        }
        let answer = if racers.len() == 1 {
            let only = &mut racers[0];
            only.limit.store(u64::MAX, Ordering::Relaxed);
            only.solve()
        } else {
            Search::race(&mut racers)
        };
        let mut racers = racers.into_iter();
        self.lead = racers.next();
        self.retired_conflicts += racers.map(|r| r.conflicts()).sum::<u64>();
        answer
    }

    /// Runs every racer on its own thread, with every limit lifted first: the answer is the
    /// first racer's, or an UNSAT answer of any (see [`Racer::race`]).
    fn race(racers: &mut [Racer]) -> Result<CallAnswer, SolveError> {
        let limits: Vec<Arc<AtomicU64>> = racers.iter().map(|r| r.limit.clone()).collect();
        for limit in &limits {
            limit.store(u64::MAX, Ordering::Relaxed);
        }
        let limits = &limits;
        let answers: Vec<Result<CallAnswer, SolveError>> = std::thread::scope(|s| {
            let handles: Vec<_> = racers
                .iter_mut()
                .enumerate()
                .map(|(me, racer)| s.spawn(move || racer.race(me, limits)))
                .collect();
            handles
                .into_iter()
                .map(|h| {
                    h.join().unwrap_or_else(|_| {
                        Err(SolveError::Solver {
                            message: "a racing solver thread panicked".into(),
                        })
                    })
                })
                .collect()
        });
        let mut first = None;
        for (me, answer) in answers.into_iter().enumerate() {
            match answer {
                Ok(CallAnswer::Unsat) => return Ok(CallAnswer::Unsat),
                answer if me == 0 => first = Some(answer),
                _ => {}
            }
        }
        first.unwrap_or(Ok(CallAnswer::Stopped))
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
                Err(unbuilt) => unbuilt.into(),
            };
        }
        let search = match &mut self.state {
            EngineState::Decided(grid) => return Ok(grid.take()),
            EngineState::TimedOut => return Err(SolveError::TimeLimit),
            EngineState::NoSolver(e) => return Err(SolveError::failed(e.clone())),
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
                        member: lead.member.to_string(),
                        chosen,
                    }
                };
                (
                    lead.encoding.vars,
                    lead.encoding.clauses,
                    model,
                    Some(search.retired_conflicts + lead.conflicts()),
                )
            }
            EngineState::Decided(_) => (0, 0, SolvedBy::Presolving(chosen), None),
            EngineState::Searched { nodes, .. } => {
                (0, 0, SolvedBy::NativeSearch { nodes: *nodes }, None)
            }
            EngineState::TimedOut | EngineState::NoSolver(_) => (0, 0, SolvedBy::Sat(chosen), None),
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
