#!/usr/bin/env bash
# What --proof costs on the 30x30 set, as CPU time of whole runs (user + sys, best of 3 runs,
# which is steady on a shared machine where wall time is not): `bimaru-sat --unique FILE`
# against `bimaru-sat --unique --proof TMP FILE` for each puzzle, then the median and the
# largest ratio. docs/benchmarks.md ("Proofs") records its output. Needs GNU time
# (/usr/bin/time) and a release build.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=./target/release/bimaru-sat
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cpu() {
  local best=999999
  for _ in 1 2 3; do
    /usr/bin/time -o "$tmp/t" -f "%U %S" "$@" >/dev/null 2>&1 || true
    best=$(awk -v best="$best" '{t = $1 + $2; print (t < best) ? t : best}' "$tmp/t")
  done
  echo "$best"
}
echo "puzzle unique_s proof_s ratio"
for file in puzzles/generated/30x30/*.json; do
  unique=$(cpu "$bin" --unique "$file")
  proof=$(cpu "$bin" --unique --proof "$tmp/p.drat" "$file")
  echo "$(basename "$file" .json) $unique $proof" | awk '{printf "%s %s %s %.2f\n", $1, $2, $3, $3 / $2}'
done | tee "$tmp/rows"
sort -k4 -n "$tmp/rows" | awk '{r[NR] = $4} END {m = (NR % 2) ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2; printf "median ratio %.2f, largest %.2f (%d puzzles)\n", m, r[NR], NR}'
