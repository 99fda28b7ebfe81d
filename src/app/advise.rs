//! The `advise` and `simulate` commands: read contest input and answer with the contest's rule
//! (one square, or a salvo's squares) or the posterior; play self-play games behind a progress bar. The library computes and
//! writes ([`bimaru_sat::usecase::advise::report`]); this module picks the options and prints.

use super::{Exit, Failure, deadline, output, read_input, told};
use crate::app::cli::{AdviseArgs, SimulateArgs};
use bimaru_sat::Limits;
use bimaru_sat::usecase::Budget;
use bimaru_sat::usecase::Deadline;
use bimaru_sat::usecase::advise::game::strategy_salvo;
use bimaru_sat::usecase::advise::posterior::{self, Options, Posterior, PosteriorError, TouchRule};
use bimaru_sat::usecase::advise::report;
use bimaru_sat::usecase::advise::simulate::{SimOptions, Strategy};
use bimaru_sat::usecase::advise::{Position, contest, rowan};
use bimaru_sat::usecase::error::Error;
use bimaru_sat::usecase::job::advise::SimulateJob;
use std::io::IsTerminal;
use std::time::Instant;

/// Whether the heat map may colour standard output: a terminal, and `NO_COLOR` unset.
fn colour() -> bool {
    std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none()
}

/// The touching rule `--no-touch` asks for.
fn rule(no_touch: bool) -> TouchRule {
    if no_touch {
        TouchRule::NoTouch
    } else {
        TouchRule::Touch
    }
}

/// Runs `advise`.
pub fn run_advise(args: &AdviseArgs, limits: &Limits) -> Result<Exit, Failure> {
    let start = Instant::now();
    let input = read_input(args.input.as_deref(), limits)?;
    let parsed = contest::parse(&input.text).map_err(|error| Error::Parse {
        source_name: input.name.clone(),
        error,
    })?;
    contest::check_arrangeable(&parsed, rule(args.no_touch)).map_err(|error| Error::Parse {
        source_name: input.name.clone(),
        error,
    })?;
    let sets = &parsed.data_sets;
    if args.posterior {
        return posterior_report(args, sets, start);
    }
    if let Some(k) = args.salvo {
        return salvo_report(args, sets, k as usize);
    }
    let advice: Vec<rowan::Advice> = sets.iter().map(rowan::advise).collect();
    output::stdout(report::advice(sets, &advice, args.to, colour()).as_bytes())?;
    Ok(if advice.iter().any(|a| a.squares.is_empty()) {
        Exit::NoSolution
    } else {
        Exit::Success
    })
}

/// A salvo of `k` squares for every data set, by the contest's rule; a data set with fewer
/// untouched squares than `k` is bad input (exit 2), one where no ship fits exits 1 as the
/// plain advice does.
fn salvo_report(args: &AdviseArgs, sets: &[Position], k: usize) -> Result<Exit, Failure> {
    let mut salvos = Vec::with_capacity(sets.len());
    for (i, pos) in sets.iter().enumerate() {
        let salvo = strategy_salvo(pos, Strategy::Rowan, 1, k).map_err(|e| Failure::TooMuch {
            flag: "--salvo",
            message: format!("data set {}: {e}", i + 1),
        })?;
        salvos.push(salvo);
    }
    output::stdout(report::salvos(&salvos, args.to).as_bytes())?;
    Ok(
        if sets.iter().any(|p| rowan::advise(p).squares.is_empty()) {
            Exit::NoSolution
        } else {
            Exit::Success
        },
    )
}

/// The posterior of every data set, all within `--time-limit` (each data set gets an equal
/// share of the time left when its turn comes).
fn posterior_report(args: &AdviseArgs, sets: &[Position], start: Instant) -> Result<Exit, Failure> {
    let limit = super::time_limit(Some(args.time_limit)).unwrap_or_default();
    let all = start
        .checked_add(limit)
        .map_or(Deadline::NONE, Deadline::at);
    let opts = Options {
        rule: rule(args.no_touch),
        method: args.method,
        samples: args.samples,
        seed: args.seed,
        ..Options::default()
    };
    let results: Vec<Result<Posterior, PosteriorError>> = sets
        .iter()
        .enumerate()
        .map(|(i, pos)| {
            let opts = Options {
                deadline: all.share(1.0 / (sets.len() - i) as f64),
                ..opts
            };
            posterior::posterior(pos, &opts)
        })
        .collect();
    let text = report::posteriors(sets, &results, opts.rule, args.to, colour());
    output::stdout(text.as_bytes())?;
    let mut exit = Exit::Success;
    for (i, r) in results.iter().enumerate() {
        if let Err(e) = r {
            let told = told(&Error::from(e.clone()));
            note!("bimaru-sat: data set {}: {}", i + 1, told.text);
            exit = match (exit, told.ends) {
                (Exit::TimeLimit, _) | (_, Some(Exit::TimeLimit)) => Exit::TimeLimit,
                _ => Exit::NoSolution,
            };
        }
    }
    Ok(exit)
}

/// Runs `simulate`.
pub fn run_simulate(args: &SimulateArgs) -> Result<Exit, Failure> {
    let job = SimulateJob {
        options: SimOptions {
            strategy: args.strategy,
            games: args.games,
            seed: args.seed,
            rule: rule(args.no_touch),
            exact_budget: args.exact_budget,
            salvo: args.salvo.map(|k| k as usize),
        },
        budget: Budget::until(deadline(args.time_limit)),
    };
    let bar = std::io::stderr().is_terminal().then(|| {
        let bar = indicatif::ProgressBar::new(args.games);
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "{bar:40} {pos}/{len} games, {per_sec}, eta {eta}",
        ) {
            bar.set_style(style);
        }
        bar
    });
    let start = Instant::now();
    let result = job.check().and_then(|checked| {
        checked.run(&|| {
            if let Some(b) = &bar {
                b.inc(1);
            }
        })
    });
    let seconds = start.elapsed().as_secs_f64();
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let summary = match result {
        Ok(summary) => summary,
        Err(e) => {
            let limit = args.time_limit.unwrap_or_default();
            return super::ended(Error::from(e).timed("simulate", limit, ""));
        }
    };
    let threads = rayon::current_num_threads();
    output::stdout(report::simulation(&summary, seconds, threads, args.to).as_bytes())?;
    Ok(Exit::Success)
}
