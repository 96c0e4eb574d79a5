"""Random expressions for the staleness fuzzer: a small grammar over symgrad ops.

An expression is a tree of tuples over the function's argument ``x`` (a 1-D or 2-D tensor),
the dependency under test (``("dep",)``, rendered as the kind's source text: a global's name,
``cfgmodule.ALPHA``, ``float(os.environ[...])``...) and float literals:

    ("x",)  ("dep",)  ("const", 1.25)  ("un", name, child)  ("bin", op, left, right)
    ("red", how, child)       # a scalar (sum, mean, a dot product), broadcast back

``render`` gives Python source; ``mutate`` gives a tree that differs in exactly one op (the
"code" kinds' variant B; the "constant" kind changes a literal instead). Values stay small
(x in [-1, 1], dependencies in [0.5, 2]) so that nothing overflows or saturates: a pair whose
variants compute the same numbers tests nothing, and the harness reports it as a failure.
"""

from __future__ import annotations

import random

# name -> source template of a unary node ({} is the child)
UNARY = {
    "sin": "sg.sin({})", "cos": "sg.cos({})", "tanh": "sg.tanh({})",
    "exp": "sg.exp(0.5 * {})", "sigmoid": "sg.sigmoid({})", "square": "({}) ** 2",
    "cube": "({}) ** 3", "log1p": "sg.log1p(({}) ** 2)", "softplus": "(1.5 + sg.tanh({})) ** 1.5",
}
BINARY = ("+", "-", "*")
# reduction -> source template (1-D ``x`` only for the dot product: a matmul of two vectors)
REDUCE = {"sum": "({}).sum()", "mean": "({}).mean()", "dot": "sg.matmul({0}, {0})"}
# One op's replacement in ``mutate`` (each differs numerically from the original).
SWAP_UNARY = {"sin": "cos", "cos": "sin", "tanh": "sin", "exp": "tanh", "sigmoid": "tanh",
              "square": "cube", "cube": "square", "log1p": "softplus", "softplus": "exp"}
SWAP_BINARY = {"+": "*", "-": "+", "*": "-"}
SWAP_REDUCE = {"sum": "mean", "mean": "sum", "dot": "sum"}


def const(rng: random.Random) -> float:
    return round(rng.uniform(0.3, 1.7), 3)


def tree(rng: random.Random, depth: int, dep: bool, matrix: bool = False) -> tuple:
    """A random tree of at most ``depth`` levels; ``dep``: it must use the dependency (it
    always uses ``x``). ``matrix``: ``x`` is 2-D (no dot product)."""
    t = _grow(rng, depth, matrix)
    if not dep:
        t = _without_dep(rng, t)
    if not _uses(t, "x"):
        t = ("bin", rng.choice(BINARY), t, ("x",))
    if dep and not _uses(t, "dep"):
        t = ("bin", rng.choice(("+", "*")), t, ("dep",)) if rng.random() < 0.5 \
            else ("bin", rng.choice(("+", "*")), ("dep",), t)
    return t


def _grow(rng: random.Random, depth: int, matrix: bool) -> tuple:
    roll = rng.random()
    if depth <= 0 or roll < 0.2:
        return rng.choice([("x",), ("x",), ("dep",), ("const", const(rng))])
    if roll < 0.55:
        return ("un", rng.choice(sorted(UNARY)), _of_x(rng, _grow(rng, depth - 1, matrix)))
    if roll < 0.9:
        return ("bin", rng.choice(BINARY), _grow(rng, depth - 1, matrix),
                _grow(rng, depth - 1, matrix))
    how = rng.choice(["sum", "mean"] if matrix else ["sum", "mean", "dot"])
    child = _of_x(rng, _grow(rng, depth - 1, matrix))
    if how == "dot" and not _full(child):     # (a matmul of vectors, not of scalars)
        child = ("bin", rng.choice(BINARY), child, ("x",))
    return ("red", how, child)


def _full(t: tuple) -> bool:
    """Whether ``t`` has ``x``'s shape (it uses ``x`` outside every reduction)."""
    if t[0] in ("x", "un", "bin"):
        return t[0] == "x" or any(_full(c) for c in t[2:])
    return False


def _without_dep(rng: random.Random, t: tuple) -> tuple:
    if t[0] == "dep":
        return ("const", const(rng))
    return tuple(_without_dep(rng, c) if isinstance(c, tuple) else c for c in t)


def _of_x(rng: random.Random, t: tuple) -> tuple:
    """``t``, made a tensor (it uses ``x``): symgrad's functions and reductions take tensors,
    a dependency may be a Python float."""
    return t if _uses(t, "x") else ("bin", rng.choice(BINARY), t, ("x",))


def _uses(t: tuple, leaf: str) -> bool:
    return t[0] == leaf or any(isinstance(c, tuple) and _uses(c, leaf) for c in t[1:])


def sensitive(t: tuple) -> tuple:
    """``t`` plus a term linear in the dependency and ``x``, so that another value of the
    dependency changes the result (and its gradient) wherever ``t`` saturates."""
    return ("bin", "+", t, ("bin", "*", ("const", 0.25), ("bin", "*", ("x",), ("dep",))))


def render(t: tuple, dep: str = "D", x: str = "x") -> str:
    """Python source of tree ``t``, the dependency written as ``dep``, the argument as ``x``."""
    head = t[0]
    if head == "x":
        return x
    if head == "dep":
        return dep
    if head == "const":
        return repr(t[1])
    if head == "un":
        return UNARY[t[1]].format(render(t[2], dep, x))
    if head == "bin":
        return f"({render(t[2], dep, x)} {t[1]} {render(t[3], dep, x)})"
    return REDUCE[t[1]].format(render(t[2], dep, x))


def through_x(t: tuple, rng: random.Random) -> tuple:
    """``t`` with each use of the dependency combined with ``x`` first (``(x * dep)``), so
    that an array dependency only ever meets symgrad's operators, never NumPy's."""
    if t[0] == "dep":
        return ("bin", rng.choice(("+", "*")), ("x",), t)
    return tuple(through_x(c, rng) if isinstance(c, tuple) else c for c in t)


def mutate(rng: random.Random, t: tuple) -> tuple:
    """A tree differing from ``t`` in one op on a path from ``x`` (so that the change reaches
    the result and its gradient); ``t`` gets an op first if it has none."""
    spots = list(_spots(t, ()))
    if not spots:
        t = ("un", rng.choice(sorted(UNARY)), t)
        spots = [()]
    path = rng.choice(spots)
    return t, _replace(t, path, lambda node: _changed(rng, node))


def _spots(t: tuple, path: tuple):
    if t[0] in ("un", "bin") and _uses(t, "x") or t[0] == "red" and _full(t[2]):
        yield path      # (a sum and a mean of a scalar are the same)
    for k, child in enumerate(t[1:], start=1):
        if isinstance(child, tuple):
            yield from _spots(child, path + (k,))


def _changed(rng: random.Random, node: tuple) -> tuple:
    if node[0] == "un":
        return ("un", SWAP_UNARY[node[1]], node[2])
    if node[0] == "bin":
        return ("bin", SWAP_BINARY[node[1]], node[2], node[3])
    return ("red", SWAP_REDUCE[node[1]], node[2])


def _replace(t: tuple, path: tuple, change) -> tuple:
    if not path:
        return change(t)
    k = path[0]
    return t[:k] + (_replace(t[k], path[1:], change),) + t[k + 1:]
