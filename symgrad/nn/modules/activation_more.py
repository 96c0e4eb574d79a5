"""More activation modules: ``CELU``, ``SELU``, ``Mish``, ``Hardswish``, ``Hardsigmoid``,
``LogSigmoid``, ``Softsign``, ``Softshrink``, ``Hardshrink``, ``Tanhshrink``, ``Threshold``,
``PReLU``, ``RReLU``, ``GLU``, ``Softmin``, ``Softmax2d``.

Layer: front end (torch.nn mirror). Input: the activation's arguments (PReLU's ``num_parameters``,
``init``, ``device``, ``dtype``). Output: modules whose forward is ``nn.functional``'s and whose
repr is torch's (``CELU(alpha=1.0)``, ``Softshrink(0.5)``, ``PReLU(num_parameters=1)``...).
PReLU holds its weight, filled with ``init`` as torch's ``reset_parameters`` does (no random
draw); RReLU draws its slopes in training mode only. It must not compute outside forward and
initialization.
"""

from __future__ import annotations

from typing import Any

from ...frontend.core.tensor import Tensor
from .. import functional as F
from .. import init as nn_init
from ..parameter import Parameter
from ._common import new_empty
from .module import Module


def _inplace(inplace: bool, first: bool = False) -> str:
    if not inplace:
        return ""
    return "inplace=True" if first else ", inplace=True"


class _InplaceActivation(Module):
    """An activation whose only option is ``inplace`` (shown as torch shows it)."""

    def __init__(self, inplace: bool = False) -> None:
        super().__init__()
        self.inplace = inplace

    def extra_repr(self) -> str:
        return _inplace(self.inplace, first=True)


class CELU(Module):
    """x for x > 0, alpha * (exp(x / alpha) - 1) otherwise."""

    def __init__(self, alpha: float = 1.0, inplace: bool = False) -> None:
        super().__init__()
        self.alpha = alpha
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.celu(input, self.alpha, self.inplace)

    def extra_repr(self) -> str:
        return f"alpha={self.alpha}{_inplace(self.inplace)}"


class SELU(_InplaceActivation):
    """scale * ELU(x, alpha) with the self-normalizing constants."""

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.selu(input, self.inplace)


class Mish(_InplaceActivation):
    """x * tanh(softplus(x))."""

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.mish(input, inplace=self.inplace)


class Hardswish(_InplaceActivation):
    """x * relu6(x + 3) / 6 (torch shows no options)."""

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.hardswish(input, self.inplace)

    def extra_repr(self) -> str:
        return ""


class Hardsigmoid(_InplaceActivation):
    """relu6(x + 3) / 6 (torch shows no options)."""

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.hardsigmoid(input, self.inplace)

    def extra_repr(self) -> str:
        return ""


class LogSigmoid(Module):
    """log(sigmoid(x))."""

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.logsigmoid(input)


class Softsign(Module):
    """x / (1 + |x|)."""

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.softsign(input)


class Tanhshrink(Module):
    """x - tanh(x)."""

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.tanhshrink(input)


class Softshrink(Module):
    """Shrinks x towards 0 by lambd (0 inside [-lambd, lambd])."""

    def __init__(self, lambd: float = 0.5) -> None:
        super().__init__()
        self.lambd = lambd

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.softshrink(input, self.lambd)

    def extra_repr(self) -> str:
        return str(self.lambd)


class Hardshrink(Softshrink):
    """0 inside [-lambd, lambd], x outside."""

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.hardshrink(input, self.lambd)


class Threshold(Module):
    """``value`` where x <= threshold, else x."""

    def __init__(self, threshold: float, value: float, inplace: bool = False) -> None:
        super().__init__()
        self.threshold = threshold
        self.value = value
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.threshold(input, self.threshold, self.value, self.inplace)

    def extra_repr(self) -> str:
        return f"threshold={self.threshold}, value={self.value}{_inplace(self.inplace)}"


class PReLU(Module):
    """x for x > 0, weight * x otherwise: one learnable slope, or one per channel (dim 1)."""

    def __init__(self, num_parameters: int = 1, init: float = 0.25, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__()
        self.num_parameters = num_parameters
        self.init = init
        self.weight = Parameter(new_empty((num_parameters,), device, dtype))
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Every slope set to ``init`` (torch's: no random draw)."""
        nn_init.constant_(self.weight, self.init)

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.prelu(input, self.weight)

    def extra_repr(self) -> str:
        return f"num_parameters={self.num_parameters}"


class RReLU(Module):
    """Randomized leaky ReLU: a slope drawn from U(lower, upper) per element in training, the
    mean slope in eval."""

    def __init__(self, lower: float = 1.0 / 8, upper: float = 1.0 / 3,
                 inplace: bool = False) -> None:
        super().__init__()
        self.lower = lower
        self.upper = upper
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.rrelu(input, self.lower, self.upper, self.training, self.inplace)

    def extra_repr(self) -> str:
        return f"lower={self.lower}, upper={self.upper}{_inplace(self.inplace)}"


class GLU(Module):
    """a * sigmoid(b) of the two halves of the input along ``dim``."""

    def __init__(self, dim: int = -1) -> None:
        super().__init__()
        self.dim = dim

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.glu(input, self.dim)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class Softmin(Module):
    """softmax(-x) along ``dim``."""

    def __init__(self, dim: int | None = None) -> None:
        super().__init__()
        self.dim = dim

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.softmin(input, self.dim, _stacklevel=5)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class Softmax2d(Module):
    """Softmax over the channels (dim -3) of a (C, H, W) or (N, C, H, W) input."""

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        if input.dim() not in (3, 4):
            raise AssertionError(f"Softmax2d: expected input to be 3D or 4D, got "
                                 f"{input.dim()}D instead")
        return F.softmax(input, -3, _stacklevel=5)
