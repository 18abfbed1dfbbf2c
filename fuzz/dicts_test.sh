#!/usr/bin/env bash
# //fuzz:dicts_test: every line of the fuzz/*.dict files given is a comment,
# blank, or an entry libFuzzer parses ([name=]"..." with \\, \" and \xAB as
# the only escapes; libFuzzer refuses to start on anything else, but the
# replay tests never start it), and every entry of manifest.dict is also in
# scenario.dict (libFuzzer takes one -dict per run, so scenario.dict repeats
# them).
#
#   dicts_test.sh DICT...
set -uo pipefail

entry='^[[:space:]]*([A-Za-z0-9_]+=)?"([^"\\]|\\\\|\\"|\\x[0-9A-Fa-f]{2})*"[[:space:]]*$'
failed=0
for dict in "$@"; do
  if bad="$(grep -nvE -e '^[[:space:]]*(#.*)?$' -e "${entry}" "${dict}")"; then
    printf '%s: not a libFuzzer dictionary entry:\n%s\n' "${dict}" "${bad}"
    failed=1
  fi
done
if missing="$(grep -E "${entry}" fuzz/manifest.dict | grep -vxF -f fuzz/scenario.dict)"; then
  printf 'fuzz/scenario.dict: lacks these entries of fuzz/manifest.dict:\n%s\n' "${missing}"
  failed=1
fi
exit "${failed}"
