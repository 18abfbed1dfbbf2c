#!/usr/bin/env bash
# Builds every schedref_fuzz_test fuzzer (cc_binary tagged "fuzzer") in the
# asan configuration (--config=fuzz, the same build as --config=asan) and
# runs each one for a fixed time, with its dict if it has one.
#
#   bazel/run_fuzzers.sh [--keep-corpus] [SECONDS_PER_FUZZER] [TARGET_PATTERN (default //...)]
#
# SECONDS_PER_FUZZER defaults to $SCHEDREF_FUZZ_SECONDS, else 30.
#
# Without --keep-corpus (CI's fuzz stage) each fuzzer starts from a writable
# copy of its seed corpus in a temporary folder, removed after a clean run.
# With --keep-corpus (a long campaign) each fuzzer's corpus is kept between
# runs in $SCHEDREF_FUZZ_CORPUS/<package>/<target> (default
# ~/.local/share/schedref/fuzz-corpus, outside the repository and outside
# the build cache): the seeds are added to it, what libFuzzer finds stays,
# and the next run goes on from there. For example, an hour on one target:
#
#   bazel/run_fuzzers.sh --keep-corpus 3600 //fuzz:scenario_fuzz_fuzzer
#
# Exits non-zero if the pattern holds no fuzzer, or if any fuzzer found a
# crash, a leak, a slow unit (libFuzzer's -timeout, 60 s), failed to start,
# or outran its time by more than a minute (ten with --keep-corpus); the crashing input is kept
# under the printed artifacts directory. For each fuzzer it prints the
# executions, the corpus growth and the coverage; the last line reads
# "fuzz: N passed, N failed".
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

keep=0
if [[ "${1:-}" == "--keep-corpus" ]]; then
  keep=1
  shift
fi
secs="${1:-${SCHEDREF_FUZZ_SECONDS:-30}}"
pattern="${2:-//...}"
if ! [[ "${secs}" =~ ^[0-9]+$ ]] || ((secs == 0)); then
  echo "run_fuzzers: SECONDS_PER_FUZZER must be a positive whole number, not '${secs}'" >&2
  exit 2
fi

# A failing query fails the run (it must not look like "no fuzzers").
query_out="$(./bazelw query --noshow_progress \
  "attr(tags, '\\bfuzzer\\b', kind(cc_binary, ${pattern}))")"
mapfile -t targets < <(printf '%s\n' "${query_out}" | grep -v '^$' || true)
# No fuzzer is a failure too: a mistyped pattern, or a macro that stopped
# tagging its binaries, must not pass as "nothing found".
if ((${#targets[@]} == 0)); then
  echo "run_fuzzers: no fuzzer targets (cc_binary tagged \"fuzzer\") in ${pattern}" >&2
  exit 1
fi

./bazelw build --config=fuzz "${targets[@]}"
bin="$(./bazelw info --config=fuzz bazel-bin 2>/dev/null)"
if ((keep)); then
  work="${SCHEDREF_FUZZ_CORPUS:-${HOME}/.local/share/schedref/fuzz-corpus}"
  mkdir -p "${work}"
  echo "run_fuzzers: corpora kept in ${work}"
else
  work="$(mktemp -d "${TMPDIR:-/tmp}/schedref-fuzz.XXXXXX")"
fi
export ASAN_SYMBOLIZER_PATH=/usr/lib/llvm-14/bin/llvm-symbolizer
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

# Workspace paths of the source files in a filegroup (none if it does not exist):
# //pkg:sub/file -> pkg/sub/file.
files_of() {
  { ./bazelw query --noshow_progress "kind('source file', labels(srcs, $1))" 2>/dev/null || true; } |
    sed -e 's|^//||' -e 's|^:||' -e 's|:|/|'
}

passed=0
failed=0
# Stopped from outside (.ci/run's budget, a ^C): the running fuzzer gets the
# signal too (its timeout stays in our process group), and no further one
# starts.
interrupted=0
trap 'interrupted=1' INT TERM
for target in "${targets[@]}"; do
  if ((interrupted)); then
    break
  fi
  pkg="${target#//}"
  pkg="${pkg%%:*}"
  name="${target##*:}"
  base="${name%_fuzzer}"
  dir="${work}/${pkg}/${base}"
  mkdir -p "${dir}/corpus" "${dir}/artifacts"
  while IFS= read -r f; do
    [[ -n "$f" ]] && cp -n "$f" "${dir}/corpus/$(echo "$f" | tr / _)"
  done < <(files_of "//${pkg}:${base}_corpus")
  dict="$(files_of "//${pkg}:${base}_dict" | head -n1)"

  echo "=== ${target} (${secs}s)"
  seeds="$(find "${dir}/corpus" -type f | wc -l)"
  # libFuzzer checks -max_total_time between inputs only; the outer timeout
  # bounds a run whose last input hangs below -timeout. A kept corpus grows,
  # and replaying it comes first: it gets ten minutes more.
  slack=$((keep ? 600 : 60))
  if timeout --foreground --kill-after=10 "$((secs + slack))" "${bin}/${pkg}/${name}" \
      -max_total_time="${secs}" -timeout=60 \
      -print_final_stats=1 -artifact_prefix="${dir}/artifacts/" \
      ${dict:+-dict="${dict}"} "${dir}/corpus" >"${dir}/log" 2>&1; then
    passed=$((passed + 1))
    # "#N DONE cov: C ft: F corp: U/S ..." and the final stats.
    grep -E '(DONE|^stat::(number_of_executed_units|average_exec_per_sec|new_units_added))' \
      "${dir}/log" || true
    echo "corpus: ${seeds} files at the start -> $(find "${dir}/corpus" -type f | wc -l)"
  elif ((interrupted)); then
    echo "run_fuzzers: ${target} interrupted"
  else
    failed=$((failed + 1))
    tail -n 60 "${dir}/log"
    echo "run_fuzzers: ${target} FAILED; log and crashing input in ${dir}"
  fi
done

if ((interrupted)); then
  echo "run_fuzzers: interrupted; fuzz: ${passed} passed, ${failed} failed before that" >&2
  exit 130
fi
echo "fuzz: ${passed} passed, ${failed} failed"
if ((failed == 0)); then
  ((keep)) || rm -rf "${work}"
  exit 0
fi
exit 1
