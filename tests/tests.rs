//! The fast suite of integration tests: one binary, one module per theme (the ripgrep layout).
//! The long suites (whole corpora, stress, the browser) are the `long` binary (`tests/long.rs`).

mod common;

mod advise;
mod architecture;
mod author;
mod cli;
mod compare;
mod corpus_formats;
mod dimacs;
mod encodings;
mod format_props;
mod formats;
mod formulas;
mod fuzz;
mod hard;
mod hostile;
mod ilp;
mod ist_corpus;
mod messages;
mod output;
mod proofs;
mod properties;
mod public_api;
mod puzzlink;
mod readme;
mod snapshots;
mod time_limits;
mod usage;
mod web;

/// The tests that need `../shared` are ignored, with the reason, when `build.rs` found its
/// corpus or seeds missing outside CI. This one fails when they have appeared or vanished since
/// that check, so that no test is ignored, or skipped as a bare `ok`, by a stale build.
#[test]
fn shared_is_as_the_build_found_it() {
    let root = std::env::var_os("BIMARU_SHARED").map_or_else(
        || std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared"),
        std::path::PathBuf::from,
    );
    let ci = std::env::var("CI").is_ok_and(|v| v == "true");
    let whole = root.join("corpus").exists() && root.join("seeds").exists();
    assert_eq!(
        cfg!(no_shared),
        !whole && !ci,
        "{}: its corpus or seeds {} since the tests were built: run `touch build.rs` and test \
         again",
        root.display(),
        if whole { "appeared" } else { "vanished" }
    );
}

/// Likewise for the browser test's `tests/web/node_modules`.
#[test]
fn node_modules_are_as_the_build_found_them() {
    let present = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/web/node_modules/playwright-core")
        .exists();
    let ci = std::env::var("CI").is_ok_and(|v| v == "true");
    assert_eq!(
        cfg!(no_node_modules),
        !present && !ci,
        "tests/web/node_modules {} since the tests were built: run `touch build.rs` and test again",
        if present { "appeared" } else { "vanished" }
    );
}
