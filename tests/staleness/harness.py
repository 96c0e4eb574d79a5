"""Run a batch of staleness pairs in every mode they take, with few processes, and compare
each result with a run with the cache disabled.

One batch is at most eleven processes, whatever its number of pairs (every name a pair uses
carries its instance tag, so pairs cannot meet):

- two references, variant A and variant B of every pair, each in a fresh process with
  ``SYMGRAD_WARM_START=0`` and an empty cache directory;
- mode (a): one process runs A, makes the in-process change, runs B, pair after pair;
- mode (b): process 1 runs variant A of every pair, process 2 (sharing its cache directory)
  runs B: the programs take their values from the runner's table (or are two checkouts,
  ``b1/`` and ``b2/``), the environment is A's then B's, data files are rewritten between;
- mode (c): likewise, the programs edited in place to B between the processes;
- the ``__main__`` loaders: process 1 and 2 run one ``python -c`` program (one ``python -``
  program) holding every such pair's variant A, then B.

Every result must equal its variant's reference, and the references of A and B must differ
(else the pair tests nothing: ``vacuous``). Programs are written without bytecode files
(``PYTHONDONTWRITEBYTECODE``: Python's own cache of an edited file is not what is tested).
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import inspect
import json
import os
import random
import subprocess
import sys
import time

import numpy as np

from . import runner
from .pair import Pair, sub, sub_tree

RUNNER = os.path.abspath(runner.__file__)
RTOL, ATOL = 1e-5, 1e-8
TIMEOUT = 1800      # seconds per process
LOADERS = ("c", "stdin")


@dataclasses.dataclass
class Outcome:
    pair: Pair
    mode: str
    status: str         # ok, stale, error, vacuous, reference-error
    detail: str = ""


@dataclasses.dataclass
class Proc:
    """One process to run: the runner on a job, or a ``__main__`` program."""
    name: str
    cache: str
    job: dict | None = None
    program: str = ""          # the source of a __main__ program
    loader: str = ""           # "c" or "stdin" for a program
    env: dict = dataclasses.field(default_factory=dict)
    warm: bool = True


def same(x: list, y: list) -> bool:
    return len(x) == len(y) and bool(np.allclose(x, y, rtol=RTOL, atol=ATOL, equal_nan=True))


def _write(directory: str, files: dict, inst: str) -> None:
    """Write ``files`` (with ``@T@`` made ``inst``) into ``directory``."""
    os.makedirs(directory, exist_ok=True)
    for path, text in files.items():
        with open(os.path.join(directory, sub(path, inst)), "w") as fh:
            fh.write(sub(text, inst))


def _env_of(pairs, variant: str, mode: str) -> dict:
    env = {}
    for p in pairs:
        env.update({sub(k, p.instance(mode)): v for k, v in p.env[variant].items()})
    return env


class Batch:
    """The processes of one batch of pairs under ``root`` (see the module docstring)."""

    def __init__(self, pairs: list, root: str, seed: str = "") -> None:
        self.pairs, self.root = pairs, root
        self.order = random.Random(f"order:{seed}")    # the order items run in a process
        self.results: dict = {}                         # process name -> its JSON
        self.logs: dict = {}                            # process name -> its output

    def path(self, *parts: str) -> str:
        return os.path.join(self.root, *parts)

    def _items(self, pairs, mode: str, directory: str) -> list:
        items = []
        for p in pairs:
            inst = p.instance(mode)
            item = {"instance": inst}
            if mode == "a":
                item["change"] = sub(p.change, inst)
                item["undo"] = None if p.undo is None else sub(p.undo, inst)
                item["files"] = {v: {os.path.join(directory, sub(k, inst)): sub(text, inst)
                                     for k, text in p.lit[v].items()} for v in "AB"}
            items.append(item)
        self.order.shuffle(items)
        return items

    def references(self) -> list:
        procs = []
        for v in "AB":
            d = self.path(f"ref_{v}")
            for p in self.pairs:
                _write(d, {**p.lit[v], **p.data[v]}, p.instance("r"))
            procs.append([Proc(f"ref_{v}", self.path("cache", f"ref_{v}"),
                               {"paths": [d], "items": self._items(self.pairs, "r", d)},
                               env=_env_of(self.pairs, v, "r"), warm=False)])
        return procs

    def one_process(self) -> list:
        pairs = [p for p in self.pairs if "a" in p.modes]
        if not pairs:
            return []
        d = self.path("a")
        for p in pairs:
            _write(d, {**p.lit["A"], **p.data["A"]}, p.instance("a"))
        return [[Proc("a", self.path("cache", "a"), {"paths": [d],
                                                       "items": self._items(pairs, "a", d)},
                      env=_env_of(pairs, "A", "a"))]]

    def two_processes(self, mode: str) -> list:
        """Mode (b) or (c) of the module programs: process 1 runs A, process 2 runs B."""
        pairs = [p for p in self.pairs if mode in p.modes and p.loader == "module"]
        if not pairs:
            return []
        d, b1, b2 = self.path(mode), self.path(mode, "b1"), self.path(mode, "b2")
        for p in pairs:
            inst = p.instance(mode)
            if mode == "c":
                _write(d, {**p.lit["A"], **p.data["A"]}, inst)
            elif p.ext is not None:
                _write(d, {**p.ext, **p.data["A"]}, inst)
            else:                   # (two checkouts: A's and B's)
                _write(b1, p.lit["A"], inst)
                _write(b2, p.lit["B"], inst)

        def edit() -> None:         # (c): the programs edited in place; (b): data rewritten
            for p in pairs:
                files = {**p.lit["B"], **p.data["B"]} if mode == "c" else p.data["B"]
                _write(d, files, p.instance(mode))
        items = self._items(pairs, mode, d)
        chain = []
        for v, checkout in (("A", b1), ("B", b2)):
            values = {p.instance(mode): sub_tree(p.values[v], p.instance(mode)) for p in pairs}
            chain.append(Proc(f"{mode}_{v}", self.path("cache", mode),
                              {"paths": [d, checkout], "values": values, "items": items},
                              env=_env_of(pairs, v, mode)))
            if v == "A":
                chain.append(edit)
        return [chain]

    def main_programs(self) -> list:
        chains = []
        for loader in LOADERS:
            pairs = [p for p in self.pairs if p.loader == loader and "b" in p.modes]
            if not pairs:
                continue
            chains.append([Proc(f"main_{loader}_{v}", self.path("cache", f"main_{loader}"),
                                program=main_program(pairs, v), loader=loader)
                           for v in "AB"])
        return chains

    def run(self, jobs: int = 2) -> list:
        """Run every process (``jobs`` at a time) and compare; the outcomes."""
        chains = self.two_processes("b") + self.two_processes("c") + self.main_programs() + \
            self.references() + self.one_process()
        with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
            for future in [pool.submit(self._chain, chain) for chain in chains]:
                future.result()
        return compare(self)

    def _chain(self, chain: list) -> None:
        for step in chain:
            if callable(step):
                step()
            else:
                self.results[step.name], self.logs[step.name] = spawn(step, self.root)


def main_program(pairs: list, variant: str) -> str:
    """One ``__main__`` program holding every pair's ``variant``, printing their results as
    the runner does."""
    parts = ["import json\nimport traceback\nimport numpy as np\n\n\n",
             inspect.getsource(runner.flat), "\n\n"]
    insts = [p.instance("b") for p in pairs]
    for p, inst in zip(pairs, insts):
        parts.append(sub(p.lit[variant]["sf_@T@.py"], inst) + "\n\n")
    parts.append(f"_results = {{}}\nfor _inst in {insts!r}:\n    try:\n"
                 "        _results[_inst] = {'A': flat(globals()['run_' + _inst]())}\n"
                 "    except Exception:\n"
                 "        _results[_inst] = {'error': traceback.format_exc()[-2000:]}\n"
                 "print('SFJSON ' + json.dumps(_results), flush=True)\n")
    return "".join(parts)


def process_env(proc: Proc) -> dict:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("SYMGRAD_", "SF_ENV_", "PYTHON"))}
    env.update(SYMGRAD_CACHE_DIR=proc.cache, PYTHONDONTWRITEBYTECODE="1",
               SYMGRAD_NUM_THREADS="1", **{k: v for k, v in proc.env.items() if v is not None})
    if not proc.warm:
        env["SYMGRAD_WARM_START"] = "0"
    if os.environ.get("STALENESS_DEBUG"):     # (the fuzzer's own debugging: symgrad's log)
        env["SYMGRAD_DEBUG"] = "1"
    return env


def spawn(proc: Proc, root: str) -> tuple:
    """Run ``proc``; (its results, the tail of its stderr). A crash or a timeout gives
    ``{"__crash__": why}``."""
    os.makedirs(proc.cache, exist_ok=True)
    stdin = None
    if proc.job is not None:
        job_path = os.path.join(root, f"job_{proc.name}.json")
        with open(job_path, "w") as fh:
            json.dump(proc.job, fh)
        argv = [sys.executable, RUNNER, job_path]
    elif proc.loader == "c":
        argv = [sys.executable, "-c", proc.program]
    else:
        argv, stdin = [sys.executable, "-"], proc.program
    start = time.perf_counter()
    try:
        done = subprocess.run(argv, input=stdin, capture_output=True, text=True,
                              env=process_env(proc), cwd=root, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return {"__crash__": f"{proc.name}: timed out after {TIMEOUT} s"}, ""
    log = "\n".join(line for line in done.stdout.splitlines() if not line.startswith("SFJSON"))
    tail = (f"[{proc.name}: {time.perf_counter() - start:.1f} s]\n{log[-100000:]}"
            f"{done.stderr[-3000:]}")
    for line in reversed(done.stdout.splitlines()):
        if line.startswith("SFJSON "):
            return json.loads(line[len("SFJSON "):]), tail
    return {"__crash__": f"{proc.name}: exit {done.returncode}, no results:\n{tail}"}, tail


# ------------------------------------------------------------------ comparison
def _got(batch: Batch, p: Pair, mode: str) -> tuple:
    """(the results of pair ``p`` in ``mode`` as (variant, numbers) pairs, or None; why
    not). Mode (a) gives A, B and (with an ``undo``) A again; the others A and B."""
    inst = p.instance(mode)
    if mode == "a":
        steps = [("a", "A", "A"), ("a", "B", "B")] + ([("a", "A2", "A")] if p.undo else [])
    else:
        names = (f"main_{p.loader}" if p.loader in LOADERS else mode)
        steps = [(f"{names}_A", "A", "A"), (f"{names}_B", "A", "B")]
    found = []
    for name, key, variant in steps:
        res = batch.results.get(name, {})
        if "__crash__" in res:
            return None, res["__crash__"]
        entry = res.get(inst, {})
        if "error" in entry:
            return None, f"{name}: {entry['error']}"
        if key not in entry:
            return None, f"{name}: no result for {inst}"
        found.append((variant if key != "A2" else "A (again, after B)", variant, entry[key]))
    return found, ""


def compare(batch: Batch) -> list:
    outcomes = []
    for p in batch.pairs:
        refs, why = _got_refs(batch, p)
        for mode in p.modes:
            if refs is None:
                outcomes.append(Outcome(p, mode, "reference-error", why))
            elif same(*refs):
                outcomes.append(Outcome(p, mode, "vacuous",
                                        f"A and B compute the same numbers: {refs[0]}"))
            else:
                outcomes.append(_judge(batch, p, mode, refs))
    return outcomes


def _got_refs(batch: Batch, p: Pair) -> tuple:
    refs = []
    for v in "AB":
        res = batch.results.get(f"ref_{v}", {})
        if "__crash__" in res:
            return None, res["__crash__"]
        entry = res.get(p.instance("r"), {})
        if "A" not in entry:
            return None, f"reference {v}: {entry.get('error', 'no result')}"
        refs.append(entry["A"])
    return tuple(refs), ""


def _judge(batch: Batch, p: Pair, mode: str, refs: tuple) -> Outcome:
    got, why = _got(batch, p, mode)
    if got is None:
        return Outcome(p, mode, "error", why)
    ref = {"A": refs[0], "B": refs[1]}
    bad = []
    for label, variant, numbers in got:
        if same(numbers, ref[variant]):
            continue
        other = "B" if variant == "A" else "A"
        bad.append(f"variant {label}: got {numbers}\n    the no-cache run of {variant} computes "
                   f"{ref[variant]}" + (f"\n    (variant {other}'s computes {ref[other]})"
                                        if same(numbers, ref[other]) else ""))
    return Outcome(p, mode, "stale" if bad else "ok", "\n".join(bad))
