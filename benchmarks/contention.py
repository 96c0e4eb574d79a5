"""Threads under contention (make bench-contention): each threaded `make bench` problem with 0,
1 and 2 competing busy processes on this machine, and with 2 that take turns with it.

For each problem size whose compiled value_and_grad runs threads (OpenMP loops or BLAS), and
each load (that many `while True` processes started beside it), the per-call time of:

- "1 thread": ``set_num_threads(1)``;
- "default": symgrad's default (``set_num_threads`` never called);
- "all CPUs": ``set_num_threads(<CPUs>)``, the fixed setting (symgrad's default before issue 14).

Each setting runs in processes of its own (the spinning threads of one must not slow the next
one), rotating over the settings ``--rounds`` times, each timing batches of calls for
``--seconds``; medians of all the batches' per-call times. Target: the
default is never slower than 1.2x the single-threaded time under any load, and keeps the
threads' speed-up on an idle machine. Writes benchmarks/results/contention.md.

"2, taking turns": the busy processes run ``TURN`` seconds, then stop (SIGSTOP) while the
benchmark times ``TURN`` seconds of calls, and so on: peers that work while this process
waits, as the systems of a side-by-side benchmark do (`make bench`'s harness). Target: the
default keeps the threads' speed-up (within 1.1x of all CPUs), as on an idle machine.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "results"
CASES = [("logreg", "(1024,256), 10 out"), ("mlp", "784-256-10, batch 256"),
         ("elementwise", "N=1e5"), ("elementwise", "N=1e7"), ("rosenbrock", "N=1e6"),
         ("nbody", "N=512"), ("seed", "(1000,1000)")]
SETTINGS = ("1 thread", "default", "all CPUs")
TURN = 0.25         # seconds per turn under the "taking turns" load


def cpus() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()


def child(problem: str, label: str, setting: str, seconds: float, turns: bool) -> None:
    """In a process of its own: time one setting on one problem size; print JSON (the
    per-call times of its batches). One process per setting: the threads of one setting
    (OpenMP's spinning, OpenBLAS's) must not slow the next one down. With ``turns``: print
    "ready", then time ``seconds`` at each line read, printing each turn's JSON."""
    sys.path.insert(0, str(HERE))
    import importlib
    import symgrad as sg
    mod = importlib.import_module(f"problems.{problem}")
    size = next(s for s in mod.SIZES if s.label == label)
    args = mod.inputs(size)
    f = mod.symgrad(args)
    if setting != "default":
        sg.set_num_threads(1 if setting == "1 thread" else cpus())
    f(*args)
    needs = f.last_specialization.source.needs
    start = time.perf_counter()
    f(*args)
    batch = max(1, int(0.02 / max(time.perf_counter() - start, 1e-7)))
    threaded = bool(needs.openmp or needs.blas)
    for _ in (sys.stdin if turns else [None]):
        print(json.dumps({"threaded": threaded, "times": timed(f, args, batch, seconds)}),
              flush=True)


def timed(f, args, batch: int, seconds: float) -> list:
    """Per-call times of batches of calls for ``seconds`` (at least 5 batches)."""
    times = []
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline or len(times) < 5:
        t = time.perf_counter()
        for _ in range(batch):
            f(*args)
        times.append((time.perf_counter() - t) / batch)
    return times


def busy(n: int) -> list:
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(n)]


def run(problem: str, label: str, load: str, rounds: int, seconds: float) -> dict:
    """Median per-call time of each setting under ``load`` busy processes ("2t": two taking
    turns); the settings run one process at a time, rotating, ``rounds`` times."""
    hogs = busy(int(load.rstrip("t")))
    times: dict = {s: [] for s in SETTINGS}
    threaded = True
    try:
        time.sleep(0.2)
        for _ in range(rounds):
            for setting in SETTINGS:
                command = [sys.executable, __file__, "--child", problem, label, setting]
                if load.endswith("t"):
                    r = taking_turns(command, hogs, seconds)
                else:
                    done = subprocess.run(command + [str(seconds)], capture_output=True,
                                          text=True, timeout=600)
                    if done.returncode:
                        raise RuntimeError(done.stderr[-2000:])
                    r = json.loads(done.stdout.strip().splitlines()[-1])
                times[setting] += r["times"]
                threaded = r["threaded"]
            if not threaded:
                break
    finally:
        for h in hogs:
            h.kill()
            h.wait()
    return {"threaded": threaded, **{s: statistics.median(v) for s, v in times.items()}}


def taking_turns(command: list, hogs: list, seconds: float) -> dict:
    """The child times ``TURN`` seconds while the hogs are stopped, the hogs run ``TURN``
    seconds while the child waits, until ``seconds`` of timing."""
    proc = subprocess.Popen(command + [str(TURN), "turns"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    times, r = [], {}
    try:
        for _ in range(max(1, round(seconds / TURN))):
            for h in hogs:
                h.send_signal(signal.SIGCONT)
            time.sleep(TURN)
            for h in hogs:
                h.send_signal(signal.SIGSTOP)
            proc.stdin.write("go\n")
            proc.stdin.flush()
            r = json.loads(proc.stdout.readline())
            times += r["times"]
    finally:
        proc.stdin.close()
        if proc.wait(timeout=600):
            raise RuntimeError(f"{command}: exit {proc.returncode}")
    return {"threaded": r["threaded"], "times": times}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3, help="processes per setting")
    ap.add_argument("--seconds", type=float, default=1.5, help="timed seconds per process")
    ap.add_argument("--loads", default="0,1,2,2t", help="busy processes; 2t: 2 taking turns")
    ap.add_argument("--only", default="", help="comma-separated problems")
    args = ap.parse_args()
    loads = args.loads.split(",")
    rows, met_all = [], True
    for problem, label in CASES:
        if args.only and problem not in args.only.split(","):
            continue
        for load in loads:
            r = run(problem, label, load, args.rounds, args.seconds)
            if not r["threaded"]:
                print(f"{problem} {label}: no threads in its C, skipped", flush=True)
                break
            one, default, full = r["1 thread"], r["default"], r["all CPUs"]
            idle = load == "0" or load.endswith("t")
            met = default <= 1.2 * one and (not idle or default <= 1.1 * full)
            met_all &= met
            shown = f"{load[:-1]}, taking turns" if load.endswith("t") else load
            rows.append(f"| {problem} | {label} | {shown} | {one * 1e3:.3f} | "
                        f"{default * 1e3:.3f} | {full * 1e3:.3f} | {default / one:.2f} | "
                        f"{one / full:.2f} | {'met' if met else '**unmet**'} |")
            print(rows[-1], flush=True)
    text = "\n".join([
        "# Threads under contention",
        "",
        f"Command: `make bench-contention`. {platform.processor() or platform.machine()}, "
        f"{cpus()} CPUs. Load: busy processes (`while True: pass`) started beside the "
        f"benchmark (taking turns: they run {TURN} s, then stop while the benchmark times "
        f"{TURN} s of calls). Per-call milliseconds: medians of the batches of "
        f"{args.rounds} processes per setting, rotating over the settings, {args.seconds} s each.",
        "Target: default <= 1.2 x one thread under every load; on an idle machine and beside "
        "processes taking turns, default within 1.1 x of all CPUs (it keeps the speed-up).",
        "",
        "| problem | size | busy processes | 1 thread (ms) | default (ms) | all CPUs (ms) | "
        "default / 1 thread | speed-up of all CPUs | target |",
        "|---|---|---:|---:|---:|---:|---:|---:|---|",
        *rows,
        "",
        f"All targets met: {'yes' if met_all else 'no'}.",
    ]) + "\n"
    OUT.mkdir(exist_ok=True)
    (OUT / "contention.md").write_text(text)
    print(text)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        child(sys.argv[2], sys.argv[3], sys.argv[4], float(sys.argv[5]), len(sys.argv) > 6)
    else:
        main()
