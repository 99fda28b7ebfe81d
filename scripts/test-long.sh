#!/usr/bin/env bash
# The long suites, after the README's `cargo test --release` (the fast suite): whole corpora
# certified and cross-checked, every solver on every corpus board, the ILP backend on the
# corpora, the solvers' interrupt under stress, the server under 2,000 stalled connections, both
# pages in Chromium (tests/long.rs), then the doc tests. Extra arguments go to cargo, before the
# test filter: `scripts/test-long.sh --no-default-features --features cli -- proofs::`.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --release --test long "$@"
# The doc tests take no `--test` filter; with cargo's own flags only.
if [[ " $* " != *" -- "* ]]; then
  cargo test --release --doc "$@"
fi
