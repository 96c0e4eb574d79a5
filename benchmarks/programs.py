"""The program corpus under symgrad and under torch (make bench-programs).

Each program of ``tests/programs/`` (small torch programs in the style of the well-known
tutorials, run unmodified: ``import torch`` is symgrad there, as ``as_torch.py`` does) runs in
a fresh process per library and round, one thread each (``set_num_threads(1)``,
``OMP_NUM_THREADS=1``), the library already imported: the time is the program's own run
(``runpy``), its prints captured, not the interpreter's start or the library's import. Rounds
alternate between the libraries so that machine noise falls on both. Reported per program:
the median over the rounds under each, their ratio, and whether symgrad printed what torch
printed (``program_output.same_output``: the same text, numbers at float32 tolerance). Issue
28's target: the total under symgrad at most torch's, every output unchanged. Needs torch
(``.venv-bench``). Writes benchmarks/results/programs.md.

    python benchmarks/programs.py [--rounds 3] [--only p01,p12]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import platform
import runpy
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
CORPUS = HERE.parent / "tests" / "programs"
LIBRARIES = ("torch", "symgrad")
RUNS = ("first", "again")


def child(library: str, program: str) -> None:
    """Run one program in this (fresh) process; print its time and output as JSON."""
    sys.path.insert(0, str(CORPUS))
    if library == "symgrad":
        import as_torch
        as_torch.install()
    import torch   # (symgrad, when installed above)
    torch.set_num_threads(1)
    sys.argv = [program]
    runs = []
    for _ in range(2):   # the first run, then the same program again in this process
        out = io.StringIO()
        start = time.perf_counter()
        with contextlib.redirect_stdout(out):
            runpy.run_path(program, run_name="__main__")
        runs.append((time.perf_counter() - start, out.getvalue()))
    print(json.dumps({"first": runs[0][0], "again": runs[1][0], "stdout": runs[0][1]}))


def run_one(library: str, program: Path) -> dict:
    env = dict(os.environ, PYTHONHASHSEED="0", OMP_NUM_THREADS="1")
    done = subprocess.run([sys.executable, __file__, "--child", library, str(program)],
                          capture_output=True, text=True, env=env, cwd=CORPUS, timeout=900)
    if done.returncode:
        raise SystemExit(f"{program.name} failed under {library}:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--only", default="", help="comma-separated program name prefixes")
    ap.add_argument("--out", default=str(HERE / "results" / "programs.md"))
    ap.add_argument("--child", nargs=2, metavar=("LIBRARY", "PROGRAM"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(*args.child)
        return
    sys.path.insert(0, str(CORPUS))
    from program_output import same_output
    import torch
    programs = sorted(CORPUS.glob("p[0-9][0-9]_*.py"))
    if args.only:
        programs = [p for p in programs if p.stem.startswith(tuple(args.only.split(",")))]
    load = os.getloadavg()[0]
    rows = []
    for program in programs:
        times: dict = {(lib, run): [] for lib in LIBRARIES for run in RUNS}
        outputs: dict = {}
        for _ in range(args.rounds):
            for lib in LIBRARIES:
                got = run_one(lib, program)
                for run in RUNS:
                    times[lib, run].append(got[run])
                outputs[lib] = got["stdout"]
        try:
            same_output(outputs["symgrad"], outputs["torch"])
            same = "same"
        except AssertionError as e:
            same = "**differs**: " + str(e).splitlines()[0][:80]
        med = {k: statistics.median(v) for k, v in times.items()}
        rows.append((program.stem, med, same))
        print(f"{program.stem:36s} " + "  ".join(
            f"{run}: torch {med['torch', run] * 1e3:8.1f} symgrad {med['symgrad', run] * 1e3:8.1f}"
            f" ms" for run in RUNS) + f"  {same}", flush=True)
    total = {k: sum(r[1][k] for r in rows) for k in times}
    lines = ["# The program corpus under symgrad and torch", "",
             f"`make bench-programs` (`python benchmarks/programs.py --rounds {args.rounds}`): "
             f"each program of `tests/programs/` in a fresh process per library and round, one "
             f"thread, the library already imported; milliseconds, median of {args.rounds} "
             f"alternating rounds; {platform.processor() or platform.machine()}, torch "
             f"{torch.__version__}; 1-minute load average {load:.1f} at the start "
             f"({os.cpu_count()} cores). `first run`: the program's run in a fresh process "
             f"(with each library's first-use work: torch imports parts of itself on first "
             f"use, e.g. its optimizers' compiler support); `run again`: the same program "
             f"once more in that process, the steady state a long job sees: issue 28's "
             f"target is on this column.", "",
             "| program | first run: torch | symgrad | ratio | run again: torch | symgrad | "
             "ratio | output |", "|---|---:|---:|---:|---:|---:|---:|---|"]

    def cells(m: dict) -> str:
        return " | ".join(f"{m['torch', run] * 1e3:.1f} | {m['symgrad', run] * 1e3:.1f} | "
                          f"{m['symgrad', run] / m['torch', run]:.2f}" for run in RUNS)
    lines += [f"| {n} | {cells(m)} | {same} |" for n, m, same in rows]
    lines.append(f"| **total** | {cells(total)} | {sum(r[2] == 'same' for r in rows)} of "
                 f"{len(rows)} the same |")
    Path(args.out).write_text("\n".join(lines) + "\n")
    print("total: " + cells(total))


if __name__ == "__main__":
    main()
