"""Algebraic identities that are exact in IEEE arithmetic, as a table of named local rules.

Layer: passes. Graph -> Graph (the pass ``apply_identities``), by a bounded fixpoint of
``rewrite.fixpoint``. Each rule maps a node to an equivalent node (or None when it does not
apply); its docstring says why it is exact. Only identities that give bit-identical results
belong here, with two documented kinds of exception: a sum of n equal terms becomes n * x, the
correctly rounded value of the exact sum (a sum's order of addition is not part of its meaning,
and no order of repeated addition beats that); and an outer product's zero may change sign.
Value-changing rewrites (reassociation, log(exp(x)) -> x, x + 0 -> x) live in ``fast_math``.

Deliberately absent: ``x + 0 -> x`` (-0.0 + 0.0 is +0.0), ``neg(sub(a, b)) -> sub(b, a)``
(-(0 - 0) is -0.0, 0 - 0 is +0.0), ``x * 0 -> 0`` and ``x - x -> 0`` (Inf and NaN).
"""

from __future__ import annotations

import math

import numpy as np

from ..dims import Dim, is_one, same_shape
from ..dtypes import int64
from ..ir import Graph, Node
from ..ops.elementwise import INTEGER_POWERS
from .rewrite import first_rule, fixpoint, on


def scalar_const(node: Node) -> Node | None:
    """The 0-d const that ``node`` holds at every element: the node itself, or seen through
    reshapes, expands and permutes of it (they only repeat or rearrange the one value).
    ``fold_constants`` puts such chains in the form ``expand(const)``; rules must not rely
    on that, since they may run before it."""
    while node.op in ("reshape", "expand", "permute"):
        node = node.inputs[0]
    return node if node.op == "const" and node.ndim == 0 else None


SCALAR_OPS = frozenset(("reshape", "expand", "permute", "const"))   # what scalar_const sees


def _const(node: Node, value: float) -> bool:
    """Whether ``node`` is ``value`` everywhere (a 0 must be +0.0, not -0.0)."""
    if node.op not in SCALAR_OPS:     # (most operands: no call to scalar_const)
        return False
    c = scalar_const(node)
    if c is None:
        return False
    v = c.attr("value")
    return v == value and not (value == 0 and math.copysign(1.0, v) < 0)


def _as(node: Node, x: Node) -> Node | None:
    """What replaces the elementwise ``node`` whose value is its operand ``x``: x itself if
    it has node's type, else x broadcast to node's shape (a view, no arithmetic); None if
    the dtypes differ."""
    if x.dtype is not node.dtype:
        return None
    if same_shape(x.shape, node.shape):
        return x
    return Node("expand", (("shape_to", node.shape),), (x,), node.dtype, node.shape)


@on("stop_gradient", "no_derivative")
def gradient_barrier(n):
    """stop_gradient(x), no_derivative(x) -> x: they are the value itself, and mark only how
    it is differentiated, which the trace has done before the passes run."""
    if n.op in ("stop_gradient", "no_derivative"):
        return n.inputs[0]


@on("mul")
def mul_by_one(n):
    """x * 1 -> x (broadcast to the product's shape if it is wider): IEEE multiplication
    by 1 returns x (also -0.0, Inf and NaN); the 1 may be broadcast, as the adjoint's seeds
    are (``mul(expand(1.0), t)``)."""
    if n.op == "mul":
        a, b = n.inputs
        if _const(b, 1):
            return _as(n, a)
        if _const(a, 1):
            return _as(n, b)


@on("div")
def div_by_one(n):
    """x / 1 -> x: IEEE division by 1 returns x."""
    if n.op == "div" and _const(n.inputs[1], 1):
        return _as(n, n.inputs[0])


@on("sub")
def sub_zero(n):
    """x - (+0.0) -> x: it is x + (-0.0), which is x for every x (-0.0 - 0.0 is -0.0)."""
    if n.op == "sub" and _const(n.inputs[1], 0):
        return _as(n, n.inputs[0])


@on("mul")
def mul_by_minus_one(n):
    """x * -1 -> -x: multiplying by -1 flips the sign bit only, as negation does (of a
    NaN result IEEE 754 leaves the sign unspecified; it stays a NaN)."""
    if n.op == "mul":
        a, b = n.inputs
        for x, c in ((a, b), (b, a)):
            if _const(c, -1) and same_shape(x.shape, n.shape) and x.dtype is n.dtype:
                return Node("neg", (), (x,), n.dtype, n.shape)


@on("neg")
def double_negation(n):
    """-(-x) -> x: negation flips the sign bit, twice is the identity."""
    if n.op == "neg" and n.inputs[0].op == "neg":
        return n.inputs[0].inputs[0]


@on("mul")
def negation_out_of_product(n):
    """(-a) * b -> -(a * b) and a * (-b) -> -(a * b): negation flips the sign bit only, and
    the product's sign is the xor of its operands' (of a NaN IEEE 754 leaves the sign
    unspecified). One canonical form, so that equal products are one node (CSE): forward
    mode's (-u) * x and u * (-x) meet."""
    if n.op == "mul":
        a, b = n.inputs
        for neg, other, first in ((a, b, True), (b, a, False)):
            if neg.op == "neg" and same_shape(neg.shape, n.shape) and \
                    same_shape(other.shape, n.shape):
                x = neg.inputs[0]
                inner = Node("mul", (), (x, other) if first else (other, x), n.dtype, n.shape)
                return Node("neg", (), (inner,), n.dtype, n.shape)


@on("add", "sub")
def subtract_negation(n):
    """x + (-y) -> x - y, (-x) + y -> y - x and x - (-y) -> x + y: IEEE subtraction is the
    addition of the negated operand (addition commutes exactly; of a NaN result IEEE 754
    leaves the sign unspecified). The negation that ``negation_out_of_product`` moves out of
    a product mostly lands in a sum: the backward of ``-p * f(u)`` adds ``-(g * p)``."""
    if n.op == "add" or n.op == "sub":
        a, b = n.inputs
        if b.op == "neg":
            return Node("sub" if n.op == "add" else "add", (), (a, b.inputs[0]), n.dtype,
                        n.shape)
        if n.op == "add" and a.op == "neg":
            return Node("sub", (), (b, a.inputs[0]), n.dtype, n.shape)


@on("add")
def double(n):
    """x + x -> x * 2: exact (doubling only raises the exponent; -0.0, Inf and NaN stay)."""
    if n.op == "add" and n.inputs[0] is n.inputs[1] and n.dtype.is_floating:
        two = Node("const", (("value", 2.0),), (), n.dtype, ())
        return Node("mul", (), (n.inputs[0], two), n.dtype, n.shape)


@on("pow")
def pow_small_integer(n):
    """x ** 0 -> 1, x ** 1 -> x, and torch's products for x ** 2, 3, -1, -2 of a real float x:
    x * x, (x * x) * x, 1 / x, 1 / (x * x) (``ops.elementwise.INTEGER_POWERS``: what torch
    and the op's NumPy reference compute, each product rounded). pow(x, 0) is 1 for every x,
    NaN included (C99 F.9.4.4, NumPy alike), which a second derivative of x ** 2 meets."""
    if n.op == "pow":
        x, e = n.inputs
        c = scalar_const(e)
        if c is not None and c.attr("value") == 0 and n.dtype.is_floating:
            one = Node("const", (("value", 1.0),), (), n.dtype, ())
            return one if not n.shape else \
                Node("expand", (("shape_to", n.shape),), (one,), n.dtype, n.shape)
        if _const(e, 1):
            return _as(n, x)
        if c is not None and c.attr("value") in INTEGER_POWERS and n.dtype.is_floating \
                and not n.dtype.is_complex and x.dtype is n.dtype \
                and same_shape(x.shape, n.shape):
            return _integer_power(x, int(c.attr("value")))


def _integer_power(x: Node, e: int) -> Node:
    """x ** e as torch multiplies it (``pow_small_integer``)."""
    def node(op: str, *inputs: Node) -> Node:
        return Node(op, (), inputs, x.dtype, x.shape)
    square = node("mul", x, x) if e != -1 else None
    if e == 2:
        return square
    if e == 3:
        return node("mul", square, x)
    one = Node("const", (("value", 1.0),), (), x.dtype, ())
    if x.shape:
        one = Node("expand", (("shape_to", x.shape),), (one,), x.dtype, x.shape)
    return node("div", one, x if e == -1 else square)


@on("reshape", "expand", "cast", "permute")
def identity_movement(n):
    """A reshape, expand or cast to the input's own type, or the identity permutation -> the
    input: it moves or converts nothing."""
    if n.op in ("reshape", "expand", "cast") and same_shape(n.inputs[0].shape, n.shape) \
            and n.inputs[0].dtype is n.dtype:
        return n.inputs[0]
    if n.op == "permute" and n.attr("perm") == tuple(range(n.ndim)):
        return n.inputs[0]


@on("reshape")
def reshape_chain(n):
    """reshape(reshape(x)) -> reshape(x): both keep the row-major element order."""
    if n.op == "reshape" and n.inputs[0].op == "reshape":
        return Node("reshape", n.attrs, n.inputs[0].inputs, n.dtype, n.shape)


@on("permute")
def permute_chain(n):
    """permute(permute(x, p), q) -> permute(x, p o q): moves elements only, composed."""
    if n.op == "permute" and n.inputs[0].op == "permute":
        inner, outer = n.inputs[0].attr("perm"), n.attr("perm")
        perm = tuple(inner[p] for p in outer)
        return Node("permute", (("perm", perm),), n.inputs[0].inputs, n.dtype, n.shape)


def _slice_node(x: Node, starts: tuple, steps: tuple, n: Node) -> Node:
    """``x[starts::steps]`` with ``n``'s shape (the stops follow from it): ``x`` itself when
    that takes every element of ``x`` in order, and composed at once with a slice or a cat
    that ``x`` is (so one rebuild folds a whole chain: the rules see rewritten inputs only)."""
    if same_shape(x.shape, n.shape) and not any(starts) and set(steps) <= {1}:
        return x
    stops = tuple(st + (d - 1) * sp + 1 if d else st for st, sp, d in zip(starts, steps, n.shape))
    node = Node("slice", (("starts", starts), ("steps", steps), ("stops", stops)), (x,),
                n.dtype, n.shape)
    return slice_of_slice(node) or slice_of_cat(node) or node


@on("slice")
def slice_of_slice(n):
    """slice(slice(x, w1), w2) -> slice(x, w): both pick elements of x, in order; the windows
    compose into one (start1 + start2 * step1, step1 * step2 per dim)."""
    if n.op == "slice" and n.inputs[0].op == "slice":
        inner = n.inputs[0]
        s1, p1 = inner.attr("starts"), inner.attr("steps")
        s2, p2 = n.attr("starts"), n.attr("steps")
        starts = tuple(a + b * step for a, b, step in zip(s1, s2, p1))
        return _slice_node(inner.inputs[0], starts, tuple(a * b for a, b in zip(p1, p2)), n)


@on("slice")
def slice_of_cat(n):
    """slice(cat(x1, .., xk), w) -> slice(xi, w shifted) when w's extent along the cat's axis
    lies within xi: it picks elements of xi only (reading the parts of a matrix that was put
    together from parts, as a determinant by minors does, reads the parts)."""
    if n.op != "slice" or n.inputs[0].op != "cat" or not n.size:
        return None
    cat = n.inputs[0]
    axis = cat.attr("axis")
    starts, steps = n.attr("starts"), n.attr("steps")
    first = starts[axis]
    last = first + (n.shape[axis] - 1) * steps[axis]
    offset = 0
    for x in cat.inputs:
        if offset <= first and last < offset + x.shape[axis]:
            shifted = tuple(s - offset if d == axis else s for d, s in enumerate(starts))
            return _slice_node(x, shifted, steps, n)
        offset += x.shape[axis]
    return None


def _exact_count_limit(dtype) -> int:
    """Every integer up to this one is exactly representable in the floating ``dtype``."""
    return 2 ** (np.finfo(dtype.np).nmant + 1)


@on("sum")
def sum_of_broadcast(n):
    """sum(expand(x)) over axes the expand broadcast (from size 1 or from missing leading
    dims) -> x * n, n the number of copies summed: a single multiplication by an exactly
    representable n gives the correctly rounded value of the exact sum n*x, which repeated
    addition does not (it rounds at each step; both agree for n <= 3); Inf and NaN stay Inf
    and NaN. Floating dtypes only."""
    if n.op != "sum" or n.inputs[0].op != "expand" or not n.dtype.is_floating or not n.size:
        return None
    e = n.inputs[0]
    x = e.inputs[0]
    axes = n.attr("axes")
    padded = (1,) * (e.ndim - x.ndim) + x.shape
    if any(padded[a] != 1 for a in axes):
        return None
    count = math.prod(e.shape[a] for a in axes)
    if not 1 <= count <= _exact_count_limit(n.dtype):
        return None
    y = x if padded == x.shape else Node("reshape", (("shape_to", padded),), (x,), x.dtype,
                                         padded)
    if isinstance(count, Dim):       # a call-time count: its value, converted
        size = Node("dim", (("size", count),), (), int64, ())
        c = Node("cast", (("dtype", n.dtype),), (size,), n.dtype, ())
        y = Node("mul", (), (y, c), n.dtype, padded)
    elif count > 1:
        c = Node("const", (("value", float(count)),), (), n.dtype, ())
        y = Node("mul", (), (y, c), n.dtype, padded)
    if not same_shape(y.shape, n.shape):
        y = Node("expand", (("shape_to", n.shape),), (y,), n.dtype, n.shape)
    return y


@on("where")
def where_same_branches(n):
    """where(c, x, x) -> x: both branches are the same value."""
    if n.op == "where" and n.inputs[1] is n.inputs[2]:
        return _as(n, n.inputs[1])


@on("where")
def where_constant_condition(n):
    """where(True, a, b) -> a and where(False, a, b) -> b: a constant condition selects the
    same branch everywhere (pow's gradient has where(exponent == 0, ...), a constant
    condition once the comparison of a constant exponent is folded)."""
    if n.op == "where":
        c = scalar_const(n.inputs[0])
        if c is not None:
            return _as(n, n.inputs[1] if c.attr("value") else n.inputs[2])


@on("matmul")
def outer_product(n):
    """matmul(a, b) contracting a dimension of length 1 -> a * b, broadcast (an outer
    product, as per-example gradients of a dense layer are): each result is the one
    product a[i] * b[j], a fused loop instead of a BLAS call per matrix. A matrix product
    sums from 0, so a zero product comes out +0.0 where the multiplication gives -0.0: the
    one bit this rule may change (the values compare equal)."""
    if n.op == "matmul" and is_one(n.inputs[0].shape[-1]):
        return Node("mul", (), n.inputs, n.dtype, n.shape)


@on("gather")
def extremum_at_its_index(n):
    """gather(x, argmin(x, axis), axis) -> min(x, axis) (argmax: max): the value at the first
    extremum is the extremum (at the first NaN, that NaN). A reduction, which fuses with the
    loop computing x, instead of an index pass and a gather over x stored (k-means' nearest
    distances, torch's ``dists.min(0).values``: 10,000 x 1,000 stored, then read twice). Only
    when a dim longer than 1 follows the axis: the loop then reduces in place, walking the
    axis in order with strict comparisons, so the first of equal values is kept (0.0 after
    -0.0 included), as the gather does; along the innermost dim the reduction runs in SIMD
    lanes (``codegen.c.loops``), which may keep the other zero."""
    if n.op != "gather":
        return None
    x, idx = n.inputs
    axis = n.attr("axis")
    if idx.op in ("argmin", "argmax") and idx.inputs[0] is x and idx.attr("axis") == axis \
            and tuple(idx.shape) == tuple(n.shape) and \
            any(not is_one(d) for d in x.shape[axis + 1:]):
        return Node("min" if idx.op == "argmin" else "max", (("axes", (axis,)),), (x,),
                    n.dtype, n.shape)
    return None


@on("reshape")
def gather_in_the_index_shape(n):
    """reshape(gather(F, broadcast(reshape(L, (N, 1)), (N, R)), 0), L.shape + rest) ->
    gather(X, J, 0) of that shape, X and J broadcasts of F and L (views): advanced indexing's
    gather (``frontend.functions.indexing``: the indexed dims flattened into F's rows, the
    index flattened to a column) in the shape its readers have, so that a loop computing the
    index and one reading the values fuse with it (``lower.fusion``: a gather is a loop node,
    its source read where the index points). The same elements, moved. After
    differentiation only: as traced, the broadcast source would make the gather's gradient
    (a scatter into X) as large as the index times F's rows."""
    g = n.inputs[0]
    if n.op != "reshape" or g.op != "gather" or g.attr("axis") != 0 or g.ndim != 2:
        return None
    (rows, width), i = g.inputs[0].shape, g.inputs[1]
    if i.op == "expand":
        i = i.inputs[0]
    if i.op != "reshape" or tuple(i.shape) != (g.shape[0], 1):
        return None
    lin = i.inputs[0]
    k = lin.ndim
    rest = tuple(n.shape[k:])
    # (call-time sizes first: comparing them would guard the shape-generic code)
    if any(isinstance(d, Dim) for d in n.shape + g.shape) or not k or \
            tuple(n.shape[:k]) != tuple(lin.shape) or math.prod(rest) != width:
        return None
    src = _moved("reshape", g.inputs[0], (rows,) + (1,) * (k - 1) + rest)
    src = _moved("expand", src, (rows,) + tuple(lin.shape[1:]) + rest)
    idx = _moved("expand", _moved("reshape", lin, tuple(lin.shape) + (1,) * len(rest)),
                 tuple(n.shape))
    return Node("gather", g.attrs, (src, idx), n.dtype, n.shape)


def _one_hot(n: Node):
    """(source, index, negated) of a (k, n) matrix holding, in column i, source[0, i] at row
    index[0, i] and zeros elsewhere (``scatter_add`` of a row into zeros along axis 0: the
    gradient of picking one element per column, as ``min(0).values`` does), possibly negated;
    else None."""
    negated = n.op == "neg"
    if negated:
        n = n.inputs[0]
    if n.op != "scatter_add" or n.attr("axis") != 0 or n.ndim != 2:
        return None
    src, idx = n.inputs
    if tuple(src.shape) != (1, n.shape[1]) or tuple(idx.shape) != (1, n.shape[1]) or \
            any(isinstance(d, Dim) for d in n.shape):
        return None
    return src, idx, negated


def _column(x: Node) -> Node:
    """A (1, n) row as an (n, 1) column (the same elements)."""
    return _moved("reshape", x, (x.shape[1], 1))


def _scattered(n: Node, src: Node, idx: Node, negated: bool) -> Node:
    width = n.shape[1]
    idx = _moved("expand", _column(idx), (idx.shape[1], width))
    out = Node("scatter_add", (("axis", 0), ("shape_to", tuple(n.shape))), (src, idx),
               n.dtype, n.shape)
    return Node("neg", (), (out,), n.dtype, n.shape) if negated else out


@on("matmul")
def one_hot_product(n):
    """one_hot(a, l) @ B -> rows a[i] * B[i] added into row l[i] (a scatter_add of n x d
    values instead of a k x n matrix built and multiplied: k-means' Newton step, where it is
    1,000 x 10,000). Each sum has the same nonzero terms, exact products by the one-hot's
    values (the zeros add nothing but a zero's sign), in index order rather than BLAS's."""
    if n.op != "matmul" or n.ndim != 2 or n.inputs[1].ndim != 2:
        return None
    found = _one_hot(n.inputs[0])
    if found is None or found[0].dtype is not n.dtype:
        return None
    src, idx, negated = found
    b = n.inputs[1]
    rows = Node("mul", (), (_column(src), b), n.dtype, b.shape)
    return _scattered(n, rows, idx, negated)


@on("sum")
def one_hot_sum(n):
    """sum(one_hot(a, l), axis 1) -> a[i] added into row l[i] (each row's nonzero terms, in
    index order)."""
    if n.op != "sum" or n.attr("axes") != (1,) or tuple(n.shape) != (n.inputs[0].shape[0], 1):
        return None
    found = _one_hot(n.inputs[0])
    if found is None or found[0].dtype is not n.dtype:
        return None
    src, idx, negated = found
    return _scattered(n, _column(src), idx, negated)


def _moved(op: str, x: Node, shape: tuple) -> Node:
    """``x`` reshaped or broadcast to ``shape`` (itself when it has that shape)."""
    if tuple(x.shape) == tuple(shape):
        return x
    return Node(op, (("shape_to", tuple(shape)),), (x,), x.dtype, tuple(shape))


RULES = (gradient_barrier, mul_by_one, div_by_one, sub_zero, mul_by_minus_one, double_negation,
         negation_out_of_product, double, subtract_negation, pow_small_integer,
         identity_movement, reshape_chain, permute_chain, slice_of_slice, slice_of_cat,
         sum_of_broadcast, where_same_branches, where_constant_condition, outer_product,
         extremum_at_its_index, gather_in_the_index_shape, one_hot_product, one_hot_sum)

_apply_rules = first_rule(RULES)


def apply_identities(graph: Graph) -> Graph:
    """Apply the table of exact algebraic identities to a fixpoint."""
    return fixpoint(graph, _apply_rules)
