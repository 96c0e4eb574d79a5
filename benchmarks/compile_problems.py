"""The problems of ``make bench-compile``, each a compiled function and its arguments.

Benchmark helper. Input: a problem's name. Output: ``PROBLEMS[name]()`` -> ``(fn, args)``, fn
symgrad's compiled function (built when called, not before), and ``GROUPS``: the problems by
the target of issue 27 for their cold first call.

* ``rk4 N``: an unrolled RK4 of a damped pendulum written with small vector ops (``u[0]``,
  ``u[1]``, ``sg.stack``), N = 10, 100, 400 steps: the graph grows linearly with N;
* ``ode``: the benchmark suite's ODE problem (200 RK4 steps on scalars, ``problems/ode.py``),
  unrolled by Python; ``ode_fori``: the same with ``sg.fori_loop`` and the step count a runtime
  argument (``loops.py``);
* ``det7``: the determinant of a 7x7 matrix by cofactor expansion along the first row,
  recursive Python on tensors (each minor is the ``sg.cat`` of the column slices left and right
  of the expanded column): 13,699 recursive calls;
* ``det7_flat``: the same expansion in GradBench's ``det`` layout (cmpad's det_by_minor): the
  matrix as a flat 49-vector, each entry read as ``x[i * 7 + j]``, minors as column lists;
* ``seed``, ``logreg``, ``mlp``, ``elementwise``, ``rosenbrock``, ``nbody``: the ``make bench``
  problems (``problems/``) at their first size;
* ``lstm2_1024``: ADBench's LSTM objective (``loops.py``: 2 layers, 14-bit characters) as an
  ``sg.scan`` of exactly 1024 steps (1025 characters), gradient w.r.t. all weights;
* ``mlp10_vmap_grad``: per-example gradients, ``vmap(grad(loss))``, of a 10-layer tanh MLP
  (64 inputs, nine hidden layers of 64, 10 classes; cross-entropy of one example), batch 128,
  float32: ``derivatives.py``'s per-example problem made deep.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
H = 0.01

# The targets of issue 27 (seconds, the cold first call), and the problems under each.
GROUPS = (
    ("small: the make bench problems", 0.1,
     ("seed", "logreg", "mlp", "elementwise", "rosenbrock", "nbody", "ode_fori")),
    ("large", 1.0, ("det7", "rk4_400", "lstm2_1024", "mlp10_vmap_grad")),
    ("scaling series (no target in issue 27)", None, ("rk4_10", "rk4_100", "ode", "det7_flat")),
)


def rk4_loss(ns, steps: int):
    """The unrolled RK4 loss on the tensor module ``ns`` (symgrad, torch, jax.numpy: ``ns.stack``,
    ``ns.sin``): ``compile_peers.py`` runs the same function under torch and JAX."""
    def f(u, p):
        return ns.stack([u[1], -p[0] * ns.sin(u[0]) - p[1] * u[1]])

    def loss(u0, p):
        u = u0
        for _ in range(steps):
            k1 = f(u, p)
            k2 = f(u + H / 2 * k1, p)
            k3 = f(u + H / 2 * k2, p)
            k4 = f(u + H * k3, p)
            u = u + H / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        return (u * u).sum()
    loss.__name__ = f"rk4_{steps}"
    return loss, [np.array([1.0, 0.5]), np.array([9.81, 0.3])]


def rk4(steps: int):
    import symgrad as sg
    loss, args = rk4_loss(sg, steps)
    return sg.value_and_grad(loss, argnums=(0, 1)), args


def det_fn(columns, n: int):
    """The cofactor determinant; ``columns(parts)`` joins matrices side by side (symgrad's or
    torch's ``cat(parts, dim=1)``, JAX's ``concatenate(parts, axis=1)``)."""
    def d(a):
        m = a.shape[0]
        if m == 1:
            return a[0, 0]
        total = None
        for j in range(m):
            parts = [p for p in (a[1:, :j], a[1:, j + 1:]) if p.shape[1]]
            minor = columns(parts) if len(parts) > 1 else parts[0]
            term = a[0, j] * d(minor)
            total = term if total is None else (total + term if j % 2 == 0 else total - term)
        return total

    def detf(a):
        return d(a)
    detf.__name__ = f"det{n}"
    return detf, [np.random.default_rng(0).standard_normal((n, n))]


def det(n: int):
    import symgrad as sg
    detf, args = det_fn(lambda parts: sg.cat(parts, dim=1), n)
    return sg.value_and_grad(detf), args


def det_flat_fn(n: int):
    """GradBench's det layout: works on any tensor type (indexing and arithmetic only)."""
    def detf(x):
        def minor(i, cols):
            if len(cols) == 1:
                return x[i * n + cols[0]]
            total = None
            for k, j in enumerate(cols):
                term = x[i * n + j] * minor(i + 1, cols[:k] + cols[k + 1:])
                total = term if total is None else (total + term if k % 2 == 0 else total - term)
            return total
        return minor(0, tuple(range(n)))
    detf.__name__ = f"det{n}_flat"
    return detf, [np.random.default_rng(0).standard_normal(n * n)]


def det_flat(n: int):
    import symgrad as sg
    detf, args = det_flat_fn(n)
    return sg.value_and_grad(detf), args


def bench_problem(name: str):
    """A ``make bench`` problem at its first size, as ``run.py`` builds it."""
    sys.path.insert(0, str(HERE))
    import problems
    module = problems.load(name)
    args = module.inputs(module.SIZES[0])
    return module.symgrad(args), args


def ode_fori():
    sys.path.insert(0, str(HERE))
    import loops
    return loops.ode_fori()


def lstm(layers: int = 2, steps: int = 1024):
    """``loops.lstm`` with a sequence of ``steps + 1`` characters: a scan of ``steps`` steps."""
    sys.path.insert(0, str(HERE))
    import loops
    import symgrad as sg
    assert layers == loops.LSTM_L, "loops.lstm_objective has its layer count built in"
    b = loops.LSTM_B
    rng = np.random.default_rng(0)
    main = rng.uniform(-0.5, 0.5, (2 * layers, 4 * b))
    extra = rng.uniform(-0.5, 0.5, (3, b))
    state = rng.uniform(-0.5, 0.5, (2 * layers, b))
    seq = (rng.uniform(size=(steps + 1, b)) < 0.5).astype(np.float64)

    class NS:
        concatenate, tanh, log, exp, stack = sg.cat, sg.tanh, sg.log, sg.exp, sg.stack

    def lstm_loss(main, extra, state, seq):
        return loops.lstm_objective(NS, sg.scan, sg.sigmoid, main, extra, state, seq)
    return sg.value_and_grad(lstm_loss, argnums=(0, 1)), [main, extra, state, seq]


def mlp_vmap_grad(layers: int = 10, width: int = 64, batch: int = 128):
    import symgrad as sg
    rng = np.random.default_rng(0)
    dt = np.float32
    sizes = [width] * layers + [10]
    params = {}
    for k in range(layers):
        params[f"w{k}"] = (rng.normal(size=(sizes[k], sizes[k + 1])) / np.sqrt(sizes[k])
                           ).astype(dt)
        params[f"b{k}"] = (0.1 * rng.normal(size=sizes[k + 1])).astype(dt)
    x = rng.normal(size=(batch, width)).astype(dt)
    y = rng.integers(0, 10, size=batch)

    def loss(p, xi, yi):
        h = xi
        for k in range(layers - 1):
            h = sg.tanh(h @ p[f"w{k}"] + p[f"b{k}"])
        logits = h @ p[f"w{layers - 1}"] + p[f"b{layers - 1}"]
        return sg.logsumexp(logits, 0) - logits[yi]
    return sg.vmap(sg.grad(loss), in_axes=(None, 0, 0)), [params, x, y]


PROBLEMS = {"rk4_10": lambda: rk4(10), "rk4_100": lambda: rk4(100),
            "rk4_400": lambda: rk4(400), "ode": lambda: bench_problem("ode"),
            "det7": lambda: det(7), "det7_flat": lambda: det_flat(7),
            **{n: (lambda n=n: bench_problem(n))
               for n in ("seed", "logreg", "mlp", "elementwise", "rosenbrock", "nbody")},
            "ode_fori": ode_fori, "lstm2_1024": lstm, "mlp10_vmap_grad": mlp_vmap_grad}


def target(name: str):
    """(group title, target seconds or None) of a problem."""
    for title, seconds, names in GROUPS:
        if name in names:
            return title, seconds
    return GROUPS[-1][0], None


def leaves(tree) -> list:
    """The arrays of a result, depth first (dicts by sorted key), as float64 NumPy arrays."""
    if isinstance(tree, dict):
        return [a for k in sorted(tree) for a in leaves(tree[k])]
    if isinstance(tree, (tuple, list)):
        return [a for t in tree for a in leaves(t)]
    return [np.asarray(tree, dtype=np.float64)]
