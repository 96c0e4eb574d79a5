"""symgrad.autograd.function: where torch keeps ``Function``, ``FunctionCtx`` and
``once_differentiable`` (``from torch.autograd.function import once_differentiable``).

Layer: front end (torch.autograd mirror). Input/output: re-exports of
``frontend/core/custom_function.py``, where they are defined.
"""

from ..frontend.core.custom_function import Function, FunctionCtx, once_differentiable  # noqa: F401
from ..frontend.core import lazy_custom  # noqa: F401  (a Function's node in a captured step)

__all__ = ["Function", "FunctionCtx", "once_differentiable"]
