"""Outlined blocks -> C: one function per repeated block, one call per occurrence.

Layer: codegen (the ``outline`` kernel family). Input: an ``OutlineCall`` or ``OutlineLoop``
(``lower.outline``) and the module being generated. Output: the call's statement, or the loop
over the calls' table; the block's function is generated the first time one of its calls is
(``ctx.outlined_name``), its kernels printed as the module prints any (statements, loops).

A block's function takes ``work``, ``o`` (its call's row of offsets), the base of each array
that is not always a temporary, and the values it reads from locals. In it:

    g<n>   the address of a group of temporaries (``work + o[...]``): the ones whose
           addresses differ by the same bytes in every call;
    p<k>   its arrays: a group's address plus bytes, or a base plus an offset of the row
           (``restrict`` when no two overlap in any call);
    a<k>   the values computed before it (from a slot in ``work``, or passed);
    v<k>   the values it computes; those later code reads go to their slots in ``work``.

A single call passes its row as a compound literal; a loop passes the rows of a static table.
A statement after the call that reads a block's value loads it from its slot under its own
name. Inside a block's function, ``k<i>`` numbers its kernels from 0.
"""

from __future__ import annotations

from ...lower.loopir import ElementStmt, ScalarStmt
from ...lower.outline import Outline, OutlineCall, OutlineLoop
from . import statements
from .emitted import Emitted, emitter_of


def emit(ctx, number: int, k: OutlineCall | OutlineLoop) -> Emitted:
    """The call of block ``k.rep``, or a loop of calls (the function made at the first)."""
    if isinstance(k, OutlineLoop):
        return _loop(ctx, number, k)
    name = ctx.outlined_name(k.outline, number)
    row, args = _row(k), _args(k)
    ctype = _row_type(k.outline)
    slots = dict((s.name, slot) for s, slot in k.results)
    lines = [f"    /* k{number}: block {k.rep + 1} of {k.outline.reps} ({k.size} kernels): "
             f"{name} */"]
    lines += [f"    *({s.dtype.ctype} *)(work + {slot}) = {s.name};" for s, slot in k.stashes]
    literal = f"(const {ctype}[]){{{_ints(row) or '0'}}}"
    lines.append(f"    {name}({', '.join(['work', literal, *args])});")
    lines += [f"    const {s.dtype.ctype} {s.name} = *({s.dtype.ctype} *)(work + "
              f"{slots[s.name]});" for s in k.loads]
    ctx.last_loc[0] = None    # (the next statement shows its source line)
    uses = {s.name for s, slot in k.inputs if slot is None}
    uses.update(s.name for s, _ in k.stashes)
    return Emitted("\n".join(lines), 0, statement=True, defines=tuple(k.loads),
                   uses=frozenset(uses), direct=True, names=("work", *_bases(k)))


def _loop(ctx, number: int, k: OutlineLoop) -> Emitted:
    """A loop calling the block on each row of a table of the offsets the calls pass."""
    name = ctx.outlined_name(k.outline, number)
    calls = k.calls
    ctype = _row_type(k.outline)
    args = ", ".join(["work", "rows[r]", *_args(calls[0])])
    first, last = calls[0].rep + 1, calls[-1].rep + 1
    lines = [f"    /* k{number}: blocks {first}-{last} of {k.outline.reps} ({k.size} kernels): "
             f"{name} on each row of the table */", "    {",
             f"        static const {ctype} rows[{len(calls)}][{len(_row(calls[0])) or 1}] = {{",
             *(f"            {{{_ints(_row(c)) or '0'}}}," for c in calls),
             "        };",
             f"        for (int64_t r = 0; r < {len(calls)}; r++)",
             f"            {name}({args});", "    }"]
    uses = frozenset(s.name for s, slot in calls[0].inputs if slot is None)
    return Emitted("\n".join(lines), 0, uses=uses, direct=True,
                   names=("work", *_bases(calls[0])))


def _ints(row: list) -> str:
    return ", ".join(map(str, row))


def _row_type(body: Outline) -> str:
    return "int64_t" if body.wide else "int32_t"


def _row(call: OutlineCall) -> list:
    """The offsets a call passes in its row: per group of pointer params in ``work`` (a
    temporary in every call of the body, ``Outline.groups``), its first param's bytes into
    ``work``; per other pointer param, elements from the base passed (``_args``); per input
    read from a slot and per result, the slot's bytes into ``work``."""
    row, seen = [], set()
    for v, group in zip(call.pointers, call.outline.groups):
        b = v.buffer
        size = b.dtype.itemsize
        if group is None:
            row.append((b.offset // size if b.role == "temp" else 0) + v.offset)
        elif group[0] not in seen:       # (the group's first param: 0 bytes after itself)
            seen.add(group[0])
            row.append(b.offset + v.offset * size)
    row += [slot for _, slot in call.inputs if slot is not None]
    return row + [slot for _, slot in call.results]


def _args(call: OutlineCall) -> list:
    """The arguments after ``work`` and the row: the base of each pointer param that is not
    always a temporary, then the values passed as they are."""
    args = []
    for v, in_work in zip(call.pointers, call.outline.in_work):
        if not in_work:
            b = v.buffer
            args.append(f"({b.dtype.ctype} *)work" if b.role == "temp" else b.name)
    return args + [s.name for s, slot in call.inputs if slot is None]


def _bases(call: OutlineCall) -> tuple:
    """The entry point's parameters a call names (the argument buffers it passes)."""
    return tuple(v.buffer.name for v in call.pointers if v.buffer.role != "temp")


def function(ctx, name: str, body: Outline, number: int) -> tuple[str, str]:
    """(the C definition of ``body`` as function ``name`` with ``%s`` where its storage class
    goes, its prototype); ``number``: the kernel that calls it first."""
    ctype = _row_type(body)
    restrict = "restrict " if body.disjoint else ""
    params = ["unsigned char *work", f"const {ctype} *o"]
    lines, col = [], 0
    for j, (b, writable, group) in enumerate(zip(body.params, body.writable, body.groups)):
        t = b.dtype.ctype if writable else f"const {b.dtype.ctype}"
        if group is None:
            params.append(f"{t} *b{j}")
            lines.append(f"    {t} *{restrict}{b.name} = b{j} + o[{col}];")
            col += 1
            continue
        n, delta = group
        if not any(g is not None and g[0] == n for g in body.groups[:j]):
            lines.append(f"    unsigned char *g{n} = work + o[{col}];")
            col += 1
        lines.append(f"    {t} *{restrict}{b.name} = ({t} *)(g{n} + {delta});")
    for s, by_address in zip(body.inputs, body.by_address):
        if by_address:
            lines.append(f"    const {s.dtype.ctype} {s.name} = *(const {s.dtype.ctype} *)"
                         f"(work + o[{col}]);")
            col += 1
        else:
            params.append(f"{s.dtype.ctype} {s.name}")
    returns = []
    for s in body.results:
        returns.append(f"    *({s.dtype.ctype} *)(work + o[{col}]) = {s.name};")
        col += 1
    prototype = f"void {name}({', '.join(params)})"
    in_work = any(g is not None for g in body.groups) or any(body.by_address) or body.results
    unused = ([] if in_work else ["work"]) + ([] if col else ["o"])
    if unused:
        lines.insert(0, "    " + " ".join(f"(void){p};" for p in unused))
    texts = _kernels(ctx, body)
    head = (f"/* {name}: a block of {len(body.kernels)} kernels that the program runs "
            f"{body.reps} times in a row (first at k{number}), each time on other data: "
            f"`o` holds the offsets of what it reads and writes (a row of the caller's table), "
            f"p<k> point to its arrays, a<k> are values computed before it, v<k> values it "
            f"computes. */")
    lines = [head, "%s" + prototype, "{", *lines,
             "\n\n".join(t.replace("%", "%%") for t in texts), *returns, "}"]
    return "\n".join(lines), prototype


def _kernels(ctx, body: Outline) -> list:
    """The body's kernels' C, as a function's (each showing its source line afresh)."""
    outer, ctx.last_loc = ctx.last_loc, [None]
    texts, paragraph = [], []
    try:
        for i, k in enumerate(body.kernels):
            if type(k) is ScalarStmt or type(k) is ElementStmt:
                paragraph.append(statements.item(ctx, k).text)
                continue
            out = emitter_of(k)(ctx, i, k)
            if out.errors or out.threaded or out.blas or out.malloc or out.names:
                raise AssertionError(f"outlined kernel {k!r} needs what a block cannot give")
            ctx.last_loc[0] = None
            if paragraph:
                texts.append("\n".join(paragraph))
                paragraph = []
            if out.text:
                texts.append(out.text.rstrip("\n"))
    finally:
        ctx.last_loc = outer
    if paragraph:
        texts.append("\n".join(paragraph))
    return texts
