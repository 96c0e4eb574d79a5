"""Bad input at the API boundary of compiled functions (``sg.compile``, ``sg.value_and_grad``,
``out=``), as one table.

Each row is one kind of input and its expected outcome: either the correct result, checked
against a NumPy reference (structure, dtype, shape, values, NaN positions and, where IEEE fixes
it, the sign of zero), or an exception of a given type whose message (with its notes) matches
patterns naming the argument, the expected and the actual. Rows that could take the interpreter
down (element counts past 2**31, misaligned buffers, allocations that cannot succeed) run in a
subprocess, which must exit 0, or 1 with the expected message on stderr: never by a signal.

``python tests/test_bad_input.py --table`` runs every row and prints what actually happened as
a Markdown table (kind | input | outcome).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import textwrap
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

import symgrad as sg

# ------------------------------------------------------------------ outcomes


def _message(e: BaseException) -> str:
    """An exception's message and its PEP 678 notes (where symgrad adds its context)."""
    return "\n".join([str(e), *getattr(e, "__notes__", ())])


def _compare(got: Any, want: Any, rtol: float, signbit: bool, path: str) -> None:
    """``got`` has ``want``'s structure; each array leaf is a plain ndarray of the same dtype
    and shape with the same values (NaN where NumPy has NaN; with ``signbit`` the same sign on
    every non-NaN value, -0.0 included)."""
    if isinstance(want, (tuple, list)):
        assert type(got) is type(want) and len(got) == len(want), \
            f"{path}: expected a {type(want).__name__} of {len(want)}, got {got!r}"
        for i, (g, w) in enumerate(zip(got, want)):
            _compare(g, w, rtol, signbit, f"{path}[{i}]")
        return
    if isinstance(want, np.generic):                     # NumPy's reductions give scalars
        want = np.asarray(want)
    if not isinstance(want, np.ndarray):                # a plain Python value (e.g. a count)
        assert got == want, f"{path}: expected {want!r}, got {got!r}"
        return
    assert type(got) is np.ndarray, f"{path}: expected an ndarray, got {type(got).__name__}"
    assert got.dtype == want.dtype, f"{path}: dtype {got.dtype}, expected {want.dtype}"
    assert got.shape == want.shape, f"{path}: shape {got.shape}, expected {want.shape}"
    if want.dtype.kind == "f":
        np.testing.assert_allclose(got, want, rtol=rtol, atol=0, equal_nan=True, err_msg=path)
        if signbit:
            real = ~np.isnan(want)
            np.testing.assert_array_equal(np.signbit(got[real]), np.signbit(want[real]),
                                          err_msg=f"{path}: signs of zero/infinity")
    else:
        np.testing.assert_array_equal(got, want, err_msg=path)


@dataclass(frozen=True)
class Result:
    """The call returns what the NumPy reference ``ref()`` computes."""

    ref: Callable[[], Any]
    rtol: float = 0.0
    signbit: bool = False
    note: str = ""

    def check(self, got: Any) -> str:
        _compare(got, self.ref(), self.rtol, self.signbit, "result")
        return "correct result (= NumPy reference)" + (f"; {self.note}" if self.note else "")


def _patterns(patterns: str | tuple) -> tuple:
    return (patterns,) if isinstance(patterns, str) else patterns


@dataclass(frozen=True)
class Raises:
    """The call raises ``exc`` (a type or a tuple of types) with every pattern (a regex, or a
    tuple of them) in its message."""

    exc: Any
    patterns: str | tuple = ()

    def check(self, e: BaseException) -> str:
        text = _message(e)
        for p in _patterns(self.patterns):
            assert re.search(p, text), f"{p!r} not in the message: {text!r}"
        return f"{type(e).__name__}: {text}"


@dataclass(frozen=True)
class Exits:
    """Python code run in a subprocess exits with ``status`` (0, or 1 for a clean Python
    exception) and ``patterns`` on its stderr."""

    status: int = 0
    patterns: str | tuple = ()

    def check(self, proc: subprocess.CompletedProcess) -> str:
        assert proc.returncode >= 0, f"killed by signal {-proc.returncode}: {proc.stderr}"
        assert proc.returncode == self.status, \
            f"exit {proc.returncode}, expected {self.status}: {proc.stderr[-3000:]}"
        for p in _patterns(self.patterns):
            assert re.search(p, proc.stderr), f"{p!r} not on stderr: {proc.stderr[-3000:]}"
        last = proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else ""
        return f"subprocess exit {proc.returncode}" + \
            (f": {last}" if proc.returncode else f": {proc.stdout.strip()}")


@dataclass(frozen=True)
class Row:
    kind: str
    input: str
    call: Callable[[], Any] | str        # the call, or Python code to run in a subprocess
    expect: Result | Raises | Exits


def _subprocess(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, timeout=600, env=dict(os.environ), check=False)


def run_row(row: Row) -> str:
    """Run one row; the text of its outcome, or AssertionError if it is not the expected one."""
    if isinstance(row.call, str):
        return row.expect.check(_subprocess(row.call))
    if isinstance(row.expect, Raises):
        try:
            got = row.call()
        except row.expect.exc as e:
            return row.expect.check(e)
        raise AssertionError(f"did not raise {row.expect.exc}; returned {got!r}")
    return row.expect.check(row.call())


# ------------------------------------------------------------------ functions and data

def _twice_colsum(x):
    return (x * 2).sum(0)


def _sum_of_squares(x):
    return (x * x).sum()


def _affine(p, x):
    return p["w"] * x + p["b"]


def _pair_difference(pair):
    a, b = pair
    return a - b


F = sg.compile(_twice_colsum)                 # elementwise + reduction
VG = sg.value_and_grad(_sum_of_squares)       # a value and its gradient
DOUBLE = sg.compile(lambda x: x * 2)          # out= target: one (4, 6) output
SCALAR = sg.compile(lambda x: x * 2 + 1)      # scalars and 0-d arrays
MATMUL = sg.compile(lambda x, w: x @ w)
MUL = sg.compile(lambda x, s: x * s)
AFFINE = sg.compile(_affine)                  # a dict argument
PAIR = sg.compile(_pair_difference)           # a pair argument

X = np.arange(-12.0, 12.0).reshape(4, 6)      # small integers: every sum is exact
W3, B3, V3 = np.array([1.0, -2.0, 3.0]), np.array([0.5, 0.0, -1.0]), np.arange(3.0)
SPECIAL = np.array([-0.0, 0.0, np.nan, np.inf, -np.inf, 1.5, -2.0])


def ref_f(x, dtype=None):
    """NumPy's ``(x * 2).sum(0)``, computed in ``dtype`` (symgrad's type for ``x``)."""
    x = np.asarray(x)
    return (x.astype(dtype or x.dtype) * 2).sum(0, dtype=dtype or x.dtype)


def ref_vg(x, dtype=None):
    x = np.asarray(x).astype(dtype or np.asarray(x).dtype)
    return (np.array((x * x).sum(), dtype=x.dtype), 2 * x)


def readonly(a):
    a = np.array(a)
    a.setflags(write=False)
    return a


def memmapped(a, mode: str, fn: Callable) -> Any:
    """``fn`` of ``a`` stored in a file and mapped with ``np.memmap(mode=mode)``."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "a.bin")
        a.tofile(path)
        return fn(np.memmap(path, dtype=a.dtype, mode=mode, shape=a.shape))


class Boom(Exception):
    """The user's own exception, raised while tracing."""


def raises_at_four(x):
    if x.shape[0] == 4:
        raise Boom(f"user error for shape {tuple(x.shape)}")
    return x * 2


def _matrix(a):
    with warnings.catch_warnings():   # np.matrix is pending deprecation; it is still passed
        warnings.simplefilter("ignore", PendingDeprecationWarning)
        return np.matrix(a)


def _torch_tensor():
    torch = pytest.importorskip("torch")
    return torch.ones(4, 6, dtype=torch.float64)


def _retrace(fn, *calls):
    """Call a fresh compiled ``fn`` with each argument tuple: (last result, specializations)."""
    cf = sg.compile(fn)
    for args in calls:
        out = cf(*args)
    return out, len(cf.specializations)


def _into_fresh_out():
    """``DOUBLE(X, out=o)`` for a new ``o``: (whether it returned ``o`` itself, ``o``)."""
    o = np.empty((4, 6))
    return DOUBLE(X, out=o) is o, o


def _out_is_input():
    x = X.copy()
    return DOUBLE(x, out=x)


def _torch_sign(x):
    """torch's sign, (x > 0) - (x < 0): +0.0 at -0.0 and 0 at NaN (NumPy gives NaN there)."""
    return (x > 0).astype(x.dtype) - (x < 0)


def _with_ieee(fn, x):
    with np.errstate(all="ignore"):
        return fn(x)


# Subprocess code (each is a complete program; it must exit 0 unless the row says otherwise).
MISALIGNED_INPUTS = """
    import numpy as np, symgrad as sg

    def misaligned(values):
        buf = bytearray(values.nbytes + 1)
        a = np.frombuffer(buf, dtype=values.dtype, offset=1, count=values.size)
        a = a.reshape(values.shape)
        a[...] = values
        assert not a.flags.aligned
        return a

    f = sg.compile(lambda x: (x * 2).sum(0))
    vg = sg.value_and_grad(lambda x: (x * x).sum())
    x = np.arange(-12.0, 12.0).reshape(4, 6)
    for dt in (np.float64, np.float32, np.int64):
        a = x.astype(dt)
        f(a)                                   # the aligned array registers the fast path
        m = misaligned(a)
        got = f(m)                             # the fast path meets a misaligned array
        assert got.dtype == dt and np.array_equal(got, (a * 2).sum(0)), (dt, got)
        if dt != np.int64:
            v, g = vg(m)
            assert v == (a * a).sum() and np.array_equal(g, 2 * a), (dt, v, g)
    zero_d = misaligned(np.array(3.0))
    assert f(np.float64(3.0)) == 6.0 and sg.compile(lambda x: x * 2)(zero_d) == 6.0
    print("misaligned float64/float32/int64 and 0-d inputs: results equal NumPy's")
"""

MISALIGNED_OUT = """
    import numpy as np, symgrad as sg
    out = np.frombuffer(bytearray(8 * 24 + 1), dtype=np.float64, offset=1, count=24)
    sg.compile(lambda x: x * 2)(np.ones((4, 6)), out=out.reshape(4, 6))
"""

# 2**31 + 2**15 bool elements (2 GB of untouched zero pages: almost no resident memory). The
# expected values come from the positions set, by Python integer arithmetic.
HUGE_BOOL = """
    import re
    import numpy as np, symgrad as sg
    R, C = 2**16 + 1, 2**15
    N = R * C
    assert N > 2**31
    x = np.zeros((R, C), dtype=bool)
    on = [0, 2**31 - 1, 2**31, 2**31 + 7, N - 1]
    x.reshape(-1)[on] = True

    def counts(x):
        rows = x.sum(1)                         # int64 counts per row: index i0*C + i1
        # (argmax of bools is torch's error: of their uint8 values, cast inside the loop)
        return rows.sum(), rows[-2:], x[-1, -4:], sg.argmax(x.reshape(-1)[2**31 + 1:]
                                                            .to(sg.uint8))

    f = sg.compile(counts)
    total, last_rows, tail, first = f(x)
    assert total == len(on), total
    assert last_rows.tolist() == [sum(p // C == r for p in on) for r in (R - 2, R - 1)]
    assert tail.tolist() == [p in on for p in range(N - 4, N)], tail
    assert first == min(p for p in on if p > 2**31) - (2**31 + 1), first
    src = f.c_source
    loops = re.findall(r"for \\((\\w+) ", src)
    assert loops and set(loops) == {"int64_t"}, loops          # every loop index is 64-bit
    ints = re.findall(r"\\bint\\s+(\\w+)", src)
    ints = [n for n in ints if not re.fullmatch(r"sg_counts_loop\\d+", n)]  # (functions)
    assert set(ints) <= {"nthreads", "sg_counts"}, ints        # no 32-bit variable at all
    assert str(N - 4) in src                                    # offsets past 2**31, printed
    print(f"{N} bool elements: total {total}, last rows {last_rows}, argmax {first}")
"""

# A broadcast index space of 2**31 + 98305 elements from two small inputs: the sum, and both
# gradients of (x * y).sum(), by reductions over it; x.sum() * y.sum() is the oracle.
HUGE_BROADCAST = """
    import numpy as np, symgrad as sg
    A, B = 2**16 + 1, 2**15 + 1
    assert A * B > 2**31
    x = (np.arange(A, dtype=np.int64) % 7).reshape(A, 1)
    y = (np.arange(B, dtype=np.int64) % 5).reshape(1, B)
    total = sg.compile(lambda x, y: (x * y).sum())(x, y)
    assert total == int(x.sum()) * int(y.sum()), total
    vg = sg.value_and_grad(lambda x, y: (x * y).sum(), argnums=(0, 1))
    v, (gx, gy) = vg(x.astype(np.float64), y.astype(np.float64))
    assert v == float(x.sum()) * float(y.sum()), v
    assert gx.shape == (A, 1) and np.all(gx == y.sum()), gx
    assert gy.shape == (1, B) and np.all(gy == x.sum()), gy
    print(f"{A * B} broadcast elements: sum {total}, gradients exact")
"""

HUGE_OUTPUT = """
    import numpy as np, symgrad as sg
    sg.compile(lambda x: x.sum(0))(np.zeros((0, 2**40)))   # an 8 TiB output
"""

HUGE_BROADCAST_INPUT = """
    import numpy as np, symgrad as sg
    sg.compile(lambda x: x.sum())(np.broadcast_to(np.ones(1), (2**40,)))
"""


def _big_endian(a, dtype):
    return a.astype(np.dtype(dtype).newbyteorder(">"))


MASKED = np.ma.masked_array(X, mask=X < -10)

# ------------------------------------------------------------------ the table

_NOTE = r"symgrad: raised while tracing "
_UNSUPPORTED = r"argument x: unsupported dtype {} \(symgrad has float16/32/64, " \
               r"int8/16/32/64, uint8 and bool"
_NOT_ARRAY = r"argument {}: expected a NumPy array, a symgrad tensor or a Python number, got {}"
_NO_GRAD = r"grad requires floating point inputs: argument x \(argnums=0\) must be float32 " \
           r"or float64 to be differentiated, got {}"
_OUT_WANT = r"expected an ndarray of shape \(4, 6\) and dtype float64"
_EMPTY_MAX = r"{}\(\): expected reduction dim 0 to have non-zero size \(input shape {}\)"

ROWS = [
    # ---- shapes and ranks: a new signature retraces
    Row("shape", "(2, 3) then (4, 5) float64", lambda: _retrace(
        _twice_colsum, (np.ones((2, 3)),), (X[:, :5],)),
        Result(lambda: (ref_f(X[:, :5]), 2), note="retraced: 2 specializations")),
    Row("rank", "(4, 6) then (2, 3, 4) into sum(0)", lambda: _retrace(
        _twice_colsum, (X,), (X.reshape(2, 3, 4),)),
        Result(lambda: (ref_f(X.reshape(2, 3, 4)), 2), note="retraced")),
    Row("rank", "1-D array into x.sum(1)", lambda: sg.compile(lambda x: x.sum(1))(V3),
        Raises(IndexError, (r"dim 1 is out of range for a tensor of 1 dimensions",
                            _NOTE + r"<lambda>\(x=float64\[3\]\)"))),
    Row("rank", "matmul (4, 6) @ (4, 6)", lambda: MATMUL(X, X),
        Raises(RuntimeError, (r"shapes cannot be multiplied \(4x6 and 4x6\)",
                              r"x=float64\[4, 6\], w=float64\[4, 6\]"))),
    Row("rank", "matmul 1-D (4,) @ (4, 6)", lambda: MATMUL(X[:, 0], X),
        Result(lambda: X[:, 0] @ X)),
    # ---- dtypes: lossless casts compute; anything else is refused, naming the dtype
    Row("dtype", "int32", lambda: F(X.astype(np.int32)),
        Result(lambda: ref_f(X, np.int64), note="int64, as torch")),
    Row("dtype", "int64", lambda: F(X.astype(np.int64)), Result(lambda: ref_f(X, np.int64))),
    Row("dtype", "uint8", lambda: F(np.arange(24, dtype=np.uint8).reshape(4, 6)),
        Result(lambda: ref_f(np.arange(24).reshape(4, 6), np.int64))),
    Row("dtype", "bool", lambda: F(X > 0), Result(lambda: ref_f(X > 0, np.int64))),
    Row("dtype", "float16", lambda: F(X.astype(np.float16)),
        Result(lambda: ref_f(X, np.float32), note="float32")),
    Row("dtype", "float16, value_and_grad", lambda: VG(X.astype(np.float16)),
        Result(lambda: ref_vg(X, np.float32))),
    Row("dtype", "big-endian >f8, value_and_grad", lambda: VG(_big_endian(X, np.float64)),
        Result(lambda: ref_vg(X))),
    Row("dtype", "big-endian >i4", lambda: F(_big_endian(X, np.int32)),
        Result(lambda: ref_f(X, np.int64))),
    Row("dtype", "int32, value_and_grad", lambda: VG(X.astype(np.int32)),
        Raises(TypeError, (_NO_GRAD.format("int32"), r"cast it to a float dtype"))),
    Row("dtype", "bool, value_and_grad", lambda: VG(X > 0),
        Raises(TypeError, (_NO_GRAD.format("bool"),))),
    Row("dtype", "complex64", lambda: F(X.astype(np.complex64)),
        Result(lambda: ref_f(X, np.complex64))),
    Row("dtype", "complex128, value_and_grad", lambda: VG(X.astype(np.complex128)),
        Raises(TypeError, (r"requires a real scalar output .* dtype complex128",))),
    Row("dtype", "object", lambda: F(X.astype(object)),
        Raises(TypeError, (_UNSUPPORTED.format("object"),))),
    Row("dtype", "datetime64[s]", lambda: F(np.zeros((4, 6), "datetime64[s]")),
        Raises(TypeError, (_UNSUPPORTED.format(r"datetime64\[s\]"),))),
    Row("dtype", "timedelta64[ms]", lambda: F(np.zeros((4, 6), "timedelta64[ms]")),
        Raises(TypeError, (_UNSUPPORTED.format(r"timedelta64\[ms\]"),))),
    Row("dtype", "structured (f8, i4)", lambda: F(np.zeros(4, [("a", "f8"), ("b", "i4")])),
        Raises(TypeError, (_UNSUPPORTED.format(r"\[\('a', '<f8'\), \('b', '<i4'\)\]"),))),
    Row("dtype", "uint64", lambda: F(X.astype(np.uint64)),
        Raises(TypeError, (_UNSUPPORTED.format("uint64"),))),
    Row("dtype", "longdouble", lambda: F(X.astype(np.longdouble)),
        Raises(TypeError, (_UNSUPPORTED.format(str(np.dtype(np.longdouble))),))),
    Row("dtype", "str <U1", lambda: F(np.full((4, 6), "a")),
        Raises(TypeError, (_UNSUPPORTED.format("<U1"),))),
    # ---- layouts: copied to a private contiguous buffer, never read wrongly
    Row("layout", "strided slice x[:, ::2]", lambda: F(X[:, ::2]),
        Result(lambda: ref_f(X[:, ::2]))),
    Row("layout", "Fortran order", lambda: VG(np.asfortranarray(X)), Result(lambda: ref_vg(X))),
    Row("layout", "reversed strides x[::-1, ::-1]", lambda: F(X[::-1, ::-1]),
        Result(lambda: ref_f(X[::-1, ::-1]))),
    Row("layout", "zero stride np.broadcast_to", lambda: VG(np.broadcast_to(X[:1], X.shape)),
        Result(lambda: ref_vg(np.broadcast_to(X[:1], X.shape)))),
    Row("layout", "read-only array", lambda: VG(readonly(X)), Result(lambda: ref_vg(X))),
    Row("layout", "misaligned (np.frombuffer at offset 1), fast path", MISALIGNED_INPUTS,
        Exits(0)),
    # ---- size 0: torch's semantics
    Row("size 0", "sum of (0, 3)", lambda: sg.compile(lambda x: x.sum())(np.ones((0, 3))),
        Result(lambda: np.array(0.0), note="0")),
    Row("size 0", "mean of (0, 3)", lambda: sg.compile(lambda x: x.mean())(np.ones((0, 3))),
        Result(lambda: np.array(np.nan), note="NaN")),
    Row("size 0", "mean(0) of (0, 3)", lambda: sg.compile(lambda x: x.mean(0))(np.ones((0, 3))),
        Result(lambda: np.full(3, np.nan))),
    Row("size 0", "sum and mean, value_and_grad", lambda: (
        sg.value_and_grad(lambda x: x.sum())(np.ones((0, 3))),
        sg.value_and_grad(lambda x: x.mean())(np.ones((0, 3)))),
        Result(lambda: ((np.array(0.0), np.ones((0, 3))), (np.array(np.nan), np.ones((0, 3)))))),
    Row("size 0", "amax(x, 1) of (0, 3)", lambda: sg.compile(lambda x: sg.amax(x, 1))(
        np.ones((0, 3))), Result(lambda: np.ones((0, 3)).max(1))),
    Row("size 0", "logsumexp(x, 0) of (0, 3)", lambda: sg.compile(
        lambda x: sg.logsumexp(x, 0))(np.ones((0, 3))),
        Result(lambda: np.full(3, -np.inf), note="-inf, as torch")),
    Row("size 0", "amax of (0, 3)", lambda: sg.compile(lambda x: sg.amax(x))(np.ones((0, 3))),
        Raises(sg.ShapeError, (_EMPTY_MAX.format("max", r"\(0, 3\)"),))),
    Row("size 0", "amax(x, 0) of (0, 3)", lambda: sg.compile(lambda x: sg.amax(x, 0))(
        np.ones((0, 3))), Raises(sg.ShapeError, (_EMPTY_MAX.format("max", r"\(0, 3\)"),))),
    Row("size 0", "argmax of (0, 3)", lambda: sg.compile(lambda x: sg.argmax(x))(
        np.ones((0, 3))), Raises(sg.ShapeError, (_EMPTY_MAX.format("argmax", r"\(0,\)"),))),
    Row("size 0", "matmul (2, 0) @ (0, 3)", lambda: MATMUL(np.ones((2, 0)), np.ones((0, 3))),
        Result(lambda: np.zeros((2, 3)))),
    Row("size 0", "matmul (0, 4) @ (4, 3)", lambda: MATMUL(np.ones((0, 4)), np.ones((4, 3))),
        Result(lambda: np.zeros((0, 3)))),
    # ---- NaN, Inf, -0.0: as NumPy (IEEE) gives them, the sign of zero included
    Row("values", "-x", lambda: sg.compile(lambda x: -x)(SPECIAL),
        Result(lambda: -SPECIAL, signbit=True)),
    Row("values", "x * 0.0", lambda: sg.compile(lambda x: x * 0.0)(SPECIAL),
        Result(lambda: _with_ieee(lambda x: x * 0.0, SPECIAL), signbit=True)),
    Row("values", "x + (-0.0)", lambda: sg.compile(lambda x: x + (-0.0))(SPECIAL),
        Result(lambda: SPECIAL + (-0.0), signbit=True)),
    Row("values", "x - x", lambda: sg.compile(lambda x: x - x)(SPECIAL),
        Result(lambda: _with_ieee(lambda x: x - x, SPECIAL), signbit=True)),
    Row("values", "1 / x", lambda: sg.compile(lambda x: 1.0 / x)(SPECIAL),
        Result(lambda: _with_ieee(lambda x: 1.0 / x, SPECIAL), signbit=True)),
    Row("values", "sqrt(x)", lambda: sg.compile(sg.sqrt)(SPECIAL),
        Result(lambda: _with_ieee(np.sqrt, SPECIAL), signbit=True)),
    Row("values", "abs(x)", lambda: sg.compile(sg.abs)(SPECIAL),
        Result(lambda: np.abs(SPECIAL), signbit=True)),
    Row("values", "exp, log", lambda: sg.compile(lambda x: (sg.exp(x), sg.log(x)))(SPECIAL),
        Result(lambda: _with_ieee(lambda x: (np.exp(x), np.log(x)), SPECIAL), rtol=1e-14,
               signbit=True)),
    Row("values", "sum, amax (NaN propagates)", lambda: sg.compile(
        lambda x: (x.sum(), sg.amax(x), sg.amax(x[:2])))(SPECIAL),
        Result(lambda: (np.array(np.nan), np.array(np.nan), np.array(0.0)))),
    Row("values", "value_and_grad of sqrt(x).sum()", lambda: sg.value_and_grad(
        lambda x: sg.sqrt(x).sum())(SPECIAL),
        Result(lambda: _with_ieee(lambda x: (np.sqrt(x).sum(), 0.5 / np.sqrt(x)), SPECIAL),
               signbit=True, note="d/dx at -0.0 is -inf")),
    Row("values", "value_and_grad of (x * x).sum()", lambda: VG(SPECIAL),
        Result(lambda: _with_ieee(ref_vg, SPECIAL), signbit=True)),
    Row("values", "sign(x)", lambda: sg.compile(sg.sign)(SPECIAL),
        Result(lambda: _torch_sign(SPECIAL), signbit=True, note="torch's: +0.0 at -0.0, 0 at NaN")),
    Row("values", "value_and_grad of abs(x).sum()", lambda: sg.value_and_grad(
        lambda x: sg.abs(x).sum())(SPECIAL),
        Result(lambda: (np.array(np.nan), _torch_sign(SPECIAL)), signbit=True,
               note="d/dx = sign(x), +0.0 at -0.0")),
    # ---- positional and keyword arguments
    Row("arguments", "too many (arrays)", lambda: F(X, X),
        Raises(TypeError, (r"takes 1 positional argument but 2 were given",))),
    Row("arguments", "too many (the extra one a str)", lambda: F(X, "abc"),
        Raises(TypeError, (r"_twice_colsum: too many positional arguments",))),
    Row("arguments", "too few", lambda: F(),
        Raises(TypeError, (r"missing 1 required positional argument: 'x'",))),
    Row("arguments", "value_and_grad with none", lambda: VG(),
        Raises(TypeError, (r"argnums=0 but only 0 positional arguments were passed",))),
    Row("arguments", "unknown keyword (an array)", lambda: F(X, y=X),
        Raises(TypeError, (r"unexpected keyword argument 'y'",))),
    Row("arguments", "unknown keyword (a str)", lambda: F(X, y="abc"),
        Raises(TypeError, (r"_twice_colsum: got an unexpected keyword argument 'y'",))),
    Row("arguments", "x twice (positional and keyword)", lambda: F(X, x=X),
        Raises(TypeError, (r"multiple values for argument 'x'",))),
    Row("arguments", "x by keyword", lambda: F(x=X), Result(lambda: ref_f(X))),
    # ---- structures: a new structure is a new signature; one fn cannot use raises fn's error
    Row("structure", "dict with an extra key", lambda: AFFINE({"w": W3, "b": B3, "c": V3}, V3),
        Result(lambda: W3 * V3 + B3)),
    Row("structure", "list where a tuple was traced", lambda: (
        PAIR((X[0], X[1])), PAIR([X[0], X[1]]))[1], Result(lambda: X[0] - X[1])),
    Row("structure", "(2, 3) array where a pair is expected", lambda: PAIR(X[:2, :3]),
        Result(lambda: X[0, :3] - X[1, :3], note="unpacks its rows, as torch")),
    Row("structure", "dict without key 'b'", lambda: AFFINE({"w": W3}, V3),
        Raises(KeyError, (r"'b'", _NOTE + r"_affine\(p=\{'w': float64\[3\]\}, x=float64\[3\]\)"))),
    Row("structure", "tuple where a dict is expected", lambda: AFFINE((W3, B3), V3),
        Raises(TypeError, (r"tuple indices must be integers",
                           r"p=\(float64\[3\], float64\[3\]\)"))),
    Row("structure", "pair where an array is expected", lambda: AFFINE({"w": (W3, W3),
                                                                        "b": B3}, V3),
        Raises(sg.TracerValueError, (_NOTE + r"_affine\(p=\{'b': float64\[3\], 'w': "
                                     r"\(float64\[3\], float64\[3\]\)\}",))),
    Row("structure", "triple where a pair is expected", lambda: PAIR((V3, V3, V3)),
        Raises(ValueError, (r"too many values to unpack \(expected 2\)",
                            _NOTE + r"_pair_difference\(pair=\(float64\[3\], "
                                    r"float64\[3\], float64\[3\]\)\)"))),
    Row("structure", "dict with unsortable keys", lambda: PAIR({1: V3, "a": V3}),
        Raises(TypeError, (r"dict keys of argument pair must be sortable",))),
    # ---- Python objects that are not arrays
    Row("object", "str", lambda: F("abc"), Raises(TypeError, (_NOT_ARRAY.format("x", "str"),))),
    Row("object", "None", lambda: F(None),
        Raises(TypeError, (r"unsupported operand type\(s\) for \*: 'NoneType'",
                           _NOTE + r"_twice_colsum\(x=None\)"))),
    Row("object", "None as an operand (x * s, s=None)", lambda: MUL(X, None),
        Raises(TypeError, (r"expected a tensor, an array or a number as an operand, got None",
                           _NOTE + r"<lambda>\(x=float64\[4, 6\], s=None\)"))),
    Row("object", "list of str", lambda: F(["a", "b"]),
        Raises(TypeError, (_NOT_ARRAY.format(r"x\[0\]", "str"),))),
    Row("object", "dict where an array is expected", lambda: F({"a": X}),
        Raises(TypeError, (r"for \*: 'dict'",
                           _NOTE + r"_twice_colsum\(x=\{'a': float64\[4, 6\]\}\)"))),
    Row("object", "list of floats", lambda: F([1.0, 2.0]),
        Raises(AttributeError, (r"'list' object has no attribute 'sum'",
                                _NOTE + r"_twice_colsum\(x=\[float, float\]\)"))),
    Row("object", "torch.Tensor", lambda: F(_torch_tensor()),
        Raises(TypeError, (_NOT_ARRAY.format("x", r"torch\.Tensor"),
                           r"np\.asarray\(value\) converts it"))),
    Row("object", "np.uint64(2**64 - 1)", lambda: SCALAR(np.uint64(2**64 - 1)),
        Raises(TypeError, r"argument x: expected an integer in the int64 range .* got "
                          r"np\.uint64\(18446744073709551615\)")),
    Row("object", "Python int 2**70", lambda: SCALAR(2**70),
        Raises(TypeError, r"argument x: expected an integer in the int64 range .* got "
                          r"1180591620717411303424")),
    Row("object", "static argument unhashable", lambda: sg.compile(
        lambda x, n: x * n, static_argnums=1)(X, [2]),
        Raises(TypeError, (r"static arguments must be hashable; got \(\(1, \[2\]\),\)",))),
    # ---- scalars and 0-d arrays
    Row("scalar", "np.float32(1.5)", lambda: SCALAR(np.float32(1.5)),
        Result(lambda: np.array(np.float32(1.5) * 2 + 1), note="float32 0-d")),
    Row("scalar", "0-d float64 array", lambda: SCALAR(np.array(1.5)),
        Result(lambda: np.array(4.0))),
    Row("scalar", "Python float, int, bool", lambda: (SCALAR(1.5), SCALAR(3), SCALAR(True)),
        Result(lambda: (np.array(4.0), np.array(7), np.array(3)))),
    Row("scalar", "Python complex", lambda: SCALAR(1j),
        Result(lambda: np.array(1 + 2j), note="complex128 0-d, as a Python float's float64")),
    Row("scalar", "0-d into value_and_grad", lambda: VG(np.array(-3.0)),
        Result(lambda: (np.array(9.0), np.array(-6.0)))),
    Row("scalar", "eager symgrad tensor", lambda: SCALAR(sg.tensor([1.0, 2.0])),
        Result(lambda: np.array([3.0, 5.0], np.float32))),
    # ---- ndarray subclasses and memory maps
    Row("subclass", "np.matrix", lambda: F(_matrix(X)),
        Result(lambda: ref_f(X), note="a 2-D array (torch semantics); plain ndarray out")),
    Row("subclass", "masked array", lambda: F(MASKED),
        Raises(TypeError, r"argument x: expected a NumPy array, got a masked array \(shape "
                          r"\(4, 6\), dtype float64\); symgrad would ignore its mask")),
    Row("subclass", "ndarray subclass", lambda: F(X.view(type("Sub", (np.ndarray,), {}))),
        Result(lambda: ref_f(X))),
    Row("subclass", "np.memmap mode r+", lambda: memmapped(X, "r+", F), Result(lambda: ref_f(X))),
    Row("subclass", "np.memmap mode r (read-only pages)", lambda: memmapped(X, "r", VG),
        Result(lambda: ref_vg(X))),
    # ---- out=
    Row("out=", "right array", _into_fresh_out,
        Result(lambda: (True, X * 2), note="returns out itself")),
    Row("out=", "None", lambda: DOUBLE(X, out=None), Result(lambda: X * 2)),
    Row("out=", "wrong shape (6, 4)", lambda: DOUBLE(X, out=np.empty((6, 4))),
        Raises(ValueError, (r"out has the wrong shape: " + _OUT_WANT +
                            r", got shape \(6, 4\) and dtype float64",))),
    Row("out=", "wrong dtype float32", lambda: DOUBLE(X, out=np.empty((4, 6), np.float32)),
        Raises(TypeError, (r"out has the wrong dtype: " + _OUT_WANT +
                           r", got shape \(4, 6\) and dtype float32",))),
    Row("out=", "Fortran order", lambda: DOUBLE(X, out=np.empty((4, 6), order="F")),
        Raises(ValueError, (r"out is not C-contiguous \(strides \(8, 32\)\): " + _OUT_WANT,))),
    Row("out=", "zero-stride broadcast", lambda: DOUBLE(X, out=np.broadcast_to(
        np.empty(6), (4, 6))), Raises(ValueError, r"out is not C-contiguous \(strides \(0, 8\)")),
    Row("out=", "read-only", lambda: DOUBLE(X, out=readonly(np.empty((4, 6)))),
        Raises(ValueError, (r"out is read-only: " + _OUT_WANT,))),
    Row("out=", "a list", lambda: DOUBLE(X, out=[1, 2]),
        Raises(TypeError, (r"out must be a NumPy ndarray: " + _OUT_WANT + r", got list",))),
    Row("out=", "the input array itself", _out_is_input,
        Raises(ValueError, r"out \(shape \(4, 6\), dtype float64\) shares memory with "
                           r"argument x")),
    Row("out=", "(value,) for (value, grad)", lambda: VG(X, out=(np.empty(()),)),
        Raises(TypeError, r"out must have the structure of the result, a tuple \(\*, \*\); "
                          r"out: expected a tuple \(\*, \*\), got a tuple \(\*,\)")),
    Row("out=", "(value, [grad]) for (value, grad)", lambda: VG(
        X, out=(np.empty(()), [np.empty((4, 6))])),
        Raises(TypeError, (r"out\[1\] must be a NumPy ndarray: " + _OUT_WANT + r", got list",))),
    Row("out=", "shape (1,) for a 0-d value", lambda: VG(
        X, out=(np.empty(1), np.empty((4, 6)))),
        Raises(ValueError, r"out\[0\] has the wrong shape: expected an ndarray of shape \(\) "
                           r"and dtype float64, got shape \(1,\)")),
    Row("out=", "misaligned", MISALIGNED_OUT,
        Exits(1, (r"ValueError: <lambda>: out is not aligned for float64: " + _OUT_WANT,))),
    # ---- huge sizes: 64-bit indexing, clean failures
    Row("huge", "bool (2**16 + 1, 2**15): 2**31 + 2**15 elements", HUGE_BOOL, Exits(0)),
    Row("huge", "broadcast (2**16 + 1, 1) * (1, 2**15 + 1), sum and gradients",
        HUGE_BROADCAST, Exits(0)),
    Row("huge", "output of 2**40 float64", HUGE_OUTPUT,
        Exits(1, r"MemoryError: cannot allocate 8796093022208 bytes for an output of shape "
                 r"\(1099511627776,\) and dtype float64")),
    Row("huge", "broadcast input of 2**40 elements", HUGE_BROADCAST_INPUT,
        Exits(1, r"MemoryError: <lambda>: argument x \(shape \(1099511627776,\)\) needs a "
                 r"contiguous float64 copy")),
    # ---- the user's function raises while tracing
    Row("raises", "user exception during tracing", lambda: sg.compile(raises_at_four)(X),
        Raises(Boom, (r"\Auser error for shape \(4, 6\)(\n|\Z)",
                      _NOTE + r"raises_at_four\(x=float64\[4, 6\]\)"))),
]


def _row_id(row: Row) -> str:
    return re.sub(r"[^\w.+-]+", "_", f"{row.kind}-{row.input}").strip("_")


@pytest.mark.parametrize("row", ROWS, ids=_row_id)
def test_bad_input(row: Row):
    run_row(row)


def test_rows_have_distinct_ids():
    ids = [_row_id(r) for r in ROWS]
    assert len(set(ids)) == len(ids)


# ------------------------------------------------------------------ tracing failures

def test_user_exception_propagates_unchanged_and_the_function_stays_usable():
    def body(x):
        if x.shape[0] == 4:
            raise Boom("four rows")
        return x * 2

    f = sg.compile(body)
    np.testing.assert_array_equal(f(X[:3]), X[:3] * 2)
    for _ in range(2):   # failing again: nothing of the first attempt was kept
        with pytest.raises(Boom) as info:
            f(X)
        assert type(info.value) is Boom and str(info.value) == "four rows"
        if sys.version_info >= (3, 11):
            assert info.value.__notes__ == ["symgrad: raised while tracing body(x=float64[4, 6])"]
        # only the (3, 6) signature:
        assert len(f.specializations) == 1 and len(f.signatures.fast) == 1
    np.testing.assert_array_equal(f(X[:3]), X[:3] * 2)       # the fast path still serves
    np.testing.assert_array_equal(f(X[:2]), X[:2] * 2)       # and new signatures still trace
    assert len(f.specializations) == 2
    from symgrad.frontend.core import sources
    assert sources.current() is None and sg.is_grad_enabled()


def test_value_and_grad_of_a_raising_function_stays_usable():
    def loss(x, fail):
        if fail:
            raise Boom("no loss today")
        return (x * x).sum()

    vg = sg.value_and_grad(sg.compile(loss, static_argnums=1))
    with pytest.raises(Boom, match="no loss today"):
        vg(X, True)
    assert not vg.specializations
    v, g = vg(X, False)
    assert v == (X * X).sum() and np.array_equal(g, 2 * X)
    with pytest.raises(Boom, match="no loss today"):
        vg(X, True)
    assert len(vg.specializations) == 1


# ------------------------------------------------------------------ the table for the notes

def markdown_table(rows: list[Row]) -> str:
    """Run each row and render ``kind | input | outcome`` as Markdown: the outcome actually
    seen (the message of an exception, the subprocess's last line), marked when unexpected."""
    lines = ["| kind | input | outcome |", "|---|---|---|"]
    for row in rows:
        try:
            text = run_row(row)
        except pytest.skip.Exception as e:
            text = f"skipped: {e}"
        except Exception as e:   # noqa: BLE001  (shown in the table, whatever it is)
            text = f"**UNEXPECTED** {type(e).__name__}: {str(e).splitlines()[0]}"
        cells = [row.kind, row.input, text]
        lines.append("| " + " | ".join(c.replace("|", "\\|").replace("\n", " ")
                                       for c in cells) + " |")
    return "\n".join(lines)


if __name__ == "__main__":
    if "--table" not in sys.argv[1:]:
        sys.exit("usage: python tests/test_bad_input.py --table")
    os.environ.setdefault("SYMGRAD_CACHE_DIR", tempfile.mkdtemp(prefix="symgrad-table-"))
    print(markdown_table(ROWS))
