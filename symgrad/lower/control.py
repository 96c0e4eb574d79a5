"""Lowering of loops and branches (``ops.control``): one ``ControlKernel`` per application.

Layer: lower. Input: a node of ``scan``, ``while`` or ``cond``, its siblings, and the lowering in
progress. Output: a ``ControlKernel`` appended to the lowering's kernels, whose bodies are
programs of their own (each body graph lowered like a whole function: codegen gives each one
a C function, called once per step or once for the branch taken).

Buffers: each operand is passed as a dense view (a strided one is copied first); each carry
has two buffers of the workspace, the current value and the next one, whose pointers the C
swaps after every step (no copy); the carries' final values are copied once into the group's
value buffers. A scan's stacked values are written in place, step ``t`` at ``t``'s row. Each
body's own temporaries live in a workspace region of the enclosing program (``work``), and its
hidden constants become hidden constants of the enclosing program. A body's value that nothing
reads still gets a buffer (the body writes every value it has).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

from ..dtypes import uint8
from ..ir.control import bodies
from ..ir.walk import Application
from ..ir.graph import Loc
from ..ops import get
from .loopir import Program, View
from .outline import OutlineCall, OutlineLoop

__all__ = ["ControlKernel", "lower", "all_kernels", "place_tapes", "tape_slots"]


@dataclass
class ControlKernel:
    """One application of a control-flow op (``lower.control``): a loop or a branch whose
    bodies are programs of their own."""

    kind: str               # "scan" | "while" | "cond"
    programs: list          # the bodies' programs (scan: body; while: cond, body; cond: F, T)
    consts: list            # per program: the Views of the enclosing program it passes as
                            # the body's hidden constants
    operands: list          # dense Views of the node's inputs
    carries: list           # per carry: (current, next) dense Views (scan, while)
    outputs: list           # dense Views: every value of the application
    work: list              # per program: a View of bytes for its workspace
    flag: View | None       # while: where the condition's value is written
    attrs: dict             # length, reverse, carries, xs (as the node has them)
    loc: Loc | None = None
    # A while loop whose tape the reverse loop of a later while_grad reads (the forward
    # loop runs once): the tape slot's number, then (after the buffer plan) its byte offset
    # in ``work``. A ``while`` with a tape fills it; a ``while_grad`` with one reads it.
    tape: int | None = None
    # The positions of the values the graph never reads (a loop's final carry when only its
    # stacked values are used, as a gradient's forward loop): their final copy is skipped.
    unread: frozenset = frozenset()
    family: ClassVar[str] = "control"

    def views(self) -> list:
        flat = [v for pair in self.carries for v in pair]
        extra = [self.flag] if self.flag is not None else []
        return ([v for c in self.consts for v in c] + self.operands + flat + self.outputs +
                self.work + extra)

    def with_views(self, v) -> ControlKernel:
        return replace(self, consts=[[v(x) for x in c] for c in self.consts],
                       operands=[v(x) for x in self.operands],
                       carries=[(v(a), v(b)) for a, b in self.carries],
                       outputs=[v(x) for x in self.outputs], work=[v(x) for x in self.work],
                       flag=None if self.flag is None else v(self.flag))


def lower(lowering, node) -> None:
    """Append the kernel of ``node``'s application to ``lowering`` (a ``lowering._Lowering``)
    and record where each of its values that the graph reads lives."""
    app = Application.of(node)
    siblings = lowering.control_siblings(app.key)
    attrs = app.attrs
    operands = [_dense(lowering, i) for i in node.inputs]
    graphs, tape = bodies(node), None
    if node.op == "while" and lowering.top:
        reverse = _reverse_of(lowering, node)
        if reverse is not None:          # fill the tape the reverse loop reads
            tape = lowering.tapes[reverse] = len(lowering.tapes)
            graphs = [reverse.attr("cond"), reverse.attr("body")]
    elif node.op == "while_grad" and node in lowering.tapes:
        tape = lowering.tapes[node]
        graphs = [node.attr("step")]     # the forward loop ran already
    programs = [lowering.sub(g) for g in graphs]
    consts = [[lowering.hidden_const(buf, value) for buf, value in p.consts] for p in programs]
    opdef = get(node.op)
    shapes = [i.shape for i in node.inputs]
    dtypes = [i.dtype for i in node.inputs]
    outputs, unread = [], set()
    for k in range(app.arity):
        sib = siblings.get(k)
        if sib is not None:
            view = lowering.new_buffer(sib)
            lowering.storage[sib] = view
        else:                 # (a value the graph never reads)
            unread.add(k)
            full = {**attrs, "index": k}
            shape = tuple(opdef.shape(*shapes, **full))
            view = View.dense(lowering.scratch(opdef.dtype(*dtypes, **full), shape), shape)
        outputs.append(view)
    carries = []
    for i in _carried(node, attrs):
        carries.append((View.dense(lowering.scratch(i.dtype, i.shape), i.shape),
                        View.dense(lowering.scratch(i.dtype, i.shape), i.shape)))
    work = [View.dense(lowering.scratch(uint8, (p.workspace_bytes,)), (p.workspace_bytes,))
            for p in programs]
    flag = None
    if node.op == "while" or (node.op == "while_grad" and tape is None):
        out = programs[0].outputs[0]
        flag = View.dense(lowering.scratch(out.dtype, ()), ())
    lowering.kernels.append(ControlKernel(node.op, programs, consts, operands, carries,
                                          outputs, work, flag, attrs,
                                          lowering.locs.get(node), tape, frozenset(unread)))


def _reverse_of(lowering, node):
    """The first ``while_grad`` after ``node`` (a ``while``) that runs the same loop (the same
    operands, condition and body, its body's extra values aside), or None."""
    cond, body, nc = node.attr("cond"), node.attr("body"), node.attr("carries")
    here = lowering.order[node]
    for n in lowering.nodes[here + 1:]:
        if n.op != "while_grad" or n in lowering.tapes or \
                n.inputs[:len(node.inputs)] != node.inputs:
            continue
        c, b = n.attr("cond"), n.attr("body")
        if (c.inputs, c.outputs) == (cond.inputs, cond.outputs) and \
                b.inputs == body.inputs and b.outputs[:nc] == body.outputs[:nc]:
            return n
    return None


def place_tapes(kernels: list, workspace: int) -> tuple[list, int]:
    """Give each tape slot 16 bytes (the tape's address and its number of steps) after the
    temporaries, where no temporary reuses them: the entry point frees a tape left there."""
    if not any(isinstance(k, ControlKernel) and k.tape is not None for k in kernels):
        return kernels, workspace
    base = -(-workspace // 64) * 64
    placed, count = [], 0
    for k in kernels:
        if isinstance(k, ControlKernel) and k.tape is not None:
            count = max(count, k.tape + 1)
            k = replace(k, tape=base + 16 * k.tape)
        placed.append(k)
    return placed, base + 16 * count


def tape_slots(program: Program) -> list[int]:
    """The byte offsets of the tape slots of ``program`` (its while loops that fill one)."""
    return sorted({k.tape for k in program.kernels
                   if isinstance(k, ControlKernel) and k.tape is not None})


def _carried(node, attrs: dict) -> list:
    """The operands whose values the loop carries (the reverse loop's seeds too)."""
    if node.op == "cond":
        return []
    carried = list(node.inputs[:attrs["carries"]])
    if node.op == "while_grad":
        carried += node.inputs[len(attrs["cond"].inputs):]
    return carried


def _dense(lowering, node) -> View:
    v = lowering.as_view(node)
    return v if v.is_contiguous() else lowering.copy_dense(node, v)


def all_kernels(program: Program) -> list:
    """The kernels of ``program`` and, recursively, of the bodies of its control kernels and
    of its outlined blocks (``outline``)."""
    found, outlined = [], set()
    for k in program.kernels:
        found.append(k)
        if isinstance(k, ControlKernel):
            for p in k.programs:
                found.extend(all_kernels(p))
        elif isinstance(k, (OutlineCall, OutlineLoop)) and id(k.outline) not in outlined:
            outlined.add(id(k.outline))     # an outlined block's body, once
            found.extend(k.outline.kernels)
    return found


def memory_report(program: Program, depth: int = 0) -> list[str]:
    """Lines describing what ``program`` keeps in memory: its workspace, and for each loop
    the bytes it stores per step for its reverse pass (a scan's stacked values, a while
    loop's tape of carries), recursively for loops in bodies."""
    pad = "  " * depth
    lines = [f"{pad}workspace: {program.workspace_bytes} bytes"] if not depth else []
    for k in program.kernels:
        if not isinstance(k, ControlKernel):
            continue
        nc = k.attrs.get("carries", 0)
        if k.kind == "scan":
            rows = sum(v.buffer.dtype.itemsize * _row(v) for v in k.outputs[nc:])
            lines.append(f"{pad}scan of {k.attrs['length']} steps: {rows} bytes of stacked "
                         f"values per step ({rows * k.attrs['length']} in all)")
        elif k.kind == "while_grad" and k.tape is not None:
            lines.append(f"{pad}the reverse of the while loop above: reads the tape it kept")
        elif k.kind in ("while", "while_grad") and (k.kind == "while_grad" or
                                                    k.tape is not None):
            slot = sum(-(-c.buffer.dtype.itemsize * _row(c, 0) // 8) * 8
                       for c, _ in k.carries[:nc])
            slot += sum(-(-b.dtype.itemsize * b.size // 8) * 8
                        for b in k.programs[1].outputs[nc:])
            what = "while loop" + (" and its reverse" if k.kind == "while_grad" else "")
            lines.append(f"{pad}{what}: a tape of {max(slot, 8)} bytes per step (carries and "
                         f"residuals, allocated as the loop runs)")
        else:
            lines.append(f"{pad}{k.kind}: stores nothing per step")
        for p in k.programs:
            lines += memory_report(p, depth + 1)
    return lines


def _row(v: View, lead: int = 1) -> int:
    size = 1
    for s in v.shape[lead:]:
        size *= s
    return size
