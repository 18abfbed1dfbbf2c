#!/usr/bin/env bash
# End to end: `schedref check --exec` against the example external
# implementation (schedref_exec.py), over the real protocol and processes.
#   (a) the example passes goldens in both modes, and skips what it
#       declares unsupported;
#   (b) its deliberately broken variant (--break lower-score) is reported
#       with the right first divergence and the reference's explanation;
#   (c) legal-choice mode accepts another member of a tied top-score set
#       and another equally good preemption candidate (--seed: a different
#       RNG) and refuses a lower-scored node.
# Every check compares the whole output and the exit code.
set -uo pipefail
schedref="$1"
example="$2"
impl="python3 $example --schedref $schedref"
failures=0
tmp="${TEST_TMPDIR:-$(mktemp -d)}"

# expect NAME WANT_EXIT -- COMMAND... ; the wanted stdout on stdin.
expect() {
  local name="$1" want_exit="$2"
  shift 3
  local want got code
  want="$(cat)"
  got="$("$@" 2>"$tmp/stderr")"
  code=$?
  if [[ "$code" != "$want_exit" ]]; then
    echo "FAIL $name: exit $code, want $want_exit"
    echo "$got"; cat "$tmp/stderr"
    failures=$((failures + 1)); return
  fi
  if [[ "$got" != "$want" ]]; then
    echo "FAIL $name: output differs (want -, got +):"
    diff <(echo "$want") <(echo "$got")
    failures=$((failures + 1)); return
  fi
  echo "PASS $name"
}

# expect_stderr NAME WANT: the stderr of the last `expect`.
expect_stderr() {
  if [[ "$(cat "$tmp/stderr")" != "$2" ]]; then
    echo "FAIL $1: stderr is:"; cat "$tmp/stderr"
    failures=$((failures + 1)); return
  fi
  echo "PASS $1"
}

goldens=(
  golden/noderesources/fit-insufficient-cpu.yaml
  golden/cycle/score-tie-seeded.yaml
  golden/binding/permit-wait-allow.yaml
  golden/queue/backoff-and-node-add.yaml
  golden/preemption/single-victim.yaml
)

# --- (a) the example conforms -------------------------------------------------

for mode in strict legal-choice; do
  expect "a-passes-$mode" 0 -- "$schedref" check --mode=$mode --exec "$impl" "${goldens[@]}" <<'EOF'
PASS golden/noderesources/fit-insufficient-cpu.yaml
PASS golden/cycle/score-tie-seeded.yaml
PASS golden/binding/permit-wait-allow.yaml
PASS golden/queue/backoff-and-node-add.yaml
PASS golden/preemption/single-victim.yaml
5 passed, 0 failed, 0 skipped
EOF
done

# Every golden with an unschedulable attempt ran PostFilter (DefaultPreemption
# is a default plugin), so it needs preemption too, even where PostFilter
# found nothing. An unknown tag is a warning, not an error.
expect a-skips-unsupported 0 -- "$schedref" check \
  --exec "$impl --unsupported preemption --unsupported warp-drive" \
  --report=json "$tmp/report.json" "${goldens[@]}" <<'EOF'
SKIP golden/noderesources/fit-insufficient-cpu.yaml: needs unsupported feature preemption
PASS golden/cycle/score-tie-seeded.yaml
SKIP golden/binding/permit-wait-allow.yaml: needs unsupported feature preemption
SKIP golden/queue/backoff-and-node-add.yaml: needs unsupported feature preemption
SKIP golden/preemption/single-victim.yaml: needs unsupported feature preemption
1 passed, 0 failed, 4 skipped
EOF
expect_stderr a-warns-unknown-tag \
  'warning: schedref-exec-example declares an unknown feature tag "warp-drive"; ignored'
expect a-json-report 0 -- python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
print(r["format"], r["mode"], r["summary"])
for e in r["results"]:
    print(e["implementation"], e["outcome"], e["file"], e["scenario"], type(e["seconds"]).__name__)
' "$tmp/report.json" <<'EOF'
schedref-check-report strict {'failed': 0, 'passed': 1, 'skipped': 4}
schedref-exec-example skip golden/noderesources/fit-insufficient-cpu.yaml noderesources-fit-insufficient-cpu float
schedref-exec-example pass golden/cycle/score-tie-seeded.yaml cycle-score-tie-seeded float
schedref-exec-example skip golden/binding/permit-wait-allow.yaml binding-permit-wait-allow float
schedref-exec-example skip golden/queue/backoff-and-node-add.yaml queue-backoff-and-node-add float
schedref-exec-example skip golden/preemption/single-victim.yaml preemption-single-victim float
EOF

# --- (b) the broken variant: first divergence and explanation -----------------

expect b-broken-strict 1 -- "$schedref" check --exec "$impl --break lower-score" \
  conformance/testdata/tie.yaml conformance/testdata/distinct.yaml <<'EOF'
PASS conformance/testdata/tie.yaml
FAIL conformance/testdata/distinct.yaml: first difference at trace line 2: attempt t=0ms cycle 1 pod default/p1 (profile default-scheduler); differing fields: node, topScores
  expected: {"cycle":1,"evaluated":3,"feasible":2,"kind":"attempt","node":"big","outcome":"scheduled","pod":"default/p1","profile":"default-scheduler","rejections":{"tiny":{"code":"Unschedulable","plugin":"NodeResourcesFit","reasons":["Insufficient cpu"]}},"t":0,"topScores":[{"node":"big","score":485},{"node":"small","score":448}]}
  actual:   {"cycle":1,"evaluated":3,"feasible":2,"kind":"attempt","node":"small","outcome":"scheduled","pod":"default/p1","profile":"default-scheduler","rejections":{"tiny":{"code":"Unschedulable","plugin":"NodeResourcesFit","reasons":["Insufficient cpu"]}},"t":0,"topScores":[{"node":"small","score":448},{"node":"big","score":485}]}
  fields that differ:
    node: expected "big", actual "small"
    topScores: expected [{"node":"big","score":485},{"node":"small","score":448}], actual [{"node":"small","score":448},{"node":"big","score":485}]
  reference, cycle 1 (t=0ms), pod default/p1, profile default-scheduler: scheduled on big; 3 nodes evaluated, 2 feasible
    PreFilter: NodeAffinity Skip, NodePorts Skip, NodeResourcesFit Success, VolumeRestrictions Skip, NodeVolumeLimits Skip, VolumeBinding Skip, VolumeZone Skip, PodTopologySpread Skip, InterPodAffinity Skip
    Filter plugins, in run order: NodeUnschedulable, NodeName, TaintToleration, NodeAffinity, NodePorts, NodeResourcesFit, VolumeRestrictions, NodeVolumeLimits, VolumeBinding, VolumeZone, PodTopologySpread, InterPodAffinity
    Score plugins (weight): TaintToleration 3, NodeAffinity 2, NodeResourcesFit 1, VolumeBinding 1, PodTopologySpread 2, InterPodAffinity 2, NodeResourcesBalancedAllocation 1, ImageLocality 1
    node big: rank 1, total 485 <- chosen
      filters: all passed; skipped (PreFilter Skip): NodeAffinity, NodePorts, VolumeRestrictions, NodeVolumeLimits, VolumeBinding, VolumeZone, PodTopologySpread, InterPodAffinity
      scores: TaintToleration 300 (3 x 100, raw 0), NodeResourcesFit 92 (1 x 92, raw 92), NodeResourcesBalancedAllocation 93 (1 x 93, raw 93), ImageLocality 0 (1 x 0, raw 0)
    node small: rank 2, total 448
      filters: all passed; skipped (PreFilter Skip): NodeAffinity, NodePorts, VolumeRestrictions, NodeVolumeLimits, VolumeBinding, VolumeZone, PodTopologySpread, InterPodAffinity
      scores: TaintToleration 300 (3 x 100, raw 0), NodeResourcesFit 73 (1 x 73, raw 73), NodeResourcesBalancedAllocation 75 (1 x 75, raw 75), ImageLocality 0 (1 x 0, raw 0)
    node tiny: rejected by NodeResourcesFit (Unschedulable: Insufficient cpu)
      filters: passed NodeUnschedulable, NodeName, TaintToleration; rejected by NodeResourcesFit (Unschedulable: Insufficient cpu); skipped (PreFilter Skip): NodeAffinity, NodePorts, VolumeRestrictions, NodeVolumeLimits, VolumeBinding, VolumeZone, PodTopologySpread, InterPodAffinity
    chosen: big, the only node with the top total 485 (next: small 448)
  why: small scores 448; the top score is 485 (big)
1 passed, 1 failed, 0 skipped
EOF

expect b-broken-junit 1 -- "$schedref" check --exec "$impl --break lower-score" \
  --report=junit "$tmp/report.xml" conformance/testdata/distinct.yaml <<'EOF'
FAIL conformance/testdata/distinct.yaml: first difference at trace line 2: attempt t=0ms cycle 1 pod default/p1 (profile default-scheduler); differing fields: node, topScores
  expected: {"cycle":1,"evaluated":3,"feasible":2,"kind":"attempt","node":"big","outcome":"scheduled","pod":"default/p1","profile":"default-scheduler","rejections":{"tiny":{"code":"Unschedulable","plugin":"NodeResourcesFit","reasons":["Insufficient cpu"]}},"t":0,"topScores":[{"node":"big","score":485},{"node":"small","score":448}]}
  actual:   {"cycle":1,"evaluated":3,"feasible":2,"kind":"attempt","node":"small","outcome":"scheduled","pod":"default/p1","profile":"default-scheduler","rejections":{"tiny":{"code":"Unschedulable","plugin":"NodeResourcesFit","reasons":["Insufficient cpu"]}},"t":0,"topScores":[{"node":"small","score":448},{"node":"big","score":485}]}
  fields that differ:
    node: expected "big", actual "small"
    topScores: expected [{"node":"big","score":485},{"node":"small","score":448}], actual [{"node":"small","score":448},{"node":"big","score":485}]
  reference, cycle 1 (t=0ms), pod default/p1, profile default-scheduler: scheduled on big; 3 nodes evaluated, 2 feasible
    PreFilter: NodeAffinity Skip, NodePorts Skip, NodeResourcesFit Success, VolumeRestrictions Skip, NodeVolumeLimits Skip, VolumeBinding Skip, VolumeZone Skip, PodTopologySpread Skip, InterPodAffinity Skip
    Filter plugins, in run order: NodeUnschedulable, NodeName, TaintToleration, NodeAffinity, NodePorts, NodeResourcesFit, VolumeRestrictions, NodeVolumeLimits, VolumeBinding, VolumeZone, PodTopologySpread, InterPodAffinity
    Score plugins (weight): TaintToleration 3, NodeAffinity 2, NodeResourcesFit 1, VolumeBinding 1, PodTopologySpread 2, InterPodAffinity 2, NodeResourcesBalancedAllocation 1, ImageLocality 1
    node big: rank 1, total 485 <- chosen
      filters: all passed; skipped (PreFilter Skip): NodeAffinity, NodePorts, VolumeRestrictions, NodeVolumeLimits, VolumeBinding, VolumeZone, PodTopologySpread, InterPodAffinity
      scores: TaintToleration 300 (3 x 100, raw 0), NodeResourcesFit 92 (1 x 92, raw 92), NodeResourcesBalancedAllocation 93 (1 x 93, raw 93), ImageLocality 0 (1 x 0, raw 0)
    node small: rank 2, total 448
      filters: all passed; skipped (PreFilter Skip): NodeAffinity, NodePorts, VolumeRestrictions, NodeVolumeLimits, VolumeBinding, VolumeZone, PodTopologySpread, InterPodAffinity
      scores: TaintToleration 300 (3 x 100, raw 0), NodeResourcesFit 73 (1 x 73, raw 73), NodeResourcesBalancedAllocation 75 (1 x 75, raw 75), ImageLocality 0 (1 x 0, raw 0)
    node tiny: rejected by NodeResourcesFit (Unschedulable: Insufficient cpu)
      filters: passed NodeUnschedulable, NodeName, TaintToleration; rejected by NodeResourcesFit (Unschedulable: Insufficient cpu); skipped (PreFilter Skip): NodeAffinity, NodePorts, VolumeRestrictions, NodeVolumeLimits, VolumeBinding, VolumeZone, PodTopologySpread, InterPodAffinity
    chosen: big, the only node with the top total 485 (next: small 448)
  why: small scores 448; the top score is 485 (big)
0 passed, 1 failed, 0 skipped
EOF
expect b-junit-parses 0 -- python3 -c '
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
print(root.tag, root.get("tests"), root.get("failures"), root.get("skipped"))
for case in root.iter("testcase"):
    failure = case.find("failure")
    print(case.get("classname"), case.get("name"), failure.get("message"))
    print(failure.text.splitlines()[-1])
' "$tmp/report.xml" <<'EOF'
testsuites 1 1 0
conformance.testdata distinct.yaml first difference at trace line 2: attempt t=0ms cycle 1 pod default/p1 (profile default-scheduler); differing fields: node, topScores
  why: small scores 448; the top score is 485 (big)
EOF

# --- (c) legal choices ----------------------------------------------------------

# With seed 4 the example breaks both ties of score-tie-seeded differently
# from the golden (b, b instead of c, c), and the tie of testdata/tie.yaml
# too (b instead of a): not the golden, but legal.
expect c-other-tie-strict 1 -- "$schedref" check --exec "$impl --seed 4" \
  golden/cycle/score-tie-seeded.yaml <<'EOF'
FAIL golden/cycle/score-tie-seeded.yaml: first difference at trace line 2: attempt t=0ms cycle 1 pod default/p1 (profile default-scheduler); differing fields: node, topScores
  expected: {"cycle":1,"evaluated":3,"feasible":3,"kind":"attempt","node":"c","outcome":"scheduled","pod":"default/p1","profile":"default-scheduler","t":0,"topScores":[{"node":"c","score":499},{"node":"a","score":499},{"node":"b","score":499}]}
  actual:   {"cycle":1,"evaluated":3,"feasible":3,"kind":"attempt","node":"b","outcome":"scheduled","pod":"default/p1","profile":"default-scheduler","t":0,"topScores":[{"node":"b","score":499},{"node":"a","score":499},{"node":"c","score":499}]}
  fields that differ:
    node: expected "c", actual "b"
    topScores: expected [{"node":"c","score":499},{"node":"a","score":499},{"node":"b","score":499}], actual [{"node":"b","score":499},{"node":"a","score":499},{"node":"c","score":499}]
  reference, cycle 1 (t=0ms), pod default/p1, profile default-scheduler: scheduled on c; 3 nodes evaluated, 3 feasible
    PreFilter: NodeAffinity Skip, NodePorts Skip, NodeResourcesFit Success, VolumeRestrictions Skip, NodeVolumeLimits Skip, VolumeBinding Skip, VolumeZone Skip, PodTopologySpread Skip, InterPodAffinity Skip
    Filter plugins, in run order: NodeUnschedulable, NodeName, TaintToleration, NodeAffinity, NodePorts, NodeResourcesFit, VolumeRestrictions, NodeVolumeLimits, VolumeBinding, VolumeZone, PodTopologySpread, InterPodAffinity
    Score plugins (weight): TaintToleration 3, NodeAffinity 2, NodeResourcesFit 1, VolumeBinding 1, PodTopologySpread 2, InterPodAffinity 2, NodeResourcesBalancedAllocation 1, ImageLocality 1
    node a: rank 1, total 499
      filters: all passed; skipped (PreFilter Skip): NodeAffinity, NodePorts, VolumeRestrictions, NodeVolumeLimits, VolumeBinding, VolumeZone, PodTopologySpread, InterPodAffinity
      scores: TaintToleration 300 (3 x 100, raw 0), NodeResourcesFit 99 (1 x 99, raw 99), NodeResourcesBalancedAllocation 100 (1 x 100, raw 100), ImageLocality 0 (1 x 0, raw 0)
    node b: rank 1, total 499
      filters: all passed; skipped (PreFilter Skip): NodeAffinity, NodePorts, VolumeRestrictions, NodeVolumeLimits, VolumeBinding, VolumeZone, PodTopologySpread, InterPodAffinity
      scores: TaintToleration 300 (3 x 100, raw 0), NodeResourcesFit 99 (1 x 99, raw 99), NodeResourcesBalancedAllocation 100 (1 x 100, raw 100), ImageLocality 0 (1 x 0, raw 0)
    node c: rank 1, total 499 <- chosen
      filters: all passed; skipped (PreFilter Skip): NodeAffinity, NodePorts, VolumeRestrictions, NodeVolumeLimits, VolumeBinding, VolumeZone, PodTopologySpread, InterPodAffinity
      scores: TaintToleration 300 (3 x 100, raw 0), NodeResourcesFit 99 (1 x 99, raw 99), NodeResourcesBalancedAllocation 100 (1 x 100, raw 100), ImageLocality 0 (1 x 0, raw 0)
    chosen: a, b, c tie at the top total 499 (in feasible-list order); selectHost picks one uniformly (upstream v1.32: reservoir sampling with math/rand); schedref draws once from its RNG seeded with 20241122 (docs/deviations.md, "selectHost"): index 2 of 3 -> c
  why: b ties for the top score 499 with a, c
  (a tie: --mode=legal-choice accepts this choice)
0 passed, 1 failed, 0 skipped
EOF

expect c-other-tie-legal 0 -- "$schedref" check --mode=legal-choice --exec "$impl --seed 4" \
  golden/cycle/score-tie-seeded.yaml conformance/testdata/tie.yaml <<'EOF'
PASS golden/cycle/score-tie-seeded.yaml: legal choices accepted: cycle 1 default/p1 on b (reference: c), cycle 2 default/p2 on b (reference: c)
PASS conformance/testdata/tie.yaml: legal choices accepted: cycle 1 default/p1 on b (reference: a)
2 passed, 0 failed, 0 skipped
EOF

expect c-lower-score-legal 1 -- "$schedref" check --mode=legal-choice \
  --exec "$impl --break lower-score" conformance/testdata/distinct.yaml <<'EOF'
FAIL conformance/testdata/distinct.yaml: cycle 1 pod default/p1: the implementation chose small, not a legal choice (small scores 448; the top score is 485 (big))
  expected: {"cycle":1,"evaluated":3,"feasible":2,"feasibleNodes":["big","small"],"kind":"attempt","node":"big","outcome":"scheduled","pod":"default/p1","profile":"default-scheduler","rejections":{"tiny":{"code":"Unschedulable","plugin":"NodeResourcesFit","reasons":["Insufficient cpu"]}},"t":0,"topScores":[{"node":"big","score":485},{"node":"small","score":448}]}
  actual:   {"cycle":1,"evaluated":3,"feasible":2,"feasibleNodes":["big","small"],"kind":"attempt","node":"small","outcome":"scheduled","pod":"default/p1","profile":"default-scheduler","rejections":{"tiny":{"code":"Unschedulable","plugin":"NodeResourcesFit","reasons":["Insufficient cpu"]}},"t":0,"topScores":[{"node":"small","score":448},{"node":"big","score":485}]}
  fields that differ:
    node: expected "big", actual "small"
    topScores: expected [{"node":"big","score":485},{"node":"small","score":448}], actual [{"node":"small","score":448},{"node":"big","score":485}]
  reference, cycle 1 (t=0ms), pod default/p1, profile default-scheduler: scheduled on big; 3 nodes evaluated, 2 feasible
    PreFilter: NodeAffinity Skip, NodePorts Skip, NodeResourcesFit Success, VolumeRestrictions Skip, NodeVolumeLimits Skip, VolumeBinding Skip, VolumeZone Skip, PodTopologySpread Skip, InterPodAffinity Skip
    Filter plugins, in run order: NodeUnschedulable, NodeName, TaintToleration, NodeAffinity, NodePorts, NodeResourcesFit, VolumeRestrictions, NodeVolumeLimits, VolumeBinding, VolumeZone, PodTopologySpread, InterPodAffinity
    Score plugins (weight): TaintToleration 3, NodeAffinity 2, NodeResourcesFit 1, VolumeBinding 1, PodTopologySpread 2, InterPodAffinity 2, NodeResourcesBalancedAllocation 1, ImageLocality 1
    node big: rank 1, total 485 <- chosen
      filters: all passed; skipped (PreFilter Skip): NodeAffinity, NodePorts, VolumeRestrictions, NodeVolumeLimits, VolumeBinding, VolumeZone, PodTopologySpread, InterPodAffinity
      scores: TaintToleration 300 (3 x 100, raw 0), NodeResourcesFit 92 (1 x 92, raw 92), NodeResourcesBalancedAllocation 93 (1 x 93, raw 93), ImageLocality 0 (1 x 0, raw 0)
    node small: rank 2, total 448
      filters: all passed; skipped (PreFilter Skip): NodeAffinity, NodePorts, VolumeRestrictions, NodeVolumeLimits, VolumeBinding, VolumeZone, PodTopologySpread, InterPodAffinity
      scores: TaintToleration 300 (3 x 100, raw 0), NodeResourcesFit 73 (1 x 73, raw 73), NodeResourcesBalancedAllocation 75 (1 x 75, raw 75), ImageLocality 0 (1 x 0, raw 0)
    node tiny: rejected by NodeResourcesFit (Unschedulable: Insufficient cpu)
      filters: passed NodeUnschedulable, NodeName, TaintToleration; rejected by NodeResourcesFit (Unschedulable: Insufficient cpu); skipped (PreFilter Skip): NodeAffinity, NodePorts, VolumeRestrictions, NodeVolumeLimits, VolumeBinding, VolumeZone, PodTopologySpread, InterPodAffinity
    chosen: big, the only node with the top total 485 (next: small 448)
  why: small scores 448; the top score is 485 (big)
0 passed, 1 failed, 0 skipped
EOF

# Legal-choice mode asks for feasible nodes ("options":{"feasibleNodes":true}),
# which the example passes on as `schedref run --feasible-nodes`: both lines
# above list them.

# With seed 2 the dry run starts at another offset and the final tie of
# pickOneNodeForPreemption goes to node2: legal.
expect c-other-nomination-legal 0 -- "$schedref" check --mode=legal-choice \
  --exec "$impl --seed 2" conformance/testdata/preemption-tie.yaml <<'EOF'
PASS conformance/testdata/preemption-tie.yaml: legal choices accepted: cycle 1 default/high nominating node2 (reference: node1)
1 passed, 0 failed, 0 skipped
EOF

# The same broken implementation on a golden, summary line only.
expect c-lower-score-golden 1 -- bash -o pipefail -c "'$schedref' check --mode=legal-choice \
  --exec '$impl --break lower-score' golden/noderesources/least-allocated.yaml | grep -v '^ '" <<'EOF'
FAIL golden/noderesources/least-allocated.yaml: cycle 1 pod default/incoming: the implementation chose machine2, not a legal choice (machine2 scores 429; the top score is 474 (machine1))
0 passed, 1 failed, 0 skipped
EOF

# --- usage -------------------------------------------------------------------------

expect exec-cannot-start 1 -- "$schedref" check --exec "exit 7" conformance/testdata/tie.yaml <<'EOF'
EOF
expect_stderr exec-cannot-start-message \
  'error: --exec: the implementation exited with status 7 before answering the handshake (command: exit 7)'

[[ $failures == 0 ]]
