//! The self-play job: [`SimulateJob`] is checked once ([`SimulateJob::check`]: a game count
//! and a salvo size a run plays) and gives a [`CheckedSimulate`], which plays the games.

use crate::model::deadline::Budget;
use crate::usecase::advise::simulate::{self, SimOptions, SimulateError, Summary};

/// A resolved self-play job: the games, their strategy and rule, and the time they may take.
#[derive(Clone, Debug)]
pub struct SimulateJob {
    /// What to play.
    pub options: SimOptions,
    /// The time (and stop flag) the games may take.
    pub budget: Budget,
}

/// A [`SimulateJob`] checked once ([`SimulateJob::check`]): ready to play.
#[derive(Clone, Debug)]
pub struct CheckedSimulate<'a> {
    job: &'a SimulateJob,
}

impl SimulateJob {
    /// Checks the job once: at most the games one run plays
    /// ([`SimulateError::TooManyGames`]) and a salvo size the game allows
    /// ([`SimulateError::Salvo`]).
    pub fn check(&self) -> Result<CheckedSimulate<'_>, SimulateError> {
        simulate::check(&self.options)?;
        Ok(CheckedSimulate { job: self })
    }
}

impl CheckedSimulate<'_> {
    /// Plays the games on rayon's threads within the budget's deadline, calling `tick` after
    /// each (for a progress bar); the summary depends only on the options.
    pub fn run(&self, tick: &(impl Fn() + Sync)) -> Result<Summary, SimulateError> {
        simulate::play_games(&self.job.options, self.job.budget.deadline.clone(), tick)
    }
}
