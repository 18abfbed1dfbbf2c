#!/usr/bin/env bash
# Builds the kube-scheduler adapter (adapters/kube-scheduler/README.md).
#
#   adapters/kube-scheduler/build.sh            # prints the binary's path
#   adapters/kube-scheduler/build.sh --test     # also gofmt and the adapter's Go tests
#
# 1. Go 1.23: /usr/lib/go-1.23/bin/go, installed from bookworm-backports when
#    missing (toolchain.sh derives that suite from the machine's Debian
#    source entry).
# 2. The module: upstream kube-scheduler v1.32.5 and its dependencies come
#    from the vendor snapshot ($SCHEDREF_KUBE_VENDOR, default
#    ../shared/third_party/kube-scheduler-v1.32.5-vendor.tar.xz beside the
#    repository) when it exists, built offline with -mod=vendor; without it
#    the Go module download fetches them (for users online).
# 3. go build, with GOCACHE under ~/.cache/schedref (shared by every clone,
#    like the Bazel disk cache) and -p=$SCHEDREF_GO_JOBS (default 2): a cold
#    build compiles upstream's scheduler and its dependencies, minutes on
#    two cores; a warm one takes seconds.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "${here}/../.." && pwd)"
run_tests=0
out="${here}/bin/schedref-kube-scheduler"
while (($#)); do
  case "$1" in
    --test) run_tests=1 ;;
    -o) out="$2"; shift ;;
    *) echo "build.sh: unknown argument $1 (want --test, -o PATH)" >&2; exit 2 ;;
  esac
  shift
done

# shellcheck source=toolchain.sh
source "${here}/toolchain.sh"
go="$(schedref_install_go)"

cache="${SCHEDREF_CACHE:-${HOME}/.cache/schedref}"
snapshot="${SCHEDREF_KUBE_VENDOR:-${repo}/../shared/third_party/kube-scheduler-v1.32.5-vendor.tar.xz}"
module_path="schedref.local/adapters/kube-scheduler"
work="${cache}/kube-scheduler-adapter"
mod="${work}/module"
mkdir -p "${work}"

export GOCACHE="${cache}/go-build"
export GOTOOLCHAIN=local
export GOFLAGS="-p=${SCHEDREF_GO_JOBS:-2}"

# The adapter's own sources, copied into the module directory afresh.
rm -rf "${mod}.new"
mkdir -p "${mod}.new"
(cd "${here}" && find . -name '*.go' -not -path './bin/*' -print0 | tar --null -T - -cf -) |
  tar -xf - -C "${mod}.new"

if [[ -f "${snapshot}" ]]; then
  sum="$(sha256sum "${snapshot}" | cut -d' ' -f1)"
  deps="${work}/deps-${sum:0:16}"
  if [[ ! -f "${deps}/.complete" ]]; then
    echo "build.sh: unpacking $(basename "${snapshot}")" >&2
    rm -rf "${deps}"
    mkdir -p "${deps}"
    tar -xJf "${snapshot}" -C "${deps}" --strip-components=1
    touch "${deps}/.complete"
  fi
  # -mod=vendor wants the snapshot's go.mod as it is; only the module line
  # may change (the snapshot's README).
  sed "s#^module .*#module ${module_path}#" "${deps}/go.mod" >"${mod}.new/go.mod"
  cp "${deps}/go.sum" "${mod}.new/go.sum"
  ln -s "${deps}/vendor" "${mod}.new/vendor"
  export GOFLAGS="${GOFLAGS} -mod=vendor"
  export GOPROXY=off
else
  echo "build.sh: no vendor snapshot at ${snapshot}; using the Go module download" >&2
  {
    echo "module ${module_path}"
    echo
    echo "go 1.23.0"
    echo
    echo "require k8s.io/kubernetes v1.32.5"
    echo
    echo "replace ("
    # k8s.io/kubernetes requires its staging modules at v0.0.0; they are
    # published as v0.32.5.
    for m in api apiextensions-apiserver apimachinery apiserver cli-runtime client-go \
      cloud-provider cluster-bootstrap code-generator component-base component-helpers \
      controller-manager cri-api cri-client csi-translation-lib dynamic-resource-allocation \
      endpointslice externaljwt kms kube-aggregator kube-controller-manager kube-proxy \
      kube-scheduler kubectl kubelet metrics mount-utils pod-security-admission \
      sample-apiserver; do
      echo "	k8s.io/${m} => k8s.io/${m} v0.32.5"
    done
    echo ")"
  } >"${mod}.new/go.mod"
  if [[ -f "${mod}/go.sum" ]]; then cp "${mod}/go.sum" "${mod}.new/go.sum"; fi
  (cd "${mod}.new" && "${go}" mod tidy)
fi
rm -rf "${mod}"
mv "${mod}.new" "${mod}"

mkdir -p "$(dirname "${out}")"
(cd "${mod}" && "${go}" build -trimpath -o "${out}" .)
if ((run_tests)); then
  # gofmt, not go vet: vet computes facts for every dependency package,
  # which costs as much as the cold build again.
  unformatted="$(cd "${mod}" && "$(dirname "${go}")/gofmt" -l $(find . -name '*.go' -not -path './vendor/*'))"
  if [[ -n "${unformatted}" ]]; then
    echo "build.sh: not gofmt-formatted: ${unformatted}" >&2
    exit 1
  fi
  (cd "${mod}" && "${go}" test ./...) >&2
fi
echo "${out}"
