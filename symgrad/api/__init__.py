"""The user-facing API: ``compile``, ``grad``, ``value_and_grad``, ``inspect``.

Modules: ``compiled`` (CompiledFunction, compile), ``torch_compile`` (``compile`` with
torch.compile's options too: the one ``symgrad.compile``), ``transforms`` (grad, value_and_grad),
``derivatives`` (vmap, jvp, vjp, jacrev, jacfwd, jacobian, hessian, hvp),
``inspection`` (inspect), ``signature`` (call signatures), ``pickling`` (the function's trip to
another process).
"""

from .compiled import CompiledFunction  # noqa: F401
from .torch_compile import compile  # noqa: F401, A004  (symgrad's and torch.compile's options)
from .inspection import Inspection, inspect  # noqa: F401
from .gradients import grad, value_and_grad  # noqa: F401
from .derivatives import (hessian, hvp, jacfwd, jacobian, jacrev, jvp, vjp,  # noqa: F401
                          vmap)
