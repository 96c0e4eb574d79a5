"""Accuracy and speed of symgrad's float reductions, against NumPy and an exact reference.

    python benchmarks/numerics.py            # error table and speed (about a minute)
    python benchmarks/numerics.py --speed    # speed only
    python benchmarks/numerics.py --error    # error table only

Error: |result - exact| / sum(|x|) per output element (the largest over the outputs), where
``exact`` is ``math.fsum`` of the float64 values (for float32 data, of the values widened to
float64, so it is the exact sum of the inputs rounded once). For positive data this is the
relative error. Printed for symgrad and for NumPy on the same data.

Speed: median of many calls of a plain float64 ``x.sum()`` of 1e7 elements, of the elementwise
``value_and_grad`` of ``sum(tanh(x) * y) / n`` over 1e7 elements, and of sums over either axis
of a (3001, 3331) array, at 1 thread and at the thread count symgrad uses by default
(``SYMGRAD_NUM_THREADS``).
"""

from __future__ import annotations

import math
import sys
import time

import numpy as np

import symgrad as sg


def _data(kind: str, n: int, dtype) -> np.ndarray:
    rng = np.random.default_rng(0)
    if kind == "uniform":
        x = rng.random(n)
    elif kind == "normal":
        x = rng.standard_normal(n)
    else:   # mixed magnitudes: |x| spread over 20 decades, both signs
        x = rng.standard_normal(n) * 10.0 ** rng.uniform(-10, 10, n)
    return x.astype(dtype)


def _exact_sums(x: np.ndarray, axis) -> tuple[np.ndarray, np.ndarray]:
    """(exact sums, sums of |x|) over ``axis`` (None: all), as float64 arrays."""
    x64 = x.astype(np.float64)
    if axis is None:
        return np.array([math.fsum(x64)]), np.array([np.abs(x64).sum()])
    moved = np.moveaxis(x64, axis, -1).reshape(-1, x64.shape[axis])
    return (np.array([math.fsum(r) for r in moved]), np.abs(moved).sum(axis=1))


def _error(result, exact, scale, divide_by=1) -> float:
    result = np.asarray(result, np.float64).reshape(-1)
    exact_mean = exact / divide_by
    return float(np.max(np.abs(result - exact_mean) / (scale / divide_by)))


def error_table() -> list[tuple]:
    total = sg.compile(lambda x: x.sum())
    mean = sg.compile(lambda x: x.mean())
    axis0 = sg.compile(lambda x: x.sum(0))
    axis1 = sg.compile(lambda x: x.sum(1))
    rows = []
    for dtype in (np.float64, np.float32):
        for kind in ("uniform", "normal", "mixed"):
            for n in (10**7, 10**6 + 3):
                x = _data(kind, n, dtype)
                exact, scale = _exact_sums(x, None)
                rows.append((np.dtype(dtype).name, kind, f"sum n={n}",
                             _error(total(x), exact, scale), _error(x.sum(), exact, scale)))
                if n == 10**7:
                    rows.append((np.dtype(dtype).name, kind, f"mean n={n}",
                                 _error(mean(x), exact, scale, n),
                                 _error(x.mean(), exact, scale, n)))
            for shape in ((3001, 3331), (100003, 7)):
                x = _data(kind, math.prod(shape), dtype).reshape(shape)
                for axis, fn in ((0, axis0), (1, axis1)):
                    exact, scale = _exact_sums(x, axis)
                    rows.append((np.dtype(dtype).name, kind, f"sum axis {axis} {shape}",
                                 _error(fn(x), exact, scale),
                                 _error(x.sum(axis), exact, scale)))
    return rows


def _median_time(fn, *args, repeat: int = 41) -> float:
    fn(*args)
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn(*args)
        times.append(time.perf_counter() - t)
    return float(np.median(times))


def speed() -> list[tuple]:
    n = 10**7
    x = _data("uniform", n, np.float64)
    y = _data("normal", n, np.float64)
    total = sg.compile(lambda x: x.sum())
    axis0 = sg.compile(lambda x: x.sum(0))
    axis1 = sg.compile(lambda x: x.sum(1))
    m = _data("uniform", 3001 * 3331, np.float64).reshape(3001, 3331)

    def loss(x, y):
        return (sg.tanh(x) * y).sum() / n
    step = sg.value_and_grad(loss)
    rows = []
    default = sg.get_num_threads()
    for threads in sorted({1, default}):
        sg.set_num_threads(threads)
        rows.append((f"sum of 1e7 float64, {threads} thread(s)", _median_time(total, x),
                     _median_time(np.sum, x)))
        rows.append((f"value_and_grad sum(tanh(x)*y)/n, 1e7, {threads} thread(s)",
                     _median_time(step, x, y, repeat=21), float("nan")))
        rows.append((f"sum over axis 0 of (3001, 3331), {threads} thread(s)",
                     _median_time(axis0, m), _median_time(lambda m: m.sum(0), m)))
        rows.append((f"sum over axis 1 of (3001, 3331), {threads} thread(s)",
                     _median_time(axis1, m), _median_time(lambda m: m.sum(1), m)))
    sg.set_num_threads(default)
    return rows


def main(argv: list[str]) -> None:
    if "--speed" not in argv:
        print(f"{'dtype':8} {'data':8} {'reduction':28} {'symgrad':>10} {'numpy':>10}")
        for dt, kind, what, ours, theirs in error_table():
            print(f"{dt:8} {kind:8} {what:28} {ours:10.2e} {theirs:10.2e}")
    if "--error" not in argv:
        print(f"\n{'case':52} {'symgrad ms':>11} {'numpy ms':>9}")
        for what, ours, theirs in speed():
            print(f"{what:52} {ours * 1e3:11.3f} {theirs * 1e3:9.3f}")


if __name__ == "__main__":
    main(sys.argv[1:])
