#!/usr/bin/env python3
"""An external implementation for `schedref check --exec`, in Python 3 (stdlib only).

It speaks the schedref-conformance protocol, version 1
(docs/conformance-protocol.md) on stdin/stdout, and computes each trace by
running our own binary, `schedref run --impl reference`, on a temporary copy
of the scenario. It exists to show the protocol end to end; a real adapter
would call its own scheduler where this one calls `schedref run`.

    ./bazelw build //:schedref
    ./bazelw run //:schedref -- check \\
        --exec 'python3 conformance/examples/schedref_exec.py' golden/cycle/*.yaml

Options that make it a *different* implementation, for the conformance tests:

  --seed N             run every scenario with seed N instead of its own: an
                       implementation whose random tie-breaks differ from
                       ours. Strict mode rejects it wherever a tie was broken;
                       legal-choice mode accepts it.
  --break lower-score  deliberately broken: at the first attempt where the
                       second-best node scores strictly less than the best,
                       report the second-best node as chosen (and bound, and
                       placed). Both modes reject it.
  --unsupported TAG    declare a feature tag unsupported (repeatable);
                       scenarios that need it are reported as skipped.

Diagnostics go to stderr; stdout carries protocol lines only.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

PROTOCOL = "schedref-conformance"
VERSION = 1


def send(obj):
    sys.stdout.write(json.dumps(obj, sort_keys=True, separators=(",", ":"),
                                ensure_ascii=False) + "\n")
    sys.stdout.flush()


def default_schedref():
    if os.environ.get("SCHEDREF_BIN"):
        return os.environ["SCHEDREF_BIN"]
    if os.path.exists("bazel-bin/cmd/schedref/schedref"):
        return os.path.abspath("bazel-bin/cmd/schedref/schedref")
    return shutil.which("schedref") or "schedref"


def with_seed(text, seed):
    """The scenario text with its top-level `seed` set to `seed`."""
    text, n = re.subn(r"^seed:.*$", "seed: %d" % seed, text, flags=re.M)
    if n == 0:
        text = re.sub(r"^(schedref:.*)$", r"\g<1>\nseed: %d" % seed, text,
                      count=1, flags=re.M)
    return text


def break_lower_score(lines):
    """Rewrites the first choice that had a strictly worse runner-up."""
    records = [json.loads(line) for line in lines]
    for i, rec in enumerate(records):
        top = rec.get("topScores", [])
        if (rec.get("kind") != "attempt" or len(top) < 2 or
                top[1]["score"] >= top[0]["score"] or
                rec.get("node") != top[0]["node"]):
            continue
        old, new = top[0]["node"], top[1]["node"]
        rec["node"] = new
        top[0], top[1] = top[1], top[0]
        for later in records[i + 1:]:
            if (later.get("kind") == "binding" and
                    later.get("cycle") == rec["cycle"]):
                later["node"] = new
            if (later.get("kind") == "placements" and
                    later["placements"].get(rec["pod"]) == old):
                later["placements"][rec["pod"]] = new
        break
    return [json.dumps(r, sort_keys=True, separators=(",", ":"),
                       ensure_ascii=False) for r in records]


def run(args, request):
    text = request["scenario"]
    if args.seed is not None:
        text = with_seed(text, args.seed)
    with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False,
                                     encoding="utf-8") as f:
        f.write(text)
        path = f.name
    try:
        command = [args.schedref, "run", "--impl", "reference", path]
        # Legal-choice mode asks for each attempt's feasible nodes.
        if request.get("options", {}).get("feasibleNodes"):
            command.append("--feasible-nodes")
        proc = subprocess.run(command, capture_output=True, text=True)
    finally:
        os.unlink(path)
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr.strip().replace(path, request.get("file", path)))
    lines = [line for line in proc.stdout.splitlines() if line.strip()]
    if args.brk == "lower-score":
        lines = break_lower_score(lines)
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--schedref", default=default_schedref(),
                        help="the schedref binary (default: $SCHEDREF_BIN, "
                             "bazel-bin/cmd/schedref/schedref, or PATH)")
    parser.add_argument("--name", default="schedref-exec-example")
    parser.add_argument("--seed", type=int)
    parser.add_argument("--break", dest="brk", choices=["lower-score"])
    parser.add_argument("--unsupported", action="append", default=[])
    args = parser.parse_args()

    hello = json.loads(sys.stdin.readline() or "null")
    if (not isinstance(hello, dict) or hello.get("protocol") != PROTOCOL or
            hello.get("version") != VERSION):
        send({"kind": "error", "message": "want protocol %s version %d" %
              (PROTOCOL, VERSION)})
        return 1
    send({"protocol": PROTOCOL, "version": VERSION, "name": args.name,
          "capabilities": {"unsupported": args.unsupported}})

    while True:
        line = sys.stdin.readline()
        if not line:
            return 0  # the runner closed our stdin: we are done
        if not line.strip():
            continue
        request = json.loads(line)
        if request.get("kind") != "run":
            send({"kind": "error", "message": "unknown request kind %r" %
                  request.get("kind")})
            continue
        try:
            lines = run(args, request)
        except Exception as e:  # any failure is this scenario's error
            send({"kind": "error", "message": str(e)})
            continue
        sys.stdout.write("".join(line + "\n" for line in lines))
        sys.stdout.flush()


if __name__ == "__main__":
    sys.exit(main())
