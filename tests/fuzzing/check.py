"""Run a generated program every way symgrad can, and raise ``Disagreement`` on any difference.

Forward (``check_forward``): the program runs

(a) ``compiled``: ``sg.compile(program)(*arrays)``, the full pass pipeline;
(b) ``no passes``: the same trace built with an empty pass pipeline
    (``pipeline.compile_traced(traced, name, passes=[])``);
(c) ``interpreter``: ``symgrad.ir.interpret`` (the NumPy reference) on the traced graph;
(d) ``eager``: the function called on ``sg.tensor``s, no tracing;

and every result must have the model's shape and dtype and agree with the interpreter's
(policy.py); the traced graph must pass the IR verifier. Gradient (``check_gradient``): the
same four ways for ``sg.value_and_grad`` of ``loss`` (each output times fixed random weights,
summed; (d) is ``loss(...).backward()``), plus central finite differences of the float64
program; with ``order=2``, of ``loss2`` (the gradient of ``loss`` along random directions, so
its gradient is a Hessian-vector product through symgrad's VJPs of VJPs). Before that, a
probed float64 eager run measures the distance to kinks (policy.Probe); inputs near one are
rejected. Any failure raises ``Disagreement`` with the script of the program (``fail``).
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import assume, event

import symgrad as sg
from symgrad.ir import interpret, verify
from symgrad.pipeline import compile_traced
from symgrad.runtime import Specialization

from .model import F32, F64, Program
from .policy import (
    FD_DIRECTIONS,
    FD_ELEMENTS,
    FD_RTOL,
    FD_SLACK,
    FD_STEP,
    KINK_MARGIN,
    RTOL,
    Probe,
    mismatch,
)

RUNS = ("compiled", "no passes", "interpreter", "eager")


class Disagreement(AssertionError):
    """Two ways of running one program (or the program and finite differences) disagree."""


def fail(prog: Program, order: int, what: str) -> Disagreement:
    """The disagreement, with the script that shows it (order 0: the program, 1: its
    gradient, 2: the gradient of its gradient along directions)."""
    script = prog.script(order)
    return Disagreement(f"{what}\n\n----- program (paste to reproduce) -----\n{script}")


def trace_of(cf: sg.CompiledFunction, args: list):
    """The ``Traced`` record of a compiled function for these arguments, without building."""
    return cf.trace(*args)


def without_passes(traced, name: str) -> Specialization:
    """``traced`` built with an empty pass pipeline."""
    return Specialization.of(compile_traced(traced, name, passes=[]))


def _flat(result) -> list:
    if isinstance(result, (tuple, list)):
        return [x for r in result for x in _flat(r)]
    return [result]


def _numpy(t) -> np.ndarray:
    return np.asarray(t.detach().numpy() if isinstance(t, sg.Tensor) else t)


def _float64(arrays: list) -> list:
    """The arguments of the float64 program: float32 arrays widened, int64 ones as they are."""
    return [a.astype(np.float64) if a.dtype == np.float32 else a for a in arrays]


def probe_run(prog: Program, order: int) -> Probe:
    """The float64 eager run with probes: margins to the kinks and the largest value."""
    probe = Probe()
    fn = prog.function(probes=True, float64=True, probe=probe)
    args = [sg.tensor(a) for a in _float64(prog.input_arrays())]
    # float64 the default too: a value computed from integers (tanh of an int64) is then
    # float64 like the widened floats it meets (a loss takes operands of one dtype only)
    previous = sg.get_default_dtype()
    sg.set_default_dtype(sg.float64)
    try:
        fn(*args)
    except Exception as e:
        raise fail(prog, order, f"eager float64 (probed) raised {type(e).__name__}: {e}") \
            from e
    finally:
        sg.set_default_dtype(previous)
    return probe


def _run_all(prog: Program, order: int, cf, arrays: list, eager) -> dict:
    """The four results, each a flat list of arrays."""
    results = {}
    traced = None
    for name in RUNS:
        try:
            if name == "compiled":
                results[name] = [np.asarray(x) for x in _flat(cf(*arrays))]
            elif name == "no passes":
                traced = trace_of(cf, arrays)
                verify(traced.graph)
                spec = without_passes(traced, cf.name)
                results[name] = list(spec.run(list(arrays)))
            elif name == "interpreter":
                results[name] = interpret(traced.graph, list(arrays))
            else:
                results[name] = eager()
        except Exception as e:
            raise fail(prog, order, f"{name} raised {type(e).__name__}: {e}") from e
    return results


def _compare(prog: Program, order: int, results: dict, expected: list, labels: list,
             scale: float) -> None:
    """Every result has the expected (shape, dtype) and agrees with the interpreter's."""
    for name, outs in results.items():
        if len(outs) != len(expected):
            raise fail(prog, order, f"{name} returned {len(outs)} results, expected "
                       f"{len(expected)}")
        for out, (shape, dtype), label in zip(outs, expected, labels):
            if out.shape != shape or out.dtype != dtype:
                raise fail(prog, order, f"{name}: {label} has shape {out.shape} and dtype "
                           f"{out.dtype}; the model expects {shape} and {dtype}")
    rtol = RTOL[prog.precision]
    ref = results["interpreter"]
    for name, outs in results.items():
        for out, r, label in zip(outs, ref, labels):
            why = mismatch(out, r, rtol, scale)
            if why:
                raise fail(prog, order, f"{name} vs interpreter, {label}: {why}")


def check_forward(prog: Program, kink_margin: float = KINK_MARGIN) -> None:
    """The program's outputs, four ways, and compiled again into caller-provided arrays
    (``out=``, the same call's other path)."""
    probe = probe_run(prog, 0)
    assume(not probe.near(kink_margin))
    arrays = prog.input_arrays()
    fn = prog.function()
    cf = sg.compile(fn)

    def eager():
        out = fn(*[sg.tensor(a) for a in arrays])
        return [_numpy(t) for t in _flat(out)]
    results = _run_all(prog, 0, cf, arrays, eager)
    try:
        outs = [np.full(v.shape, 7, v.dtype) for v in prog.outputs]     # not zeros: stale data
        cf(*arrays, out=outs[0] if len(outs) == 1 else tuple(outs))
        results["compiled (out=)"] = outs
    except Exception as e:
        raise fail(prog, 0, f"compiled (out=) raised {type(e).__name__}: {e}") from e
    expected = [(v.shape, np.dtype(v.dtype)) for v in prog.outputs]
    labels = [f"output {k} ({v.name})" for k, v in enumerate(prog.outputs)]
    _compare(prog, 0, results, expected, labels, probe.scale)


def check_gradient(prog: Program, kink_margin: float = KINK_MARGIN, order: int = 1) -> None:
    """The gradient of ``loss`` (order 1) or of ``loss2`` (order 2: the gradient of ``loss``
    along random directions, whose gradient is a Hessian-vector product), four ways and
    against finite differences."""
    probe = probe_run(prog, order)
    assume(not probe.near(kink_margin))
    arrays = prog.input_arrays(order)
    n_in = len(prog.inputs)
    name = "loss" if order == 1 else "loss2"
    fn = prog.function(name)
    vg = sg.value_and_grad(fn, argnums=prog.argnums)

    def eager():
        ts = [sg.tensor(a) for a in arrays]
        for t in ts[:n_in]:
            t.requires_grad_()
        value = fn(*ts)
        if value.requires_grad:
            value.backward()
        return [_numpy(value)] + [_numpy(t.grad) if t.grad is not None else
                                  np.zeros_like(a) for t, a in zip(ts, arrays[:n_in])]
    results = _run_all(prog, order, vg, arrays, eager)
    terms = prog.outputs if order == 1 else [i.var for i in prog.inputs]
    value_dtype = F64 if any(v.dtype == F64 for v in terms) else F32
    expected = [((), np.dtype(value_dtype))] + [(i.var.shape, np.dtype(i.var.dtype))
                                                for i in prog.inputs]
    labels = [name] + [f"gradient of {i.var.name}" for i in prog.inputs]
    scale = max(probe.scale, float(np.nan_to_num(np.abs(results["interpreter"][0]))))
    _compare(prog, order, results, expected, labels, scale)

    value = results["interpreter"][0]
    if probe.exact_tie or prog.special or not np.isfinite(value):
        event("gradient: finite differences skipped (exact tie or NaN/inf)")
        return
    args = _float64(arrays)
    graph = trace_of(sg.compile(prog.function(name, float64=True)), args).graph
    f32 = [n for n in graph.nodes() if n.dtype is sg.float32]
    assert not f32, f"the float64 program computes in float32 ({f32[0]}): a generator bug"

    def f(xs):
        return float(interpret(graph, xs)[0])
    grads = [g.astype(np.float64) for g in results["compiled"][1:]]
    if sum(a.size for a in arrays[:n_in]) > FD_ELEMENTS:
        return _directional(prog, order, f, args, grads, scale)
    fd, uncertainty = finite_differences(f, args, n_in)
    gscale = max((float(np.abs(g).max()) for g in fd if g.size), default=0.0)
    rtol = FD_RTOL[prog.precision]
    for k, (got, want, unc) in enumerate(zip(grads, fd, uncertainty)):
        err = np.abs(got - want)
        tol = rtol * (np.abs(want) + gscale) + RTOL[prog.precision] * scale + FD_SLACK * unc
        if (err > tol).any():
            i = np.unravel_index(int(np.argmax(err - tol)), err.shape) if err.ndim else ()
            raise fail(prog, order, f"compiled gradient of {prog.inputs[k].var.name} vs "
                       f"central finite differences (float64): at {tuple(map(int, i))} "
                       f"{got[i]!r} vs {want[i]!r} (tolerance {tol[i]:.3g})")


def _central(f, args: list, k: int, direction: np.ndarray, h: float) -> tuple[float, float]:
    """The derivative of ``f`` along ``direction`` in argument ``k`` with steps h and 2h."""
    d = []
    for step in (h, 2 * h):
        hi = f(args[:k] + [args[k] + step * direction] + args[k + 1:])
        lo = f(args[:k] + [args[k] - step * direction] + args[k + 1:])
        d.append((hi - lo) / (2 * step))
    return d[0], d[1]


def _directional(prog: Program, order: int, f, args: list, grads: list, scale: float) -> None:
    """Compare ``g . v`` with finite differences along random directions ``v``."""
    rng = np.random.default_rng(prog.seed)
    rtol = FD_RTOL[prog.precision]
    for k, g in enumerate(grads):
        if not g.size:
            continue
        h = FD_STEP * max(1.0, float(np.abs(args[k]).max()))
        for _ in range(FD_DIRECTIONS):
            v = rng.standard_normal(g.shape)
            d1, d2 = _central(f, args, k, v, h)
            got = float(np.sum(g * v))
            norm_v = float(np.linalg.norm(v))
            tol = rtol * (abs(d1) + float(np.linalg.norm(g)) * norm_v / math.sqrt(g.size)) + \
                RTOL[prog.precision] * scale * norm_v + FD_SLACK * abs(d1 - d2)
            if abs(got - d1) > tol:
                raise fail(prog, order, f"compiled gradient of {prog.inputs[k].var.name} along a "
                           f"random direction vs central finite differences (float64): {got!r} "
                           f"vs {d1!r} (tolerance {tol:.3g})")


def finite_differences(f, args: list, n_in: int) -> tuple[list, list]:
    """d f / d args[k] for k < n_in by central differences, element by element, with steps h
    and 2h: the h estimate and |D(h) - D(2h)| per element."""
    grads, uncertainty = [], []
    for k in range(n_in):
        x = args[k]
        g, u = np.zeros(x.shape), np.zeros(x.shape)
        for i in np.ndindex(*x.shape):
            e = np.zeros(x.shape)
            e[i] = 1.0
            d1, d2 = _central(f, args, k, e, FD_STEP * max(1.0, abs(float(x[i]))))
            g[i], u[i] = d1, abs(d1 - d2)
        grads.append(g)
        uncertainty.append(u)
    return grads, uncertainty
