//! Shared helpers: where the shared corpus lives, and running the binary.

#![allow(dead_code)]

pub mod server;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

/// `../shared/<sub>` beside the repository. When it is missing the test is skipped with a
/// message, except under `CI=true`, where a missing corpus fails the test.
/// `BIMARU_SHARED`, when set, names that folder instead (for git worktrees placed elsewhere).
pub fn shared(sub: &str) -> Option<PathBuf> {
    let root = std::env::var_os("BIMARU_SHARED").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared"),
        PathBuf::from,
    );
    let path = root.join(sub);
    if path.exists() {
        return Some(path);
    }
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("CI=true but {} is missing", path.display());
    }
    eprintln!("skipping: {} is missing", path.display());
    None
}

/// Files in `dir` whose names end with `suffix`, sorted.
pub fn files(dir: &Path, suffix: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(suffix))
        .collect();
    v.sort();
    v
}

/// Every file below `dir` (recursively), sorted.
pub fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())) {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// Every command of the binary (the default one is `solve`).
pub const COMMANDS: &[&str] = &[
    "solve",
    "batch",
    "convert",
    "advise",
    "simulate",
    "decode",
    "compare",
    "generate",
    "grade",
    "hint",
    "render",
    "serve",
    "completions",
    "man",
    "check-proof",
];

/// The built binary.
pub fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_bimaru-sat"))
}

/// Runs the binary with `args` and `stdin`.
pub fn run(args: &[&str], stdin: &[u8]) -> Output {
    spawn(args, stdin)
        .wait_with_output()
        .expect("wait for bimaru-sat")
}

/// Starts the binary with `args`, writes `stdin` to it and closes it; standard output and
/// error are piped.
pub fn spawn(args: &[&str], stdin: &[u8]) -> Child {
    let mut child = bin()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn bimaru-sat");
    // The child may exit before reading everything (bad input): ignore a broken pipe.
    let _ = child.stdin.take().unwrap().write_all(stdin);
    child
}

/// Reads a file as bytes.
pub fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A board of CSPLib problem 14 (Moshe Rubin's `unsolvable_for_csplib.txt`).
pub struct RubinBoard {
    /// `Board ID`.
    pub id: String,
    /// Tallies and hints, standard fleet.
    pub puzzle: bimaru_sat::Puzzle,
    /// Row-major ship-cell flags of the embedded solution.
    pub ship: Vec<bool>,
}

/// The first `limit` Rubin boards, read with the crate's own parser (which checks that each
/// board's `PLACESHIP` lines and its ASCII drawing agree). Empty when the corpus is missing
/// (and a failure under `CI=true`, see [`shared`]).
pub fn rubin_boards(limit: usize) -> Vec<RubinBoard> {
    let Some(path) = shared("corpus/csplib-014/SBInstances/unsolvable_for_csplib.txt") else {
        return Vec::new();
    };
    let text = String::from_utf8(read(&path)).expect("text");
    bimaru_sat::format::rubin::parse(&text, &bimaru_sat::Limits::default())
        .expect("the Rubin file parses")
        .into_iter()
        .take(limit)
        .map(|board| RubinBoard {
            id: board.id.expect("every Rubin board has an ID"),
            ship: board
                .embedded
                .expect("every Rubin board embeds its solution")
                .ship_cells(),
            puzzle: board.puzzle,
        })
        .collect()
}

/// The `rate` DRAT checker (`cargo install rate --locked`, see `.ci/run`): `BIMARU_RATE`, else
/// `rate` on the `PATH` or in cargo's `bin` folder. Missing: the rate half of a test is skipped
/// with a message, except under `CI=true`, where it fails.
pub fn rate() -> Option<PathBuf> {
    let named = std::env::var_os("BIMARU_RATE").map(PathBuf::from);
    let on_path = std::env::var_os("PATH")
        .into_iter()
        .flat_map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .map(|dir| dir.join("rate"));
    let cargo_home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cargo")))
        .map(|home| home.join("bin/rate"));
    let found = named
        .into_iter()
        .chain(on_path)
        .chain(cargo_home)
        .find(|p| p.is_file());
    if found.is_none() {
        assert!(
            std::env::var("CI").map_or(true, |v| v != "true"),
            "CI=true but the rate proof checker is missing (cargo install rate --locked)"
        );
        eprintln!("skipping the rate checks: rate is missing (cargo install rate --locked)");
    }
    found
}

/// Whether `rate` verifies `proof` against `cnf` (it prints `s VERIFIED` and exits 0).
pub fn rate_accepts(rate: &Path, cnf: &Path, proof: &Path) -> bool {
    let out = Command::new(rate)
        .arg(cnf)
        .arg(proof)
        .output()
        .expect("run rate");
    let verified = String::from_utf8_lossy(&out.stdout)
        .lines()
        .any(|l| l.trim() == "s VERIFIED");
    verified && out.status.success()
}

/// `FILE.cnf` beside a proof `FILE`.
pub fn cnf_of(proof: &Path) -> PathBuf {
    let mut name = proof.as_os_str().to_owned();
    name.push(".cnf");
    PathBuf::from(name)
}
