"""Batched matrix products of a short contraction as sums of products.

Layer: passes. Graph -> Graph. ``matmul(a, b)`` with batch dims, contracting K <= ``SMALL_K``
into N columns with N * K <= ``SMALL_WORK`` products per element of its result, becomes
``sum(a[..., :, None, :] * b^T[..., None, :, :], -1)`` when its result is large
(``SMALL_MIN``): a reduction, whose loop fuses with the
loops that compute its operands and read its result (``lower.fusion``; the transpose of ``b``
is a view, sunk into that loop by ``sink_views``). Such a product is far too small per batch
element for BLAS; its own loop stored its result and read its operands from memory. Hand
tracking's Jacobian (GradBench ``ht``): a 3 x 4 blended transform times a 4-vector for each of
10,000 vertices and 28 tangents, the transforms (27 MB) written by the loop after a GEMM and
read back by the product; as a sum of products the product reads them in that loop.

After ``sink_gathers``: a selection of a product's rows moves to its operands through the
product (``f(x)[idx]``: fewer rows computed), which a reduction would stop. The same products
as the product loop's, summed from p = 0 or in SIMD lanes: the last bit may differ from its
order (as BLAS's may).
"""

from __future__ import annotations

from ..dims import Dim
from ..ir import Graph, Node
from .rewrite import rebuild

SMALL_K = 8        # contraction length at most
SMALL_WORK = 16    # products per element of the result (N * K) at most
# Elements of the result at least: a smaller product's operands and result stay in the cache
# between its loop and theirs, and the product loop is as fast (hand tracking's Jacobian at
# 100 points, products of 26 x 22 3 x 3 rotations and of 26 x 300 transforms and vertices:
# 0.09-0.10 ms as products, 0.12-0.13 ms all rewritten)
SMALL_MIN = 1 << 15


def small_products(graph: Graph) -> Graph:
    """Every small batched product of ``graph`` as a sum of products (module docstring)."""
    return rebuild(graph, _rewrite)


def _rewrite(n: Node) -> Node:
    if n.op != "matmul" or n.ndim < 3 or not n.dtype.is_floating:
        return n
    a, b = n.inputs
    if any(isinstance(d, Dim) for d in n.shape + a.shape + b.shape) or min(a.ndim, b.ndim) < 2:
        return n
    k, cols = a.shape[-1], b.shape[-1]
    if not (1 < k <= SMALL_K and cols * k <= SMALL_WORK) or n.size < SMALL_MIN:
        return n
    left = _reshaped(a, tuple(a.shape[:-1]) + (1, k))
    perm = tuple(range(b.ndim - 2)) + (b.ndim - 1, b.ndim - 2)
    swapped = Node("permute", (("perm", perm),), (b,), b.dtype, tuple(b.shape[:-2]) + (cols, k))
    right = _reshaped(swapped, tuple(b.shape[:-2]) + (1, cols, k))
    shape = tuple(n.shape) + (k,)
    terms = Node("mul", (), (left, right), n.dtype, shape)
    total = Node("sum", (("axes", (len(shape) - 1,)),), (terms,), n.dtype, tuple(n.shape) + (1,))
    return _reshaped(total, tuple(n.shape))


def _reshaped(x: Node, shape: tuple) -> Node:
    if tuple(x.shape) == shape:
        return x
    return Node("reshape", (("shape_to", shape),), (x,), x.dtype, shape)
