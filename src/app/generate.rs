//! The generate command: draw puzzles by seed, keep those of the wanted grade, and print them or
//! write one file per puzzle. Puzzle `i` comes from its own random stream of the seed, so the
//! output depends only on the options.

use super::{Exit, Failure, write_atomic, write_output};
use crate::cli::GenerateArgs;
use bimaru_sat::error::Error;
use bimaru_sat::format::Inexpressible;
use bimaru_sat::format::{self, Format};
use bimaru_sat::generate::{GenerateOptions, Generated, default_fleet, generate_graded, rng_for};
use bimaru_sat::puzzle::Fleet;
use indicatif::{ProgressBar, ProgressStyle};

/// A puzzle written in an output format: the puzzle text and, for formats that keep it apart,
/// the solution text.
pub struct Written {
    /// The puzzle (with its solution inside, for formats that hold one).
    pub puzzle: String,
    /// The solution as its own file (IST `.out`), if the format keeps it apart.
    pub solution: Option<String>,
    /// File extension of the puzzle file.
    pub extension: &'static str,
}

/// Writes a generated puzzle in `format`.
/// With `one_line`, JSON is written as one compact line (JSON Lines, for several puzzles in one
/// stream).
pub fn write_generated(
    generated: &Generated,
    format: Format,
    one_line: bool,
) -> Result<Written, Inexpressible> {
    let Generated {
        puzzle, solution, ..
    } = generated;
    #[allow(unreachable_patterns)] // formats added on other branches land here until handled
    match format {
        Format::Json | Format::Auto => Ok(Written {
            puzzle: if one_line {
                format::json::write_puzzle_line(puzzle, Some(solution))
            } else {
                format::json::write_puzzle(puzzle, Some(solution))
            },
            solution: None,
            extension: "json",
        }),
        Format::Ist => Ok(Written {
            puzzle: format::ist::write_puzzle(puzzle).ok_or(Inexpressible {
                format: "ist",
                reason: "it holds only 10x10 boards with the standard fleet",
            })?,
            solution: Some(format::ist::write_solution(puzzle, solution)),
            extension: "txt",
        }),
        _ => Err(Inexpressible {
            format: "this output",
            reason: "generate writes json or ist",
        }),
    }
}

/// Runs the generate command.
pub fn run(args: &GenerateArgs) -> Result<Exit, Failure> {
    let fleet: Fleet = args
        .fleet
        .clone()
        .unwrap_or_else(|| default_fleet(args.size));
    let options = GenerateOptions {
        size: args.size,
        fleet,
        card: args.card,
        reduce: args.reduce,
        budget: (args.max_conflicts > 0).then_some(args.max_conflicts),
    };
    if let Some(dir) = &args.out {
        std::fs::create_dir_all(dir).map_err(|source| Error::Io {
            path: dir.clone(),
            source,
        })?;
    }
    let bar = if args.count > 1 {
        let bar = ProgressBar::new(args.count as u64);
        if let Ok(style) =
            ProgressStyle::with_template("{bar:40} {pos}/{len} puzzles, {elapsed} (eta {eta})")
        {
            bar.set_style(style);
        }
        bar
    } else {
        ProgressBar::hidden()
    };
    let width = args.count.to_string().len().max(3);
    // Clues kept undecided, per puzzle that has any, for the note on standard error.
    let mut undecided: Vec<usize> = Vec::new();
    let mut text = String::new();
    for index in 0..args.count {
        let mut rng = rng_for(args.seed, index as u64);
        let generated = generate_graded(&options, args.grade, &mut rng)?;
        if !generated.undecided.is_empty() {
            undecided.push(generated.undecided.len());
        }
        // Several puzzles on standard output: JSON Lines, which every command reads back.
        let one_line = args.count > 1 && args.out.is_none();
        let written = write_generated(&generated, args.to, one_line)?;
        match &args.out {
            Some(dir) => {
                let stem = format!("{:0width$}", index + 1);
                write_atomic(
                    &dir.join(format!("{stem}.{}", written.extension)),
                    written.puzzle.as_bytes(),
                )?;
                if let Some(solution) = &written.solution {
                    write_atomic(&dir.join(format!("{stem}.out")), solution.as_bytes())?;
                }
            }
            None => {
                if index > 0 && written.solution.is_some() {
                    text.push('\n');
                }
                text.push_str(&written.puzzle);
            }
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    if args.out.is_none() {
        write_output(None, &text)?;
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
        eprintln!(
            "bimaru-sat: {which} {clues} clue(s) undecided: their uniqueness check ran out of \
             --max-conflicts {} (0: no limit); every puzzle is unique and its other clues are needed",
            args.max_conflicts
        );
    }
    Ok(Exit::Success)
}
