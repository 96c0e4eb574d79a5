"""Lowering: optimized graph -> loop IR (buffers, views and kernels).

Input: a ``Graph``. Output: a ``Program``: the buffers (inputs, hidden constant inputs, outputs,
one workspace of temporaries), and a list of kernels in execution order. Only this stage knows
strides and memory: movement ops (reshape of contiguous data, permute, expand, slice) become
views with no loop; an elementwise node with one consumer over the same iteration space is
fused into that consumer's loop as a scalar statement; everything else gets a kernel that
writes a buffer. It must not produce C text (codegen does) or touch the filesystem.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from .dtypes import DType
from .ir import Graph, Node, consumers
from .ops import get
from .ops.registry import ELEMENTWISE, MOVEMENT, REDUCE

ALIGN = 64  # bytes: each temporary starts on a cache line


@dataclass(frozen=True)
class Buffer:
    role: str          # "input" | "const" | "output" | "temp"
    index: int         # argument position for input/const/output, byte offset for temp
    dtype: DType
    size: int          # elements

    @property
    def name(self) -> str:
        return {"input": "in", "const": "cst", "output": "out", "temp": "tmp"}[self.role] + \
            str(self.index)


@dataclass(frozen=True)
class View:
    """Elements of a buffer at ``offset + sum(i_k * strides[k])`` for an index in ``shape``."""

    buffer: Buffer
    offset: int
    shape: tuple
    strides: tuple

    def is_contiguous(self) -> bool:
        return self.strides == contiguous_strides(self.shape) or math.prod(self.shape) <= 1

    def broadcast(self, shape: tuple) -> "View":
        lead = len(shape) - len(self.shape)
        strides = tuple(0 if i < lead or self.shape[i - lead] == 1 else self.strides[i - lead]
                        for i in range(len(shape)))
        return View(self.buffer, self.offset, tuple(shape), strides)


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


# ------------------------------------------------------------------ fusion planning
#
# Nodes are visited from the outputs backwards (reverse topological order), so every node's
# consumers are placed before the node is. Each kernel has a position (new ones go before all
# existing ones); an edge u -> v needs pos(u) < pos(v), or u and v in the same loop group with
# v reading u directly as a local. A loop node (elementwise of rank >= 1, or a reduction over
# its input's shape: the group's "space") joins the group of the consumers that read it as a
# local, or, failing that, any group over the same space early enough for all its consumers
# ("horizontal" fusion: siblings that share loads run in one pass); else it opens a group.
# Groups are convex by construction: a group's inputs all come from earlier positions. A node
# is stored to memory only if something outside its group (or the caller) reads it.

MAX_GROUP = 256          # nodes per loop: past this, register pressure beats fusion
HORIZONTAL_SEARCH = 4    # same-space groups looked at for horizontal fusion


class _Group:
    __slots__ = ("pos", "space", "axes", "members")

    def __init__(self, pos: int, space: tuple):
        self.pos = pos
        self.space = space
        self.axes = None          # the reduced axes, once a reduction joined
        self.members: list = []


_OUTPUT = object()               # the caller, as a consumer


def _loop_space(node: Node):
    kind = get(node.op).kind
    if kind == ELEMENTWISE:
        return node.shape if node.shape else None
    if kind == REDUCE:
        return node.inputs[0].shape
    return None


def _effective_consumers(nodes: list, users: dict, outputs: set) -> dict:
    """node -> [(consumer, reads_directly)], looking through views (movement ops): a consumer
    behind a view needs the node in memory; one that reads it directly may take a local."""
    eff: dict = {}
    for n in reversed(nodes):
        if n.op in ("input", "const"):
            continue
        out = [(_OUTPUT, False)] if n in outputs else []
        for c in dict.fromkeys(users.get(n, ())):
            if get(c.op).kind == MOVEMENT:
                out.extend((cc, False) for cc, _ in eff.get(c, ()))
            else:
                out.append((c, True))
        eff[n] = out
    return eff


def plan_fusion(nodes: list, users: dict, outputs: set):
    """Assign every kernel-producing node a slot. Returns (slots in execution order, the
    group of each loop node, the set of loop nodes that must be stored)."""
    eff = _effective_consumers(nodes, users, outputs)
    pos: dict = {}               # node -> its kernel's position
    group_of: dict = {}
    by_space: dict = {}
    slots: list = []             # (position, kind, payload)
    next_pos = 0
    for n in reversed(nodes):
        kind = get(n.op).kind
        if n.op in ("input", "const") or kind == MOVEMENT:
            continue
        space = _loop_space(n)
        if space is None:        # its own kernel (or a function-scope scalar statement)
            next_pos -= 1
            pos[n] = next_pos
            slots.append((next_pos, "node", n))
            continue
        axes = n.attr("axes") if kind == REDUCE else None
        limit, local = math.inf, {}
        for c, direct in eff[n]:
            if c is _OUTPUT:
                continue
            g = group_of.get(c)
            if direct and kind != REDUCE and g is not None and g.space == space:
                local.setdefault(g, []).append(c)
            else:
                limit = min(limit, pos[c])

        def fits(g):
            if len(g.members) >= MAX_GROUP or (axes is not None and g.axes not in (None, axes)):
                return False
            bound = min([limit] + [h.pos for h in local if h is not g])
            return g.pos < bound
        best = None
        for g in sorted(local, key=lambda g: (-len(local[g]), -g.pos)):
            if fits(g):
                best = g
                break
        if best is None:
            for g in reversed(by_space.get(space, [])[-HORIZONTAL_SEARCH:]):
                if fits(g):
                    best = g
                    break
        if best is None:
            next_pos -= 1
            best = _Group(next_pos, space)
            by_space.setdefault(space, []).append(best)
            slots.append((next_pos, "group", best))
        if axes is not None:
            best.axes = axes
        best.members.append(n)
        group_of[n] = best
        pos[n] = best.pos
    stored = set()
    for n, g in group_of.items():
        for c, direct in eff[n]:
            if not (direct and get(n.op).kind != REDUCE and group_of.get(c) is g):
                stored.add(n)
                break
    slots.sort(key=lambda s: s[0])
    return [(k, p) for _, k, p in slots], group_of, stored


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
        self.temp_bytes = 0
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
        return kind not in (MOVEMENT,) and n.op not in ("input", "const")

    # -------------------------------------------------------------- buffers
    def new_buffer(self, node: Node) -> View:
        """A contiguous buffer for ``node``: its output buffer if it is one, else a temporary."""
        buf = self.out_buffers.get(node) or self._temp(node)
        return View(buf, 0, node.shape, contiguous_strides(node.shape))

    def _temp(self, node: Node) -> Buffer:
        buf = Buffer("temp", self.temp_bytes, node.dtype, node.size)
        self.temp_bytes += -(-max(node.size * node.dtype.itemsize, 1) // ALIGN) * ALIGN
        return buf

    def value(self, node: Node):
        """Where ``node`` lives: a View, a Literal or a Scalar. Views of views are made on
        first use (a reshape of strided data is copied then, after its source is written)."""
        s = self.storage.get(node)
        if s is None:
            if get(node.op).kind != MOVEMENT:
                raise AssertionError(f"lowering: {node.op} used before it was computed")
            s = self._movement(node)
            self.storage[node] = s
        return s

    def as_view(self, node: Node) -> View:
        """The node as a View, copying a Literal into a one-element buffer if need be."""
        s = self.value(node)
        if isinstance(s, View):
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
        return Program(self.graph, inputs, self.consts, outputs, self.kernels, self.temp_bytes,
                       self.graph.locs)

    def _node(self, n: Node) -> None:
        op = get(n.op)
        if op.kind == ELEMENTWISE:        # 0-d: one statement at function scope
            scalar = Scalar(f"s{self.n_scalars}", n.dtype)
            self.n_scalars += 1
            self.kernels.append(ScalarStmt(n, scalar.name, [self.value(i) for i in n.inputs]))
            self.storage[n] = scalar
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
        elif n.op == "unslice":
            self._unslice(n)
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
        src = self.value(n.inputs[0])
        if not isinstance(src, View):
            return src   # a broadcast / reshape / slice of one number is that number
        a = n.a
        if n.op == "permute":
            return View(src.buffer, src.offset, n.shape, tuple(src.strides[p] for p in a["perm"]))
        if n.op == "expand":
            return src.broadcast(n.shape)
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

    def _group(self, g: _Group) -> None:
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

    def _unslice(self, n: Node) -> None:
        out = self.new_buffer(n)
        a = n.a
        self.kernels.append(copy_kernel(n, n.shape, Literal(0, n.dtype), out))
        offset = sum(s * st for s, st in zip(a["starts"], out.strides))
        strides = tuple(st * step for st, step in zip(out.strides, a["steps"]))
        src = n.inputs[0]
        part = View(out.buffer, offset, src.shape, strides)
        s = self.value(src)
        loads = [s.broadcast(src.shape)] if isinstance(s, View) else []
        self.kernels.append(copy_kernel(n, src.shape, ("load", 0) if loads else s, part, loads))
        self.storage[n] = out


def _reduced_out(out: View, shape: tuple, axes: tuple) -> View:
    """The output view indexed by the input's iteration space: stride 0 on reduced axes."""
    strides = tuple(0 if i in axes else st for i, st in enumerate(out.strides))
    return View(out.buffer, out.offset, shape, strides)


def lower(graph: Graph) -> Program:
    """Graph -> Program (see the module docstring)."""
    return _Lowering(graph).run()
