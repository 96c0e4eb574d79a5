"""GradBench's hand-written C++ derivatives (its ``manual`` tool) against symgrad, one thread.

GradBench (github.com/gradbench/gradbench) ships, as its ``manual`` tool, C++ programs
differentiated by hand (``tools/manual/<eval>.cpp``, on the reference primal code of
``cpp/gradbench/evals/<eval>.hpp``). This script builds them from a GradBench checkout
with the tool's own Makefile (g++, ``-O3 -march=native``, no OpenMP: one thread) and runs
them on the inputs of our problem modules (``benchmarks/gradbench/<name>.py``, the same as
``benchmarks/gradbench.py`` runs) for det, kmeans, ba and ht, beside symgrad on one thread.

For each problem, configuration (the module's ``configs``) and function:

1. the module's inputs are written as the C++ tool's input JSON (the format its
   ``from_json`` reads: BA's is one camera, point, weight and feature that the C++ replicates,
   so the script first checks that our arrays are exactly such replications; HT's is the hand
   model and data in GradBench's model format);
2. the C++ output (the JSON line the tool prints; BA's compressed to the first observation's
   values, expanded here to GradBench's full layout) is compared with symgrad's result: the
   relative error max|got - want| / max|want|, want the C++, above 1e-8 marks the row WRONG
   and the run exits with an error at the end;
3. C++ and symgrad are timed in alternating blocks, ``--rounds`` of them: a C++ block is one
   process run with ``min_runs`` = enough runs to fill ~0.3 s (at least 3, at most 20,000),
   its time the median of the tool's own per-run timer (``steady_clock`` around ``compute``:
   no process start, JSON parsing nor the tool's ``prepare`` data conversion); a symgrad block
   is as many calls as fill ~0.3 s after a warm-up call, each timed, the median. The table
   has the median over the rounds of the block medians. symgrad's time includes NumPy in and
   out (argument checks, output allocation, conversions); the column "in/out" times that
   part alone, in the same rounds: a trivial compiled function of the same arguments that
   returns outputs of the same shapes (each element written once), with the same NumPy
   post-processing (BA's CSR assembly, HT's concatenation).

symgrad compiles into an empty cache unless ``SYMGRAD_CACHE_DIR`` is set. The table goes to
``benchmarks/results/gradbench_cpp.md`` (``--only``: printed, the file left alone).

    python benchmarks/gradbench_cpp.py --gradbench PATH [--json-hpp PATH] [--only det,kmeans]
        [--rounds 5] [--full]

PATH: a GradBench checkout; the build needs nlohmann's ``json.hpp`` in its ``cpp/`` (``make
-C cpp`` there downloads it) or at ``--json-hpp``.
"""

from __future__ import annotations

import os

os.environ["SYMGRAD_NUM_THREADS"] = "1"     # before symgrad is imported

import argparse
import importlib
import importlib.util
import json
import platform
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))


def _load_runner():
    """``benchmarks/gradbench.py``, loaded by its path (the package ``benchmarks/gradbench/``
    takes its name), for its helpers."""
    spec = importlib.util.spec_from_file_location("gradbench_runner", HERE / "gradbench.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


runner = _load_runner()

PROBLEMS = ("det", "kmeans", "ba", "ht")
TOLERANCE = 1e-8
BLOCK_S = 0.3           # a timing block's target length
MIN_RUNS, MAX_RUNS = 3, 20000
CPP_FUNCTION = {"jacobian (blocks)": "jacobian"}    # our function -> the C++ tool's


# ---------------------------------------------------------------- the C++ tool

def build(checkout: Path, json_hpp: Path | None, names: list, workdir: Path) -> dict:
    """Build the manual tool's binaries for ``names`` in a copy of the checkout's ``cpp/`` and
    ``tools/manual/``; returns the binaries' paths and the compiler line."""
    cpp, tool = checkout / "cpp", checkout / "tools" / "manual"
    if not (cpp / "gradbench").is_dir() or not (tool / "Makefile").is_file():
        sys.exit(f"{checkout} is not a GradBench checkout (no cpp/gradbench/ and "
                 "tools/manual/Makefile)")
    hpp = json_hpp or cpp / "json.hpp"
    if not hpp.is_file():
        sys.exit(f"no {hpp}: the build needs nlohmann's single header json.hpp; pass "
                 "--json-hpp PATH, or run `make -C cpp` in the checkout (it downloads "
                 "https://github.com/nlohmann/json/releases/download/v3.11.3/json.hpp)")
    skip = shutil.ignore_patterns("bin", "*.o")
    shutil.copytree(cpp, workdir / "cpp", ignore=skip)
    shutil.copytree(tool, workdir / "tools" / "manual", ignore=skip)
    shutil.copy(hpp, workdir / "cpp" / "json.hpp")
    # The Makefile's own flags (common.mk: -std=c++17 -O3 -march=native, no -fopenmp):
    # compiler variables of the environment are left out, MULTITHREADED=no made explicit.
    env = {k: v for k, v in os.environ.items() if k not in ("CXX", "CXXFLAGS", "LDFLAGS")}
    made = subprocess.run(["make", "-j2", "-C", str(workdir / "tools" / "manual"), "CXX=g++",
                           "MULTITHREADED=no", "NATIVE=yes", *[f"bin/{n}" for n in names]],
                          env=env, capture_output=True, text=True)
    if made.returncode:
        sys.exit(f"building the manual tool failed:\n{made.stdout}\n{made.stderr}")
    line = next((s for s in made.stdout.splitlines() if s.startswith("g++")), "")
    for n in names:
        line = line.replace(f"bin/{n} {n}.cpp", "bin/<eval> <eval>.cpp")
    version = subprocess.run(["g++", "--version"], capture_output=True, text=True)
    bins = {n: workdir / "tools" / "manual" / "bin" / n for n in names}
    return {"bins": bins, "command": line, "version": version.stdout.splitlines()[0]}


def run_cpp(binary: Path, path: Path, function: str) -> tuple[object, list]:
    """One process run: (its output, parsed, and its per-run evaluate seconds)."""
    done = subprocess.run([str(binary), str(path), function], capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError(f"{binary.name} {function} exited {done.returncode}: "
                           f"{done.stderr.strip()[-500:]}")
    lines = done.stdout.splitlines()
    events = [json.loads(s) for s in lines[1:]]
    times = [e["nanoseconds"] * 1e-9 for e in events if e["name"] == "evaluate"]
    return json.loads(lines[0]), times


def write_input(path: Path, cpp_input: dict, runs: int) -> Path:
    path.write_text(json.dumps({**cpp_input, "min_runs": runs}))
    return path


# ---------------------------------------------------------------- per problem

class Adapter(NamedTuple):
    """How a problem maps to the C++ tool: its input JSON (from our inputs), our layout of
    its output (function, C++ output, inputs -> what symgrad returns; None if the C++ layout
    is not the one expected), and the symgrad in/out callables (inputs, symgrad results ->
    function -> callable)."""
    cpp_input: Callable
    expected: Callable
    inout: Callable


def _trivial(shapes: list):
    """A compiled function of any arguments returning float64 arrays of ``shapes`` (a tuple
    when several), each element written once: a symgrad call doing nothing but its NumPy in
    and out."""
    import symgrad as sg

    def trivial(*args):
        x = args[0].reshape(-1)[0]
        outs = tuple(sg.zeros(tuple(s), dtype=sg.float64) + x for s in shapes)
        return outs if len(outs) > 1 else outs[0]
    return sg.compile(trivial)


def _det_input(inp):
    return {"A": inp["A"].tolist(), "ell": inp["ell"]}


def _bound(args, results: dict, functions) -> dict:
    """The in/out callables of functions that return one array each."""
    fns = {fn: _trivial([np.shape(results[fn])]) for fn in functions}
    return {fn: (lambda f=f: f(*args)) for fn, f in fns.items()}


def _det_inout(inp, results):
    from gradbench import det
    return _bound((inp["A"], *det.permutations(inp["ell"])), results, det.FUNCTIONS)


def _kmeans_input(inp):
    return {"points": inp["points"].tolist(), "centroids": inp["centroids"].tolist()}


def _kmeans_inout(inp, results):
    return _bound((inp["points"], inp["centroids"]), results, ("cost", "dir"))


def _ba_input(inp):
    """GradBench's BA input (one camera, point, weight and feature, replicated n, m, p times
    by the C++, observation i seeing camera i mod n and point i mod m), after checking that
    our arrays are exactly that."""
    n, m, p = len(inp["cams"]), len(inp["X"]), len(inp["w"])
    i = np.arange(p)
    replicated = (np.array_equal(inp["cams"], np.tile(inp["cams"][0], (n, 1)))
                  and np.array_equal(inp["X"], np.tile(inp["X"][0], (m, 1)))
                  and np.array_equal(inp["w"], np.full(p, inp["w"][0]))
                  and np.array_equal(inp["feats"], np.tile(inp["feats"][0], (p, 1)))
                  and np.array_equal(inp["cam_idx"], i % n)
                  and np.array_equal(inp["pt_idx"], i % m))
    if not replicated:
        raise ValueError("ba.inputs is not one camera/point/weight/feature replicated as "
                         "GradBench's C++ builds its input")
    return {"n": n, "m": m, "p": p, "cam": inp["cams"][0].tolist(), "x": inp["X"][0].tolist(),
            "w": float(inp["w"][0]), "feat": inp["feats"][0].tolist()}


def _ba_expected(fn, out, inp):
    """The C++ output in our layout. The tool prints the first observation's values (all
    observations are alike): the objective's two residuals and one weight residual, the
    Jacobian's first two rows (15 values each: camera, point, weight) and last row, with
    their columns; expanded to every observation (the Jacobian: GradBench's CSR layout)."""
    from gradbench import ba
    if fn == "objective":
        rep, w = out["reproj_error"], out["w_err"]
        return {"reproj_err": np.tile(rep["elements"], rep["repeated"]),
                "w_err": np.full(w["repeated"], w["element"])}
    pattern, p = ba._Pattern(inp), len(inp["w"])
    cols = np.array(out["cols"])
    if not (np.array_equal(cols[:30], pattern.indices[:30]) and cols[30] == pattern.indices[-1]):
        return None
    rows = np.array(out["vals"][:30]).reshape(2, 15)
    d_cam = np.broadcast_to(rows[:, :11], (p, 2, 11))
    d_x = np.broadcast_to(rows[:, 11:14], (p, 2, 3))
    d_w = np.broadcast_to(rows[:, 14], (p, 2))
    return pattern.matrix(d_cam, d_x, d_w, np.full(p, out["vals"][30]))


def _ba_inout(inp, results):
    import scipy.sparse as sp
    from gradbench import ba
    args = [inp[k] for k in ("cams", "X", "w", "feats", "cam_idx", "pt_idx")]
    pattern, p = ba._Pattern(inp), len(inp["w"])
    obj = _trivial([(2 * p,), (p,)])
    M = results["jacobian"].matrix
    sparse = _trivial([M.data.shape])
    blocks = _trivial([(p, 2, 11), (p, 2, 3), (p, 2), (p,)])

    def objective():
        r, we = obj(*args)
        return {"reproj_err": r, "w_err": we}

    def jacobian():          # as sg.sparse.jacobian's call: the values, then the CSR matrix
        data = sparse(*args)
        return ba.SparseJacobian(sp.csr_matrix((data, M.indices.copy(), M.indptr.copy()),
                                               shape=M.shape), pattern)
    return {"objective": objective, "jacobian": jacobian,
            "jacobian (blocks)": lambda: pattern.matrix(*blocks(*args))}


def _ht_input(inp):
    """GradBench's HT input: our synthetic model in its model format (bone names are not
    read but for their count; matrices as lists of rows; positions homogeneous)."""
    model = {"bone_names": [f"bone{i}" for i in range(len(inp["parents"]))],
             "parents": inp["parents"].tolist(), "is_mirrored": False,
             "base_relatives": inp["base_relatives"].tolist(),
             "inverse_base_absolutes": inp["inverse_base_absolutes"].tolist(),
             "base_positions": inp["base_positions"].tolist(),
             "weights": inp["weights"].tolist(), "triangles": inp["triangles"].tolist()}
    data = {"model": model, "correspondences": inp["correspondences"].tolist(),
            "points": inp["points"].tolist()}
    return {"theta": inp["theta"].tolist(), "us": inp.get("us", np.zeros((0, 2))).tolist(),
            "data": data}


def _ht_inout(inp, results):
    from gradbench import ht
    complicated = "us" in inp
    args = [inp["theta"], *([np.zeros(2)] if complicated else []),
            *ht._model_args(inp, np.asarray), *ht._data_args(inp, np.asarray)]
    rows = len(results["objective"])
    obj = _trivial([(rows,)])
    jac = _trivial([(rows, 26), (rows, 2)] if complicated else [(rows, 26)])

    def jacobian():
        J = jac(*args)
        return np.concatenate([J[1], J[0]], 1) if complicated else J
    return {"objective": lambda: obj(*args), "jacobian": jacobian}


def _plain(fn, out, inp):
    return np.asarray(out, dtype=np.float64)


ADAPTERS = {"det": Adapter(_det_input, _plain, _det_inout),
            "kmeans": Adapter(_kmeans_input, _plain, _kmeans_inout),
            "ba": Adapter(_ba_input, _ba_expected, _ba_inout),
            "ht": Adapter(_ht_input, _plain, _ht_inout)}


# ---------------------------------------------------------------- timing

def _runs(seconds: float) -> int:
    """Runs of a call taking ``seconds`` that fill a block."""
    return int(min(MAX_RUNS, max(MIN_RUNS, np.ceil(BLOCK_S / max(seconds, 1e-9)))))


def call_times(fn, runs: int) -> list:
    """A warm-up call, then ``runs`` calls, each timed."""
    fn()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return times


def alternate_blocks(blocks: dict, rounds: int) -> dict:
    """Median over the rounds of each block's median seconds; blocks take turns, the first
    one rotating round by round."""
    samples: dict = {k: [] for k in blocks}
    for r in range(rounds):
        order = list(blocks)
        for k in order[r % len(order):] + order[:r % len(order)]:
            samples[k].append(float(np.median(blocks[k]())))
    return {k: float(np.median(v)) for k, v in samples.items()}


# ---------------------------------------------------------------- one configuration

def symgrad_results(mod, inp: dict) -> tuple[dict, dict, dict]:
    """symgrad's callables, their results (second call) and the second call's seconds."""
    impl = mod.symgrad_impl(inp)
    results, seconds = {}, {}
    for fn in mod.FUNCTIONS:
        impl[fn]()                              # compiles
        start = time.perf_counter()
        results[fn] = impl[fn]()
        seconds[fn] = time.perf_counter() - start
    return impl, results, seconds


def run_config(mod, label: str, size: dict, binary: Path, workdir: Path, rounds: int) -> list:
    """Every function of one configuration: the check, then the alternating timing."""
    adapter = ADAPTERS[mod.NAME]
    inp = mod.inputs(**size)
    cpp_input = adapter.cpp_input(inp)
    impl, results, seconds = symgrad_results(mod, inp)
    inout = adapter.inout(inp, results)
    path = workdir / f"{mod.NAME}.json"
    checked: dict = {}                          # C++ function -> (output, seconds per run)
    rows = []
    for fn in mod.FUNCTIONS:
        row = {"problem": mod.NAME, "config": label, "function": fn, "error": None}
        try:
            cpp_fn = CPP_FUNCTION.get(fn, fn)
            if cpp_fn not in checked:
                out, times = run_cpp(binary, write_input(path, cpp_input, 2), cpp_fn)
                checked[cpp_fn] = out, min(times)
            out, cpp_s = checked[cpp_fn]
            want = adapter.expected(fn, out, inp)
            row["rel_err"] = (float("inf") if want is None
                              else runner.relative_error(want, results[fn]))
            row["wrong"] = not row["rel_err"] <= TOLERANCE
            row.update(time_function(binary, write_input(path, cpp_input, _runs(cpp_s)),
                                     cpp_fn, impl[fn], inout[fn], seconds[fn], rounds))
        except Exception as e:                  # reported in the table; the run goes on
            traceback.print_exc()
            row["error"] = f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
        print_row(row)
        rows.append(row)
    return rows


def time_function(binary, path, cpp_fn, sym_fn, inout_fn, sym_s, rounds) -> dict:
    """C++, symgrad and symgrad's in/out in alternating blocks: milliseconds."""
    t_inout = min(call_times(inout_fn, 3))
    n_sym, n_inout = _runs(sym_s), _runs(t_inout)
    blocks = {"cpp": lambda: run_cpp(binary, path, cpp_fn)[1],
              "symgrad": lambda: call_times(sym_fn, n_sym),
              "inout": lambda: call_times(inout_fn, n_inout)}
    ms = {k: v * 1e3 for k, v in alternate_blocks(blocks, rounds).items()}
    return {"cpp_ms": ms["cpp"], "symgrad_ms": ms["symgrad"], "inout_ms": ms["inout"],
            "ratio": ms["symgrad"] / ms["cpp"]}


def print_row(row: dict) -> None:
    if row["error"]:
        print(f"  {row['function']:18s} FAILED: {row['error']}")
        return
    flag = "  WRONG" if row["wrong"] else ""
    print(f"  {row['function']:18s} C++ {row['cpp_ms']:10.4f} ms  symgrad "
          f"{row['symgrad_ms']:10.4f} ms  ratio {row['ratio']:6.2f}  in/out "
          f"{row['inout_ms']:.4f} ms  err {row['rel_err']:.1e}{flag}")


def run_problem(mod, binary: Path, workdir: Path, full: bool, rounds: int) -> list:
    rows = []
    for label, size in mod.configs(full):
        print(f"\n{mod.NAME} {label}")
        rows += run_config(mod, label, size, binary, workdir, rounds)
    return rows


# ---------------------------------------------------------------- the report

def _row_cells(r: dict) -> str:
    head = f"| {r['problem']} | {r['config']} | {r['function']} |"
    if r["error"]:
        return head + f" — | — | failed: {r['error']} | — | — |"
    ratio = f"{r['ratio']:.2f}" + (" (WRONG)" if r["wrong"] else "")
    return (head + f" {runner._ms(r['cpp_ms'])} | {runner._ms(r['symgrad_ms'])} | {ratio} "
            f"| {runner._ms(r['inout_ms'])} | {r['rel_err']:.1e} |")


def markdown(rows: list, header: str, notes: list) -> str:
    lines = [header, "",
             "| problem | config | function | C++ ms | symgrad ms | symgrad / C++ "
             "| symgrad in/out ms | rel. err. |",
             "|---|---|---|--:|--:|--:|--:|--:|"]
    lines += [_row_cells(r) for r in rows]
    ratios = [r["ratio"] for r in rows if not r["error"]]
    faster = sum(1 for x in ratios if x < 1)
    lines += ["", f"symgrad faster than the hand-written C++ on {faster} of {len(ratios)} rows.",
              "", "Notes:", "", *notes, ""]
    return "\n".join(lines)


NOTES = [
    "- C++ ms: the tool's own timer around `compute` (GradBench's `main.hpp`), per run, "
    "without process start, JSON parsing or its `prepare` step; the C++ allocates its outputs "
    "in `compute` as the tool does (BA's Jacobian a new CSR matrix per run).",
    "- symgrad ms: one call, NumPy in and out; in/out ms: the part of it that is the call "
    "itself (a compiled function of the same arguments writing outputs of the same shapes "
    "once, and the same NumPy assembly: BA's CSR matrices, HT's concatenation).",
    "- det: the C++ is the recursive expansion by minors (cmpad) and, for the gradient, the "
    "ell^2 cofactors, each by the same recursion; symgrad is the module's vectorized Leibniz "
    "formula (a table of the ell! permutations) and its reverse mode.",
    "- kmeans dir: the C++ computes the direction in closed form (each centroid minus its "
    "cluster's mean), no Hessian; symgrad is sg.jvp of sg.grad (J / H).",
    "- ba: the C++ input is one camera, point, weight and feature replicated (as GradBench's "
    "data files are); its printed outputs hold the first observation's values, expanded to "
    "every observation for the check (the Jacobian in GradBench's 15-per-row CSR layout, "
    "compared with symgrad's matrix at those positions and zero elsewhere). Both symgrad "
    "Jacobians are timed against the C++ `jacobian`.",
    "- ht: our synthetic model (`ht.py`: GradBench's bone tree and sizes, random transforms, "
    "weights and triangles) written in GradBench's model format; the C++ reads the bone names "
    "only for their count (placeholders here).",
]


def _header(args, built: dict) -> str:
    import symgrad
    return (f"# GradBench's hand-written C++ (manual tool) and symgrad\n\n"
            f"`python benchmarks/gradbench_cpp.py --gradbench PATH{' --full' if args.full else ''}"
            f" --rounds {args.rounds}` on {runner._cpu()} ({os.cpu_count()} CPUs), Python "
            f"{platform.python_version()}, symgrad {getattr(symgrad, '__version__', '?')}; "
            f"C++ built by the tool's Makefile with {built['version']}: `{built['command']}`. "
            f"One thread each, float64. Per-run medians of alternating blocks (C++ process "
            f"runs, symgrad calls; ~{BLOCK_S} s each, {MIN_RUNS} to {MAX_RUNS:,} runs), the "
            f"median over {args.rounds} rounds. The C++ times exclude JSON parsing and the "
            f"tool's data conversion; symgrad's include NumPy in/out (argument checks, output "
            f"allocation, conversions), also timed alone (\"in/out\"). Errors are relative, "
            f"max |symgrad - C++| / max |C++|; above {TOLERANCE:.0e} a row is WRONG.")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gradbench", type=Path, required=True, help="a GradBench checkout")
    parser.add_argument("--json-hpp", type=Path, help="nlohmann's json.hpp (default: cpp/ "
                        "of the checkout)")
    args, names = runner.parse_problems(parser, PROBLEMS)
    workdir = Path(tempfile.mkdtemp(prefix="gradbench-cpp-"))
    if "SYMGRAD_CACHE_DIR" not in os.environ:
        os.environ["SYMGRAD_CACHE_DIR"] = str(workdir / "symgrad-cache")
    try:
        built = build(args.gradbench.resolve(), args.json_hpp, names, workdir)
        print(f"built {', '.join(names)}: {built['command']}")
        rows = []
        for name in names:
            mod = importlib.import_module(f"gradbench.{name}")
            rows += run_problem(mod, built["bins"][name], workdir, args.full, args.rounds)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    report(rows, markdown(rows, _header(args, built), NOTES), bool(args.only))


def report(rows: list, md: str, partial: bool) -> None:
    print("\n" + md)
    if partial:
        print("(--only: benchmarks/results/gradbench_cpp.md left as it was)")
    else:
        out = HERE / "results" / "gradbench_cpp.md"
        out.parent.mkdir(exist_ok=True)
        out.write_text(md)
        print(f"written {out.relative_to(HERE.parent)}")
    bad = [r for r in rows if r["error"] or r["wrong"]]
    if bad:
        sys.exit(f"{len(bad)} rows failed or differ from the C++ beyond {TOLERANCE:.0e}: "
                 + "; ".join(f"{r['problem']} {r['config']} {r['function']}" for r in bad))


if __name__ == "__main__":
    main()
