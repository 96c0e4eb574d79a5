"""Control kernels -> C: a real ``for``, ``while`` or ``if`` that calls the bodies' functions.

Layer: codegen. Input: a ``ControlKernel`` (loop IR), the C names of its bodies' functions (the
module generates those, ``module.py``) and the kernel's number. Output: the kernel's C block.

A step calls the body's function on the current carries (and, for a scan, on step ``t``'s rows
of the sequences and of the stacked values), which writes the next carries; the two carry
pointers are then swapped, not copied. The first step reads the init operands where they are
(each carry points at its init operand, which no body writes; after the first step the
carry's own second buffer takes its place), so no copy starts the loop (GradBench's ODE
gradient: three 80 KB copies a call). When the loop's bodies are inlined
(``module.INLINE_WEIGHT``) and its carries are small (at most ``LOCAL_CARRY`` elements in
all), each carry is instead a pair of local arrays, the next copied into the current: gcc
keeps them in registers, where carries in the workspace made every step store and reload
them (GradBench's saddle descents, carries of 1 and 2 numbers: 0.86-1.0 -> 0.59-0.70 ms a
call). A status a body returns (an index out of range in it, an interrupt) is returned at
once. The carries' final values are copied into the application's buffers once the loop
ends. A loop that polls for Ctrl-C (``interrupt.polls``) checks at the end of each step,
after the swap, and returns ``INTERRUPT_STATUS`` (freeing a tape it holds).
"""

from __future__ import annotations

import math
from typing import NamedTuple

from ...lower.control import ControlKernel
from ...lower.loopir import View
from ..backend import MEMORY_STATUS
from . import interrupt
from .emitted import Emitted
from .split import HOT_ELEMENTS
from .render import render_kernel
from .nest import Nest
from .text import loc_comment


# Elements of all of a loop's carries, at most, for local carries: the copy per step of 70
# (GradBench's LSTM gradient, 5 carries of 14) cost more than the swap (5% slower).
LOCAL_CARRY = 32


class Body(NamedTuple):
    """A body's C function: its name, and the arguments it takes after ``nthreads`` (the
    interrupt parameters, when it takes them)."""

    name: str
    tail: tuple = ()


def pointer(v: View) -> str:
    return v.buffer.name if not v.offset else f"{v.buffer.name} + {v.offset}"


def emit(ctx, number: int, k: ControlKernel) -> Emitted:
    """The kernel's C block; its bodies' C functions are generated first (``ctx.function``).
    It passes ``nthreads`` to them, counts as hot, and allocates when it keeps a tape."""
    functions = [ctx.function(p) for p in k.programs]
    inline = [n in ctx.inline for n in functions]
    text, errors = control_kernel(ctx.env, number, k, functions, ctx.interrupts, inline)
    names = ("work",) if k.tape is not None else ()
    if ctx.interrupts and interrupt.uses_params(k):
        names += tuple(interrupt.ARGS)
    local = _locals(k, inline)
    unused = tuple(v.buffer for pair in k.carries if _local(pair[0], local) for v in pair)
    return Emitted(text, HOT_ELEMENTS + 1, errors=tuple(errors), names=names, threaded=True,
                   malloc=k.kind == "while_grad" or k.tape is not None, calls=True,
                   unused=unused)


def control_kernel(env, number: int, k: ControlKernel, names: list,
                   interrupts: bool = False, inline: list | None = None) -> tuple[str, list]:
    """(the kernel's C block, the (status, message) of its errors); ``names``: the C function
    of each of ``k.programs``, ``inline``: whether each is inlined. ``interrupts``: the
    module's functions take the interrupt parameters where they need them
    (``interrupt.takes_params``), and its loops poll."""
    names = [Body(n, interrupt.ARGS if interrupts and interrupt.takes_params(p) else ())
             for n, p in zip(names, k.programs)]
    poll = interrupts and interrupt.polls(k)
    local = _locals(k, inline)
    errors = []
    if k.kind == "cond":
        lines, title = _cond(k, names), "cond"
    elif k.kind == "while_grad":
        status = MEMORY_STATUS + number + 1
        lines = _while_grad(k, names, status, poll, local)
        title = "while loop, then its steps' VJPs backwards"
        where = f" (from {k.loc}: {k.loc.text})" if k.loc else ""
        errors.append((status, f"out of memory for the tape of the while loop's carries{where}"))
    elif k.kind == "scan":
        lines, title = _loop(k, _scan_steps(k, names, poll, local), local), \
            f"scan of {k.attrs['length']} steps{' from the end' if k.attrs['reverse'] else ''}"
    elif k.tape is not None:
        status = MEMORY_STATUS + number + 1
        lines = _loop(k, _while_record(k, names, status, poll, local), local)
        title = "while loop, keeping the tape its reverse loop reads"
        where = f" (from {k.loc}: {k.loc.text})" if k.loc else ""
        errors.append((status, f"out of memory for the tape of the while loop's carries{where}"))
    else:
        lines, title = _loop(k, _while_steps(k, names, poll, local), local), "while loop"
    return render_kernel(env, number, title, [loc_comment(k.loc, k.kind)],
                         [Nest([], lines)], init=["int rc;"]), errors


def _call(fn: Body, args: list, consts: list, outs: list, work: View,
          fail: str = "return rc;") -> str:
    parts = args + [pointer(c) for c in consts] + outs + \
        [f"(unsigned char *){pointer(work)}", "nthreads", *fn.tail]
    return f"if ((rc = {fn.name}({', '.join(parts)}))) {fail}"


def _poll(poll: bool, cleanup: str = "") -> list:
    """The back edge's interrupt check, if the loop polls."""
    return [interrupt.check(cleanup)] if poll else []


def _locals(k: ControlKernel, inline: list) -> bool:
    """Whether the loop's carries are local arrays (see the module docstring): its bodies
    are inlined and its carries small."""
    return bool(inline) and all(inline) and \
        sum(math.prod(c.shape) for c, _ in k.carries) <= LOCAL_CARRY


def _local(carry: View, local: bool) -> bool:
    """Whether a carry is a pair of local arrays (see the module docstring)."""
    return local and math.prod(carry.shape) > 0


def _carry_decls(carries: list, inits: list, local: bool, prefix: str = "") -> list:
    """The carries (pointers into the workspace, or local arrays) and their first values: a
    local array is a copy of the init operand; a pointer points at the init operand itself,
    which the first step reads where it is (``_swap`` then alternates the two buffers)."""
    lines = []
    for j, ((cur, nxt), init) in enumerate(zip(carries, inits)):
        ctype = cur.buffer.dtype.ctype
        size = math.prod(cur.shape)
        if _local(cur, local):
            lines.append(f"{ctype} {prefix}cur{j}[{size}], {prefix}nxt{j}[{size}];")
            if size:
                lines.append(f"for (int64_t e = 0; e < {size}; e++) {prefix}cur{j}[e] = "
                             f"({pointer(init)})[e];")
        else:
            lines.append(f"{ctype} *{prefix}cur{j} = ({ctype} *)({pointer(init)}), "
                         f"*{prefix}nxt{j} = {pointer(nxt)};"
                         "  /* the first step reads the init in place */")
    return lines


def _finish(carries: list, outputs: list, unread: frozenset, prefix: str = "") -> list:
    """The final carries copied into the application's buffers, but those never read."""
    lines = []
    for j, ((cur, _), out) in enumerate(zip(carries, outputs)):
        size = math.prod(cur.shape)
        if size and j not in unread:
            lines.append(f"for (int64_t e = 0; e < {size}; e++) ({pointer(out)})[e] "
                         f"= {prefix}cur{j}[e];")
    return lines


def _swap(carries: list, inits: list, local: bool, prefix: str = "") -> list:
    """The next carries become the current: local arrays copied, pointers swapped (after the
    first step, the init operand's place goes to the carry's second buffer)."""
    lines = []
    for j, ((cur, _), init) in enumerate(zip(carries, inits)):
        c, n = f"{prefix}cur{j}", f"{prefix}nxt{j}"
        if _local(cur, local):
            lines.append(f"for (int64_t e = 0; e < {math.prod(cur.shape)}; e++) {c}[e] = "
                         f"{n}[e];")
        else:
            ctype = cur.buffer.dtype.ctype
            lines.append(f"{{ {ctype} *sw = {c}; {c} = {n}; {n} = sw != ({ctype} *)"
                         f"({pointer(init)}) ? sw : {pointer(cur)}; }}")
    return lines


def _loop(k: ControlKernel, steps: list, local: bool) -> list:
    return _carry_decls(k.carries, k.operands, local) + steps + \
        _finish(k.carries, k.outputs, k.unread)


def _scan_steps(k: ControlKernel, names: list, poll: bool, local: bool) -> list:
    a = k.attrs
    nc, nx, length = a["carries"], a["xs"], a["length"]
    if not length:
        return []
    args = [f"cur{j}" for j in range(nc)]
    for v in k.operands[nc:nc + nx]:
        args.append(f"{pointer(v)} + s * {math.prod(v.shape[1:])}")
    args += [pointer(v) for v in k.operands[nc + nx:]]
    outs = [f"nxt{j}" for j in range(nc)]
    outs += [f"{pointer(v)} + s * {math.prod(v.shape[1:])}" for v in k.outputs[nc:]]
    step = f"{length - 1} - t" if a["reverse"] else "t"
    uses_step = nx or len(k.outputs) > nc
    body = ([f"const int64_t s = {step};"] if uses_step else []) + \
        [_call(names[0], args, k.consts[0], outs, k.work[0])] + \
        _swap(k.carries, k.operands, local) + \
        _poll(poll)
    return [f"for (int64_t t = 0; t < {length}; t++) {{"] + [f"    {x}" for x in body] + ["}"]


def _while_steps(k: ControlKernel, names: list, poll: bool, local: bool) -> list:
    nc = k.attrs["carries"]
    args = [f"cur{j}" for j in range(nc)] + [pointer(v) for v in k.operands[nc:]]
    test = _call(names[0], args, k.consts[0], [pointer(k.flag)], k.work[0])
    step = _call(names[1], args, k.consts[1], [f"nxt{j}" for j in range(nc)],
                 k.work[1])
    body = [test, f"if (!{k.flag.buffer.name}[{k.flag.offset}]) break;", step] + \
        _swap(k.carries, k.operands, local) + _poll(poll)
    return ["for (;;) {"] + [f"    {x}" for x in body] + ["}"]


def _cond(k: ControlKernel, names: list) -> list:
    pred, ops = k.operands[0], k.operands[1:]
    args = [pointer(v) for v in ops]
    outs = [pointer(v) for v in k.outputs]
    calls = [_call(names[b], args, k.consts[b], outs, k.work[b])
             for b in (0, 1)]
    return [f"if ({pred.buffer.name}[{pred.offset}]) {{", f"    {calls[1]}", "} else {",
            f"    {calls[0]}", "}"]


def _tape_layout(items: list) -> tuple[list, int]:
    """Each stored value's byte offset in one step's slot of the tape, and the slot's size
    (every offset a multiple of 8 bytes); ``items``: (element type, elements)."""
    offsets, at = [], 0
    for dtype, size in items:
        offsets.append(at)
        at += -(-size * dtype.itemsize // 8) * 8
    return offsets, max(at, 8)


def _while_grad(k: ControlKernel, names: list, oom: int, poll: bool, local: bool) -> list:
    """The loop, keeping a tape; then its steps' VJPs backwards over the tape. With a tape
    slot, the loop ran already (a ``while`` kernel filled the slot): only the reverse."""
    nc = k.attrs["carries"]
    fwd, rev = k.carries[:nc], k.carries[nc:]
    n_in = len(k.operands) - len(rev)             # the carries and the invariant operands
    if k.tape is not None:
        slot = f"work + {k.tape}"
        lines = _carry_decls(rev, k.operands[n_in:], local, "r") + [
            f"unsigned char *tape = *(unsigned char **)({slot});  /* filled by the loop */",
            f"const int64_t n = *(const int64_t *)({slot} + 8);",
            f"*(unsigned char **)({slot}) = NULL;"]
        stored = _stored_types(k.programs[0], len(rev), nc, n_in - nc)
        return lines + _reverse(k, names[0], k.consts[0], k.work[0], stored, n_in, poll,
                                local) + \
            ["free(tape);"] + _finish(rev, k.outputs, k.unread, "r")
    stored = [(c.buffer.dtype, math.prod(c.shape)) for c, _ in fwd] + \
        [(b.dtype, b.size) for b in k.programs[1].outputs[nc:]]
    lines = _carry_decls(fwd, k.operands, local) + \
        _carry_decls(rev, k.operands[n_in:], local, "r") + \
        _recording(k, names, stored, oom, n_in, poll, local)
    return lines + _reverse(k, names[2], k.consts[2], k.work[2], stored,
                            n_in, poll, local) + ["free(tape);"] + \
        _finish(rev, k.outputs, k.unread, "r")


def _while_record(k: ControlKernel, names: list, oom: int, poll: bool, local: bool) -> list:
    """A while loop that keeps the tape a later reverse loop reads (``k.tape``'s slot)."""
    nc = k.attrs["carries"]
    stored = [(c.buffer.dtype, math.prod(c.shape)) for c, _ in k.carries] + \
        [(b.dtype, b.size) for b in k.programs[1].outputs[nc:]]
    slot = f"work + {k.tape}"
    return _recording(k, names, stored, oom, len(k.operands), poll, local) + [
        f"*(unsigned char **)({slot}) = tape;  /* for the reverse loop (freed by it) */",
        f"*(int64_t *)({slot} + 8) = n;"]


def _stored_types(step, nr: int, nc: int, nk: int) -> list:
    """(dtype, elements) of what a step of the reverse loop reads from the tape: its inputs
    after the reverse carries and before the invariant operands."""
    return [(b.dtype, b.size) for b in step.inputs[nr:len(step.inputs) - nk]]


def _recording(k: ControlKernel, names: list, stored: list, oom: int, n_in: int,
               poll: bool, local: bool) -> list:
    """The forward loop of ``k.programs[0]``/``[1]`` keeping, per step, the carries entering
    it and the body's values beyond its carries on a growing tape (``tape``, ``n``)."""
    nc = k.attrs["carries"]
    fwd = k.carries[:nc]
    offsets, slot = _tape_layout(stored)
    consts = [pointer(v) for v in k.operands[nc:n_in]]
    fail = "{ free(tape); return rc; }"
    args = [f"cur{j}" for j in range(nc)] + consts
    extras = [f"({dt.ctype} *)(tape + n * {slot} + {off})"
              for (dt, _), off in zip(stored[nc:], offsets[nc:])]
    lines = [
        "unsigned char *tape = NULL;  /* per step: the carries entering it, its residuals */",
        "int64_t cap = 0, n = 0;",
        "for (;;) {",
        "    " + _call(names[0], args, k.consts[0], [pointer(k.flag)],
                       k.work[0], fail),
        f"    if (!{k.flag.buffer.name}[{k.flag.offset}]) break;",
        "    if (n == cap) {",
        f"        const int64_t grow = cap ? 2 * cap : {max(16, 32768 // slot)};",
        f"        unsigned char *grown = grow > (int64_t)(SIZE_MAX / {slot}) ? NULL : "
        f"(unsigned char *)realloc(tape, (size_t)grow * {slot});",
        f"        if (!grown) {{ free(tape); return {oom}; }}",
        "        tape = grown;",
        "        cap = grow;",
        "    }"]
    for j, ((dt, size), off) in enumerate(zip(stored[:nc], offsets)):
        if size:
            lines.append(f"    for (int64_t e = 0; e < {size}; e++) (({dt.ctype} *)(tape + n * "
                         f"{slot} + {off}))[e] = cur{j}[e];")
    lines += ["    " + _call(names[1], args, k.consts[1],
                             [f"nxt{j}" for j in range(nc)] + extras, k.work[1], fail)]
    return lines + [f"    {x}" for x in _swap(fwd, k.operands, local) + ["n++;"] +
                    _poll(poll, "free(tape);")] + \
        ["}"]


def _reverse(k: ControlKernel, fn: Body, consts_views: list, work: View,
             stored: list, n_in: int, poll: bool, local: bool) -> list:
    """The reverse loop over the tape: ``r = step(r, stored values of step t, consts)``."""
    nc = k.attrs["carries"]
    rev = k.carries[nc:]
    offsets, slot = _tape_layout(stored)
    consts = [pointer(v) for v in k.operands[nc:n_in]]
    saved = [f"(const {dt.ctype} *)(tape + t * {slot} + {off})"
             for (dt, _), off in zip(stored, offsets)]
    call = _call(fn, [f"rcur{j}" for j in range(len(rev))] + saved + consts,
                 consts_views, [f"rnxt{j}" for j in range(len(rev))], work,
                 "{ free(tape); return rc; }")
    return ["for (int64_t t = n - 1; t >= 0; t--) {", f"    {call}"] + \
        [f"    {x}" for x in _swap(rev, k.operands[n_in:], local, "r") +
         _poll(poll, "free(tape);")] + ["}"]
