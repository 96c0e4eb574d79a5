"""symgrad benchmarks (make bench): medians of repeated calls, NumPy in and out.

1. matmul: the generated plain loop vs the OpenBLAS call, per size (justifies
   codegen.BLAS_MIN_FLOPS), and NumPy's @ for reference.
2. logistic regression value_and_grad (tiny and 1024x256) vs a hand-written NumPy gradient.

Writes benchmarks/results/latest.md and .json. The full cross-system suite is a later issue.
"""

from __future__ import annotations

import json
import platform
import time
from pathlib import Path

import numpy as np

import symgrad as sg
import symgrad.nn.functional as F
from symgrad import codegen

OUT = Path(__file__).resolve().parent / "results"


def median_us(fn, *args, min_time: float = 0.3, max_reps: int = 20000) -> float:
    fn(*args)
    times, start = [], time.perf_counter()
    while len(times) < max_reps and (time.perf_counter() - start < min_time or len(times) < 20):
        t0 = time.perf_counter()
        fn(*args)
        times.append(time.perf_counter() - t0)
    return float(np.median(times) * 1e6)


def bench_matmul() -> list[dict]:
    rows = []
    rng = np.random.default_rng(0)
    for n in (2, 4, 8, 16, 20, 24, 32, 48, 64, 128, 256):
        a = rng.standard_normal((n, n)).astype(np.float32)
        b = rng.standard_normal((n, n)).astype(np.float32)
        timings = {}
        for mode, threshold in (("loop", float("inf")), ("blas", 0)):
            codegen.BLAS_MIN_FLOPS = threshold
            f = sg.compile(lambda x, y: x @ y, )
            f.name = f"matmul_{mode}"
            np.testing.assert_allclose(f(a, b), a @ b, rtol=1e-4, atol=1e-4)
            timings[mode] = median_us(f, a, b)
        timings["numpy"] = median_us(lambda x, y: x @ y, a, b)
        rows.append({"n": n, "flops": n ** 3, **timings})
    codegen.BLAS_MIN_FLOPS = 8192
    return rows


@sg.compile
def bce_loss(w, b, x, y):
    return F.binary_cross_entropy_with_logits(x @ w + b, y)


def numpy_value_and_grad(w, b, x, y):
    z = x @ w + b
    value = np.mean(np.maximum(z, 0) - z * y + np.log1p(np.exp(-np.abs(z))))
    g = (1 / (1 + np.exp(-z)) - y) / z.size
    return value, (x.T @ g, g.sum(0))


def bench_logreg() -> list[dict]:
    rows = []
    rng = np.random.default_rng(1)
    step = sg.value_and_grad(bce_loss, argnums=(0, 1))
    for n, d, k in ((1, 5, 3), (1024, 256, 10)):
        x = rng.standard_normal((n, d)).astype(np.float32)
        y = (rng.random((n, k)) > 0.5).astype(np.float32)
        w = rng.standard_normal((d, k)).astype(np.float32)
        b = rng.standard_normal(k).astype(np.float32)
        val, (dw, db) = step(w, b, x, y)
        rv, (rdw, rdb) = numpy_value_and_grad(w, b, x, y)
        np.testing.assert_allclose(val, rv, rtol=1e-4)
        np.testing.assert_allclose(dw, rdw, rtol=1e-3, atol=1e-6)
        t_sg = median_us(step, w, b, x, y)
        t_np = median_us(numpy_value_and_grad, w, b, x, y)
        rows.append({"shape": f"{n}x{d}, {k} out", "symgrad_us": t_sg, "numpy_us": t_np,
                     "ratio": t_sg / t_np})
    return rows


def main() -> None:
    OUT.mkdir(exist_ok=True)
    mm = bench_matmul()
    lr = bench_logreg()
    lines = [f"# symgrad benchmarks ({platform.processor() or platform.machine()}, "
             f"{platform.python_version()})", "",
             "## float32 square matmul, median per call (us), NumPy in and out", "",
             "| n | n^3 | generated loop | OpenBLAS call | numpy @ |", "|---|---|---|---|---|"]
    lines += [f"| {r['n']} | {r['flops']} | {r['loop']:.2f} | {r['blas']:.2f} | "
              f"{r['numpy']:.2f} |" for r in mm]
    lines += ["", f"symgrad calls BLAS when M*N*K >= {codegen.BLAS_MIN_FLOPS}.", "",
              "## logistic regression value_and_grad, median per call (us)", "",
              "| problem | symgrad | numpy by hand | symgrad / numpy |", "|---|---|---|---|"]
    lines += [f"| {r['shape']} | {r['symgrad_us']:.1f} | {r['numpy_us']:.1f} | "
              f"{r['ratio']:.2f} |" for r in lr]
    text = "\n".join(lines) + "\n"
    (OUT / "latest.md").write_text(text)
    (OUT / "latest.json").write_text(json.dumps({"matmul": mm, "logreg": lr}, indent=1))
    print(text)


if __name__ == "__main__":
    main()
