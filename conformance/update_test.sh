#!/usr/bin/env bash
# End to end: the golden update workflow, `schedref check --update`, on a
# copy of one golden.
#   (a) a tampered expectedTrace line is restored, and the output names the
#       changed record and the changed field;
#   (b) an expectedTrace that no longer decodes (an unknown field in a trace
#       line, as after a change of the trace format) is repaired too;
#   (c) an up-to-date golden is left alone and reported unchanged;
#   (d) --update regenerates from the reference only: --impl=optimized is a
#       usage error (exit 2) and leaves the file alone.
# Every check compares the whole output, the exit code and the file.
set -uo pipefail
schedref="$1"
golden="$2"
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

[[ $failures == 0 ]]
