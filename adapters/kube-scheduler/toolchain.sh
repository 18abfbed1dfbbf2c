#!/usr/bin/env bash
# Installs Debian's Go 1.23 (golang-1.23-go, in bookworm-backports) when
# /usr/lib/go-1.23/bin/go is missing. The backports suite is added as a
# sources entry derived from the machine's own Debian entry (its URIs and
# keyring), so no archive host is written anywhere in the repository.
# Sourced by build.sh; prints the go binary's path.
set -euo pipefail

go_bin=/usr/lib/go-1.23/bin/go

schedref_install_go() {
  if [[ -x "${go_bin}" ]]; then
    echo "${go_bin}"
    return 0
  fi
  local sudo=()
  if [[ "$(id -u)" -ne 0 ]]; then
    command -v sudo >/dev/null 2>&1 || {
      echo "build.sh: ${go_bin} missing; not root and no sudo: install golang-1.23-go from bookworm-backports" >&2
      return 1
    }
    sudo=(sudo)
  fi
  local entry=/etc/apt/sources.list.d/schedref-bookworm-backports.sources
  if [[ ! -e "${entry}" ]]; then
    local derived
    derived="$(derive_backports_entry)" || {
      echo "build.sh: no Debian bookworm source entry in /etc/apt to derive bookworm-backports from" >&2
      return 1
    }
    echo "build.sh: adding ${entry}:" >&2
    echo "${derived}" | sed 's/^/  /' >&2
    echo "${derived}" | "${sudo[@]}" tee "${entry}" >/dev/null
  fi
  local apt_opts=(-o DPkg::Lock::Timeout=600)
  "${sudo[@]}" apt-get "${apt_opts[@]}" update -qq </dev/null >&2
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get "${apt_opts[@]}" install -y -qq \
    --no-install-recommends -t bookworm-backports golang-1.23-go </dev/null >&2
  echo "${go_bin}"
}

# A deb822 stanza for bookworm-backports with the URIs and Signed-By of the
# first stanza (deb822 .sources, else a one-line sources.list entry) whose
# suites include plain `bookworm`.
derive_backports_entry() {
  local f
  for f in /etc/apt/sources.list.d/*.sources; do
    [[ -r "$f" ]] || continue
    awk '
      function flush() {
        if (!done && uris != "" && suites ~ /(^| )bookworm( |$)/) {
          print "Types: deb"; print "URIs: " uris; print "Suites: bookworm-backports"
          print "Components: " (comps == "" ? "main" : comps)
          if (signed != "") print "Signed-By: " signed
          done = 1
        }
        uris = suites = comps = signed = ""
      }
      /^[ \t]*$/ { flush(); next }
      /^URIs:/ { sub(/^URIs:[ \t]*/, ""); uris = $0 }
      /^Suites:/ { sub(/^Suites:[ \t]*/, ""); suites = $0 }
      /^Components:/ { sub(/^Components:[ \t]*/, ""); comps = $0 }
      /^Signed-By:/ { sub(/^Signed-By:[ \t]*/, ""); signed = $0 }
      END { flush(); exit(done ? 0 : 1) }' "$f" && return 0
  done
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [[ -r "$f" ]] || continue
    awk '$1 == "deb" {
           i = 2; opts = ""
           if ($2 ~ /^\[/) { opts = $2; i = 3 }
           if ($(i + 1) == "bookworm") {
             print "Types: deb"; print "URIs: " $i; print "Suites: bookworm-backports"
             print "Components: main"
             if (match(opts, /signed-by=[^] ]+/)) print "Signed-By: " substr(opts, RSTART + 10, RLENGTH - 10)
             found = 1; exit
           }
         }
         END { exit(found ? 0 : 1) }' "$f" && return 0
  done
  return 1
}
