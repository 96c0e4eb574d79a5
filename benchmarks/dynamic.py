"""Shape-generic compilation: one compile for every batch size, against one compile per size.

For the logreg and MLP problems of ``make bench`` (their symgrad gradient functions), at batch
1, 7, 256 and 1000: the per-call time of the shape-generic module (``dynamic_dims`` on the
batch dimension, compiled once, each new size bound without a compile) and of the static
specialization of that size (``dynamic=False``), medians of interleaved rounds in one run;
plus the time of the first call at each new size (a compile for static, a bind for generic).
Results: ``benchmarks/results/dynamic.md``. Run: ``make bench-dynamic``.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
# A cache of its own: every first call below is a cold compile (or a bind), not a disk hit.
os.environ["SYMGRAD_CACHE_DIR"] = tempfile.mkdtemp(prefix="symgrad-bench-dynamic-")

import symgrad as sg  # noqa: E402
from problems import Size, load  # noqa: E402

BATCHES = (1, 7, 256, 1000)
ROUNDS = 15


def _problem(name: str):
    mod = load(name)
    base = mod.SIZES[-1]
    batch_key = "batch" if "batch" in base.params else "n"
    fn = mod.symgrad(None)
    dims = {"x": 0, "y": 0} if name == "logreg" else {"x": 0, "t": 0}

    def args(batch: int) -> list:
        return mod.inputs(Size(base.label, {**base.params, batch_key: batch}))
    return fn, dims, args, mod


def _per_call(f, args: list) -> float:
    """Seconds per call: enough calls for ~20 ms."""
    f(*args)
    n, t = 1, 0.0
    while True:
        start = time.perf_counter()
        for _ in range(n):
            f(*args)
        t = time.perf_counter() - start
        if t > 0.02:
            return t / n
        n *= 4


def run(name: str) -> list:
    fn, dims, make_args, mod = _problem(name)
    generic = sg.compile(fn, dynamic_dims=dims)
    rows = []
    statics, firsts = {}, {}
    for b in BATCHES:
        args = make_args(b)
        static = statics[b] = sg.compile(fn, dynamic=False)
        t0 = time.perf_counter()
        generic(*args)
        t1 = time.perf_counter()
        static(*args)
        t2 = time.perf_counter()
        firsts[b] = (t1 - t0, t2 - t1)
        ref_v, ref_g = mod.numpy(args)(*args)
        v, g = generic(*args)
        assert np.allclose(v, ref_v, rtol=1e-4, atol=1e-6), (name, b)
        for a, r in zip(g, ref_g):
            assert np.allclose(a, r, rtol=1e-3, atol=1e-5), (name, b)
    for b in BATCHES:
        args = make_args(b)
        gs, ss = [], []
        for _ in range(ROUNDS):
            gs.append(_per_call(generic, args))
            ss.append(_per_call(statics[b], args))
        g_med, s_med = statistics.median(gs), statistics.median(ss)
        rows.append((name, b, g_med, s_med, firsts[b]))
    return rows, len(generic.shape_generic)


def _us(t: float) -> str:
    return f"{t * 1e6:.1f} us" if t < 1e-3 else f"{t * 1e3:.2f} ms"


def main() -> None:
    lines = ["# Shape-generic compilation: one compile for every batch size",
             "",
             f"`make bench-dynamic` (benchmarks/dynamic.py), {time.strftime('%Y-%m-%d')}. "
             f"Per-call medians of {ROUNDS} interleaved rounds (symgrad's default thread count); "
             f"first call = the first call at that batch size with an empty disk cache "
             f"(generic: the one compile at batch 1, then a bind; static: a compile each).",
             "",
             "| problem | batch | generic per call | static per call | generic/static | "
             "first call generic | first call static |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for name in ("logreg", "mlp"):
        rows, modules = run(name)
        for _, b, g, s, (fg, fs) in rows:
            lines.append(f"| {name} | {b} | {_us(g)} | {_us(s)} | {g / s:.2f} | {_us(fg)} | "
                         f"{_us(fs)} |")
        lines.append(f"| {name} | | shape-generic modules compiled: {modules} | | | | |")
    text = "\n".join(lines) + "\n"
    print(text)
    out = Path(__file__).resolve().parent / "results" / "dynamic.md"
    out.write_text(text)


if __name__ == "__main__":
    main()
