"""Sparse Jacobians and Hessians, compiled: ``symgrad.sparse.jacobian`` / ``hessian``.

Layer: api. Input: a Python function, ``argnums``, and at each call its arguments. Output: a
``scipy.sparse.csr_matrix`` with a fixed pattern (the same ``indices``/``indptr`` at every
call with the same signature; ``out=`` refills an existing matrix's values in place).

Per signature, once: the function is traced; its graph gives the sparsity pattern
(``transforms.sparsity``: structural, exact); the pattern is colored
(``transforms.coloring``: distance-1 columns or rows for a Jacobian, whichever needs fewer
colors, star coloring for a Hessian); and one compiled function computes the compressed
derivative (one JVP, VJP or Hessian-vector product per color, all colors batched by
``vmap``) and gathers the nonzeros from it, in CSR order. A call then runs that C and wraps
its values.

Integer and bool arrays among the arguments that are not differentiated (the indices of a
bundle adjustment's observations, say) are part of the structure: the pattern is computed
for their values, which the kernel holds as constants, and a call with other values makes a
plan of its own.
"""

from __future__ import annotations

import hashlib
import threading
import weakref
from dataclasses import dataclass, field
from typing import Any
from collections.abc import Callable, Sequence

import numpy as np

from ..build import backends
from ..frontend.core.apply import apply
from ..frontend.core.tensor import Tensor, tensor
from ..pytree import flatten, unflatten
from ..transforms import coloring, sparsity
from ..transforms.forward import jvp_call, leaves_of, vjp_call
from ..transforms.jacobians import chunks, graph_constant, regroup, with_args, hvp_call
from ..transforms.vmap import vmap_call
from .compiled import CompiledFunction
from .gradients import grad


def _scipy():
    try:
        import scipy.sparse as sp
    except ImportError:
        raise ImportError("symgrad.sparse returns scipy.sparse matrices: install SciPy "
                          "(pip install scipy, or symgrad's [sparse] extra)") from None
    return sp


@dataclass
class Plan:
    """One signature's sparse derivative: its pattern, coloring and compiled kernel."""

    pattern: Any                 # bool CSR (rows x variables)
    colors: np.ndarray           # a color per column (forward), row (reverse) or variable
    mode: str                    # "forward", "reverse" or "star" (Hessian)
    compiled: CompiledFunction   # (*args) -> the nonzeros, in CSR order

    # id -> a matrix this plan returned: out= takes those without comparing their patterns
    # (by id: SciPy's matrices are not hashable)
    issued: weakref.WeakValueDictionary = field(default_factory=weakref.WeakValueDictionary)

    @property
    def n_colors(self) -> int:
        return coloring.n_colors(self.colors)

    def describe(self) -> list:
        """The pattern and the coloring, for ``symgrad.inspect``."""
        P = self.pattern
        m, n = P.shape
        density = P.nnz / max(m * n, 1)
        lines = [f"{m} x {n}, {P.nnz} structural nonzeros ({density:.3%})"]
        if m <= 40 and n <= 80:
            dense = P.toarray()
            lines += ["".join("#" if v else "." for v in row) for row in dense]
        what = {"forward": "columns (distance-1): one JVP per color",
                "reverse": "rows (distance-1): one VJP per color",
                "star": "star coloring of the variables: one Hessian-vector product per "
                        "color"}[self.mode]
        coloring_lines = [f"{self.n_colors} colors for {len(self.colors)} {what}"]
        if len(self.colors) <= 80:
            coloring_lines.append("colors: " + " ".join(map(str, self.colors)))
        return [("sparsity pattern", "\n".join(lines)),
                ("coloring", "\n".join(coloring_lines))]


class SparseDerivative:
    """A sparse Jacobian or Hessian of ``fn``, compiled per argument signature."""

    def __init__(self, fn: Callable, argnums: int | Sequence[int], hessian: bool):
        self.fn, self.argnums, self.hessian = fn, argnums, hessian
        self.name = f"sparse_{'hessian' if hessian else 'jacobian'}_" \
            f"{getattr(fn, '__name__', 'fn')}"
        self._plans: dict = {}
        self._lock = threading.Lock()

    def plan(self, *args: Any) -> Plan:
        """The plan for these arguments' signature (made at the first call)."""
        key = _signature(args, self._nums())
        with self._lock:
            found = self._plans.get(key)
            if found is None:
                found = self._plans[key] = self._make(args)
        return found

    def _nums(self) -> tuple:
        return (self.argnums,) if isinstance(self.argnums, int) else tuple(self.argnums)

    def __call__(self, *args: Any, out: Any = None):
        sp = _scipy()
        plan = self.plan(*args)
        data = np.asarray(plan.compiled(*_dynamic(args, self._nums())))
        if out is not None:
            _check_out(out, plan)
            out.data[:] = data
            return out
        P = plan.pattern
        matrix = sp.csr_matrix((data, P.indices.copy(), P.indptr.copy()), shape=P.shape)
        plan.issued[id(matrix)] = matrix
        return matrix

    def inspection_sections(self, *args: Any) -> tuple:
        plan = self.plan(*args)
        return plan.compiled, plan.describe()

    def _make(self, args: tuple) -> Plan:
        _scipy()
        # The pattern is of this plan's structural values (its key), traced with them as
        # constants so that the elements an index addresses are known; the kernel reads them
        # at each call, as it reads any array its function holds (captured state).
        pinned = _with_structure(self.fn, args, self._nums(), pinned=True)[0]
        fn, args, nums = _with_structure(self.fn, args, self._nums())
        variables = _variable_inputs(args, nums)
        target = grad(pinned, argnums=nums) if self.hessian else pinned
        graph = CompiledFunction(target).trace(*args).graph
        P = sparsity.pattern(graph, variables)
        if self.hessian:
            P = ((P + P.T) > 0).tocsr()
            P.sort_indices()
            colors = coloring.star_coloring(P)
            rows, cs = coloring.star_reads(P, colors)
            mode = "star"
        else:
            mode, colors, rows, cs = _jacobian_coloring(P)
        return Plan(P, colors, mode, self._kernel(fn, nums, mode, colors, rows, cs, P))

    def _kernel(self, fn, nums, mode, colors, rows, cs, P) -> CompiledFunction:
        name = self.name
        p = coloring.n_colors(colors)
        m = P.shape[0] if mode != "reverse" else P.shape[1]
        # the compressed product is (colors, m) in memory: entry (row, c) at c * m + row
        at = (cs * m + rows) if mode != "reverse" else (cs * P.shape[1] + P.indices)

        def body(*a):
            compressed = _compressed(fn, a, nums, mode, colors, p, name)
            flat = apply("reshape", compressed, shape_to=(compressed.numel(),))
            return apply("gather", flat, graph_constant(at.astype(np.int64)), axis=0)
        body.__name__ = name
        return CompiledFunction(body, name=name)


def _structural(a: Any, i: int, nums: tuple) -> bool:
    """Whether argument ``i`` is part of the structure: an integer or bool array that is not
    differentiated (indices: which elements meet which decides the pattern)."""
    return i not in nums and isinstance(a, np.ndarray) and a.dtype.kind in "biu"


def _signature(args: tuple, nums: tuple) -> tuple:
    """The plan key: the arguments' types, and the values of the structural ones."""
    leaves, tree = flatten(args)
    values = tuple((i, hashlib.sha1(np.ascontiguousarray(a).tobytes()).hexdigest())
                   for i, a in enumerate(args) if _structural(a, i, nums))
    return tree, values, tuple((np.shape(v), str(getattr(v, "dtype", type(v).__name__)))
                               for v in leaves)


def _dynamic(args: tuple, nums: tuple) -> tuple:
    """The arguments the compiled kernel takes (the structural ones are its constants)."""
    return tuple(a for i, a in enumerate(args) if not _structural(a, i, nums))


def _with_structure(fn: Callable, args: tuple, nums: tuple, pinned: bool = False) -> tuple:
    """(``fn`` with the structural arguments fixed to their values, its remaining arguments,
    the positions of ``nums`` among them). The fixed arrays are state the function holds,
    read at each call; ``pinned``: copies of them, constants of its trace instead."""
    fixed = {i: a for i, a in enumerate(args) if _structural(a, i, nums)}
    if not fixed:
        return fn, args, nums
    keep = [i for i in range(len(args)) if i not in fixed]

    def closed(*dynamic):
        full = [None] * len(args)
        for i, a in fixed.items():
            full[i] = tensor(a.copy() if pinned else a)   # (a copy: no captured state)
        for i, a in zip(keep, dynamic):
            full[i] = a
        return fn(*full)
    closed.__name__ = getattr(fn, "__name__", "fn")
    return closed, tuple(args[i] for i in keep), tuple(keep.index(i) for i in nums)


def _variable_inputs(args: tuple, nums: tuple) -> list:
    """The graph input positions of the leaves of ``args[i]`` for ``i`` in ``nums``."""
    starts, k = [], 0
    for a in args:
        starts.append(k)
        k += len(flatten(a)[0])
    out = []
    for i in nums:
        out += list(range(starts[i], starts[i] + len(flatten(args[i])[0])))
    return out


def _jacobian_coloring(P) -> tuple:
    """Columns (forward mode) or rows (reverse mode), whichever takes fewer colors (columns
    on a tie). A coloring is not made when the other one already takes no more colors than
    it could: a column coloring needs at least as many as a row has entries, a row coloring
    as a column has. (A bundle adjustment's row coloring, of 72,910 rows of which a camera's
    3,554 share a column, took 40 s and 4 GB to need at least 3,554 colors against the
    columns' 12.)"""
    counts = np.bincount(P.indices, minlength=P.shape[1])
    at_least_rows = int(counts.max()) if counts.size else 0
    at_least_columns = int(np.diff(P.indptr).max()) if P.shape[0] else 0
    native = backends.column_colorer()
    by_columns = by_rows = None
    if at_least_columns <= at_least_rows:
        by_columns = coloring.column_coloring(P, native)
        if coloring.n_colors(by_columns) > at_least_rows:
            by_rows = coloring.column_coloring(P.T, native)
    else:
        by_rows = coloring.column_coloring(P.T, native)
        if coloring.n_colors(by_rows) >= at_least_columns:
            by_columns = coloring.column_coloring(P, native)
    if by_rows is None or by_columns is not None and \
            coloring.n_colors(by_columns) <= coloring.n_colors(by_rows):
        rows, cs = coloring.column_reads(P, by_columns)
        return "forward", by_columns, rows, cs
    rows = np.repeat(np.arange(P.shape[0]), np.diff(P.indptr))
    return "reverse", by_rows, rows, by_rows[rows]


def _seeds(colors: np.ndarray, p: int, dtype) -> Tensor:
    """The (colors, n) 0/1 seed rows ``color[j] == c``, as graph (no p*n constant)."""
    c = apply("reshape", graph_constant(np.arange(p, dtype=np.int64)), shape_to=(p, 1))
    j = apply("reshape", graph_constant(colors.astype(np.int64)), shape_to=(1, len(colors)))
    return apply("cast", apply("eq", c, j), dtype=dtype)


def _flat(tree_value) -> Tensor:
    """The leaves of ``tree_value`` flattened and concatenated."""
    leaves, _ = leaves_of(tree_value)
    parts = [apply("reshape", t, shape_to=(t.numel(),)) for t in leaves]
    return parts[0] if len(parts) == 1 else apply("cat", *parts, axis=0)


def _compressed(fn, args, nums, mode, colors, p, name) -> Tensor:
    """The compressed derivative, (colors, rows of the product)."""
    chosen = tuple(args[i] for i in nums)
    trees = [flatten(c)[1] for c in chosen]
    x_leaves = [t for c in chosen for t in leaves_of(c)[0]]
    shapes = [tuple(x.shape) for x in x_leaves]
    dtype = x_leaves[0].dtype
    part = with_args(fn, args, nums)
    seeds = _seeds(colors, p, dtype)
    if mode == "forward":
        def one(s):
            return _flat(jvp_call(part, chosen, regroup(chunks(s, shapes, 0), trees),
                                  False, name)[1])
    elif mode == "star":
        def one(s):
            return _flat(hvp_call(part, chosen, regroup(chunks(s, shapes, 0), trees),
                                  name)[1])
    else:
        out, pullback = vjp_call(part, chosen, False, name)
        o_leaves, o_tree = leaves_of(out)

        def one(s):
            cts = chunks(s, [tuple(o.shape) for o in o_leaves], 0)
            return _flat(pullback(unflatten(o_tree, cts)))
    return vmap_call(one, 0, 0, None, (seeds,), {}, name)


def _check_out(out: Any, plan: Plan) -> None:
    """``out`` has the plan's pattern: a matrix it returned (of the same size still), or one
    whose index arrays are equal (compared only then: the call path is hot)."""
    P = plan.pattern
    if getattr(out, "shape", None) != P.shape or getattr(out, "nnz", None) != P.nnz or \
            (plan.issued.get(id(out)) is not out and not (np.array_equal(out.indices, P.indices) and
                                             np.array_equal(out.indptr, P.indptr))):
        raise ValueError(f"out= must be a matrix this function returned for arguments of "
                         f"the same signature (CSR of shape {P.shape} with its {P.nnz} "
                         f"nonzeros); got {type(out).__name__} of shape "
                         f"{getattr(out, 'shape', None)}")


def jacobian(fn: Callable, argnums: int | Sequence[int] = 0) -> SparseDerivative:
    """The sparse Jacobian of ``fn`` with respect to ``args[argnums]`` (all their leaves,
    flattened and concatenated, as columns; the outputs' leaves, likewise, as rows)."""
    return SparseDerivative(fn, argnums, hessian=False)


def hessian(fn: Callable, argnums: int | Sequence[int] = 0) -> SparseDerivative:
    """The sparse Hessian of the scalar ``fn`` with respect to ``args[argnums]``."""
    return SparseDerivative(fn, argnums, hessian=True)
