"""Value-changing rewrites, run only when a function is compiled with ``fast_math=True``.

Layer: passes. Graph -> Graph (the pass ``apply_fast_math``), by a bounded fixpoint of
``rewrite.fixpoint``, as ``apply_identities``. Unlike the exact identities, every rule here may
change results: in the last bits (one rounding instead of two), at the edges of the domain
(overflow, underflow, values where the original was NaN) or in the sign of a zero. Each rule's
docstring says how. Results on benign inputs stay within a few ulps of the IEEE ones.

``fast_math`` is about the graph only: it never changes the C compiler's flags (no
-ffast-math), so the C that runs still does IEEE arithmetic, operation by operation.

Deliberately absent (wrong far beyond rounding): ``x * 0 -> 0`` (Inf and NaN give NaN),
``x - x -> 0`` (same), ``sqrt(x * x) -> x`` (it is |x|, and x * x overflows).
"""

from __future__ import annotations

import numpy as np

from ..ir import Graph, Node
from .rewrite import first_rule, fixpoint, on
from .identities import scalar_const
from ..dims import same_shape


def _value(node: Node):
    """The scalar constant ``node`` holds everywhere (as a Python number), or None."""
    c = scalar_const(node)
    return None if c is None else c.attr("value")


def _scalar(value, like: Node) -> Node:
    return Node("const", (("value", value),), (), like.dtype, ())


def _split_const(n: Node):
    """``(x, c)`` for a binary node with one non-constant operand x and one scalar constant
    c (in either order), or None."""
    a, b = n.inputs
    if _value(b) is not None and _value(a) is None:
        return a, _value(b)
    if _value(a) is not None and _value(b) is None:
        return b, _value(a)
    return None


@on("log")
def log_of_exp(n):
    """log(exp(x)) -> x. Changes values: exp overflows to Inf above ~709.8 (f64) / ~88.7
    (f32) and underflows to 0 below ~-745 / ~-103, where log(exp(x)) is Inf / -Inf; the two
    roundings of exp and log are dropped."""
    if n.op == "log" and n.inputs[0].op == "exp":
        return n.inputs[0].inputs[0]


@on("exp")
def exp_of_log(n):
    """exp(log(x)) -> x. Changes values: drops log's domain check, so x < 0 gives x where
    it gave NaN; the two roundings of log and exp are dropped."""
    if n.op == "exp" and n.inputs[0].op == "log":
        return n.inputs[0].inputs[0]


@on("add")
def add_zero(n):
    """x + 0 -> x (0 of either sign, on either side). Changes values: -0.0 + 0.0 is +0.0,
    the rewrite gives -0.0."""
    if n.op == "add":
        split = _split_const(n)
        if split is not None and split[1] == 0 and same_shape(split[0].shape, n.shape):
            return split[0]


def _reassociate(n, op: str, combine):
    """(x op c1) op c2 -> x op (c1 op c2) for scalar constants, c1 op c2 folded in the dtype."""
    if n.op == op and n.dtype.is_floating:
        outer = _split_const(n)
        if outer is not None and outer[0].op == op:
            inner = _split_const(outer[0])
            if inner is not None and same_shape(inner[0].shape, n.shape):
                with np.errstate(all="ignore"):
                    c = combine(np.asarray(inner[1], n.dtype.np),
                                np.asarray(outer[1], n.dtype.np)).item()
                return Node(op, (), (inner[0], _scalar(c, n)), n.dtype, n.shape)


@on("mul")
def reassociate_mul(n):
    """(x * c1) * c2 -> x * (c1 * c2) for scalar constants, c1 * c2 folded in the dtype.
    Changes values: one rounding instead of two, and x * c1 may overflow or underflow where
    x * (c1 * c2) does not (or c1 * c2 itself may overflow or underflow)."""
    return _reassociate(n, "mul", np.multiply)


@on("add")
def reassociate_add(n):
    """(x + c1) + c2 -> x + (c1 + c2) for scalar constants, c1 + c2 folded in the dtype.
    Changes values: one rounding instead of two, and cancellation: (x + 1e20) + -1e20 is 0
    for x = 1, the rewrite gives 1."""
    return _reassociate(n, "add", np.add)


@on("div")
def div_by_const(n):
    """x / c -> x * (1 / c) for a finite nonzero scalar constant c, 1 / c folded in the
    dtype. Changes values: 1 / c is rounded (x / 3 and x * (1/3) differ in the last bit for
    some x; for c a power of two it is exact), and 1 / c overflows for tiny subnormal c."""
    if n.op == "div" and n.dtype.is_floating:
        x, d = n.inputs
        c = _value(d)
        if c is not None and _value(x) is None and same_shape(x.shape, n.shape) and c != 0 \
                and np.isfinite(c):
            with np.errstate(all="ignore"):
                r = np.divide(np.asarray(1, n.dtype.np), np.asarray(c, n.dtype.np)).item()
            return Node("mul", (), (x, _scalar(r, n)), n.dtype, n.shape)


RULES = (log_of_exp, exp_of_log, add_zero, reassociate_mul, reassociate_add, div_by_const)

_apply_rules = first_rule(RULES)


def apply_fast_math(graph: Graph) -> Graph:
    """Apply the value-changing rewrites (only under ``fast_math=True``) to a fixpoint."""
    return fixpoint(graph, _apply_rules)
