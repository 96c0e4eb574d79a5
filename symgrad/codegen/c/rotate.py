"""Strip loops as one loop over vectors, each value read behind kept in registers.

Layer: codegen (for ``strips``). Input: a ``StripLoop``. Output: the C of one loop over its
elements in vectors of ``VECTOR_BYTES`` (GCC/clang vector types), or None where it does not
apply; ``strips`` prints it between two runs of the strips (below), under ``GUARD``.

Why. A run of strip loops is a recurrence along a vector: RK4's stages of the chain ODE
(GradBench's ``ode``) each read the stage before shifted by one element. As strips, every
stage is a loop storing its values and the next loop loading them back one element behind:
per eight elements the ODE's step makes 15 vector loads (seven across cache lines) and four
stores, and on a Zen 4 it runs at ~4.5 cycles an element, bound by its loads. One loop over
vectors computes every stage of a vector in turn and gets a value one element behind from
the stage's vector and the one before it (a lane shuffle); the values no kernel outside the
run reads are never stored. Measured in a C harness (100 steps at n = 100,000, one thread,
the same bits): strips 12.1-12.5 ms, vectors 6.4 ms; storing the three internal stages as
well, 10.2 ms. gcc 12 vectorizes none of this from plain C: a value carried from one
iteration to the next (a first-order recurrence) keeps its loop scalar.

How. Elements [0, start) run as strips first (start is one vector when a load has a window,
so that a vector's loads need no test); then vectors over [start, end), end the last whole
vector; then [end, n) as strips again. A buffer the run writes and a later loop reads ``d``
elements behind (1 <= d <= lanes) is kept as its previous vector ``p_<buffer>``, loaded from
what the first strips stored; a value read at its own element is its writer's vector. A
buffer that is internal (``StripLoop.internal``) and read behind has its last vector stored
after the loop, where the last strips read it. Other loads are unaligned vector loads (their
windows start at most one vector in, so they always read inside them) or, broadcast, scalars.

Exact: each element is computed by the same statements from the same values (vector
arithmetic is IEEE per lane; -ffp-contract=off keeps a*b+c two roundings), so the result has
the bits of the strips. It applies where every statement is arithmetic a vector type prints
as it is (+ - * / of operands and literals; no calls, comparisons or selects) and every value
is float64, or float32 with float literals. On other machines and compilers ``GUARD`` is false
and the strips run everything.
"""

from __future__ import annotations

import re

from ...lower.loopir import Literal, Scalar, View
from .exprs import c_statement
from .literals import c_literal
from .text import loc_comment

VECTOR_BYTES = 64      # a vector: one AVX-512 register
GUARD = "#if defined(__AVX512F__) && (defined(__clang__) || __GNUC__ >= 12)"
# What a statement's C may hold besides its operands: numbers, parentheses, + - * /.
_NUMBER = r"(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?[fF]?"
_TOKENS = re.compile(rf"(?:\s*(?:sgA\d+|{_NUMBER}|[()+\-*/]))*\s*")
_FLOAT_NUMBER = re.compile(r"\d\.|\.\d|[eE]")


def vector_loop(k, number: int) -> tuple[int, int, list[str]] | None:
    """(start, end, lines): the C of the loop over vectors of ``k``'s elements [start, end),
    with what it declares before and stores after; None where it does not apply. ``number``:
    the kernel's, for the comments naming its loops."""
    dtype = k.kernels[0].stores[0].out.buffer.dtype
    if dtype.name not in ("float64", "float32"):
        return None
    v = _Vectors(k, dtype)
    try:
        for j, inner in enumerate(k.kernels):
            v.loop(j, inner, f"k{number}.{j + 1}")
    except _Unfit:
        return None
    return v.lines()


class _Unfit(Exception):
    """The run has something the vector loop does not print."""


class _Vectors:
    """The vector loop being printed: its body, what each stored buffer's vector is named
    (buffer -> (store offset, name)), and the buffers read behind."""

    def __init__(self, k, dtype):
        self.k, self.dtype = k, dtype
        self.lanes = VECTOR_BYTES // dtype.itemsize
        self.body: list = []
        self.written: dict = {}
        self.behind: dict = {}      # buffer -> the C name of its previous vector
        self.windows = False

    def loop(self, j: int, inner, name: str) -> None:
        self.body.append(f"/* {name}, in vectors */")
        loads = [self.load(v, f"l{i}_{j + 1}") for i, v in enumerate(inner.loads)]
        local: dict = {}
        for s in inner.body:
            args = [self.operand(a, loads, local) for a in s.args]
            if s.expr.dtype is not self.dtype or s.expr.operand is not self.dtype:
                raise _Unfit
            self._check(s.expr, len(args))
            text, _ = c_statement(s.expr, [a for a, _ in args])
            vector = any(vec for _, vec in args)
            name = f"{s.local}_{j + 1}"
            local[s.local] = (name, vector)
            ctype = "sg_v" if vector else self.dtype.ctype
            self.body.append(f"const {ctype} {name} = {text};"
                             f"  /* {loc_comment(s.loc, s.expr.op)} */")
        for b, st in enumerate(inner.stores):
            value, vector = self.operand(st.value, loads, local)
            out = st.out
            if not vector or out.buffer.dtype is not self.dtype:
                raise _Unfit
            self.written[out.buffer] = (out.offset, value)
            if (j, b) not in self.k.internal:
                self.body.append(f"*(sg_vu *)({_at(out.buffer.name, out.offset)}) = {value};")

    def load(self, v, name: str) -> tuple[str, bool]:
        """A load's (C name, whether it is a vector), its line added to the body."""
        if type(v) is not View or v.buffer.dtype is not self.dtype:
            raise _Unfit
        lo, hi = v.window[0] if v.window is not None else (0, self.k.n)
        if hi < self.k.n:
            raise _Unfit
        if v.buffer in self.written:      # written by a loop before: its vector, or behind
            offset, value = self.written[v.buffer]
            behind = offset - v.offset
            if v.strides != (1,) or behind < 0 or behind > self.lanes or lo != max(behind, 0):
                raise _Unfit
            if behind == 0:
                return value, True
            prev = self.behind.setdefault(v.buffer, f"p{len(self.behind)}")
            lanes = ", ".join(str(i) for i in range(self.lanes - behind,
                                                    2 * self.lanes - behind))
            text = f"__builtin_shufflevector({prev}, {value}, {lanes})"
            ctype = "sg_v"
        elif v.strides == (0,) and v.window is None:
            text, ctype = f"{v.buffer.name}[{v.offset}]", self.dtype.ctype
        elif v.strides == (1,) and lo <= self.lanes:
            self.windows |= v.window is not None
            text, ctype = f"*(const sg_vu *)({_at(v.buffer.name, v.offset)})", "sg_v"
        else:
            raise _Unfit
        self.body.append(f"const {ctype} {name} = {text};")
        return name, ctype == "sg_v"

    def operand(self, a, loads: list, local: dict) -> tuple[str, bool]:
        """A statement's or store's operand: (C text, whether it is a vector)."""
        if isinstance(a, (Literal, Scalar)) and a.dtype is not self.dtype or \
                isinstance(a, View) and a.buffer.dtype is not self.dtype:
            raise _Unfit    # (another C type beside a vector: gcc converts or refuses it)
        if isinstance(a, Literal):
            return c_literal(a.value, a.dtype), False
        if isinstance(a, Scalar):
            return a.name, False
        if isinstance(a, View):
            return f"{a.buffer.name}[{a.offset}]", False
        if isinstance(a, tuple):
            return loads[a[1]]
        return local[a]

    def _check(self, expr, n: int) -> None:
        """Raise _Unfit unless ``expr``'s C is arithmetic on its operands and numbers (float
        numbers with F for float32: a double constant is no float vector's operand)."""
        text, calls = c_statement(expr, [f"sgA{i}" for i in range(n)])
        if calls or not _TOKENS.fullmatch(text):
            raise _Unfit
        if self.dtype.name == "float32":
            for number in re.findall(_NUMBER, re.sub(r"sgA\d+", "", text)):
                if _FLOAT_NUMBER.search(number) and not number.endswith(("f", "F")):
                    raise _Unfit

    def lines(self) -> tuple[int, int, list[str]]:
        n, lanes = self.k.n, self.lanes
        start = lanes if self.windows or self.behind else 0
        end = start + (n - start) // lanes * lanes
        ctype = self.dtype.ctype
        head = [f"typedef {ctype} sg_v __attribute__((vector_size({VECTOR_BYTES})));",
                f"typedef {ctype} sg_vu __attribute__((vector_size({VECTOR_BYTES}), "
                f"aligned({self.dtype.itemsize}), may_alias));  /* unaligned */"]
        internal = {self.k.kernels[j].stores[s].out.buffer for j, s in self.k.internal}
        carry, tail = [], []
        for b, prev in self.behind.items():
            offset, value = self.written[b]
            head.append(f"sg_v {prev} = *(const sg_vu *)({b.name} + {offset + start - lanes});"
                        f"  /* {b.name}: the vector before the first */")
            carry.append(f"{prev} = {value};")
            if b in internal:
                tail.append(f"*(sg_vu *)({b.name} + {offset + end - lanes}) = {prev};"
                            f"  /* read behind by the last strips */")
        loop = [f"for (int64_t i0 = {start}; i0 < {end}; i0 += {lanes}) {{"]
        loop += ["    " + line for line in self.body + carry] + ["}"]
        return start, end, head + loop + tail


def _at(name: str, offset: int) -> str:
    """C: the address of element i0 + offset of buffer ``name``."""
    if offset == 0:
        return f"{name} + i0"
    return f"{name} + (i0 {'+' if offset > 0 else '-'} {abs(offset)})"
