//! The advise and simulate commands' output formats: the contest's text (or a probability table),
//! a heat map for the terminal, and JSON, for the contest rule's advice and for posteriors; and
//! a self-play summary as text or JSON. The binary computes nothing here: it picks the format
//! and says whether the heat map may use colour.

use super::board::{Position, SIZE, Square, SquareMark};
use super::posterior::{Posterior, PosteriorError, TouchRule, Used};
use super::simulate::Summary;
use super::{contest, rowan};
use crate::model::choice::choice;
use serde_json::{Value, json};

choice! {
    /// How `advise` prints.
    #[derive(Default)]
    #[non_exhaustive]
    pub enum AdviseOutput {
        /// The contest's output (with --posterior: probabilities as a table).
        #[default]
        Text,
        /// A heat map for the terminal.
        Pretty,
        /// JSON.
        Json,
    }
}

choice! {
    /// How `simulate` prints.
    #[derive(Default)]
    #[non_exhaustive]
    pub enum SimulateOutput {
        /// One statistic per line.
        #[default]
        Text,
        /// JSON.
        Json,
    }
}

/// The contest rule's advice for each data set (`advice[i]` for `sets[i]`), in `to`; `colour`
/// lets the heat map use terminal colours.
pub fn advice(
    sets: &[Position],
    advice: &[rowan::Advice],
    to: AdviseOutput,
    colour: bool,
) -> String {
    match to {
        AdviseOutput::Text => contest::write_report(advice),
        AdviseOutput::Json => {
            let v: Vec<Value> = sets
                .iter()
                .zip(advice)
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
            for (i, (pos, a)) in sets.iter().zip(advice).enumerate() {
                let scores = rowan::scores(pos);
                let max = f64::from(a.value.max(1));
                s.push_str(&format!(
                    "Data Set {}\n{}\n",
                    i + 1,
                    contest::best_move_line(a)
                ));
                s.push_str(&heat_map(pos, colour, |i| {
                    (f64::from(scores[i]) / max, format!("{:>5}", scores[i]))
                }));
            }
            s
        }
    }
}

/// Each data set's salvo (`salvos[i]` for data set `i + 1`, by the contest's rule) in `to`:
/// the contest's data-set lines, each followed by `Salvo: G4, H5, ...`, or JSON.
pub fn salvos(salvos: &[Vec<Square>], to: AdviseOutput) -> String {
    let names = |salvo: &[Square]| salvo.iter().map(Square::to_string).collect::<Vec<_>>();
    match to {
        AdviseOutput::Json => {
            let v: Vec<Value> = salvos
                .iter()
                .enumerate()
                .map(|(i, salvo)| json!({ "data_set": i + 1, "salvo": names(salvo) }))
                .collect();
            json_text(&json!({ "rule": "rowan-2013", "data_sets": v }))
        }
        _ => {
            let mut s = format!("Analyzing {} data set(s)\n", salvos.len());
            for (i, salvo) in salvos.iter().enumerate() {
                s.push_str(&format!(
                    "Data Set {}\nSalvo: {}\n",
                    i + 1,
                    names(salvo).join(", ")
                ));
            }
            s
        }
    }
}

/// Each data set's posterior (`results[i]` for `sets[i]`, computed under `rule`), in `to`;
/// `colour` lets the heat map use terminal colours.
pub fn posteriors(
    sets: &[Position],
    results: &[Result<Posterior, PosteriorError>],
    rule: TouchRule,
    to: AdviseOutput,
    colour: bool,
) -> String {
    let mut text = String::new();
    match to {
        AdviseOutput::Json => {
            let v: Vec<Value> = sets
                .iter()
                .zip(results)
                .enumerate()
                .map(|(i, (pos, r))| match r {
                    Ok(p) => {
                        let empty = pos.board.bits(SquareMark::Empty);
                        let best = p.best(empty);
                        let mut o = json!({
                            "data_set": i + 1,
                            "rule": <&str>::from(rule),
                            "best": {
                                "probability": best.first().map(|&b| p.probabilities[b]),
                                "squares": best.iter().map(|&b| Square::from_index(b).to_string()).collect::<Vec<_>>(),
                            },
                            "probabilities": rows(|sq| json!(p.probabilities[sq.index()])),
                        });
                        if let Value::Object(m) = &mut o {
                            for (k, v) in method(&p.used).1 {
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
            for (i, (pos, r)) in sets.iter().zip(results).enumerate() {
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
                    method(&p.used).0,
                    match rule {
                        TouchRule::NoTouch => "ships may not touch",
                        _ => "ships may touch",
                    }
                ));
                let best = p.best(pos.board.bits(SquareMark::Empty));
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
                if to == AdviseOutput::Pretty {
                    let max = best.first().map_or(1.0, |&b| p.probabilities[b].max(1e-12));
                    text.push_str(&heat_map(pos, colour, |i| {
                        let v = p.probabilities[i];
                        (v / max, format!("{:>5.1}", 100.0 * v))
                    }));
                } else {
                    text.push_str(&table(pos, |i| format!("{:.4}", p.probabilities[i])));
                }
            }
        }
    }
    text
}

/// A self-play summary that took `seconds` on `threads` threads, in `to`.
pub fn simulation(summary: &Summary, seconds: f64, threads: usize, to: SimulateOutput) -> String {
    let rate = summary.games as f64 / seconds.max(1e-9);
    match to {
        SimulateOutput::Json => {
            let mut v = serde_json::to_value(summary).unwrap_or(Value::Null);
            if let Value::Object(m) = &mut v {
                m.insert("std_error".into(), json!(summary.std_error()));
                m.insert("ci95".into(), json!(summary.ci95()));
                m.insert("seconds".into(), json!(seconds));
                m.insert("games_per_second".into(), json!(rate));
                m.insert("threads".into(), json!(threads));
            }
            json_text(&v)
        }
        SimulateOutput::Text => format!(
            "strategy: {}\nrule: {}\ngames: {}\nseed: {}\n{}mean {}: {:.3} (standard error {:.3}, 95% interval ±{:.3})\nmedian: {}\nstd dev: {:.3}\nmin: {}\nmax: {}\ntime: {:.2} s ({:.0} games/s, {} threads)\n",
            summary.strategy,
            summary.rule,
            summary.games,
            summary.seed,
            summary
                .salvo
                .map_or(String::new(), |k| format!("salvo: {k} shots a turn\n")),
            if summary.salvo.is_some() {
                "turns"
            } else {
                "shots"
            },
            summary.mean,
            summary.std_error(),
            summary.ci95(),
            summary.median,
            summary.std_dev,
            summary.min,
            summary.max,
            seconds,
            rate,
            threads,
        ),
    }
}

/// How a posterior was obtained: the sentence of the text report and the fields of the JSON
/// one.
fn method(used: &Used) -> (String, Vec<(&'static str, Value)>) {
    match used {
        Used::Exact { configurations } => (
            format!("exact enumeration of {configurations} fleet configurations"),
            vec![
                ("method", json!("exact")),
                (
                    "configurations",
                    u64::try_from(*configurations)
                        .map_or_else(|_| json!(configurations.to_string()), |c| json!(c)),
                ),
            ],
        ),
        Used::Weighted { samples, seed } => (
            format!("importance sampling, {samples} weighted configurations, seed {seed}"),
            vec![
                ("method", json!("weighted")),
                ("samples", json!(samples)),
                ("seed", json!(seed)),
            ],
        ),
        Used::Sampled {
            samples,
            requested,
            draws,
            seed,
            stopped,
        } => {
            let mut text = format!(
                "uniform sampling, {samples} configurations accepted of {draws} drawn, seed {seed}"
            );
            if *stopped {
                text.push_str(&format!(
                    "; stopped by the time limit before the {requested} asked for"
                ));
            }
            let fields = vec![
                ("method", json!("sampled")),
                ("samples", json!(samples)),
                ("requested", json!(requested)),
                ("draws", json!(draws)),
                ("seed", json!(seed)),
                ("stopped_by_time_limit", json!(stopped)),
            ];
            (text, fields)
        }
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
fn shot_symbol(m: SquareMark) -> Option<&'static str> {
    match m {
        SquareMark::Miss => Some("·"),
        SquareMark::Hit => Some("X"),
        SquareMark::Sunk => Some("#"),
        _ => None,
    }
}

/// The board square by square: the column letters right-aligned in `width`, then each row's
/// number, `gap`, and `square(sq, symbol)` for its squares (`symbol`: a shot square's symbol).
fn draw(
    pos: &Position,
    width: usize,
    gap: &str,
    square: impl Fn(Square, Option<&str>) -> String,
) -> String {
    let mut s = String::from("   ");
    for c in 0..SIZE {
        s.push_str(&format!("{:>width$}", (b'A' + c as u8) as char));
    }
    s.push('\n');
    for r in 0..SIZE {
        s.push_str(&format!("{:>3}{gap}", r + 1));
        for c in 0..SIZE {
            let sq = Square::new(r, c);
            s.push_str(&square(sq, shot_symbol(pos.board.get(sq))));
        }
        s.push('\n');
    }
    s
}

/// A plain table: column letters, row numbers, `cell(i)` for untouched squares.
fn table(pos: &Position, cell: impl Fn(usize) -> String) -> String {
    draw(pos, 7, "", |sq, symbol| {
        let v = symbol.map_or_else(|| cell(sq.index()), str::to_string);
        format!("{v:>7}")
    })
}

/// A heat map: each untouched square shows `cell(i).1` on a background by `cell(i).0` (0 to
/// 1), in terminal colours with `colour`, else in shades.
fn heat_map(pos: &Position, colour: bool, cell: impl Fn(usize) -> (f64, String)) -> String {
    // A dark-blue to red ramp of the 256-colour palette.
    const RAMP: [u8; 10] = [17, 18, 19, 25, 31, 37, 178, 208, 202, 196];
    const SHADE: [char; 5] = [' ', '░', '▒', '▓', '█'];
    draw(pos, 6, " ", |sq, symbol| {
        if let Some(sym) = symbol {
            return format!("{sym:>5} ");
        }
        let (level, label) = cell(sq.index());
        let level = level.clamp(0.0, 1.0);
        if colour {
            let k = ((level * 9.0).round() as usize).min(9);
            format!("\x1b[48;5;{}m\x1b[97m{label}\x1b[0m ", RAMP[k])
        } else {
            let k = ((level * 4.0).round() as usize).min(4);
            format!("{label}{}", SHADE[k])
        }
    })
}
