"""Run a batch of staleness-pair instances in this process and print their results as JSON.

    python tests/staleness/runner.py JOB.json

The job (written by ``harness.py``): ``paths`` to put on ``sys.path``, ``values`` (instance
-> the values its ``ext`` program reads through ``import sfvalues``) and ``items``, run one
after the other: each imports its main module ``sf_<instance>``, calls ``run_<instance>()``
and, when the item has a ``change`` (mode (a)), runs that source with ``mod`` (the module),
``write`` and ``files`` (each variant's files, for a change that edits them) in scope, then
calls ``run_<instance>()`` again (result "B"), and, if it has an ``undo``, runs that and calls
it once more (result "A2": back to A, whose code symgrad may have kept). The default dtype
is restored after each item (a dtype pair sets it). The last line printed is ``SFJSON`` and a
JSON object: instance -> ``{"A": [...], "B": [...], "A2": [...]}`` (the results, flattened to
floats) or ``{"error": ...}``.

Standalone: it imports nothing from the tests, so that the process holds only the programs
it runs.
"""

import functools
import importlib
import json
import os
import sys
import traceback
import types

import numpy as np

import symgrad as sg


def flat(out) -> list:
    """A result (arrays, tensors, numbers, nested in tuples and lists) as a list of floats."""
    if isinstance(out, (tuple, list)):
        return [v for item in out for v in flat(item)]
    if hasattr(out, "detach"):
        out = out.detach().numpy()
    return np.asarray(out, dtype=np.float64).ravel().tolist()


def write(files: dict) -> None:
    for path, text in files.items():
        with open(path, "w") as fh:
            fh.write(text)


def run_item(item: dict) -> dict:
    inst = item["instance"]
    stage = "import"
    got = {}
    try:
        mod = importlib.import_module(f"sf_{inst}")
        stage = "A"
        got["A"] = flat(getattr(mod, f"run_{inst}")())
        for step, key in (("change", "B"), ("undo", "A2")):
            if item.get(step) is None:
                break
            stage = step
            scope = {"mod": mod, "write": write, "files": item.get("files", {}), "os": os,
                     "sys": sys, "np": np, "sg": sg, "importlib": importlib,
                     "functools": functools}
            exec(item[step], scope)   # noqa: S102  (the pair's own in-process change)
            stage = key
            got[key] = flat(getattr(mod, f"run_{inst}")())
    except Exception:   # noqa: BLE001 - reported with the pair, never hidden
        lines = traceback.format_exc().strip().splitlines()
        got["error"] = f"{stage}: " + "\n".join(lines[-12:])
    return got


def main(job_path: str) -> None:
    with open(job_path) as fh:
        job = json.load(fh)
    sys.path[:0] = job["paths"]
    sys.modules["sfvalues"] = types.SimpleNamespace(V=job.get("values", {}))
    results = {}
    for item in job["items"]:
        saved = sg.get_default_dtype()
        try:
            results[item["instance"]] = run_item(item)
        finally:
            sg.set_default_dtype(saved)
    print("SFJSON " + json.dumps(results), flush=True)


if __name__ == "__main__":
    main(sys.argv[1])
