#!/usr/bin/env bash
# End-to-end checks of the schedref command line: usage errors exit 2, bad
# input exits 1 with a message naming the file, the object and the field,
# and a golden scenario runs and checks.
set -uo pipefail
bin="$1"
data="$2"     # a directory with the bad inputs
golden="$3"   # one golden scenario
failures=0

expect() {  # expect NAME WANT_EXIT WANT_SUBSTRING -- COMMAND...
  local name="$1" want_exit="$2" want="$3"
  shift 4
  local out
  out="$("$@" 2>&1)"
  local code=$?
  if [[ "$code" != "$want_exit" ]]; then
    echo "FAIL $name: exit $code, want $want_exit; output:"; echo "$out"
    failures=$((failures + 1)); return
  fi
  if [[ "$out" != *"$want"* ]]; then
    echo "FAIL $name: output lacks: $want"; echo "$out"
    failures=$((failures + 1)); return
  fi
  echo "PASS $name"
}

expect help 0 "Subcommands:" -- "$bin" --help
expect no-subcommand 2 "A subcommand is required" -- "$bin"
expect unknown-subcommand 2 'unknown subcommand "frobnicate"' -- "$bin" frobnicate
expect bad-flag 2 "--no-such-flag" -- "$bin" run --no-such-flag x.yaml
expect bad-quantity 1 \
  "$data/bad-quantity.yaml: Node n1: objects[0].status.allocatable.cpu: quantity \"4x\"" \
  -- "$bin" run "$data/bad-quantity.yaml"
expect wrong-type 1 \
  "$data/wrong-type.json: Pod default/p: objects[0].spec.priority: expected integer, got string" \
  -- "$bin" run "$data/wrong-type.json"
expect missing-name 1 \
  "$data/missing-name.yaml: Node <objects[0]>: objects[0].metadata.name: required field is missing" \
  -- "$bin" run "$data/missing-name.yaml"
expect dangling-delete 1 "timeline[0]" -- "$bin" run "$data/dangling-delete.yaml"
expect missing-file 1 "no-such-file.yaml" -- "$bin" run "$data/no-such-file.yaml"
expect directory-scenario 1 "$data: is a directory, not a file" -- "$bin" run "$data"
expect endless-input 1 "/dev/zero: larger than the 512 MiB input limit" -- "$bin" run /dev/zero
expect run-golden 0 '"kind":"placements"' -- "$bin" run "$golden"
# Both built-in implementations check the file by default.
expect check-golden 0 "2 passed, 0 failed, 0 skipped" -- "$bin" check "$golden"
# A report never goes over a scenario: neither one being checked nor one a
# forgotten FILE argument handed to --report.
scratch="$(mktemp -d)"
cp "$golden" "$scratch/a.yaml"
cp "$golden" "$scratch/b.yaml"
before="$(cat "$scratch/a.yaml")"
expect report-over-scenario 2 "is a scenario file, which a report must not overwrite" \
  -- "$bin" check --report=json "$scratch/a.yaml" "$scratch/b.yaml"
expect report-over-input 2 "is one of the scenarios being checked" \
  -- "$bin" check --report json "$scratch/b.yaml" "$scratch/b.yaml"
if [[ "$(cat "$scratch/a.yaml")" != "$before" ]]; then
  echo "FAIL report-over-scenario: the scenario was written over"; failures=$((failures + 1))
fi
expect report-written 0 "2 passed, 0 failed, 0 skipped" \
  -- "$bin" check --report json "$scratch/report.json" "$scratch/a.yaml"
if ! grep -q '"format": "schedref-check-report"' "$scratch/report.json"; then
  echo "FAIL report-written: no report"; failures=$((failures + 1))
fi
# A scenario without expectedTrace is skipped; a run that checks nothing fails.
printf 'schedref: scenario/v1\nname: never-golden\n' > "$scratch/never.yaml"
expect all-skipped 1 "every scenario was skipped" -- "$bin" check "$scratch/never.yaml"
expect all-skipped-allowed 0 "0 passed, 0 failed, 2 skipped" \
  -- "$bin" check --allow-skips "$scratch/never.yaml"
rm -rf "$scratch"

# bench: option errors name the option; a tiny run compares decisions.
expect bench-unknown-workload 2 'error: --workload: unknown workload "Nope"' \
  -- "$bin" bench --workload Nope
expect bench-zero-nodes 2 "error: --nodes: must be in [1, 100000], got 0" \
  -- "$bin" bench --nodes 0
expect bench-not-a-number 2 "Could not convert: --measured-pods = ten" \
  -- "$bin" bench --measured-pods ten
expect bench-zero-threads 2 "error: --threads: 0 is not in [1, 256]" \
  -- "$bin" bench --threads 1,0
expect bench-duplicate-threads 2 "error: --threads: 2 is listed twice" \
  -- "$bin" bench --threads 2,2
bench_small=("$bin" bench --workload PreemptionBasic --nodes 12 --init-pods 20
             --measured-pods 6 --reference-measured-pods 3 --threads 1,2 --repeat 1)
expect bench-small-run 0 "pods/s = measured pods / (t_full - t_base)" \
  -- "${bench_small[@]}"
out="$("${bench_small[@]}" 2>/dev/null)"
if [[ "$out" == *"decisions: identical on 23 pods (reference vs optimized at 1 and 2 threads)"* ||
      "$out" == *"optimized: not registered"* ]]; then
  echo "PASS bench-small-decisions"
else
  echo "FAIL bench-small-decisions: neither compared nor reported unregistered"
  echo "$out"; failures=$((failures + 1))
fi

# A pod without metadata.namespace is in "default", as kubectl create -f
# puts it; its errors name it default/<name>.
ns_scratch="$(mktemp -d)"
printf '%s\n' 'schedref: scenario/v1' 'name: no-namespace' 'objects:' \
  '- {apiVersion: v1, kind: Pod, metadata: {name: web-0}, spec: {priority: x}}' \
  > "$ns_scratch/no-ns.yaml"
expect pod-without-namespace-is-default 1 \
  "$ns_scratch/no-ns.yaml: Pod default/web-0: objects[0].spec.priority: " \
  -- "$bin" run "$ns_scratch/no-ns.yaml"
rm -rf "$ns_scratch"

# Cluster input (docs/cluster-input.md): a kubectl dump and a kube-scheduler
# --config file, with no scenario file.
cluster="$data/cluster"
explain_web=("$bin" explain --cluster "$cluster/dump.yaml" --config "$cluster/sched.yaml"
             --pod shop/web-7d4b9c6f8-zt5rd)
# MostAllocated ties ip-10-0-1-11 and ip-10-0-2-12 (the finished 6-CPU Job
# pod on ip-10-0-1-13 takes no room); the default zone spread breaks it
# towards eu-west-1b, which holds one web pod against eu-west-1a's two.
expect cluster-explain 0 "pod shop/web-7d4b9c6f8-zt5rd, profile default-scheduler: scheduled on ip-10-0-2-12" \
  -- "${explain_web[@]}"
expect cluster-explain-skipped 0 "warning: skipped 1 Deployment object (the scheduler does not read them)" \
  -- "${explain_web[@]}"
expect cluster-explain-events 0 "warning: skipped 2 Event objects (the scheduler does not read them)" \
  -- "${explain_web[@]}"
expect cluster-explain-custom 0 "warning: skipped 1 ServiceMonitor object" -- "${explain_web[@]}"
expect cluster-explain-class 0 "warning: PriorityClass business-critical is not in the dump: 2 pods keep" \
  -- "${explain_web[@]}"
expect cluster-explain-terminal 0 "note: dropped 2 pods in phase Succeeded or Failed" \
  -- "${explain_web[@]}"
expect cluster-explain-mostallocated 0 "NodeResourcesFit 87 (1 x 87, raw 87)" \
  -- "${explain_web[@]}"
out="$("${explain_web[@]}" 2>&1)"
if [[ "$(grep -c "warning: skipped 1 Deployment" <<<"$out")" == 1 &&
      "$out" != *"NodeResourcesBalancedAllocation"* ]]; then
  echo "PASS cluster-explain-once"
else
  echo "FAIL cluster-explain-once: a kind warned twice or a disabled plugin scored"
  echo "$out"; failures=$((failures + 1))
fi
expect cluster-as-pending 0 "pod shop/db-0, profile default-scheduler: scheduled on" \
  -- "$bin" explain --cluster "$cluster/dump.yaml" --pod shop/db-0 --as-pending
expect cluster-as-pending-note 0 "note: Pod shop/db-0 is taken off node ip-10-0-1-11" \
  -- "$bin" explain --cluster "$cluster/dump.yaml" --pod shop/db-0 --as-pending
expect cluster-as-pending-missing 1 "--as-pending shop/db-9: no such pod" \
  -- "$bin" explain --cluster "$cluster/dump.yaml" --pod shop/db-9 --as-pending
expect cluster-as-pending-needs-cluster 2 "--as-pending needs --cluster" \
  -- "$bin" explain "$golden" --pod default/p --as-pending
expect cluster-explain-unknown-pod 1 "no Pod shop/nope in the cluster dump" \
  -- "$bin" explain --cluster "$cluster/dump.yaml" --pod shop/nope
expect cluster-bad-object 1 \
  "bad-dump.yaml: Pod shop/web-7d4b9c6f8-8qwzt: items[11].spec.containers[0].resources.requests.cpu: quantity \"one\"" \
  -- "$bin" run --cluster "$cluster/bad-dump.yaml"
expect cluster-and-scenario 2 "either a scenario file or --cluster" \
  -- "$bin" run "$golden" --cluster "$cluster/dump.yaml"
expect cluster-config-alone 2 "--config needs --cluster" \
  -- "$bin" run "$golden" --config "$cluster/sched.yaml"
expect cluster-check 0 "1 passed, 0 failed, 0 skipped" \
  -- "$bin" check --cluster "$cluster/dump.yaml" --config "$cluster/sched.yaml"
expect cluster-check-update 2 "does not go with --cluster" \
  -- "$bin" check --update --cluster "$cluster/dump.yaml"
# schedref scenario: the written scenario runs to the same trace, under
# both implementations, and no input is ever written over.
scratch="$(mktemp -d)"
cp "$cluster/dump.yaml" "$cluster/sched.yaml" "$scratch/"
expect cluster-scenario 0 "" \
  -- "$bin" scenario --cluster "$scratch/dump.yaml" --config "$scratch/sched.yaml" -o "$scratch/s.yaml"
"$bin" run --impl reference "$scratch/s.yaml" > "$scratch/from-file.trace" 2>/dev/null
"$bin" run --cluster "$scratch/dump.yaml" --config "$scratch/sched.yaml" \
  > "$scratch/from-dump.trace" 2>/dev/null
if [[ -s "$scratch/from-dump.trace" ]] && cmp -s "$scratch/from-file.trace" "$scratch/from-dump.trace"; then
  echo "PASS cluster-scenario-same-trace"
else
  echo "FAIL cluster-scenario-same-trace"; failures=$((failures + 1))
fi
"$bin" scenario --cluster "$scratch/dump.yaml" > "$scratch/stdout.yaml" 2>/dev/null
expect cluster-scenario-stdout-runs 0 '"kind":"placements"' -- "$bin" run "$scratch/stdout.yaml"
for victim in dump.yaml sched.yaml; do
  before="$(cat "$scratch/$victim")"
  expect "cluster-scenario-keeps-$victim" 2 "is one of the input files" \
    -- "$bin" scenario --cluster "$scratch/dump.yaml" --config "$scratch/sched.yaml" -o "$scratch/$victim"
  if [[ "$(cat "$scratch/$victim")" != "$before" ]]; then
    echo "FAIL cluster-scenario-keeps-$victim: written over"; failures=$((failures + 1))
  fi
done
mkdir "$scratch/dir"
cp "$scratch/dump.yaml" "$scratch/dir/dump.yaml"
expect cluster-scenario-keeps-dir-file 2 "is one of the input files" \
  -- "$bin" scenario --cluster "$scratch/dir" -o "$scratch/dir/dump.yaml"
expect cluster-scenario-needs-cluster 2 "needs --cluster" -- "$bin" scenario
rm -rf "$scratch"

# --- What schedref does not model, and explain ------------------------------
# Warnings name the pod and the feature, once per pod per feature, on stderr
# of run, in the trace's warning lines (identical for both implementations)
# and in explain; explain shows the plugins, the verdicts, the scores, the
# choice with its tie-break, the FitError and preemption, as text or JSON.
limits="$(mktemp -d)"
preemption_golden="$4"
cat > "$limits/limits.yaml" <<'YAML'
schedref: scenario/v1
name: limits
seed: 7
objects:
- {apiVersion: v1, kind: Node, metadata: {name: n1}, status: {allocatable: {cpu: "2", memory: 4Gi, pods: "10"}}}
- {apiVersion: v1, kind: Node, metadata: {name: n2}, status: {allocatable: {cpu: "2", memory: 4Gi, pods: "10"}}}
timeline:
- at: 0s
  create:
    apiVersion: v1
    kind: Pod
    metadata: {name: dra}
    spec:
      containers: [{name: c, image: pause, resources: {claims: [{name: gpu}]}}]
      resourceClaims: [{name: gpu, resourceClaimName: gpu-claim}]
- at: 1s
  update:
    apiVersion: v1
    kind: Pod
    metadata: {name: dra, labels: {a: b}}
    spec:
      containers: [{name: c, image: pause, resources: {claims: [{name: gpu}]}}]
      resourceClaims: [{name: gpu, resourceClaimName: gpu-claim}]
- at: 2s
  create:
    apiVersion: v1
    kind: Pod
    metadata: {name: pod-level}
    spec:
      containers: [{name: c, image: pause}]
      resources: {requests: {cpu: "1"}}
- at: 3s
  create:
    apiVersion: v1
    kind: Pod
    metadata: {name: foreign}
    spec:
      schedulerName: other
      containers: [{name: c, image: pause}]
- at: 4s
  create:
    apiVersion: v1
    kind: Pod
    metadata: {name: huge}
    spec:
      containers: [{name: c, image: pause, resources: {requests: {cpu: "3"}}}]
YAML
expect limits-run-dra 0 \
  "warning: Pod default/dra: spec.containers[0].resources.claims, spec.resourceClaims: dynamic resource allocation (the DynamicResources plugin, feature gate DynamicResourceAllocation) is not modelled" \
  -- "$bin" run "$limits/limits.yaml"
expect limits-run-pod-level 0 \
  "warning: Pod default/pod-level: spec.resources: pod-level resources (feature gate PodLevelResources, alpha in v1.32) are not modelled" \
  -- "$bin" run "$limits/limits.yaml"
expect limits-run-unknown-profile 0 \
  'warning: Pod default/foreign: spec.schedulerName "other" matches no profile (default-scheduler)' \
  -- "$bin" run "$limits/limits.yaml"
warned="$("$bin" run "$limits/limits.yaml" 2>&1 >/dev/null)"
if [[ "$(grep -c '^warning: Pod default/dra:' <<<"$warned")" == 1 &&
      "$(grep -c '^warning: ' <<<"$warned")" == 3 ]]; then
  echo "PASS limits-warned-once"
else
  echo "FAIL limits-warned-once: want 3 warnings, one for default/dra"; echo "$warned"
  failures=$((failures + 1))
fi
trace="$("$bin" run "$limits/limits.yaml" 2>/dev/null)"
if [[ "$(tail -n 3 <<<"$trace" | grep -c '"kind":"warning"')" == 3 &&
      "$trace" == *'{"feature":"unknownProfile","kind":"warning","message":"spec.schedulerName \"other\" matches no profile'* ]]; then
  echo "PASS limits-trace-warnings"
else
  echo "FAIL limits-trace-warnings: the trace does not end with the 3 warnings"; echo "$trace"
  failures=$((failures + 1))
fi
if "$bin" run --impl optimized "$golden" >/dev/null 2>&1; then
  if [[ "$("$bin" run --impl optimized --full-detail "$limits/limits.yaml" 2>/dev/null)" == \
        "$("$bin" run --full-detail "$limits/limits.yaml" 2>/dev/null)" ]]; then
    echo "PASS limits-implementations-agree"
  else
    echo "FAIL limits-implementations-agree: full-detail traces differ"; failures=$((failures + 1))
  fi
fi
expect limits-explain-warns 0 \
  "warning: spec.containers[0].resources.claims, spec.resourceClaims: dynamic resource allocation" \
  -- "$bin" explain "$limits/limits.yaml" --pod default/dra --cycle 1
expect limits-explain-unknown-profile 1 \
  'warning: Pod default/foreign: spec.schedulerName "other" matches no profile' \
  -- "$bin" explain "$limits/limits.yaml" --pod default/foreign
expect limits-explain-no-attempt 1 \
  "error: $limits/limits.yaml: no attempt for pod default/foreign" \
  -- "$bin" explain "$limits/limits.yaml" --pod default/foreign
expect explain-prefilter 0 \
  "PreFilter: NodeAffinity Skip, NodePorts Skip, NodeResourcesFit Success" \
  -- "$bin" explain "$limits/limits.yaml" --pod default/dra
expect explain-run-order 0 \
  "Score plugins (weight): TaintToleration 3, NodeAffinity 2, NodeResourcesFit 1" \
  -- "$bin" explain "$limits/limits.yaml" --pod default/dra
expect explain-tie 0 \
  'n1, n2 tie at the top total' \
  -- "$bin" explain "$limits/limits.yaml" --pod default/dra
expect explain-tie-seed 0 \
  'schedref draws once from its RNG seeded with 7 (docs/deviations.md, "selectHost"): index' \
  -- "$bin" explain "$limits/limits.yaml" --pod default/dra
expect explain-rank 0 "node n1: rank 1, total" -- "$bin" explain "$limits/limits.yaml" --pod default/dra
expect explain-skipped 0 "skipped (PreFilter Skip): NodeAffinity, NodePorts" \
  -- "$bin" explain "$limits/limits.yaml" --pod default/dra
expect explain-fit-error 0 \
  "message: 0/2 nodes are available: 2 Insufficient cpu. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod." \
  -- "$bin" explain "$limits/limits.yaml" --pod default/huge
expect explain-preemption 0 "preemption: no candidate node (nothing nominated, no victims)" \
  -- "$bin" explain "$limits/limits.yaml" --pod default/huge
expect explain-json 0 '"reason": "tie"' \
  -- "$bin" explain "$limits/limits.yaml" --pod default/dra --output json
expect explain-json-extenders 0 '"extenders": []' \
  -- "$bin" explain "$limits/limits.yaml" --pod default/dra --output json
expect explain-bad-output 2 "--output" \
  -- "$bin" explain "$limits/limits.yaml" --pod default/dra --output yaml
expect explain-no-cycle 1 "no attempt for pod default/dra in cycle 99" \
  -- "$bin" explain "$limits/limits.yaml" --pod default/dra --cycle 99
# Preemption: the dry run's candidates, the nominated one marked.
expect explain-candidates 0 "candidate node2: victims default/p2.1, default/p2.2 <- nominated" \
  -- "$bin" explain "$preemption_golden" --pod default/p --cycle 1
rm -rf "$limits"

# --- Objects the API server refuses, and values schedref does not model ----
# Each is a located error and exit 1, in a scenario and in a cluster dump.
refused="$(mktemp -d)"
scenario_with() {  # scenario_with FILE OBJECT: a scenario holding OBJECT
  printf '%s\n' 'schedref: scenario/v1' 'name: refused' 'objects:' "- $2" > "$1"
}
scenario_with "$refused/node-name.yaml" \
  '{apiVersion: v1, kind: Node, metadata: {name: Node_ONE}, status: {allocatable: {cpu: "1"}}}'
expect refused-node-name 1 \
  "node-name.yaml: Node Node_ONE: objects[0].metadata.name: invalid value \"Node_ONE\": a lowercase RFC 1123 subdomain" \
  -- "$bin" run "$refused/node-name.yaml"
scenario_with "$refused/no-containers.yaml" \
  '{apiVersion: v1, kind: Pod, metadata: {name: web-0, namespace: shop}, spec: {priority: 5}}'
expect refused-pod-without-containers 1 \
  "no-containers.yaml: Pod shop/web-0: objects[0].spec.containers: Required value" \
  -- "$bin" run "$refused/no-containers.yaml"
scenario_with "$refused/pdb.yaml" \
  '{apiVersion: policy/v1, kind: PodDisruptionBudget, metadata: {name: b, namespace: shop}, spec: {minAvailable: "150%", selector: {matchLabels: {a: b}}}}'
expect refused-pdb-percent 1 \
  "pdb.yaml: PodDisruptionBudget shop/b: objects[0].spec.minAvailable: invalid value \"150%\": must not be greater than 100%" \
  -- "$bin" run "$refused/pdb.yaml"
scenario_with "$refused/cpu-digits.yaml" \
  '{apiVersion: v1, kind: Node, metadata: {name: n1}, status: {allocatable: {cpu: "12345678901234567890123456789"}}}'
expect refused-cpu-29-digits 1 \
  "cpu-digits.yaml: Node n1: objects[0].status.allocatable.cpu: quantity \"12345678901234567890123456789\": out of range" \
  -- "$bin" run "$refused/cpu-digits.yaml"
printf '%s\n' '{"apiVersion": "v1", "kind": "List", "items": [' \
  '{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "web-0", "namespace": "shop"},' \
  ' "spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": "1e400"}}}]}}]}' \
  > "$refused/dump.json"
expect refused-cpu-1e400-in-a-list 1 \
  "dump.json: Pod shop/web-0: items[0].spec.containers[0].resources.requests.cpu: quantity \"1e400\": out of range: kube-scheduler reads it as a 64-bit integer of millicores" \
  -- "$bin" explain --cluster "$refused/dump.json" --pod shop/web-0
rm -rf "$refused"

# run's progress line: on stderr only, the trace on stdout unchanged, and a
# last report once the run is over.
progress="$(mktemp -d)"
"$bin" run "$golden" > "$progress/plain.jsonl" 2>/dev/null
"$bin" run --progress --progress-every 0 "$golden" > "$progress/with.jsonl" 2> "$progress/err"
bound_in_trace="$(grep -c '"kind":"binding".*"outcome":"bound"' "$progress/plain.jsonl")"
if cmp -s "$progress/plain.jsonl" "$progress/with.jsonl" &&
   grep -q '^progress: [0-9]* pods bound, ' "$progress/err" &&
   grep -q "^progress: done: $bound_in_trace pods bound, " "$progress/err"; then
  echo "PASS run-progress"
else
  echo "FAIL run-progress: trace changed, or no progress / final line on stderr"
  cat "$progress/err"; failures=$((failures + 1))
fi
"$bin" run --progress "$golden" > /dev/null 2> "$progress/quiet"
if ! grep -q '^progress:' "$progress/quiet"; then
  echo "PASS run-progress-quiet-when-short"
else
  echo "FAIL run-progress-quiet-when-short: a run shorter than 2 s reported progress"
  failures=$((failures + 1))
fi
expect run-progress-every-negative 2 "--progress-every" \
  -- "$bin" run --progress-every -1 "$golden"
rm -rf "$progress"

# summarize and compare (docs/summaries.md).
research="$data/research"
expect summarize-json 0 '"format": "schedref-summary"' \
  -- "$bin" summarize "$research/arrivals-lifetimes.yaml"
expect summarize-csv 0 "t,pending,running,nodes,nodes_in_use" \
  -- "$bin" summarize --output csv --table cluster --interval 1m "$research/arrivals-lifetimes.yaml"
expect summarize-bad-interval 1 '--interval: expected a positive duration such as "10s", got "0s"' \
  -- "$bin" summarize --interval 0s "$research/arrivals-lifetimes.yaml"
expect summarize-bad-arrivals 1 "$data/bad-arrivals.yaml: arrivals[0].interval: must be greater than 0" \
  -- "$bin" summarize "$data/bad-arrivals.yaml"
expect compare-table 0 "pods placed differently: " \
  -- "$bin" compare --config "$research/least-allocated.yaml" \
     --config "$research/most-allocated.yaml" "$research/arrivals-lifetimes.yaml"
expect compare-one-config 2 "give at least two configurations" \
  -- "$bin" compare --config "$research/least-allocated.yaml" "$research/arrivals-lifetimes.yaml"
expect compare-missing-config 1 "no-such.yaml" \
  -- "$bin" compare --config "$research/least-allocated.yaml" --config "$research/no-such.yaml" \
     "$research/arrivals-lifetimes.yaml"

# bench SCENARIO (docs/performance.md, "Any scenario as a benchmark").
expect bench-scenario 0 "result: identical decisions in every run (3 runs)" \
  -- "$bin" bench --threads 1,2 "$research/arrivals-lifetimes.yaml"
expect bench-scenario-progress 0 "running optimized with 2 threads" \
  -- "$bin" bench --progress --skip-reference --threads 2 "$research/arrivals-lifetimes.yaml"
expect bench-scenario-bad 1 "$data/bad-arrivals.yaml: arrivals[0].interval: must be greater than 0" \
  -- "$bin" bench "$data/bad-arrivals.yaml"
expect bench-scenario-and-workload 2 "either --workload or a scenario file" \
  -- "$bin" bench --workload SchedulingBasic "$research/arrivals-lifetimes.yaml"

# perf-import (docs/performance.md, "perf-import").
expect perf-import 0 "name: SchedulingBasic-5Nodes" \
  -- "$bin" perf-import "$data/perf_import/misc/performance-config.yaml" --workload SchedulingBasic/5Nodes
expect perf-import-unknown 1 'no workload "9Nodes"' \
  -- "$bin" perf-import "$data/perf_import/misc/performance-config.yaml" --workload SchedulingBasic/9Nodes

# --html: the page goes to the file (nothing on stdout); an unwritable path
# is an error naming it; check --report knows html.
pages="$(mktemp -d)"
expect run-html 0 "" -- "$bin" run "$golden" --html "$pages/run.html"
expect explain-html 0 "" -- "$bin" explain "$golden" --pod default/wants-2-cpu --html "$pages/e.html"
if [[ -z "$("$bin" run "$golden" --html "$pages/run2.html" 2>/dev/null)" ]] &&
   grep -q '<th scope="row">default/wants-2-cpu</th>' "$pages/run.html" &&
   grep -q 'class="chosen"><th scope="row">exact</th>' "$pages/e.html"; then
  echo "PASS html-pages-written"
else
  echo "FAIL html-pages-written: a page is missing its pod or chosen node, or stdout was not empty"
  failures=$((failures + 1))
fi
expect run-html-unwritable 1 "error: --html $pages/no/such/dir/x.html: cannot write the page" \
  -- "$bin" run "$golden" --html "$pages/no/such/dir/x.html"
expect explain-html-unwritable 1 "error: --html $pages/no/x.html: cannot write the page" \
  -- "$bin" explain "$golden" --pod default/wants-2-cpu --html "$pages/no/x.html"
expect check-report-html 0 "1 passed, 0 failed" \
  -- "$bin" check --impl reference --report=html "$pages/check.html" "$golden"
expect check-report-unknown 2 'unknown format "pdf" (json, junit, html)' \
  -- "$bin" check --report=pdf "$pages/x" "$golden"
expect summarize-html-unwritable 1 "error: --html $pages/no/s.html: cannot write the page" \
  -- "$bin" summarize "$golden" --html "$pages/no/s.html"
expect summarize-html 0 "" -- "$bin" summarize "$golden" --html "$pages/s.html"
expect run-html-chart 0 "" -- "$bin" run "$golden" --html "$pages/r.html"
if grep -q '<svg id="chart-cpu"' "$pages/s.html" && grep -q '<svg id="chart-cpu"' "$pages/r.html"; then
  echo "PASS summarize-html-chart"
else
  echo "FAIL summarize-html-chart: no cpu chart in the summary page"
  failures=$((failures + 1))
fi
rm -rf "$pages"
expect perf-import-churn-for 1 'error: --churn-for: expected a duration such as "10s", got "soon"' \
  -- "$bin" perf-import "$data/perf_import/misc/performance-config.yaml" \
  --workload SchedulingBasic/5Nodes --churn-for soon
expect perf-import-delete-pods 0 "delete:" \
  -- "$bin" perf-import "$data/perf_import/misc/performance-config.yaml" \
  --workload SchedulingWhileGated/1Node_10GatedPods

[[ $failures == 0 ]]
