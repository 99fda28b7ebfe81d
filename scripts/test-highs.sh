#!/usr/bin/env bash
# Runs the ILP, compare and cross-check tests of both suites (tests/tests.rs, tests/long.rs) with
# HiGHS linked in (cargo feature `highs`), besides microlp, as .ci/run does. Building HiGHS from
# source (C++, through cmake) takes about seven CPU-minutes; see README.md, "ILP backend". Needs cmake and libclang:
#   apt-get install cmake libclang-dev
# A separate target folder keeps the default build's artefacts untouched.
set -euo pipefail
cd "$(dirname "$0")/.."
for tool in cmake; do
  command -v "$tool" >/dev/null || { echo "test-highs: $tool is missing (apt-get install cmake libclang-dev)" >&2; exit 2; }
done
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-target/highs}"
cargo test --release --features highs --lib ilp::
cargo test --release --features highs --test integration -- ilp:: compare:: cross_check "$@"
cargo test --release --features highs --test long -- ilp:: cross_check "$@"
