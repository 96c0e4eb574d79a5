"""Outlined blocks -> C: one function per repeated block, one call per occurrence.

Layer: codegen (the ``outline`` kernel family). Input: an ``OutlineCall`` (``lower.outline``)
and the module being generated. Output: the call's statement; the block's function is
generated the first time one of its calls is (``ctx.outlined_name``), its kernels printed as the
module prints any (statements, loops), over its parameters:

    p<k>   a pointer parameter: the address (a buffer plus an offset) the call passes;
    a<k>   a value read from outside the block;
    v<k>   a value the block computes; r<j> points where the ones read later go.

The call declares the values the block returns for later code (``double s12, s40;``) and
passes their addresses, so the statements after it read them under their own names. Inside a
block's function, ``k<i>`` numbers its kernels from 0.
"""

from __future__ import annotations

from ...lower.loopir import ElementStmt, ScalarStmt
from ...lower.outline import Outline, OutlineCall, OutlineLoop
from . import statements
from .control import pointer
from .emitted import Emitted, emitter_of
from .text import comment_text


def emit(ctx, number: int, k: OutlineCall | OutlineLoop) -> Emitted:
    """The call of block ``k.rep``, or a loop of calls (the function made at the first)."""
    if isinstance(k, OutlineLoop):
        return _loop(ctx, number, k)
    name = ctx.outlined_name(k.outline)
    args = [_address(v) for v in k.pointers]
    args += [s.name if slot is None else f"(const {s.dtype.ctype} *)(work + {slot})"
             for s, slot in k.inputs]
    args += [f"({s.dtype.ctype} *)(work + {slot})" for s, slot in k.results]
    slots = dict((s.name, slot) for s, slot in k.results)
    lines = [f"    /* k{number}: block {k.rep + 1} of {k.outline.reps} ({k.size} kernels): "
             f"{name} */"]
    lines += [f"    *({s.dtype.ctype} *)(work + {slot}) = {s.name};" for s, slot in k.stashes]
    lines.append(f"    {name}({', '.join(args)});")
    lines += [f"    const {s.dtype.ctype} {s.name} = *({s.dtype.ctype} *)(work + "
              f"{slots[s.name]});" for s in k.loads]
    ctx.last_loc[0] = None    # (the next statement shows its source line)
    uses = {s.name for s, slot in k.inputs if slot is None}
    uses.update(s.name for s, _ in k.stashes)
    return Emitted("\n".join(lines), 0, statement=True, defines=tuple(k.loads),
                   uses=frozenset(uses), direct=True, names=("work",))


def _loop(ctx, number: int, k: OutlineLoop) -> Emitted:
    """A loop calling the block on each row of a table of the arguments that differ."""
    name = ctx.outlined_name(k.outline)
    calls = k.calls
    columns = [[_address(v) for v in c.pointers] +
               [s.name if slot is None else f"(const {s.dtype.ctype} *)(work + {slot})"
                for s, slot in c.inputs] +
               [f"({s.dtype.ctype} *)(work + {slot})" for s, slot in c.results]
               for c in calls]
    offsets = [_offsets(c) for c in calls]
    varying = [j for j in range(len(columns[0]))
               if offsets[0][j] is not None and any(o[j] != offsets[0][j] for o in offsets)]
    args = list(columns[0])
    for col, j in enumerate(varying):
        base, _ = offsets[0][j]
        args[j] = base.replace("@", f"o[{col}]")
    width = max(abs(o[j][1]) for o in offsets for j in varying) if varying else 0
    ctype = "int32_t" if width < 2 ** 31 else "int64_t"
    first, last = calls[0].rep + 1, calls[-1].rep + 1
    lines = [f"    /* k{number}: blocks {first}-{last} of {k.outline.reps} ({k.size} kernels): "
             f"{name} on each row of the table */", "    {"]
    if varying:
        lines.append(f"        static const {ctype} rows[{len(calls)}][{len(varying)}] = {{")
        lines += ["            {" + ", ".join(str(o[j][1]) for j in varying) + "},"
                  for o in offsets]
        lines.append("        };")
    lines.append(f"        for (int64_t r = 0; r < {len(calls)}; r++) {{")
    if varying:
        lines.append(f"            const {ctype} *o = rows[r];")
    lines.append(f"            {name}({', '.join(args)});")
    lines += ["        }", "    }"]
    uses = frozenset(s.name for s, slot in calls[0].inputs if slot is None)
    return Emitted("\n".join(lines), 0, uses=uses, direct=True, names=("work",))


def _offsets(call) -> list:
    """Per argument of ``call``: (its C with ``@`` for the offset, the offset), or None for an
    argument that is a local."""
    out = []
    for v in call.pointers:
        b = v.buffer
        if b.role == "temp":
            out.append((f"({b.dtype.ctype} *)(work + @)",
                        b.offset + v.offset * b.dtype.itemsize))
        else:
            out.append((f"{b.name} + @", v.offset))
    out += [None if slot is None else (f"(const {s.dtype.ctype} *)(work + @)", slot)
            for s, slot in call.inputs]
    out += [(f"({s.dtype.ctype} *)(work + @)", slot) for s, slot in call.results]
    return out


def _address(v) -> str:
    """The address a call passes: a temporary's in ``work`` directly (a block's calls touch
    many temporaries once each: a pointer declared for each made the compiler's register
    allocation the larger part of its time), an argument's from its name."""
    b = v.buffer
    if b.role == "temp":
        return f"({b.dtype.ctype} *)(work + {b.offset + v.offset * b.dtype.itemsize})"
    return pointer(v)


def function(ctx, name: str, body: Outline) -> tuple[str, str]:
    """(the C definition of ``body`` as function ``name`` with ``%s`` where its storage class
    goes, its prototype)."""
    params = [f"{'' if w else 'const '}{b.dtype.ctype} *{b.name}"
              for b, w in zip(body.params, body.writable)]
    params += [f"const {s.dtype.ctype} *q{j}" if a else f"{s.dtype.ctype} {s.name}"
               for j, (s, a) in enumerate(zip(body.inputs, body.by_address))]
    params += [f"{s.dtype.ctype} *r{j}" for j, s in enumerate(body.results)]
    prototype = f"void {name}({', '.join(params) or 'void'})"
    reads = [f"    const {s.dtype.ctype} {s.name} = *q{j};"
             for j, (s, a) in enumerate(zip(body.inputs, body.by_address)) if a]
    texts = _kernels(ctx, body)
    returns = [f"    *r{j} = {s.name};" for j, s in enumerate(body.results)]
    where = f"from kernel {body.first}" if body.first else "from the start"
    head = (f"/* {name}: a block of {len(body.kernels)} kernels that the program runs "
            f"{body.reps} times in a row ({comment_text(where)}), each time on other buffers "
            f"and values: the calls pass them. */")
    lines = [head, "%s" + prototype, "{", *reads,
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
