"""The arithmetic operators of plain eager tensors that record nothing, straight to NumPy.

Layer: front end, above ``apply`` (its hooks) and ``fast_eager`` (its kernel call) and the
capture's state; ``functions.methods`` puts ``operator`` over Tensor's ``+ - * / **`` and
unary ``-``. Input: an operator's operands. Output: the tensor ``apply`` would make, where
nothing can tell the difference; else what the operator's function gives.

Why: in a NumPy-style loop (a backward written by hand, an optimizer's update written out,
data preparation) every operator went through its function's dtype checks, ``apply``'s
capture hook and its fast path: ~3 us for an op NumPy computes in ~1 on small tensors.

When: both operands are plain eager tensors of one dtype, float32 or float64 (a bool mask is
the function's: ``x - mask`` is torch's error, ``sub_check``), laid out
row-major and not views (or the other operand is a Python int or float), and no node is
recorded anywhere: no operand requires grad in grad mode, no compile trace runs, no captured
step is open. Then ``apply`` would compute ``fast_eager.fast_elementwise`` of the operands
and wrap it, which is what this does (its kernel call for one float dtype, ``_computed``:
the operands' checks are made already); the dtype rules pass such calls
(``dtype_checks._clear``). ``**`` takes a number exponent only: a tensor exponent, even 0-d,
is pow's, never sqrt (``functions.basic.pow`` expands it).
"""

from __future__ import annotations

from ... import dtypes
from ...ops import OPS
from . import grad_mode, sources
from .apply import CAPTURING, WATCH
from .fast_eager import kernel_value
from .lazy_state import STATE
from .shown import total
from .tensor import Tensor

_GRAD = grad_mode._local
_RECORDING = sources._local
_FLOATS = (dtypes.float32, dtypes.float64)


def operator(name: str, general, swapped: bool = False, numbers_only: bool = False,
             unary: bool = False):
    """Tensor's operator for op ``name`` (``swapped``: the reflected one, the other operand
    first; ``unary``: no other operand), falling back to ``general(self, ...)``."""
    kernel = OPS[name].numpy_fast
    arity = 0 if unary else 1

    def method(self, *args, **kwargs):   # (``x.__add__(y, alpha=2)``, ``x.pow(exponent=2)``)
        # why not split: every operator of an eager tensor runs this (a call is its saving)
        # (the class first: a captured step's pending result computes when its value is read)
        if self.__class__ is Tensor and len(args) == arity and not kwargs and \
                self._strides is None and self._view is None and \
                self.dtype in _FLOATS and not CAPTURING[0] and \
                _RECORDING.recording is None and (not WATCH[0] or STATE.region is None) and \
                (not self._requires_grad or not _GRAD.enabled) and self._value is not None:
            a = self._value
            operands = None
            if unary:
                operands = (a,)
            else:
                other = args[0]
                kind = other.__class__
                if kind is float or kind is int:
                    b = a.dtype.type(other)   # (a scalar of the tensor's dtype: NumPy keeps it)
                    operands = (b, a) if swapped else (a, b)
                elif not numbers_only and kind is Tensor and other.dtype is self.dtype and \
                        other._strides is None and other._view is None and \
                        (not other._requires_grad or not _GRAD.enabled):
                    b = other._value
                    if b is not None:
                        operands = (b, a) if swapped else (a, b)
            if operands is not None:
                value = _computed(kernel, operands)
                if value is not None:
                    return Tensor(value, None)
        return general(self, *args, **kwargs)
    method.__name__ = method.__qualname__ = getattr(general, "__name__", name)
    method.__doc__ = getattr(general, "__doc__", None)
    return method


def _computed(kernel, operands: tuple):
    """``kernel(*operands)`` as ``fast_eager.fast_elementwise`` computes it for operands of one
    float dtype (``fast_eager.kernel_value``), a result of another dtype refused; None: the
    function's path."""
    value = kernel_value(kernel, operands)
    return value if value is not None and value.dtype == operands[0].dtype else None


def named(name: str, general, numbers_only: bool = False):
    """Tensor's method ``name`` (``x.mul(y)``), as ``operator``: one operand and no keyword
    (``alpha=``, ``out=``: its function's)."""
    method = operator(name, general, False, numbers_only)
    method.__name__ = method.__qualname__ = name
    return method


# Tensor's operators this module takes: name -> (op, reflected, numbers only).
OPERATORS = {"__add__": ("add", False, False), "__radd__": ("add", False, False),
             "__sub__": ("sub", False, False), "__rsub__": ("sub", True, False),
             "__mul__": ("mul", False, False), "__rmul__": ("mul", False, False),
             "__truediv__": ("div", False, False), "__pow__": ("pow", False, True)}


def summed(general):
    """Tensor's ``sum`` method: ``x.sum()`` of no argument by ``shown.total`` (a reduction
    of every element, as the function's own first step), before the keyword mapping and the
    dtype checks (none of which applies to such a call); else ``general``."""
    def sum(self, *args, **kwargs):   # noqa: A001  (torch's name)
        if not args and not kwargs:
            out = total("sum", self)
            if out is not None:
                return out
        return general(self, *args, **kwargs)
    sum.__doc__ = getattr(general, "__doc__", None)
    return sum


def install(methods: dict) -> None:
    """Put the operators over the functions ``methods`` (Tensor's bound methods) has."""
    for name, (op, swapped, numbers_only) in OPERATORS.items():
        methods[name] = operator(op, methods[name], swapped, numbers_only)
    for name in METHODS:
        methods[name] = named(name, methods[name], name == "pow")
    methods["__neg__"] = operator("neg", methods["__neg__"], unary=True)
    methods["sum"] = summed(methods["sum"])


# Tensor's methods of the same ops (``x.pow(2)``, ``g.mul(lr)``).
METHODS = ("add", "sub", "mul", "div", "pow")
