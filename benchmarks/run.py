"""symgrad's benchmark suite (issue 4): value and gradient of seven problems, symgrad against
a hand-written NumPy gradient, torch eager, jax.jit, PyTensor and CasADi where installed.

    make bench          # everything (about 15 min on 2 cores)
    make bench-quick    # skips the biggest sizes and the slowest compiles
    python benchmarks/run.py --problems seed,ode --systems symgrad,numpy,jax

Each system runs in child processes of its own (see harness.py); the report (tables with the
issue's targets, JSON, a plot of time vs size) goes to benchmarks/results/bench.{md,json,png}
(bench-quick.* for --quick) and the markdown is printed at the end.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import problems
import report
from harness import Settings, run_size

OUT = HERE / "results"


def cpu_name() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def symgrad_commit() -> tuple[str, str]:
    """(HEAD, an identity of symgrad's own files: their trees at HEAD and any local changes)."""
    def git(*a):
        return subprocess.run(["git", *a], cwd=HERE.parent, capture_output=True, text=True,
                              check=False).stdout.strip()
    head = git("rev-parse", "--short", "HEAD") or "unknown"
    dirty = git("diff", "HEAD", "--", "symgrad", "templates")
    trees = git("rev-parse", "HEAD:symgrad", "HEAD:templates")
    return head + (" + uncommitted changes" if dirty else ""), trees + dirty


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true",
                   help="skip the biggest sizes and the systems slow to compile; fewer rounds")
    p.add_argument("--problems", default=",".join(problems.NAMES),
                   help="comma-separated subset of " + ",".join(problems.NAMES))
    p.add_argument("--systems", default=",".join(problems.SYSTEMS),
                   help="comma-separated subset of " + ",".join(problems.SYSTEMS))
    p.add_argument("--rounds", type=int, help="timing rounds per problem size (5; quick 3)")
    p.add_argument("--timeout", type=float, default=120.0,
                   help="seconds allowed for one system's build + first call (default 120)")
    p.add_argument("--out", help="output name under benchmarks/results (bench / bench-quick)")
    return p.parse_args(argv)


def main(argv=None) -> None:
    args = parse_args(argv)
    names = [n for n in args.problems.split(",") if n]
    systems = [s for s in args.systems.split(",") if s]
    for n in names:
        if n not in problems.NAMES:
            sys.exit(f"unknown problem {n!r}; choose from {', '.join(problems.NAMES)}")
    for s in systems:
        if s not in problems.SYSTEMS:
            sys.exit(f"unknown system {s!r}; choose from {', '.join(problems.SYSTEMS)}")
    settings = Settings(rounds=args.rounds or (3 if args.quick else 5),
                        min_time=0.1 if args.quick else 0.25,
                        min_samples=3 if args.quick else 5,
                        max_time=1.0 if args.quick else 2.0, timeout=args.timeout)
    installed = [s for s in systems
                 if importlib.util.find_spec(problems.SYSTEM_MODULES[s]) is not None]
    skipped = [f"{report.SYSTEM_TITLES[s]} (not installed in this Python)"
               for s in systems if s not in installed]
    log_dir = Path(tempfile.mkdtemp(prefix="symgrad-bench-logs-"))
    OUT.mkdir(exist_ok=True)
    out = OUT / (args.out or ("bench-quick" if args.quick else "bench"))
    print(f"symgrad benchmark suite: {', '.join(names)} x {', '.join(installed)}; "
          f"child logs in {log_dir}", flush=True)

    start = time.perf_counter()
    commit = symgrad_commit()
    rows, versions = [], {}
    for name in names:
        module = problems.load(name)
        for size in module.SIZES:
            if args.quick and not size.quick:
                skipped.append(f"{name} {size.label} (--quick)")
                continue
            run = [s for s in installed
                   if not (args.quick and s in getattr(module, "SKIP_QUICK", ()))]
            skipped += [f"{name} {size.label} with {report.SYSTEM_TITLES[s]} (--quick)"
                        for s in installed if s not in run]
            results = run_size(module, size, run, settings, log_dir,
                               progress=lambda m: print(m, flush=True))
            for s in systems:
                if s not in results:
                    results[s] = {"system": s, "status": "skipped" if s in installed
                                  else "not installed"}
                elif "version" in results[s]:
                    versions.setdefault(s, results[s]["version"])
            row = {"problem": name, "size": size.label, "dtype": module.DTYPE, "x": size.x,
                   "target": module.TARGET[size.label], "systems": results}
            row["eval"] = report.evaluate(row)
            rows.append(row)

    meta = {"machine": f"{cpu_name()}, {os.cpu_count()} cores, Python "
                       f"{platform.python_version()}",
            "date": time.strftime("%Y-%m-%d %H:%M"), "duration_s": time.perf_counter() - start,
            "symgrad_commit": commit[0] if commit[1] == symgrad_commit()[1] else
            f"{commit[0]} at the start; symgrad/ or templates/ changed during the run",
            "quick": args.quick, "rounds": settings.rounds, "timeout_s": settings.timeout,
            "versions": {s: versions[s] for s in systems if s in versions},
            "skipped": skipped, "memory": "ru_maxrss (getrusage RUSAGE_SELF) of each child"}
    text = report.markdown(meta, rows, systems)
    (out.with_suffix(".md")).write_text(text)
    report.write_json(out.with_suffix(".json"), meta, rows)
    plotted = report.plot(out.with_suffix(".png"), rows, systems)
    print()
    print(text)
    print(f"wrote {out.with_suffix('.md')}, {out.with_suffix('.json')}"
          + (f", {out.with_suffix('.png')}" if plotted else " (no matplotlib: no plot)"))


if __name__ == "__main__":
    main()
