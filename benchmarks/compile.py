"""Compile time (make bench-compile): the cold first call of each problem, stage by stage.

The problems (``compile_problems.py``) are grouped by issue 27's targets for the cold first
call: the ``make bench`` problems (100 ms), the large ones (1 s), and a scaling series (unrolled
RK4 of 10, 100, 400 steps, the unrolled ODE, the flat 7x7 determinant) without a target.

Each problem runs ``--runs`` times (default 3), each time in fresh processes: ``cold`` with an
empty ``SYMGRAD_CACHE_DIR`` (trace, passes, lowering, code generation and the C compiler),
then ``cached`` with that directory (the C compiler's work, or the whole compile, comes from
the disk cache). The tables show medians over the runs. Reported per problem: the ``import
symgrad`` time; the first call's wall time; each pipeline stage's time (``pipeline.STAGES``,
symgrad's own record of the compile); inside ``build``, from a timing shim the child installs
before its first call (``compile_probe.py``: ``subprocess.Popen`` and the build's module-level
functions wrapped, nothing in ``symgrad/`` edited): the command planning, the writing of the
sources, the concurrent compile of the translation units and the cffi wrapper, the link,
loading the module, the cache's bookkeeping, the Ctrl-C helper's build, and every compiler
process with its wall time; what the first call spends after the stages (the call path, the
run itself).

With ``--drjit-python PATH`` (a Python that imports ``drjit``: ``.venv-bench`` has it), the
small problems also run under Dr.Jit (``drjit_cold.py``: fresh process, empty kernel cache,
the same runs), with the largest absolute difference of its value and gradients from
symgrad's. Without it the Dr.Jit column says why it is empty.

    python benchmarks/compile.py [--runs 3] [--only rk4_10,ode_fori] [--drjit-python PATH]
                                 [--out benchmarks/results] [--before]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from compile_probe import HELPERS  # noqa: E402
from compile_problems import GROUPS, PROBLEMS, leaves  # noqa: E402
import compile_peers  # noqa: E402
import compile_report  # noqa: E402
import drjit_cold  # noqa: E402

STAGES = ("trace", "passes", "lower", "codegen", "build")


# ---------------------------------------------------------------- the child process

def child(name: str, cached: bool, dump: str | None) -> None:
    """One first call in this (fresh) process; prints its record as JSON."""
    t0 = time.perf_counter()
    import symgrad as sg
    imported = time.perf_counter()
    from compile_probe import Probe
    probe = Probe()
    probe.install()
    f, args = PROBLEMS[name]()
    probe.begin_call()
    start = time.perf_counter()
    result = f(*args)
    first = time.perf_counter() - start
    spec = f.last_specialization
    c = spec.compiled        # None: a warm start (loaded from the cache's record, not traced)
    record = {"problem": name, "import": imported - t0, "first_call": first,
              "times": dict(c.times) if c is not None else {}, "warm_start": c is None,
              "from_cache": spec.module.from_cache, "probe": probe.summary(),
              "symgrad": sg.__version__}
    if not cached:
        record.update(nodes=len(c.traced.graph.nodes()), optimized=len(c.graph.nodes()),
                      kernels=len(c.program.kernels), c_bytes=len(c.source.text),
                      units=len(c.source.units))
    if dump:
        np.savez(dump, *leaves(result))
    print(json.dumps(record))


def run(name: str, cache_dir: str, cached: bool, dump: str | None = None) -> dict:
    env = dict(os.environ, SYMGRAD_CACHE_DIR=cache_dir, PYTHONPATH=str(HERE.parent))
    env.pop("SYMGRAD_CHECK", None)
    env.pop("PYTHONDONTWRITEBYTECODE", None)   # timed from bytecode, as installed (harness.py)
    cmd = [sys.executable, __file__, "--child", name] + (["--cached"] if cached else []) + \
        (["--dump", dump] if dump else [])
    out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


# ---------------------------------------------------------------- one run's columns

def columns(cold: dict, cached: dict) -> dict:
    """The flat columns of one run (seconds; None where the shim found nothing to time)."""
    t, p = cold["times"], cold["probe"]
    fn = p["functions"]
    main = [b for b in p["batches"] if b.get("in_build") not in HELPERS]
    link = [b for b in main if "link" in b["names"]]
    compiles = [b for b in main if "link" not in b["names"]]
    row = {"first_call": cold["first_call"], "import": cold["import"],
           "cached_first_call": cached["first_call"], "cached_import": cached["import"],
           **{s: t.get(s) for s in STAGES},
           "after_stages": cold["first_call"] - sum(t.get(s, 0.0) for s in STAGES),
           "build_fn": fn.get("build"), "plan": fn.get("plan"),
           "write": fn.get("write sources"),
           "load": None if fn.get("load module") is None else
           fn["load module"] - fn.get("helpers in load module", 0.0),
           "compile": sum(b["end"] - b["start"] for b in compiles) if compiles else None,
           "link": sum(b["end"] - b["start"] for b in link) if link else None,
           "cc_cpu": sum(b["cpu"] for b in main) if main else None,
           "helpers": sum(fn.get(f"{h} build", 0.0) for h in HELPERS.values()),
           "imports": p.get("imports"), "jinja2": fn.get("jinja2 compile", 0.0)}
    if fn.get("specialization") is not None:
        row["call_setup"] = fn["specialization"] - fn.get("helpers in specialization", 0.0)
    if fn.get("cache") is not None and fn.get("run build") is not None:
        row["cache_bookkeeping"] = fn["cache"] - fn["run build"] - (fn.get("load module") or 0)
    procs: dict = {}
    for proc in p["processes"]:
        procs[proc["name"]] = procs.get(proc["name"], 0.0) + proc["wall"]
    row.update({"proc:" + k: v for k, v in procs.items()})
    return row


def medians(rows: list) -> dict:
    keys = {k for r in rows for k in r}
    out = {}
    for k in keys:
        values = [r.get(k, 0.0 if k.startswith("proc:") else None) for r in rows]
        values = [v for v in values if v is not None]
        out[k] = statistics.median(values) if values else None
    return out


# ---------------------------------------------------------------- Dr.Jit side by side

def drjit_side(name: str, python: str, runs: int, ours: str | None, cache: dict) -> dict | None:
    """Dr.Jit's medians for the problem matching ``name`` (kept in ``cache``: two of ours share
    one), and the largest differences from symgrad's results in the file ``ours``."""
    match = drjit_cold.MATCHES.get(name)
    if match is None:
        return None
    if match not in cache:
        with tempfile.TemporaryDirectory(prefix="drjit-dump-") as d:
            dump = str(Path(d) / "drjit.npz")
            records = [drjit_cold.run(python, match, dump if r == 0 else None)
                       for r in range(runs)]
            theirs = _load(dump)
        cache[match] = {"runs": records, "results": theirs,
                        **{k: statistics.median(r[k] for r in records)
                           for k in ("first_call", "import", "llvm_ms", "codegen_ms",
                                     "compiled")}}
    side = {k: v for k, v in cache[match].items() if k != "results"}
    side["problem"] = match
    if ours is not None:
        mine, theirs = _load(ours), cache[match]["results"]
        assert len(mine) == len(theirs), (name, len(mine), len(theirs))
        side["value_diff"] = float(np.max(np.abs(mine[0] - theirs[0])))
        side["grad_diff"] = max(float(np.max(np.abs(a - b.reshape(a.shape))))
                                for a, b in zip(mine[1:], theirs[1:]))
        side["grad_scale"] = max(float(np.max(np.abs(a))) for a in mine[1:])
    return side


def peers_side(name: str, python: str, runs: int, ours: str | None, dumps: str) -> dict | None:
    """torch's and JAX's medians on problem ``name`` (``compile_peers.py``), each with the
    largest differences of its value and gradients from symgrad's results in ``ours``."""
    side = compile_peers.measure(python, name, runs, dumps)
    if side is None or ours is None:
        return side
    mine = _load(ours)
    for system in side.values():
        if "timeout" in system or "failed" in system:
            continue
        theirs = _load(system.pop("dump"))
        assert len(mine) == len(theirs), (name, len(mine), len(theirs))
        system["value_diff"] = float(np.max(np.abs(mine[0] - theirs[0])))
        system["grad_diff"] = max(float(np.max(np.abs(a - b.reshape(a.shape))))
                                  for a, b in zip(mine[1:], theirs[1:]))
    return side


def _load(path: str) -> list:
    with np.load(path) as z:
        return [z[f"arr_{k}"] for k in range(len(z.files))]


# ---------------------------------------------------------------- main

def measure(name: str, runs: int, drjit: str | None, dumps: str, drjit_cache: dict,
            peers: tuple | None = None) -> dict:
    """One problem's row: ``runs`` cold and cached first calls, Dr.Jit's side (``drjit``: its
    Python) and torch's and JAX's (``peers``: (their Python, their runs))."""
    pairs = []
    compared = drjit and name in drjit_cold.MATCHES or peers and name in compile_peers.PROBLEMS
    ours = str(Path(dumps) / f"{name}.npz") if compared else None
    for r in range(runs):
        with tempfile.TemporaryDirectory(prefix="symgrad-bench-compile-") as d:
            cold = run(name, d, False, ours if r == 0 else None)
            cached = run(name, d, True)
            assert cached["from_cache"] and not cold["from_cache"], name
        pairs.append((cold, cached))
    row = {"problem": name, "runs": [{"cold": c, "cached": k} for c, k in pairs],
           "median": medians([columns(c, k) for c, k in pairs]),
           **{k: pairs[0][0][k] for k in ("nodes", "optimized", "kernels", "c_bytes", "units")},
           "missing": pairs[0][0]["probe"]["missing"]}
    if drjit:
        row["drjit"] = drjit_side(name, drjit, runs, ours, drjit_cache)
    if peers:
        row["peers"] = peers_side(name, *peers, ours, dumps)
    m = row["median"]
    print(f"{name}: cold {m['first_call'] * 1e3:.0f} ms (build {m['build'] * 1e3:.0f}, "
          f"compile {(m['compile'] or 0) * 1e3:.0f}, link {(m['link'] or 0) * 1e3:.0f}), "
          f"cached {m['cached_first_call'] * 1e3:.0f} ms"
          + (f"; Dr.Jit {row['drjit']['first_call'] * 1e3:.0f} ms" if row.get("drjit") else ""),
          flush=True)
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--child")
    parser.add_argument("--cached", action="store_true")
    parser.add_argument("--dump")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--only", default=",".join(n for _, _, names in GROUPS for n in names))
    parser.add_argument("--drjit-python", default="")
    parser.add_argument("--peers-python", default="",
                        help="a Python with torch and jax: their times on the large problems")
    parser.add_argument("--peer-runs", type=int, default=1)
    parser.add_argument("--out", default=str(HERE / "results"))
    parser.add_argument("--before", action="store_true",
                        help="also write the table as compile_before.md")
    a = parser.parse_args()
    if a.child:
        child(a.child, a.cached, a.dump)
        return
    names = a.only.split(",")
    unknown = set(names) - set(PROBLEMS)
    if unknown:
        parser.error(f"unknown problems {sorted(unknown)}; known: {', '.join(PROBLEMS)}")
    drjit_version = drjit_cold.available(a.drjit_python) if a.drjit_python else None
    drjit_note = (f"Dr.Jit {drjit_version} ({a.drjit_python})" if drjit_version else
                  f"Dr.Jit skipped: `{a.drjit_python}` cannot import drjit" if a.drjit_python
                  else "Dr.Jit skipped: no `--drjit-python` given")
    peers_version = compile_peers.available(a.peers_python) if a.peers_python else None
    peers_note = (peers_version if peers_version else
                  f"torch and JAX skipped: `{a.peers_python}` cannot import both"
                  if a.peers_python else "torch and JAX skipped: no `--peers-python` given")
    peers = (a.peers_python, a.peer_runs) if peers_version else None
    rows, drjit_cache = [], {}
    load = [os.getloadavg()[0]]
    with tempfile.TemporaryDirectory(prefix="symgrad-bench-dumps-") as dumps:
        for name in names:
            rows.append(measure(name, a.runs, a.drjit_python if drjit_version else None,
                                dumps, drjit_cache, peers))
    load.append(os.getloadavg()[0])
    text = compile_report.document(rows, a.runs, drjit_note, load, peers_note, a.peer_runs)
    print("\n" + text)
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "compile.md").write_text(text)
    if a.before:
        (out / "compile_before.md").write_text(text)
    (out / "compile.json").write_text(json.dumps({"runs": a.runs, "drjit": drjit_note,
                                                  "peers": peers_note,
                                                  "load_average": load, "rows": rows},
                                                 indent=1))


if __name__ == "__main__":
    main()
