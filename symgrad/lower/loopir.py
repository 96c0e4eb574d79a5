"""The loop IR: buffers, views, the kernel protocol, loop kernels and function-scope statements.

Layer: lower (the types only). Lowering produces a ``Program`` of kernels; a backend prints
them. They are self-contained: a statement carries what its C needs (the op, the dtypes, a
constant exponent, the user's source line), and nothing points back into the graph IR, so code
generation needs neither the graph nor its side tables.

**The kernel protocol.** Every kernel is a record with

    family          a class attribute: the name of the module that lowers its ops
                    (``symgrad.lower.<family>``, whose ``lower(lowering, node)`` an op names
                    through ``OpDef.kernel``) and of the module that emits it in each backend
                    (``symgrad.codegen.c.<family>``, whose ``emit(ctx, number, kernel)`` returns
                    an ``Emitted``: its text, work, error statuses and needs);
    views()         every View it reads or writes (the buffer plan, the storage checks);
    with_views(f)   the same kernel with every View ``v`` replaced by ``f(v)`` (the buffer
                    plan places temporaries this way; ``f`` returns anything else unchanged).

The kernels of the fused loops and the function-scope statements are here; each other family
keeps its kernel beside its lowering (``matmul``, ``index``, ``cumulative``, ``decomp``,
``sorting``, ``control``, ``guard``). A new primitive with a kernel of its own is its ``OpDef``
(``kernel="<family>"``), ``lower/<family>.py`` and ``codegen/c/<family>.py``: no central table.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import ClassVar

from ..dims import Dim, is_one, round_up, same
from ..size import contiguous_strides  # noqa: F401  (re-exported)
from ..dtypes import DType
from ..ir.graph import Loc

ALIGN = 64  # bytes: each temporary starts on a cache line
# A loop over more elements is hot: its part is compiled at full optimization in the main
# translation unit (codegen.c.split), and it is never outlined (lower.repeats).
HOT_ELEMENTS = 64


@dataclass(frozen=True, eq=False)
class Buffer:
    """A dense array the kernels read or write: an argument of the entry point (input, hidden
    constant, output) or a temporary in the workspace. Identity is the object (a buffer plan
    makes new ones for the temporaries it places)."""

    role: str          # "input" | "const" | "output" | "temp" | "param" (an outlined block's)
    #                    | "row" (one row's values, ``lower.rows``) | "rowptr" (its C pointer)
    index: int         # argument position for input/const/output; a temp's number
    dtype: DType
    size: int          # elements
    offset: int = 0    # a temp's byte offset in the workspace (set by the buffer plan)
    shared: bool = False  # a temp whose bytes another temp reuses at another time

    @property
    def name(self) -> str:
        return _PREFIX[self.role] + str(self.index)

    @property
    def nbytes(self) -> int:
        """Bytes it occupies in the workspace: at least one element's, rounded up to ALIGN."""
        return round_up(max(self.size * self.dtype.itemsize, 1), ALIGN)


_PREFIX = {"input": "in", "const": "cst", "output": "out", "temp": "tmp", "param": "p",
           "row": "row", "rowptr": "rp"}


@dataclass(frozen=True)
class View:
    """Elements of a buffer at ``offset + sum(i_k * strides[k])`` for an index in ``shape``.

    With a ``window`` (one ``(lo, hi)`` per dim), only indices with ``lo <= i < hi`` in every
    dim read the buffer; the others read as ``fill`` (0 unless said): the gradient of a slice
    (``unslice``) is such a view of the slice's gradient, so no loop fills zeros and copies it
    into place; a cat of a constant and a view (``x * cat([1], y[:-1])``, a shift with a
    boundary value) is one too (``lower.cat``)."""

    buffer: Buffer
    offset: int
    shape: tuple
    strides: tuple
    window: tuple | None = None
    fill: float = 0

    @classmethod
    def dense(cls, buffer: Buffer, shape: tuple) -> View:
        return cls(buffer, 0, tuple(shape), contiguous_strides(shape))

    def is_contiguous(self) -> bool:
        if self.window is not None:
            return False
        size = math.prod(self.shape)
        return (all(map(same, self.strides, contiguous_strides(self.shape))) or
                (not isinstance(size, Dim) and size <= 1))

    def rebased(self, buffer: Buffer, offset: int) -> View:
        """The same view of another buffer, from another offset (a subclass keeps its own
        fields: the buffer plan and an outlined block's parameters move views this way)."""
        return View(buffer, offset, self.shape, self.strides, self.window, self.fill)

    def layout(self) -> tuple:
        """What the view reads besides its buffer and offset (a part of any key that tells
        two kernels apart by their views)."""
        return (type(self).__name__, self.shape, self.strides, self.window, repr(self.fill))

    def sliced(self, starts: tuple, steps: tuple, shape: tuple) -> View:
        """The view of ``self[starts::steps]`` (of ``shape``); of a padded view, padded too:
        index j is s + j * t of the view, inside the window (lo, hi) for
        ceil((lo - s) / t) <= j < ceil((hi - s) / t)."""
        offset = self.offset + sum(s * st for s, st in zip(starts, self.strides))
        strides = tuple(st * t for st, t in zip(self.strides, steps))
        window = None
        if self.window is not None:
            window = []
            for (lo, hi), s, t, n in zip(self.window, starts, steps, shape):
                a, b = max(0, -(-(lo - s) // t)), min(n, -(-(hi - s) // t))
                window.append((a, b) if a < b else (0, 0))
            window = tuple(window)
        return View(self.buffer, offset, tuple(shape), strides, window, self.fill)

    def reshaped(self, shape: tuple) -> View | None:
        """The view of the same elements in row-major order as ``shape``, where strides can
        express it (NumPy's rule: each group of dims merged into one, or split from one, is
        contiguous within itself; size-1 dims anywhere); None where only a copy can (or the
        view is padded or empty, or a size is known at call time only)."""
        shape = tuple(shape)
        if self.window is not None or any(isinstance(n, Dim) for n in self.shape + shape):
            return None
        old = [(n, st) for n, st in zip(self.shape, self.strides) if n != 1]
        new = [n for n in shape if n != 1]
        if not math.prod(new) or math.prod(n for n, _ in old) != math.prod(new):
            return None
        strides, i, j = [], 0, 0
        while i < len(old) and j < len(new):
            i1, j1, have, want = i + 1, j + 1, old[i][0], new[j]
            while have != want:
                if have < want:
                    have *= old[i1][0]
                    i1 += 1
                else:
                    want *= new[j1]
                    j1 += 1
            if any(old[k][1] != old[k + 1][0] * old[k + 1][1] for k in range(i, i1 - 1)):
                return None
            group, stride = [], old[i1 - 1][1]
            for n in reversed(new[j:j1]):
                group.append(stride)
                stride *= n
            strides += reversed(group)
            i, j = i1, j1
        it = iter(strides)
        return View(self.buffer, self.offset, shape,
                    tuple(0 if n == 1 else next(it) for n in shape), None, self.fill)

    def broadcast(self, shape: tuple) -> View:
        lead = len(shape) - len(self.shape)
        strides = tuple(0 if i < lead or is_one(self.shape[i - lead]) else self.strides[i - lead]
                        for i in range(len(shape)))
        window = None
        if self.window is not None:
            window = tuple((0, shape[i]) if i < lead or is_one(self.shape[i - lead])
                           else self.window[i - lead] for i in range(len(shape)))
        return View(self.buffer, self.offset, tuple(shape), strides, window, self.fill)


@dataclass(frozen=True)
class IndexedView(View):
    """A gather's source, read inside a loop at an index the loop computes: element
    ``offset + sum(i_k * strides[k]) + j * axis_stride`` for the loop index ``i`` and the
    statement's index value ``j`` (``strides`` is 0 along the gathered axis), checked
    ``0 <= j < bound`` in the loop when ``checked`` (an index the loop computes), else by an
    ``lower.index.IndexCheck`` before it (an index in memory: the loop then cannot fail).
    ``held``: the read is kept inside the source all the same (an index in an argument array,
    which another Python thread may write while the call runs). Listed among a loop's loads
    but read by its ``gather`` statement, not at the top of the iteration."""

    axis_stride: int = 0
    bound: int = 0
    checked: bool = True
    held: bool = True

    def rebased(self, buffer: Buffer, offset: int) -> IndexedView:
        return replace(self, buffer=buffer, offset=offset)

    def layout(self) -> tuple:
        return super().layout() + (self.axis_stride, self.bound, self.checked, self.held)


class ReadsInputsWritesOut:
    """``views``/``with_views`` of a kernel that reads the Views ``inputs`` and writes ``out``
    (index, cumulative, decomposition and sort kernels)."""

    def views(self) -> list:
        return list(self.inputs) + [self.out]

    def with_views(self, f):
        return replace(self, inputs=[f(x) for x in self.inputs], out=f(self.out))


@dataclass(frozen=True)
class Literal:
    value: object
    dtype: DType


@dataclass(frozen=True)
class Scalar:
    """A 0-d value held in a C local at function scope (no buffer, no loop)."""

    name: str
    dtype: DType


@dataclass(frozen=True)
class Expr:
    """What one elementwise op computes, as codegen prints it: the op's scalar expression in
    the operands' C type (comparisons of floats give bools but compare as floats)."""

    op: str                        # the op (its expression comes from the registry)
    dtype: DType                   # the result's dtype (a cast's target)
    operand: DType                 # the dtype the operands are computed in
    exponent: float | None = None  # pow with a constant exponent: its value


@dataclass
class ScalarStmt:
    """``name = expr(args)`` at function scope for a 0-d elementwise node; args are Literals,
    Scalars or 0-d Views."""

    name: str
    expr: Expr
    args: list
    loc: Loc | None = None
    family: ClassVar[str] = "statements"

    def views(self) -> list:
        return [a for a in self.args if isinstance(a, View)]

    def with_views(self, f) -> ScalarStmt:
        # (the constructor, not dataclasses.replace: the buffer plan remaps ~10^4 kernels of
        # a large program, and replace's field introspection was ~5 us a call)
        return ScalarStmt(self.name, self.expr, [f(a) for a in self.args], self.loc)


@dataclass
class ElementStmt:
    """``target = value`` or, with ``accumulate``, ``target += value`` at function scope, for
    one element: ``target`` is a 0-d View; ``value`` a Literal, a Scalar or a 0-d View."""

    target: View
    value: object
    accumulate: bool
    op: str
    loc: Loc | None = None
    family: ClassVar[str] = "statements"

    def views(self) -> list:
        return [self.target] + ([self.value] if isinstance(self.value, View) else [])

    def with_views(self, f) -> ElementStmt:
        return ElementStmt(f(self.target), f(self.value), self.accumulate, self.op, self.loc)


@dataclass
class Stmt:
    """One scalar statement of a loop body: ``local = expr(args)`` for a fused node."""

    local: str
    expr: Expr
    args: list          # each: a local name (str), a Literal, a Scalar, or ("load", k)
    loc: Loc | None = None


@dataclass
class Store:
    """A value leaving a loop: written to ``out`` (broadcast to the loop's shape), or, with
    ``reduce``, accumulated into it over the kernel's reduced axes (stride 0 along them)."""

    value: object       # a local name, Literal, Scalar, or ("load", k)
    out: View
    op: str             # the op whose value this is (for comments)
    size: int           # elements of the value stored
    reduce: str | None = None   # "sum" | "max" | "min" | "prod"
    loc: Loc | None = None
    accumulate: bool = False    # add the value to what ``out`` holds (``+=``)


@dataclass
class LoopKernel:
    """One loop nest over ``shape``: ``loads`` are read, ``body`` computes locals, every
    ``Store`` writes or accumulates one result. A fusion group of many nodes is one kernel
    with several stores (forward values, gradients, reductions) and no intermediate in memory.
    All reducing stores reduce over the same ``reduce_axes``."""

    shape: tuple
    loads: list                 # Views broadcast to ``shape`` (stride 0 = broadcast)
    body: list                  # Stmts in order
    stores: list                # Stores
    reduce_axes: tuple = ()
    family: ClassVar[str] = "loops"

    def views(self) -> list:
        return list(self.loads) + [s.out for s in self.stores]

    def with_views(self, f) -> LoopKernel:
        return LoopKernel(self.shape, [f(x) for x in self.loads], self.body,
                          [Store(s.value, f(s.out), s.op, s.size, s.reduce, s.loc, s.accumulate)
                           for s in self.stores], self.reduce_axes)

    def scalars(self) -> list:
        """The function-scope Scalars it reads (statements' operands, stored values)."""
        return [a for s in self.body for a in s.args if type(a) is Scalar] + \
            [s.value for s in self.stores if type(s.value) is Scalar]

    @property
    def op(self) -> str:
        """The first stored op: names the kernel in comments."""
        return self.stores[0].op

    @property
    def reduces(self) -> bool:
        return any(s.reduce for s in self.stores)

    @property
    def gathers(self) -> bool:
        """Whether the loop reads at indices (``IndexedView``s: anywhere in their buffers)."""
        return any(isinstance(v, IndexedView) for v in self.loads)

    @property
    def fails(self) -> bool:
        """Whether the loop checks an index it reads at (an ``IndexedView`` it checks): it
        can then fail (an index out of its bound), so it returns a status."""
        return any(isinstance(v, IndexedView) and v.checked for v in self.loads)


def touching(kernels: list) -> dict:
    """Buffer -> the positions in ``kernels`` of those that read or write it (its views)."""
    found: dict = {}
    for i, k in enumerate(kernels):
        for v in k.views():
            found.setdefault(v.buffer, set()).add(i)
    return found


def copy_kernel(op: str, shape: tuple, value, out: View, loads: list = (),
                loc: Loc | None = None) -> LoopKernel:
    """``out = value`` over ``shape``: a copy, a fill, or a broadcast."""
    return LoopKernel(shape, list(loads), [],
                      [Store(value, out, op, math.prod(shape), loc=loc)])


@dataclass
class Program:
    inputs: list                # Buffers (role input), one per graph input
    consts: list                # (Buffer, ndarray) hidden inputs
    outputs: list               # Buffers (role output)
    kernels: list
    workspace_bytes: int        # an int, or a dims.Dim in shape-generic code
    sizes: tuple = ()           # the call-time size symbols the entry point takes (dims)
