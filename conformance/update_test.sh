#!/usr/bin/env bash
# End to end: the golden update workflow, `schedref check --update`, on a
# copy of one golden.
#   (a) a tampered expectedTrace line is restored, and the output names the
#       changed record and the changed field;
#   (b) an expectedTrace that no longer decodes (an unknown field in a trace
#       line, as after a change of the trace format) is repaired too;
#   (c) an up-to-date golden is left alone and reported unchanged;
#   (d) --update regenerates from the reference only: --impl=optimized is a
#       usage error (exit 2) and leaves the file alone;
#   (e) a file the textual rewrite would break (a key after expectedTrace,
#       a JSON scenario) is refused and left alone;
#   (f) --update --exec writes the external implementation's trace (the
#       example adapter, which answers with the reference's), and does not go
#       with --impl.
# Every check compares the whole output, the exit code and the file.
set -uo pipefail
schedref="$1"
golden="$2"
example="$3"
failures=0
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
file="$tmp/fit-error-message.yaml"

# expect NAME WANT_EXIT -- COMMAND... ; the wanted stdout and stderr on stdin.
expect() {
  local name="$1" want_exit="$2"
  shift 3
  local want got code
  want="$(cat)"
  got="$("$@" 2>&1)"
  code=$?
  if [[ "$code" != "$want_exit" ]]; then
    echo "FAIL $name: exit $code, want $want_exit"
    echo "$got"
    failures=$((failures + 1)); return
  fi
  if [[ "$got" != "$want" ]]; then
    echo "FAIL $name: output differs (want -, got +):"
    diff <(echo "$want") <(echo "$got")
    failures=$((failures + 1)); return
  fi
  echo "PASS $name"
}

# expect_golden NAME: the copy is byte for byte the golden again.
expect_golden() {
  if cmp -s "$file" "$golden"; then
    echo "PASS $1"
  else
    echo "FAIL $1: the file differs from the golden:"
    diff "$golden" "$file"
    failures=$((failures + 1))
  fi
}

# edit SED_SCRIPT: applies it to the copy's expectedTrace, which must change.
edit() {
  sed -e '/^expectedTrace:/,$ {' -e "$1" -e '}' "$golden" >"$file"
  if cmp -s "$file" "$golden"; then
    echo "FAIL edit '$1' changed nothing (has the golden changed?)"
    failures=$((failures + 1))
  fi
}

attempt="attempt t=0ms cycle 1 pod default/demanding (profile default-scheduler)"

# (a) A wrong count on the attempt line.
edit 's/"evaluated":4,/"evaluated":3,/'
expect tampered-line 0 -- "$schedref" check --update "$file" <<EOF
updated $file: +1 -1 lines
  ~ $attempt: evaluated
1 updated, 0 unchanged, 0 failed
EOF
expect_golden tampered-line-restored

# (b) An unknown field: the trace no longer decodes, so a plain check fails
# where the golden is read ...
edit 's/"evaluated":4,/"evaluated":4,"retired":true,/'
expect undecodable-check 1 -- "$schedref" check --impl=reference "$file" <<EOF
FAIL $file: $file: expectedTrace:2: retired: unknown field
0 passed, 1 failed, 0 skipped
EOF
# ... and the update still repairs it.
expect undecodable-trace 0 -- "$schedref" check --update "$file" <<EOF
updated $file: +1 -1 lines
  ~ $attempt: retired
1 updated, 0 unchanged, 0 failed
EOF
expect_golden undecodable-trace-restored

# A line that is not JSON, one removed and one added record: each listed.
edit '/"kind":"attempt"/ s/.*/  not a trace line/'
expect replaced-line 0 -- "$schedref" check --update "$file" <<EOF
updated $file: +1 -1 lines
  - not a trace line
  + $attempt
1 updated, 0 unchanged, 0 failed
EOF
expect_golden replaced-line-restored

# (c) Nothing to do.
expect unchanged 0 -- "$schedref" check --update "$file" <<EOF
unchanged $file
0 updated, 1 unchanged, 0 failed
EOF
expect_golden unchanged-untouched

# (d) Goldens come from the reference, the specification.
edit 's/"evaluated":4,/"evaluated":3,/'
expect optimized-refused 2 -- "$schedref" check --update --impl=optimized "$file" <<EOF
error: --update regenerates expectedTrace with the reference only (the specification), not --impl=optimized; check other implementations against the goldens without --update
EOF
if grep -q '"evaluated":3,' "$file"; then
  echo "PASS optimized-refused-untouched"
else
  echo "FAIL optimized-refused-untouched: the file was rewritten"
  failures=$((failures + 1))
fi

# (e) Files textual surgery would break are refused and left alone: a key
# after expectedTrace (cutting the block would drop it) and a JSON scenario
# (a YAML block appended to JSON does not decode).
cp "$golden" "$file"
echo "seed: 3" >>"$file"
cp "$file" "$tmp/before.yaml"
expect key-after-trace-refused 1 -- "$schedref" check --update "$file" <<EOF
FAIL $file: --update cannot rewrite this file safely (cutting the old expectedTrace block would drop more than the block); it rewrites YAML scenarios whose unquoted expectedTrace key comes last
0 updated, 0 unchanged, 1 failed
EOF
if cmp -s "$file" "$tmp/before.yaml"; then
  echo "PASS key-after-trace-untouched"
else
  echo "FAIL key-after-trace-untouched: the file was rewritten"
  failures=$((failures + 1))
fi
json="$tmp/minimal.json"
printf '{"schedref": "scenario/v1", "name": "j"}\n' >"$json"
cp "$json" "$tmp/before.json"
got="$("$schedref" check --update "$json" 2>&1)"
code=$?
if [[ $code == 1 && "$got" == *"FAIL $json: --update cannot rewrite this file safely (the rewritten file does not decode"* ]] &&
   cmp -s "$json" "$tmp/before.json"; then
  echo "PASS json-refused-untouched"
else
  echo "FAIL json-refused-untouched: exit $code, output:"
  echo "$got"
  failures=$((failures + 1))
fi

# (f) An external implementation writes the goldens of its own plugins.
edit 's/"evaluated":4,/"evaluated":3,/'
expect exec-update 0 -- env SCHEDREF_BIN="$schedref" "$schedref" check --update \
  --exec "python3 $example" "$file" <<EOF
updated $file: +1 -1 lines
  ~ $attempt: evaluated
1 updated, 0 unchanged, 0 failed
EOF
expect_golden exec-update-restored
edit 's/"evaluated":4,/"evaluated":3,/'
expect exec-and-impl-refused 2 -- "$schedref" check --update --impl=reference \
  --exec "python3 $example" "$file" <<EOF
error: --update regenerates expectedTrace with one implementation, the reference (--impl=reference) or an --exec one; it does not go with --exec and --impl together, several --impl or --mode=legal-choice
EOF

[[ $failures == 0 ]]
