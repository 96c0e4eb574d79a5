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
class LoopKernel:
    """``out[i] = body(loads[i])`` over ``shape``; with ``reduce``, accumulates over axes."""

    node: Node
    shape: tuple
    loads: list                 # Views broadcast to ``shape``
    body: list                  # Stmts in order; the last one's local is the result
    result: object              # a local name, Literal, Scalar, or ("load", k)
    out: View                   # broadcast to ``shape`` (stride 0 along reduced axes)
    reduce: str | None = None   # "sum" | "max" | "min" | "prod"
    reduce_axes: tuple = ()


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


def _fusable(node: Node, users: dict, outputs: set) -> bool:
    """Inline ``node`` into its only consumer's loop (same iteration space). 0-d nodes are
    never fused: each is one statement at function scope (see ``ScalarStmt``)."""
    if get(node.op).kind != ELEMENTWISE or node in outputs or not node.shape:
        return False
    us = users.get(node, [])
    if len(set(us)) != 1:
        return False
    (u,) = set(us)
    kind = get(u.op).kind
    if kind == ELEMENTWISE:
        return u.shape == node.shape
    if kind == REDUCE:
        return u.inputs[0].shape == node.shape
    return False


class _Lowering:
    def __init__(self, graph: Graph):
        self.graph = graph
        self.nodes = graph.nodes()
        self.users = consumers(self.nodes)
        self.outputs = set(graph.outputs)
        self.fused = {n for n in self.nodes if _fusable(n, self.users, self.outputs)}
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
            if src in claimed or not self._materialized_by_kernel(src) or src in self.fused:
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

    def as_view(self, node: Node) -> View:
        """The node as a View, copying a Literal into a one-element buffer if need be."""
        s = self.storage[node]
        if isinstance(s, View):
            return s
        out = self.new_buffer(node)
        self.kernels.append(LoopKernel(node, node.shape, [], [], s, out))
        self.storage[node] = out
        return out

    # -------------------------------------------------------------- per node
    def run(self) -> Program:
        inputs = []
        for i, n in enumerate(self.graph.inputs):
            buf = Buffer("input", i, n.dtype, n.size)
            inputs.append(buf)
            self.storage[n] = View(buf, 0, n.shape, contiguous_strides(n.shape))
        for n in self.nodes:
            if n in self.storage or n in self.fused:
                continue
            op = get(n.op)
            if n.op == "const":
                self._const(n)
            elif op.kind == MOVEMENT:
                self._movement(n)
            elif op.kind == ELEMENTWISE and not n.shape:
                scalar = Scalar(f"s{self.n_scalars}", n.dtype)
                self.n_scalars += 1
                self.kernels.append(ScalarStmt(n, scalar.name,
                                               [self.storage[i] for i in n.inputs]))
                self.storage[n] = scalar
            elif op.kind in (ELEMENTWISE, REDUCE):
                self._loop(n)
            elif n.op == "matmul":
                self.storage[n] = out = self.new_buffer(n)
                a, b = (self._gemm_operand(i) for i in n.inputs)
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
        outputs = []
        for j, n in enumerate(self.graph.outputs):
            buf = Buffer("output", j, n.dtype, n.size)
            outputs.append(buf)
            src = self.storage[n]
            if isinstance(src, View) and src.buffer == buf:
                continue
            out = View(buf, 0, n.shape, contiguous_strides(n.shape))
            loads = [src.broadcast(n.shape)] if isinstance(src, View) else []
            self.kernels.append(LoopKernel(n, n.shape, loads, [], ("load", 0) if loads else src,
                                           out))
        return Program(self.graph, inputs, self.consts, outputs, self.kernels, self.temp_bytes,
                       self.graph.locs)

    def _const(self, n: Node) -> None:
        value = n.attr("value")
        if n.ndim == 0 and not hasattr(value, "shape"):
            self.storage[n] = Literal(value, n.dtype)
            return
        buf = Buffer("const", len(self.consts), n.dtype, n.size)
        self.consts.append((buf, value))
        self.storage[n] = View(buf, 0, n.shape, contiguous_strides(n.shape))

    def _movement(self, n: Node) -> None:
        src = self.storage[n.inputs[0]]
        if not isinstance(src, View):
            self.storage[n] = src   # a broadcast / reshape / slice of one number is that number
            return
        a = n.a
        if n.op == "permute":
            v = View(src.buffer, src.offset, n.shape, tuple(src.strides[p] for p in a["perm"]))
        elif n.op == "expand":
            v = src.broadcast(n.shape)
        elif n.op == "slice":
            offset = src.offset + sum(s * st for s, st in zip(a["starts"], src.strides))
            strides = tuple(st * step for st, step in zip(src.strides, a["steps"]))
            v = View(src.buffer, offset, n.shape, strides)
        else:  # reshape
            if not src.is_contiguous():
                src = self._copy(n.inputs[0], src)
            v = View(src.buffer, src.offset, n.shape, contiguous_strides(n.shape))
        self.storage[n] = v

    def _copy(self, node: Node, src: View) -> View:
        """Materialize a strided view contiguously (a loop kernel with no body)."""
        out = View(self._temp(node), 0, node.shape, contiguous_strides(node.shape))
        self.kernels.append(LoopKernel(node, node.shape, [src], [], ("load", 0), out))
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

    def _loop(self, n: Node) -> None:
        op = get(n.op)
        out = self.new_buffer(n)
        if op.kind == REDUCE:
            axes = n.attr("axes")
            shape = n.inputs[0].shape
            loads, body = [], []
            result = self._expr(n.inputs[0], loads, body, shape, root_is_stmt=False)
            kernel = LoopKernel(n, shape, loads, body, result, _reduced_out(out, shape, axes),
                                n.op, axes)
        else:
            loads, body = [], []
            result = self._expr(n, loads, body, n.shape)
            kernel = LoopKernel(n, n.shape, loads, body, result, out)
        self.kernels.append(kernel)
        self.storage[n] = out

    def _expr(self, node: Node, loads: list, body: list, shape: tuple,
              root_is_stmt: bool = True):
        """The scalar value of ``node`` inside a loop over ``shape``: fused nodes become
        statements, materialized ones become loads."""
        memo: dict = {}
        # Iterative post-order: fused chains can be tens of thousands of nodes long (an unrolled
        # scalar ODE), far deeper than Python's recursion limit.
        stack = [(node, False)]
        while stack:
            m, expanded = stack.pop()
            if m in memo:
                continue
            if not ((m is node and root_is_stmt) or m in self.fused):
                s = self.storage[m]
                if not isinstance(s, View):      # a Literal or a Scalar local
                    memo[m] = s
                    continue
                view = s.broadcast(shape)
                if view not in loads:
                    loads.append(view)
                memo[m] = ("load", loads.index(view))
                continue
            if not expanded:
                stack.append((m, True))
                stack.extend((i, False) for i in reversed(m.inputs) if i not in memo)
                continue
            local = f"t{len(body)}"
            body.append(Stmt(m, local, [memo[i] for i in m.inputs]))
            memo[m] = local
        return memo[node]

    def _cat(self, n: Node) -> None:
        out = self.new_buffer(n)
        axis, offset = n.attr("axis"), 0
        for src in n.inputs:
            part = View(out.buffer, offset * out.strides[axis], src.shape, out.strides)
            s = self.storage[src]
            loads = [s.broadcast(src.shape)] if isinstance(s, View) else []
            self.kernels.append(LoopKernel(n, src.shape, loads, [],
                                           ("load", 0) if loads else s, part))
            offset += src.shape[axis]
        self.storage[n] = out

    def _unslice(self, n: Node) -> None:
        out = self.new_buffer(n)
        a = n.a
        self.kernels.append(LoopKernel(n, n.shape, [], [], Literal(0, n.dtype), out))
        offset = sum(s * st for s, st in zip(a["starts"], out.strides))
        strides = tuple(st * step for st, step in zip(out.strides, a["steps"]))
        src = n.inputs[0]
        part = View(out.buffer, offset, src.shape, strides)
        s = self.storage[src]
        loads = [s.broadcast(src.shape)] if isinstance(s, View) else []
        self.kernels.append(LoopKernel(n, src.shape, loads, [], ("load", 0) if loads else s,
                                       part))
        self.storage[n] = out


def _reduced_out(out: View, shape: tuple, axes: tuple) -> View:
    """The output view indexed by the input's iteration space: stride 0 on reduced axes."""
    strides = tuple(0 if i in axes else st for i, st in enumerate(out.strides))
    return View(out.buffer, out.offset, shape, strides)


def lower(graph: Graph) -> Program:
    """Graph -> Program (see the module docstring)."""
    return _Lowering(graph).run()
