"""Lowering: optimized graph -> loop IR (buffers, views and kernels).

Layer: lower. Input: a ``Graph``. Output: a ``Program``: the buffers (inputs, hidden constant
inputs, outputs, one workspace of temporaries), and a list of kernels in execution order. Only
this stage knows strides and memory: ops marked ``view`` (reshape of contiguous data, permute,
expand, slice, step-1 unslice) become views with no loop; the loop groups planned by fusion.py
become one loop kernel each (fused nodes are scalar statements, only what leaves the loop is
stored); everything else gets a kernel that writes a buffer; ``buffers.plan_buffers`` then
places the temporaries in one workspace. The loop IR it produces carries what codegen needs
(dtypes, expressions, source lines): nothing of the graph. It must not produce C text or touch
the filesystem.

An op that is neither fused (elementwise, reduce) nor a view names the module that lowers it:
``OpDef.kernel = "<family>"`` is ``symgrad.lower.<family>.lower(lowering, node)`` (see
``loopir``'s kernel protocol), looked up when first needed. Such a function uses this
object's methods (``value``, ``as_view``, ``new_buffer``, ``copy_dense``, ``scratch``, ``sub``,
``hidden_const``, ``control_siblings``) and appends to ``kernels``, records in ``storage``.
"""

from __future__ import annotations

import functools
import numpy as np


from ..dims import NotGeneric, is_one, symbols_of
from ..gcpause import pausing
from ..ir import Graph, Node, consumers
from ..ir.control import group_key, is_control
from ..ir.reads import UsedElements
from ..ir.zeros import KnownZeros
from ..ops import get
from ..ops.registry import ELEMENTWISE, REDUCE, resolve
from .accumulate import plan_chains
from .capabilities import Capabilities
from .buffers import plan_buffers
from .band import banded
from .cat import place_operands
from .control import place_tapes
from .fusion import Group, is_view_op, plan_fusion
from .index import check_ahead, hoist_checks
from .outline import outline
from .small_products import fuse_small_products
from .rows import fuse_rows
from .strips import strip_runs
from .loopir import (Buffer, ElementStmt, Expr, IndexedView, Literal, LoopKernel, Program,
                     Scalar, ScalarStmt, Stmt, Store, View, contiguous_strides, copy_kernel)


@pausing
def lower(graph: Graph, capabilities: Capabilities) -> Program:
    """Graph -> Program (see the module docstring), for a backend whose kernels take what
    ``capabilities`` says."""
    return _Lowering(graph, capabilities).run()


def fusion_groups(graph: Graph) -> list:
    """The loops the fusion plan makes of ``graph``'s nodes, in execution order: each a
    list of the nodes computed in one loop (what ``Inspection.to_dot`` draws as clusters)."""
    nodes = graph.nodes()
    users = consumers(nodes)
    outputs = set(graph.values)
    chains = plan_chains(nodes, users, outputs)
    slots, _, _, _ = plan_fusion(nodes, users, outputs, own=set(chains.contribution))
    return [list(payload.members) for kind, payload in slots if kind == "group"]


@functools.cache
def lowering_of(kernel: str):
    """``symgrad.lower.<kernel>.lower``: the function that lowers the ops naming ``kernel``."""
    return resolve(f"{__package__}.{kernel}", "lower",
                   f"lowering for kernel family {kernel!r}")


def expression(node: Node) -> Expr:
    """The loop IR's description of an elementwise node's computation."""
    operand = node.inputs[-1].dtype if node.inputs else node.dtype
    exponent = _literal_exponent(node.inputs[1]) if node.op == "pow" else None
    return Expr(node.op, node.dtype, operand, exponent)


def _literal_exponent(node: Node) -> float | None:
    """The value of a pow's exponent when it is one constant (seen through the expands that
    broadcast it), else None."""
    while node.op == "expand":
        node = node.inputs[0]
    return node.attr("value") if node.op == "const" and node.ndim == 0 else None


class _Lowering:
    def __init__(self, graph: Graph, capabilities: Capabilities, top: bool = True):
        self.graph = graph
        self.capabilities = capabilities
        self.top = top               # the entry point's program (not a loop body's)
        self.tapes: dict = {}        # while_grad node -> the tape slot a while loop fills
        self.locs = graph.locs
        self.nodes = graph.nodes()
        self.order = {n: i for i, n in enumerate(self.nodes)}
        self.users = consumers(self.nodes)
        self.outputs = set(graph.values)
        self.chains = plan_chains(self.nodes, self.users, self.outputs)
        self.slots, self.group_of, self.stored, self.recomputed = plan_fusion(
            self.nodes, self.users, self.outputs, own=set(self.chains.contribution))
        self.storage: dict[Node, object] = {}
        self.kernels: list = []
        self.consts: list = []
        self.n_temps = 0
        self.n_scalars = 0
        self.out_buffers = [Buffer("output", j, n.dtype, n.size)
                            for j, n in enumerate(graph.values)]
        self.written_by: dict[Node, Buffer] = self._claim_outputs()
        self._claim_chains()
        self.flat_cats: set = set()   # 1-D cats in contiguous memory (cat.place_operands)
        self.placed: dict[Node, tuple] = place_operands(self)
        self.zeros = KnownZeros()     # the matrices known triangular (lower.matmul)
        self.used = UsedElements(self.users, self.outputs)     # and used in a triangle

    def _claim_outputs(self) -> dict:
        """node -> the output buffer its kernel writes directly (no copy at the end): each
        output computed by a kernel, or a reshape of a kernel's result read by nothing else."""
        claimed: dict = {}
        early = self.before_guards()
        for j, n in enumerate(self.graph.values):
            src = n
            while (src.op == "reshape" and len(set(self.users.get(src.inputs[0], []))) == 1
                   and src.inputs[0] not in self.outputs):
                src = src.inputs[0]
            if src in claimed or src in early or not self._materialized_by_kernel(src):
                continue
            if src is not n and src.op == "reshape":
                continue
            claimed[src] = self.out_buffers[j]
        return claimed

    def before_guards(self) -> set:
        """The nodes computed before the last guard is checked: they must not write an
        output buffer (a call that fails a guard writes no output)."""
        if not self.graph.n_guards:
            return set()
        last = max(i for i, (kind, p) in enumerate(self.slots)
                   if kind != "group" and p.op == "guard")
        early: set = set()
        for kind, payload in self.slots[:last]:
            early.update(payload.members if kind == "group" else (payload,))
        return early

    def _claim_chains(self) -> None:
        """Each accumulation chain's buffer (its root's), and the kernel that writes the base
        of the chain there directly when nothing else reads that base."""
        chains = self.chains
        for step, root in chains.root.items():
            if root not in self.written_by:
                self.written_by[root] = self.temp(root)
            base = chains.previous[step]
            if chains.is_first(step) and base not in self.written_by and \
                    base not in self.outputs and set(self.users.get(base, ())) == {step} and \
                    self._materialized_by_kernel(base):
                self.written_by[base] = self.written_by[root]

    def _materialized_by_kernel(self, n: Node) -> bool:
        kind = get(n.op).kind
        if kind == ELEMENTWISE and not n.shape:
            return False                     # a ScalarStmt: a local, not a buffer
        return not is_view_op(n) and n.op not in ("input", "const")

    # -------------------------------------------------------------- buffers
    def new_buffer(self, node: Node) -> View:
        """A contiguous buffer for ``node``: its output buffer if it is one, else a temporary;
        or its window of a cat's buffer (``cat.place_operands``)."""
        if node in self.placed:
            cat, offset, operand = self.placed[node]
            whole = self.new_buffer(cat)
            if cat in self.flat_cats:     # a dense window: the node dense in it
                return View(whole.buffer, whole.offset + offset * whole.strides[0],
                            node.shape, View.dense(whole.buffer, node.shape).strides)
            axis = cat.attr("axis")
            strides = tuple(st for d, st in zip(operand.shape, whole.strides) if not is_one(d))
            strides = iter(strides)     # (the operand's strides, its size-1 dims dropped)
            return View(whole.buffer, whole.offset + offset * whole.strides[axis], node.shape,
                        tuple(0 if is_one(d) else next(strides) for d in node.shape))
        return View.dense(self.written_by.get(node) or self.temp(node), node.shape)

    def temp(self, node: Node) -> Buffer:
        """A temporary of the workspace for ``node``'s value."""
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
        self.kernels.append(copy_kernel(node.op, node.shape, s, out, loc=self.locs.get(node)))
        self.storage[node] = out
        return out

    # -------------------------------------------------------------- per slot
    def run(self) -> Program:
        inputs = []
        for i, n in enumerate(self.graph.inputs):
            buf = Buffer("input", i, n.dtype, n.size)
            inputs.append(buf)
            self.storage[n] = View.dense(buf, n.shape)
        for n in self.nodes:
            if n.op == "const":
                self._const(n)
            elif n.op == "dim":       # a call-time size: its C expression
                self.storage[n] = Literal(n.attr("size"), n.dtype)
        for kind, payload in self.slots:
            if kind == "group":
                self._group(payload)
            else:
                self._node(payload)
        for j, n in enumerate(self.graph.values):
            self._finish_output(self.out_buffers[j], n)
        kernels = fuse_small_products(hoist_checks(self.kernels), self.scratch)
        kernels = banded(fuse_rows(kernels) if self.top else kernels, self.consts)
        kernels = strip_runs(kernels)
        kernels, workspace = plan_buffers(kernels)
        kernels, workspace = place_tapes(kernels, workspace)
        kernels, workspace = outline(kernels, workspace)
        sizes = sorted(set().union(*(symbols_of(n.shape) for n in self.graph.inputs)))
        return Program(inputs, self.consts, self.out_buffers, kernels, workspace, tuple(sizes))

    def _finish_output(self, buf: Buffer, n: Node) -> None:
        """Copy output ``n`` into its buffer unless its kernel wrote it there."""
        src = self.value(n)
        if isinstance(src, View) and src.buffer is buf:
            return
        out = View.dense(buf, n.shape)
        loads = [src.broadcast(n.shape)] if isinstance(src, View) else []
        self.kernels.append(copy_kernel(n.op, n.shape, ("load", 0) if loads else src, out,
                                        loads, self.locs.get(n)))

    def _node(self, n: Node) -> None:
        op = get(n.op)
        if n in self.storage:          # a sibling lowered with its application
            return
        if n in self.chains.contribution:     # (a step: chains.is_step, inlined)
            self._step(n)
        elif op.kind == ELEMENTWISE:        # 0-d: one statement at function scope
            scalar = Scalar(f"s{self.n_scalars}", n.dtype)
            self.n_scalars += 1
            storage = self.storage
            args = []
            for i in n.inputs:
                s = storage.get(i)
                args.append(self.value(i) if s is None else s)
            self.kernels.append(ScalarStmt(scalar.name, expression(n), args, self.locs.get(n)))
            storage[n] = scalar
        elif op.kernel:
            lowering_of(op.kernel)(self, n)
        else:
            raise NotImplementedError(f"symgrad does not compile {n.op} yet (its OpDef "
                                      f"names no kernel): run this function without "
                                      f"@symgrad.compile, where {n.op} works eagerly")

    # -------------------------------------------------------------- for lower.control
    def control_siblings(self, key: tuple) -> dict:
        """index -> node, of the values of one control-flow application the graph reads."""
        groups = self.__dict__.get("_groups")
        if groups is None:
            groups = self._groups = {}
            for m in self.nodes:
                if is_control(m):
                    groups.setdefault(group_key(m), {})[m.attr("index")] = m
        return groups[key]

    def sub(self, graph: Graph) -> Program:
        """A body graph lowered as a program of its own."""
        if any(symbols_of(n.shape) for n in graph.nodes()):
            raise NotGeneric("a control-flow body over call-time sizes")
        return _Lowering(graph, self.capabilities, top=False).run()

    def hidden_const(self, buf: Buffer, value) -> View:
        """A hidden constant of a body, made one of this program's."""
        own = Buffer("const", len(self.consts), buf.dtype, buf.size)
        self.consts.append((own, value))
        return View.dense(own, (buf.size,))

    def scratch(self, dtype, shape: tuple) -> Buffer:
        """A temporary of the workspace that no node's value lives in."""
        size = 1
        for s in shape:
            size *= s
        buf = Buffer("temp", self.n_temps, dtype, size)
        self.n_temps += 1
        return buf

    def copy_dense(self, node: Node, view: View) -> View:
        return self._copy(node, view)

    def _const(self, n: Node) -> None:
        value = n.attr("value")
        if n.ndim == 0 and not hasattr(value, "shape"):
            self.storage[n] = Literal(value, n.dtype)
            return
        buf = Buffer("const", len(self.consts), n.dtype, n.size)
        self.consts.append((buf, value))
        self.storage[n] = View.dense(buf, n.shape)

    def _movement(self, n: Node):
        a = n.a
        src = self.value(n.inputs[0])
        if n.op == "unslice":
            return self._unslice(n, src)
        if not isinstance(src, View):
            return src   # a broadcast / reshape / slice of one number is that number
        if n.op == "expand":
            return src.broadcast(n.shape)
        if n.op == "permute":
            window = None if src.window is None else tuple(src.window[p] for p in a["perm"])
            return View(src.buffer, src.offset, n.shape, tuple(src.strides[p] for p in a["perm"]),
                        window, src.fill)
        if n.op == "slice":
            view = src.sliced(a["starts"], a["steps"], n.shape)
            if view.window is not None and any(lo >= hi for lo, hi in view.window):
                return Literal(src.fill, n.dtype)    # (outside the window: the fill only)
            return view
        if src.is_contiguous():       # reshape
            return View(src.buffer, src.offset, n.shape, contiguous_strides(n.shape))
        view = src.reshaped(n.shape)  # (strides for it, else a dense copy first)
        if view is not None:
            return view
        src = self._copy(n.inputs[0], src)
        return View(src.buffer, src.offset, n.shape, contiguous_strides(n.shape))

    def _copy(self, node: Node, src: View) -> View:
        """Materialize a strided view contiguously (a loop kernel with no body)."""
        out = View.dense(self.temp(node), node.shape)
        self.kernels.append(copy_kernel(node.op, node.shape, ("load", 0), out, [src],
                                        self.locs.get(node)))
        return out

    def _group(self, g: Group) -> None:
        """One loop over the group's space: every member a statement, stored only if read
        outside the loop; reductions accumulate."""
        shape, loads, body, stores, checks = g.space, [], [], [], []
        local: dict = {}

        def arg(i: Node):
            if i in local:
                return local[i]
            if i in self.recomputed:        # (computed again here: fusion.RECOMPUTED)
                args = [arg(j) for j in i.inputs]
                local[i] = name = f"t{len(body)}"
                body.append(Stmt(name, expression(i), args, self.locs.get(i)))
                return name
            s = self.value(i)
            if not isinstance(s, View):       # a Literal or a Scalar local
                return s
            view = s.broadcast(shape)
            if view not in loads:
                loads.append(view)
            return ("load", loads.index(view))
        for m in sorted(g.members, key=self.order.__getitem__):
            loc = self.locs.get(m)
            if get(m.op).kind == REDUCE:
                out = self.new_buffer(m)
                stores.append(Store(arg(m.inputs[0]), _reduced_out(out, shape, g.axes), m.op,
                                    m.size, m.op, loc))
                self.storage[m] = out
                continue
            if m.op == "gather":
                at = arg(m.inputs[1])
                check = check_ahead(self, m, at)
                if check is not None and check not in checks:
                    checks.append(check)
                source = self._indexed(m, shape, check)
                if source not in loads:
                    loads.append(source)
                args = [("load", loads.index(source)), at]
            else:
                args = [arg(i) for i in m.inputs]
            name = f"t{len(body)}"      # (after its operands: a recomputed one is a statement)
            body.append(Stmt(name, expression(m), args, loc))
            local[m] = name
            if m in self.stored:
                out = self.new_buffer(m)
                stores.append(Store(name, out, m.op, m.size, loc=loc))
                self.storage[m] = out
        self.kernels += checks
        self.kernels.append(LoopKernel(shape, loads, body, stores, g.axes or ()))

    def _indexed(self, m: Node, shape: tuple, check) -> IndexedView:
        """A gather's source as its loop reads it: at the loop's index but along the axis,
        where the index points (a dense copy first if its view has a window; one number, a
        seed of ones say, in a one-element buffer); ``check``: the index's check before the
        loop, None if the loop checks it."""
        x, axis = m.inputs[0], m.attr("axis")
        src = self.value(x)
        if isinstance(src, Literal):
            src = self._spread(src, x.shape)
        elif src.window is not None:
            src = self.copy_dense(x, src)
        strides = tuple(0 if d == axis else st for d, st in enumerate(src.strides))
        return IndexedView(src.buffer, src.offset, shape, strides,
                           axis_stride=src.strides[axis], bound=x.shape[axis],
                           checked=check is None,
                           held=check is None or check.index.buffer.role != "temp")

    def _step(self, n: Node) -> None:
        """One step of an accumulation chain (see accumulate.py): its window added in place
        into the chain's buffer, after the base when it is the first step."""
        chains = self.chains
        out = View.dense(self.written_by[chains.root[n]], n.shape)
        loc = self.locs.get(n)
        if chains.is_first(n):
            base = chains.previous[n]
            if base.op == "unslice" and base not in self.storage:
                # zeros, and the window's values as they are (not added: -0.0 stays)
                self.kernels.append(copy_kernel(base.op, n.shape, Literal(0, n.dtype), out,
                                                loc=self.locs.get(base)))
                self._window(base, out, False, self.locs.get(base))
            else:
                src = self.value(base)
                if not (isinstance(src, View) and src.buffer is out.buffer):
                    loads = [src.broadcast(n.shape)] if isinstance(src, View) else []
                    self.kernels.append(copy_kernel(n.op, n.shape, ("load", 0) if loads else src,
                                                    out, loads, loc))
        self._window(chains.contribution[n], out, True, loc)
        self.storage[n] = out

    def _window(self, c: Node, out: View, accumulate: bool, loc) -> None:
        """``c = unslice(s, window)``: s written (or added) into ``out``'s window."""
        a = c.a
        src = c.inputs[0]
        s = self.value(src)
        offset = out.offset + sum(st * stride for st, stride in zip(a["starts"], out.strides))
        strides = tuple(stride * step for stride, step in zip(out.strides, a["steps"]))
        if src.size == 1 and not (isinstance(s, View) and s.window is not None):
            # one element: a statement at function scope
            value = View(s.buffer, s.offset, (), ()) if isinstance(s, View) else s
            self.kernels.append(ElementStmt(View(out.buffer, offset, (), ()), value, accumulate,
                                            "add" if accumulate else c.op, loc))
            return
        part = View(out.buffer, offset, src.shape, strides)
        loads = [s.broadcast(src.shape)] if isinstance(s, View) else []
        self.kernels.append(LoopKernel(src.shape, loads, [], [
            Store(("load", 0) if loads else s, part, "add" if accumulate else c.op, src.size,
                  loc=loc, accumulate=accumulate)]))

    def _spread(self, value: Literal, shape: tuple) -> View:
        """One number at every element of ``shape``: a one-element constant, strides 0."""
        buf = Buffer("const", len(self.consts), value.dtype, 1)
        self.consts.append((buf, np.full(1, value.value, value.dtype.np)))
        return View(buf, 0, shape, (0,) * len(shape))

    def _unslice(self, n: Node, s) -> View:
        """The gradient of a slice: a windowed view of ``s`` when its steps are 1 (reads outside
        the window are zero), else zeros and then the values in place."""
        a = n.a
        if isinstance(s, Literal) and all(st == 1 for st in a["steps"]):
            s = self._spread(s, n.inputs[0].shape)     # (masked: a view needs a buffer)
        if isinstance(s, View) and (s.window is None or s.fill == 0) and \
                all(st == 1 for st in a["steps"]) and all(s.shape):
            # (a padding of a padded view: the inner window shifted, zeros around both; a
            # size-1 dim's stride 0: its one index reads the same element at any position)
            strides = tuple(0 if is_one(d) else t for d, t in zip(s.shape, s.strides))
            offset = s.offset - sum(st * stride for st, stride in zip(a["starts"], strides))
            inner = s.window or tuple((0, d) for d in s.shape)
            window = tuple((st + lo, st + hi) for st, (lo, hi) in zip(a["starts"], inner))
            return View(s.buffer, offset, n.shape, strides, window)
        out = self.new_buffer(n)
        loc = self.locs.get(n)
        self.kernels.append(copy_kernel(n.op, n.shape, Literal(0, n.dtype), out, loc=loc))
        offset = sum(st * stride for st, stride in zip(a["starts"], out.strides))
        strides = tuple(stride * step for stride, step in zip(out.strides, a["steps"]))
        src = n.inputs[0]
        part = View(out.buffer, offset, src.shape, strides)
        loads = [s.broadcast(src.shape)] if isinstance(s, View) else []
        self.kernels.append(copy_kernel(n.op, src.shape, ("load", 0) if loads else s, part,
                                        loads, loc))
        return out


def _reduced_out(out: View, shape: tuple, axes: tuple) -> View:
    """The output view indexed by the input's iteration space: stride 0 on reduced axes."""
    strides = tuple(0 if i in axes else st for i, st in enumerate(out.strides))
    return View(out.buffer, out.offset, shape, strides)
