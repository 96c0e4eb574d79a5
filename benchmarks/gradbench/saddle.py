"""GradBench ``saddle``: a saddle point by nested gradient descent (Pearlmutter and Siskind's
benchmark for nested AD).

With f(p1, p2) = (p1_0^2 + p1_1^2) - (p2_0^2 + p2_1^2), find r1 = argmin over p1 of
max over p2 of f(p1, p2), then r2 = argmax over p2 of f(r1, p2); the output is (r1, r2), four
numbers, from the start point s = (1, 1) for every descent. The inner max is itself a
gradient descent, so the outer descent differentiates through it (nested AD). Every descent
is GradBench's solver (``cpp/gradbench/gd.hpp``, ``tools/futhark/solver.fut``): step size
eta from 1e-5, stop when |grad| <= 1e-5 or a step would move x by at most 1e-5, double eta
after 10 accepted steps in a row, halve it (and restart the count) when a step does not
lower f; the gradient is evaluated at accepted points only; argmax is argmin of -f.

Functions (the eval's four variants, same output): ``ff``, ``fr``, ``rf``, ``rr``: the outer
gradient (of the inner max, with respect to p1; also used for r2) in forward (f) or reverse
(r) mode, then the inner gradient (of f with respect to p2) in forward or reverse mode.
Forward mode computes a gradient from one JVP per coordinate (``jacfwd``: the JVPs batched).
About 170 descent steps each, so ~53,000 (rr) to ~79,000 (ff) inner steps per call.

Each system's gradients are its ``grad`` and ``jacfwd`` (``torch.func``'s for torch). torch
runs eagerly, the solver a Python ``while`` loop: 30 to 100 s per call, so torch runs only
under ``--full`` and the default run checks against GradBench's expected output. JAX and
symgrad: the solver as a ``while_loop`` whose body selects with ``where`` and evaluates the
gradient under a ``cond`` (only on accepted steps), all inside one ``jax.jit`` /
``sg.compile``. JAX cannot differentiate a
``lax.while_loop`` in reverse mode, so for ``rf`` and ``rr`` its inner descent is a bounded
loop (``lax.scan`` of ``MAX_STEPS`` steps, each a ``lax.cond`` that stops stepping once the
descent is done), the usual JAX workaround; symgrad's ``while_loop`` has a reverse mode.

symgrad's rows use its natural spelling: the solver's body with Python ``if``s
(``symgrad_if_argmin``, lowered to nested ``sg.cond``s). (Until passes.control_flow simplified
each body once per call, nested descents made that compile run out of memory; the where/cond
body above, ``lax_argmin``, was the workaround.)

Inputs: the eval's single input (``evals/saddle/run.py``): start = (1, 1).
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

NAME = "saddle"
FUNCTIONS = ("rr", "ff", "fr", "rf")
# GradBench's validator output for start = (1, 1) (evals/saddle/run.py).
EXPECTED = {fn: np.full(4, 8.246324826140356e-06) for fn in FUNCTIONS}
DEFAULT_SKIP = {"torch": "eager torch.func takes 30-100 s per call; run with --full"}
# JAX's bounded inner loop for the reverse variants: about 170 steps are needed.
MAX_STEPS = 1000
NOTES = {fn: f"JAX: the inner descent is a bounded lax.scan of {MAX_STEPS} steps (JAX has no "
         "reverse mode for lax.while_loop)" for fn in ("rr", "rf")}
TOL, ETA0 = 1e-5, 1e-5


def configs(full: bool) -> list[tuple[str, dict]]:
    return [("start=(1,1)", {})]


def inputs() -> dict:
    return {"start": np.array([1.0, 1.0])}


def objective(p1, p2):
    return (p1[0] ** 2 + p1[1] ** 2) - (p2[0] ** 2 + p2[1] ** 2)


# ---------------------------------------------------------------- torch

def torch_argmin(f, grad, x):
    """GradBench's descent as a Python loop (eager: the conditions are read as bools)."""
    import torch
    norm = torch.linalg.vector_norm
    g = grad(f)
    fx, gx, eta, i = f(x), g(x), ETA0, 0
    while True:
        if norm(gx) <= TOL:
            return x
        if i == 10:
            eta, i = 2 * eta, 0
            continue
        xp = x - eta * gx
        if norm(x - xp) <= TOL:
            return x
        fxp = f(xp)
        if fxp < fx:
            x, fx, gx, i = xp, fxp, g(xp), i + 1
        else:
            eta, i = eta / 2, 0


def torch_grads() -> dict:
    """'r': reverse mode; 'f': forward mode (one JVP per coordinate, batched)."""
    from torch.func import grad, jacfwd
    return {"r": grad, "f": jacfwd}


def torch_impl(inp: dict) -> dict:
    import torch
    grads = torch_grads()

    def saddle(outer, inner):
        start = torch.from_numpy(inp["start"])

        def inner_max(p1):
            return objective(p1, torch_argmin(lambda p2: -objective(p1, p2), inner, start))
        r1 = torch_argmin(inner_max, outer, start)
        r2 = torch_argmin(lambda p2: -objective(r1, p2), outer, start)
        return torch.cat([r1, r2]).numpy()
    return {fn: (lambda fn=fn: saddle(grads[fn[0]], grads[fn[1]])) for fn in FUNCTIONS}


# ---------------------------------------------------------------- JAX and symgrad

def lax_argmin(ops, f, g, x, loop):
    """GradBench's descent as a ``while_loop`` (``loop``): each step selects with ``where``
    and evaluates the gradient under a ``cond``, at accepted points only. ``ops``: the
    system's ``where``, ``cond``, ``norm`` and ``scalar(value, like)``."""
    where = ops.where

    def step(state):
        x, fx, gx, eta, i, _ = state
        double = i == 10
        xp = x - eta * gx
        fxp = f(xp)
        done = (ops.norm(gx) <= TOL) | (~double & (ops.norm(x - xp) <= TOL))
        accept = ~done & ~double & (fxp < fx)
        reject = ~done & ~double & ~(fxp < fx)
        gx = ops.cond(accept, g, lambda z: gx, xp)
        return (where(accept, xp, x), where(accept, fxp, fx), gx,
                where(double, 2 * eta, where(reject, eta / 2, eta)),
                where(double | reject, 0, where(accept, i + 1, i)), ~done)
    state = (x, f(x), g(x), ops.scalar(ETA0, x), ops.scalar(0, None), ops.scalar(True, None))
    return loop(lambda s: s[5], step, state)[0]


def symgrad_if_argmin(f, g, x):
    """GradBench's descent written the natural symgrad way: a ``while_loop`` whose body
    returns from Python ``if``s (symgrad lowers them to nested ``sg.cond``s). Used by
    ``particle`` and ``saddle``."""
    import symgrad as sg
    norm = sg.linalg.vector_norm

    def step(state):
        x, fx, gx, eta, i, _ = state
        if norm(gx) <= TOL:
            return x, fx, gx, eta, i, False
        if i == 10:
            return x, fx, gx, 2 * eta, 0, True
        xp = x - eta * gx
        if norm(x - xp) <= TOL:
            return x, fx, gx, eta, i, False
        fxp = f(xp)
        if fxp < fx:
            return xp, fxp, g(xp), eta, i + 1, True
        return x, fx, gx, eta / 2, 0, True
    state = (x, f(x), g(x), sg.tensor(ETA0, dtype=x.dtype), 0, True)
    return sg.while_loop(lambda s: s[5], step, state)[0]


def jax_ops(max_steps: int = MAX_STEPS):
    import jax
    import jax.numpy as jnp

    def bounded_while(cond_fun, body_fun, state):
        def step(s, _):
            return jax.lax.cond(cond_fun(s), body_fun, lambda t: t, s), None
        return jax.lax.scan(step, state, None, length=max_steps)[0]

    def scalar(value, like):
        return jnp.asarray(value, None if like is None else like.dtype)
    return SimpleNamespace(where=jnp.where, cond=jax.lax.cond, norm=jnp.linalg.norm,
                           scalar=scalar, grads={"r": jax.grad, "f": jax.jacfwd},
                           while_loop=jax.lax.while_loop, bounded_while=bounded_while)


def jax_impl(inp: dict) -> dict:
    import jax
    import jax.numpy as jnp
    ops = jax_ops()

    def saddle(start, outer, inner):
        g0, g1 = ops.grads[outer], ops.grads[inner]
        # reverse mode through the inner descent needs a loop JAX can reverse
        inner_loop = ops.bounded_while if outer == "r" else ops.while_loop

        def inner_max(p1):
            f = lambda p2: -objective(p1, p2)
            return objective(p1, lax_argmin(ops, f, g1(f), start, inner_loop))
        r1 = lax_argmin(ops, inner_max, g0(inner_max), start, ops.while_loop)
        f2 = lambda p2: -objective(r1, p2)
        r2 = lax_argmin(ops, f2, g0(f2), start, ops.while_loop)
        return jnp.concatenate([r1, r2])

    fns = {fn: jax.jit(lambda s, fn=fn: saddle(s, fn[0], fn[1])) for fn in FUNCTIONS}
    return {fn: (lambda fn=fn: np.asarray(fns[fn](inp["start"]))) for fn in FUNCTIONS}


def symgrad_ops():
    import symgrad as sg

    def scalar(value, like):
        return sg.tensor(value, dtype=None if like is None else like.dtype)
    return SimpleNamespace(where=sg.where, cond=sg.cond, norm=sg.linalg.vector_norm,
                           scalar=scalar, grads={"r": sg.grad, "f": sg.jacfwd},
                           while_loop=sg.while_loop)


def symgrad_impl(inp: dict) -> dict:
    import symgrad as sg
    ops = symgrad_ops()

    def saddle(start, outer, inner):
        g0, g1 = ops.grads[outer], ops.grads[inner]

        def inner_max(p1):
            f = lambda p2: -objective(p1, p2)
            return objective(p1, symgrad_if_argmin(f, g1(f), start))
        r1 = symgrad_if_argmin(inner_max, g0(inner_max), start)
        f2 = lambda p2: -objective(r1, p2)
        r2 = symgrad_if_argmin(f2, g0(f2), start)
        return sg.cat([r1, r2])

    fns = {fn: sg.compile(lambda s, fn=fn: saddle(s, fn[0], fn[1])) for fn in FUNCTIONS}
    return {fn: (lambda fn=fn: fns[fn](inp["start"])) for fn in FUNCTIONS}
