"""Strip loops as one loop over vectors, each value read behind (or ahead) kept in registers.

Layer: codegen (for ``strips``). Input: a ``StripLoop``. Output: the C of one loop over its
elements in vectors of ``VECTOR_BYTES`` (GCC/clang vector types), or None where it does not
apply; ``strips`` prints it between the loops over the elements before and after it, under
``GUARD``.

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
iteration to the next (a first-order recurrence) keeps its loop scalar. The reverse pass of
such a recurrence reads ahead (the adjoint of a shift is the opposite shift): a run reading
ahead (``StripLoop.ahead``) is one loop over vectors from the last, each value read ahead a
shuffle of its vector and the one after it (GradBench's ode gradient at n = 10,000: 0.35-0.40
-> 0.27-0.28 ms, one thread).

How. Every load reads inside its window for the elements [start, end) the vectors cover:
start is where the last window starts (rounded up to a vector; at least one vector when a
value is read behind), end is the last whole vector before the first window ends (and at
least one vector before n when a value is read ahead). The elements before and after run as
the loops do (``strips``), first those the vectors read: [0, start) before the vectors
reading behind, [end, n) before the vectors from the last reading ahead. A buffer the run
writes and a later loop reads ``d`` elements behind or ahead (1 <= d <= lanes) is kept as
its neighbouring vector ``p<k>``, loaded first from what those loops stored; a value read at
its own element is its writer's vector. An internal buffer (``StripLoop.internal``: never
stored by the vector loop) read shifted has its last vector stored after the loop, where the
loops over the other elements read it. Other loads are unaligned vector loads, or, broadcast
(stride 0), numbers.

Exact: each element is computed by the same statements from the same values (vector
arithmetic is IEEE per lane; -ffp-contract=off keeps a*b+c two roundings), so the result has
the bits of the loops, but for the sign and payload of a NaN made from two NaNs: IEEE leaves
it open, x86 keeps the first operand's, and gcc orders the operands of + and * as it likes
in each loop (the strips and the plain loops differ there too, and NumPy from both).

It applies where every statement is arithmetic a vector type prints as it is (+ - * / of
operands and literals; no calls or comparisons), or a ``where`` whose test is a number (a
window's mask), and every value is float64, or float32 with float literals. On other
machines and compilers ``GUARD`` is false and the loops run everything.
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
    """(start, end, lines): the C of the loop over vectors of ``k``'s elements [start, end)
    (from the last with ``k.ahead``), with what it declares before and stores after; None
    where it does not apply. ``number``: the kernel's, for the comments naming its loops."""
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
    (buffer -> (store offset, name)), the buffers read behind or ahead (buffer -> the C name
    of the vector before, or after with ``ahead``), and the elements every load reads inside
    its window: from ``low``, before ``high``."""

    def __init__(self, k, dtype):
        self.k, self.dtype = k, dtype
        self.lanes = VECTOR_BYTES // dtype.itemsize
        self.body: list = []
        self.written: dict = {}
        self.near: dict = {}
        self.low, self.high = 0, k.n

    def loop(self, j: int, inner, name: str) -> None:
        self.body.append(f"/* {name}, in vectors */")
        loads = [self.load(v, f"l{i}_{j + 1}") for i, v in enumerate(inner.loads)]
        local: dict = {}
        for s in inner.body:
            args = [self.operand(a, loads, local) for a in s.args]
            text = self.statement(s.expr, args)
            vector = any(vec for _, vec, _ in args)
            name = f"{s.local}_{j + 1}"
            local[s.local] = (name, vector, self.dtype)
            ctype = "sg_v" if vector else self.dtype.ctype
            self.body.append(f"const {ctype} {name} = {text};"
                             f"  /* {loc_comment(s.loc, s.expr.op)} */")
        for b, st in enumerate(inner.stores):
            value, vector, _ = self.operand(st.value, loads, local)
            out = st.out
            if not vector or out.buffer.dtype is not self.dtype:
                raise _Unfit
            self.written[out.buffer] = (out.offset, value)
            if (j, b) not in self.k.internal:
                self.body.append(f"*(sg_vu *)({_at(out.buffer.name, out.offset)}) = {value};")

    def load(self, v, name: str) -> tuple[str, bool, object]:
        """A load's (C name, whether it is a vector, dtype), its line added to the body."""
        if type(v) is not View:
            raise _Unfit
        if v.window is not None:
            self.low, self.high = max(self.low, v.window[0][0]), min(self.high, v.window[0][1])
        dtype = v.buffer.dtype
        if v.strides == (0,):                   # (a number: any type, as a where's test)
            text, vector = f"{v.buffer.name}[{v.offset}]", False
        elif v.strides != (1,) or dtype is not self.dtype:
            raise _Unfit
        elif v.buffer in self.written:      # written by a loop before: its vector, or shifted
            offset, value = self.written[v.buffer]
            shift = v.offset - offset
            if shift == 0:
                return value, True, dtype
            text, vector = self._shifted(v.buffer, value, shift), True
        else:
            text, vector = f"*(const sg_vu *)({_at(v.buffer.name, v.offset)})", True
        self.body.append(f"const {'sg_v' if vector else dtype.ctype} {name} = {text};")
        return name, vector, dtype

    def _shifted(self, buffer, value: str, shift: int) -> str:
        """C: the vector of ``buffer`` ``shift`` elements from this one's (``value``): a
        shuffle of it and the vector before it (behind) or after it (ahead)."""
        lanes = self.lanes
        if not 0 < abs(shift) <= lanes or (shift > 0) != self.k.ahead:
            raise _Unfit
        near = self.near.setdefault(buffer, f"p{len(self.near)}")
        if shift > 0:     # (the vector after: computed by the step before, or the last part)
            self.high = min(self.high, self.k.n - lanes)
            pair, first = (value, near), shift
        else:             # (the vector before: computed by the step before, or the first part)
            self.low = max(self.low, lanes)
            pair, first = (near, value), lanes + shift
        picked = ", ".join(str(i) for i in range(first, first + lanes))
        return f"__builtin_shufflevector({pair[0]}, {pair[1]}, {picked})"

    def operand(self, a, loads: list, local: dict) -> tuple[str, bool, object]:
        """A statement's or store's operand: (C text, whether it is a vector, dtype)."""
        if isinstance(a, (Literal, Scalar)):
            text = c_literal(a.value, a.dtype) if isinstance(a, Literal) else a.name
            return text, False, a.dtype
        if isinstance(a, View):
            return f"{a.buffer.name}[{a.offset}]", False, a.buffer.dtype
        if isinstance(a, tuple):
            return loads[a[1]]
        return local[a]

    def statement(self, expr, args: list) -> str:
        """A statement's C on its operands; _Unfit unless every value is of the run's type
        and the C is arithmetic a vector type prints as it is (``_check``), or a where whose
        test is one number (its branches' numbers then made vectors)."""
        if expr.dtype is not self.dtype:
            raise _Unfit
        if expr.op == "where" and not args[0][1] and all(d is self.dtype for _, _, d in args[1:]):
            if not any(vec for _, vec, _ in args[1:]):
                raise _Unfit
            spread = [text if vec else "(sg_v){" + ", ".join([text] * self.lanes) + "}"
                      for text, vec, _ in args[1:]]
            return c_statement(expr, [args[0][0], *spread])[0]
        if expr.operand is not self.dtype or any(d is not self.dtype for _, _, d in args):
            raise _Unfit    # (another C type beside a vector: gcc converts or refuses it)
        self._check(expr, len(args))
        return c_statement(expr, [text for text, _, _ in args])[0]

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

    def lines(self) -> tuple[int, int, list[str]] | None:
        lanes = self.lanes
        start = -(-self.low // lanes) * lanes
        end = start + max(0, self.high - start) // lanes * lanes
        if end == start:
            return None
        ctype = self.dtype.ctype
        head = [f"typedef {ctype} sg_v __attribute__((vector_size({VECTOR_BYTES})));",
                f"typedef {ctype} sg_vu __attribute__((vector_size({VECTOR_BYTES}), "
                f"aligned({self.dtype.itemsize}), may_alias));  /* unaligned */"]
        internal = {self.k.kernels[j].stores[s].out.buffer for j, s in self.k.internal}
        first, last, which = (end, start, "after the first (the loop runs down)") \
            if self.k.ahead else (start - lanes, end - lanes, "before the first")
        carry, tail = [], []
        for b, near in self.near.items():
            offset, value = self.written[b]
            head.append(f"sg_v {near} = *(const sg_vu *)({b.name} + {offset + first});"
                        f"  /* {b.name}: the vector {which} */")
            carry.append(f"{near} = {value};")
            if b in internal:
                tail.append(f"*(sg_vu *)({b.name} + {offset + last}) = {near};"
                            f"  /* read by the loops after the vectors */")
        loop = [f"for (int64_t i0 = {end - lanes}; i0 >= {start}; i0 -= {lanes}) {{"
                if self.k.ahead else f"for (int64_t i0 = {start}; i0 < {end}; i0 += {lanes}) {{"]
        loop += ["    " + line for line in self.body + carry] + ["}"]
        return start, end, head + loop + tail


def _at(name: str, offset: int) -> str:
    """C: the address of element i0 + offset of buffer ``name``."""
    if offset == 0:
        return f"{name} + i0"
    return f"{name} + (i0 {'+' if offset > 0 else '-'} {abs(offset)})"
