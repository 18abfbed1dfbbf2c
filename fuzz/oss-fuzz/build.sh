#!/bin/bash -eu
# OSS-Fuzz build script for schedref (docs/fuzzing.md, "OSS-Fuzz"). Builds
# every fuzzer of //fuzz (a cc_binary tagged "fuzzer", made by
# schedref_fuzz_test) with Bazel, with OSS-Fuzz's compiler and flags, and
# writes for each target T:
#
#   $OUT/T_fuzzer                  the libFuzzer binary
#   $OUT/T_fuzzer.dict             its dictionary (if it has one)
#   $OUT/T_fuzzer_seed_corpus.zip  its checked-in seed corpus
#   $OUT/lib/                      the shared libraries the binaries load
#                                  that OSS-Fuzz's runner image lacks
#
# Uses $CC, $CXX, $CFLAGS, $CXXFLAGS, $LIB_FUZZING_ENGINE, $SANITIZER and
# $OUT, as OSS-Fuzz sets them. FUZZ_TARGETS (optional, e.g. "scenario_fuzz
# quantity_fuzz") limits the build to those targets; by default all are
# built. Runs from the workspace this script belongs to, or, as OSS-Fuzz
# copies it to $SRC/build.sh, from the current directory ($SRC/schedref).
#
# Local use (outputs go to bazel-out/k8-fastbuild-ossfuzz, beside the
# normal and --config=fuzz ones, which stay):
#   OUT=/tmp/ossfuzz-out CC=clang-14 CXX=clang++-14 \
#   CFLAGS='-O1 -fno-omit-frame-pointer -gline-tables-only -fsanitize=address
#     -fsanitize-address-use-after-scope -fsanitize=fuzzer-no-link' \
#   CXXFLAGS="$CFLAGS" LIB_FUZZING_ENGINE=-fsanitize=fuzzer SANITIZER=address \
#   fuzz/oss-fuzz/build.sh

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [[ -f "${here}/../../WORKSPACE" ]]; then
  cd "${here}/../.."
fi
if [[ ! -f WORKSPACE || ! -x bazelw ]]; then
  echo "build.sh: run from the schedref workspace (no WORKSPACE/bazelw in $PWD)" >&2
  exit 1
fi

# The *_fuzzer binaries always carry ASan and link libFuzzer's main
# (bazel/defs.bzl adds -fsanitize=fuzzer,address,undefined to them under
# --define=schedref_fuzz=1), so only these builds make sense.
if [[ "${SANITIZER}" != address && "${SANITIZER}" != coverage ]]; then
  echo "build.sh: SANITIZER=${SANITIZER} is not supported (address or coverage)" >&2
  exit 1
fi
if [[ "${LIB_FUZZING_ENGINE}" != -fsanitize=fuzzer ]]; then
  echo "build.sh: LIB_FUZZING_ENGINE=${LIB_FUZZING_ENGINE} is not supported (libFuzzer only)" >&2
  exit 1
fi

# The C++ libraries come from Debian packages built against libstdc++
# (WORKSPACE), so OSS-Fuzz's -stdlib=libc++ cannot be used.
cxx_words=()
for flag in ${CXXFLAGS}; do
  [[ "${flag}" == -stdlib=libc++ ]] || cxx_words+=("${flag}")
done

# (Commas inside flags and the literal $ORIGIN are meant: SC2054, SC2016.)
# shellcheck disable=SC2054,SC2016
flags=(
  --repo_env=CC="${CC}"
  --repo_env=CXX="${CXX}"
  --define=schedref_fuzz=1
  # Outputs beside the normal and --config=fuzz ones, not over them.
  --platform_suffix=-ossfuzz
  # OSS-Fuzz symbolizes stack traces: keep the symbols (fastbuild strips).
  --strip=never
  # As --config=fuzz (.bazelrc): Bazel links with the C driver, and GNU ld
  # instead of gold, which has no --start-lib.
  --linkopt=-fsanitize-link-c++-runtime
  --linkopt=-fuse-ld=bfd
  --nostart_end_lib
  # A newer clang's new warnings must not fail the build (SCHEDREF_COPTS
  # has -Werror; per-file options come after a target's own).
  --per_file_copt=.*@-Wno-error
  # OSS-Fuzz's ASan build must not look like a UBSan one (its bad build
  # check counts __ubsan calls); only the targets' own sources have it,
  # from bazel/defs.bzl.
  '--per_file_copt=fuzz/.*\.cc@-fno-sanitize=undefined'
  # The shared libraries copied to $OUT/lib below; an RPATH, not a
  # RUNPATH, so that it also serves the libraries' own dependencies.
  '--linkopt=-Wl,-rpath,$ORIGIN/lib'
  --linkopt=-Wl,--disable-new-dtags
)
for flag in ${CFLAGS}; do flags+=("--conlyopt=${flag}"); done
for flag in "${cxx_words[@]}"; do flags+=("--cxxopt=${flag}" "--linkopt=${flag}"); done
for flag in ${LIB_FUZZING_ENGINE}; do flags+=("--linkopt=${flag}"); done

query() { ./bazelw query --noshow_progress "$@"; }

if [[ -n "${FUZZ_TARGETS:-}" ]]; then
  targets=()
  for t in ${FUZZ_TARGETS}; do targets+=("//fuzz:${t%_fuzzer}_fuzzer"); done
else
  mapfile -t targets < <(query "attr(tags, '\\bfuzzer\\b', kind(cc_binary, //fuzz/...))")
fi
if ((${#targets[@]} == 0)); then
  echo "build.sh: no fuzzer targets in //fuzz" >&2
  exit 1
fi

./bazelw build "${flags[@]}" "${targets[@]}"
bin="$(./bazelw info "${flags[@]}" bazel-bin 2>/dev/null)"

# Workspace paths of the source files in a filegroup: //fuzz:corpus/x -> fuzz/corpus/x.
files_of() {
  query "kind('source file', labels(srcs, $1))" | sed -e 's|^//||' -e 's|:|/|'
}

mkdir -p "${OUT}/lib"
for target in "${targets[@]}"; do
  name="${target##*:}"   # T_fuzzer
  base="${name%_fuzzer}" # T
  cp -f "${bin}/fuzz/${name}" "${OUT}/${name}"
  dict="$(files_of "//fuzz:${base}_dict" 2>/dev/null | head -n1 || true)"
  if [[ -n "${dict}" ]]; then
    cp -f "${dict}" "${OUT}/${name}.dict"
  fi
  rm -f "${OUT}/${name}_seed_corpus.zip"
  files_of "//fuzz:${base}_corpus" | zip -q -j "${OUT}/${name}_seed_corpus.zip" -@
  # Shared libraries beyond the C and C++ runtimes (libtbb, abseil), which
  # the runner image does not have. (ldd of Bazel's copy: beside it there is
  # no lib/, so ldd names the system's files.)
  ldd "${bin}/fuzz/${name}" | awk '$2 == "=>" && $3 ~ /^\// {print $3}' |
    { grep -vE '/(libc|libm|libdl|librt|libpthread|libgcc_s|libstdc\+\+)\.so' || true; } |
    while IFS= read -r lib; do cp -f -L "${lib}" "${OUT}/lib/"; done
done
echo "build.sh: ${#targets[@]} fuzzers in ${OUT}"
