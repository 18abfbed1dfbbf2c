#!/usr/bin/env bash
# //fuzz:golden_seeds_test: the golden seeds of the scenario and differential
# corpora are what fuzz/golden_seeds.py derives from golden/ (it names every
# stale, missing or extra one), and every one of them is an input the fuzz
# targets really run: it decodes, and differential's are within its bounds
# (fuzz/seed_decode_check.cc; the targets skip other inputs silently).
#
#   golden_seeds_test.sh SEED_DECODE_CHECK
#
# Runs in the runfiles tree, which holds golden/ and both corpora.
set -uo pipefail

check="$1"
failed=0
python3 fuzz/golden_seeds.py --check || failed=1
"${check}" fuzz/corpus/scenario/golden_* || failed=1
"${check}" --differential fuzz/corpus/differential/golden_* || failed=1
exit "${failed}"
