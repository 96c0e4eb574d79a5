"""What the distributions share: parameters broadcast together, probabilities and logits
converted into each other, a property computed once, standard normal noise, sums over the
rightmost dimensions (``torch.distributions.utils``).

Layer: front end (the ``symgrad/distributions`` mirror of torch.distributions). Input:
tensors or Python numbers. Output: tensors, built from the front end's functions (so they are
differentiable, eagerly and inside ``@symgrad.compile``), and the ``lazy_property``
descriptor.
"""

from __future__ import annotations

from functools import update_wrapper

from .. import dtypes
from ..frontend.core.grad_mode import enable_grad
from ..frontend.core.tensor import Tensor
from ..frontend.functions.assorted import broadcast_tensors
from ..frontend.functions.creation import empty, tensor
from ..frontend.functions.basic import log, log1p, sigmoid, softmax

__all__ = ["broadcast_all", "clamp_probs", "euler_constant", "formatted", "lazy_property",
           "logits_to_probs", "probs_to_logits", "standard_normal", "sum_rightmost"]

euler_constant = 0.57721566490153286060   # the Euler-Mascheroni constant
NUMBER = (bool, int, float)               # what torch counts as a number parameter


def broadcast_all(*values) -> tuple:
    """The values broadcast to one shape: tensors as they are, numbers made tensors of the
    first tensor's dtype (the default dtype when every value is a number)."""
    if not all(isinstance(v, (Tensor,) + NUMBER) for v in values):
        raise ValueError("Input arguments must all be instances of Number, torch.Tensor or "
                         "objects implementing __torch_function__.")
    first = next((v for v in values if isinstance(v, Tensor)), None)
    dtype = dtypes.get_default_dtype() if first is None else first.dtype
    return broadcast_tensors(*(v if isinstance(v, Tensor) else tensor(v, dtype=dtype)
                               for v in values))


def standard_normal(shape, dtype, device=None) -> Tensor:
    """Standard normal noise of ``shape``: ``empty(shape).normal_()``, torch's draws."""
    return empty(shape, dtype=dtype, device=device).normal_()


def sum_rightmost(value, dim: int):
    """``value`` summed over its ``dim`` rightmost dimensions (itself when ``dim`` is 0)."""
    if dim == 0:
        return value
    return value.reshape(tuple(value.shape[:-dim]) + (-1,)).sum(-1)


def logits_to_probs(logits: Tensor, is_binary: bool = False) -> Tensor:
    """Probabilities from log-odds (``is_binary``: a sigmoid) or from unnormalized log
    probabilities along the last dimension (a softmax)."""
    return sigmoid(logits) if is_binary else softmax(logits, dim=-1)


def clamp_probs(probs: Tensor) -> Tensor:
    """``probs`` clamped into [eps, 1 - eps], eps the machine epsilon of its dtype."""
    eps = dtypes.finfo(probs.dtype).eps
    return probs.clamp(min=eps, max=1 - eps)


def probs_to_logits(probs: Tensor, is_binary: bool = False) -> Tensor:
    """Log-odds (``is_binary``) or log probabilities of (clamped) probabilities."""
    clamped = clamp_probs(probs)
    if is_binary:
        return log(clamped) - log1p(-clamped)
    return log(clamped)


def formatted(value) -> str:
    """``f"{value}"`` as torch writes it: a 0-d tensor (not a subclass) as its number."""
    if isinstance(value, Tensor) and type(value)._plain and value.dim() == 0 \
            and not value.is_traced:
        return str(value.item())
    return str(value)


class lazy_property:
    """A property computed on first use (with gradients enabled, as torch does) and then
    stored on the instance under its own name, so later reads are plain attribute reads."""

    def __init__(self, wrapped) -> None:
        self.wrapped = wrapped
        update_wrapper(self, wrapped)

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        with enable_grad():
            value = self.wrapped(instance)
        setattr(instance, self.wrapped.__name__, value)
        return value


_standard_normal = standard_normal   # torch's names, for programs that import them
_sum_rightmost = sum_rightmost
