#!/bin/sh
# trim.sh RESULTS: rewrites testdata/run from the result files in RESULTS
# (a `make bench` or `make quick` run), trimmed to what the report reads:
# lookup.txt's header, Lookup from=key rows at 100 and 10,000 nodes and
# Build rows at 100; movement.csv's add, remove-random and remove-last
# rows; replication.csv's remove-random rows; spread.csv, load.csv,
# storm.csv, boundedloads.csv, conformance.csv and switching.csv whole.
# Run from the report directory.
set -eu
src=${1:?usage: trim.sh RESULTS}
out=testdata/run
mkdir -p "$out"
grep -v '^Benchmark' "$src/lookup.txt" | grep -v '^PASS\|^ok ' > "$out/lookup.txt"
grep -E '^BenchmarkLookup/algo=[^/]+/nodes=(100|10000)/from=key-|^BenchmarkBuild/algo=[^/]+/nodes=100-' "$src/lookup.txt" >> "$out/lookup.txt"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "op") c = i; print; next } $c == "add" || $c == "remove-random" || $c == "remove-last"' "$src/movement.csv" > "$out/movement.csv"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "op") c = i; print; next } $c == "remove-random"' "$src/replication.csv" > "$out/replication.csv"
for f in spread.csv load.csv storm.csv boundedloads.csv conformance.csv switching.csv; do cp "$src/$f" "$out/$f"; done
