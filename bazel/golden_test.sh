#!/usr/bin/env bash
# Runs the golden checker binary (first argument) with the remaining arguments.
set -euo pipefail
bin="$1"
shift
exec "$bin" "$@"
