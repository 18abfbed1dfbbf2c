#!/usr/bin/env python3
"""The HTML pages in a real browser: Debian's chromium, headless.

For a few goldens (one scheduled among many nodes with rejections and
nodes not evaluated, one with many failing filters, one with preemption),
a failing check and an attempt over 5,000 nodes, it writes the pages with
the schedref binary, loads each in chromium and checks that

  * the page logs nothing to the console (no error, no CSP violation: the
    pages fetch nothing), with JavaScript on;
  * the DOM holds the cells the explainer's JSON says it must (the chosen
    node, a rejection reason, a total score, the FitError, the nominated
    node, the divergence) -- with JavaScript off too;
  * the script pages long tables (100 rows shown of 5,000);

and keeps a screenshot of each page in TEST_UNDECLARED_OUTPUTS_DIR.

Usage: browser_test.py SCHEDREF GOLDEN_DIR TESTDATA_DIR
"""

import html.parser
import json
import os
import shutil
import subprocess
import sys
import tempfile

FAILURES = []
PASSED = [0]


def check(name, ok, detail=""):
    if ok:
        PASSED[0] += 1
        print("PASS " + name)
    else:
        FAILURES.append(name)
        print("FAIL " + name + (": " + detail if detail else ""))


class Dom(html.parser.HTMLParser):
    """The cells of a dumped DOM: (tag, attributes, text) for td/th/pre/p/dd,
    and the rows of each table body with their hidden state."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.cells = []
        self.rows = {}  # table id -> [(data-name, hidden)]
        self._stack = []
        self._table = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table":
            self._table.append(a.get("id", ""))
        if tag == "tr" and self._table and "data-name" in a:
            self.rows.setdefault(self._table[-1], []).append((a["data-name"], "hidden" in a))
        if tag in ("td", "th", "pre", "p", "dd", "h2", "h3", "li", "caption"):
            self._stack.append([tag, a, ""])

    def handle_endtag(self, tag):
        if tag == "table" and self._table:
            self._table.pop()
        if self._stack and self._stack[-1][0] == tag:
            t, a, text = self._stack.pop()
            self.cells.append((t, a, " ".join(text.split())))
            if self._stack:
                self._stack[-1][2] += text

    def handle_data(self, data):
        if self._stack:
            self._stack[-1][2] += data

    def texts(self, tag=None):
        return [t for (g, a, t) in self.cells if tag is None or g == tag]

    def has(self, tag, text):
        return any(text in t for t in self.texts(tag))


def chromium():
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    sys.exit("chromium is not installed (./bazelw installs Debian's chromium package)")


def load(page, outputs, shot, script=True):
    """Loads `page`; returns (Dom, console lines) and saves a screenshot when
    `shot`. With `script` off chromium can neither dump the DOM nor take a
    screenshot (both run script), so the DOM is the page as written, which
    is what a browser without JavaScript shows."""
    base = [
        chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
        "--no-first-run", "--disable-extensions", "--disable-background-networking",
        "--enable-logging=stderr", "--v=0",
        "--user-data-dir=" + tempfile.mkdtemp(dir=os.environ.get("TEST_TMPDIR")),
    ]
    if not script:
        base.append("--blink-settings=scriptEnabled=false")
    url = "file://" + os.path.abspath(page)
    console = []
    if shot:
        png = os.path.join(outputs, shot)
        r = subprocess.run(base + ["--window-size=1400,1600", "--hide-scrollbars",
                                   "--screenshot=" + png, url],
                           capture_output=True, text=True, timeout=120)
        console += [l for l in r.stderr.splitlines() if ":CONSOLE" in l]
        check(shot + " screenshot written",
              os.path.exists(png) and os.path.getsize(png) > 10000,
              "missing or empty: " + png)
    dom = Dom()
    if script:
        dump = subprocess.run(base + ["--dump-dom", url], capture_output=True, text=True,
                              timeout=120)
        console += [l for l in dump.stderr.splitlines() if ":CONSOLE" in l]
        check(os.path.basename(page) + " loads", dump.returncode == 0 and
              "</html>" in dump.stdout, dump.stderr[-2000:])
        dom.feed(dump.stdout)
    else:
        with open(page, encoding="utf-8") as f:
            dom.feed(f.read())
    return dom, console


def schedref(binary, *args):
    r = subprocess.run([binary] + list(args), capture_output=True, text=True, timeout=300)
    return r


def page_checks(name, page, outputs, shot, wants):
    """Loads `page` with and without script; each (tag, text) of `wants` must
    be in both DOMs; nothing may reach the console. Returns the DOM with
    script on."""
    doms = {}
    for script in (True, False):
        # chromium takes no screenshot with script off either.
        dom, console = load(page, outputs, shot if script else None, script)
        doms[script] = dom
        mode = "script on" if script else "script off"
        check("%s: no console messages (%s)" % (name, mode), not console, "\n".join(console))
        for tag, text in wants:
            check("%s: <%s> holds %r (%s)" % (name, tag, text, mode), dom.has(tag, text))
        if not script:
            hidden = [n for rows in dom.rows.values() for (n, h) in rows if h]
            check("%s: every row shown without script" % name, not hidden, str(hidden[:5]))
    return doms[True]


def explain_json(binary, scenario, pod, cycle):
    r = schedref(binary, "explain", scenario, "--pod", pod, "--cycle", str(cycle),
                 "--output", "json")
    if r.returncode != 0:
        sys.exit("explain failed: " + r.stderr)
    return json.loads(r.stdout)["attempts"][0]


def main():
    binary, golden, testdata = sys.argv[1:4]
    outputs = os.environ.get("TEST_UNDECLARED_OUTPUTS_DIR") or tempfile.mkdtemp()
    work = tempfile.mkdtemp(dir=os.environ.get("TEST_TMPDIR"))

    # 1. Scheduled among 130 nodes: rejections, totals, nodes not evaluated.
    scenario = os.path.join(golden, "cycle/percentage-of-nodes-to-score.yaml")
    model = explain_json(binary, scenario, "default/p0", 1)
    page = os.path.join(work, "explain-percentage.html")
    r = schedref(binary, "explain", scenario, "--pod", "default/p0", "--cycle", "1",
                 "--html", page)
    check("explain --html exits 0", r.returncode == 0, r.stderr)
    chosen = next(n for n in model["nodes"] if n["chosen"])
    rejected = next(n for n in model["nodes"] if not n["feasible"])
    reason = next(f["status"] for f in rejected["filter"]
                  if f["status"] not in ("Success", "Skipped", "NotRun"))
    dom = page_checks("explain percentage-of-nodes-to-score", page, outputs,
                      "explain-percentage-of-nodes-to-score.png", [
                          ("th", chosen["node"]),
                          ("td", "\u2605 chosen"),
                          ("td", "\u2717 " + reason),
                          ("td", str(chosen["total"])),
                          ("td", "\u25cb not evaluated"),
                          ("dd", model["choice"]["text"]),
                      ])
    # The chosen node's row: its name, the chosen verdict and its total.
    rows = [c for c in dom.cells if c[0] == "td" and c[2] == str(chosen["total"])]
    check("the chosen node's total is a cell", bool(rows))
    visible = [n for (n, h) in dom.rows.get("attempt-1-matrix", []) if not h]
    check("the matrix lists every node (%d) with script on" % len(visible),
          len(dom.rows.get("attempt-1-matrix", [])) ==
          len(model["nodes"]) + len(model["notEvaluated"]["nodes"]))
    check("the matrix shows 100 rows per page", len(visible) == 100, str(len(visible)))

    # 2. Many failing filters: the FitError and the rejection counts.
    scenario = os.path.join(golden, "fiterror/first-failing-filter.yaml")
    model = explain_json(binary, scenario, "default/web", 1)
    page = os.path.join(work, "explain-fiterror.html")
    schedref(binary, "explain", scenario, "--pod", "default/web", "--html", page)
    wants = [("pre", model["message"]), ("caption", "Rejections by plugin and reason")]
    for n in model["nodes"]:
        for f in n["filter"]:
            if f["status"] not in ("Success", "Skipped", "NotRun"):
                wants.append(("td", "\u2717 " + f["status"]))
    page_checks("explain first-failing-filter", page, outputs,
                "explain-first-failing-filter.png", wants)

    # 3. Preemption: the explain page of the preemptor and the run page.
    scenario = os.path.join(golden, "preemption/single-victim.yaml")
    page = os.path.join(work, "explain-preemption.html")
    schedref(binary, "explain", scenario, "--pod", "default/important", "--html", page)
    page_checks("explain single-victim", page, outputs, "explain-preemption-single-victim.png", [
        ("p", "Nominated node n1; victims, in deletion order: default/low."),
        ("td", "\u2605 nominated"),
        ("h2", "Cycle 2 at t=30000 ms: scheduled on n1"),
    ])
    page = os.path.join(work, "run-preemption.html")
    r = schedref(binary, "run", scenario, "--html", page)
    check("run --html exits 0", r.returncode == 0, r.stderr)
    page_checks("run single-victim", page, outputs, "run-preemption-single-victim.png", [
        ("th", "default/important"),
        ("li", "t=0 ms: \u2691 nominated n1; victims default/low"),
        ("li", "t=30000 ms: victimTerminated"),
        ("li", "t=30000 ms: \u2713 bound to n1"),
        ("th", "n1"),
        ("caption", "Per node: requested / allocatable"),
        ("h2", "The cluster over virtual time"),
        ("caption", "The cluster at each sample"),
    ])
    text = open(page, encoding="utf-8").read()
    check("run page: the summary's four charts", text.count("<svg id=\"chart-") == 4)

    # 4. A failing check: a golden whose expectedTrace chose another node.
    tampered = os.path.join(testdata, "tampered-choice.yaml")
    page = os.path.join(work, "check.html")
    r = schedref(binary, "check", "--impl", "reference", "--report=html", page, tampered)
    check("check of a tampered golden fails", r.returncode == 1, r.stdout + r.stderr)
    page_checks("check tampered-choice", page, outputs, "check-failing.png", [
        ("td", "\u2717 fail"),
        ("h3", "First divergence: trace line 2"),
        ("pre", '"node":"mid"'),
        ("pre", '"node":"big"'),
        ("td", "\u2605 chosen"),
        ("td", "\u25c6 expected by the golden"),
        ("li", "node: "),
    ])

    # 5. 5,000 nodes: the page loads, pages and searches.
    big = os.path.join(work, "five-thousand.yaml")
    with open(big, "w") as f:
        f.write("schedref: scenario/v1\nname: five-thousand\nseed: 1\nobjects:\n")
        for i in range(5000):
            f.write("- {apiVersion: v1, kind: Node, metadata: {name: node-%04d}, status: "
                    "{allocatable: {cpu: \"%d\", memory: 16Gi, pods: \"110\"}}}\n"
                    % (i, 2 + i % 7))
        f.write("- apiVersion: v1\n  kind: Pod\n  metadata: {name: p, namespace: default}\n"
                "  spec:\n    containers: [{name: c, image: pause, resources: {requests: "
                "{cpu: \"4\"}}}]\n")
    page = os.path.join(work, "explain-5000.html")
    r = schedref(binary, "explain", big, "--pod", "default/p", "--html", page)
    check("explain --html over 5,000 nodes exits 0", r.returncode == 0, r.stderr)
    dom, console = load(page, outputs, "explain-5000-nodes.png")
    check("5,000 nodes: no console messages", not console, "\n".join(console))
    rows = dom.rows.get("attempt-1-matrix", [])
    check("5,000 nodes: every node is a row", len(rows) == 5000, str(len(rows)))
    check("5,000 nodes: 100 rows shown", len([1 for (n, h) in rows if not h]) == 100)

    # 6. `run --html` over every golden: a page per golden, each naming
    # every pod the run left pending or placed.
    goldens = sorted(os.path.join(d, f) for d, _, fs in os.walk(golden) for f in fs
                     if f.endswith(".yaml"))
    bad = []
    for path in goldens:
        page = os.path.join(work, "run.html")
        r = schedref(binary, "run", path, "--html", page)
        trace = schedref(binary, "run", path)
        placements = {}
        for line in trace.stdout.splitlines():
            record = json.loads(line)
            if record.get("kind") == "placements":
                placements = record["placements"]
        text = open(page, encoding="utf-8").read() if r.returncode == 0 else ""
        missing = [p for p in placements
                   if html.escape(p, quote=True).replace("&#x27;", "&#39;") not in text]
        if r.returncode != 0 or not text.endswith("</html>\n") or missing:
            bad.append("%s: exit %d, missing %s %s" % (path, r.returncode, missing[:3],
                                                       r.stderr[-300:]))
    check("run --html over every golden (%d)" % len(goldens), len(goldens) > 120 and not bad,
          "\n".join(bad[:10]))

    # 7. `summarize --html`: the cluster over virtual time as inline SVG
    # charts and a table, the values those of `summarize --output json`.
    scenario = os.path.join(golden, "lifetimes/finish-frees-room.yaml")
    r = schedref(binary, "summarize", scenario)
    check("summarize exits 0", r.returncode == 0, r.stderr)
    samples = json.loads(r.stdout)["cluster"]
    page = os.path.join(work, "summary.html")
    r = schedref(binary, "summarize", scenario, "--html", page)
    check("summarize --html exits 0 and prints nothing", r.returncode == 0 and not r.stdout,
          r.stdout[-300:] + r.stderr)
    at_10s = next(c for c in samples if c["t"] == 10000)
    dom = page_checks("summarize finish-frees-room", page, outputs, "summary-charts.png", [
        ("h2", "The cluster over virtual time"),
        ("caption", "The cluster at each sample"),
        ("th", "Requested cpu (m)"),
        ("td", str(at_10s["requestedCpu"])),
        ("td", str(at_10s["allocatableMemory"])),
        ("th", "default/waiting-2"),
    ])
    rows = dom.rows.get("summary-cluster", [])
    check("summary: a row per sample (%d)" % len(samples),
          [n for (n, _) in rows] == [str(c["t"]) for c in samples], str(rows))
    text = open(page, encoding="utf-8").read()
    check("summary: four inline SVG charts with labelled axes",
          text.count("<svg id=\"chart-") == 4 and text.count(">virtual time (s)</text>") == 4,
          text[:300])

    print("%d passed, %d failed" % (PASSED[0], len(FAILURES)))
    sys.exit(1 if FAILURES else 0)


if __name__ == "__main__":
    main()
