//! The generate command: resolve the flags (and the `--from` file) into a [`GenerateJob`],
//! check it, and print the puzzles it writes or put each in its own file, behind a progress
//! bar; a note on standard error tells of clues whose uniqueness check ran out of its budget.

use super::output::{self, NewDir};
use super::{Exit, Failure};
use crate::app::cli::GenerateArgs;
use bimaru_sat::Limits;
use bimaru_sat::usecase::generate::{
    CHECK_CONFIGURATION, GenerateOptions, GenerateProgress, Phase, Question, SettledBy,
    default_fleet,
};
use bimaru_sat::usecase::job::generate::GenerateJob;
use bimaru_sat::usecase::{Budget, Format};
use indicatif::{ProgressBar, ProgressStyle};
use std::sync::Arc;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

/// How often the progress line is redrawn.
const TICK: Duration = Duration::from_millis(100);

/// Runs the generate command.
pub fn run(args: &GenerateArgs, limits: &Limits) -> Result<Exit, Failure> {
    let fleet = args
        .fleet
        .clone()
        .unwrap_or_else(|| default_fleet(args.size));
    if args.to == Format::Ist && args.count > 1 && args.out.is_none() {
        // One IST file holds one board (and its solution goes to a file of its own).
        return Err(Failure::Conflict {
            first: "--to ist with --count above 1",
            second: "standard output (an IST file holds one puzzle): give --out DIR for one file each, or --to json",
        });
    }
    // The board to make the puzzle from, with its name for messages.
    let from = match &args.from {
        Some(path) => {
            let input = super::read_input(Some(path), limits)?;
            let doc = input.document(args.format, limits)?;
            let board = doc.single(&input.name)?.clone();
            Some((input.name, board))
        }
        None => None,
    };
    let progress = Arc::new(if args.stats {
        GenerateProgress::recording_questions()
    } else {
        GenerateProgress::default()
    });
    let job = GenerateJob {
        options: GenerateOptions {
            size: args.size,
            fleet,
            card: args.card,
            reduce: args.reduce,
            budget: Budget {
                conflicts: args.max_conflicts.filter(|&n| n > 0),
                ..Budget::until(super::deadline(args.time_limit))
            },
            minimizer: args.minimizer,
            check: CHECK_CONFIGURATION,
            solver: args.solver,
            progress: Some(progress.clone()),
        },
        grade: args.grade,
        seed: args.seed,
        count: args.count,
        to: args.to,
        // Several puzzles on standard output: JSON Lines, which every command reads back.
        one_line: args.count > 1 && args.out.is_none(),
        from: from.as_ref().map(|(_, board)| board.clone()),
        limits: *limits,
    };
    let checked = match job.check() {
        Ok(checked) => checked,
        Err(error) if error.is_time_limit() => {
            let seconds = args.time_limit.unwrap_or_default();
            return Ok(super::timed_out(
                "generate",
                seconds,
                "before the --from puzzle was solved",
            ));
        }
        Err(error) => {
            return Err(match &from {
                Some((name, _)) => error.on(name),
                None => error,
            }
            .into());
        }
    };
    // The files go to a temporary directory beside DIR, which takes DIR's place once every
    // puzzle is written: a failure leaves no partial set.
    let dir = args.out.as_deref().map(NewDir::new).transpose()?;
    // On a terminal (indicatif draws nothing elsewhere): puzzles done when there are several,
    // and the phase of the one under way, which on a large board takes a while.
    let bar = if args.count > 1 {
        let bar = ProgressBar::new(args.count as u64);
        if let Ok(style) = ProgressStyle::with_template(
            "{bar:40} {pos}/{len} puzzles, {elapsed} (eta {eta}) {msg}",
        ) {
            bar.set_style(style);
        }
        bar
    } else {
        let bar = ProgressBar::new_spinner();
        if let Ok(style) = ProgressStyle::with_template("{spinner} {elapsed} {msg}") {
            bar.set_style(style);
        }
        bar
    };
    let width = args.count.to_string().len().max(3);
    // Puzzles finished: a run stopped by its time limit keeps them.
    let mut made = 0usize;
    // Clues kept undecided, per puzzle that has any, for the note on standard error.
    let mut undecided: Vec<usize> = Vec::new();
    let mut text = String::new();
    let result = std::thread::scope(|scope| {
        // The ticker waits on a channel rather than sleeping, so that it ends (and the scope
        // with it) as soon as the job is done, not up to a tick later.
        let (done, ticking) = mpsc::channel::<()>();
        let (bar, progress) = (&bar, &progress);
        scope.spawn(move || {
            loop {
                bar.set_message(phase_message(progress));
                bar.tick();
                if ticking.recv_timeout(TICK) != Err(RecvTimeoutError::Timeout) {
                    break;
                }
            }
        });
        let result = checked.run(|index, generated, written| -> Result<(), Failure> {
            if !generated.undecided.is_empty() {
                undecided.push(generated.undecided.len());
            }
            match &dir {
                Some(dir) => {
                    let stem = format!("{:0width$}", index + 1);
                    dir.write(
                        &format!("{stem}.{}", written.extension),
                        written.puzzle.as_bytes(),
                    )?;
                    if let Some(solution) = &written.solution {
                        dir.write(&format!("{stem}.out"), solution.as_bytes())?;
                    }
                }
                None => {
                    if index > 0 && written.solution.is_some() {
                        text.push('\n');
                    }
                    text.push_str(&written.puzzle);
                }
            }
            made += 1;
            bar.inc(1);
            Ok(())
        });
        drop(done);
        result
    });
    if let Err(Failure::Library(error)) = &result
        && error.is_time_limit()
    {
        bar.finish_and_clear();
        if args.stats {
            print_stats(&progress.questions());
        }
        let seconds = args.time_limit.unwrap_or_default();
        if made == 0 {
            return Ok(super::timed_out(
                "generate",
                seconds,
                "before the puzzles were made",
            ));
        }
        // Keep what was finished: the puzzles made are written, then the run exits 4.
        let whereto = match dir {
            Some(dir) => {
                dir.commit()?;
                let path = args.out.as_deref().unwrap_or(std::path::Path::new("."));
                format!("written to {}", path.display())
            }
            None => {
                output::stdout(text.as_bytes())?;
                "printed".to_string()
            }
        };
        return Ok(super::timed_out(
            "generate",
            seconds,
            &format!(
                "after {made} of {} puzzles (the {made} made are {whereto})",
                args.count
            ),
        ));
    }
    result?;
    bar.finish_and_clear();
    if args.stats {
        print_stats(&progress.questions());
    }
    match dir {
        Some(dir) => dir.commit()?,
        None => output::stdout(text.as_bytes())?,
    }
    if let (Some(fewest), Some(most)) = (undecided.iter().min(), undecided.iter().max()) {
        let which = if args.count == 1 {
            "the puzzle keeps".to_string()
        } else {
            format!("{} of {} puzzles keep", undecided.len(), args.count)
        };
        let clues = if fewest == most {
            format!("{fewest}")
        } else {
            format!("{fewest} to {most}")
        };
        let why = match args.time_limit {
            Some(seconds) => format!(
                "not yet proven needed when the time limit of {seconds} s came (JSON field \
                 `unproven`)"
            ),
            None => format!(
                "undecided: their uniqueness check ran out of --max-conflicts {}",
                args.max_conflicts.unwrap_or(0)
            ),
        };
        note!(
            "bimaru-sat: {which} {clues} clue(s) {why}; every puzzle is unique and its other \
             clues are needed"
        );
    }
    Ok(Exit::Success)
}

/// How many of the slowest questions `--stats` lists.
const SLOWEST: usize = 5;

/// `--stats`: how the uniqueness questions were settled, their answers, and the slowest.
fn print_stats(questions: &[Question]) {
    if questions.is_empty() {
        note!("uniqueness questions: 0 (only --reduce unique asks them)");
        return;
    }
    let count = |by: SettledBy| questions.iter().filter(|q| q.by == by).count();
    let seconds = |sat: bool| {
        let time: Duration = questions
            .iter()
            .filter(|q| (q.by == SettledBy::Sat) == sat)
            .map(|q| q.time)
            .sum();
        time.as_secs_f64()
    };
    let answers = |needed: Option<bool>| questions.iter().filter(|q| q.needed == needed).count();
    let conflicts: u64 = questions.iter().map(|q| q.conflicts).sum();
    let mut text = format!(
        "uniqueness questions: {}\nsettled by pre-solving: {}\nsettled by the native search: {} \
         ({} in a window)\nsettled by SAT: {} ({conflicts} conflicts)\nanswers: {} needed, {} \
         removable, {} undecided\nquestion time: {:.3} s settled before SAT, {:.3} s that reached SAT",
        questions.len(),
        count(SettledBy::PreSolving),
        count(SettledBy::NativeWindow) + count(SettledBy::NativeWhole),
        count(SettledBy::NativeWindow),
        count(SettledBy::Sat),
        answers(Some(true)),
        answers(Some(false)),
        answers(None),
        seconds(false),
        seconds(true),
    );
    let mut slowest: Vec<&Question> = questions.iter().collect();
    slowest.sort_by_key(|q| std::cmp::Reverse(q.time));
    for q in slowest.into_iter().take(SLOWEST) {
        let answer = match q.needed {
            Some(true) => "needed",
            Some(false) => "removable",
            None => "undecided",
        };
        let by = match q.by {
            SettledBy::PreSolving => "pre-solving",
            SettledBy::NativeWindow => "the native search in a window",
            SettledBy::NativeWhole => "the native search",
            SettledBy::Sat => "SAT",
        };
        text.push_str(&format!(
            "\nslow question: clue {} {answer} by {by}, {} conflicts, {:.1} ms",
            q.clue,
            q.conflicts,
            q.time.as_secs_f64() * 1e3
        ));
    }
    note!("{text}");
}

/// The phase of the puzzle under way, for the progress bar.
fn phase_message(progress: &GenerateProgress) -> String {
    match progress.phase() {
        Phase::Placing => "placing the fleet".to_string(),
        Phase::Revealing => "revealing clues until propagation decides every cell".to_string(),
        Phase::Minimizing => {
            let (asked, to_ask) = progress.asked();
            format!(
                "minimizing: {asked}/{to_ask} clues proven needed or removed, {} left",
                progress.clues()
            )
        }
    }
}
