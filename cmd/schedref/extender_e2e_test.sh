#!/usr/bin/env bash
# A real extender end to end: starts a small extender process of its own
# (python3, testdata/extender/gpu_extender.py) on 127.0.0.1, runs and
# explains a cluster against it through --config's urlPrefix with both
# implementations, checks the trace, then stops the process and checks
# that its port no longer accepts connections.
set -uo pipefail
bin="$1"
data="$2"   # cmd/schedref/testdata/extender
work="${TEST_TMPDIR:-$(mktemp -d)}"
failures=0

python3 "$data/gpu_extender.py" "$work/port" &
server=$!
stop() { kill "$server" 2>/dev/null; wait "$server" 2>/dev/null; }
trap stop EXIT
for _ in $(seq 100); do [[ -s "$work/port" ]] && break; sleep 0.1; done
if [[ ! -s "$work/port" ]]; then echo "FAIL: the extender did not start"; exit 1; fi
port="$(cat "$work/port")"

cat > "$work/sched.yaml" <<YAML
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
extenders:
- urlPrefix: http://127.0.0.1:$port/scheduler
  filterVerb: filter
  prioritizeVerb: prioritize
  weight: 5
  httpTimeout: 5s
YAML

check() {  # check NAME WANT_SUBSTRING -- COMMAND...
  local name="$1" want="$2"
  shift 3
  local out
  out="$("$@" 2>&1)"
  local code=$?
  if [[ "$code" != 0 || "$out" != *"$want"* ]]; then
    echo "FAIL $name: exit $code, output lacks: $want"; echo "$out"
    failures=$((failures + 1)); return
  fi
  echo "PASS $name"
}

for impl in reference optimized; do
  # gpu-big: plugins' total plus 7 * 5 * 10; cpu-only and retired rejected.
  check "run-$impl" '"node":"gpu-big","outcome":"scheduled"' -- \
    "$bin" run --impl "$impl" --cluster "$data/cluster.yaml" --config "$work/sched.yaml"
  check "rejections-$impl" '"retired":{"code":"UnschedulableAndUnresolvable","reasons":["gpu never available"]}' -- \
    "$bin" run --impl "$impl" --cluster "$data/cluster.yaml" --config "$work/sched.yaml"
  check "full-detail-$impl" "\"http://127.0.0.1:$port/scheduler\":{\"normalized\":7,\"raw\":7,\"weighted\":350}" -- \
    "$bin" run --impl "$impl" --full-detail --cluster "$data/cluster.yaml" --config "$work/sched.yaml"
done
check explain "extender http://127.0.0.1:$port/scheduler: filter Success, score 350 (raw 7)" -- \
  "$bin" explain --cluster "$data/cluster.yaml" --config "$work/sched.yaml" --pod ml/trainer
check check "1 passed" -- \
  "$bin" check --cluster "$data/cluster.yaml" --config "$work/sched.yaml"

stop
trap - EXIT
# The process is gone and nothing listens on its port any more.
if python3 -c "import socket,sys; socket.create_connection(('127.0.0.1', int(sys.argv[1])), 1)" "$port" 2>/dev/null; then
  echo "FAIL port-closed: 127.0.0.1:$port still accepts connections"
  failures=$((failures + 1))
else
  echo "PASS port-closed"
fi
# With the extender gone the cycle fails with a message naming it and the verb.
check unreachable "Post \\\"http://127.0.0.1:$port/scheduler/filter\\\"" -- \
  "$bin" run --cluster "$data/cluster.yaml" --config "$work/sched.yaml"

if [[ "$failures" != 0 ]]; then echo "$failures failed"; exit 1; fi
echo "all passed"
