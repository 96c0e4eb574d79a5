"""Tensor methods of the elementwise math: the in-place form of every elementwise method
(``exp_``, ``floor_``, ``ldexp_``...), the in-place comparisons (``ge_``: torch's
GeBackward0/1 with zero gradients), ``%``, ``//`` and their reflections (``^`` is bitwise.py's).

Layer: front end. Input: the torch-named functions of ``pointwise.py`` and ``basic.py``.
Output: ``METHODS`` (method name -> function), installed on ``Tensor`` by ``methods.py``.
"""

from __future__ import annotations

from . import basic as F, eager_writes
from ..core.apply import attach_function, full
from ..core.grad_mode import no_grad
from ..core.arguments import tensor_arg
from ..core.tensor import Tensor
from .inplace import update
from .pointwise import (FUNCTIONS, float_power, float_power_dtype, floor_divide, nan_to_num,
                        polygamma, remainder)


def float_power_inplace(self: Tensor, exponent) -> Tensor:
    """In place: only into a tensor of the result's dtype (torch's error otherwise)."""
    wide = float_power_dtype(self, exponent)
    if self.dtype is not wide:
        raise RuntimeError(f"the base given to float_power_ has dtype {self.dtype.scalar_type} "
                           f"but the operation's result requires dtype {wide.scalar_type}")
    return update(self, lambda s: float_power(s, exponent), "float_power_")


def _underivable_inplace(name: str):
    """``name``'s in-place form as torch has it where it has no derivative for it (acosh_,
    asinh_, atanh_): the value, and torch's node (``AcoshBackward1``...) whose backward
    raises."""
    fn, base = FUNCTIONS[name], name.replace("arc", "a")

    def rule(g, out, ins):
        raise NotImplementedError(f"the derivative for 'inplace version of {base}' is not "
                                  f"implemented.")

    def value(input) -> Tensor:  # noqa: A002
        return F.composite(f"{base.capitalize()}Backward1", fn, [tensor_arg(input)], rule)
    return value


def _swap(fn):
    def method(self, other):
        return fn(other, self)
    return method


def _inplace(fn, name: str):
    def method(self, *args, **kwargs):
        # (no gradient, one buffer for the tensor and its views: ``eager_writes``)
        if eager_writes.plain(self, *args, *kwargs.values()) and \
                eager_writes.update(self, fn(self, *args, **kwargs)):
            return self
        return update(self, lambda s: fn(s, *args, **kwargs), name)
    method.__name__ = name
    return method


def _nan_to_num_inplace(self, nan: float = 0.0, posinf=None, neginf=None) -> Tensor:
    return update(self, lambda s: nan_to_num(s, nan, posinf, neginf, _inplace=True),
                  "nan_to_num_")


def _polygamma_method(self, n: int) -> Tensor:
    return polygamma(n, self)


def _polygamma_inplace(self, n: int) -> Tensor:
    """``x.polygamma_(n)``: torch's node for it is PolygammaBackward1 (its own signature)."""
    return update(self, lambda s: polygamma(n, s, _torch_name="PolygammaBackward1"),
                  "polygamma_")


# The in-place comparisons: torch's node for them is <Kind>Backward0 (a number operand: an
# edge for self) or <Kind>Backward1 (a tensor: self and other), zero gradients.
_COMPARISONS = {"eq": "Eq", "ne": "Ne", "lt": "Lt", "le": "Le", "gt": "Gt", "ge": "Ge",
                "greater": "Gt", "greater_equal": "Ge", "less": "Lt", "less_equal": "Le",
                "not_equal": "Ne"}


def _compare_inplace(name: str):
    compare = FUNCTIONS.get(name) or getattr(F, name)
    kind = _COMPARISONS[name]

    def method(self, other):
        def compute(s):
            with no_grad():
                out = compare(s, other).to(s.dtype)
            ins = [s, other] if isinstance(other, Tensor) else [s]
            return attach_function(out, f"{kind}Backward{len(ins) - 1}", _zero_gradients, ins,
                                   saves=False, uses_out=False)
        return update(self, compute, f"{name}_")
    method.__name__ = f"{name}_"
    return method


def _untracked(name: str):
    """``logical_and_`` & co.: torch writes the values and leaves the tensor's grad_fn as it
    was (its gradient flows through the old node)."""
    logical = FUNCTIONS.get(name) or getattr(F, name)

    def method(self, *args):
        def compute(s):
            with no_grad():
                out = logical(s, *args).to(s.dtype)
            if s.grad_fn is not None and s.grad_fn._n_outputs == 1:
                out._requires_grad, out.grad_fn = True, s.grad_fn
            return out
        return update(self, compute, f"{name}_")
    method.__name__ = f"{name}_"
    return method


def _zero_gradients(g, out, ins):
    return tuple(full(t, 0.0) if t.dtype.is_differentiable else None for t in ins)


# Every elementwise method that keeps its input's shape has an in-place form (torch's list).
_UPDATES = {
    **{n: FUNCTIONS[n] for n in (
        "tan", "asin", "acos", "atan", "sinh", "cosh", "asinh", "acosh", "atanh", "exp2",
        "log2", "log10", "erf", "erfc", "erfinv", "lgamma", "digamma", "mvlgamma", "sinc",
        "atan2", "hypot", "xlogy", "logaddexp", "nextafter", "fmax", "fmin", "copysign",
        "floor", "ceil", "trunc", "round", "frac", "floor_divide", "div", "fmod", "remainder",
        "heaviside", "reciprocal", "deg2rad", "rad2deg", "float_power", "ldexp", "lerp",
        "addcmul", "addcdiv", "nan_to_num", "logit", "sgn", "logical_xor", "arcsin",
        "arccos", "arctan", "arcsinh", "arccosh", "arctanh", "arctan2", "fix", "absolute",
        "negative", "multiply", "subtract", "divide", "true_divide", "greater",
        "greater_equal", "less", "less_equal", "not_equal", "clip")},
    **{n: getattr(F, n) for n in (
        "exp", "log", "log1p", "expm1", "sqrt", "rsqrt", "sin", "cos", "tanh", "sigmoid",
        "relu", "abs", "neg", "sign", "square", "eq", "ne", "lt", "le", "gt", "ge",
        "logical_and", "logical_or", "logical_not")},
    "polygamma": _polygamma_method,
    **{n: _underivable_inplace(n) for n in ("asinh", "acosh", "atanh", "arcsinh", "arccosh",
                                           "arctanh")},
}
_LOGICAL = ("logical_and", "logical_or", "logical_not", "logical_xor")
for _name in (*_COMPARISONS, *_LOGICAL):
    del _UPDATES[_name]

METHODS = {
    **FUNCTIONS, "polygamma": _polygamma_method,
    **{f"{name}_": _inplace(fn, f"{name}_") for name, fn in _UPDATES.items()},
    **{f"{name}_": _compare_inplace(name) for name in _COMPARISONS},
    **{f"{name}_": _untracked(name) for name in _LOGICAL},
    "polygamma_": _polygamma_inplace, "nan_to_num_": _nan_to_num_inplace,
    "float_power_": float_power_inplace,
    "__mod__": remainder, "__rmod__": _swap(remainder),
    "__floordiv__": floor_divide, "__rfloordiv__": _swap(floor_divide),
    "__imod__": _inplace(remainder, "remainder_"),
    "__ifloordiv__": _inplace(floor_divide, "floor_divide_"),
}
