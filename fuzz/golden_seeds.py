#!/usr/bin/env python3
"""Derives fuzz seed inputs from the golden scenarios (golden/*/*.yaml).

    fuzz/golden_seeds.py --update
    fuzz/golden_seeds.py --check
    fuzz/golden_seeds.py OUT_DIR

--update rewrites the golden seeds of the corpora that take whole
scenarios, fuzz/corpus/scenario/ and fuzz/corpus/differential/: there,
golden_<folder>_<file>.yaml is a byte-for-byte copy of
golden/<folder>/<file>.yaml, for every golden scenario of at most
COPY_MAX_BYTES (8 KiB) and no other. The limit leaves out the large
schedulerperf and percentageOfNodesToScore clusters, which are beyond
differential_fuzz's bounds (fuzz/differential_bounds.h) and would raise
libFuzzer's default -max_len (the largest seed) eightfold. Other files
there (crash_*, finding_*, api_testdata_*) are hand-made and left alone.

--check writes nothing: it names every golden_* seed of those corpora that
is stale (differs from its golden), missing or extra, and exits 1 if there
is one (//fuzz:golden_seeds_test runs it, and then decodes the seeds with
//fuzz:seed_decode_check). Both modes need python3 only.

OUT_DIR writes, for every target whose input format can be cut out of a
scenario, one candidate seed per distinct piece:

  OUT_DIR/manifest/golden_<folder>_<file>.yaml
      the scenario's objects and the objects its timeline creates or
      updates, as one "kind: List" manifest (manifest_fuzz's input);
  OUT_DIR/quantity/golden_<n>
      every distinct resource quantity (requests, limits, overhead,
      allocatable, capacity), as text (quantity_fuzz's input);
  OUT_DIR/selector/golden_<folder>_<file>_<n>.yaml
      the selector part of every pod spec (nodeSelector, affinity,
      topologySpreadConstraints), every NodeAffinity addedAffinity of the
      configuration (as a spec's affinity.nodeAffinity) and every PDB
      selector (as a topology spread constraint's labelSelector)
      (selector_fuzz's input: a pod spec).

The candidates are many and overlap; the checked-in corpora are what
libFuzzer's -merge=1 keeps of them (the inputs that add coverage), next to
the hand-written seeds:

    fuzz/golden_seeds.py /tmp/seeds
    ./bazelw build --config=fuzz //fuzz:selector_fuzz_fuzzer
    bazel-out/k8-fastbuild-fuzz/bin/fuzz/selector_fuzz_fuzzer -merge=1 \
        -use_counters=0 -use_cmp=0 fuzz/corpus/selector /tmp/seeds/selector

(-use_counters=0 -use_cmp=0: keep the inputs that reach new code, not every
input that runs a loop a new number of times; libFuzzer names merged files
by their SHA-1, so copy the candidates of those names instead, to keep
their golden_ names.) The OUT_DIR mode needs PyYAML (python3-yaml); it is
not part of the build.
"""

import json
import os
import sys

# abspath, not realpath: under Bazel the script is a runfiles symlink, and
# the golden files and corpora it compares are the runfiles beside it.
HERE = os.path.dirname(os.path.abspath(__file__))
GOLDEN = os.path.join(HERE, "..", "golden")
CORPUS = os.path.join(HERE, "corpus")
COPIED_CORPORA = ("scenario", "differential")
COPY_MAX_BYTES = 8192
RESOURCE_FIELDS = ("requests", "limits", "overhead", "allocatable", "capacity")
SELECTOR_FIELDS = ("nodeSelector", "affinity", "topologySpreadConstraints")


def golden_files():
    """(folder, name without .yaml, path) of every golden scenario, sorted."""
    for folder in sorted(os.listdir(GOLDEN)):
        path = os.path.join(GOLDEN, folder)
        if not os.path.isdir(path):
            continue
        for name in sorted(os.listdir(path)):
            if name.endswith(".yaml"):
                yield folder, name[: -len(".yaml")], os.path.join(path, name)


def scenarios():
    import yaml  # only the OUT_DIR mode needs PyYAML

    for folder, name, path in golden_files():
        with open(path) as f:
            yield folder, name, yaml.safe_load(f)


def copied_seeds():
    """{seed file name: golden path}: the golden seeds of COPIED_CORPORA."""
    seeds = {}
    for folder, name, path in golden_files():
        if os.path.getsize(path) > COPY_MAX_BYTES:
            continue
        seed = f"golden_{folder}_{name}.yaml"
        if seed in seeds:
            sys.exit(f"golden_seeds: {path} and {seeds[seed]} both make {seed}")
        seeds[seed] = path
    return seeds


def read(path):
    with open(path, "rb") as f:
        return f.read()


def differences():
    """(seed path, golden path or None, problem) for every golden_* seed of
    COPIED_CORPORA that is not what copied_seeds() says it should be."""
    want = copied_seeds()
    for corpus in COPIED_CORPORA:
        directory = os.path.join(CORPUS, corpus)
        have = {n for n in os.listdir(directory) if n.startswith("golden_")}
        for seed in sorted(have | set(want)):
            path = os.path.join(directory, seed)
            golden = want.get(seed)
            if golden is None:
                yield path, None, (
                    f"extra: no golden scenario of at most {COPY_MAX_BYTES} bytes")
            elif seed not in have:
                yield path, golden, f"missing: a copy of {shown(golden)}"
            elif read(path) != read(golden):
                yield path, golden, f"stale: differs from {shown(golden)}"


def shown(path):
    """`path` relative to the workspace, as messages name files."""
    return os.path.relpath(path, os.path.join(HERE, ".."))


def check():
    problems = list(differences())
    for path, _, problem in problems:
        print(f"{shown(path)}: {problem}")
    if problems:
        print(f"golden_seeds: {len(problems)} golden seeds out of date; "
              "run fuzz/golden_seeds.py --update")
        return 1
    print(f"golden_seeds: the {len(copied_seeds())} golden seeds of each of "
          f"{', '.join(COPIED_CORPORA)} are up to date")
    return 0


def update():
    for path, golden, problem in list(differences()):
        if golden is None:
            os.remove(path)
        else:
            with open(path, "wb") as f:
                f.write(read(golden))
        print(f"{shown(path)}: {problem.split(':')[0]}, fixed")
    return 0


def objects_of(scenario):
    objects = list(scenario.get("objects") or [])
    for event in scenario.get("timeline") or []:
        for key in ("create", "update"):
            if isinstance(event.get(key), dict):
                objects.append(event[key])
    return objects


def walk(value):
    """Every mapping inside value, depth first."""
    if isinstance(value, dict):
        yield value
        for v in value.values():
            yield from walk(v)
    elif isinstance(value, list):
        for v in value:
            yield from walk(v)


def dump(value):
    import yaml

    return yaml.safe_dump(value, sort_keys=False, default_flow_style=None, width=100)


def selector_specs(scenario):
    for obj in objects_of(scenario):
        spec = obj.get("spec") or {}
        if obj.get("kind") == "Pod":
            part = {k: spec[k] for k in SELECTOR_FIELDS if k in spec}
            if part:
                yield part
        elif obj.get("kind") == "PodDisruptionBudget" and "selector" in spec:
            yield {"topologySpreadConstraints": [{
                "maxSkew": 1, "topologyKey": "topology.kubernetes.io/zone",
                "whenUnsatisfiable": "DoNotSchedule",
                "labelSelector": spec["selector"]}]}
    for m in walk(scenario.get("config")):
        if isinstance(m.get("addedAffinity"), dict):
            yield {"affinity": {"nodeAffinity": m["addedAffinity"]}}


def main(out):
    for target in ("manifest", "quantity", "selector"):
        os.makedirs(os.path.join(out, target), exist_ok=True)
    quantities = set()
    seen_selectors = set()
    for folder, name, scenario in scenarios():
        objects = objects_of(scenario)
        if objects:
            with open(os.path.join(out, "manifest", f"golden_{folder}_{name}.yaml"), "w") as f:
                f.write(dump({"apiVersion": "v1", "kind": "List", "items": objects}))
        for m in walk(objects):
            for field in RESOURCE_FIELDS:
                if isinstance(m.get(field), dict):
                    quantities.update(str(v) for v in m[field].values())
        n = 0
        for part in selector_specs(scenario):
            key = json.dumps(part, sort_keys=True)
            if key in seen_selectors:
                continue
            seen_selectors.add(key)
            n += 1
            with open(os.path.join(out, "selector", f"golden_{folder}_{name}_{n}.yaml"), "w") as f:
                f.write(dump(part))
    for i, q in enumerate(sorted(quantities)):
        with open(os.path.join(out, "quantity", f"golden_{i}"), "w") as f:
            f.write(q)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    if sys.argv[1] == "--check":
        sys.exit(check())
    if sys.argv[1] == "--update":
        sys.exit(update())
    if sys.argv[1].startswith("-"):
        sys.exit(__doc__)
    main(sys.argv[1])
