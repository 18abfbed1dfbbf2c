#!/usr/bin/env bash
# CI stage "kube-scheduler" (.ci/run): upstream kube-scheduler v1.32.5 under
# the conformance runner.
#
#   1. build the adapter and run its Go tests (build.sh --test);
#   2. every golden under golden/, legal-choice mode: the real upstream must
#      pass each one, or fail exactly the goldens listed in
#      known-differences (with why); a golden that fails unlisted, or passes
#      while listed, fails the stage, so the list stays true;
#   3. the example plugin's goldens (goldens/), strict mode.
#
# The closing line is the legal-choice summary, "N passed, M failed, K skipped".
#
# Without the vendor snapshot (build.sh) the stage does not run: CI has no
# network for the Go module download. It then prints "NOT RUN: why" and
# exits 3, which .ci/run reports as NOT RUN (not a pass, not a failure).
# SCHEDREF_KUBE_DOWNLOAD=1 builds from the module download instead (online).
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "${here}/../.." && pwd)"
cd "${repo}"

snapshot="${SCHEDREF_KUBE_VENDOR:-${repo}/../shared/third_party/kube-scheduler-v1.32.5-vendor.tar.xz}"
if [[ ! -f "${snapshot}" && "${SCHEDREF_KUBE_DOWNLOAD:-0}" != 1 ]]; then
  echo "ci: ================================================================"
  echo "ci: NOT RUN: no kube-scheduler vendor snapshot at ${snapshot} (set SCHEDREF_KUBE_VENDOR, or SCHEDREF_KUBE_DOWNLOAD=1 to fetch the modules online)"
  echo "ci: upstream kube-scheduler was NOT checked against the goldens"
  echo "ci: ================================================================"
  exit 3
fi

adapter="$("${here}/build.sh" --test)" || { echo "ci: the adapter did not build or its tests failed" >&2; exit 1; }
./bazelw build //:schedref >&2 || exit 1
schedref="${repo}/bazel-bin/cmd/schedref/schedref"
log="$(mktemp "${TMPDIR:-/tmp}/kube-scheduler-check.XXXXXX")"

"${schedref}" check --exec "${adapter}" --mode=legal-choice --timeout 30 golden >"${log}" 2>&1
grep -v '^PASS\|^  ' "${log}"
summary="$(tail -1 "${log}")"

failed=0
listed="$(grep -v '^#' "${here}/known-differences" | awk 'NF { print $1 }' | sort)"
actual="$(awk '$1 == "FAIL" { sub(/:$/, "", $2); print $2 }' "${log}" | sort)"
unlisted="$(comm -13 <(echo "${listed}") <(echo "${actual}") | sed '/^$/d')"
fixed="$(comm -23 <(echo "${listed}") <(echo "${actual}") | sed '/^$/d')"
if [[ -n "${unlisted}" ]]; then
  echo "ci: upstream fails goldens that known-differences does not list:"
  echo "${unlisted}" | sed 's/^/  /'
  grep -A12 -F "$(echo "${unlisted}" | head -1):" "${log}" | head -14
  failed=1
fi
if [[ -n "${fixed}" ]]; then
  echo "ci: listed in known-differences but passing now (remove them):"
  echo "${fixed}" | sed 's/^/  /'
  failed=1
fi

echo "ci: the example plugin's goldens (strict)"
"${schedref}" check --exec "${adapter}" "${here}/goldens" || failed=1

echo "upstream kube-scheduler v1.32.5, legal-choice: ${summary}"
exit "${failed}"
