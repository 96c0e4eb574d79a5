"""The sparsity pattern of a traced function's Jacobian, read from its graph.

Layer: transforms (it reads graphs and the op registry; it needs SciPy, imported by the caller
that asks for sparse derivatives). Input: a graph and which of its inputs are the variables.
Output: a boolean ``scipy.sparse.csr_matrix`` (outputs' elements x variables' elements) with a
true entry wherever an output element can depend on a variable element.

Structural: each node's dependence is a sparse 0/1 matrix (its elements x the variables),
propagated in topological order by the op's ``dependence`` kind (``ops.registry``): the
union, element by element, of what the operand elements it reads depend on. Exact for the
ops that only move or combine elements at known positions (elementwise, reductions,
movements and slices, gathers and scatters at constant indices, matmul, running scans,
per-matrix decompositions); conservative where the positions are data (a gather at computed
indices depends on its whole axis) and for loops and branches (every element of their
results on every element of their operands). Numerical cancellation (``x - x``) is not seen:
a structural nonzero may be zero in value, never the other way round.
"""

from __future__ import annotations

import math

import numpy as np

from ..ir.control import is_control
from ..ops import get


def _sp():
    import scipy.sparse as sp
    return sp


def _coo(rows, cols, shape):
    """A 0/1 matrix with ones at (rows, cols)."""
    sp = _sp()
    rows, cols = np.asarray(rows, np.int64).ravel(), np.asarray(cols, np.int64).ravel()
    return sp.csr_matrix((np.ones(len(rows), np.int32), (rows, cols)), shape=shape)


def _numbers(shape) -> np.ndarray:
    return np.arange(math.prod(shape), dtype=np.int64).reshape(shape)


class Rows:
    """A local dependence in which each element of the node reads at most one element of the
    operand: ``source[i]`` (-1: none). Applied by taking rows (``_take``), in time linear in
    what it takes, where the product with a selection matrix costs several times more."""

    __slots__ = ("source",)

    def __init__(self, source: np.ndarray):
        self.source = np.asarray(source, np.int64).ravel()


def _take(d, source: np.ndarray):
    """The dependence matrix whose row i is row ``source[i]`` of ``d`` (empty where -1)."""
    sp = _sp()
    if source.size and source.min() < 0:
        d = sp.vstack([d, sp.csr_matrix((1, d.shape[1]), dtype=d.dtype)], format="csr")
        source = np.where(source < 0, d.shape[0] - 1, source)
    if source.size == d.shape[0] and np.array_equal(source, np.arange(d.shape[0])):
        return d
    return d[source]


def _union(a, b):
    """The elementwise union of two dependence matrices (a sum: ``pattern`` resets the values
    to 1); one of them when both have the same structure, as the operands of ``x * y`` often
    do (the sum costs ~30 ns a nonzero)."""
    if a.nnz == b.nnz and np.array_equal(a.indptr, b.indptr) and \
            np.array_equal(a.indices, b.indices):
        return a
    return a + b


def _broadcast(node, k: int) -> Rows:
    """Each element of the node reads the element of operand k it broadcasts from."""
    src = node.inputs[k]
    return Rows(np.broadcast_to(_numbers(src.shape), node.shape))


def _elementwise(node, deps):
    return [(_broadcast(node, k) if deps[k] is not None else None)
            for k in range(len(node.inputs))]


def _reduce(node, deps):
    src = node.inputs[0]
    coords = np.indices(src.shape).reshape(src.ndim, -1)
    for a in node.attr("axes"):
        coords[a] = 0
    rows = np.ravel_multi_index(coords, node.shape) if node.shape else np.zeros(
        coords.shape[1], np.int64)
    return [_coo(rows, np.arange(src.size), (node.size, src.size))]


def _index(node, deps):
    """Each result element copies at most one operand element: the op's NumPy reference on
    element numbers (1-based; 0 where it makes a new zero) says which."""
    op = get(node.op)
    offsets = np.cumsum([0] + [i.size for i in node.inputs])
    numbered = [_numbers(i.shape) + 1 + offsets[k] for k, i in enumerate(node.inputs)]
    source = np.asarray(op.numpy(*numbered, **node.a)).ravel()
    out = []
    for k in range(len(node.inputs)):
        inside = (source > offsets[k]) & (source <= offsets[k + 1])
        out.append(Rows(np.where(inside, source - 1 - offsets[k], -1)))
    return out


def addressed(idx, axis: int, shape: tuple) -> tuple:
    """(element numbers of ``idx``, linear positions in ``shape``): the positions each
    element of an index operand may address along ``axis``: its value when ``idx`` is a
    constant, every position along the axis otherwise (known only when it runs)."""
    grids = list(np.indices(idx.shape))
    value = constant_index(idx)
    if value is not None:
        grids[axis] = value
        return np.arange(idx.size), np.ravel_multi_index(grids, shape).ravel()
    elements, positions = [], []
    for j in range(shape[axis]):
        grids[axis] = np.full(idx.shape, j)
        elements.append(np.arange(idx.size))
        positions.append(np.ravel_multi_index(grids, shape).ravel())
    return np.concatenate(elements), np.concatenate(positions)


def constant_index(idx) -> np.ndarray | None:
    """The int64 value of a constant index operand (one expanded from a smaller constant
    too, as a traced flip's is), else None."""
    if idx.op == "expand" and idx.inputs[0].op == "const":
        return np.broadcast_to(np.asarray(idx.inputs[0].attr("value"), np.int64), idx.shape)
    if idx.op == "const":
        return np.asarray(idx.attr("value"), np.int64)
    return None


def _gather(node, deps):
    x, idx = node.inputs
    elements, positions = addressed(idx, node.attr("axis"), x.shape)
    if constant_index(idx) is not None:      # one position per element, in order
        return [Rows(positions), None]
    return [_coo(elements, positions, (node.size, x.size)), None]


def _scatter(node, deps):
    src, idx = node.inputs
    elements, positions = addressed(idx, node.attr("axis"), node.shape)
    return [_coo(positions, elements, (node.size, src.size)), None]


def _matmul(node, deps):
    a, b = node.inputs
    *batch, m, k = a.shape
    n = b.shape[-1]
    bt, i, j, kk = np.indices((math.prod(batch), m, n, k)).reshape(4, -1)
    rows = (bt * m + i) * n + j
    return [_coo(rows, (bt * m + i) * k + kk, (node.size, a.size)),
            _coo(rows, (bt * k + kk) * n + j, (node.size, b.size))]


def _prefix(node, deps):
    axis, reverse = node.attr("axis"), node.attr("reverse", False)
    length = node.shape[axis]
    numbers = np.moveaxis(_numbers(node.shape), axis, -1).reshape(-1, length)
    at, frm = np.tril_indices(length) if not reverse else np.triu_indices(length)
    rows = numbers[:, at].ravel()
    cols = numbers[:, frm].ravel()
    return [_coo(rows, cols, (node.size, i.size)) for i in node.inputs]


def _matrix(node, deps):
    """Every element of a batch's result on every element of that batch's operands."""
    out = []
    for src in node.inputs:
        batch = math.prod(src.shape[:-2])
        per_out, per_in = node.size // max(batch, 1), src.size // max(batch, 1)
        b, r, c = np.indices((batch, per_out, per_in)).reshape(3, -1)
        out.append(_coo(b * per_out + r, b * per_in + c, (node.size, src.size)))
    return out


def _dense(node, deps):
    return [_coo(*np.indices((node.size, i.size)).reshape(2, -1), (node.size, i.size))
            for i in node.inputs]


_LOCAL = {"elementwise": _elementwise, "reduce": _reduce, "index": _index, "gather": _gather,
          "scatter": _scatter, "matmul": _matmul, "prefix": _prefix, "matrix": _matrix,
          "dense": _dense}


def pattern(graph, variables: list) -> object:
    """The Jacobian pattern of ``graph``'s outputs (flattened, in order) with respect to its
    inputs at positions ``variables`` (flattened, in order): a bool CSR matrix."""
    return node_pattern(graph, [graph.inputs[v] for v in variables])


def node_pattern(graph, variables: list) -> object:
    """The Jacobian pattern of ``graph``'s outputs with respect to the values of the nodes
    ``variables`` (inputs or not: a node's own operands are then not followed), flattened
    and concatenated in order."""
    sp = _sp()
    n = sum(node.size for node in variables)
    deps: dict = {}
    start = 0
    for node in variables:
        deps[node] = _coo(np.arange(node.size), start + np.arange(node.size), (node.size, n))
        start += node.size
    order = graph.nodes()
    last_use = {i: k for k, node in enumerate(order) for i in node.inputs}
    keep = set(graph.outputs)
    for k, node in enumerate(order):
        for i in order[k - 1].inputs if k else ():   # read for the last time: its matrix goes
            if last_use[i] == k - 1 and i not in keep:
                deps.pop(i, None)
        if node in deps or node.op in ("input", "const"):
            continue
        ins = [deps.get(i) for i in node.inputs]
        if not node.dtype.is_floating or all(d is None for d in ins):
            continue
        kind = "dense" if is_control(node) else get(node.op).dependence
        if kind == "none":
            continue
        total = None
        for local, d in zip(_LOCAL[kind](node, ins), ins):
            if local is None or d is None:
                continue
            part = _take(d, local.source) if isinstance(local, Rows) else local @ d
            total = part if total is None else _union(total, part)
        if total is not None:
            total.data[:] = 1
            deps[node] = total
    rows = [deps[o] if o in deps else sp.csr_matrix((o.size, n), dtype=np.int32)
            for o in graph.outputs[graph.n_guards:]]
    result = sp.vstack(rows, format="csr") if rows else sp.csr_matrix((0, n), dtype=np.int32)
    result.data[:] = 1
    result.eliminate_zeros()
    result.sort_indices()
    return result.astype(bool)
