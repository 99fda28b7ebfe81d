//! What the fast `ilp` module and the long suite's `ilp` module share: the solvers this build
//! links, the options of an ILP solve, and the corpus boards they run on. Each binary uses part
//! of it.

#![allow(dead_code)]

use crate::common::{files, read, shared};
use bimaru_sat::encode::ilp::{IlpModel, IlpSolver};
use bimaru_sat::model::puzzle::Puzzle;
use bimaru_sat::{Backend, Goal, SolveOptions};
use std::path::{Path, PathBuf};
use std::process::Command;
use strum::VariantArray;

/// The solvers this build links: microlp always, HiGHS and CBC with their features.
pub fn solvers() -> Vec<IlpSolver> {
    IlpSolver::VARIANTS
        .iter()
        .copied()
        .filter(|s| s.is_available())
        .collect()
}

pub fn ilp(model: IlpModel, solver: IlpSolver, limit: usize) -> SolveOptions {
    SolveOptions {
        backend: Backend::Ilp,
        ilp_model: model,
        ilp_solver: solver,
        goal: Goal::Count(limit),
        ..SolveOptions::default()
    }
}

/// The 25 official IST instances (public and mooshak-private), each with its `.out`.
pub fn ist_official() -> Vec<PathBuf> {
    let mut all = Vec::new();
    for dir in [
        "corpus/ist-bimaru/public",
        "corpus/ist-bimaru/mooshak-private",
    ] {
        if let Some(d) = shared(dir) {
            all.extend(files(&d, ".txt"));
        }
    }
    all
}

pub fn out_of(txt: &Path) -> PathBuf {
    txt.with_extension("out")
}

/// `cbc`, if installed. Under `CI=true` a missing cbc fails the test instead of skipping it.
pub fn cbc() -> Option<&'static str> {
    let found = Command::new("cbc")
        .arg("-quit")
        .output()
        .is_ok_and(|o| o.status.success());
    if found {
        return Some("cbc");
    }
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("CI=true but cbc is not installed (apt-get install coinor-cbc)");
    }
    eprintln!("skipping: cbc is not installed");
    None
}

/// The 39 MiniZinc solbat boards (dense, no clues, 12x12 to 15x15, ships up to length 7).
pub fn solbat() -> Vec<(String, Puzzle)> {
    let Some(dir) = shared("corpus/minizinc-solbat") else {
        return Vec::new();
    };
    let boards: Vec<(String, Puzzle)> = files(&dir, ".dzn")
        .into_iter()
        .map(|path| {
            let text = String::from_utf8(read(&path)).unwrap();
            let format = bimaru_sat::format::detect(&text).unwrap();
            let mut doc =
                bimaru_sat::format::parse_document(&text, format, &bimaru_sat::Limits::default())
                    .unwrap();
            (path.display().to_string(), doc.boards.remove(0).puzzle)
        })
        .collect();
    assert_eq!(boards.len(), 39);
    boards
}
