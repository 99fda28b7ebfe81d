#!/bin/bash
# Certifies every hard board (puzzles/hard/tuning, puzzles/hard/heldout and
# puzzles/generated/30x30-minimal, or the boards given) with `--unique --proof`, then checks each
# proof with the independent `rate` checker (cargo install rate --locked) and with `check-proof`.
# One line per board: exit code, proof time, proof size, rate's verdict and time, check-proof's
# verdict. Exits 1 when any board is not certified or either checker rejects its proof.
#
#   cargo build --release && scripts/certify-hard.sh [BOARD...]
set -u
cd "$(dirname "$0")/.."
BIN=${BIN:-target/release/bimaru-sat}
RATE=${RATE:-$(command -v rate || echo ~/.cargo/bin/rate)}
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
[ $# -gt 0 ] || set -- puzzles/hard/tuning/*.json puzzles/hard/heldout/*.json puzzles/generated/30x30-minimal/*.json
now() { date +%s.%N; }
failed=0
for board in "$@"; do
  proof=$DIR/proof.drat
  start=$(now)
  "$BIN" --unique --proof "$proof" "$board" >/dev/null 2>&1
  code=$?
  proved=$(echo "$(now) - $start" | bc)
  start=$(now)
  verdict=$("$RATE" "$proof.cnf" "$proof" 2>&1 | grep -E '^s ' | head -1)
  rated=$(echo "$(now) - $start" | bc)
  checked=$("$BIN" check-proof "$board" "$proof" 2>&1 | head -1 | cut -d'(' -f1)
  size=$(stat -c %s "$proof" 2>/dev/null || echo 0)
  printf '%s exit %s, proof %.2f s (%d bytes), rate [%s] %.2f s, check-proof [%s]\n' \
    "$board" "$code" "$proved" "$size" "$verdict" "$rated" "$checked"
  if [ "$code" != 0 ] || [ "$verdict" != "s VERIFIED" ] || [[ "$checked" != certified:* ]]; then
    failed=1
  fi
  rm -f "$proof" "$proof.cnf"
done
exit $failed
