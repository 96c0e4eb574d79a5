"""torch's other spellings of ops symgrad already has, and its small tensor predicates:
``x.where(cond, y)``, ``x.logical_and(y)``, ``x.ger(y)``, ``x.hardshrink()``, ``x.prelu(w)``,
``torch.rsub``, ``torch.detach``, ``torch.fill``, ``torch.scalar_tensor``, ``torch.chain_matmul``,
``is_signed is_same_size is_neg resolve_neg is_inference``.

Layer: front end (functions). Input: tensors and torch's arguments. Output: what the op they
spell gives, with torch's grad_fn where torch shows its own (``RsubBackward0/1``,
``FillBackward0/1``) and torch's errors for a non-tensor input. symgrad has no negative bit
and no inference tensors: ``is_neg``/``is_inference`` are False, ``resolve_neg`` its input.
"""

from __future__ import annotations

import warnings

import numpy as np

from ... import dtypes
from ..core import grad_mode
from ..core.apply import apply, attach_function, full
from ..core.tensor import Tensor
from . import basic as F
from .creation import tensor as _tensor
from .linalg_products import multi_dot
from .manipulation import outer
from .searching import where as _where


def _tensor_only(name: str, value, position: int = 1, what: str = "input") -> Tensor:
    if not isinstance(value, Tensor):
        raise TypeError(f"{name}(): argument '{what}' (position {position}) must be Tensor, "
                        f"not {type(value).__name__}")
    return value


def where(input, condition, other) -> Tensor:  # noqa: A002
    """``x.where(condition, y)``: ``torch.where(condition, x, y)`` (a condition of bool or,
    deprecated, uint8)."""
    if isinstance(condition, Tensor) and not (condition.dtype.is_bool
                                              or condition.dtype is dtypes.uint8):
        raise RuntimeError(f"where expected condition to be a boolean tensor, but got a "
                           f"tensor with dtype {condition.dtype.scalar_type}")
    return _where(condition, input, other)


def is_signed(input) -> bool:  # noqa: A002
    """Whether the dtype holds negative numbers (floating and complex ones do)."""
    dt = _tensor_only("is_signed", input).dtype
    return not (dt.is_bool or dt is dtypes.uint8)


def is_same_size(input, other) -> bool:  # noqa: A002
    _tensor_only("is_same_size", other, 2, "other")
    return tuple(_tensor_only("is_same_size", input).shape) == tuple(other.shape)


def is_neg(input) -> bool:  # noqa: A002
    _tensor_only("is_neg", input)
    return False


def resolve_neg(input) -> Tensor:  # noqa: A002
    return _tensor_only("resolve_neg", input)


def is_inference(input) -> bool:  # noqa: A002
    _tensor_only("is_inference", input)
    return False


def rsub(input, other, *, alpha=1) -> Tensor:  # noqa: A002
    """``other - alpha * input`` (``RsubBackward0``; a number ``other``: ``RsubBackward1``)."""
    x = _tensor_only("rsub", input)
    F.sub_check(other, x)
    if alpha == 1:
        if isinstance(other, Tensor):
            return apply("sub", other, x, _torch_name="RsubBackward0", _shown=(1, 0))
        return apply("sub", other, x, _torch_name="RsubBackward1", _shown=(1,))
    F.alpha_check(other, x, alpha)
    if isinstance(other, Tensor):
        return F.composite("RsubBackward0", lambda a, b: apply("sub", b, F.mul(a, alpha)),
                           [x, other], lambda g, out, ins: (F.mul(g, -alpha), g), saves=False,
                           uses_out=False)
    return F.composite("RsubBackward1", lambda a: apply("sub", other, F.mul(a, alpha)), [x],
                       lambda g, out, ins: (F.mul(g, -alpha),), saves=False, uses_out=False)


def detach(input) -> Tensor:  # noqa: A002
    return _tensor_only("detach", input).detach()


def fill(input, value) -> Tensor:  # noqa: A002
    """A new tensor like ``input`` holding ``value`` (``fill_``'s checks): ``FillBackward0``,
    or ``FillBackward1`` of a 0-d tensor ``value`` (its gradient is the sum)."""
    x = _tensor_only("fill", input)
    if (isinstance(value, Tensor) and value.requires_grad and grad_mode.is_grad_enabled()
            and not x.dtype.is_differentiable):
        raise RuntimeError(f"Autograd not support dtype: {x.dtype.scalar_type}")
    with grad_mode.no_grad():
        out = x.clone().fill_(value)
    if isinstance(value, Tensor):
        return attach_function(out, "FillBackward1", lambda g, o, ins: (
            full(ins[0], 0.0), F.sum(g).to(ins[1].dtype)), [x, value], saves=False,
            uses_out=False)
    return attach_function(out, "FillBackward0", lambda g, o, ins: (full(ins[0], 0.0),), [x],
                           saves=False, uses_out=False)


def scalar_tensor(s, *, dtype=None, layout=None, device=None, requires_grad: bool = False,
                  pin_memory: bool = False) -> Tensor:
    """A 0-d tensor of the number ``s``, of the default dtype unless ``dtype`` says."""
    if isinstance(s, Tensor):
        s = s.item()
    if isinstance(s, complex) and (dtype is None or not dtypes.as_dtype(dtype).is_complex):
        raise RuntimeError("value cannot be converted to type float without overflow")
    dt = dtypes.get_default_dtype() if dtype is None else dtypes.as_dtype(dtype)
    with np.errstate(over="ignore", invalid="ignore"):   # (a cast: 1e40 in float16 is inf)
        value = np.asarray(s).astype(dt.np)
    return _tensor(value, dtype=dt, device=device, requires_grad=requires_grad)


def chain_matmul(*matrices, out=None) -> Tensor:
    """Deprecated ``torch.chain_matmul``: ``linalg.multi_dot`` of 2-d matrices."""
    warnings.warn("torch.chain_matmul is deprecated and will be removed in a future PyTorch "
                  "release. Use torch.linalg.multi_dot instead, which accepts a list of two or "
                  "more tensors rather than multiple parameters.", UserWarning, stacklevel=2)
    if not matrices:
        raise RuntimeError("chain_matmul(): Expected one or more matrices")
    for m in matrices:
        if m.ndim != 2:
            raise RuntimeError(f"Tensor dimension is {m.ndim}, expected 2 instead.")
    if len(matrices) == 1:
        return matrices[0].clone()
    return multi_dot(list(matrices))


def _hardshrink(self: Tensor, lambd: float = 0.5) -> Tensor:
    from ...nn.functional.activation_more import hardshrink   # (the nn mirror is above)
    return hardshrink(self, lambd)


def _prelu(self: Tensor, weight) -> Tensor:
    from ...nn.functional.activation_param import prelu
    return prelu(self, weight)


__all__ = ["is_signed", "is_same_size", "is_neg", "resolve_neg", "is_inference", "rsub",
           "detach", "fill", "scalar_tensor", "chain_matmul"]
METHODS = {"where": where, "ger": outer, "logical_and": F.logical_and, "logical_or": F.logical_or,
           "hardshrink": _hardshrink, "prelu": _prelu,
           **{name: globals()[name] for name in ("is_signed", "is_same_size", "is_neg",
                                                 "resolve_neg", "is_inference")}}
