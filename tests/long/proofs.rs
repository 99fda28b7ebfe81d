//! Certified answers on whole corpora: every IST, Rubin and generated puzzle up to 30x30 gets a
//! formula and a DRAT proof that both `check-proof` and the independent `rate` checker accept,
//! and `--cross-check` agrees on every board of the shared corpus. The quick certificate tests
//! (a flipped literal, a missing clause, binary DRAT, a planted faulty engine) are in the fast
//! suite's `proofs` module.

use crate::common::{cnf_of, files, rate, rate_accepts, rubin_boards, run, shared, walk};
use bimaru_sat::encode::sat::card::CardKind;
use bimaru_sat::format::{self, parse_document};
use bimaru_sat::usecase::proof::{cross_check, cross_configs};
use rayon::prelude::*;
use std::path::{Path, PathBuf};

/// A certificate to check: the puzzle file and the proof (its formula beside it).
struct Pair {
    puzzle: PathBuf,
    proof: PathBuf,
}

/// `check-proof` on every pair (exit 0, its output starting `certified: CLAIM`) and `rate` on every formula and
/// proof, in parallel. Returns how many pairs `rate` saw (0 when it is missing).
fn accepted_by_both(pairs: &[Pair], claim: impl Fn(&Pair) -> &'static str + Sync) -> usize {
    pairs.par_iter().for_each(|pair| {
        let out = run(
            &[
                "check-proof",
                pair.puzzle.to_str().unwrap(),
                pair.proof.to_str().unwrap(),
            ],
            b"",
        );
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}: {stdout}{}",
            pair.proof.display(),
            String::from_utf8_lossy(&out.stderr)
        );
        let want = format!("certified: {}", claim(pair));
        assert!(stdout.starts_with(&want), "{stdout}");
    });
    let Some(rate) = rate() else {
        return 0;
    };
    pairs.par_iter().for_each(|pair| {
        assert!(
            rate_accepts(&rate, &cnf_of(&pair.proof), &pair.proof),
            "rate rejects {}",
            pair.proof.display()
        );
    });
    pairs.len()
}

/// Runs `batch` with `args`, `--proof-dir DIR` and `inputs`; returns its summary line (stderr)
/// after checking the exit code.
fn batch(args: &[&str], dir: &Path, inputs: &[PathBuf], exit: i32) -> String {
    let mut all: Vec<&str> = vec!["batch"];
    all.extend(args);
    all.extend(["--proof-dir", dir.to_str().unwrap()]);
    all.extend(inputs.iter().map(|p| p.to_str().unwrap()));
    let out = run(&all, b"");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(exit), "{stderr}");
    stderr
}

/// The number before `what` in a summary (`... 73 unique, ...`).
fn count(summary: &str, what: &str) -> usize {
    let at = summary
        .find(what)
        .unwrap_or_else(|| panic!("no `{what}` in {summary}"));
    summary[..at]
        .split_whitespace()
        .last()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no count before `{what}` in {summary}"))
}

/// The puzzles of `dirs` that `batch` reads (format detected), with the proof each gets.
fn pairs_in(dirs: &[PathBuf], proofs: &Path, suffix: &str) -> Vec<Pair> {
    dirs.iter()
        .flat_map(|dir| files(dir, suffix))
        .map(|puzzle| Pair {
            proof: proofs.join(format!(
                "{}.drat",
                puzzle.file_name().unwrap().to_str().unwrap()
            )),
            puzzle,
        })
        .collect()
}

#[cfg_attr(
    no_shared,
    ignore = "needs ../shared, missing when this test was built"
)]
#[test]
fn every_ist_puzzle_is_certified_and_both_checkers_accept() {
    let _machine = crate::machine_shared();
    let Some(root) = shared("corpus/ist-bimaru") else {
        return;
    };
    let dirs: Vec<PathBuf> = [
        "public",
        "mooshak-private",
        "student-random-set",
        "extra-pedrocurvo",
        "extra-tideane",
    ]
    .iter()
    .map(|d| root.join(d))
    .collect();
    let tmp = tempfile::tempdir().unwrap();
    let unique_dir = tmp.path().join("unique");
    // Exit 1: instance14 has no solution (and some boards have several: not exit 3, since
    // "no solution" comes first).
    let summary = batch(&["--unique"], &unique_dir, &dirs, 1);
    let (unique, unsat) = (
        count(&summary, "unique,"),
        count(&summary, "without solution"),
    );
    assert_eq!(unsat, 1, "{summary}");
    assert_eq!(count(&summary, "certified"), unique + unsat, "{summary}");
    let several = count(&summary, "with several solutions");
    assert_eq!(
        count(&summary, "with an outcome no proof certifies"),
        several
    );
    let all = pairs_in(&dirs, &unique_dir, ".txt");
    let (certified, not): (Vec<Pair>, Vec<Pair>) = all
        .into_iter()
        .filter(|p| !p.puzzle.ends_with("Read.txt"))
        .partition(|p| p.proof.exists());
    assert_eq!(certified.len(), unique + unsat);
    assert!(
        certified
            .iter()
            .any(|p| p.puzzle.ends_with("extra-pedrocurvo/instance14.txt"))
    );
    let claim = |p: &Pair| {
        if p.puzzle.ends_with("instance14.txt") {
            "no solution ("
        } else {
            "unique solution ("
        }
    };
    accepted_by_both(&certified, claim);

    // The boards with several solutions: a complete count is certified as well.
    let count_dir = tmp.path().join("count");
    let inputs: Vec<PathBuf> = not.iter().map(|p| p.puzzle.clone()).collect();
    assert_eq!(inputs.len(), several);
    let summary = batch(&["--count", "100000"], &count_dir, &inputs, 0);
    assert_eq!(count(&summary, "certified"), several, "{summary}");
    let counted: Vec<Pair> = inputs
        .into_iter()
        .map(|puzzle| Pair {
            proof: count_dir.join(format!(
                "{}.drat",
                puzzle.file_name().unwrap().to_str().unwrap()
            )),
            puzzle,
        })
        .collect();
    // `certified: exactly N solutions`: N is the puzzle's, so only the start is fixed.
    accepted_by_both(&counted, |_| "exactly");
}

#[cfg_attr(
    no_shared,
    ignore = "needs ../shared, missing when this test was built"
)]
#[test]
fn every_rubin_board_is_certified_and_both_checkers_accept() {
    let _machine = crate::machine_shared();
    let boards = rubin_boards(usize::MAX);
    let Some(file) = shared("corpus/csplib-014/SBInstances/unsolvable_for_csplib.txt") else {
        return;
    };
    assert_eq!(boards.len(), 303);
    let tmp = tempfile::tempdir().unwrap();
    let summary = batch(&["--unique"], tmp.path(), std::slice::from_ref(&file), 0);
    assert_eq!(count(&summary, "certified"), 303, "{summary}");
    // check-proof finds each board in the file by the fingerprint in its formula's header.
    let pairs: Vec<Pair> = boards
        .iter()
        .map(|b| Pair {
            puzzle: file.clone(),
            proof: tmp
                .path()
                .join(format!("unsolvable_for_csplib.txt-{}.drat", b.id)),
        })
        .collect();
    accepted_by_both(&pairs, |_| "unique solution (");
}

/// The generated sets up to 30x30 (`puzzles/generated/`), each puzzle certified unique (one
/// batch per set: file names repeat across sets).
fn generated(sets: &[&str]) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/generated");
    let tmp = tempfile::tempdir().unwrap();
    let mut pairs = Vec::new();
    for set in sets {
        let dir = root.join(set);
        let proofs = tmp.path().join(set);
        let summary = batch(&["--unique"], &proofs, std::slice::from_ref(&dir), 0);
        // Each puzzle is kept as `NNN.json` and `NNN.txt`; batch solves the first copy of a
        // puzzle in a folder and skips the second.
        let these = pairs_in(std::slice::from_ref(&dir), &proofs, ".json");
        assert!(!these.is_empty());
        assert_eq!(count(&summary, "certified"), these.len(), "{summary}");
        assert_eq!(count(&summary, "unique,"), these.len(), "{summary}");
        pairs.extend(these);
    }
    accepted_by_both(&pairs, |_| "unique solution (");
}

#[test]
fn every_generated_puzzle_up_to_20x20_is_certified_and_both_checkers_accept() {
    let _machine = crate::machine_shared();
    generated(&["10x10", "15x15", "20x20"]);
}

#[test]
fn every_generated_30x30_puzzle_is_certified_and_both_checkers_accept() {
    let _machine = crate::machine_shared();
    // One `--unique --proof` run per puzzle (batch would check each pair once more).
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/generated/30x30");
    let tmp = tempfile::tempdir().unwrap();
    let pairs = pairs_in(std::slice::from_ref(&dir), tmp.path(), ".json");
    assert_eq!(pairs.len(), 20);
    pairs.par_iter().for_each(|pair| {
        let out = run(
            &[
                "--unique",
                "--proof",
                pair.proof.to_str().unwrap(),
                pair.puzzle.to_str().unwrap(),
            ],
            b"",
        );
        assert_eq!(out.status.code(), Some(0), "{}", pair.puzzle.display());
    });
    accepted_by_both(&pairs, |_| "unique solution (");
}

/// Every puzzle of the shared corpus, in every format it holds, with its file's name, but the
/// MiniZinc solbat files: dense boards without clues, most with many solutions, where the ILP
/// leg (microlp) needs minutes per board and fails on two with microlp's "Singular matrix"
/// (`docs/proofs.md`).
fn corpus_puzzles() -> Vec<(String, bimaru_sat::Puzzle)> {
    let Some(root) = shared("corpus") else {
        return Vec::new();
    };
    walk(&root)
        .into_iter()
        .filter(|path| !path.starts_with(root.join("minizinc-solbat")))
        .filter_map(|path| {
            let text = String::from_utf8(std::fs::read(&path).ok()?).ok()?;
            let doc = parse_document(
                &text,
                format::detect(&text).ok()?,
                &bimaru_sat::Limits::default(),
            )
            .ok()?;
            Some((path, doc))
        })
        .flat_map(|(path, doc)| {
            let name = path.display().to_string();
            doc.boards
                .into_iter()
                .map(move |b| (name.clone(), b.puzzle))
        })
        .collect()
}

#[cfg_attr(
    no_shared,
    ignore = "needs ../shared, missing when this test was built"
)]
#[test]
fn the_cross_check_agrees_on_the_corpus() {
    let _machine = crate::machine_shared();
    let puzzles = corpus_puzzles();
    if puzzles.is_empty() {
        return;
    }
    assert!(puzzles.len() > 600, "{} boards", puzzles.len());
    let configs = cross_configs(CardKind::Seq);
    let names: Vec<&str> = configs.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["sat/cell/seq", "sat/placement/seq", "ilp/ship"]);
    puzzles.par_iter().for_each(|(name, puzzle)| {
        let checked = cross_check(puzzle, &cross_configs(CardKind::Seq), None);
        assert_eq!(checked.verdicts.len(), 3);
        assert_eq!(checked.disagreement(), None, "{name}");
    });
}

/// The 39 MiniZinc solbat boards with a budget of 5 s per leg (half of `--cross-check`'s default,
/// to keep CI short): every board gets three verdicts and no disagreement; a leg that runs out of
/// budget (the ILP leg with microlp on most of them) is reported as unconfirmed, never as
/// agreement. With HiGHS linked the ILP leg uses it.
#[cfg_attr(
    no_shared,
    ignore = "needs ../shared, missing when this test was built"
)]
#[test]
fn the_cross_check_of_the_solbat_boards_has_no_disagreement() {
    let _machine = crate::machine_shared();
    let Some(dir) = shared("corpus/minizinc-solbat") else {
        return;
    };
    let boards = files(&dir, ".dzn");
    assert_eq!(boards.len(), 39);
    let budget = Some(std::time::Duration::from_secs(5));
    boards.par_iter().for_each(|path| {
        let text = std::fs::read_to_string(path).unwrap();
        let mut doc = parse_document(
            &text,
            format::detect(&text).unwrap(),
            &bimaru_sat::Limits::default(),
        )
        .unwrap();
        let puzzle = doc.boards.remove(0).puzzle;
        let checked = cross_check(&puzzle, &cross_configs(CardKind::Seq), budget);
        assert_eq!(checked.verdicts.len(), 3);
        assert_eq!(checked.disagreement(), None, "{}", path.display());
        let tally = checked.tally();
        assert_eq!(tally.disagree, 0, "{}", path.display());
        assert_eq!(tally.agree + tally.unconfirmed, 3, "{}", path.display());
    });
}
