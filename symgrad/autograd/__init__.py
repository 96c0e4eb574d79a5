"""symgrad.autograd: the torch.autograd mirror.

Layer: front end. Input/output: the names torch programs use from ``torch.autograd``, defined
in the front end (custom ``Function``s in ``frontend/core/custom_function.py``, the tape engine in
``frontend/core/engine.py``) and here (``grad``/``backward`` argument handling in ``grad``, the
finite-difference checks in ``checks``). ``torch.autograd.functional`` (jacobian, hessian, jvp)
comes with the transforms issue. ``detect_anomaly``/``set_detect_anomaly`` are accepted and do
nothing more: symgrad's errors already name the op and, at trace time, the user's line.
"""

from __future__ import annotations

from ..frontend.core.grad_mode import (enable_grad, inference_mode, no_grad,  # noqa: F401
                                       set_grad_enabled)
from ..frontend.core.tensor import Tensor
from . import function  # noqa: F401
from .checks import GradcheckError, gradcheck, gradgradcheck  # noqa: F401
from .grad import backward, grad  # noqa: F401
from .function import Function, FunctionCtx, once_differentiable  # noqa: F401


class _VariableMeta(type):
    def __instancecheck__(cls, obj) -> bool:
        return isinstance(obj, Tensor)


class Variable(metaclass=_VariableMeta):
    """The pre-0.4 wrapper: ``Variable(t, requires_grad=True)`` is a tensor sharing ``t``'s
    data that requires grad; every tensor is an instance of ``Variable``."""

    def __new__(cls, data: Tensor, requires_grad: bool = False, volatile: bool = False):
        out = data.detach()
        return out.requires_grad_(requires_grad) if requires_grad else out


class detect_anomaly:
    """Accepted for compatibility (a context manager and decorator); checks nothing more."""

    def __init__(self, check_nan: bool = True) -> None:
        self.check_nan = check_nan

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc) -> None:
        return None

    def __call__(self, fn):
        return fn


class set_detect_anomaly(detect_anomaly):
    """Accepted for compatibility (see ``detect_anomaly``)."""

    def __init__(self, mode: bool, check_nan: bool = True) -> None:
        super().__init__(check_nan)
        self.mode = mode
