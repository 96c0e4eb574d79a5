"""Thread scaling (make bench-threads): do Python threads calling compiled gradients run in
parallel?

cffi's API-mode wrapper releases the GIL around the C call, so T Python threads each calling a
compiled function should finish T times the work in about the time one thread takes, up to
the number of cores. Measured on the elementwise problem's value_and_grad (float64, N = 10^5 and
10^6), with symgrad's own OpenMP threads off (``set_num_threads(1)``) so that the only
parallelism is the callers'. For each T the same total number of calls is split over T threads;
speedup = time(1 thread) / time(T threads). Rounds rotate over T; medians are reported.
Standalone: symgrad and numpy. Writes benchmarks/results/threads.md.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import threading
import time
from pathlib import Path

import numpy as np

import symgrad as sg

OUT = Path(__file__).resolve().parent / "results"


def elementwise(x, y):
    return sg.sum(sg.sin(x) * sg.exp(-x * x) + sg.tanh(x * y) + sg.log1p(y * y))


def timed(fn, args, calls: int, threads: int) -> float:
    """Seconds for ``calls`` calls split over ``threads`` threads released together."""
    barrier = threading.Barrier(threads + 1)
    share = [calls // threads + (i < calls % threads) for i in range(threads)]

    def work(k):
        barrier.wait()
        for _ in range(k):
            fn(*args)

    pool = [threading.Thread(target=work, args=(k,)) for k in share]
    for t in pool:
        t.start()
    barrier.wait()
    start = time.perf_counter()
    for t in pool:
        t.join()
    return time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--threads", default="1,2,4")
    args = ap.parse_args()
    counts = [int(t) for t in args.threads.split(",")]
    sg.set_num_threads(1)
    f = sg.value_and_grad(elementwise, argnums=(0, 1))
    rows = []
    for n, calls in ((10 ** 5, 400), (10 ** 6, 40)):
        rng = np.random.default_rng(0)
        xy = (rng.uniform(-2, 2, n), rng.uniform(-2, 2, n))
        for _ in range(3):
            f(*xy)
        times: dict = {t: [] for t in counts}
        for _ in range(args.rounds):
            for t in counts:
                times[t].append(timed(f, xy, calls, t))
        base = statistics.median(times[counts[0]])
        for t in counts:
            med = statistics.median(times[t])
            rows.append((n, calls, t, med * 1e3, med / calls * 1e6, base / med))
    # The machine's own ceiling: NumPy's sin (which also drops the GIL) over 10^6 elements.
    x = np.random.default_rng(1).uniform(-2, 2, 10 ** 6)
    ceiling: dict = {t: [] for t in counts}
    for _ in range(args.rounds):
        for t in counts:
            ceiling[t].append(timed(np.sin, (x,), 80, t))
    ceiling_base = statistics.median(ceiling[counts[0]])
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    lines = [
        "# Thread scaling: Python threads calling one compiled value_and_grad",
        "",
        f"Command: `make bench-threads`. {platform.processor() or platform.machine()}, "
        f"{cpus} CPUs available, symgrad's OpenMP loops off (set_num_threads(1)). "
        f"Elementwise problem, float64; the same total calls split over T threads; "
        f"medians of {args.rounds} rounds.",
        "",
        "| N | total calls | threads | wall ms | us per call | speedup vs 1 thread |",
        "|---:|---:|---:|---:|---:|---:|",
    ]
    lines += [f"| {n:,} | {c} | {t} | {ms:.1f} | {us:.1f} | {s:.2f} |"
              for n, c, t, ms, us, s in rows]
    lines += ["", "For scale, the same measurement of NumPy's `np.sin` over 10^6 float64 (it also "
              "releases the GIL): speedup " + ", ".join(
                  f"{t} threads {ceiling_base / statistics.median(ceiling[t]):.2f}"
                  for t in counts[1:]) + "."]
    text = "\n".join(lines) + "\n"
    OUT.mkdir(exist_ok=True)
    (OUT / "threads.md").write_text(text)
    print(text)


if __name__ == "__main__":
    main()
