"""Sparse Jacobians and Hessians, compiled: ``symgrad.sparse.jacobian`` / ``hessian``.

Layer: api. Input: a Python function, ``argnums``, and at each call its arguments. Output: a
``scipy.sparse.csr_matrix`` with a fixed pattern (the same ``indices``/``indptr`` at every
call with the same signature; ``out=`` refills an existing matrix's values in place).

Per signature, once: the function is traced; its graph gives the sparsity pattern
(``transforms.sparsity``: structural, exact); the pattern is colored
(``transforms.coloring``: distance-1 columns or rows for a Jacobian, whichever needs fewer
colors, star coloring for a Hessian); and one compiled function computes the compressed
derivative (one JVP, VJP or Hessian-vector product per color) and reads the nonzeros from
it in CSR order (``transforms.compressed``). A call then runs that C and wraps its values.

A Jacobian whose variables are read through gathers at constant indices (a bundle
adjustment's ``cams[cam_idx]``) is colored and compressed with the gathered values as its
variables (``transforms.localize``: 3 row colors for bundle adjustment where the variables'
own rows need thousands and their columns 12-14), and each nonzero is the sum of the local
entries that are its column.

Up to ``transforms.compressed.UNROLL_COLORS`` colors, each color's product is its own pass
over the function's derivative, its seed a constant mask (a seed that misses an output or a
variable entirely is no pass over it at all); past that, the colors are batched by ``vmap``.
Unrolled, every pass runs over the function's own arrays, so the per-row work of all of them
fuses into loops over the rows (``lower.rows``); batched, each array gains a leading axis of
colors and its loops run color by color (bundle adjustment at ba1: 3 colors batched 10 ms a call,
unrolled 4, the nonzeros then written in the same loop over the observations).

Integer and bool arrays among the arguments that are not differentiated (the indices of a
bundle adjustment's observations, say) are part of the structure: the pattern is computed
for their values, which the kernel holds as constants, and a call with other values makes a
plan of its own.
"""

from __future__ import annotations

import functools
import hashlib
import threading
import weakref
from dataclasses import dataclass, field
from typing import Any
from collections.abc import Callable, Sequence

import numpy as np

from ..build import backends
from ..frontend.control.apply import replay_from
from ..frontend.core import grad_mode
from ..frontend.core.tensor import Tensor, tensor
from ..pytree import flatten
from ..transforms import coloring, compressed, localize, sparsity
from ..transforms.compressed import nonzeros
from ..transforms.forward import leaves_of
from ..transforms.jacobians import regroup
from .compiled import CompiledFunction
from .gradients import grad
from .state import captured_of

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
    local: Any = None            # the gathered values colored as the variables (a
                                 # ``localize.Local``), or None: the variables themselves
    state: Any = None            # the function's captured state it was made for
    checks: Any = None           # what its trace read besides it (``runtime.Captured``)

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
        if self.local is not None:
            coloring_lines.append(
                f"colored with the variables' gathered values as variables: "
                f"{len(self.local.columns)} local elements for {n} columns (each nonzero "
                f"sums the local entries of its column)")
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
        self._last = None        # the last call's key and structural values (_signature)
        self._state = CompiledFunction(fn, name=self.name)    # (its captured state's walk)

    def plan(self, *args: Any) -> Plan:
        """The plan for these arguments' signature (made at the first call), made again
        when what the function reads besides its arguments changed: its captured state (a
        global rebound, a closure's array edited) or what its trace read concretely. A plan
        holds a pattern, a coloring and a kernel of that trace: none may outlive it."""
        key, self._last = _signature(args, self._nums(), self._last)
        state = self._state.captured_state()
        with self._lock:
            found = self._plans.get(key)
            if found is None or found.state is not state or not found.checks.holds():
                found = self._plans[key] = self._make(args, state)
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

    def _make(self, args: tuple, state) -> Plan:
        plan, traced = self._made(args)
        plan.state, plan.checks = state, captured_of(traced, state)
        return plan

    def _made(self, args: tuple) -> tuple:
        """(The plan, the trace it was made from.)"""
        _scipy()
        # The pattern is of this plan's structural values (its key), traced with them as
        # constants so that the elements an index addresses are known; the kernel reads them
        # at each call, as it reads any array its function holds (captured state), or, when
        # it is made from this trace (gathers localized), holds them as its constants.
        pinned = _with_structure(self.fn, args, self._nums(), pinned=True)[0]
        fn, args, nums = _with_structure(self.fn, args, self._nums())
        variables = _variable_inputs(args, nums)
        if self.hessian:
            traced = CompiledFunction(grad(pinned, argnums=nums)).trace(*args)
            graph = traced.graph
            P = sparsity.pattern(graph, variables)
            P = ((P + P.T) > 0).tocsr()
            P.sort_indices()
            colors = coloring.star_coloring(P)
            rows, cs = coloring.star_reads(P, colors)
            at = cs * P.shape[0] + rows
            return Plan(P, colors, "star", self._kernel(
                functools.partial(_star, fn, nums, _fixed(colors), self.name), at, None,
                P, [P.shape[0]])), traced
        traced = CompiledFunction(pinned).trace(*args)
        graph, held = traced.graph, _held(traced)
        local = localize.localize(graph, variables) if held is not None and not \
            graph.n_guards and len(flatten(args)[0]) + len(held) == len(graph.inputs) else None
        if local is None:
            P = colored = sparsity.pattern(graph, variables)
            into, leaves = None, functools.partial(_user_leaves, fn, nums)
        else:
            colored = sparsity.node_pattern(graph, local.nodes)
            P, into = local.merge(colored)
            where = {node: k for k, node in enumerate(graph.nodes())}
            leaves = functools.partial(_local_leaves, graph,
                                       tuple(where[node] for node in local.nodes), held)
        mode, colors, rows, cs = _jacobian_coloring(colored)
        # the compressed product is (colors, m) in memory: entry (row, c) at c * m + row
        m, n = colored.shape
        at = cs * m + rows if mode == "forward" else cs * n + colored.indices
        product = functools.partial(_compressed, leaves, mode, _fixed(colors), self.name)
        sizes = [o.size for o in graph.values]
        return Plan(P, colors, mode, self._kernel(product, at, into, P, sizes), local), traced

    def _kernel(self, product_of: Callable, at: np.ndarray, into, P,
                sizes: list) -> CompiledFunction:
        """The compiled function: ``product_of(args)``, the compressed product, and the
        nonzeros of ``P`` read from it in CSR order (``into``: the nonzero each entry read
        adds to, None: each is one), a range per output (of ``sizes`` rows each). What it
        holds is walkable (functions, read-only arrays, ints, a graph), so that its
        warm-start key covers it (``api.fingerprint``)."""
        at, into = _fixed(at), None if into is None else _fixed(into)
        rows = np.cumsum([0] + list(sizes))
        bounds = tuple((int(P.indptr[a]), int(P.indptr[b])) for a, b in zip(rows, rows[1:]))
        nnz = P.nnz

        def body(*a):
            return nonzeros(product_of(a), at, into, nnz, bounds)
        body.__name__ = self.name
        return CompiledFunction(body, name=self.name)


def _fixed(a: np.ndarray) -> np.ndarray:
    """A read-only int64 copy of ``a``: a constant of the kernel, fingerprinted by content."""
    out = np.array(a, np.int64)
    out.setflags(write=False)
    return out


def _structural(a: Any, i: int, nums: tuple) -> bool:
    """Whether argument ``i`` is part of the structure: an integer or bool array that is not
    differentiated (indices: which elements meet which decides the pattern)."""
    return i not in nums and isinstance(a, np.ndarray) and a.dtype.kind in "biu"


def _signature(args: tuple, nums: tuple, last: tuple | None = None) -> tuple:
    """(The plan key: the arguments' types, and the values of the structural ones; what the
    next call compares with, ``last`` at this one). The key of the call before is taken when
    the types are the same and the structural values equal its (kept) copies: comparing
    costs a read of them, hashing several (bundle adjustment at ba1: 0.02 ms, 0.3 ms)."""
    leaves, tree = flatten(args)
    types = (tree, tuple((np.shape(v), str(getattr(v, "dtype", type(v).__name__)))
                         for v in leaves))
    structural = [(i, a) for i, a in enumerate(args) if _structural(a, i, nums)]
    if last is not None and last[0] == types and len(last[1]) == len(structural) and \
            all(i == j and np.array_equal(a, b) for (i, a), (j, b) in zip(structural, last[1])):
        return last[2], last
    values = tuple((i, hashlib.sha1(np.ascontiguousarray(a).tobytes()).hexdigest())
                   for i, a in structural)
    key = (types[0], values, types[1])
    return key, (types, [(i, np.array(a, copy=True)) for i, a in structural], key)


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


def _user_leaves(fn: Callable, nums: tuple, a: tuple) -> tuple:
    """(``F``, ``xs``): the function of the variables' leaves ``xs`` (``a[i]`` for ``i`` in
    ``nums``, flattened) returning the outputs' leaves."""
    chosen = [a[i] for i in nums]
    trees = [flatten(c)[1] for c in chosen]
    xs = [t for c in chosen for t in leaves_of(c)[0]]

    def F(*leaves):
        full_args = list(a)
        for i, v in zip(nums, regroup(list(leaves), trees)):
            full_args[i] = v
        return leaves_of(fn(*full_args))[0]
    return F, xs


def _held(traced) -> tuple | None:
    """The arrays and tensors a trace read as captured state (its inputs after the
    arguments'), or None if its result depends on a random generator's history (``volatile``:
    a replay of its graph would draw nothing). What it read concretely (an array's values
    baked in, a tensor read as a number, the environment) is its plan's ``checks``."""
    c = traced.captures
    if c is None:
        return ()
    return None if c.volatile else tuple(e.obj for e in c.entries)


def _local_leaves(graph, positions: tuple, held: tuple, a: tuple) -> tuple:
    """(``F``, ``xs``): ``graph`` replayed on the arguments ``a`` and the arrays and tensors
    it ``held`` (read at each call, as the function reads them: ``frontend.core.capture``) as
    a function of the values ``xs`` of its local variables (``localize``; the nodes at
    ``positions`` of its order), returning its outputs."""
    order = graph.nodes()
    nodes = [order[k] for k in positions]
    outside = [h if isinstance(h, Tensor) else tensor(h) for h in held]
    known = dict(zip(graph.inputs, leaves_of(tuple(a))[0] + outside))
    with grad_mode.no_grad():
        values = replay_from(graph, known)     # (only the gathers are read: the rest is dead)
    xs = [values[node] for node in nodes]

    def F(*leaves):
        env = replay_from(graph, {**known, **dict(zip(nodes, leaves))})
        return [env[o] for o in graph.values]
    return F, xs


def _compressed(leaves: Callable, mode: str, colors: np.ndarray, name: str,
                a: tuple) -> compressed.Product:
    """The compressed derivative of the function ``leaves(a)`` gives at its variables'
    values (``transforms.compressed.product``)."""
    return compressed.product(*leaves(a), mode, colors, name)


def _star(fn, nums, colors, name, args) -> compressed.Product:
    """A Hessian's compressed product (``transforms.compressed.star``)."""
    return compressed.star(fn, args, nums, colors, name)


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
