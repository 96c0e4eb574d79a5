"""Hypothesis strategies for well-typed symgrad programs (the model is in model.py).

``programs(...)`` draws a program statement by statement. Each step picks an operand from the
variables so far (the most recent first: shrinking goes towards chains) and an op family; the
family draws the op, its spelling (function, method or operator), its other operands (an
earlier variable whose shape fits, a fresh input of a fitting shape, or a constant) and its
attributes (dims, keepdim, slices, target shapes, reductions), and predicts the result's shape,
dtype and value interval. A family that does not apply (no fitting operand, a result too large,
an op outside its domain, an op torch does not define for int64) returns False and another is
tried. Families: unary math, binary arithmetic, where/comparisons, reductions, softmax &
log_softmax, movement (reshape, permute, transpose, expand, squeeze...), basic indexing,
matmul, cat/stack, casts, counts (comparison sums), nn.functional losses, in-place updates of a
clone and through a view of it, loops and branches (fori_loop, scan, cond, while_loop), and
every other smooth elementwise op of the op registry (``registry.py``: drawn from ``OPS``, so a
new op is fuzzed with no edit here); int64/bool results may be returned next to the float
ones.

Domains are kept by construction: exp only of values <= 6, log/sqrt/rsqrt/pow of values >= 0.1
or of a guarded argument (``abs(v) + 1``, ``v * v + 0.25``, ``softplus(v)``), division by values
bounded away from 0 or by a guarded denominator, sin/cos of |v| <= 10, every value within
``LIMIT``. So a NaN or an infinity in a result is never the program's fault, except where the
model says so (``Var.special``: mean/logsumexp/losses over nothing, as torch defines them).

Statements that no output reads are dropped, so a shrunk program is a minimal one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from hypothesis import strategies as st

from .registry import registry
from .model import (
    F32,
    F64,
    I64,
    INPUT_KINDS,
    Const,
    Input,
    Program,
    Stmt,
    Var,
    broadcast,
    float_of,
    normalize,
    operand_dtype,
    promote,
    reduced_shape,
)

LIMIT = 1e4          # no value of a program exceeds this in magnitude (1e6 if large)
MAX_SIZE = 48        # elements per variable: finite differences element by element
LARGE_SIZE = 75000   # elements per variable with large=True: vector loops, threads, BLAS
MAX_INPUTS = 4
CONSTS = (0.5, 2.0, -1.0, 1.5, 0.25, -0.5, 3.0, 1.0, 0.0)
INT_CONSTS = (2, -1, 3, 1, 0)


@dataclass(frozen=True)
class Config:
    """What a test draws: the dtypes of inputs (int64 among them: integer arithmetic, true
    division, promotion to float; forward checks only), whether casts and 0-d tensor constants
    of the other precision appear (``mixed``), whether size-0 dimensions do, how long programs
    are,
    whether an int64/bool result may be returned too (``integer_outputs``: forward checks),
    whether dims are large and odd (``large``: vectorized loops with remainders, threads,
    BLAS; tiny dims never run a vector loop's body)."""

    dtypes: tuple = (F64,)
    mixed: bool = False
    empty: bool = False
    max_stmts: int = 6
    integer_outputs: bool = False
    large: bool = False
    while_loops: bool = True    # while_loop statements (first-order derivatives only)

    @property
    def dims(self) -> tuple:
        if self.large:
            return (64, 33, 17, 65, 1, 2) + ((0,) if self.empty else ())
        return (2, 0, 3, 1) if self.empty else (2, 3, 1, 4)

    @property
    def max_size(self) -> int:
        return LARGE_SIZE if self.large else MAX_SIZE

    @property
    def limit(self) -> float:
        return 1e6 if self.large else LIMIT


@st.composite
def programs(draw, config: Config = Config()) -> Program:
    b = Builder(draw, config)
    ndim = 3 if config.large else draw(st.integers(0, 3))
    base = ()
    for _ in range(ndim):       # each dim among those that keep the size within max_size
        base += (draw(st.sampled_from([d for d in config.dims
                                       if math.prod(base) * d <= config.max_size])),)
    b.fresh(base)
    if draw(st.booleans()) and b.fresh(b.variant(base)):
        b.pool.insert(0, b.pool.pop())      # the base-shaped input stays the latest variable
    for _ in range(draw(st.integers(1, config.max_stmts))):
        for _attempt in range(8):
            a = b.operand()
            family = draw(st.sampled_from(FAMILIES))
            if family(b, a):
                break
    outputs = [b.pool[-1]]
    more = draw(st.integers(0, 5))
    if more == 1 or more == 2 and len(b.pool) == 1:
        outputs.append(outputs[0])                                  # the same result twice
    elif more == 2:
        outputs.append(b.pool[-2 - draw(st.integers(0, len(b.pool) - 2))])
    elif more == 3 and config.integer_outputs:
        extra = integer_result(b, b.operand())
        if extra is not None:
            outputs.append(extra)
    return b.program(outputs, seed=draw(st.integers(0, 2 ** 16)))


class Builder:
    """The state of a program being drawn: inputs, statements and the variable pool."""

    def __init__(self, draw, config: Config):
        self.draw = draw
        self.config = config
        self.inputs: list = []
        self.stmts: list = []
        self.pool: list = []

    # ------------------------------------------------------------ drawing helpers
    def choose(self, options):
        return self.draw(st.sampled_from(options))

    def flag(self) -> bool:
        return self.draw(st.booleans())

    def operand(self) -> Var:
        """Mostly the latest variable (programs are chains), else any earlier one."""
        if self.draw(st.integers(0, 7)) < 7:
            return self.pool[-1]
        return self.pool[-1 - self.draw(st.integers(0, len(self.pool) - 1))]

    def dtype(self) -> str:
        return self.choose(self.config.dtypes)

    def const(self, nonzero: bool = False, integer: bool | None = None) -> Const:
        """A constant: a Python float (or, in programs with int64 values or if ``integer``, a
        Python int), sometimes (``mixed``) a 0-d tensor of either float dtype."""
        if integer is None:
            integer = I64 in self.config.dtypes and self.draw(st.integers(0, 2)) == 0
        value = self.choose([c for c in (INT_CONSTS if integer else CONSTS)
                             if c or not nonzero])
        if not integer and self.config.mixed and self.draw(st.integers(0, 3)) == 0:
            return Const(value, self.choose((F32, F64)))
        return Const(value)

    def variant(self, shape: tuple, grow: bool = True) -> tuple:
        """A shape that broadcasts with ``shape``: some dims 1, leading dims dropped or
        (``grow``) one added."""
        out = [1 if self.draw(st.integers(0, 2)) == 0 else s for s in shape]
        if out and self.draw(st.integers(0, 3)) == 0:
            out = out[self.draw(st.integers(1, len(out))):]
        elif grow and len(out) < 3 and self.draw(st.integers(0, 4)) == 0:
            out = [self.choose(self.config.dims)] + out
        return tuple(out)

    def fresh(self, shape: tuple, dtype: str | None = None):
        """A new input of this shape (None when the input budget or the size is exceeded)."""
        if len(self.inputs) >= MAX_INPUTS or math.prod(shape) > self.config.max_size:
            return None
        dtype = dtype or self.dtype()
        kind = "integers" if dtype == I64 else \
            self.choose(tuple(k for k in INPUT_KINDS if k != "integers"))
        lo, hi = INPUT_KINDS[kind][1]
        v = Var(f"x{len(self.inputs)}", tuple(shape), dtype, lo, hi)
        self.inputs.append(Input(v, kind))
        self.pool.append(v)
        return v

    def partner(self, a: Var, fits, make_shape, const: bool = True, same_dtype=False):
        """A second operand for ``a``: an earlier variable ``fits(v)`` accepts, a fresh input
        of shape ``make_shape()``, or (``const``) a constant."""
        kinds = ["var", "fresh"] + (["const"] if const else [])
        kind = self.choose(kinds)
        if kind == "var":
            found = [v for v in self.pool if fits(v) and (not same_dtype or v.dtype == a.dtype)]
            if found:
                return found[-1 - self.draw(st.integers(0, len(found) - 1))]
            kind = "fresh"
        if kind == "fresh":
            v = self.fresh(make_shape(), a.dtype if same_dtype else None)
            if v is not None:
                return v
        return self.const() if const else None

    # ------------------------------------------------------------ emitting
    @property
    def next_name(self) -> str:
        """The name the next statement's result gets (for probes that read the result)."""
        return f"v{len(self.stmts)}"

    def emit(self, expr: str, shape: tuple, dtype: str, lo: float, hi: float, uses,
             probes=(), special: bool = False, pool: bool = True, after=()) -> Var | None:
        """Add ``v<k> = expr`` unless its result is too large; its variable, or None.
        ``pool=False``: later statements do not read it (an int64/bool output)."""
        uses = tuple(u for u in uses if isinstance(u, Var))
        if math.prod(shape) > self.config.max_size or not (math.isfinite(lo) and
                                                           math.isfinite(hi)) or \
                max(abs(lo), abs(hi)) > self.config.limit:
            return False
        special = special or any(u.special for u in uses)
        v = Var(f"v{len(self.stmts)}", tuple(shape), dtype, float(lo), float(hi), special)
        self.stmts.append(Stmt(v, expr, tuple(u.name for u in uses), tuple(probes),
                               tuple(after)))
        if pool:
            self.pool.append(v)
        return v

    def program(self, outputs: list, seed: int) -> Program:
        """The program without the statements and inputs no output depends on."""
        needed = {v.name for v in outputs}
        kept = []
        for s in reversed(self.stmts):
            if s.out.name in needed:
                kept.append(s)
                needed.update(s.uses)
        inputs = tuple(i for i in self.inputs if i.var.name in needed)
        return Program(inputs, tuple(reversed(kept)), tuple(outputs), seed)


def text(v) -> str:
    return v.text if isinstance(v, Const) else v.name


def interval_mul(a, b) -> tuple:
    p = [a[0] * b[0], a[0] * b[1], a[1] * b[0], a[1] * b[1]]
    return min(p), max(p)


def interval_sq(lo, hi) -> tuple:
    if lo <= 0 <= hi:
        return 0.0, max(lo * lo, hi * hi)
    return min(lo * lo, hi * hi), max(lo * lo, hi * hi)


def interval_abs(lo, hi) -> tuple:
    if lo <= 0 <= hi:
        return 0.0, max(-lo, hi)
    return (-hi, -lo) if hi < 0 else (lo, hi)


def softplus(x: float) -> float:
    return x if x > 20 else math.log1p(math.exp(x))


def positive(b: Builder, a: Var) -> tuple:
    """``a`` if it is a float >= 0.1, else a guarded positive float expression of it: (text,
    lo, hi, probes) (an int64 ``a`` is always guarded: the guard makes it float32)."""
    if a.lo >= 0.1 and a.dtype != I64:
        return a.name, a.lo, a.hi, ()
    lo, hi = interval_abs(a.lo, a.hi)
    if b.flag():
        return f"(sg.abs({a.name}) + 0.5)", lo + 0.5, hi + 0.5, (f"zero({a.name})",)
    lo, hi = interval_sq(a.lo, a.hi)
    return f"({a.name} * {a.name} + 0.25)", lo + 0.25, hi + 0.25, ()


def guarded(a: Var, lo: float, hi: float) -> Var:
    """The type of a ``positive`` expression of ``a`` (for promotion)."""
    return Var("guard", a.shape, float_of(a.dtype), lo, hi)


# ---------------------------------------------------------------- families
# Each takes the builder and an operand and returns whether it emitted a statement.

def unary(b: Builder, a: Var) -> bool:
    """Elementwise math; of an int64 operand, neg/abs/relu/sign/square/cube/clamp keep int64
    and the rest give float32 (torch's rules)."""
    n, lo, hi, M = a.name, a.lo, a.hi, a.bound
    ops = ["neg", "tanh", "sigmoid", "relu", "abs", "log", "sqrt", "square", "clamp",
           "pow", "sign", "log1p", "rsqrt"]
    ops += ["exp", "expm1"] if hi <= 6 else []
    ops += ["sin", "cos"] if M <= 10 else []
    ops += ["cube"] if M <= 20 else []
    ops += ["rpow"] if hi <= 10 else []
    ops += ["softplus"] if a.dtype != I64 else []     # torch: not implemented for int64
    ops += ["atan", "erf", "asinh"]                     # smooth and monotonic everywhere
    op = b.choose(ops)
    same = (a.shape, a.dtype)                   # ops that keep the dtype
    fl = (a.shape, float_of(a.dtype))           # floating ops
    if op == "neg":
        return b.emit(b.choose((f"-{n}", f"sg.neg({n})", f"{n}.neg()")), *same, -hi, -lo, [a])
    if op in ("tanh", "sigmoid"):
        f = math.tanh if op == "tanh" else (lambda x: 1 / (1 + math.exp(-x)))
        expr = b.choose((f"sg.{op}({n})", f"{n}.{op}()", f"F.{op}({n})"))
        return b.emit(expr, *fl, f(max(lo, -50)), f(min(hi, 50)), [a])
    if op == "relu":
        expr = b.choose((f"sg.relu({n})", f"{n}.relu()", f"F.relu({n})"))
        return b.emit(expr, *same, max(lo, 0), max(hi, 0), [a], [f"zero({n})"])
    if op == "abs":
        expr = b.choose((f"sg.abs({n})", f"{n}.abs()", f"abs({n})"))
        return b.emit(expr, *same, *interval_abs(lo, hi), [a], [f"zero({n})"])
    if op == "sign":
        return b.emit(b.choose((f"sg.sign({n})", f"{n}.sign()")), *same, -1, 1, [a],
                      [f"zero({n})"])
    if op in ("exp", "expm1"):
        f = math.exp if op == "exp" else math.expm1
        return b.emit(b.choose((f"sg.{op}({n})", f"{n}.{op}()")), *fl, f(lo), f(hi), [a])
    if op in ("atan", "erf", "asinh"):
        f = {"atan": math.atan, "erf": math.erf, "asinh": math.asinh}[op]
        return b.emit(b.choose((f"sg.{op}({n})", f"{n}.{op}()")), *fl, f(lo), f(hi), [a])
    if op in ("sin", "cos"):
        return b.emit(b.choose((f"sg.{op}({n})", f"{n}.{op}()")), *fl, -1, 1, [a])
    if op == "square":
        expr = b.choose((f"sg.square({n})", f"{n}.square()", f"{n} ** 2", f"{n} * {n}"))
        return b.emit(expr, *same, *interval_sq(lo, hi), [a])
    if op == "cube":
        expr = b.choose((f"{n} ** 3", f"sg.pow({n}, 3)", f"{n}.pow(3)"))
        return b.emit(expr, *same, lo ** 3, hi ** 3, [a])
    if op == "rpow":
        expr = b.choose((f"2.0 ** {n}", f"sg.pow(1.5, {n})"))
        base = 2.0 if expr.startswith("2") else 1.5
        return b.emit(expr, *fl, base ** lo, base ** hi, [a])
    if op == "softplus":
        expr = b.choose((f"sg.softplus({n})", f"F.softplus({n})"))
        probes = [f"zero({n}, 20.0)"] if hi > 15 else []
        return b.emit(expr, *fl, softplus(lo), softplus(hi), [a], probes)
    if op == "clamp":
        integer = a.dtype == I64 and b.flag()    # int bounds keep int64, float ones give float
        low, high = sorted((b.const(integer=integer).value, b.const(integer=integer).value))
        if a.dtype == I64 and not integer:
            same = fl
        form = b.choose(("both", "min", "max"))
        expr = {"both": b.choose((f"{n}.clamp(min={low}, max={high})",
                                  f"sg.clamp({n}, {low}, {high})")),
                "min": b.choose((f"{n}.clamp(min={low})", f"sg.clip({n}, min={low})")),
                "max": f"{n}.clamp(max={high})"}[form]
        c_lo = max(lo, low) if form != "max" else lo
        c_hi = min(hi, high) if form != "min" else hi
        c_lo, c_hi = (min(c_lo, c_hi), max(c_lo, c_hi))
        probes = [f"zero({n}, {low})"] * (form != "max") + [f"zero({n}, {high})"] * (form != "min")
        return b.emit(expr, *same, c_lo, c_hi, [a], probes)
    if op in ("log", "sqrt", "rsqrt", "pow", "log1p"):
        return _positive_unary(b, a, op)
    raise AssertionError(op)


def _positive_unary(b: Builder, a: Var, op: str) -> bool:
    """Ops defined (or smooth) for positive arguments only, applied to a guarded argument."""
    n, same = a.name, (a.shape, float_of(a.dtype))
    if op == "log" and a.lo < 0.1 and a.lo >= -15 and a.dtype != I64 and b.flag():
        probes = [f"zero({n}, 20.0)"] if a.hi > 15 else []
        return b.emit(f"sg.log(sg.softplus({n}))", *same, math.log(softplus(a.lo)),
                      math.log(softplus(a.hi)), [a], probes)
    if op == "log1p" and a.lo > -0.5 and a.dtype != I64:
        return b.emit(f"sg.log1p({n})", *same, math.log1p(a.lo), math.log1p(a.hi), [a])
    arg, lo, hi, probes = positive(b, a)
    if op == "log":
        expr = b.choose((f"sg.log({arg})", f"{arg}.log()"))
        return b.emit(expr, *same, math.log(lo), math.log(hi), [a], probes)
    if op == "log1p":
        return b.emit(f"sg.log1p({arg})", *same, math.log1p(lo), math.log1p(hi), [a], probes)
    if op == "sqrt":
        expr = b.choose((f"sg.sqrt({arg})", f"{arg}.sqrt()", f"{arg} ** 0.5"))
        return b.emit(expr, *same, math.sqrt(lo), math.sqrt(hi), [a], probes)
    if op == "rsqrt":
        expr = b.choose((f"sg.rsqrt({arg})", f"{arg}.rsqrt()"))
        return b.emit(expr, *same, 1 / math.sqrt(hi), 1 / math.sqrt(lo), [a], probes)
    e = b.choose((1.5, -1.0, 0.5, -0.5, 2.5))
    corners = (lo ** e, hi ** e)
    if max(corners) > b.config.limit:
        return False
    expr = b.choose((f"{arg} ** {e}", f"sg.pow({arg}, {e})"))
    return b.emit(expr, *same, min(corners), max(corners), [a], probes)


def binary(b: Builder, a: Var) -> bool:
    """Arithmetic with broadcasting and promotion (int64 / int64 is a float32 true division)."""
    op = b.choose(("add", "mul", "sub", "div", "maximum", "minimum", "pow"))
    c = b.partner(a, lambda v: broadcast(v.shape, a.shape) is not None,
                  lambda: b.variant(a.shape), const=op not in ("maximum", "minimum"))
    if c is None:
        return False
    shape = broadcast(a.shape, c.shape)
    dtype = promote(a, c)
    x, y = a.name, text(c)
    ia, ic = (a.lo, a.hi), (c.lo, c.hi)
    flip = isinstance(c, Const) and b.flag()    # the constant on the left: 1.5 - v
    if op in ("add", "sub", "mul"):
        sym = {"add": "+", "sub": "-", "mul": "*"}[op]
        if flip:
            expr = f"{y} {sym} {x}"
        else:
            expr = b.choose((f"{x} {sym} {y}", f"sg.{op}({x}, {y})", f"{x}.{op}({y})"))
        if op == "add":
            lo, hi = ia[0] + ic[0], ia[1] + ic[1]
        elif op == "mul":
            lo, hi = interval_mul(ia, ic)
        else:
            lo, hi = (ic[0] - ia[1], ic[1] - ia[0]) if flip else (ia[0] - ic[1], ia[1] - ic[0])
        return b.emit(expr, shape, dtype, lo, hi, [a, c])
    if op == "div":
        num, den, num_iv = (c, a, ic) if flip else (a, c, ia)
        if isinstance(den, Const):
            if not den.value:
                return False
            inv = (1 / den.value, 1 / den.value)
            return b.emit(f"{text(num)} / {den.text}", shape, float_of(dtype),
                          *interval_mul(num_iv, inv), [a, c])
        if den.lo >= 0.25 or den.hi <= -0.25:
            arg, lo, hi, probes = den.name, den.lo, den.hi, ()
        else:
            arg, lo, hi, probes = positive(b, den)
            dtype = promote(num, guarded(den, lo, hi))
        expr = b.choose((f"{text(num)} / {arg}", f"sg.div({text(num)}, {arg})"))
        return b.emit(expr, shape, float_of(dtype), *interval_mul(num_iv, (1 / hi, 1 / lo)),
                      [a, c], probes)
    if op in ("maximum", "minimum"):
        expr = b.choose((f"sg.{op}({x}, {y})", f"{x}.{op}({y})",
                         f"sg.{op[:3]}({x}, {y})"))
        f = max if op == "maximum" else min
        return b.emit(expr, shape, dtype, f(ia[0], ic[0]), f(ia[1], ic[1]), [a, c],
                      [f"zero({x}, {y})"])
    # pow: a guarded positive base, an exponent within [-3, 3]
    if max(abs(c.lo), abs(c.hi)) > 3:
        return False
    arg, lo, hi, probes = positive(b, a)
    corners = [p ** e for p in (lo, hi) for e in (c.lo, c.hi)]
    if max(corners) > b.config.limit:
        return False
    expr = b.choose((f"{arg} ** {y}", f"sg.pow({arg}, {y})"))
    base = a if arg == a.name else guarded(a, lo, hi)
    return b.emit(expr, shape, promote(base, c), min(corners), max(corners), [a, c], probes)


COMPARISONS = ("<", ">", "<=", ">=", "==")


def where(b: Builder, a: Var) -> bool:
    """``sg.where(<comparison>, x, y)`` or ``(<comparison>).to(x.dtype) * x``."""
    q = b.partner(a, lambda v: broadcast(v.shape, a.shape) is not None,
                  lambda: b.variant(a.shape))
    cond = f"{a.name} {b.choose(COMPARISONS)} {text(q)}"
    probes = [f"zero({a.name}, {text(q)})"]
    uses = [a, q]
    joined = b.draw(st.integers(0, 3))
    if joined == 1:
        cond = f"~({cond})"
    elif joined >= 2:
        c = b.const()
        cond = f"({cond}) {'&' if joined == 2 else '|'} ({a.name} > {c.text})"
        probes.append(f"zero({a.name}, {c.text})")
    cond_shape = broadcast(a.shape, q.shape)
    if b.flag():
        # x or y is a variable: two Python numbers would make a float32 result even in the
        # float64 program that finite differences evaluate (torch's default dtype)
        x = a if b.flag() else b.partner(a, lambda v: broadcast(v.shape, cond_shape)
                                         is not None, lambda: b.variant(cond_shape))
        y = b.partner(a, lambda v: broadcast(v.shape, cond_shape) is not None,
                      lambda: b.variant(cond_shape), const=isinstance(x, Var))
        if y is None:
            return False
        if b.flag():
            x, y = y, x
        shape = broadcast(cond_shape, x.shape, y.shape)
        if shape is None:
            return False
        return b.emit(f"sg.where({cond}, {text(x)}, {text(y)})", shape, promote(x, y),
                      min(x.lo, y.lo), max(x.hi, y.hi), uses + [x, y], probes)
    shape = broadcast(cond_shape, a.shape)
    return b.emit(f"({cond}).to({a.name}.dtype) * {a.name}", shape, a.dtype,
                  min(a.lo, 0), max(a.hi, 0), uses, probes)


def _dims(b: Builder, a: Var, single: bool = False, allow_none: bool = True):
    """Reduction dims for ``a``: None, an int (maybe negative) or a tuple of them."""
    nd = a.ndim
    if nd == 0:
        return b.choose((None, 0, -1) if allow_none else (0, -1))
    kinds = (["int"] if single else ["int", "tuple"]) + (["none"] if allow_none else [])
    kind = b.choose(kinds)
    if kind == "none":
        return None
    if kind == "int":
        return b.draw(st.integers(-nd, nd - 1))
    picked = b.draw(st.lists(st.integers(0, nd - 1), min_size=1, max_size=nd, unique=True))
    return tuple(d - nd if b.draw(st.integers(0, 3)) == 0 else d for d in picked)


def _count(shape: tuple, dims) -> int:
    """How many elements each output element of a reduction over ``dims`` combines."""
    return math.prod(shape[d] for d in normalize(dims, len(shape)))


def reduce(b: Builder, a: Var) -> bool:
    """Reductions over random dims, keepdim or not (of int64: sum, prod and extrema only;
    torch refuses mean, logsumexp and norm of integers)."""
    ops = ("sum", "amax", "max", "prod", "amin", "max_dim", "min")
    op = b.choose(ops + (("mean", "logsumexp", "norm") if a.dtype != I64 else ()))
    n = a.name
    keep = b.flag()
    if op in ("sum", "mean"):
        dims = _dims(b, a)
        shape = reduced_shape(a.shape, dims, keep)
        count = _count(a.shape, dims)
        if dims is None and not keep:
            expr = b.choose((f"{n}.{op}()", f"sg.{op}({n})"))
        else:
            expr = b.choose((f"{n}.{op}(dim={dims!r}, keepdim={keep})",
                             f"sg.{op}({n}, {dims!r}, keepdim={keep})"))
        if op == "sum":
            return b.emit(expr, shape, a.dtype, count * min(a.lo, 0), count * max(a.hi, 0),
                          [a])
        return b.emit(expr, shape, a.dtype, a.lo, a.hi, [a],
                      special=count == 0 and math.prod(shape) > 0)
    if op in ("amax", "amin"):
        dims = _dims(b, a)
        if any(a.shape[d] == 0 for d in normalize(dims, a.ndim)):
            return False          # torch: "Expected reduction dim to have non-zero size"
        which = "max" if op == "amax" else "min"
        if dims is None:
            keep = False          # torch's amax takes no dim=None: amax() reduces all
            expr = b.choose((f"{n}.{op}()", f"sg.{op}({n})"))
        else:
            expr = b.choose((f"{n}.{op}({dims!r}, keepdim={keep})",
                             f"sg.{op}({n}, dim={dims!r}, keepdim={keep})"))
        shape = reduced_shape(a.shape, dims, keep)
        return b.emit(expr, shape, a.dtype, a.lo, a.hi, [a], [f"tie({n}, {dims!r}, '{which}')"])
    if op in ("max", "min"):
        if a.size == 0:
            return False
        return b.emit(b.choose((f"{n}.{op}()", f"sg.{op}({n})")), (), a.dtype, a.lo, a.hi,
                      [a], [f"tie({n}, None, '{op}')"])
    if op == "max_dim":
        d = _dims(b, a, single=True, allow_none=False)
        if a.ndim and a.shape[d] == 0:
            return False
        which = b.choose(("max", "min"))
        expr = b.choose((f"{n}.{which}({d}).values", f"{n}.{which}(dim={d}, keepdim={keep})[0]",
                         f"sg.{which}({n}, {d}, keepdim={keep}).values"))
        if expr.endswith(f"({d}).values"):
            keep = False
        shape = reduced_shape(a.shape, d, keep)
        return b.emit(expr, shape, a.dtype, a.lo, a.hi, [a], [f"tie({n}, {d}, '{which}')"])
    if op == "prod":
        d = _dims(b, a, single=True)
        count = _count(a.shape, d)
        M = max(a.bound, 1.0)
        if count * math.log(M) > math.log(b.config.limit):
            return False
        shape = reduced_shape(a.shape, d, keep and d is not None)
        expr = f"{n}.prod()" if d is None else \
            b.choose((f"{n}.prod({d})" if not keep else f"{n}.prod({d}, keepdim=True)",
                      f"sg.prod({n}, {d}, keepdim={keep})"))
        lo, hi = (a.lo ** count, a.hi ** count) if a.lo >= 0 else (-M ** count, M ** count)
        return b.emit(expr, shape, a.dtype, min(lo, 1.0), max(hi, 1.0), [a])
    if op == "logsumexp":
        dims = _dims(b, a, allow_none=False)
        count = _count(a.shape, dims)
        shape = reduced_shape(a.shape, dims, keep)
        expr = b.choose((f"sg.logsumexp({n}, {dims!r}, keepdim={keep})",
                         f"{n}.logsumexp({dims!r}, keepdim={keep})"))
        return b.emit(expr, shape, a.dtype, a.lo, a.hi + math.log(max(count, 1)), [a],
                      special=count == 0 and math.prod(shape) > 0)
    # norm
    dims = _dims(b, a)
    count = _count(a.shape, dims)
    p = b.choose((2, 1, "inf"))
    shape = reduced_shape(a.shape, dims, keep)
    p_text = {2: "", 1: "p=1, ", "inf": "p=float('inf'), "}[p]
    expr = f"{n}.norm({p_text.rstrip(', ')})" if dims is None and not keep else \
        f"sg.norm({n}, {p_text}dim={dims!r}, keepdim={keep})"
    if p == "inf" and count == 0:
        return False
    hi = {2: math.sqrt(count), 1: count, "inf": 1}[p] * a.bound
    probes = {2: [f"zero({b.next_name})"], 1: [f"zero({n})"],
              "inf": [f"zero({n})", f"tie(sg.abs({n}), {dims!r}, 'max')"]}[p]
    return b.emit(expr, shape, a.dtype, 0.0, hi, [a], probes)


def softmax(b: Builder, a: Var) -> bool:
    if a.dtype == I64:
        return False                    # torch: not implemented for int64
    d = _dims(b, a, single=True, allow_none=False)
    n = a.name
    if b.flag():
        expr = b.choose((f"sg.softmax({n}, {d})", f"{n}.softmax({d})",
                         f"F.softmax({n}, dim={d})"))
        return b.emit(expr, a.shape, a.dtype, 0.0, 1.0, [a])
    expr = b.choose((f"sg.log_softmax({n}, {d})", f"{n}.log_softmax(dim={d})",
                     f"F.log_softmax({n}, {d})"))
    count = a.shape[d] if a.ndim else 1
    return b.emit(expr, a.shape, a.dtype, a.lo - a.hi - math.log(max(count, 1)), 0.0, [a])


def _reshape_target(b: Builder, size: int) -> tuple:
    k = b.draw(st.integers(0 if size == 1 else 1, 3))
    if size == 0:
        zero_at = b.draw(st.integers(0, k - 1))
        return tuple(0 if i == zero_at else b.draw(st.integers(1, 3)) for i in range(k))
    dims, rest = [], size
    for _ in range(k - 1):
        divisors = [d for d in range(1, rest + 1) if rest % d == 0]
        d = b.choose(divisors)
        dims.append(d)
        rest //= d
    return tuple(dims + [rest]) if k else ()


def movement(b: Builder, a: Var) -> bool:
    n, nd = a.name, a.ndim
    ops = ["reshape", "unsqueeze", "expand", "flatten", "squeeze"]
    ops += ["permute", "transpose"] if nd >= 1 else []
    ops += ["T"] if nd <= 2 else ["mT"]
    op = b.choose(ops)
    keep = (a.dtype, a.lo, a.hi, [a])
    if op == "reshape":
        t = _reshape_target(b, a.size)
        shown = t
        if t and a.size and b.draw(st.integers(0, 3)) == 0:
            i = b.draw(st.integers(0, len(t) - 1))
            shown = t[:i] + (-1,) + t[i + 1:]
        forms = [f"{n}.reshape({shown})", f"sg.reshape({n}, {shown})", f"{n}.view({shown})"]
        if shown:
            forms.append(f"{n}.reshape({', '.join(map(str, shown))})")
        return b.emit(b.choose(forms), t, *keep)
    if op == "unsqueeze":
        d = b.draw(st.integers(-nd - 1, nd))
        shape = list(a.shape)
        shape.insert(d % (nd + 1), 1)
        forms = [f"{n}.unsqueeze({d})", f"sg.unsqueeze({n}, {d})"] + \
            ([f"{n}[None]"] if d == 0 else [])
        return b.emit(b.choose(forms), tuple(shape), *keep)
    if op == "squeeze":
        if nd == 0 or b.flag():
            shape = tuple(s for s in a.shape if s != 1)
            return b.emit(b.choose((f"{n}.squeeze()", f"sg.squeeze({n})")), shape, *keep)
        d = b.draw(st.integers(-nd, nd - 1))
        shape = tuple(s for i, s in enumerate(a.shape) if not (i == d % nd and s == 1))
        return b.emit(b.choose((f"{n}.squeeze({d})", f"sg.squeeze({n}, {d})")), shape, *keep)
    if op == "flatten":
        if nd == 0:
            return b.emit(f"{n}.flatten()", (1,), *keep)
        s = b.draw(st.integers(0, nd - 1))
        e = b.draw(st.integers(s, nd - 1))
        shape = a.shape[:s] + (math.prod(a.shape[s:e + 1]),) + a.shape[e + 1:]
        forms = [f"{n}.flatten({s}, {e})", f"sg.flatten({n}, {s}, {e - nd})"]
        if e == nd - 1:
            forms.append(f"{n}.flatten({s})" if s else f"{n}.flatten()")
        return b.emit(b.choose(forms), shape, *keep)
    if op == "expand":
        t = [s if s != 1 or b.flag() else b.choose(b.config.dims) for s in a.shape]
        lead = []
        if len(t) < 3 and b.flag():
            lead = [b.choose(b.config.dims)]
        shown = lead + [s if s != a.shape[i] or b.flag() else -1 for i, s in enumerate(t)]
        shape = tuple(lead + t)
        forms = [f"{n}.expand({tuple(shown)})", f"sg.broadcast_to({n}, {shape})"]
        if shown:
            forms.append(f"{n}.expand({', '.join(map(str, shown))})")
        return b.emit(b.choose(forms), shape, *keep)
    if op == "permute":
        perm = tuple(b.draw(st.permutations(range(nd))))
        shape = tuple(a.shape[p] for p in perm)
        forms = [f"{n}.permute({perm})", f"{n}.permute({', '.join(map(str, perm))})",
                 f"sg.permute({n}, {perm})"]
        return b.emit(b.choose(forms), shape, *keep)
    if op == "transpose":
        i, j = b.draw(st.integers(-nd, nd - 1)), b.draw(st.integers(-nd, nd - 1))
        shape = list(a.shape)
        shape[i], shape[j] = shape[j], shape[i]
        return b.emit(b.choose((f"{n}.transpose({i}, {j})", f"sg.transpose({n}, {i}, {j})")),
                      tuple(shape), *keep)
    if op == "T":
        return b.emit(b.choose((f"{n}.T", f"{n}.t()", f"sg.t({n})")), a.shape[::-1], *keep)
    shape = a.shape[:-2] + (a.shape[-1], a.shape[-2])
    return b.emit(f"{n}.mT", shape, *keep)


def _slice(b: Builder, size: int) -> tuple:
    """One index item for a dimension of ``size``: (text, the index object)."""
    kind = b.choose(("slice", "full", "int"))
    if kind == "int" and size:
        i = b.draw(st.integers(-size, size - 1))
        return str(i), i
    if kind == "full":
        return ":", slice(None)
    start = b.choose((None, 1, 0, -1, -2, size + 1))
    stop = b.choose((None, -1, 1, 2, size))
    step = b.choose((None, 2, 1, 3))
    item = slice(start, stop, step)
    if not len(range(*item.indices(size))) and not b.config.empty:
        return ":", slice(None)
    txt = f"{'' if start is None else start}:{'' if stop is None else stop}"
    return txt + (f":{step}" if step is not None else ""), item


def index(b: Builder, a: Var) -> bool:
    """Basic indexing ``a[...]``: ints, slices (steps 1 to 3), None and ``...``; NumPy's
    indexing of an array of ``a``'s shape gives the expected shape."""
    items = [_slice(b, s) for s in a.shape]
    # trailing full slices may be left out, or else a run of them written as ...
    n_items = len(items)
    while items and items[-1][0] == ":" and b.flag():
        items.pop()
    full = [t for t, _ in items]
    if len(items) == n_items and ":" in full and b.flag():
        k = full.index(":")
        run = 1
        while k + run < len(items) and items[k + run][0] == ":":
            run += 1
        items[k:k + run] = [("...", Ellipsis)]
    if b.draw(st.integers(0, 3)) == 0:
        items.insert(b.draw(st.integers(0, len(items))), ("None", None))
    if not items:
        items = [("...", Ellipsis)]
    shape = np.empty(a.shape)[tuple(obj for _, obj in items)].shape
    return b.emit(f"{a.name}[{', '.join(t for t, _ in items)}]", shape, a.dtype, a.lo, a.hi,
                  [a])


def matmul(b: Builder, a: Var) -> bool:
    if a.ndim == 0 or a.dtype == I64:
        return False                    # symgrad's matmul is floating only (torch's is not)
    K = a.shape[-1]
    batch = a.shape[:-2]
    kind = b.choose(("mat", "vec", "batch"))
    N = b.choose(b.config.dims)
    if kind == "vec":
        want = (K,)
    elif kind == "mat":
        want = (K, N)
    else:
        want = b.variant(batch) + (K, N) if batch else (b.choose(b.config.dims), K, N)

    def fits(v):
        if v.ndim == 1:
            return v.shape[0] == K
        return v.ndim >= 2 and v.shape[-2] == K and (
            a.ndim == 1 or broadcast(v.shape[:-2], batch) is not None)
    c = b.partner(a, fits, lambda: want, const=False, same_dtype=not b.config.mixed)
    if c is None or c.dtype == I64:
        return False
    bshape = broadcast(a.shape[:-2], c.shape[:-2])
    shape = bshape + (a.shape[-2:-1] if a.ndim > 1 else ()) + \
        (c.shape[-1:] if c.ndim > 1 else ())
    dtype = F64 if F64 in (a.dtype, c.dtype) else F32
    # torch's products refuse two dtypes (so does symgrad): the program casts, as torch's must
    x, y = (v.name if v.dtype == dtype else f"{v.name}.double()" for v in (a, c))
    forms = [f"{x} @ {y}", f"sg.matmul({x}, {y})", f"{x}.matmul({y})"]
    if a.ndim == c.ndim == 2:
        forms += [f"sg.mm({x}, {y})", f"{x}.mm({y})"]
    if a.ndim == c.ndim == 1:
        forms += [f"sg.dot({x}, {y})", f"{x}.dot({y})"]
    if a.ndim == c.ndim == 3 and a.shape[0] == c.shape[0]:
        forms += [f"sg.bmm({x}, {y})"]
    M = K * a.bound * c.bound
    return b.emit(b.choose(forms), shape, dtype, -M, M, [a, c])


def join(b: Builder, a: Var) -> bool:
    """``sg.cat`` along a dim, or ``sg.stack``."""
    n = a.name
    if a.ndim and b.flag():
        d = b.draw(st.integers(-a.ndim, a.ndim - 1))
        ax = d % a.ndim

        def fits(v):
            return v.ndim == a.ndim and all(s == t for i, (s, t) in
                                            enumerate(zip(v.shape, a.shape)) if i != ax)
        shape = list(a.shape)
        shape[ax] = b.choose(b.config.dims)
        c = b.partner(a, fits, lambda: tuple(shape), const=False)
        if c is None:
            return False
        parts = [n, c.name] + ([n] if b.draw(st.integers(0, 3)) == 0 else [])
        out = list(a.shape)
        out[ax] = sum(v.shape[ax] for v in [a, c]) + (a.shape[ax] if len(parts) == 3 else 0)
        expr = b.choose((f"sg.cat([{', '.join(parts)}], dim={d})",
                         f"sg.cat(({', '.join(parts)}), {d})"))
        return b.emit(expr, tuple(out), promote(a, c), min(a.lo, c.lo), max(a.hi, c.hi),
                      [a, c])
    d = b.draw(st.integers(-a.ndim - 1, a.ndim))
    c = b.partner(a, lambda v: v.shape == a.shape, lambda: a.shape, const=False)
    if c is None:
        return False
    out = list(a.shape)
    out.insert(d % (a.ndim + 1), 2)
    return b.emit(f"sg.stack([{n}, {c.name}], {d})", tuple(out), promote(a, c),
                  min(a.lo, c.lo), max(a.hi, c.hi), [a, c])


def cast(b: Builder, a: Var) -> bool:
    """``.to(dtype)`` between the program's dtypes (float to int64 truncates towards 0)."""
    targets = [d for d in (F32, F64) if b.config.mixed or I64 in b.config.dtypes] + \
        ([I64] if I64 in b.config.dtypes and not a.special else [])
    targets = [d for d in targets if d != a.dtype]
    if not targets:
        return False
    to = b.choose(targets)
    expr = b.choose((f"{a.name}.to(sg.{to})", f"{a.name}.to(dtype=sg.{to})"))
    if to == I64:
        return b.emit(expr, a.shape, to, math.trunc(a.lo), math.trunc(a.hi), [a],
                      [f"integral({a.name})"])
    return b.emit(expr, a.shape, to, a.lo, a.hi, [a])


def loss(b: Builder, a: Var) -> bool:
    """nn.functional losses (reduction mean, sum or none) of ``a`` and a partner of its
    shape: mse_loss, binary_cross_entropy(_with_logits) of sigmoid targets, cross_entropy."""
    n = a.name
    if a.dtype == I64:
        return False                    # torch's losses are floating only
    red = b.choose(("mean", "sum", "none"))
    red_text = "" if red == "mean" else f", reduction='{red}'"
    kind = b.choose(("mse", "bce_logits", "cross_entropy", "bce"))
    count = a.size
    shape = () if red != "none" else a.shape
    empty_mean = red == "mean" and count == 0
    if kind == "cross_entropy" and a.ndim in (1, 2) and a.shape[-1] > 0:
        C = a.shape[-1]
        batch = a.shape[:-1]
        shape = () if red != "none" else batch
        per = 2 * a.bound + math.log(C)
        if b.flag() and math.prod(batch) <= 64:    # class targets, some ignored (-100)
            targets = [b.choose(tuple(range(C)) + (-100,)) for _ in range(math.prod(batch))]
            t = f"sg.tensor({targets}{', dtype=sg.int64' if not targets else ''})" \
                if batch else f"sg.tensor({targets[0]})"        # [] alone would be float32
            kept = sum(1 for x in targets if x != -100)
            scale = kept if red == "sum" else 1
            special = red == "mean" and kept == 0
            return b.emit(f"F.cross_entropy({n}, {t}{red_text})", shape, a.dtype, 0.0,
                          per * max(scale, 1), [a], special=special)
        c = b.partner(a, lambda v: v.shape == a.shape, lambda: a.shape, const=False,
                      same_dtype=True)
        if c is None:
            return False
        dim = 1 if a.ndim == 2 else 0
        scale = math.prod(batch) if red == "sum" else 1
        return b.emit(f"F.cross_entropy({n}, sg.softmax({c.name}, {dim}){red_text})", shape,
                      a.dtype, -1e-6, per * max(scale, 1), [a, c],
                      special=red == "mean" and not math.prod(batch))
    c = b.partner(a, lambda v: v.shape == a.shape, lambda: a.shape, const=False,
                  same_dtype=True)
    if c is None:
        return False
    scale = count if red == "sum" else 1
    if kind == "mse" or kind == "cross_entropy":
        per = (a.bound + c.bound) ** 2
        return b.emit(f"F.mse_loss({n}, {c.name}{red_text})", shape, a.dtype, 0.0,
                      per * max(scale, 1), [a, c], special=empty_mean)
    if kind == "bce":
        if a.bound > 15:
            return False
        per = a.bound + 1.0
        return b.emit(f"F.binary_cross_entropy(sg.sigmoid({n}), sg.sigmoid({c.name})"
                      f"{red_text})", shape, a.dtype, 0.0, per * max(scale, 1), [a, c],
                      special=empty_mean)
    pos = ""
    if b.draw(st.integers(0, 3)) == 0:
        pos = f", pos_weight=sg.tensor(2.0, dtype=sg.{a.dtype})"
    per = 2 * (a.bound + 1.0)
    return b.emit(f"F.binary_cross_entropy_with_logits({n}, sg.sigmoid({c.name}){red_text}"
                  f"{pos})", shape, a.dtype, 0.0, per * max(scale, 1), [a, c],
                  special=empty_mean)


def _update(b: Builder, a: Var, shape: tuple):
    """An in-place op on a tensor of ``shape`` holding values of ``a``: add_/sub_ (maybe with
    alpha), mul_, div_ by a guarded denominator, clamp_, copy_ or fill_, with an operand that
    broadcasts to ``shape``. (call text, lo, hi of the updated values, uses, probes), or None.
    An int64 tensor takes int operands (torch: a float result cannot be cast back), except in
    fill_ and copy_, which cast (truncating)."""
    integer = a.dtype == I64
    op = b.choose(("add_", "mul_", "sub_", "clamp_", "copy_", "fill_") +
                  (("div_",) if not integer else ()))
    if op == "clamp_":
        low, high = sorted((b.const(integer=integer).value, b.const(integer=integer).value))
        return (f"clamp_(min={low}, max={high})", min(max(a.lo, low), high),
                max(min(a.hi, high), low), [], [f"zero({a.name}, {low})",
                                                f"zero({a.name}, {high})"])
    if op == "fill_":
        c = b.const()
        value = math.trunc(c.value) if integer else c.value
        return f"fill_({c.text})", value, value, [], []

    def fits(v):
        return broadcast(v.shape, shape) == shape and (not integer or op == "copy_" or
                                                       v.dtype == I64)
    if integer and op != "copy_" and b.flag():
        c = b.const(integer=True)
    else:
        c = b.partner(a, fits, lambda: b.variant(shape, grow=False), const=not integer,
                      same_dtype=integer and op != "copy_")
        if c is None:
            return None
    ia, ic = (a.lo, a.hi), (c.lo, c.hi)
    if op == "copy_":
        if integer and operand_dtype(c) != I64:
            return (f"copy_({text(c)})", math.trunc(c.lo), math.trunc(c.hi), [c],
                    [f"integral({text(c)})"])
        return f"copy_({text(c)})", c.lo, c.hi, [c], []
    if op in ("add_", "sub_"):
        alpha = b.choose((None, 2, -1) if integer else (None, 2.0, -0.5))
        k = 1.0 if alpha is None else alpha
        lo, hi = sorted((k * c.lo, k * c.hi))
        if op == "sub_":
            lo, hi = -hi, -lo
        extra = "" if alpha is None else f", alpha={alpha}"
        return f"{op}({text(c)}{extra})", a.lo + lo, a.hi + hi, [c], []
    if op == "mul_":
        return (f"mul_({text(c)})", *interval_mul(ia, ic), [c], [])
    if isinstance(c, Const):
        if not c.value:
            return None
        return (f"div_({c.text})", *interval_mul(ia, (1 / c.value, 1 / c.value)), [c], [])
    arg, lo, hi, probes = positive(b, c)
    return (f"div_({arg})", *interval_mul(ia, (1 / hi, 1 / lo)), [c], probes)


def inplace(b: Builder, a: Var) -> bool:
    """An in-place update of a clone of ``a`` (its shape and dtype stay, as in torch)."""
    update = _update(b, a, a.shape)
    if update is None:
        return False
    call, lo, hi, uses, probes = update
    return b.emit(f"{a.name}.clone().{call}", a.shape, a.dtype, lo, hi, [a] + uses, probes)


def view_inplace(b: Builder, a: Var) -> bool:
    """A clone of ``a`` updated in place through a view of it: an index/slice, a transpose or
    permute, a reshape or an unsqueeze (torch writes through to the clone)."""
    v = b.next_name
    kind = b.choose(("index", "transpose", "reshape", "unsqueeze"))
    if kind == "index" and a.ndim:
        items = [_slice(b, s) for s in a.shape[:b.draw(st.integers(1, a.ndim))]]
        view = f"{v}[{', '.join(t for t, _ in items)}]"
        shape = np.empty(a.shape)[tuple(obj for _, obj in items)].shape
    elif kind == "transpose" and a.ndim >= 2:
        perm = tuple(b.draw(st.permutations(range(a.ndim))))
        view = b.choose((f"{v}.permute{perm}", f"{v}.mT", f"{v}.transpose(0, -1)"))
        if view.endswith("mT"):
            perm = tuple(range(a.ndim - 2)) + (a.ndim - 1, a.ndim - 2)
        elif view.endswith("transpose(0, -1)"):
            perm = (a.ndim - 1,) + tuple(range(1, a.ndim - 1)) + (0,)
        shape = tuple(a.shape[p] for p in perm)
    elif kind == "reshape":
        shape = _reshape_target(b, a.size)
        view = b.choose((f"{v}.reshape({shape})", f"{v}.view({shape})"))
    else:
        d = b.draw(st.integers(-a.ndim - 1, a.ndim))
        shape = list(a.shape)
        shape.insert(d % (a.ndim + 1), 1)
        shape, view = tuple(shape), f"{v}.unsqueeze({d})"
    update = _update(b, a, shape)
    if update is None:
        return False
    call, lo, hi, uses, probes = update
    return b.emit(f"{a.name}.clone()", a.shape, a.dtype, min(a.lo, lo), max(a.hi, hi),
                  [a] + uses, probes, after=[f"{view}.{call}"])


def count(b: Builder, a: Var) -> bool:
    """How many elements pass a comparison, along dims (an int64 sum), back as floats."""
    c = b.const()
    dims = _dims(b, a)
    keep = b.flag()
    n = _count(a.shape, dims)
    expr = f"({a.name} > {c.text}).sum(dim={dims!r}, keepdim={keep}).to({a.name}.dtype)"
    return b.emit(expr, reduced_shape(a.shape, dims, keep), a.dtype, 0.0, float(n), [a],
                  [f"zero({a.name}, {c.text})"])


def integer_result(b: Builder, a: Var) -> Var | None:
    """An int64 or bool result of ``a`` returned next to the float one (forward checks):
    argmax/argmin, a comparison, ``isfinite``, a count."""
    n = a.name
    kind = b.choose(("argmax", "compare", "isfinite", "count"))
    if kind == "argmax":
        which = b.choose(("argmax", "argmin"))
        tie = "max" if which == "argmax" else "min"
        if a.ndim == 0 or b.flag():
            if a.size == 0:
                return None
            return b.emit(b.choose((f"{n}.{which}()", f"sg.{which}({n})")), (), "int64", 0,
                          a.size, [a], [f"tie({n}, None, '{tie}')"], pool=False)
        d = b.draw(st.integers(-a.ndim, a.ndim - 1))
        if a.shape[d] == 0:
            return None
        keep = b.flag()
        expr = b.choose((f"{n}.{which}({d}, keepdim={keep})",
                         f"sg.{which}({n}, dim={d}, keepdim={keep})"))
        return b.emit(expr, reduced_shape(a.shape, d, keep), "int64", 0, a.shape[d], [a],
                      [f"tie({n}, {d}, '{tie}')"], pool=False)
    if kind == "isfinite":
        return b.emit(f"sg.isfinite({n})", a.shape, "bool", 0, 1, [a], pool=False)
    c = b.const()
    cmp = b.choose(COMPARISONS)
    if kind == "compare":
        return b.emit(f"{n} {cmp} {c.text}", a.shape, "bool", 0, 1, [a],
                      [f"zero({n}, {c.text})"], pool=False)
    dims = _dims(b, a)
    return b.emit(f"({n} {cmp} {c.text}).sum({dims!r})", reduced_shape(a.shape, dims, False),
                  "int64", 0, a.size, [a], [f"zero({n}, {c.text})"], pool=False)


def loop(b: Builder, a: Var) -> bool:
    """Loops and branches around smooth bounded bodies: ``fori_loop`` (0, 1 or 3 steps,
    reading another variable through its closure), ``scan`` over the leading axis (forward or
    reverse, its stacked values), ``cond`` on the operand's sum (the switch is probed), and a
    ``while_loop`` of 2 steps counted in its carry."""
    if a.dtype == I64:
        return False
    n, bound = a.name, a.bound
    kinds = ["fori", "cond"] + (["scan"] if a.ndim and a.shape[0] else []) + \
        (["while"] if b.config.while_loops else [])
    kind = b.choose(kinds)
    if kind == "fori":
        o = b.partner(a, lambda v: v.dtype == a.dtype and v.shape == a.shape,
                      lambda: a.shape, const=False, same_dtype=True)
        other = o.name if isinstance(o, Var) else "0.5"
        steps = b.choose((0, 1, 3))
        top = max(bound, 0.75) if steps else bound
        return b.emit(f"sg.fori_loop(0, {steps}, lambda i, c: c * 0.5 + sg.sin(c + {other}) "
                      f"* 0.25, {n})", a.shape, a.dtype, -top, top,
                      [a] + ([o] if isinstance(o, Var) else []))
    if kind == "scan":
        reverse = b.flag()
        return b.emit(f"sg.scan(lambda c, x: (sg.tanh(c * 0.5 + x), c * x), {n}[0] * 0.0, {n}, "
                      f"reverse={reverse})[1]", a.shape, a.dtype, -bound, bound, [a])
    if kind == "cond":
        c = b.choose((0.0, 0.5, -1.0))
        top = max(2.0, bound / 2 + 0.25)
        return b.emit(f"sg.cond({n}.sum() > {c}, lambda t: sg.tanh(t) * 2.0, "
                      f"lambda t: t * 0.5 - 0.25, ({n},))", a.shape, a.dtype, -top, top, [a],
                      [f"zero({n}.sum(), {c})"])
    top = max(bound, 2.0)
    return b.emit(f"sg.while_loop(lambda s: s[0] < 2, lambda s: (s[0] + 1, s[1] * 0.75 + 0.5),"
                  f" (0, {n}))[1]", a.shape, a.dtype, -top, top, [a])


# (``registry``: any smooth elementwise op of the registry, drawn from ``OPS``: registry.py)
FAMILIES = (unary, binary, reduce, movement, index, where, matmul, softmax, join, loss, cast,
            count, inplace, view_inplace, loop, registry)
