"""GradBench ``particle``: aim a charged particle by gradient descent through an ODE whose
right-hand side is itself a gradient (Pearlmutter and Siskind's benchmark for nested AD).

A particle of unit mass and charge starts at x = (0, 8) with velocity (0.75, 0) and moves in
the field of two fixed unit charges at (10, 10 - w) and (10, 0): its acceleration is minus
the gradient, with respect to x, of the potential p(x; w) = sum_c 1 / |x - c|. Naive Euler
steps of dt = 0.1 (x += dt x', x' += dt x'') run while the next position is above the x axis
(about 350 steps, a data-dependent trip count); the crossing point is then found by linear
interpolation along the velocity, x_f = x - (x_1 / x'_1) x', and the objective is x_f0^2.
The output is the w that minimizes it, found by GradBench's gradient descent (the solver of
``saddle``) from w = 0: about 90 descent steps, so ~59,000 Euler steps per call, each with a
gradient of p inside.

Functions (the eval's four variants, same output): ``ff``, ``fr``, ``rf``, ``rr``: the
descent's derivative of the objective with respect to w (through the whole Euler loop) in
forward (f) or reverse (r) mode, then the gradient of p in the Euler step in forward or
reverse mode.

Each system as in ``saddle``: torch eagerly, Python loops and ``torch.func`` (35 s (rr) to
235 s (ff) per call: only under ``--full``; the default run checks against GradBench's
expected output); JAX and symgrad with the Euler steps as a ``while_loop`` (its condition:
the next position is above the axis), all inside one ``jax.jit`` / ``sg.compile``. JAX's
descent is ``saddle``'s ``where``/``cond`` loop; symgrad's its natural spelling, the
body's Python ``if``s lowered to ``sg.cond`` (``saddle.symgrad_if_argmin``), which compiles
here: no descent is nested in another. For ``rf`` and ``rr`` JAX's Euler loop is a bounded
``lax.scan`` of ``MAX_STEPS`` steps (JAX has no reverse mode for ``lax.while_loop``).

Inputs: the eval's single input (``evals/particle/run.py``): w0 = 0.
"""

from __future__ import annotations

import numpy as np

from .saddle import jax_ops, lax_argmin, symgrad_if_argmin, symgrad_ops, torch_argmin, torch_grads

NAME = "particle"
FUNCTIONS = ("rr", "ff", "fr", "rf")
# GradBench's validator output for w0 = 0 (evals/particle/run.py).
EXPECTED = {fn: np.array(0.2071918746486116) for fn in FUNCTIONS}
# JAX's bounded Euler loop for the reverse variants: about 350 steps are needed.
MAX_STEPS = 1000
DEFAULT_SKIP = {"torch": "eager torch.func takes 35-235 s per call; run with --full"}
NOTES = {fn: f"JAX: the Euler loop is a bounded lax.scan of {MAX_STEPS} steps (JAX has no "
         "reverse mode for lax.while_loop)" for fn in ("rr", "rf")}
DT = 0.1


def configs(full: bool) -> list[tuple[str, dict]]:
    return [("w0=0", {})]


def inputs() -> dict:
    return {"w0": np.array([0.0])}


def euler(w, grad, loop, vec):
    """x_f0^2 after the Euler flight for charges at (10, 10 - w) and (10, 0): ``grad`` makes
    the potential's gradient, ``loop`` is a ``while_loop``, ``vec(a, b)`` a 2-vector."""
    charges = (vec(10.0, 10 - w), vec(10.0, 0.0))

    def potential(x):
        return sum(1 / ((x - c) ** 2).sum() ** 0.5 for c in charges)
    force = grad(potential)

    def above(state):
        x, v = state
        return x[1] + DT * v[1] > 0

    def step(state):
        x, v = state
        a = -force(x)
        return x + DT * v, v + DT * a
    x, v = loop(above, step, (vec(0.0, 8.0), vec(0.75, 0.0)))
    xf = x + (-x[1] / v[1]) * v
    return xf[0] ** 2


# ---------------------------------------------------------------- torch

def torch_impl(inp: dict) -> dict:
    import torch
    grads = torch_grads()

    def vec(a, b):
        return torch.stack([torch.as_tensor(a, dtype=torch.float64),
                            torch.as_tensor(b, dtype=torch.float64)])

    def loop(cond_fun, body_fun, state):
        while cond_fun(state):
            state = body_fun(state)
        return state

    def particle(outer, inner):
        f = lambda w: euler(w[0], inner, loop, vec)
        return torch_argmin(f, outer, torch.from_numpy(inp["w0"]))[0].numpy()
    return {fn: (lambda fn=fn: particle(grads[fn[0]], grads[fn[1]])) for fn in FUNCTIONS}


# ---------------------------------------------------------------- JAX

def jax_impl(inp: dict) -> dict:
    import jax
    import jax.numpy as jnp
    ops = jax_ops(MAX_STEPS)

    def vec(a, b):
        return jnp.stack([jnp.asarray(a, jnp.float64), jnp.asarray(b, jnp.float64)])

    def particle(w0, outer, inner):
        # reverse mode through the Euler loop needs a loop JAX can reverse
        loop = ops.bounded_while if outer == "r" else ops.while_loop
        f = lambda w: euler(w[0], ops.grads[inner], loop, vec)
        return lax_argmin(ops, f, ops.grads[outer](f), w0, ops.while_loop)[0]

    fns = {fn: jax.jit(lambda w, fn=fn: particle(w, fn[0], fn[1])) for fn in FUNCTIONS}
    return {fn: (lambda fn=fn: np.asarray(fns[fn](inp["w0"]))) for fn in FUNCTIONS}


# ---------------------------------------------------------------- symgrad

def symgrad_impl(inp: dict) -> dict:
    import symgrad as sg
    ops = symgrad_ops()

    def vec(a, b):
        return sg.stack([sg.as_tensor(a, dtype=sg.float64), sg.as_tensor(b, dtype=sg.float64)])

    def particle(w0, outer, inner):
        f = lambda w: euler(w[0], ops.grads[inner], sg.while_loop, vec)
        return symgrad_if_argmin(f, ops.grads[outer](f), w0)[0]

    fns = {fn: sg.compile(lambda w, fn=fn: particle(w, fn[0], fn[1])) for fn in FUNCTIONS}
    return {fn: (lambda fn=fn: fns[fn](inp["w0"])) for fn in FUNCTIONS}
