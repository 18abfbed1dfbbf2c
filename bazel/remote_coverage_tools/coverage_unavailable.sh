#!/bin/bash
# Used for @remote_coverage_tools//:coverage_report_generator and :lcov_merger.
echo "schedref: coverage is unavailable in this offline Bazel build (no coverage tools); '$(basename "$0")' did nothing." >&2
exit 0
