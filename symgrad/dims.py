"""``Dim``: an array size known only at call time, for shape-generic compilation.

Layer: base (imports nothing of symgrad). A ``Dim`` is an ``int`` whose value is a *hint* (the
size it is traced at) and which also carries a polynomial over size symbols (``x_size0``,
``784*x_size0 + 1``). Arithmetic with ints and Dims stays symbolic, so the shapes, strides,
buffer sizes and workspace offsets that every stage computes with plain int code come out as
expressions that codegen prints as C (``str(d)``). Code written for ints runs unchanged on it;
where it would silently use the hint, this module either answers symbolically or says so:

- a comparison (``d == 1``, ``d >= 4``) is decided for every size when it can be (symbols are
  at least 1: ``d >= 1`` is true); otherwise it is answered on the hint and recorded as a
  ``Guard``, which a compiled function checks when it is called with new sizes;
- an operation with no polynomial result (``d / 2``, ``float(d)``, ``d % 3``, ``int(d)``)
  raises ``NotGeneric``: the shape-generic compile gives up and specializes instead;
- hashing and printing (``hash``, hence sets, dict keys, ``functools.lru_cache``; ``str``,
  ``repr``, f-strings) answer symgrad's own code only; anywhere else they raise NotGeneric.

Why: a Dim's hash and text are its polynomial's, the same at every size, so a user's
``n in {3, 5}``, ``{3: a, 5: b}[n]``, ``lru_cache(f)(n)`` or ``len(f"{n}")`` would be decided
once, served to every size, and no comparison of two traces could tell. Symgrad needs them as
they are (nodes and lowering tables keyed by shapes; codegen prints a size as its C). So these
methods ask who called: the nearest Python frame (for a hash a set, a dict or ``lru_cache``
takes in C, the code using it) must run in a ``symgrad`` module, else the compile falls back
to one module per size (a guard would pin the exact value: the same). It costs one frame
lookup, in methods only shape-generic compiles reach. Frames that print for their caller are
skipped (``symgrad.size``: ``str(x.shape)``); a dataclass's generated methods run in its
module's globals; templates get sizes as text (their frames are no module's). The price of a
frame rule: symgrad's code is trusted to use a size's hash and text as a key or as C only.

What no hook sees: CPython takes an ``int`` subclass's value without calling its methods
where it wants a C integer or a double (``PyNumber_Index`` copies it without ``__index__``:
``range(d)``, ``[0] * d``, ``"%d" % d``, ``math.gcd``, NumPy sizes; float arithmetic such as
``0.5 * d``; ``int.__str__(d)``). That sees the hint, and is caught by tracing twice with
different hints and comparing the results (``api.dynamic``) when the two make different code
(``len("%d" % d)`` is 4 at both ``HINTS``: not caught).

This is torch's SymInt with guards, kept to polynomials: sizes in the programs symgrad compiles
are products and sums of input sizes.
"""

from __future__ import annotations

import numbers
import operator
import sys
import threading
from dataclasses import dataclass


class NotGeneric(Exception):
    """A size was used in a way that only a concrete size allows."""


def _poly(x):
    """``x`` as polynomial terms ``((monomial, coefficient), ...)``, or None if not a size."""
    if type(x) is int:
        return (((), x),) if x else ()
    if isinstance(x, Dim):
        return x.terms
    if isinstance(x, int) and not isinstance(x, bool):   # a NumPy-free int subclass
        return (((), int(x)),) if x else ()
    return None


def _make(terms: dict, hints: dict):
    """Canonical terms -> a plain int (no symbol left) or a Dim (``hints``: a superset of its
    symbols' hints)."""
    items = _nonzero(terms)
    if not items:
        return 0
    if len(items) == 1 and items[0][0] == ():
        return items[0][1]
    return Dim(items, {s: hints[s] for m, _ in items for s in m})


def _add(p, q, sign: int = 1) -> dict:
    out = dict(p)
    for m, c in q:
        out[m] = out.get(m, 0) + sign * c
    return out


def _mul(p, q) -> dict:
    out: dict = {}
    for m1, c1 in p:
        for m2, c2 in q:
            m = tuple(sorted(m1 + m2))
            out[m] = out.get(m, 0) + c1 * c2
    return out


class Dim(int):
    """A size: an int (the hint) that is also a polynomial over size symbols."""

    def __new__(cls, terms: tuple, hints: dict):
        value = 0
        for m, c in terms:
            v = c
            for s in m:
                v *= hints[s]
            value += v
        d = int.__new__(cls, value)
        d.terms, d.hints = terms, hints
        return d

    @classmethod
    def symbol(cls, name: str, hint: int) -> Dim:
        return cls((((name,), 1),), {name: int(hint)})

    @property
    def symbols(self) -> set:
        return {s for m, _ in self.terms for s in m}

    # ------------------------------------------------------------ arithmetic
    def _binary(self, other, combine):
        q = _poly(other)
        if q is None:
            return _other(self, other)
        hints = {**self.hints, **getattr(other, "hints", {})}
        return _make(combine(self.terms, q), hints)

    def __add__(self, other):
        return self._binary(other, _add)

    __radd__ = __add__

    def __sub__(self, other):
        return self._binary(other, lambda p, q: _add(p, q, -1))

    def __rsub__(self, other):
        return self._binary(other, lambda p, q: _add(q, p, -1))

    def __mul__(self, other):
        return self._binary(other, _mul)

    __rmul__ = __mul__

    def __neg__(self):
        return _make({m: -c for m, c in self.terms}, self.hints)

    def __pos__(self):
        return self

    def __abs__(self):
        if _sign(self.terms) >= 0:
            return self
        raise NotGeneric(f"abs({self}) depends on the size")

    def __pow__(self, k, mod=None):
        if mod is None and type(k) is int and k >= 0:
            out = 1
            for _ in range(k):
                out = out * self
            return out
        raise NotGeneric(f"{self} ** {k} is not a size")

    def __floordiv__(self, other):
        out = _divide(self.terms, _poly(other))
        if out is None:
            raise NotGeneric(f"{self} // {other} is not exact for every size")
        return _make(out, self.hints)

    def __rfloordiv__(self, other):
        out = _divide(_poly(other), self.terms)
        if out is None:
            raise NotGeneric(f"{other} // {self} is not exact for every size")
        return _make(out, self.hints)

    def __mod__(self, other):
        q = _poly(other)
        if q is not None and _divide(self.terms, q) is not None:
            return 0
        raise NotGeneric(f"{self} % {other} depends on the size")

    def __rmod__(self, other):
        raise NotGeneric(f"{other} % {self} depends on the size")

    def __divmod__(self, other):
        return self // other, self % other

    def _concrete(self, *_args, **_kw):
        raise NotGeneric(f"size {self} used as a concrete number")

    # (``__index__``: only explicit calls reach it; CPython copies an int subclass's value)
    (__truediv__, __rtruediv__, __float__, __int__, __index__, __round__, __trunc__,
     __floor__, __ceil__, __lshift__, __rshift__, __and__, __or__, __xor__, __rlshift__,
     __rrshift__, __rand__, __ror__, __rxor__, __invert__, __rpow__, __rdivmod__, bit_length,
     bit_count, to_bytes, as_integer_ratio, __complex__) = (_concrete,) * 27

    # int's own would return the hint
    real = numerator = property(lambda self: self)
    imag = property(lambda self: 0)
    denominator = property(lambda self: 1)

    def conjugate(self):
        return self

    # ------------------------------------------------------------ comparisons
    def _compare(self, other, op: str):
        q = _poly(other)
        if q is None:
            return _other(self, other)
        return decide(_nonzero(_add(self.terms, q, -1)), op,
                      {**self.hints, **getattr(other, "hints", {})})

    __eq__, __ne__, __lt__, __le__, __gt__, __ge__ = (
        (lambda op: lambda self, other: self._compare(other, op))(op)  # noqa: B023 (bound)
        for op in ("==", "!=", "<", "<=", ">", ">="))

    def __bool__(self):
        return self._compare(0, "!=")

    # ------------------------------------------------------------ symgrad's only (see above)
    def __hash__(self):
        return hash(self.terms) if _from_symgrad() else _refuse(self, "hashed (a set, a dict "
                                                                      "key, a cache)")

    def __str__(self) -> str:
        return c_text(self.terms) if _from_symgrad() else _refuse(self, "printed")

    __repr__ = __str__

    def __format__(self, spec: str) -> str:    # (not through str(): that frame is symgrad's)
        return c_text(self.terms) if _from_symgrad() else _refuse(self, "formatted")

    def __reduce__(self):
        return (Dim, (self.terms, self.hints))

    def evaluate(self, values: dict) -> int:
        """The size for symbol values ``values`` (name -> int)."""
        return evaluate(self.terms, values)


# Modules whose code prints a size for its caller: the frame that called them decides.
_FOR_CALLER = frozenset({"symgrad.size"})


def _caller():
    """The frame of the code that called a Dim's method (past ``_FOR_CALLER``'s), or None."""
    try:
        frame = sys._getframe(3)     # (past this one, _from_symgrad's or _refuse's, the method's)
    except ValueError:
        return None
    while frame is not None and frame.f_globals.get("__name__") in _FOR_CALLER:
        frame = frame.f_back
    return frame


def _from_symgrad() -> bool:
    """Whether the code that hashes or prints a Dim is symgrad's."""
    frame = _caller()
    name = (frame.f_globals.get("__name__") or "") if frame is not None else ""
    return name == "symgrad" or name.startswith("symgrad.")


def _refuse(d: Dim, how: str):
    """Raise NotGeneric for a Dim hashed or printed outside symgrad, saying where."""
    frame = _caller()
    where = f" at {frame.f_code.co_filename.rsplit('/', 1)[-1]}:{frame.f_lineno}" \
        if frame is not None else ""
    raise NotGeneric(f"size {c_text(d.terms)} {how}{where}: its value would be the traced one")


def _other(d: Dim, other):
    """A size met something that is not a size: a number would see the hint (``n * 1.5``
    is a float: NotGeneric); anything else (a tensor) answers itself."""
    if isinstance(other, numbers.Number):
        raise NotGeneric(f"size {d} combined with the number {other!r}")
    return NotImplemented


def _divide(p, q):
    """Terms of p / q when q is one term that divides every term of p exactly, else None."""
    if p is None or q is None or len(q) != 1:
        return None
    (mq, cq), out = q[0], {}
    for m, c in p:
        rest = list(m)
        for s in mq:
            if s not in rest:
                return None
            rest.remove(s)
        if c % cq:
            return None
        out[tuple(rest)] = c // cq
    return out


def evaluate(terms, values: dict) -> int:
    total = 0
    for m, c in terms:
        for s in m:
            c *= values[s]
        total += c
    return total


def _shifted(terms) -> dict:
    """The terms of p(1 + m) (every symbol s replaced by 1 + s): with symbols >= 1, p is
    >= 0 for every size when all these coefficients are >= 0."""
    out: dict = {(): 0}
    for m, c in terms:
        part = {(): c}
        for s in m:
            part = _mul(tuple(part.items()), (((), 1), ((s,), 1)))
        out = _add(out, tuple(part.items()))
    return out


def _sign(terms) -> int:
    """1: p > 0 for every size; 0: p >= 0; -1: p < 0; -2: p <= 0; None: it depends."""
    if not terms:
        return 0
    shifted = _shifted(terms)
    coeffs, const = list(shifted.values()), shifted.get((), 0)
    if all(c >= 0 for c in coeffs):
        return 1 if const > 0 else 0
    if all(c <= 0 for c in coeffs):
        return -1 if const < 0 else -2
    return None


_OPS = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
        ">": operator.gt, ">=": operator.ge}


def _always(sign, op: str):
    """The value of ``p op 0`` for every size given p's sign class, or None."""
    if sign is None:
        return None
    positive, negative = sign == 1, sign == -1
    nonneg, nonpos = sign in (0, 1), sign in (-1, -2)
    table = {"==": False if positive or negative else None,
             "!=": True if positive or negative else None,
             "<": True if negative else False if nonneg else None,
             ">=": False if negative else True if nonneg else None,
             ">": True if positive else False if nonpos else None,
             "<=": False if positive else True if nonpos else None}
    return table[op]


@dataclass(frozen=True)
class Guard:
    """``terms op 0`` was answered ``outcome`` on the hints: a compiled function is valid for
    sizes where it still is."""

    terms: tuple
    op: str
    outcome: bool

    def holds(self, values: dict) -> bool:
        return _OPS[self.op](evaluate(self.terms, values), 0) == self.outcome

    def __str__(self) -> str:
        return f"{c_text(self.terms)} {self.op} 0 is {self.outcome}"


class _Local(threading.local):
    guards = None   # a default: getattr(local, name, None) raised inside (~4% of a trace)


_local = _Local()


class recording:
    """``with recording() as guards:`` collects the guards comparisons make in this thread."""

    def __enter__(self) -> list:
        self.outer, _local.guards = _local.guards, []
        return _local.guards

    def __exit__(self, *exc) -> None:
        _local.guards = self.outer


def decide(terms: tuple, op: str, hints: dict) -> bool:
    """``p op 0``: for every size if that can be told, else on the hints, recorded as a Guard
    (outside ``recording``, an undecidable comparison raises NotGeneric)."""
    known = _always(_sign(terms), op) if terms else _OPS[op](0, 0)
    if known is not None:
        return known
    guards = getattr(_local, "guards", None)
    if guards is None:
        raise NotGeneric(f"{c_text(terms)} {op} 0 depends on the size")
    outcome = _OPS[op](evaluate(terms, hints), 0)
    guard = Guard(terms, op, outcome)
    if guard not in guards:
        guards.append(guard)
    return outcome


def c_text(terms) -> str:
    """The C of a polynomial: ``x_size0``, ``(784*x_size0 + 1)`` (parenthesized unless it is
    one symbol)."""
    if not terms:
        return "0"
    parts = []
    for m, c in sorted(terms, key=lambda t: (-len(t[0]), t[0])):
        factors = list(m) if abs(c) == 1 and m else [str(abs(c))] + list(m)
        text = "*".join(factors)
        parts.append((" - " if c < 0 else " + ") + text if parts else
                     ("-" if c < 0 else "") + text)
    text = "".join(parts)
    bare = len(terms) == 1 and terms[0][1] == 1 and len(terms[0][0]) == 1
    return text if bare else f"({text})"


def symbols_of(shape) -> set:
    """The size symbols a shape's entries use."""
    return {s for d in shape if isinstance(d, Dim) for s in d.symbols}


def concrete(x, values: dict):
    """``x`` (an int, a Dim, or a tuple of them) at symbol values ``values``."""
    if isinstance(x, tuple):
        return tuple(concrete(d, values) for d in x)
    return x.evaluate(values) if isinstance(x, Dim) else x


def round_up(x, align: int):
    """``x`` rounded up to a multiple of ``align``; a Dim with nonnegative coefficients
    coefficient by coefficient (a multiple of ``align`` for every size, and at least ``x``)."""
    if not isinstance(x, Dim):
        return -(-x // align) * align
    if any(c < 0 for _, c in x.terms):
        raise NotGeneric(f"cannot bound {x} for every size")
    return _make({m: -(-c // align) * align for m, c in x.terms}, x.hints)


def as_count(n):
    """A count to divide by (a mean's): ``float(n)``, or the Dim itself, which becomes a
    call-time value where it meets a tensor."""
    return n if isinstance(n, Dim) else float(n)


def same(a, b) -> bool:
    """Whether ``a`` and ``b`` are equal for every size (no guard: False when it depends)."""
    if not isinstance(a, Dim) and not isinstance(b, Dim):
        return a == b
    pa, pb = _poly(a), _poly(b)
    return pa is not None and pb is not None and not _nonzero(_add(pa, pb, -1))


def is_one(x) -> bool:
    """Whether a size is 1 for every size: a call-time size is not (a size-1 call of code
    made for any size takes the general path, which is right for 1 too)."""
    return not isinstance(x, Dim) and x == 1


def large(x, threshold: int) -> bool:
    """A cost heuristic's ``x >= threshold``: a call-time size is taken as large unless it is
    provably smaller (the code is right either way; only its speed at tiny sizes is at
    stake)."""
    if not isinstance(x, Dim):
        return x >= threshold
    return _sign(_nonzero(_add(x.terms, (((), threshold),), -1))) != -1


def _nonzero(terms: dict) -> tuple:
    """Canonical terms (sorted, no zero coefficient)."""
    return tuple(sorted((m, c) for m, c in terms.items() if c))


def provably(a, op: str, b) -> bool:
    """Whether ``a op b`` holds for every size (no guard: False when it depends)."""
    terms = _nonzero(_add(_poly(a), _poly(b), -1))
    known = _always(_sign(terms), op) if terms else _OPS[op](0, 0)
    return known is True


def same_shape(a: tuple, b: tuple) -> bool:
    """Whether two shapes are equal for every size (a structural test: no guard)."""
    return len(a) == len(b) and (a == b if _local.guards is None else all(map(same, a, b)))


def traced_sizes() -> bool:
    """Whether a shape-generic trace is under way in this thread (else no shape holds a
    Dim, and tuple equality is the answer)."""
    return _local.guards is not None


def as_size(x):
    """A size argument as an int (NumPy ints, 0-d tensors...), a Dim kept as it is."""
    return x if isinstance(x, Dim) else int(x)


def span(start, stop, step: int):
    """``len(range(start, stop, step))``, for call-time sizes too (unit steps)."""
    if not isinstance(start, Dim) and not isinstance(stop, Dim):
        return len(range(start, stop, step))
    if step != 1:
        raise NotGeneric(f"a slice with step {step} of a call-time size")
    return stop - start if stop >= start else 0


def many(x) -> bool:
    """``x > 1``, a call-time size counting as more than one (the general case: code made
    for it is right for a size of 1 too)."""
    return isinstance(x, Dim) or x > 1
