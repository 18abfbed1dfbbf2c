#!/usr/bin/env python3
"""Derives fuzz seed inputs from the golden scenarios (golden/*/*.yaml).

    fuzz/golden_seeds.py OUT_DIR

writes, for every target whose input format can be cut out of a scenario,
one candidate seed per distinct piece:

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
their golden_ names.)

The scenario and differential corpora are whole golden files, copied.
Needs PyYAML (python3-yaml); not part of the build.
"""

import json
import os
import sys

import yaml

GOLDEN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "golden")
RESOURCE_FIELDS = ("requests", "limits", "overhead", "allocatable", "capacity")
SELECTOR_FIELDS = ("nodeSelector", "affinity", "topologySpreadConstraints")


def scenarios():
    for folder in sorted(os.listdir(GOLDEN)):
        path = os.path.join(GOLDEN, folder)
        if not os.path.isdir(path):
            continue
        for name in sorted(os.listdir(path)):
            if name.endswith(".yaml"):
                with open(os.path.join(path, name)) as f:
                    yield folder, name[: -len(".yaml")], yaml.safe_load(f)


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
    main(sys.argv[1])
