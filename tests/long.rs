//! The long suites: whole corpora certified and cross-checked, every solver's agreement on every
//! corpus board, the ILP backend on the corpora, the solvers' interrupt under stress, the server
//! under 2,000 stalled connections and both pages in Chromium. `scripts/test-long.sh` runs them
//! (`cargo test --release --test long`) with the doc tests; `.ci/run` runs them too. The
//! README's `cargo test --release` runs the fast suite (`tests/tests.rs`) only.

// Shared with the fast suite, which uses other parts of them.
mod common;
#[path = "ilp/support.rs"]
mod ilp_support;

#[path = "long/formats.rs"]
mod formats;
#[path = "long/ilp.rs"]
mod ilp;
#[path = "long/interrupts.rs"]
mod interrupts;
#[path = "long/proofs.rs"]
mod proofs;
#[cfg(feature = "cadical")]
#[path = "long/solvers.rs"]
mod solvers;
#[path = "long/web.rs"]
mod web;
