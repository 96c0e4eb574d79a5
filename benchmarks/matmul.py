"""The matmul threshold benchmark (make bench-matmul): the generated plain loop vs the
OpenBLAS call per size, which justifies codegen.matmul.BLAS_MIN_FLOPS, with NumPy's @ for reference;
then each shape class of product (matrix-vector, vector-matrix, a transposed operand, a batch,
matrix-matrix, a triangular operand, a product used in one triangle) at least-squares sizes
against NumPy's @ (NumPy's ``tril`` of a full product for the triangles), with the BLAS
routine symgrad calls.
Medians of repeated calls, NumPy in and out, in this process.

Writes benchmarks/results/matmul.md and .json. The cross-system suite is run.py (make bench).
"""

from __future__ import annotations

import json
import platform
import time
from pathlib import Path

import numpy as np

import symgrad as sg
from symgrad.codegen.c import matmul as codegen

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


# (name, product, operand shapes): llsq's V @ x and V.T @ r at n = 16392, m = 1024 among them
# (name, symgrad function, NumPy function or None: the same, shapes)
SHAPES = [("matrix @ vector", lambda V, x: V @ x, None, [(16392, 1024), (1024,)]),
          ("transposed matrix @ vector", lambda V, r: V.T @ r, None, [(16392, 1024), (16392,)]),
          ("vector @ matrix", lambda r, V: r @ V, None, [(16392,), (16392, 1024)]),
          ("batched matrix @ vector", lambda V, x: V @ x[..., None], None,
           [(8, 2048, 1024), (8, 1024)]),
          ("matrix @ matrix", lambda A, B: A @ B, None, [(512, 512), (512, 512)]),
          ("tall @ matrix of 12 columns", lambda A, B: A @ B, None, [(10000, 22), (22, 12)]),
          ("tall @ matrix of 4 columns", lambda A, B: A @ B, None, [(100000, 64), (64, 4)]),
          ("lower triangle @ matrix", lambda L, B: sg.tril(L) @ B, lambda L, B: np.tril(L) @ B,
           [(512, 512), (512, 512)]),
          ("lower triangle of a product", lambda A, B: sg.tril(A @ B.T),
           lambda A, B: np.tril(A @ B.T), [(512, 512), (512, 512)])]


def bench_shapes() -> list[dict]:
    rows = []
    rng = np.random.default_rng(1)
    for name, fn, twin, shapes in SHAPES:
        args = [rng.standard_normal(s) for s in shapes]
        f, twin = sg.compile(fn), twin or fn
        np.testing.assert_allclose(f(*args), twin(*args), rtol=1e-10, atol=1e-9)
        routine = next((r for r in ("gemv", "trmm", "gemmt")
                        if f"cblas_d{r}(SG_ROW_MAJOR" in f.c_source),
                       "gemm" if "cblas_dgemm(SG_ROW_MAJOR" in f.c_source else "own loop")
        rows.append({"case": name, "shapes": shapes, "routine": routine,
                     "symgrad": median_us(f, *args), "numpy": median_us(twin, *args)})
    return rows


def main() -> None:
    OUT.mkdir(exist_ok=True)
    mm = bench_matmul()
    shapes = bench_shapes()
    machine = platform.processor() or platform.machine()
    lines = [f"# symgrad matmul: generated loop vs BLAS ({machine}, "
             f"{platform.python_version()})", "",
             "## float32 square matmul, median per call (us), NumPy in and out", "",
             "| n | n^3 | generated loop | OpenBLAS call | numpy @ |", "|---|---|---|---|---|"]
    lines += [f"| {r['n']} | {r['flops']} | {r['loop']:.2f} | {r['blas']:.2f} | "
              f"{r['numpy']:.2f} |" for r in mm]
    lines += ["", f"symgrad calls BLAS when M*N*K >= {codegen.BLAS_MIN_FLOPS}.", "",
              "## float64 products by shape class, median per call (us), NumPy in and out", "",
              "| product | shapes | symgrad calls | symgrad | numpy @ | symgrad / numpy |",
              "|---|---|---|---|---|---|"]
    lines += [f"| {r['case']} | {' @ '.join(str(s) for s in r['shapes'])} | {r['routine']} | "
              f"{r['symgrad']:.1f} | {r['numpy']:.1f} | {r['symgrad'] / r['numpy']:.2f} |"
              for r in shapes]
    text = "\n".join(lines) + "\n"
    (OUT / "matmul.md").write_text(text)
    (OUT / "matmul.json").write_text(json.dumps({"matmul": mm, "shapes": shapes}, indent=1))
    print(text)


if __name__ == "__main__":
    main()
