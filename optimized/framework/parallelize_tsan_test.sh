#!/usr/bin/env bash
# Runs parallelize_tsan_canary (see its header). Under --config=tsan
# (argument "tsan"): the racy run must end in a ThreadSanitizer data-race
# report and the disjoint run in none, or the tsan build checks nothing of the
# parallel Filter and Score. In other builds both runs must simply succeed.
set -uo pipefail
canary="$1"
mode="$2"

out_race="$("$canary" race 2>&1)"; rc_race=$?
out_disjoint="$("$canary" disjoint 2>&1)"; rc_disjoint=$?

fail() {
  echo "FAIL: $*"
  echo "--- race run (exit $rc_race):"; echo "$out_race"
  echo "--- disjoint run (exit $rc_disjoint):"; echo "$out_disjoint"
  exit 1
}

if [[ "$mode" == tsan ]]; then
  grep -q "WARNING: ThreadSanitizer: data race" <<<"$out_race" ||
    fail "TSan did not report the deliberate race in a Parallelizer body"
  ((rc_race != 0)) || fail "the racy run exited 0 despite halt_on_error"
  grep -q "ThreadSanitizer" <<<"$out_disjoint" &&
    fail "TSan reported a race in race-free bodies (TBB's synchronisation unseen?)"
  ((rc_disjoint == 0)) || fail "the disjoint run failed"
else
  ((rc_race == 0 && rc_disjoint == 0)) || fail "a canary run failed"
fi
echo "PASS ($mode): $(head -1 <<<"$out_disjoint")"
