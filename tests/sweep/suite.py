"""The sweep as a whole: which samples run (the full set or the default subset), against
which oracle (torch live, or torch's stored records), and what differs.

Input: the registry's samples, the stored expectations (``expected.json.gz``, written by
``store.py``: torch's records, and the float64 references ``accuracy`` reads),
``known_differences`` (what torch leaves undefined; symgrad's open
differences). Output: ``Result`` per sample (its differences, the ones excluded as undefined,
both records, its time), and ``verdict`` (differences not listed; listed ones that match now).
"""

from __future__ import annotations

import gzip
import importlib.util
import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

from . import known_differences, names, registry, runner
from .compare import differences

STORE = Path(__file__).with_name("expected.json.gz")
DEFAULT_SHARE = 4   # the default run takes one sample in DEFAULT_SHARE of each op (at least 2)


@dataclass
class Result:
    sample: object
    diffs: dict
    undefined: dict = field(default_factory=dict)
    torch: dict | None = None
    symgrad: dict | None = None
    seconds: float = 0.0


def have_torch() -> bool:
    return importlib.util.find_spec("torch") is not None


def load_store() -> dict:
    if not STORE.exists():
        return {}
    with gzip.open(STORE, "rt") as f:
        return json.load(f)


def torch_names(store: dict) -> dict:
    """ns -> torch's public callable names: live when torch is installed, else stored."""
    if have_torch():
        return names.public_callables(runner.library("torch"))
    return {ns: set(v) for ns, v in store.get("torch_names", {}).items()}


def shared(store: dict) -> list:
    return names.shared_with(torch_names(store), runner.library("symgrad"))


def plan(mode: str, store: dict, only: str | None = None) -> dict:
    """op -> the samples that run: all of them (``full``) or the default subset: the first
    two of each op and every ``DEFAULT_SHARE``-th after them (deterministic)."""
    ops = registry.samples(tuple(n for n in shared(store) if n not in names.NOT_OPS
                                 and n not in names.NOT_SWEPT_YET))
    if only:
        ops = {op: s for op, s in ops.items() if only in op}
    if mode == "full":
        return ops
    return {op: [s for i, s in enumerate(ss) if i < 2 or i % DEFAULT_SHARE == 0]
            for op, ss in ops.items()}


def execute(ops: dict, oracle: str, store: dict, progress=None) -> list:
    """Runs every sample on symgrad and compares with torch (``oracle="torch"``: run live;
    ``"stored"``: the stored record)."""
    symgrad = runner.library("symgrad")
    torch = runner.library("torch") if oracle == "torch" else None
    records = store.get("records", {})
    references = store.get("references", {})
    results = []
    for op, samples in ops.items():
        for sample in samples:
            start = time.perf_counter()
            theirs = runner.run(torch, sample) if torch else records.get(sample.pattern)
            mine = runner.run(symgrad, sample)
            if theirs is None:
                results.append(Result(sample, {"unstored": "no stored torch record: run "
                                                           "python tests/sweep/store.py"}))
                continue
            diffs = differences(mine, theirs)
            kept, undefined = known_differences.split_undefined(
                sample, diffs, {"symgrad": mine, "torch": theirs,
                                "reference": references.get(sample.pattern)})
            results.append(Result(sample, kept, undefined, theirs, mine,
                                  time.perf_counter() - start))
        if progress:
            progress(op)
    return results


def verdict(results: list) -> tuple:
    """(new, fixed): differences that ``OPEN`` does not list, and listed ones that match now
    (each a list of ``(pattern, aspects)``). Lenient calls are allowed and never listed."""
    listed = known_differences.open_differences()
    new, fixed = [], []
    for r in results:
        now = {a for a in r.diffs if a != "lenient"}
        was = listed.get(r.sample.pattern, set())
        if now - was:
            new.append((r.sample.pattern, sorted(now - was)))
        if was - now:
            fixed.append((r.sample.pattern, sorted(was - now)))
    return new, fixed


def mode_from_env() -> str:
    return "full" if os.environ.get("SYMGRAD_SWEEP", "") == "full" else "default"
