"""Compile time (make bench-compile): how the stages scale with the size of the program.

Problems, each a value_and_grad:

* ``rk4 N``: an unrolled RK4 of a damped pendulum written with small vector ops (``u[0]``,
  ``u[1]``, ``sg.stack``), N = 10, 100, 400 steps: the graph grows linearly with N;
* ``ode``: the benchmark suite's ODE problem (200 RK4 steps on scalars, ``problems/ode.py``);
* ``det7``: the determinant of a 7x7 matrix by cofactor expansion along the first row,
  recursive Python on tensors (each minor is the ``sg.cat`` of the column slices left and right
  of the expanded column): 13,699 recursive calls;
* ``det7_flat``: the same expansion in GradBench's ``det`` layout (cmpad's det_by_minor): the
  matrix as a flat 49-vector, each entry read as ``x[i * 7 + j]``, minors as column lists.

Each problem runs in fresh processes: ``cold`` with an empty cache directory (trace, passes,
lowering, code generation and the C compiler), then ``cached`` with that directory (the C
compiler's work comes from the disk cache). Reported: the first call's wall time, and each
stage's time (``pipeline.STAGES``, from ``symgrad.inspect``'s record of the compile) with the
Python stages per traced node, which stays about constant when a stage is linear.

    python benchmarks/compile.py [--only rk4_10,ode] [--out benchmarks/results]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
H = 0.01


def rk4(steps: int):
    import symgrad as sg

    def f(u, p):
        return sg.stack([u[1], -p[0] * sg.sin(u[0]) - p[1] * u[1]])

    def loss(u0, p):
        u = u0
        for _ in range(steps):
            k1 = f(u, p)
            k2 = f(u + H / 2 * k1, p)
            k3 = f(u + H / 2 * k2, p)
            k4 = f(u + H * k3, p)
            u = u + H / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        return (u * u).sum()
    loss.__name__ = f"rk4_{steps}"
    return sg.value_and_grad(loss, argnums=(0, 1)), [np.array([1.0, 0.5]), np.array([9.81, 0.3])]


def det(n: int):
    import symgrad as sg

    def d(a):
        m = a.shape[0]
        if m == 1:
            return a[0, 0]
        total = None
        for j in range(m):
            parts = [p for p in (a[1:, :j], a[1:, j + 1:]) if p.shape[1]]
            minor = sg.cat(parts, dim=1) if len(parts) > 1 else parts[0]
            term = a[0, j] * d(minor)
            total = term if total is None else (total + term if j % 2 == 0 else total - term)
        return total

    def detf(a):
        return d(a)
    detf.__name__ = f"det{n}"
    a = np.random.default_rng(0).standard_normal((n, n))
    return sg.value_and_grad(detf), [a]


def det_flat(n: int):
    import symgrad as sg

    def detf(x):
        def minor(i, cols):
            if len(cols) == 1:
                return x[i * n + cols[0]]
            total = None
            for k, j in enumerate(cols):
                term = x[i * n + j] * minor(i + 1, cols[:k] + cols[k + 1:])
                total = term if total is None else (total + term if k % 2 == 0 else total - term)
            return total
        return minor(0, tuple(range(n)))
    detf.__name__ = f"det{n}_flat"
    return sg.value_and_grad(detf), [np.random.default_rng(0).standard_normal(n * n)]


def ode():
    sys.path.insert(0, str(HERE))
    import problems
    module = problems.load("ode")
    args = module.inputs(module.SIZES[0])
    return module.symgrad(args), args


PROBLEMS = {"rk4_10": lambda: rk4(10), "rk4_100": lambda: rk4(100),
            "rk4_400": lambda: rk4(400), "ode": ode, "det7": lambda: det(7),
            "det7_flat": lambda: det_flat(7)}


def child(name: str) -> None:
    """One first call in this (fresh) process; prints its record as JSON."""
    t0 = time.perf_counter()
    import symgrad as sg
    imported = time.perf_counter()
    f, args = PROBLEMS[name]()
    start = time.perf_counter()
    f(*args)
    first = time.perf_counter() - start
    spec = f.last_specialization
    c = spec.compiled
    print(json.dumps({
        "problem": name, "import": imported - t0, "first_call": first,
        "nodes": len(c.traced.graph.nodes()), "optimized": len(c.graph.nodes()),
        "kernels": len(c.program.kernels), "c_bytes": len(c.source.text),
        "units": len(c.source.units), "times": c.times,
        "from_cache": c.module.from_cache, "symgrad": sg.__version__}))


def run(name: str, cache_dir: str) -> dict:
    env = dict(os.environ, SYMGRAD_CACHE_DIR=cache_dir, PYTHONPATH=str(HERE.parent))
    env.pop("SYMGRAD_CHECK", None)
    env.pop("PYTHONDONTWRITEBYTECODE", None)   # timed from bytecode, as installed (harness.py)
    out = subprocess.run([sys.executable, __file__, "--child", name], env=env, check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def table(rows: list) -> str:
    lines = ["| problem | traced nodes | optimized | C MB | units | cold first call | cached "
             "first call | trace | passes | lower | codegen | C compiler | "
             "Python stages per node |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for cold, cached in rows:
        t = cold["times"]
        python = sum(t[s] for s in ("trace", "passes", "lower", "codegen"))
        lines.append(
            f"| {cold['problem']} | {cold['nodes']:,} | {cold['optimized']:,} | "
            f"{cold['c_bytes'] / 1e6:.2f} | {cold['units']} | {cold['first_call']:.2f} s | "
            f"{cached['first_call']:.2f} s | {t['trace']:.2f} | {t['passes']:.2f} | "
            f"{t['lower']:.2f} | {t['codegen']:.2f} | {t['build']:.2f} | "
            f"{python / cold['nodes'] * 1e6:.0f} us |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--child")
    parser.add_argument("--only", default=",".join(PROBLEMS))
    parser.add_argument("--out", default=str(HERE / "results"))
    a = parser.parse_args()
    if a.child:
        child(a.child)
        return
    rows = []
    for name in a.only.split(","):
        with tempfile.TemporaryDirectory(prefix="symgrad-bench-compile-") as d:
            cold = run(name, d)
            cached = run(name, d)
            assert cached["from_cache"] and not cold["from_cache"]
        rows.append((cold, cached))
        print(f"{name}: {cold['nodes']} nodes, cold {cold['first_call']:.2f} s, cached "
              f"{cached['first_call']:.2f} s; stages "
              + ", ".join(f"{k} {v:.2f}" for k, v in cold["times"].items()), flush=True)
    text = ("# Compile time\n\n`make bench-compile` (`python benchmarks/compile.py`); seconds, "
            "one run, fresh processes, on this machine (2 cores).\n\n" + table(rows) + "\n")
    print("\n" + text)
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "compile.md").write_text(text)
    (out / "compile.json").write_text(json.dumps([{"cold": c, "cached": k} for c, k in rows],
                                                 indent=1))


if __name__ == "__main__":
    main()
