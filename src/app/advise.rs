//! The `advise` and `simulate` commands: read contest input, answer with the contest's rule or
//! the posterior (text, heat map or JSON); play self-play games and print their statistics.

use super::{Exit, read_input, write_output};
use crate::advise::board::{CELLS, Mark, Position, SIZE, Square};
use crate::advise::posterior::{self, Options, Posterior, PosteriorError, Rule, Used};
use crate::advise::simulate::{self, SimOptions};
use crate::advise::{contest, rowan};
use crate::cli::{AdviseArgs, AdviseOutput, SimulateArgs, SimulateOutput};
use crate::error::Error;
use serde_json::{Value, json};
use std::io::IsTerminal;
use std::time::Instant;

/// Runs `advise`.
pub fn run_advise(args: &AdviseArgs) -> Result<Exit, Error> {
    let input = read_input(args.input.as_deref())?;
    let parsed = contest::parse(&input.text).map_err(|error| Error::Parse {
        source_name: input.name.clone(),
        error,
    })?;
    let sets = &parsed.data_sets;
    if args.posterior {
        return posterior_report(args, sets);
    }
    let advice: Vec<rowan::Advice> = sets.iter().map(rowan::advise).collect();
    let text = match args.to {
        AdviseOutput::Text => contest::write_report(&advice),
        AdviseOutput::Json => {
            let v: Vec<Value> = sets
                .iter()
                .zip(&advice)
                .enumerate()
                .map(|(i, (pos, a))| {
                    let scores = rowan::scores(pos);
                    json!({
                        "data_set": i + 1,
                        "value": a.value,
                        "squares": a.squares.iter().map(Square::to_string).collect::<Vec<_>>(),
                        "scores": rows(|sq| json!(scores[sq.index()])),
                    })
                })
                .collect();
            json_text(&json!({ "rule": "rowan-2013", "data_sets": v }))
        }
        AdviseOutput::Pretty => {
            let mut s = format!("Analyzing {} data set(s)\n", sets.len());
            for (i, (pos, a)) in sets.iter().zip(&advice).enumerate() {
                let scores = rowan::scores(pos);
                let max = f64::from(a.value.max(1));
                s.push_str(&format!(
                    "Data Set {}\n{}\n",
                    i + 1,
                    contest::best_move_line(a)
                ));
                s.push_str(&heat_map(pos, |i| {
                    (f64::from(scores[i]) / max, format!("{:>5}", scores[i]))
                }));
            }
            s
        }
    };
    write_output(None, &text)?;
    Ok(if advice.iter().any(|a| a.squares.is_empty()) {
        Exit::NoSolution
    } else {
        Exit::Success
    })
}

fn posterior_report(args: &AdviseArgs, sets: &[Position]) -> Result<Exit, Error> {
    let opts = Options {
        rule: if args.no_touch {
            Rule::NoTouch
        } else {
            Rule::Touch
        },
        method: args.method,
        samples: args.samples,
        seed: args.seed,
        ..Options::default()
    };
    let results: Vec<Result<Posterior, PosteriorError>> = sets
        .iter()
        .map(|pos| posterior::posterior(pos, &opts))
        .collect();
    let mut text = String::new();
    match args.to {
        AdviseOutput::Json => {
            let v: Vec<Value> = sets
                .iter()
                .zip(&results)
                .enumerate()
                .map(|(i, (pos, r))| match r {
                    Ok(p) => {
                        let empty = pos.board.bits(Mark::Empty);
                        let best = p.best(empty);
                        let mut o = json!({
                            "data_set": i + 1,
                            "rule": opts.rule.name(),
                            "best": {
                                "probability": best.first().map(|&b| p.probabilities[b]),
                                "squares": best.iter().map(|&b| Square::from_index(b).to_string()).collect::<Vec<_>>(),
                            },
                            "probabilities": rows(|sq| json!(p.probabilities[sq.index()])),
                        });
                        if let Value::Object(m) = &mut o {
                            for (k, v) in method_json(&p.used) {
                                m.insert(k.to_string(), v);
                            }
                        }
                        o
                    }
                    Err(e) => json!({ "data_set": i + 1, "error": e.to_string() }),
                })
                .collect();
            text.push_str(&json_text(&json!({ "data_sets": v })));
        }
        AdviseOutput::Text | AdviseOutput::Pretty => {
            text.push_str(&format!("Analyzing {} data set(s)\n", sets.len()));
            for (i, (pos, r)) in sets.iter().zip(&results).enumerate() {
                text.push_str(&format!("Data Set {}\n", i + 1));
                let p = match r {
                    Ok(p) => p,
                    Err(e) => {
                        text.push_str(&format!("No posterior: {e}\n"));
                        continue;
                    }
                };
                text.push_str(&format!(
                    "Method: {} ({})\n",
                    method_text(&p.used),
                    match opts.rule {
                        Rule::NoTouch => "ships may not touch",
                        _ => "ships may touch",
                    }
                ));
                let best = p.best(pos.board.bits(Mark::Empty));
                let names: Vec<String> = best
                    .iter()
                    .map(|&b| Square::from_index(b).to_string())
                    .collect();
                if let Some(&b) = best.first() {
                    text.push_str(&format!(
                        "Best Move Probability: {:.4} at {}\n",
                        p.probabilities[b],
                        names.join(", ")
                    ));
                }
                if args.to == AdviseOutput::Pretty {
                    let max = best.first().map_or(1.0, |&b| p.probabilities[b].max(1e-12));
                    text.push_str(&heat_map(pos, |i| {
                        let v = p.probabilities[i];
                        (v / max, format!("{:>5.1}", 100.0 * v))
                    }));
                } else {
                    text.push_str(&table(pos, |i| format!("{:.4}", p.probabilities[i])));
                }
            }
        }
    }
    write_output(None, &text)?;
    Ok(if results.iter().any(Result::is_err) {
        for (i, r) in results.iter().enumerate() {
            if let Err(e) = r {
                eprintln!("bimaru-sat: data set {}: {e}", i + 1);
            }
        }
        Exit::NoSolution
    } else {
        Exit::Success
    })
}

fn method_text(used: &Used) -> String {
    match used {
        Used::Exact { configurations } => {
            format!("exact enumeration of {configurations} fleet configurations")
        }
        Used::Sampled {
            samples,
            draws,
            seed,
        } => format!(
            "uniform sampling, {samples} configurations accepted of {draws} drawn, seed {seed}"
        ),
    }
}

fn method_json(used: &Used) -> Vec<(&'static str, Value)> {
    match used {
        Used::Exact { configurations } => vec![
            ("method", json!("exact")),
            (
                "configurations",
                u64::try_from(*configurations)
                    .map_or_else(|_| json!(configurations.to_string()), |c| json!(c)),
            ),
        ],
        Used::Sampled {
            samples,
            draws,
            seed,
        } => vec![
            ("method", json!("sampled")),
            ("samples", json!(samples)),
            ("draws", json!(draws)),
            ("seed", json!(seed)),
        ],
    }
}

/// A 10x10 array of JSON values, row by row.
fn rows(f: impl Fn(Square) -> Value) -> Value {
    Value::Array(
        (0..SIZE)
            .map(|r| Value::Array((0..SIZE).map(|c| f(Square::new(r, c))).collect()))
            .collect(),
    )
}

fn json_text(v: &Value) -> String {
    let mut s = serde_json::to_string_pretty(v).unwrap_or_default();
    s.push('\n');
    s
}

/// The shot squares' symbols.
fn shot_symbol(m: Mark) -> Option<&'static str> {
    match m {
        Mark::Miss => Some("·"),
        Mark::Hit => Some("X"),
        Mark::Sunk => Some("#"),
        _ => None,
    }
}

/// A plain table: column letters, row numbers, `cell(i)` for untouched squares.
fn table(pos: &Position, cell: impl Fn(usize) -> String) -> String {
    let mut s = String::from("   ");
    for c in 0..SIZE {
        s.push_str(&format!("{:>7}", (b'A' + c as u8) as char));
    }
    s.push('\n');
    for r in 0..SIZE {
        s.push_str(&format!("{:>3}", r + 1));
        for c in 0..SIZE {
            let sq = Square::new(r, c);
            let v = match shot_symbol(pos.board.get(sq)) {
                Some(sym) => sym.to_string(),
                None => cell(sq.index()),
            };
            s.push_str(&format!("{v:>7}"));
        }
        s.push('\n');
    }
    s
}

/// A heat map: each untouched square shows `cell(i).1` on a background by `cell(i).0` (0 to
/// 1), in colour when standard output is a terminal and `NO_COLOR` is unset.
fn heat_map(pos: &Position, cell: impl Fn(usize) -> (f64, String)) -> String {
    let colour = std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    // A dark-blue to red ramp of the 256-colour palette.
    const RAMP: [u8; 10] = [17, 18, 19, 25, 31, 37, 178, 208, 202, 196];
    const SHADE: [char; 5] = [' ', '░', '▒', '▓', '█'];
    let mut s = String::from("   ");
    for c in 0..SIZE {
        s.push_str(&format!("{:>6}", (b'A' + c as u8) as char));
    }
    s.push('\n');
    for r in 0..SIZE {
        s.push_str(&format!("{:>3} ", r + 1));
        for c in 0..SIZE {
            let sq = Square::new(r, c);
            let i = sq.index();
            if let Some(sym) = shot_symbol(pos.board.get(sq)) {
                s.push_str(&format!("{sym:>5} "));
                continue;
            }
            let (level, label) = cell(i);
            let level = level.clamp(0.0, 1.0);
            if colour {
                let k = ((level * 9.0).round() as usize).min(9);
                s.push_str(&format!("\x1b[48;5;{}m\x1b[97m{label}\x1b[0m ", RAMP[k]));
            } else {
                let k = ((level * 4.0).round() as usize).min(4);
                s.push_str(&format!("{label}{}", SHADE[k]));
            }
        }
        s.push('\n');
    }
    s
}

/// Runs `simulate`.
pub fn run_simulate(args: &SimulateArgs) -> Result<Exit, Error> {
    let opts = SimOptions {
        strategy: args.strategy,
        games: args.games,
        seed: args.seed,
        rule: if args.no_touch {
            Rule::NoTouch
        } else {
            Rule::Touch
        },
        exact_budget: args.exact_budget,
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
    let summary = simulate::simulate(&opts, &|| {
        if let Some(b) = &bar {
            b.inc(1);
        }
    });
    let secs = start.elapsed().as_secs_f64();
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let rate = summary.games as f64 / secs.max(1e-9);
    let threads = rayon::current_num_threads();
    let text = match args.to {
        SimulateOutput::Json => {
            let mut v = serde_json::to_value(&summary).unwrap_or(Value::Null);
            if let Value::Object(m) = &mut v {
                m.insert("ci95".into(), json!(summary.ci95()));
                m.insert("seconds".into(), json!(secs));
                m.insert("games_per_second".into(), json!(rate));
                m.insert("threads".into(), json!(threads));
            }
            json_text(&v)
        }
        SimulateOutput::Text => format!(
            "strategy: {}\nrule: {}\ngames: {}\nseed: {}\nmean shots: {:.3} (95% interval ±{:.3})\nmedian: {}\nstd dev: {:.3}\nmin: {}\nmax: {}\ntime: {:.2} s ({:.0} games/s, {} threads)\n",
            summary.strategy,
            summary.rule,
            summary.games,
            summary.seed,
            summary.mean,
            summary.ci95(),
            summary.median,
            summary.std_dev,
            summary.min,
            summary.max,
            secs,
            rate,
            threads,
        ),
    };
    let _ = CELLS;
    write_output(None, &text)?;
    Ok(Exit::Success)
}
