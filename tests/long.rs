//! The long suites: whole corpora certified and cross-checked, every solver's agreement on every
//! corpus board, the ILP backend on the corpora, the solvers' interrupt under stress, the server
//! under 2,000 stalled connections and both pages in Chromium. `scripts/test-long.sh` runs them
//! (`cargo test --release --test long`) with the doc tests; `.ci/run` runs them too. The
//! README's `cargo test --release` runs the fast suite (`tests/tests.rs`) only.

// Shared with the fast suite, which uses other parts of them.
mod common;
#[path = "ilp/support.rs"]
mod ilp_support;

use std::sync::{PoisonError, RwLock, RwLockReadGuard, RwLockWriteGuard};

/// The machine, shared by the tests that only need it to finish and held alone by those that
/// also measure a time (a solve within a second, a board drawn within a second): they ran
/// beside a test whose solver and generator use every core, and a 100 ms answer took 1 s.
static MACHINE: RwLock<()> = RwLock::new(());

/// For a test that checks a time: no other long test runs until the guard drops.
fn machine_alone() -> RwLockWriteGuard<'static, ()> {
    MACHINE.write().unwrap_or_else(PoisonError::into_inner)
}

/// For every other test: it runs beside the others, but not beside one that checks a time.
fn machine_shared() -> RwLockReadGuard<'static, ()> {
    MACHINE.read().unwrap_or_else(PoisonError::into_inner)
}

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
