//! The fuzzing harness (issue 14): one property-test target per reader — every input format,
//! format detection, `decode`'s answer readers (DIMACS models and headers, CBC and glpsol
//! solutions), the Rowan contest reader and the hint state reader. Each target feeds its reader
//! arbitrary text and valid inputs mutated with hostile tokens (huge numbers, brackets, line
//! breaks); a reader must return a value or an error with a line, never panic. What a format
//! reader accepts is taken further on small boards: placements, deduction, and a JSON round
//! trip.
//!
//! `cargo test` runs each target for `BIMARU_FUZZ_CASES` cases (default 64). A long session runs
//! each for `BIMARU_FUZZ_SECONDS` seconds, in rounds of fresh seeds (see `docs/reliability.md`):
//!
//! ```text
//! BIMARU_FUZZ_SECONDS=1800 BIMARU_FUZZ_CASES=2000 \
//!     cargo test --release --test integration fuzz:: -- --test-threads=1 --nocapture
//! ```
//!
//! The files of `tests/hostile/corpus/` (the regression corpus) go through every target's
//! reader on every run.

use bimaru_sat::Limits;
use bimaru_sat::encode::ilp::solution;
use bimaru_sat::encode::sat::dimacs;
use bimaru_sat::format::{self, Format, ParseError, json};
use bimaru_sat::model::deadline::Budget;
use bimaru_sat::model::placement::Placements;
use bimaru_sat::reason::deduce::{Effort, deduce};
use bimaru_sat::usecase::advise::contest;
use bimaru_sat::usecase::hint::State;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use std::path::Path;
use std::time::{Duration, Instant};

/// Tokens a mutation inserts: the numbers and delimiters that broke readers before.
const TOKENS: &[&str] = &[
    "0",
    "1",
    "-1",
    "9",
    "10",
    "?",
    "9223372036854775808",
    "9223372036854775807",
    "-9223372036854775808",
    "18446744073709551616",
    "4294967295",
    "4294967296",
    "1000000000000000000",
    "1000000",
    "100000",
    "1e400",
    "NaN",
    " ",
    "\n",
    "\r\n",
    "\t",
    ",",
    ";",
    "[",
    "]",
    "[|",
    "|]",
    "{",
    "}",
    "\"",
    ":",
    "/",
    "=",
    "#",
    "S",
    "W",
    "M",
    ".",
    "<",
    ">",
    "^",
    "v",
    "T",
    "B",
    "L",
    "R",
    "null",
    "\u{feff}",
    "é",
];

/// One edit of a mutation: at a position, insert a token, delete a stretch, or repeat a line.
#[derive(Clone, Debug)]
enum Edit {
    Insert(prop::sample::Index, usize),
    Delete(prop::sample::Index, usize),
    Replace(prop::sample::Index, usize),
    RepeatLine(prop::sample::Index),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        3 => (any::<prop::sample::Index>(), 0..TOKENS.len()).prop_map(|(i, t)| Edit::Insert(i, t)),
        2 => (any::<prop::sample::Index>(), 1usize..8).prop_map(|(i, n)| Edit::Delete(i, n)),
        3 => (any::<prop::sample::Index>(), 0..TOKENS.len()).prop_map(|(i, t)| Edit::Replace(i, t)),
        1 => any::<prop::sample::Index>().prop_map(Edit::RepeatLine),
    ]
}

fn apply(seed: &str, edits: &[Edit]) -> String {
    let mut chars: Vec<char> = seed.chars().collect();
    for e in edits {
        match e {
            Edit::Insert(at, t) => {
                let i = at.index(chars.len() + 1);
                chars.splice(i..i, TOKENS[*t].chars());
            }
            Edit::Delete(at, n) => {
                let i = at.index(chars.len() + 1);
                let j = (i + n).min(chars.len());
                chars.drain(i..j);
            }
            Edit::Replace(at, t) => {
                // Replace the token (run of non-space) around a position.
                let i = at.index(chars.len() + 1).min(chars.len());
                let mut a = i;
                while a > 0 && !chars[a - 1].is_whitespace() && chars[a - 1].is_alphanumeric() {
                    a -= 1;
                }
                let mut b = i;
                while b < chars.len() && chars[b].is_alphanumeric() {
                    b += 1;
                }
                chars.splice(a..b, TOKENS[*t].chars());
            }
            Edit::RepeatLine(at) => {
                let text: String = chars.iter().collect();
                let lines: Vec<&str> = text.split_inclusive('\n').collect();
                if !lines.is_empty() {
                    let k = at.index(lines.len());
                    let mut out = String::new();
                    for (i, l) in lines.iter().enumerate() {
                        out.push_str(l);
                        if i == k {
                            out.push_str(l);
                        }
                    }
                    chars = out.chars().collect();
                }
            }
        }
    }
    chars.into_iter().collect()
}

/// Arbitrary text, or one of `seeds` mutated.
fn input(seeds: Vec<String>) -> impl Strategy<Value = String> {
    let n = seeds.len();
    prop_oneof![
        1 => "(?s).{0,200}",
        4 => (0..n, prop::collection::vec(edit(), 1..8))
            .prop_map(move |(k, edits)| apply(&seeds[k], &edits)),
    ]
}

fn cases() -> u32 {
    std::env::var("BIMARU_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(64)
}

fn seconds() -> u64 {
    std::env::var("BIMARU_FUZZ_SECONDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

/// Runs `check` on inputs from `strategy`: one round of [`cases`] cases, or rounds with fresh
/// seeds until [`seconds`] have passed. A failure panics with the smallest failing input.
fn fuzz<S: Strategy>(name: &str, strategy: S, check: impl Fn(S::Value) -> Result<(), TestCaseError>)
where
    S::Value: std::fmt::Debug,
{
    let start = Instant::now();
    let budget = Duration::from_secs(seconds());
    let mut round: u64 = 0;
    let mut total: u64 = 0;
    loop {
        let config = Config {
            cases: cases(),
            failure_persistence: None,
            ..Config::default()
        };
        let mut seed = [0u8; 32];
        seed[..8].copy_from_slice(&round.to_le_bytes());
        seed[8..8 + name.len().min(24)].copy_from_slice(&name.as_bytes()[..name.len().min(24)]);
        let mut runner =
            TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &seed));
        if let Err(e) = runner.run(&strategy, &check) {
            panic!("fuzz target {name}, round {round}: {e}");
        }
        total += u64::from(cases());
        round += 1;
        if start.elapsed() >= budget {
            break;
        }
    }
    if seconds() > 0 {
        eprintln!(
            "fuzz target {name}: {total} inputs in {:.0} s, no failure",
            start.elapsed().as_secs_f64()
        );
    }
}

/// The regression corpus (`tests/hostile/corpus/`) as text.
fn regressions() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hostile/corpus");
    crate::common::files(&dir, "")
        .iter()
        .filter_map(|p| String::from_utf8(crate::common::read(p)).ok())
        .collect()
}

/// An error must name a line (0 only for the input as a whole) and fit on one line.
fn one_line(e: &ParseError) -> Result<(), TestCaseError> {
    prop_assert!(!e.to_string().contains('\n'), "multi-line message {}", e);
    Ok(())
}

/// Parses `text` in `format`; what parses is checked further on small boards.
fn check_format(format: Format, text: &str) -> Result<(), TestCaseError> {
    let _ = format::detect(text);
    match format::parse_document(text, format, &Limits::default()) {
        Err(e) => {
            prop_assert!(e.line >= 1, "{:?}: error without a line: {}", format, e);
            one_line(&e)
        }
        Ok(doc) => {
            for board in doc.boards.iter().take(3) {
                let p = &board.puzzle;
                if p.shape().cells() > 400 {
                    continue;
                }
                let mut placements = Placements::new(p);
                let _ = deduce(p, &mut placements, Effort::Rules, &Budget::default());
                let again =
                    json::parse(&json::write_puzzle(p, None), &bimaru_sat::Limits::default());
                prop_assert_eq!(again.as_ref(), Ok(p), "JSON round trip");
            }
            Ok(())
        }
    }
}

fn format_seeds(format: Format) -> Vec<String> {
    let mut seeds: Vec<String> = crate::format_props::SEEDS
        .iter()
        .map(|s| s.to_string())
        .collect();
    seeds.push(include_str!("../../puzzles/ist-example.txt").to_string());
    if format == Format::Json {
        seeds.extend(regressions());
    }
    seeds
}

macro_rules! format_targets {
    ($($name:ident => $format:expr),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                fuzz(stringify!($name), input(format_seeds($format)), |text| {
                    check_format($format, &text)
                });
            }
        )*
    };
}

format_targets! {
    format_ist => Format::Ist,
    format_csc384 => Format::Csc384,
    format_rubin => Format::Rubin,
    format_dzn => Format::Dzn,
    format_json => Format::Json,
    format_puzzlink => Format::Puzzlink,
    format_rpi => Format::Rpi,
    format_eprime => Format::Eprime,
    format_krazydad => Format::Krazydad,
    format_jolyonb => Format::Jolyonb,
    format_sxchx => Format::Sxchx,
}

const ANSWERS: &[&str] = &[
    "s SATISFIABLE\nv 1 -2 3 0\n",
    "c comment\ns SATISFIABLE\nv 1 2\nv -3 -4 0\n",
    "s UNSATISFIABLE\n",
    "s UNKNOWN\n",
    "SAT\n1 -2 3 0\n",
    "UNSAT\n",
    "INDET\n",
];

#[test]
fn decode_answer() {
    let mut seeds: Vec<String> = ANSWERS.iter().map(|s| s.to_string()).collect();
    seeds.extend(regressions());
    fuzz(
        "decode_answer",
        (input(seeds), 0usize..2000),
        |(text, vars)| {
            match dimacs::read_answer(&text, vars) {
                Ok(dimacs::DimacsAnswer::Sat(a)) => prop_assert!(a.len() <= vars),
                Ok(_) => {}
                Err(e) => one_line(&e)?,
            }
            Ok(())
        },
    );
}

#[test]
fn decode_header() {
    let seeds = vec![
        "c bimaru-sat 0.1.0 DIMACS export\nc model: cell\nc card: seq\nc puzzle: 00ff00ff00ff00ff\np cnf 2 1\n1 2 0\n".to_string(),
    ];
    fuzz("decode_header", input(seeds), |text| {
        if let Err(e) = dimacs::read_header(&text) {
            one_line(&e)?;
        }
        Ok(())
    });
}

#[test]
fn decode_ilp_solution() {
    let seeds = vec![
        "Optimal - objective value 2.00000000\n      0 x_1h_0_0   1   0\n      5 x_2v_1_1   1   0\n".to_string(),
        "Infeasible - objective value 0\n".to_string(),
        "Problem:    \nRows:       3\nColumns:    2 (2 integer, 2 binary)\nStatus:     INTEGER OPTIMAL\nObjective:  obj = 1 (MINimum)\n\n   No.   Row name        Activity     Lower bound   Upper bound\n------ ------------    ------------- ------------- -------------\n     1 row_0                      1             1             =\n\n   No. Column name       Activity     Lower bound   Upper bound\n------ ------------    ------------- ------------- -------------\n     1 y_0_0        *              1             0             1\n\nInteger feasibility conditions:\n".to_string(),
    ];
    let puzzle = bimaru_sat::format::ist::parse(include_str!("../../puzzles/ist-example.txt"))
        .expect("the example parses");
    let program = bimaru_sat::encode::ilp::IlpModel::Ship.build(&puzzle);
    fuzz("decode_ilp_solution", input(seeds), |text| {
        match solution::parse(&text) {
            Ok(s) => {
                if let Err(e) = s.values_for(&program) {
                    one_line(&e)?;
                }
            }
            Err(e) => one_line(&e)?,
        }
        Ok(())
    });
}

const CONTEST: &str = "2\n4\nA D S P\n0 0 0 0 0 0 0 0 0 0\n0 0 0 0 0 0 0 0 0 0\n0 0 0 0 0 0 0 0 0 0\n\
0 0 0 0 0 0 0 0 0 0\n0 0 0 0 1 0 0 0 0 0\n0 0 0 1 0 1 0 0 0 0\n0 0 0 0 3 1 0 0 0 0\n\
0 0 0 0 3 0 0 0 0 0\n0 0 0 0 3 0 0 0 0 0\n0 0 0 0 3 0 0 0 0 0\n1\nS\n0000000000\n0000000000\n\
0000000000\n0000000000\n0000000000\n0000000000\n0000000000\n0000000000\n0000000000\n0000000000\n";

#[test]
fn advise_rowan_reader() {
    fuzz(
        "advise_rowan_reader",
        input(vec![CONTEST.to_string()]),
        |text| {
            match contest::parse(&text) {
                Ok(c) => {
                    for set in &c.data_sets {
                        let _ = bimaru_sat::usecase::advise::rowan::advise(set);
                    }
                }
                Err(e) => one_line(&e)?,
            }
            Ok(())
        },
    );
}

#[test]
fn hint_state_reader() {
    let seeds = vec![
        "?.s\nc?m\nwww\n".to_string(),
        "??????????\n".repeat(10),
        "T.........\nm.........\nb.........\n".to_string(),
    ];
    fuzz(
        "hint_state_reader",
        (input(seeds), 1usize..12, 1usize..12),
        |(text, rows, cols)| {
            match State::parse(&text, rows, cols) {
                Ok(state) => {
                    let again = State::parse(&state.write(), rows, cols);
                    prop_assert_eq!(again.as_ref(), Ok(&state), "state round trip");
                }
                Err(e) => one_line(&e)?,
            }
            Ok(())
        },
    );
}

/// The regression corpus through every reader, on every run.
#[test]
fn regression_corpus_through_every_reader() {
    for text in regressions() {
        for &format in Format::parsed() {
            check_format(format, &text).unwrap();
        }
        let _ = dimacs::read_answer(&text, 1000);
        let _ = dimacs::read_header(&text);
        let _ = solution::parse(&text);
        let _ = contest::parse(&text);
        let _ = State::parse(&text, 10, 10);
    }
}
