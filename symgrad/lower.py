"""Lowering: optimized graph -> loop IR (buffers, views and kernels).

Input: a ``Graph``. Output: a ``Program``: the buffers (inputs, hidden constant inputs, outputs,
one workspace of temporaries), and a list of kernels in execution order. Only this stage knows
strides and memory: movement ops (reshape of contiguous data, permute, expand, slice) and
step-1 ``unslice`` become views with no loop; the loop groups planned by fusion.py become one
loop kernel each (fused nodes are scalar statements, only what leaves the loop is stored);
everything else gets a kernel that writes a buffer; ``plan_buffers`` then places the
temporaries in one workspace. It must not produce C text (codegen does) or touch the
filesystem.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

from .dtypes import DType
from .fusion import Group, is_view_op, plan_fusion
from .gcpause import pausing
from .ir import Graph, Node, consumers
from .ops import get
from .ops.registry import ELEMENTWISE, REDUCE

ALIGN = 64  # bytes: each temporary starts on a cache line


@dataclass(frozen=True)
class Buffer:
    role: str          # "input" | "const" | "output" | "temp"
    index: int         # argument position for input/const/output; a temp's number
    dtype: DType
    size: int          # elements
    offset: int = 0    # a temp's byte offset in the workspace (set by the buffer plan)
    shared: bool = False  # a temp whose bytes another temp reuses at another time

    @property
    def name(self) -> str:
        return {"input": "in", "const": "cst", "output": "out", "temp": "tmp"}[self.role] + \
            str(self.index)


@dataclass(frozen=True)
class View:
    """Elements of a buffer at ``offset + sum(i_k * strides[k])`` for an index in ``shape``.

    With a ``window`` (one ``(lo, hi)`` per dim), only indices with ``lo <= i < hi`` in every
    dim read the buffer; the others read as zero: the gradient of a slice (``unslice``) is such
    a view of the slice's gradient, so no loop fills zeros and copies it into place."""

    buffer: Buffer
    offset: int
    shape: tuple
    strides: tuple
    window: tuple | None = None

    def is_contiguous(self) -> bool:
        if self.window is not None:
            return False
        return self.strides == contiguous_strides(self.shape) or math.prod(self.shape) <= 1

    def broadcast(self, shape: tuple) -> "View":
        lead = len(shape) - len(self.shape)
        strides = tuple(0 if i < lead or self.shape[i - lead] == 1 else self.strides[i - lead]
                        for i in range(len(shape)))
        window = None
        if self.window is not None:
            window = tuple((0, shape[i]) if i < lead or self.shape[i - lead] == 1
                           else self.window[i - lead] for i in range(len(shape)))
        return View(self.buffer, self.offset, tuple(shape), strides, window)


@dataclass(frozen=True)
class Literal:
    value: object
    dtype: DType


@dataclass(frozen=True)
class Scalar:
    """A 0-d value held in a C local at function scope (no buffer, no loop)."""

    name: str
    dtype: DType


@dataclass
class ScalarStmt:
    """``name = op(args)`` at function scope for a 0-d elementwise node; args are Literals,
    Scalars or 0-d Views."""

    node: Node
    name: str
    args: list


@dataclass
class Stmt:
    """One scalar statement of a loop body: ``local = op(args)`` for a fused node."""

    node: Node
    local: str
    args: list          # each: a local name (str), a Literal, a Scalar, or ("load", k)


@dataclass
class Store:
    """A value leaving a loop: written to ``out`` (broadcast to the loop's shape), or, with
    ``reduce``, accumulated into it over the kernel's reduced axes (stride 0 along them)."""

    node: Node
    value: object       # a local name, Literal, Scalar, or ("load", k)
    out: View
    reduce: str | None = None   # "sum" | "max" | "min" | "prod"


@dataclass
class LoopKernel:
    """One loop nest over ``shape``: ``loads`` are read, ``body`` computes locals, every
    ``Store`` writes or accumulates one result. A fusion group of many nodes is one kernel
    with several stores (forward values, gradients, reductions) and no intermediate in memory.
    All reducing stores reduce over the same ``reduce_axes``."""

    node: Node                  # the first node stored: names the kernel in comments/errors
    shape: tuple
    loads: list                 # Views broadcast to ``shape`` (stride 0 = broadcast)
    body: list                  # Stmts in order
    stores: list                # Stores
    reduce_axes: tuple = ()

    @property
    def reduces(self) -> bool:
        return any(s.reduce for s in self.stores)


def copy_kernel(node: Node, shape: tuple, value, out: View, loads: list = ()) -> LoopKernel:
    """``out = value`` over ``shape``: a copy, a fill, or a broadcast."""
    return LoopKernel(node, shape, list(loads), [], [Store(node, value, out)])


@dataclass
class MatmulKernel:
    node: Node
    a: View
    b: View
    out: View


@dataclass
class IndexKernel:
    """gather / scatter_add / argmax / argmin: loops with a checked integer index."""

    node: Node
    kind: str
    inputs: list                # Views
    out: View
    axis: int


@dataclass
class Program:
    graph: Graph
    inputs: list                # Buffers (role input), one per graph input
    consts: list                # (Buffer, ndarray) hidden inputs
    outputs: list               # Buffers (role output)
    kernels: list
    workspace_bytes: int
    locs: dict = field(default_factory=dict)


def contiguous_strides(shape: tuple) -> tuple:
    strides, acc = [], 1
    for s in reversed(shape):
        strides.append(acc)
        acc *= max(s, 1)
    return tuple(reversed(strides))


class _Lowering:
    def __init__(self, graph: Graph):
        self.graph = graph
        self.nodes = graph.nodes()
        self.order = {n: i for i, n in enumerate(self.nodes)}
        self.users = consumers(self.nodes)
        self.outputs = set(graph.outputs)
        self.slots, self.group_of, self.stored = plan_fusion(self.nodes, self.users,
                                                             self.outputs)
        self.storage: dict[Node, object] = {}
        self.kernels: list = []
        self.consts: list = []
        self.n_temps = 0
        self.n_scalars = 0
        self.out_buffers: dict[Node, Buffer] = {}
        claimed = set()
        for j, n in enumerate(graph.outputs):
            src = n
            # A reshape of a kernel's single-use result: that kernel writes the output.
            while (src.op == "reshape" and len(set(self.users.get(src.inputs[0], []))) == 1
                   and src.inputs[0] not in self.outputs):
                src = src.inputs[0]
            if src in claimed or not self._materialized_by_kernel(src):
                continue
            if src is not n and src.op == "reshape":
                continue
            claimed.add(src)
            self.out_buffers[src] = Buffer("output", j, n.dtype, n.size)

    def _materialized_by_kernel(self, n: Node) -> bool:
        kind = get(n.op).kind
        if kind == ELEMENTWISE and not n.shape:
            return False                     # a ScalarStmt: a local, not a buffer
        return not is_view_op(n) and n.op not in ("input", "const")

    # -------------------------------------------------------------- buffers
    def new_buffer(self, node: Node) -> View:
        """A contiguous buffer for ``node``: its output buffer if it is one, else a temporary."""
        buf = self.out_buffers.get(node) or self._temp(node)
        return View(buf, 0, node.shape, contiguous_strides(node.shape))

    def _temp(self, node: Node) -> Buffer:
        buf = Buffer("temp", self.n_temps, node.dtype, node.size)
        self.n_temps += 1
        return buf

    def value(self, node: Node):
        """Where ``node`` lives: a View, a Literal or a Scalar. Views of views are made on
        first use (a reshape of strided data is copied then, after its source is written)."""
        s = self.storage.get(node)
        if s is None:
            if not is_view_op(node):
                raise AssertionError(f"lowering: {node.op} used before it was computed")
            s = self._movement(node)
            self.storage[node] = s
        return s

    def as_view(self, node: Node) -> View:
        """The node as a View, copying a Literal into a one-element buffer if need be."""
        s = self.value(node)
        if isinstance(s, View):
            if s.window is not None:          # kernels other than loops need dense data
                s = self._copy(node, s)
                self.storage[node] = s
            return s
        out = self.new_buffer(node)
        self.kernels.append(copy_kernel(node, node.shape, s, out))
        self.storage[node] = out
        return out

    # -------------------------------------------------------------- per slot
    def run(self) -> Program:
        inputs = []
        for i, n in enumerate(self.graph.inputs):
            buf = Buffer("input", i, n.dtype, n.size)
            inputs.append(buf)
            self.storage[n] = View(buf, 0, n.shape, contiguous_strides(n.shape))
        for n in self.nodes:
            if n.op == "const":
                self._const(n)
        for kind, payload in self.slots:
            if kind == "group":
                self._group(payload)
            else:
                self._node(payload)
        outputs = []
        for j, n in enumerate(self.graph.outputs):
            buf = Buffer("output", j, n.dtype, n.size)
            outputs.append(buf)
            src = self.value(n)
            if isinstance(src, View) and src.buffer == buf:
                continue
            out = View(buf, 0, n.shape, contiguous_strides(n.shape))
            loads = [src.broadcast(n.shape)] if isinstance(src, View) else []
            self.kernels.append(copy_kernel(n, n.shape, ("load", 0) if loads else src, out,
                                            loads))
        kernels, workspace = plan_buffers(self.kernels)
        return Program(self.graph, inputs, self.consts, outputs, kernels, workspace,
                       self.graph.locs)

    def _node(self, n: Node) -> None:
        op = get(n.op)
        if op.kind == ELEMENTWISE:        # 0-d: one statement at function scope
            scalar = Scalar(f"s{self.n_scalars}", n.dtype)
            self.n_scalars += 1
            storage = self.storage
            args = []
            for i in n.inputs:
                s = storage.get(i)
                args.append(self.value(i) if s is None else s)
            self.kernels.append(ScalarStmt(n, scalar.name, args))
            storage[n] = scalar
        elif n.op == "matmul":
            a, b = (self._gemm_operand(i) for i in n.inputs)
            self.storage[n] = out = self.new_buffer(n)
            self.kernels.append(MatmulKernel(n, a, b, out))
        elif n.op in ("gather", "scatter_add", "argmax", "argmin"):
            ins = [self.as_view(i) for i in n.inputs]
            self.storage[n] = out = self.new_buffer(n)
            self.kernels.append(IndexKernel(n, n.op, ins, out, n.attr("axis")))
        elif n.op == "cat":
            self._cat(n)
        else:
            raise NotImplementedError(f"no lowering for op {n.op!r}")

    def _const(self, n: Node) -> None:
        value = n.attr("value")
        if n.ndim == 0 and not hasattr(value, "shape"):
            self.storage[n] = Literal(value, n.dtype)
            return
        buf = Buffer("const", len(self.consts), n.dtype, n.size)
        self.consts.append((buf, value))
        self.storage[n] = View(buf, 0, n.shape, contiguous_strides(n.shape))

    def _movement(self, n: Node):
        a = n.a
        src = self.value(n.inputs[0])
        if n.op == "unslice":
            if isinstance(src, View) and src.window is None and all(st == 1 for st in a["steps"]) \
                    and all(src.shape):
                offset = src.offset - sum(s * st for s, st in zip(a["starts"], src.strides))
                window = tuple((s, s + d) for s, d in zip(a["starts"], src.shape))
                return View(src.buffer, offset, n.shape, src.strides, window)
            return self._unslice(n, src)
        if not isinstance(src, View):
            return src   # a broadcast / reshape / slice of one number is that number
        if n.op == "expand":
            return src.broadcast(n.shape)
        if n.op == "permute":
            window = None if src.window is None else tuple(src.window[p] for p in a["perm"])
            return View(src.buffer, src.offset, n.shape, tuple(src.strides[p] for p in a["perm"]),
                        window)
        if src.window is not None:            # slice or reshape of a padded view
            src = self._copy(n.inputs[0], src)
        if n.op == "slice":
            offset = src.offset + sum(s * st for s, st in zip(a["starts"], src.strides))
            strides = tuple(st * step for st, step in zip(src.strides, a["steps"]))
            return View(src.buffer, offset, n.shape, strides)
        if not src.is_contiguous():   # reshape
            src = self._copy(n.inputs[0], src)
        return View(src.buffer, src.offset, n.shape, contiguous_strides(n.shape))

    def _copy(self, node: Node, src: View) -> View:
        """Materialize a strided view contiguously (a loop kernel with no body)."""
        out = View(self._temp(node), 0, node.shape, contiguous_strides(node.shape))
        self.kernels.append(copy_kernel(node, node.shape, ("load", 0), out, [src]))
        return out

    def _gemm_operand(self, node: Node) -> View:
        """BLAS needs a unit stride along one of the two matrix dims, and a valid leading dim."""
        v = self.as_view(node)
        rows, cols = v.shape[-2], v.shape[-1]
        sr, sc = v.strides[-2], v.strides[-1]
        if (sc == 1 or cols == 1) and sr >= max(cols, 1):
            return v
        if (sr == 1 or rows == 1) and sc >= max(rows, 1):
            return v
        return self._copy(node, v)

    def _group(self, g: Group) -> None:
        """One loop over the group's space: every member a statement, stored only if read
        outside the loop; reductions accumulate."""
        shape, loads, body, stores = g.space, [], [], []
        local: dict = {}

        def arg(i: Node):
            if i in local:
                return local[i]
            s = self.value(i)
            if not isinstance(s, View):       # a Literal or a Scalar local
                return s
            view = s.broadcast(shape)
            if view not in loads:
                loads.append(view)
            return ("load", loads.index(view))
        for m in sorted(g.members, key=self.order.__getitem__):
            if get(m.op).kind == REDUCE:
                out = self.new_buffer(m)
                stores.append(Store(m, arg(m.inputs[0]), _reduced_out(out, shape, g.axes),
                                    m.op))
                self.storage[m] = out
                continue
            name = f"t{len(body)}"
            body.append(Stmt(m, name, [arg(i) for i in m.inputs]))
            local[m] = name
            if m in self.stored:
                out = self.new_buffer(m)
                stores.append(Store(m, name, out))
                self.storage[m] = out
        self.kernels.append(LoopKernel(stores[0].node, shape, loads, body, stores,
                                       g.axes or ()))

    def _cat(self, n: Node) -> None:
        out = self.new_buffer(n)
        axis, offset = n.attr("axis"), 0
        for src in n.inputs:
            part = View(out.buffer, offset * out.strides[axis], src.shape, out.strides)
            s = self.value(src)
            loads = [s.broadcast(src.shape)] if isinstance(s, View) else []
            self.kernels.append(copy_kernel(n, src.shape, ("load", 0) if loads else s, part,
                                            loads))
            offset += src.shape[axis]
        self.storage[n] = out

    def _unslice(self, n: Node, s) -> View:
        """A strided ``unslice`` (or one of a number): zeros, then the values in place."""
        out = self.new_buffer(n)
        a = n.a
        self.kernels.append(copy_kernel(n, n.shape, Literal(0, n.dtype), out))
        offset = sum(s * st for s, st in zip(a["starts"], out.strides))
        strides = tuple(st * step for st, step in zip(out.strides, a["steps"]))
        src = n.inputs[0]
        part = View(out.buffer, offset, src.shape, strides)
        loads = [s.broadcast(src.shape)] if isinstance(s, View) else []
        self.kernels.append(copy_kernel(n, src.shape, ("load", 0) if loads else s, part, loads))
        return out


# ------------------------------------------------------------------ buffer plan

def _views(k):
    """Every View a kernel touches (and a function to rebuild the kernel with new ones)."""
    if isinstance(k, ScalarStmt):
        return [a for a in k.args if isinstance(a, View)]
    if isinstance(k, LoopKernel):
        return list(k.loads) + [s.out for s in k.stores]
    if isinstance(k, MatmulKernel):
        return [k.a, k.b, k.out]
    return list(k.inputs) + [k.out]


def _remap(k, f):
    """``k`` with every View's buffer replaced by ``f(buffer)``."""
    def v(view):
        return replace(view, buffer=f(view.buffer)) if isinstance(view, View) else view
    if isinstance(k, ScalarStmt):
        return replace(k, args=[v(a) for a in k.args])
    if isinstance(k, LoopKernel):
        return replace(k, loads=[v(x) for x in k.loads],
                       stores=[replace(s, out=v(s.out)) for s in k.stores])
    if isinstance(k, MatmulKernel):
        return replace(k, a=v(k.a), b=v(k.b), out=v(k.out))
    return replace(k, inputs=[v(x) for x in k.inputs], out=v(k.out))


def plan_buffers(kernels: list) -> tuple[list, int]:
    """Place the temporaries in one workspace, reusing the bytes of a temporary once no later
    kernel reads it (interval first-fit, largest first). Returns the kernels with every temp
    at its offset, and the workspace size. Temps that share bytes are marked ``shared`` (the
    C then declares them without ``restrict``: they are different pointers to one object)."""
    first: dict = {}
    last: dict = {}
    touch: list = []           # the kernels that touch a temporary
    for i, k in enumerate(kernels):
        if isinstance(k, ScalarStmt) and not any(isinstance(a, View) for a in k.args):
            continue
        for view in _views(k):
            b = view.buffer
            if b.role == "temp":
                first.setdefault(b, i)
                last[b] = i
                if not touch or touch[-1] != i:
                    touch.append(i)
    placed: list = []          # (start byte, end byte, first kernel, last kernel)
    offsets: dict = {}
    for b in sorted(first, key=lambda b: (-b.size * b.dtype.itemsize, b.index)):
        nbytes = -(-max(b.size * b.dtype.itemsize, 1) // ALIGN) * ALIGN
        busy = sorted((s, e) for s, e, f, l_ in placed if not (l_ < first[b] or last[b] < f))
        at = 0
        for s, e in busy:
            if at + nbytes <= s:
                break
            at = max(at, e)
        offsets[b] = at
        placed.append((at, at + nbytes, first[b], last[b]))
    shared: set = set()
    spans = sorted((offsets[b], offsets[b] + max(b.size * b.dtype.itemsize, 1), b.index, b)
                   for b in offsets)
    for i, (s, e, _, b) in enumerate(spans):
        for s2, _, _, b2 in spans[i + 1:]:
            if s2 >= e:
                break
            shared.update((b, b2))
    total = max((e for _, e, _, _ in placed), default=0)
    new = {b: replace(b, offset=offsets[b], shared=b in shared) for b in offsets}
    kernels = list(kernels)
    for i in touch:            # the others' buffers all stay as they are
        kernels[i] = _remap(kernels[i], lambda b: new.get(b, b))
    return kernels, total


def _reduced_out(out: View, shape: tuple, axes: tuple) -> View:
    """The output view indexed by the input's iteration space: stride 0 on reduced axes."""
    strides = tuple(0 if i in axes else st for i, st in enumerate(out.strides))
    return View(out.buffer, out.offset, shape, strides)


@pausing
def lower(graph: Graph) -> Program:
    """Graph -> Program (see the module docstring)."""
    return _Lowering(graph).run()
