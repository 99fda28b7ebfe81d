#!/usr/bin/env bash
# Walks every puzzle of the given folders (or files) from its clues to its solution with
# repeated `hint --state S --state-out S` calls, and reports for the whole set: hints given,
# hints that fell back to a bare search ("no short chain of rules decides an open cell"), hints
# that needed a case split, and the longest hint line in characters. docs/authoring.md records
# its figures. Usage: scripts/hint-walk.sh [BINARY] PUZZLES...   (BINARY defaults to
# target/release/bimaru-sat; a path ending in `bimaru-sat*` is taken as the binary).
set -euo pipefail
bin=target/release/bimaru-sat
if [[ $# -gt 0 && "$(basename "$1")" == bimaru* ]]; then bin=$1; shift; fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
files=()
for arg in "$@"; do
  if [[ -d $arg ]]; then
    for f in "$arg"/*.json "$arg"/*.txt; do [[ -e $f ]] && files+=("$f"); done
  else
    files+=("$arg")
  fi
done
hints=0 bare=0 split=0 core=0 longest=0 failed=0
for f in "${files[@]}"; do
  state=$tmp/state
  rm -f "$state"
  args=()
  while :; do
    if ! line=$("$bin" hint "$f" "${args[@]}" --state-out "$state" 2>"$tmp/err"); then
      failed=$((failed + 1)); echo "hint-walk: $f: $(cat "$tmp/err")" >&2; break
    fi
    [[ $line == complete:* ]] && break
    hints=$((hints + 1))
    [[ $line == *"no short chain of rules"* ]] && bare=$((bare + 1))
    [[ $line == *"either way"* ]] && split=$((split + 1))
    [[ $line == *"a search shows it"* ]] && core=$((core + 1))
    (( ${#line} > longest )) && longest=${#line}
    args=(--state "$state")
  done
done
echo "puzzles ${#files[@]}, hints $hints, bare search hints $bare, case-split hints $split, search hints naming their rules $core, longest hint $longest characters, failed walks $failed"
