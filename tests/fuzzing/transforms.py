"""Forward mode and vmap of generated programs, checked against reverse mode and loops.

- ``check_jvp``: ``sg.jvp`` of ``loss`` (the program's outputs weighted and summed) along
  random tangents must equal ``sum_k <grad_k, u_k>`` from ``sg.value_and_grad``, whose
  gradients ``check_gradient`` holds to finite differences: forward mode (the transposed
  VJPs) against reverse mode.
- ``check_vmap``: ``sg.vmap(program)`` and ``sg.vmap(sg.grad(loss))`` over a batch of three
  perturbed copies of the inputs must equal a loop of the compiled program and gradient
  over the examples (each op's batching rule against running it per example).
"""

from __future__ import annotations

import numpy as np
from hypothesis import assume

import symgrad as sg

from .check import fail, probe_run
from .model import Program
from .policy import KINK_MARGIN, RTOL, mismatch

BATCH = 3


def check_jvp(prog: Program) -> None:
    probe = probe_run(prog, 1)
    assume(not probe.near(KINK_MARGIN))
    arrays = prog.input_arrays(1)
    n_in = len(prog.inputs)
    loss = prog.function("loss")
    rng = np.random.default_rng(prog.seed + 1)
    us = [rng.standard_normal(a.shape).astype(a.dtype) for a in arrays[:n_in]]
    _, grads = sg.value_and_grad(loss, argnums=prog.argnums)(*arrays)
    _, tangent = sg.jvp(lambda *xs: loss(*xs, *arrays[n_in:]), tuple(arrays[:n_in]),
                        tuple(us))
    terms = [np.asarray(g, np.float64) * u for g, u in zip(grads, us)]
    want = sum(float(np.sum(t)) for t in terms)
    if not np.isfinite(want):
        return
    scale = sum(float(np.sum(np.abs(t))) for t in terms) + probe.scale
    tol = 50 * RTOL[prog.precision] * scale
    if abs(float(tangent) - want) > tol:
        raise fail(prog, 1, f"jvp of loss {float(tangent)!r} vs <grad, u> {want!r} "
                   f"(tolerance {tol:.3g})")


def _batch(arrays: list, seed: int) -> list:
    """Each array stacked with two perturbed copies (integers and bools repeated)."""
    rng = np.random.default_rng(seed)
    out = []
    for a in arrays:
        if a.dtype.kind == "f":
            copies = [a] + [a * (1 + 0.01 * rng.standard_normal(a.shape)).astype(a.dtype)
                            for _ in range(BATCH - 1)]
        else:
            copies = [a] * BATCH
        out.append(np.stack(copies))
    return out


def _agree(prog: Program, got, want, what: str, scale: float) -> None:
    got, want = [np.asarray(g) for g in got], [np.asarray(w) for w in want]
    for k, (g, w) in enumerate(zip(got, want)):
        why = mismatch(g, w, 10 * RTOL[prog.precision], scale)
        if why is not None:
            raise fail(prog, 1, f"{what}, value {k}: {why}")


def check_vmap(prog: Program) -> None:
    probe = probe_run(prog, 1)
    assume(not probe.near(KINK_MARGIN))
    arrays = prog.input_arrays(1)
    n_in = len(prog.inputs)
    batched = _batch(arrays[:n_in], prog.seed)
    program = prog.function("program")
    got = sg.vmap(program)(*batched)
    got = list(got) if isinstance(got, tuple) else [got]
    one = sg.compile(program)
    # (b[i, ...]: a 0-d array where b is 1-d, as vmap gives the function; b[i] would be a
    # NumPy scalar, which converts like a Python number and promotes like one)
    per = [one(*[b[i, ...] for b in batched]) for i in range(BATCH)]
    per = [list(p) if isinstance(p, tuple) else [p] for p in per]
    want = [np.stack([p[k] for p in per]) for k in range(len(got))]
    _agree(prog, got, want, "vmap(program) vs a loop", probe.scale)
    loss = prog.function("loss")
    in_axes = (0,) * n_in + (None,) * (len(arrays) - n_in)
    grads = sg.vmap(sg.grad(loss, argnums=prog.argnums), in_axes=in_axes)(
        *batched, *arrays[n_in:])
    g1 = sg.grad(loss, argnums=prog.argnums)
    per = [g1(*[b[i, ...] for b in batched], *arrays[n_in:]) for i in range(BATCH)]
    want = [np.stack([p[k] for p in per]) for k in range(n_in)]
    _agree(prog, list(grads), want, "vmap(grad(loss)) vs a loop", probe.scale)
