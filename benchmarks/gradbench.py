"""GradBench/ADBench problems in torch, JAX and symgrad (make bench-gradbench).

Every problem of ``benchmarks/gradbench/`` (one module per GradBench eval; the interface is in
``benchmarks/gradbench/__init__.py``) is written three times, each the way a user of the
system writes it: torch eager autograd, ``jax.jit``, and symgrad (``sg.compile``, ``sg.grad``,
``sg.jvp``...). Everything runs on one thread (set below, before any of them is imported; JAX's
thread pool by starting it on one CPU), in float64, NumPy in and NumPy out with the
conversions inside the timed call.

For each problem, configuration (sizes) and function of the eval (``primal``, ``gradient``...):

1. each system's callable is called once; symgrad's and JAX's first-call times (trace and
   compile) are recorded apart from the per-call times. symgrad compiles into a fresh,
   empty cache directory unless ``SYMGRAD_CACHE_DIR`` is set, so its first call is a cold
   compile;
2. a second call's results of JAX and symgrad are compared with torch's (the relative error
   max|got - want| / max|want| over every output; where torch is not run, with the eval's
   expected output, ``EXPECTED``): above the problem's tolerance (1e-8 unless the module says
   why not) the row is marked WRONG and the run exits with an error at the end, as it does
   when a system raises;
3. the systems are timed in alternation, round by round (``derivatives.alternate``), and the
   medians are tabled with the ratio symgrad / min(torch, JAX). A call over ``LONG`` seconds
   is timed once instead (marked *).

A system that is not importable gets "—" in its column, and so does one that a module leaves
out of the default run as too slow (``DEFAULT_SKIP``; ``--full`` runs it). A problem module
that is missing is skipped with a printed line. A row whose symgrad spelling is a workaround
(``WORKAROUNDS``) is marked. The table goes to ``benchmarks/results/gradbench.md`` (and
``.json``), with the count of rows where symgrad is fastest and where it takes at most half
the time of the faster of torch and JAX; a run of ``--only`` some problems prints its table
and leaves the file alone.

    python benchmarks/gradbench.py [--only lse,det] [--rounds 5] [--full]
"""

from __future__ import annotations

import os

# One thread for every system, set before any of them is imported.
os.environ["SYMGRAD_NUM_THREADS"] = "1"
os.environ["XLA_FLAGS"] = "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"

import argparse
import importlib
import json
import platform
import shutil
import sys
import tempfile
import time
import traceback
from pathlib import Path

import numpy as np

try:
    import torch
    torch.set_num_threads(1)
except ImportError:
    torch = None
try:
    import jax
    jax.config.update("jax_enable_x64", True)
    # XLA:CPU sizes its thread pool for large fusions by the CPUs the process may use when
    # its client starts, whatever XLA_FLAGS say: started with two, JAX's det ell=9 primal ran
    # on 1.6 CPUs (1.2 ms, its arrays on the device; 2.1 ms on one thread), and JAX's times
    # moved between runs (det ell=9 primal 1.7 to 4.6 ms, GMM d=20 jacobian 15 to 38 ms). So
    # the client starts on one CPU, and the process gets the others back (symgrad's compiles
    # and torch use them as told: one thread each).
    if hasattr(os, "sched_setaffinity"):
        _cpus = os.sched_getaffinity(0)
        os.sched_setaffinity(0, {min(_cpus)})
        jax.devices()
        os.sched_setaffinity(0, _cpus)
except ImportError:
    jax = None

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from derivatives import alternate

# The evals, in this order; each module is imported when its turn comes.
PROBLEMS = ("lse", "llsq", "ode", "det", "kmeans", "saddle", "particle",
            "gmm", "ba", "ht", "lstm")
SYSTEMS = ("torch", "jax", "symgrad")
DEFAULT_TOLERANCE = 1e-8
# Two rounds, not --rounds, for a function whose slowest system takes longer than this per
# call (each round calls every system at least twice: a warm-up and the timed call).
SLOW_CALL = 1.0
# A system whose call takes longer than this is timed by that one call, not in rounds.
LONG = 10.0


def _systems() -> dict:
    """The importable systems and their versions (symgrad imported here, after the cache
    directory is chosen)."""
    found = {}
    if torch is not None:
        found["torch"] = torch.__version__
    if jax is not None:
        found["jax"] = jax.__version__
    try:
        import symgrad
        found["symgrad"] = getattr(symgrad, "__version__", "?")
    except ImportError:
        pass
    return found


def _load(name: str):
    """The problem module ``gradbench.<name>``, or None (printed) when there is none."""
    try:
        return importlib.import_module(f"gradbench.{name}")
    except ModuleNotFoundError as e:
        if e.name not in (f"gradbench.{name}", "gradbench"):
            raise
        print(f"\n{name}: skipped (no module benchmarks/gradbench/{name}.py)")
        return None


# ---------------------------------------------------------------- checking

def _leaves(value, path: str = "") -> dict:
    """The arrays of a (nested dict/tuple/list) result, by their path."""
    if isinstance(value, dict):
        out = {}
        for k in value:
            out.update(_leaves(value[k], f"{path}[{k!r}]"))
        return out
    if isinstance(value, (tuple, list)):
        out = {}
        for i, v in enumerate(value):
            out.update(_leaves(v, f"{path}[{i}]"))
        return out
    return {path: np.asarray(value, dtype=np.float64)}


def relative_error(want, got) -> float:
    """max |got - want| / max |want| over all outputs (inf if the structure differs)."""
    w, g = _leaves(want), _leaves(got)
    if w.keys() != g.keys() or any(w[k].shape != g[k].shape for k in w):
        return float("inf")
    scale = max(float(np.abs(a).max(initial=0.0)) for a in w.values()) or 1.0
    diffs = [float(np.abs(g[k] - w[k]).max(initial=0.0)) for k in w]
    if not all(np.isfinite(d) for d in diffs):   # a NaN or inf where torch has a number
        return float("inf")
    return max(diffs, default=0.0) / scale


def _tolerance(mod, fn: str) -> float:
    return getattr(mod, "TOLERANCES", {}).get(fn, getattr(mod, "TOLERANCE", DEFAULT_TOLERANCE))


# ---------------------------------------------------------------- one configuration

def _build(mod, inp: dict, systems: list) -> tuple[dict, dict]:
    """Each system's callables (name -> function -> callable) and the systems that failed."""
    built, failed = {}, {}
    for s in systems:
        try:
            built[s] = getattr(mod, f"{s}_impl")(inp)
        except Exception as e:  # reported in the table; the run goes on
            traceback.print_exc()
            failed[s] = f"{type(e).__name__}: {e}"
    return built, failed


def _call(fn, errors: dict, s: str):
    """(result, seconds) of one call, or (None, None) with the error recorded."""
    start = time.perf_counter()
    try:
        result = fn()
    except Exception as e:
        traceback.print_exc()
        errors[s] = f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
        return None, None
    return result, time.perf_counter() - start


def _calls(fns: dict, row: dict) -> tuple[dict, dict, dict]:
    """Each system's first call, then (but for an eager torch call over ``LONG``) a second,
    the steady call that is checked. Returns (results, second-call seconds, one-call
    seconds of the systems too slow to time in rounds)."""
    results, second, single = {}, {}, {}
    for s, fn in fns.items():
        first, t = _call(fn, row["errors"], s)
        if t is None:
            continue
        row["first_call_s"][s] = t
        if s == "torch" and t > LONG:
            results[s], single[s] = first, t
            continue
        got, t2 = _call(fn, row["errors"], s)
        if t2 is None:
            continue
        results[s], second[s] = got, t2
        if t2 > LONG:
            single[s] = t2
    return results, second, single


def _check(mod, fn_name: str, results: dict, row: dict) -> None:
    """Compare JAX's and symgrad's results with torch's (without torch: with the eval's
    expected output, else with the first system that ran), and torch's with the expected
    output when there is one."""
    expected = getattr(mod, "EXPECTED", {}).get(fn_name)
    if "torch" in results:
        ref, want = "torch", results["torch"]
    elif expected is not None:
        ref, want = "GradBench's expected output", expected
    elif results:
        ref = next(iter(results))
        want = results[ref]
    else:
        return
    row["reference"] = ref
    tol = _tolerance(mod, fn_name)
    for s, got in results.items():
        if s == ref and (s != "torch" or expected is None):
            continue
        err = relative_error(expected if s == ref else want, got)
        row["rel_err"][s] = err
        if not err <= tol:
            row["wrong"].append(s)
            print(f"  !! {s}: relative error {err:.2e} > {tol:.0e}")


def run_function(mod, label: str, fn_name: str, built: dict, failed: dict,
                 rounds: int) -> dict:
    """First calls, the check and the alternating timing of one function of one config."""
    row = {"problem": mod.NAME, "config": label, "function": fn_name, "ms": {},
           "first_call_s": {}, "rel_err": {}, "errors": dict(failed), "wrong": [],
           "single_call": [], "workaround": getattr(mod, "WORKAROUNDS", {}).get(fn_name)}
    fns = {s: impl[fn_name] for s, impl in built.items() if fn_name in impl}
    results, second, single = _calls(fns, row)
    _check(mod, fn_name, results, row)
    timed = {s: fns[s] for s in second if s not in single}
    if timed:
        n_rounds = rounds if max(second[s] for s in timed) < SLOW_CALL else min(rounds, 2)
        row["ms"] = {s: t * 1e3 for s, t in alternate(timed, n_rounds).items()}
        row["rounds"] = n_rounds
    row["ms"].update({s: t * 1e3 for s, t in single.items()})
    row["single_call"] = sorted(single)
    row["ratio"] = _ratio(row["ms"])
    return row


def _ratio(ms: dict):
    others = [ms[s] for s in ("torch", "jax") if s in ms]
    if "symgrad" not in ms or not others:
        return None
    return ms["symgrad"] / min(others)


def _print_row(row: dict) -> None:
    cells = []
    for s in SYSTEMS:
        t = row["ms"].get(s)
        mark = "*" if s in row["single_call"] else " "
        cells.append(f"{s} {'—':>10s}   " if t is None else f"{s} {t:10.4f} ms{mark}")
    ratio = "" if row["ratio"] is None else f"  ratio {row['ratio']:.2f}"
    first = row["first_call_s"].get("symgrad")
    first = "" if first is None else f"  (symgrad first call {first:.2f} s)"
    errs = "  ".join(f"err {s} {e:.1e}" for s, e in row["rel_err"].items())
    print(f"  {row['function']:9s} " + "  ".join(cells) + ratio + first + "  " + errs)
    for s, e in row["errors"].items():
        print(f"  !! {s} failed: {e}")


def run_problem(mod, systems: dict, full: bool, rounds: int) -> list:
    """Every config and function of one problem module."""
    skip = {} if full else getattr(mod, "DEFAULT_SKIP", {})
    run = [s for s in SYSTEMS if s in systems and s not in skip]
    for s in skip:
        print(f"{mod.NAME}: {s} not run ({skip[s]})")
    rows = []
    for label, size in mod.configs(full):
        print(f"\n{mod.NAME} {label}")
        inp = mod.inputs(**size)
        built, failed = _build(mod, inp, run)
        for fn_name in mod.FUNCTIONS:
            row = run_function(mod, label, fn_name, built, failed, rounds)
            row["not_run"] = {s: skip[s] for s in skip if s in systems}
            _print_row(row)
            rows.append(row)
        del built, inp
    return rows


# ---------------------------------------------------------------- the report

def _cell(value, fmt: str) -> str:
    return "—" if value is None else format(value, fmt)


def _ms(value) -> str:
    if value is None:
        return "—"
    return f"{value:.3g}" if value < 100 else f"{value:,.0f}"


def counts(rows: list) -> str:
    ratios = [r["ratio"] for r in rows if r["ratio"] is not None]
    fastest = sum(1 for x in ratios if x < 1)
    half = sum(1 for x in ratios if x <= 0.5)
    return (f"symgrad fastest on {fastest} of {len(ratios)}; "
            f"at most 0.5x on {half} of {len(ratios)}")


def _ms_cell(row: dict, s: str) -> str:
    cell = _ms(row["ms"].get(s))
    return cell + "*" if s in row["single_call"] else cell


def _ratio_cell(row: dict) -> str:
    cell = _cell(row["ratio"], ".2f")
    if row["wrong"]:
        cell += " (WRONG: " + ", ".join(row["wrong"]) + ")"
    if row.get("workaround"):
        cell += " (symgrad: workaround)"
    return cell


def markdown(rows: list, notes: list, header: str) -> str:
    lines = [header, "",
             "| problem | config | function | torch ms | JAX ms | symgrad ms "
             "| symgrad / min(torch, JAX) | symgrad first call s | JAX first call s "
             "| checked against | rel. err. JAX | rel. err. symgrad |",
             "|---|---|---|--:|--:|--:|--:|--:|--:|---|--:|--:|"]
    for r in rows:
        ref = r.get("reference") or "—"
        lines.append(
            f"| {r['problem']} | {r['config']} | {r['function']} | {_ms_cell(r, 'torch')} "
            f"| {_ms_cell(r, 'jax')} | {_ms_cell(r, 'symgrad')} | {_ratio_cell(r)} "
            f"| {_cell(r['first_call_s'].get('symgrad'), '.2f')} "
            f"| {_cell(r['first_call_s'].get('jax'), '.2f')} | {ref} "
            f"| {_cell(r['rel_err'].get('jax'), '.1e')} "
            f"| {_cell(r['rel_err'].get('symgrad'), '.1e')} |")
    lines += ["", counts(rows), ""]
    failures = [f"- {r['problem']} {r['config']} {r['function']}, {s}: {e}"
                for r in rows for s, e in r["errors"].items()]
    if failures:
        lines += ["Failures:", "", *failures, ""]
    if notes:
        lines += ["Notes:", "", *notes, ""]
    return "\n".join(lines)


def _cpu() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.machine()


def _header(systems: dict, args) -> str:
    versions = ", ".join(f"{s} {v}" for s, v in systems.items())
    missing = [s for s in SYSTEMS if s not in systems]
    skipped = f" Not importable: {', '.join(missing)}." if missing else ""
    return (f"# GradBench problems: torch, JAX and symgrad\n\n"
            f"`make bench-gradbench` (`python benchmarks/gradbench.py"
            f"{' --full' if args.full else ''} --rounds {args.rounds}`) on {_cpu()} "
            f"({os.cpu_count()} CPUs), Python {platform.python_version()}, {versions}."
            f"{skipped} One thread each, float64, NumPy in and out (conversions inside the "
            f"call). Per-call medians of {args.rounds} rounds in which the systems alternate "
            f"(2 rounds where a call takes over {SLOW_CALL:.0f} s; * one call, where a call "
            f"takes over {LONG:.0f} s). First calls (trace and compile; symgrad's into an empty "
            f"cache) are apart, not in the ratio. Errors are relative: max |got - want| / "
            f"max |want|, want torch's result, or GradBench's expected output where torch was "
            f"not run (column \"checked against\").")


def _grouped(mod, attr: str) -> list:
    """(functions, text) of a module's {function: text} attribute, equal texts together."""
    groups: dict = {}
    for fn, text in getattr(mod, attr, {}).items():
        groups.setdefault(text, []).append(fn)
    return [(", ".join(fns), text) for text, fns in groups.items()]


def _notes(mods: list, rows: list) -> list:
    """The modules' notes, workarounds, looser tolerances and systems not run."""
    notes = []
    for mod in mods:
        for fns, text in _grouped(mod, "WORKAROUNDS"):
            notes.append(f"- {mod.NAME} {fns}, symgrad workaround: {text}")
        for fns, text in _grouped(mod, "NOTES"):
            notes.append(f"- {mod.NAME} {fns}: {text}")
        for fn, tol in getattr(mod, "TOLERANCES", {}).items():
            notes.append(f"- {mod.NAME} {fn}: checked to {tol:.0e} (the module says why)")
        not_run = next((r["not_run"] for r in rows if r["problem"] == mod.NAME), {})
        for s, why in not_run.items():
            notes.append(f"- {mod.NAME}: {s} not run ({why})")
    return notes


def parse_problems(parser: argparse.ArgumentParser, problems: tuple) -> tuple:
    """(arguments, problem names) with ``--only``, ``--rounds`` and ``--full`` added to
    ``parser`` (the GradBench scripts' common options), the names checked."""
    parser.add_argument("--only", default="", help="comma-separated problems (default: all)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--full", action="store_true", help="all of each eval's default sizes")
    args = parser.parse_args()
    names = [n for n in args.only.split(",") if n] or list(problems)
    unknown = [n for n in names if n not in problems]
    if unknown:
        parser.error(f"unknown problems {unknown}; known: {', '.join(problems)}")
    return args, names


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args, names = parse_problems(parser, PROBLEMS)
    cache = None
    if "SYMGRAD_CACHE_DIR" not in os.environ:
        cache = tempfile.mkdtemp(prefix="symgrad-gradbench-")
        os.environ["SYMGRAD_CACHE_DIR"] = cache
    try:
        systems = _systems()
        rows, mods = [], []
        for name in names:
            mod = _load(name)
            if mod is not None:
                mods.append(mod)
                rows += run_problem(mod, systems, args.full, args.rounds)
    finally:
        if cache is not None:
            shutil.rmtree(cache, ignore_errors=True)
    md = markdown(rows, _notes(mods, rows), _header(systems, args))
    if args.only:       # (a part: printed, not written over the whole run's table)
        print("\n" + md + "\n(--only: benchmarks/results/gradbench.md left as it was)")
    else:
        _write(rows, md)
    bad = [r for r in rows if r["wrong"] or r["errors"]]
    if bad:
        sys.exit(f"{len(bad)} rows failed or differ from torch beyond their tolerance: "
                 + "; ".join(f"{r['problem']} {r['config']} {r['function']}" for r in bad))


def _write(rows: list, md: str) -> None:
    print("\n" + md)
    out = HERE / "results" / "gradbench"
    out.parent.mkdir(exist_ok=True)
    out.with_suffix(".md").write_text(md)
    out.with_suffix(".json").write_text(json.dumps(rows, indent=1))
    print(f"written {out.relative_to(HERE.parent)}.md and .json")


if __name__ == "__main__":
    main()
