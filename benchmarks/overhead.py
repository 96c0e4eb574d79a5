"""The per-call floor (make bench-overhead): what an empty cffi call costs on this machine, and
how far above it a compiled symgrad call sits.

The problem is the seed, ``mean(3 * (x + 2)**2)`` value_and_grad, x float32 (2, 2): the C does
almost nothing, so the time is the call path. An empty C function with exactly the parameter
list of symgrad's compiled seed (read from its cdef: input pointers, output pointers, the
workspace, and whatever else the entry takes) is built as a cffi API-mode extension (the
fastest way cffi calls C; symgrad itself calls through its native helper), then timed:

  (a)  the empty function, called with cdata pointers made once;
  (a') symgrad's real seed kernel through the native helper, its arrays made once (the C
       work and the helper's call);
  (b)  the empty function plus what any NumPy wrapper must do per call: ``ffi.from_buffer`` of
       the input and ``np.empty`` + ``ffi.from_buffer`` of each output;
  (c)  symgrad's compiled value_and_grad, ``f(x)``;
  (c') the same specialization's generated caller alone (``spec.call((x,))``: no dispatch);
  (d)  ``f(x, out=outs)``: writing into preallocated, checked output arrays;
  (e)  a trivial Python function call, for scale;
  (f)  the seed reading one global scalar (a guarded value), ``SCALE * ...``;
  (g)  the seed reading five global scalars (five guarded values);
  (h)  the seed reading a global (2, 2) array (a captured input, passed by pointer);
  (i)  a value_and_grad over a dict of eight (2, 2) parameters and x, ``fd(params, x)``;
  (i') the same function over the same nine arrays passed flat, ``f9(w0, ..., w7, x)``: the
       difference is what a container costs per call (issue 28: within 1 us per leaf).

Each case is a ``timeit`` statement (no lambda in between); rounds rotate over the cases so
that machine noise falls on all alike. Reports the median and min per call over the rounds.
Standalone: symgrad, numpy and cffi only. Writes benchmarks/results/overhead.md.
"""

from __future__ import annotations

import argparse
import platform
import re
import statistics
import timeit
from pathlib import Path

import cffi
import numpy as np

import symgrad as sg
from symgrad.pytree import flatten

OUT = Path(__file__).resolve().parent / "results"


def seed(x):
    return (3 * (x + 2) ** 2).mean()


# What a compiled function reads besides its arguments (README: "What a compiled function
# captures"): a global scalar is guarded (checked before each call), a global array is an
# input passed by pointer.
SCALE = 3.0
A, B, C, D, E = 1.0, 1.0, 1.0, 1.0, 1.0
SHIFT = np.full((2, 2), 2.0, np.float32)


def seed_global(x):
    return (SCALE * (x + 2) ** 2).mean()


def seed_five_globals(x):
    return (A * B * C * D * E * 3 * (x + 2) ** 2).mean()


def seed_array(x):
    return (3 * (x + SHIFT) ** 2).mean()


NAMES = [f"w{k}" for k in range(8)]


def weighted(params, x):
    """``x`` through eight elementwise weights, from a dict."""
    for k in NAMES:
        x = x * params[k]
    return (x * x).mean()


def weighted_flat(w0, w1, w2, w3, w4, w5, w6, w7, x):
    """``weighted`` with the same arrays as arguments of their own."""
    return weighted(dict(zip(NAMES, (w0, w1, w2, w3, w4, w5, w6, w7))), x)


def parse_cdef(cdef: str) -> tuple[str, str, list[tuple[str, str]]]:
    """``int name(const float *in0, ...);`` -> (return type, name, [(type, param name)])."""
    m = re.match(r"\s*([\w\s]+?)\s*\b(\w+)\s*\((.*)\)\s*;\s*$", cdef.strip(), re.DOTALL)
    if m is None:
        raise SystemExit(f"cannot parse the cdef {cdef!r}")
    params = []
    for p in (s.strip() for s in m.group(3).split(",") if s.strip()):
        pm = re.match(r"(.*?)(\w+)$", p)
        params.append((pm.group(1).strip(), pm.group(2)))
    return m.group(1), m.group(2), params


def base_type(ctype: str) -> str:
    return " ".join(t for t in ctype.replace("*", " ").split() if t not in ("const", "restrict"))


def empty_function(cdef: str, name: str) -> tuple[str, str]:
    """C source and cdef of a function with ``cdef``'s parameters that does nothing."""
    ret, _, params = parse_cdef(cdef)
    plist = ", ".join(f"{t} {n}" for t, n in params)
    decl = f"{ret} {name}({plist});"
    body = "".join(f"    (void){n};\n" for _, n in params)
    src = f"#include <stdint.h>\n#include <stddef.h>\n\n{ret} {name}({plist})\n{{\n{body}" \
          f"    return 0;\n}}\n"
    return src, decl


def api_mode(src: str, decl: str):
    """(ffi, lib) of ``src`` built as a cffi API-mode extension module in a temporary
    directory, with the flags cffi's API mode would pick (-O2)."""
    import importlib.util
    import tempfile
    ffi = cffi.FFI()
    ffi.cdef(decl)
    ffi.set_source("_sg_overhead_empty", src)
    tmp = tempfile.mkdtemp(prefix="symgrad-overhead-")
    path = ffi.compile(tmpdir=tmp, verbose=False)
    spec = importlib.util.spec_from_file_location("_sg_overhead_empty", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.ffi, module.lib


def real_arguments(params, x, outs, work, spec, nthreads) -> list:
    """The seed kernel's arguments for the native call: arrays, constants by address."""
    consts, args = list(spec.const_ptrs), []
    for ctype, name in params:
        if "*" not in ctype:
            args.append(nthreads)
        elif re.fullmatch(r"in\d+", name):
            args.append(x)
        elif re.fullmatch(r"out\d+", name):
            args.append(outs[int(name[3:])])
        elif name == "work":
            args.append(work)
        else:
            args.append(consts.pop(0))
    return args


def run(rounds: int, target: float) -> str:
    x = np.random.default_rng(0).standard_normal((2, 2)).astype(np.float32)
    f = sg.value_and_grad(seed, argnums=(0,))
    result = f(x)
    spec = f.last_specialization
    out_leaves, _ = flatten(result)
    cdef, entry = spec.source.cdef.strip(), spec.source.entry
    _, _, params = parse_cdef(cdef)

    src, decl = empty_function(cdef, "sg_overhead_empty")
    ffi, lib = api_mode(src, decl)
    empty_fn = lib.sg_overhead_empty
    nthreads = sg.get_num_threads() if hasattr(sg, "get_num_threads") else 1

    # One argument expression per parameter, for the statements below.
    outs_alloc = [np.empty(o.shape, o.dtype) for o in out_leaves]
    work = np.zeros(max(spec.source.workspace_bytes, 1), np.uint8)
    consts = list(spec.const_ptrs)
    env = {"np": np, "fb": ffi.from_buffer, "x": x, "empty_fn": empty_fn,
           "f": f, "call": spec.call, "args": (x,), "nthreads": nthreads}
    real_fn, lead = spec.module.entry(entry)
    real = [*lead, *real_arguments(params, x, outs_alloc, work, spec, nthreads)]
    env.update({f"R{k}": v for k, v in enumerate(real)}, real_fn=real_fn)
    premade, per_call_setup, per_call = [], [], []
    for k, (ctype, name) in enumerate(params):
        if "*" not in ctype:                            # e.g. int nthreads
            premade.append("nthreads")
            per_call.append("nthreads")
            continue
        ct = f"{base_type(ctype)}[]"
        if re.fullmatch(r"in\d+", name):
            env[f"P{k}"] = ffi.from_buffer(ct, x)
            env[f"ct{k}"] = ct
            premade.append(f"P{k}")
            per_call_setup.append(f"p{k} = fb(ct{k}, x)")
            per_call.append(f"p{k}")
        elif re.fullmatch(r"out\d+", name):
            j = int(name[3:])
            o = outs_alloc[j]
            env[f"P{k}"] = ffi.from_buffer(ct, o)
            env.update({f"ct{k}": ct, f"shape{k}": o.shape, f"dt{k}": o.dtype})
            premade.append(f"P{k}")
            per_call_setup.append(f"o{k} = np.empty(shape{k}, dt{k})")
            per_call.append(f"fb(ct{k}, o{k})")
        elif name == "work":
            env[f"P{k}"] = ffi.from_buffer(ct, work)
            premade.append(f"P{k}")
            per_call.append(f"P{k}")
        else:                                           # a constant table: made once
            env[f"P{k}"] = consts.pop(0)
            premade.append(f"P{k}")
            per_call.append(f"P{k}")
    outs = tuple(np.empty(o.shape, o.dtype) for o in out_leaves)
    env["outs"] = (outs[0], tuple(outs[1:]))
    assert f(x, out=env["outs"]) is env["outs"]
    env["trivial"] = lambda v: v
    ws = [np.random.default_rng(k).standard_normal((2, 2)).astype(np.float32) for k in
          range(8)]
    env.update(params=dict(zip(NAMES, ws)), ws=ws,
               fd=sg.value_and_grad(weighted), f9=sg.value_and_grad(weighted_flat,
                                                                     argnums=tuple(range(8))))
    value, grads = env["fd"](env["params"], x)
    value9, grads9 = env["f9"](*ws, x)
    assert value == value9 and all(np.array_equal(grads[k], g) for k, g in zip(NAMES, grads9))
    for key, fn in (("fg", seed_global), ("f5", seed_five_globals), ("fa", seed_array)):
        env[key] = sg.value_and_grad(fn, argnums=(0,))
        np.testing.assert_allclose(env[key](x)[0], result[0], rtol=1e-6)

    cases = [
        ("a", "empty cffi call, pre-made pointers", f"empty_fn({', '.join(premade)})"),
        ("a'", "symgrad's seed kernel through its native helper, arrays made once",
         f"real_fn({', '.join(f'R{k}' for k in range(len(real)))})"),
        ("b", "(a) + from_buffer(x) + np.empty/from_buffer per output",
         "; ".join(per_call_setup + [f"empty_fn({', '.join(per_call)})"])),
        ("c", "symgrad f(x) (value_and_grad)", "f(x)"),
        ("c'", "symgrad spec.call((x,)), no dispatch", "call(args)"),
        ("d", "symgrad f(x, out=outs)", "f(x, out=outs)"),
        ("e", "trivial Python function call", "trivial(x)"),
        ("f", "(c) reading one global scalar (guarded)", "fg(x)"),
        ("g", "(c) reading five global scalars (guarded)", "f5(x)"),
        ("h", "(c) reading a global (2, 2) array (captured input)", "fa(x)"),
        ("i", "value_and_grad over a dict of 8 (2, 2) parameters and x", "fd(params, x)"),
        ("i'", "(i) with the 9 arrays passed flat", "f9(ws[0], ws[1], ws[2], ws[3], ws[4], "
         "ws[5], ws[6], ws[7], x)"),
    ]
    timers = {key: timeit.Timer(stmt, globals=env) for key, _, stmt in cases}
    numbers = {}
    for key, t in timers.items():                     # calls per sample: ~target seconds
        n, dt = t.autorange()
        numbers[key] = max(1, int(n * target / dt))
    samples: dict = {key: [] for key in timers}
    for r in range(rounds):
        order = list(timers)[r % len(timers):] + list(timers)[:r % len(timers)]
        for key in order:
            samples[key].append(timers[key].timeit(numbers[key]) / numbers[key] * 1e6)
    med = {k: statistics.median(v) for k, v in samples.items()}
    low = {k: min(v) for k, v in samples.items()}

    machine = platform.processor() or platform.machine()
    lines = [(f"# symgrad call overhead vs the cffi floor ({machine}, Python "
              f"{platform.python_version()}, NumPy {np.__version__}, cffi {cffi.__version__})"),
             "",
             "seed `mean(3*(x+2)**2)` value_and_grad, x float32 (2, 2); the entry point:",
             "", f"    {cdef}", "",
             (f"{rounds} rounds rotating over the cases, each sample ~{target * 1e3:.0f} ms of "
              "calls; microseconds per call (median over the rounds, and the fastest round). "
              "The overhead columns subtract (a) or (b) from the symgrad rows, median from "
              "median and min from min."), "",
             ("| case | what | median us | min us | above (a) median / min | "
              "above (b) median / min |"),
             "|---|---|---|---|---|---|"]

    def above(key: str, ref: str) -> str:
        if key[0] not in "cdfgh":
            return ""
        return f"{med[key] - med[ref]:+.3f} / {low[key] - low[ref]:+.3f}"
    for key, what, _ in cases:
        lines.append(f"| ({key}) | {what} | {med[key]:.3f} | {low[key]:.3f} | "
                     f"{above(key, 'a')} | {above(key, 'b')} |")
    lines += ["", "Statements timed:", ""]
    lines += [f"- ({key}) `{stmt}`" for key, _, stmt in cases]
    kernel, dispatch = med["a'"] - med["a"], med["c"] - med["c'"]
    tree = med["i"] - med["i'"]
    lines += ["", (f"Medians: symgrad f(x) costs {med['c'] / med['a']:.1f}x the empty cffi call "
                   f"and {med['c'] - med['b']:+.2f} us over the minimal NumPy wrapper (b). The "
                   f"C kernel's own work (a' - a) is {kernel:+.3f} us; the dispatch in "
                   f"CompiledFunction.__call__ (c - c') {dispatch:+.3f} us; out= (d - c) "
                   f"{med['d'] - med['c']:+.3f} us. Captured state: one guarded global (f - c) "
                   f"{med['f'] - med['c']:+.3f} us, five (g - c) {med['g'] - med['c']:+.3f} us "
                   f"({(med['g'] - med['c']) / 5:+.3f} us each), a captured array (h - c) "
                   f"{med['h'] - med['c']:+.3f} us. A dict of 8 parameters (i - i') "
                   f"{tree:+.3f} us, {tree / 9:+.3f} us per leaf.")]
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=41)
    ap.add_argument("--target", type=float, default=0.02, help="seconds per sample")
    a = ap.parse_args()
    text = run(a.rounds, a.target)
    OUT.mkdir(exist_ok=True)
    (OUT / "overhead.md").write_text(text)
    print(text)


if __name__ == "__main__":
    main()
