"""torch's refusals by dtype, applied to the public functions: the mechanism over one table.

Layer: front end (functions; the namespaces call ``guard`` once, when they are built). Input: a
namespace (``torch``, ``Tensor``, ``F``, ``special``, ``linalg``) and the rules of
``kernel_dtypes`` for its public names. Output: the namespace's functions, each named by a rule
wrapped so that a call torch refuses for its operands' dtypes raises torch's exception and
message before anything is computed (``"hypot_cpu" not implemented for 'Long'``, ``trunc is not
supported for complex inputs``, ``Found dtype Long but expected Float``...). A name with no rule
is left as it is: it costs nothing; a checked call costs a dict lookup and a dtype test.

The dtype a rule tests is torch's: the first operand's (or the ``dtype=`` a function computes
in), or the common dtype of the leading operands under torch's promotion (a Python number
counts as a wrapped scalar), as the kernel torch dispatches to sees it.
"""

from __future__ import annotations

import functools
import inspect

from ... import dtypes
from ..core import grad_mode
from ..core.tensor import Tensor
from .kernel_dtypes import ROWS

_NUMBERS = (bool, int, float, complex)


def guard(namespace, prefix: str) -> None:
    """Wrap, in ``namespace`` (a module's globals or a dict of methods), every function whose
    public name ``prefix.name`` has rules."""
    for name, fn in list(namespace.items()):
        rules = RULES.get(f"{prefix}.{name}")
        if rules is not None and callable(fn):
            namespace[name] = checked(fn, f"{prefix}.{name}")


def checked(fn, name: str):
    """``fn``, raising torch's error first where one of the rules of public ``name`` refuses
    the call. A keyword ``fn`` does not take is left to ``fn`` to refuse (torch's argument
    parser comes first); a function with torch's keyword spellings
    (``keywords.torch_keywords``) takes them all. (The wrapper holds the name, not the rules:
    what a compiled function's fingerprint walks stays plain data.)"""
    accepted = None if hasattr(fn, "__wrapped__") else _parameters(fn)
    clear = _clear(RULES[name])

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        if kwargs:
            if accepted is not None and not accepted.issuperset(kwargs):
                return fn(*args, **kwargs)
        elif clear:   # (most calls: tensors of one float dtype and Python numbers)
            d = None
            for a in args:
                if isinstance(a, Tensor):
                    if d is None:
                        d = a.dtype
                    elif a.dtype is not d:
                        break
                elif type(a) is not float and type(a) is not int:
                    break
            else:
                if d is not None and d.name in clear:
                    return fn(*args)
        for rule in RULES[name]:
            rule.check(args, kwargs)
        return fn(*args, **kwargs)
    return wrapper


def _clear(rules: tuple) -> frozenset:
    """The names of the float dtypes D (float32, float64) for which ``rules`` all pass a call
    with no keywords whose operands are tensors of dtype D and Python ints and floats: any
    dtype a rule picks is then D (or None), and a rule refuses only if D is one of its own
    (``Kernel``); a ``NoGrad`` rule looks at more than dtypes. ``checked``'s wrapper skips the
    rules for such a call."""
    found = []
    for d in (dtypes.float32, dtypes.float64):
        if all(type(rule) in (Same, Narrowing, Params, Out) or
               type(rule) is Kernel and d not in rule.dtypes for rule in rules):
            found.append(d.name)
    return frozenset(found)


def _parameters(fn) -> frozenset | None:
    """The keyword names ``fn`` takes (None: any, or unknown)."""
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return None
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params):
        return None
    return frozenset(p.name for p in params if p.kind is not inspect.Parameter.POSITIONAL_ONLY)


def _operand(args: tuple, kwargs: dict, i: int):
    if i < len(args):
        return args[i]
    return kwargs.get(("input", "other", "third")[i] if i < 3 else "")


def _dtype_of(value):
    """A tensor's dtype, a dtype argument itself (``dtype=``), else None."""
    if isinstance(value, Tensor):
        return value.dtype
    if isinstance(value, dtypes.DType):
        return value
    return None


def common_dtype(args: tuple, kwargs: dict, n: int):
    """torch's common dtype of the first ``n`` operands (tensors and Python numbers), None if
    there is no tensor among them."""
    if n == 2 and len(args) >= 2:   # the common cases, decided quickly
        a, b = args[0], args[1]
        if isinstance(a, Tensor):
            if isinstance(b, Tensor) and a.dtype is b.dtype:
                return a.dtype
            if type(b) in (int, float) and a.dtype.is_floating:
                return a.dtype
    found = []
    for i in range(n):
        a = _operand(args, kwargs, i)
        if isinstance(a, Tensor):
            found.append((a.dtype, dtypes.RANK_TENSOR if a.ndim else dtypes.RANK_ZERO_DIM))
        elif isinstance(a, _NUMBERS):
            found.append((dtypes.scalar_dtype(a), dtypes.RANK_SCALAR))
    if not any(rank != dtypes.RANK_SCALAR for _, rank in found):
        return None
    if len(found) == 1:
        return found[0][0]
    return dtypes.promote(found)


def _first(args: tuple, kwargs: dict):
    a = args[0] if args else kwargs.get("input")
    return a.dtype if isinstance(a, Tensor) else None


def _first_or_dtype(args: tuple, kwargs: dict):
    requested = kwargs.get("dtype") if kwargs else None
    return _first(args, kwargs) if requested is None else dtypes.as_dtype(requested)


def _two_tensors(args: tuple, kwargs: dict):
    """The common dtype of two tensor operands (a Python number operand takes another
    kernel: None)."""
    if not (isinstance(_operand(args, kwargs, 0), Tensor)
            and isinstance(_operand(args, kwargs, 1), Tensor)):
        return None
    return common_dtype(args, kwargs, 2)


def picker(operands):
    """How a rule finds the dtype torch's kernel runs in: the common dtype of the first
    ``operands`` operands (1: the first's; -1: ``dtype=`` if given, else the first's; 0: of
    two operands if both are tensors, else None); a place (a keyword, or (position,
    keyword)): that argument's."""
    if operands == 1:
        return _first
    if operands == -1:
        return _first_or_dtype
    if operands == 0:
        return _two_tensors
    if isinstance(operands, int):
        return lambda args, kwargs: common_dtype(args, kwargs, operands)
    return lambda args, kwargs: _dtype_of(_place(args, kwargs, operands))


def fill(message: str, **names) -> str:
    """``message`` with its ``{T}``-style fields filled from dtypes: ``{T}`` torch's
    ScalarType name (Long), ``{cT}`` the C++ name (long int), ``{nT}`` torch's short name
    (float, double)."""
    values = {}
    for key, d in names.items():
        values[key] = d.scalar_type
        values[f"c{key}"] = d.cpp_name
        values[f"n{key}"] = "long" if d.name == "int64" else d.name.replace("float32", "float") \
            .replace("float64", "double")
    return message.format(**values)


class Kernel:
    """torch has no kernel instance (or refuses) for the tested dtype."""

    __slots__ = ("dtypes", "error", "message", "pick", "when")

    def __init__(self, names, error, message: str, operands=1, when=None):
        self.dtypes = frozenset(d for d in dtypes.ALL + dtypes.UNSUPPORTED if d.name in names)
        self.error, self.message = error, message
        self.pick, self.when = picker(operands), when

    def check(self, args: tuple, kwargs: dict) -> None:
        d = self.pick(args, kwargs)
        if d in self.dtypes and (self.when is None or self.when(args, kwargs)):
            raise self.error(fill(self.message, T=d))


def _place(args: tuple, kwargs: dict, place):
    """The argument at ``place``: a position, a keyword, or (position, keyword)."""
    if isinstance(place, tuple):
        i, name = place
        return args[i] if i < len(args) else kwargs.get(name)
    if isinstance(place, int):
        return args[place] if place < len(args) else None
    return kwargs.get(place)


class Same:
    """Tensors at ``places`` (``out`` included if named) must share a dtype."""

    __slots__ = ("places", "error", "message")

    def __init__(self, places: tuple, error, message: str):
        self.places, self.error, self.message = places, error, message

    def check(self, args: tuple, kwargs: dict) -> None:
        found = [_dtype_of(_place(args, kwargs, p)) for p in self.places]
        present = [d for d in found if d is not None]
        if len(present) > 1 and any(d is not present[0] for d in present):
            names = {f"T{i}": d for i, d in enumerate(found) if d is not None}
            raise self.error(fill(self.message, **names))


class Narrowing:
    """``dtype=`` must hold the input's values: torch's ``promote_types(input, dtype) ==
    dtype`` (norms)."""

    __slots__ = ("message",)

    def __init__(self, message: str):
        self.message = message

    def check(self, args: tuple, kwargs: dict) -> None:
        x, requested = _dtype_of(_operand(args, kwargs, 0)), kwargs.get("dtype")
        if x is None or requested is None:
            return
        d = dtypes.as_dtype(requested)
        if x.is_complex == d.is_complex and dtypes.promote_types(x, d) is not d:
            raise RuntimeError(fill(self.message, T0=x, T1=d))


class Params:
    """A normalization's parameters (running stats, weight, bias) in the input's dtype, or
    float32 ones with a float16/bfloat16 input: torch's "mixed dtype" rule on the CPU."""

    __slots__ = ("places",)

    def __init__(self, places: tuple):
        self.places = places

    def check(self, args: tuple, kwargs: dict) -> None:
        x = _dtype_of(_place(args, kwargs, self.places[0]))
        params = [d for d in (_dtype_of(_place(args, kwargs, p)) for p in self.places[1:])
                  if d is not None]
        if x is None or all(d is x for d in params):
            return
        if x.name in ("float16", "bfloat16") and all(d is dtypes.float32 for d in params):
            return
        if x is dtypes.float32:
            raise RuntimeError("mixed dtype (CPU): expect parameter to have scalar type of Float")
        raise RuntimeError("mixed dtype (CPU): all inputs must share same datatype.")


class Out:
    """``out=`` must have one dtype: the input's (``"input"``), a fixed one, the complex
    dtype of the input's (``"complex"``), or float_power's (``"double"``: complex128 if an
    operand is complex, else float64)."""

    __slots__ = ("expected", "error", "message")

    def __init__(self, expected: str, error, message: str):
        self.expected, self.error, self.message = expected, error, message

    def check(self, args: tuple, kwargs: dict) -> None:
        out = kwargs.get("out")
        if not isinstance(out, Tensor):
            return
        if self.expected == "double":
            want = _double(args, kwargs)
            if out.dtype is not want:
                raise self.error(fill(self.message, O=out.dtype, T=want))
            return
        d = _dtype_of(_operand(args, kwargs, 0))
        if d is None:
            return
        if self.expected == "input":
            want = d
        elif self.expected == "result":
            want = common_dtype(args, kwargs, len(args))
        elif self.expected == "complex":
            want = dtypes.complex128 if d is dtypes.float64 else dtypes.complex64
        else:
            want = dtypes.as_dtype(self.expected)
        if want is not None and out.dtype is not want:
            raise self.error(fill(self.message, O=out.dtype, T=want, I=d))


def _double(args: tuple, kwargs: dict):
    """float_power's result dtype: complex128 if either operand is complex, else float64."""
    for i in range(2):
        a = args[i] if i < len(args) else kwargs.get(("input", "exponent")[i])
        if isinstance(a, complex) or isinstance(a, Tensor) and a.dtype.is_complex:
            return dtypes.complex128
    return dtypes.float64


class NoGrad:
    """With grad mode on, an operand that requires grad (position or keyword) refuses: in
    the dtypes named (the operand's, or ``dtype=``'s if given), or always (``dtypes`` None)."""

    __slots__ = ("place", "dtypes", "error", "message")

    def __init__(self, place, names, error, message: str):
        self.place, self.dtypes, self.error, self.message = place, names, error, message

    def check(self, args: tuple, kwargs: dict) -> None:
        value = _place(args, kwargs, self.place)
        if value is None and self.place == 0:
            value = kwargs.get("input")
        if not isinstance(value, Tensor) or not value._requires_grad:   # (most calls)
            return
        if self.dtypes is not None:
            requested = kwargs.get("dtype")
            d = dtypes.as_dtype(requested) if requested is not None else value.dtype
            if d.name not in self.dtypes:
                return
        if not (value.requires_grad and grad_mode.is_grad_enabled()):
            return
        raise self.error(self.message if self.dtypes is None else fill(self.message, T=d))


def _dim(args: tuple, kwargs: dict):
    return args[1] if len(args) > 1 else kwargs.get("dim")


def _last_dim(args: tuple, kwargs: dict) -> bool:
    x, dim = _operand(args, kwargs, 0), _dim(args, kwargs)
    return not isinstance(x, Tensor) or dim is None or x.ndim <= 1 or dim in (-1, x.ndim - 1)


# The conditions a rule may hold under (torch picks another kernel, with another name).
WHEN = {
    "last_dim": _last_dim,
    "other_dim": lambda args, kwargs: not _last_dim(args, kwargs),
    "dim": lambda args, kwargs: isinstance(_dim(args, kwargs), int),
    "no_dim": lambda args, kwargs: _dim(args, kwargs) is None,
    "decimals": lambda args, kwargs: bool(kwargs.get("decimals")),
    "decimals_zero": lambda args, kwargs: "decimals" in kwargs and kwargs["decimals"] == 0,
    "no_decimals": lambda args, kwargs: not kwargs.get("decimals"),
    "tensor_weight": lambda args, kwargs: isinstance(
        args[2] if len(args) > 2 else kwargs.get("weight"), Tensor),
    "number_weight": lambda args, kwargs: not isinstance(
        args[2] if len(args) > 2 else kwargs.get("weight"), Tensor),
    "classes": lambda args, kwargs: getattr(_operand(args, kwargs, 0), "ndim", 0) <= 2,
    "square": lambda args, kwargs: (args[1] if len(args) > 1 else kwargs.get("n", 0)) >= 2,
    "where": lambda args, kwargs: len(args) + len(kwargs) >= 3,
    "floor": lambda args, kwargs: kwargs.get("rounding_mode") == "floor",
    "trunc": lambda args, kwargs: kwargs.get("rounding_mode") == "trunc",
    # max_pool1d(input, kernel_size, stride, padding, dilation, ceil_mode, return_indices)
    # without indices (torch's path with indices is the 2-d kernel's, which takes integers)
    "no_indices": lambda args, kwargs: not kwargs.get(
        "return_indices", args[6] if len(args) > 6 else False),
    # a loss (input, target, margin, size_average, reduce, reduction) reduced by its mean
    "loss_mean": lambda args, kwargs: kwargs.get(
        "reduction", args[5] if len(args) > 5 else "mean") == "mean",
}
_KINDS = {"kernel": Kernel, "same": Same, "out": Out, "nograd": NoGrad, "params": Params,
          "narrowing": Narrowing}


def _rule(kind: str, fields: tuple):
    if kind == "kernel":
        names, error, message, operands, when = fields
        return Kernel(names, error, message, operands, when and WHEN[when])
    if kind == "nograd":
        place, names, error, message = fields
        return NoGrad(place, names and frozenset(names), error, message)
    return _KINDS[kind](*fields)


def _rules() -> dict:
    """public name -> its rules, in the table's order."""
    out: dict = {}
    for kind, names, *fields in ROWS:
        rule = _rule(kind, tuple(fields))
        for name in names:
            out.setdefault(name, []).append(rule)
    return {name: tuple(rules) for name, rules in out.items()}


RULES = _rules()
