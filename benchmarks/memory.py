"""Memory (make bench-memory): resident memory over a million calls, and the peak memory of one
large value_and_grad against NumPy by hand and torch eager.

1. Flatness. A compiled value_and_grad is called 10^6 times in a loop (the seed problem,
   float32 (2, 2)), and 10^4 times on an input whose outputs come from the output pool
   (elementwise, float64, N = 10^5); the resident set size (VmRSS) is sampled every tenth
   of the run. Flat means the last sample is within a few hundred KiB of the first.
2. Peak. The elementwise problem, float64, N = 10^7 (inputs 160 MB, outputs 160 MB): each
   system runs in a fresh subprocess, computes once (symgrad compiles then), drops the
   result, resets the kernel's peak-RSS mark (``/proc/self/clear_refs``), then computes
   again while the result is kept; reported: the peak above the resident size just before
   the call. 160 MB (the two gradients) is the least any system can use.
Linux only (reads /proc/self/status). Writes benchmarks/results/memory.md.
"""

from __future__ import annotations

import argparse
import json
import platform
import subprocess
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
OUT = HERE / "results"
sys.path.insert(0, str(HERE))

from problems import elementwise as ew  # noqa: E402
from problems import seed  # noqa: E402


def status_kib(field: str) -> int:
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise RuntimeError(f"{field} not in /proc/self/status")


def flatness(calls: int, problem, size_label: str, samples: int = 10) -> list[int]:
    size = next(s for s in problem.SIZES if s.label == size_label)
    args = problem.inputs(size)
    f = problem.symgrad(args)
    for _ in range(1000 if calls >= 10 ** 5 else 10):   # warm: compiled, pools filled
        f(*args)
    rss = [status_kib("VmRSS")]
    step = calls // samples
    for _ in range(samples):
        for _ in range(step):
            f(*args)
        rss.append(status_kib("VmRSS"))
    return rss


def peak_child(system: str) -> dict:
    """In a fresh process: the peak RSS (KiB) above the resident size before one elementwise
    value_and_grad at N=1e7, with the previous call's result dropped and with it held."""
    size = next(s for s in ew.SIZES if s.label == "N=1e7")
    args = ew.inputs(size)
    f = getattr(ew, system)(args)

    def measure():
        with open("/proc/self/clear_refs", "w") as fh:
            fh.write("5")                  # reset VmHWM to the current RSS
        before = status_kib("VmRSS")
        result = f(*args)
        return result, status_kib("VmHWM") - before, status_kib("VmRSS") - before

    f(*args)                               # the first call (compiles), result dropped
    held, dropped_peak, dropped_after = measure()
    _, held_peak, _ = measure()            # ``held`` is still alive during this call
    return {"dropped_peak": dropped_peak, "dropped_after": dropped_after,
            "held_peak": held_peak,
            "result_bytes": sum(np.asarray(r).nbytes for r in (held[0], *held[1]))}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--calls", type=int, default=10 ** 6)
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        print(json.dumps(peak_child(args.child)))
        return
    small = flatness(args.calls, seed, "(2,2)")
    pooled = flatness(max(args.calls // 100, 10), ew, "N=1e5")
    peaks = {}
    for system in ("numpy", "symgrad", "torch"):
        if system == "torch":
            try:
                import torch  # noqa: F401
            except ImportError:
                continue
        proc = subprocess.run([sys.executable, __file__, "--child", system],
                              capture_output=True, text=True, check=False)
        if proc.returncode:
            print(f"{system}: failed\n{proc.stderr}", file=sys.stderr)
            continue
        peaks[system] = json.loads(proc.stdout.strip().splitlines()[-1])

    def mb(kib: int) -> str:
        return f"{kib / 1024:.1f}"

    lines = ["# Memory: flatness over many calls, and peak of one large value_and_grad", "",
             f"Command: `make bench-memory`. {platform.machine()}, Python "
             f"{platform.python_version()}.", "",
             "## Resident memory (VmRSS) while calling in a loop", "",
             "| function | calls | RSS first sample (MiB) | RSS last sample (MiB) | "
             "growth (KiB) | max - min over samples (KiB) |",
             "|---|---:|---:|---:|---:|---:|"]
    for label, calls, rss in (("seed value_and_grad, float32 (2,2)", args.calls, small),
                              ("elementwise value_and_grad, float64 N=1e5 (pooled outputs)",
                               max(args.calls // 100, 10), pooled)):
        lines.append(f"| {label} | {calls:,} | {mb(rss[0])} | {mb(rss[-1])} | "
                     f"{rss[-1] - rss[0]:+,} | {max(rss) - min(rss):,} |")
    lines += ["", "Samples (KiB): " + ", ".join(f"{r:,}" for r in small), "",
              "## Peak memory of one call: elementwise value_and_grad, float64, N = 10^7", "",
              "Inputs: 2 x 80 MB; outputs: a scalar and 2 x 80 MB gradients (160 MB is the "
              "least any system needs). Each system in a fresh process: after a first call "
              "(symgrad compiles), the peak resident memory above the resident size just "
              "before a call, when the previous call's result was dropped (symgrad's output "
              "pool then reuses its blocks) and when it is still held.", "",
              "| system | peak, previous result dropped (MB) | x outputs | "
              "resident growth (MB) | peak, previous result held (MB) | x outputs |",
              "|---|---:|---:|---:|---:|---:|"]
    for system, p in peaks.items():
        out = p["result_bytes"]
        lines.append(f"| {system} | {p['dropped_peak'] * 1024 / 1e6:.0f} | "
                     f"{p['dropped_peak'] * 1024 / out:.2f} | "
                     f"{p['dropped_after'] * 1024 / 1e6:.0f} | "
                     f"{p['held_peak'] * 1024 / 1e6:.0f} | {p['held_peak'] * 1024 / out:.2f} |")
    text = "\n".join(lines) + "\n"
    OUT.mkdir(exist_ok=True)
    (OUT / "memory.md").write_text(text)
    print(text)


if __name__ == "__main__":
    main()
