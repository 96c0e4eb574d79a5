"""Function-scope statements -> C: a 0-d elementwise node's local (``ScalarStmt``) and one
element written or added in place (``ElementStmt``).

Layer: codegen (the ``statements`` kernel family). Input: the statement and the module being
generated. Output: one line ending in a comment naming the op and the user's ``file.py:line``,
after the user's whole source line when it differs from the previous statement's.

A large unrolled program is mostly these lines (det7_flat: 38,614 of its 38,616 kernels), so
``item`` builds each one's ``split.Item`` directly, without an ``Emitted`` in between, with the
source lines' comments and the buffers' names looked up once per module (``Printer``):
measured 6.1 -> 3.4 us of CPU per statement, Item included, on det7_flat's 38,614 (``emit``,
the family's entry point, returns the same text).
"""

from __future__ import annotations

from ...lower.loopir import ElementStmt, Scalar, ScalarStmt, View
from .emitted import Emitted
from .exprs import c_statement
from .loops import operand
from .split import Item
from .text import comment_text, where


class Printer:
    """What printing one module's statements looks up once: per source location, its
    trailing comment, the key that tells whether a line shows it afresh, and that header
    line; per buffer, its name. ``calls`` gathers the libm functions the statements call."""

    def __init__(self, calls: set):
        self.calls = calls
        self.locs: dict = {}      # id(loc) -> (where, key, header, loc): loc keeps the id taken
        self.names: dict = {}     # Buffer -> its name (Buffers hash by identity)

    def loc(self, loc) -> tuple:
        """(trailing comment, key, header line, loc) of source location ``loc``."""
        found = self.locs.get(id(loc))
        if found is None:
            found = self.locs[id(loc)] = (
                where(loc.file, loc.line), (loc.file, loc.line, loc.note),
                f"    /* {comment_text(f'{loc}: {loc.text}')} */\n", loc)
        return found

    def name(self, buffer) -> str:
        """``buffer.name``, computed once."""
        name = self.names.get(buffer)
        if name is None:
            name = self.names[buffer] = buffer.name
        return name

    def line(self, line: str, loc, op: str, last_loc: list) -> str:
        """A statement line ending in its comment (``file.py:3 [op]``), after the user's whole
        source line when that changed since the previous statement."""
        if loc is None:
            return f"{line}[{op}] */"
        shown, key, header, _ = self.loc(loc)
        if key != last_loc[0]:
            last_loc[0] = key
            return f"{header}{line}{shown} [{op}] */"
        return f"{line}{shown} [{op}] */"


def printer(ctx) -> Printer:
    """The module's ``Printer`` (made at its first statement)."""
    found = getattr(ctx, "printer", None)
    if found is None:
        found = ctx.printer = Printer(ctx.loops.calls)
    return found


def emit(ctx, number: int, k) -> Emitted:
    it = item(ctx, k)
    return Emitted(it.text, statement=True, defines=tuple(it.defines),
                   uses=frozenset(it.uses))


def item(ctx, k) -> Item:
    """The ``split.Item`` of statement ``k``: its line, the Scalar it defines, the names of
    those it reads, the temporaries and the entry's parameters it touches; weight 1."""
    p = printer(ctx)
    temps, params = set(), set()
    if type(k) is ScalarStmt:
        uses, texts = set(), []
        for a in k.args:
            if type(a) is Scalar:
                uses.add(a.name)
                texts.append(a.name)
            elif isinstance(a, View):
                texts.append(_touch(p, a, temps, params))
            else:
                texts.append(operand(a, []))
        text, called = c_statement(k.expr, texts)
        if called:
            p.calls.update(called)
        line = p.line(f"    const {k.expr.dtype.ctype} {k.name} = {text};  /* ", k.loc,
                      k.expr.op, ctx.last_loc)
        return Item(line, [Scalar(k.name, k.expr.dtype)], uses, temps, params, 1)
    assert type(k) is ElementStmt, k
    target = _touch(p, k.target, temps, params)
    value = k.value
    if type(value) is Scalar:
        uses, value = {value.name}, value.name
    else:
        uses = set()
        value = _touch(p, value, temps, params) if isinstance(value, View) else \
            operand(value, [])
    line = p.line(f"    {target} {'+=' if k.accumulate else '='} {value};  /* ", k.loc, k.op,
                  ctx.last_loc)
    return Item(line, [], uses, temps, params, 1)


def _touch(p: Printer, view: View, temps: set, params: set) -> str:
    """A 0-d view's C (``buf[offset]``); its buffer joins ``temps`` (a temporary) or, by name,
    ``params`` (an argument of the entry point)."""
    buffer = view.buffer
    name = p.name(buffer)
    if buffer.role == "temp":
        temps.add(buffer)
    else:
        params.add(name)
    return f"{name}[{view.offset}]"
