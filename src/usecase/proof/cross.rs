//! The cross-check: the cell, placement and ILP models on one uniqueness question, each leg
//! within its budget, agreement, disagreement or unconfirmed.

use crate::encode::sat::card::CardKind;
use crate::encode::sat::model::Model;
use crate::model::deadline::Budget;
use crate::model::puzzle::{Grid, Puzzle};
use crate::usecase::compare::Config;
use crate::usecase::solve::{Outcome, SolveError};
use std::fmt;
use std::time::Duration;

/// What one leg of a [`cross_check`] came to.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Leg {
    /// It answered the uniqueness question within its budget.
    Answered(Outcome),
    /// Its budget ran out first; these grids (verified, possibly none) were found by then.
    Unconfirmed(Vec<Grid>),
    /// It failed: a solver error, or a grid the verifier rejected.
    Failed(String),
}

/// One engine's verdict in a [`cross_check`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The configuration's name (as `compare` names it).
    pub config: String,
    /// The solver that answered for it (`varisat`, `microlp`, `highs`, ...).
    pub solver: String,
    /// What it came to.
    pub leg: Leg,
}

/// How a leg stands against the reference leg (the first that answered).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Standing {
    /// Same verdict and, for one solution, the same grid (the reference agrees with itself).
    Agrees,
    /// Another verdict or grid, or a failure; the text says what the leg says.
    Disagrees(String),
    /// No answer within the budget, and nothing found by then contradicts the reference.
    Unconfirmed,
}

/// Counts of a [`CrossCheck`]'s legs by [`Standing`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LegTally {
    /// Legs that agree with the reference, the reference included.
    pub agree: usize,
    /// Legs that disagree or failed.
    pub disagree: usize,
    /// Legs that did not answer within their budget.
    pub unconfirmed: usize,
}

impl fmt::Display for LegTally {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} agree, {} disagree, {} unconfirmed",
            self.agree, self.disagree, self.unconfirmed
        )
    }
}

/// Independent engines on one uniqueness question.
#[derive(Clone, Debug)]
pub struct CrossCheck {
    /// One verdict per configuration, in order.
    pub verdicts: Vec<Verdict>,
    /// Each leg's budget (none: unlimited).
    pub budget: Option<Duration>,
}

impl CrossCheck {
    /// The verdict others are held against: the first leg that answered.
    fn reference(&self) -> Option<&Verdict> {
        self.verdicts
            .iter()
            .find(|v| matches!(v.leg, Leg::Answered(_)))
    }

    /// How each leg stands against the reference, in order. Without a reference (no leg
    /// answered) a failed leg disagrees and the others are unconfirmed.
    pub fn standings(&self) -> Vec<Standing> {
        let reference = self.reference();
        self.verdicts
            .iter()
            .map(|v| standing(v, reference))
            .collect()
    }

    /// The counts of [`CrossCheck::standings`]. An unconfirmed leg is never counted as agreeing.
    pub fn tally(&self) -> LegTally {
        let mut tally = LegTally::default();
        for s in self.standings() {
            match s {
                Standing::Agrees => tally.agree += 1,
                Standing::Disagrees(_) => tally.disagree += 1,
                Standing::Unconfirmed => tally.unconfirmed += 1,
            }
        }
        tally
    }

    /// The first leg that disagrees with the reference (or failed), with a message naming it;
    /// `None` when no leg does (some may be unconfirmed: see [`CrossCheck::unconfirmed`]).
    pub fn disagreement(&self) -> Option<String> {
        let reference = self.reference();
        self.verdicts
            .iter()
            .zip(self.standings())
            .find_map(|(v, s)| match s {
                Standing::Disagrees(says) => Some(match reference {
                    Some(r) => format!(
                        "{} disagrees with {}: {says}, where {} says {}",
                        v.config,
                        r.config,
                        r.config,
                        describe(&r.leg)
                    ),
                    None => format!("{}: {says}", v.config),
                }),
                _ => None,
            })
    }

    /// One line per leg that did not answer within its budget: "ilp/ship (microlp): not
    /// confirmed within 10 s".
    pub fn unconfirmed(&self) -> Vec<String> {
        self.verdicts
            .iter()
            .zip(self.standings())
            .filter(|(_, s)| *s == Standing::Unconfirmed)
            .map(|(v, _)| {
                let within = self
                    .budget
                    .map_or(String::new(), |b| format!(" within {} s", b.as_secs_f64()));
                format!("{} ({}): not confirmed{within}", v.config, v.solver)
            })
            .collect()
    }
}

/// What a leg says, in words.
pub(super) fn describe(leg: &Leg) -> String {
    match leg {
        Leg::Answered(Outcome::Unsat) => "no solution".to_string(),
        Leg::Answered(Outcome::Unique(_)) => "unique".to_string(),
        Leg::Answered(Outcome::Found(_)) => "found".to_string(),
        Leg::Answered(Outcome::Multiple { grids, complete }) => format!(
            "not unique ({}{} solutions)",
            if *complete { "" } else { "at least " },
            grids.len()
        ),
        Leg::Unconfirmed(found) => format!("no answer in time ({} grid(s) found)", found.len()),
        Leg::Failed(e) => format!("failed: {e}"),
    }
}

/// How `leg` stands against `reference`.
pub(super) fn standing(leg: &Verdict, reference: Option<&Verdict>) -> Standing {
    let answer = match reference.map(|r| &r.leg) {
        Some(Leg::Answered(o)) => Some(o),
        _ => None,
    };
    match (&leg.leg, answer) {
        (Leg::Failed(_), _) => Standing::Disagrees(describe(&leg.leg)),
        (Leg::Unconfirmed(found), Some(answer)) => {
            // A grid found in time contradicts "no solution" and any other unique grid.
            let contradicts = match answer {
                Outcome::Unsat => !found.is_empty(),
                Outcome::Unique(g) => found.iter().any(|f| f != g),
                _ => false,
            };
            if contradicts {
                Standing::Disagrees(format!(
                    "a solution {}found before its budget ran out",
                    if matches!(answer, Outcome::Unique(_)) {
                        "with another grid "
                    } else {
                        ""
                    }
                ))
            } else {
                Standing::Unconfirmed
            }
        }
        (Leg::Unconfirmed(_), None) => Standing::Unconfirmed,
        (Leg::Answered(o), Some(answer)) => {
            // Two "not unique" verdicts agree whatever grids and counts they found.
            let key = |o: &Outcome| match o {
                Outcome::Multiple { .. } => None,
                o => Some((std::mem::discriminant(o), o.grid().cloned())),
            };
            if key(o) == key(answer) {
                Standing::Agrees
            } else if std::mem::discriminant(o) == std::mem::discriminant(answer) {
                Standing::Disagrees(format!("{} with another grid", describe(&leg.leg)))
            } else {
                Standing::Disagrees(describe(&leg.leg))
            }
        }
        (Leg::Answered(_), None) => unreachable!("an answered leg is a reference"),
    }
}

/// The budget of each `--cross-check` leg when none is given: ten seconds.
pub const LEG_BUDGET: Duration = Duration::from_secs(10);

/// The configurations `--cross-check` runs: the cell model, the placement model (both SAT,
/// with `card`, no race partner) and the ILP ship model, each proving uniqueness. The ILP leg
/// uses HiGHS when the build links it (cargo feature `highs`), else microlp.
pub fn cross_configs(card: CardKind) -> Vec<Config> {
    use crate::encode::ilp::IlpSolver;
    use crate::usecase::solve::{Backend, SolveOptions};
    let sat = |model| SolveOptions {
        model,
        card,
        race: false,
        ..SolveOptions::unique()
    };
    let ilp_solver = if IlpSolver::Highs.is_available() {
        IlpSolver::Highs
    } else {
        IlpSolver::Microlp
    };
    vec![
        Config::from_options(sat(Model::Cell)),
        Config::from_options(sat(Model::Placement)),
        Config::from_options(SolveOptions {
            backend: Backend::Ilp,
            ilp_solver,
            ..SolveOptions::unique()
        }),
    ]
}

/// Runs each of `configs` on `puzzle`, looking for two solutions, each within `budget` (none:
/// no limit), and collects the verdicts (every grid verified). A leg whose budget runs out is
/// [`Leg::Unconfirmed`], never an agreement.
pub fn cross_check(puzzle: &Puzzle, configs: &[Config], budget: Option<Duration>) -> CrossCheck {
    CrossCheck {
        verdicts: configs
            .iter()
            .map(|config| Verdict {
                config: config.name.clone(),
                solver: config.solver.clone(),
                leg: match config.run(puzzle, 2, &Budget::within(budget)) {
                    Ok(report) if report.stop.is_some() => {
                        Leg::Unconfirmed(report.outcome.grids().into_iter().cloned().collect())
                    }
                    Ok(report) => Leg::Answered(report.outcome),
                    Err(SolveError::TimeLimit) => Leg::Unconfirmed(Vec::new()),
                    Err(e) => Leg::Failed(e.to_string()),
                },
            })
            .collect(),
        budget,
    }
}
