//! Certified answers (`--proof`, `check-proof`, `--cross-check`): a flipped literal in the
//! proof and a clause missing from the formula are rejected by both `check-proof` and the
//! independent `rate` checker, binary DRAT is accepted, and the cross-check agrees on a corpus
//! board and names a planted faulty engine. The corpus-wide certificates and cross-checks are in
//! the long suite (`tests/long/proofs.rs`).

use crate::common::{cnf_of, rate, rate_accepts, run, shared};
use std::path::{Path, PathBuf};

/// A certificate of `puzzle` written by `--unique --proof` (with `extra` flags) into `dir`.
fn certificate(puzzle: &Path, dir: &Path, extra: &[&str]) -> PathBuf {
    let proof = dir.join("p.drat");
    let mut args = vec![
        "--unique",
        "--proof",
        proof.to_str().unwrap(),
        puzzle.to_str().unwrap(),
    ];
    args.extend(extra);
    let out = run(&args, b"");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("unique solution certified"), "{stderr}");
    proof
}

/// `check-proof`'s exit code and stderr.
fn check_proof(puzzle: &Path, proof: &Path) -> (Option<i32>, String) {
    let out = run(
        &[
            "check-proof",
            puzzle.to_str().unwrap(),
            proof.to_str().unwrap(),
        ],
        b"",
    );
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_flipped_literal_in_the_proof_and_a_missing_clause_are_rejected_by_both_checkers() {
    let puzzle = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/generated/15x15/001.json");
    let tmp = tempfile::tempdir().unwrap();
    let proof = certificate(&puzzle, tmp.path(), &[]);
    let cnf = cnf_of(&proof);
    let rate = rate();
    assert_eq!(check_proof(&puzzle, &proof).0, Some(0));
    if let Some(rate) = &rate {
        assert!(rate_accepts(rate, &cnf, &proof));
    }
    let proof_text = std::fs::read_to_string(&proof).unwrap();
    let cnf_text = std::fs::read_to_string(&cnf).unwrap();

    // Flip the first literal of the first lemma (a pre-solving fact: its negation is false).
    let first = proof_text
        .lines()
        .position(|l| !l.starts_with('d') && l.trim() != "0")
        .expect("a lemma");
    let mut lines: Vec<String> = proof_text.lines().map(String::from).collect();
    let mut lits: Vec<i64> = lines[first]
        .split_whitespace()
        .map(|w| w.parse().unwrap())
        .collect();
    lits[0] = -lits[0];
    lines[first] = lits
        .iter()
        .map(|l| l.to_string())
        .collect::<Vec<_>>()
        .join(" ");
    std::fs::write(&proof, lines.join("\n") + "\n").unwrap();
    let (code, stderr) = check_proof(&puzzle, &proof);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains("rejected at step 4 (the DRAT proof)")
            && stderr.contains(&format!("line {}", first + 1)),
        "{stderr}"
    );
    if let Some(rate) = &rate {
        assert!(
            !rate_accepts(rate, &cnf, &proof),
            "rate accepts a flipped literal"
        );
    }
    std::fs::write(&proof, &proof_text).unwrap();

    // Delete the clause that blocks the solution (the header's clause count follows): the
    // formula is satisfiable, so no proof can refute it.
    let mut lines: Vec<String> = cnf_text.lines().map(String::from).collect();
    let last = lines
        .iter()
        .rposition(|l| !l.starts_with('c') && !l.trim().is_empty())
        .unwrap();
    lines.remove(last);
    let header = lines.iter().position(|l| l.starts_with("p cnf")).unwrap();
    let words: Vec<usize> = lines[header]
        .split_whitespace()
        .skip(2)
        .map(|w| w.parse().unwrap())
        .collect();
    lines[header] = format!("p cnf {} {}", words[0], words[1] - 1);
    std::fs::write(&cnf, lines.join("\n") + "\n").unwrap();
    let (code, stderr) = check_proof(&puzzle, &proof);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains("rejected at step 3 (the formula, clause for clause)"),
        "{stderr}"
    );
    if let Some(rate) = &rate {
        assert!(
            !rate_accepts(rate, &cnf, &proof),
            "rate accepts a missing clause"
        );
    }
}

#[test]
fn binary_drat_and_a_chosen_encoding_are_accepted_by_both_checkers() {
    let puzzle = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/generated/15x15/002.json");
    let tmp = tempfile::tempdir().unwrap();
    let proof = certificate(
        &puzzle,
        tmp.path(),
        &[
            "--proof-format",
            "binary",
            "--proof-encoding",
            "placement",
            "--proof-card",
            "seq",
        ],
    );
    let bytes = std::fs::read(&proof).unwrap();
    assert_eq!(
        bytes.first(),
        Some(&b'a'),
        "binary DRAT starts with a lemma"
    );
    let cnf = std::fs::read_to_string(cnf_of(&proof)).unwrap();
    assert!(cnf.contains("c model: placement\nc card: seq\n"));
    let (code, stderr) = check_proof(&puzzle, &proof);
    assert_eq!(code, Some(0), "{stderr}");
    if let Some(rate) = rate() {
        assert!(rate_accepts(&rate, &cnf_of(&proof), &proof));
    }
}

#[cfg_attr(
    no_shared,
    ignore = "needs ../shared, missing when this test was built"
)]
#[test]
fn the_cross_check_of_a_corpus_board_agrees() {
    let Some(dir) = shared("corpus/ist-bimaru/public") else {
        return;
    };
    let puzzle = dir.join("instance05.txt");
    let out = run(
        &["--unique", "--cross-check", puzzle.to_str().unwrap()],
        b"",
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("cross-check: sat/cell/seq, sat/placement/seq, ilp/ship agree"),
        "{stderr}"
    );
}

/// The fault hook exists only in builds with the `plant-fault` feature (`.ci/run` runs this
/// test with it); the release binary has none (`the_release_binary_has_no_fault_hook`).
#[cfg(feature = "plant-fault")]
#[cfg_attr(
    no_shared,
    ignore = "needs ../shared, missing when this test was built"
)]
#[test]
fn the_cross_check_names_a_planted_faulty_engine_and_exits_1() {
    let Some(dir) = shared("corpus/ist-bimaru/public") else {
        return;
    };
    let puzzle = dir.join("instance05.txt");
    for victim in ["sat/placement/seq", "ilp/ship"] {
        let out = crate::common::bin()
            .args(["--unique", "--cross-check", puzzle.to_str().unwrap()])
            .env("BIMARU_SAT_PLANT_FAULT", victim)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert!(
            stderr.contains(&format!(
                "cross-check failed: {victim} disagrees with sat/cell/seq"
            )),
            "{stderr}"
        );
    }
}

/// Without the `plant-fault` feature the fault hook is not compiled: the environment variable
/// changes nothing, and its name is nowhere in the binary.
#[cfg(not(feature = "plant-fault"))]
#[test]
fn the_release_binary_has_no_fault_hook() {
    let binary = std::fs::read(env!("CARGO_BIN_EXE_bimaru-sat")).unwrap();
    let name = b"BIMARU_SAT_PLANT_FAULT";
    assert!(
        !binary.windows(name.len()).any(|w| w == name),
        "the binary names the fault hook"
    );
    let Some(dir) = shared("corpus/ist-bimaru/public") else {
        return;
    };
    let puzzle = dir.join("instance05.txt");
    let out = crate::common::bin()
        .args(["--unique", "--cross-check", puzzle.to_str().unwrap()])
        .env("BIMARU_SAT_PLANT_FAULT", "ilp/ship")
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn the_cross_check_reports_a_leg_out_of_budget_as_unconfirmed_and_strict_fails_it() {
    // A dense solbat board: no leg proves uniqueness within a millisecond.
    let Some(puzzle) = shared("corpus/minizinc-solbat/sb_15_15_7_0.dzn") else {
        return;
    };
    let args = |strict: bool| {
        let mut args = vec![
            "--unique",
            "--cross-check",
            "--cross-check-budget",
            "0.001",
            puzzle.to_str().unwrap(),
        ];
        if strict {
            args.insert(2, "--strict");
        }
        run(&args, b"")
    };
    let out = args(false);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("ilp/ship (microlp): not confirmed within 0.001 s")
            || stderr.contains("ilp/ship (highs): not confirmed within 0.001 s"),
        "{stderr}"
    );
    assert!(stderr.contains(" 0 disagree, "), "{stderr}");
    assert!(!stderr.contains("ilp/ship agree"), "{stderr}");
    let out = args(true);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("cross-check failed (--strict):"),
        "{stderr}"
    );
}
