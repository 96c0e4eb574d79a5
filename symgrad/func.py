"""``symgrad.func``: the transforms under torch.func's names and signatures.

Layer: package (public re-exports). ``import symgrad as torch`` makes ``torch.func.vmap``,
``torch.func.grad``, ``torch.func.jacrev``... these, each compiled to C per signature (see
``symgrad.api.derivatives``). Arguments torch.func takes for its own execution strategy
(``randomness``, ``chunk_size``, ``strict``) are accepted; ``randomness`` other than "error"
or "different" is refused, since symgrad's random ops in a vmapped function draw independently
per example.
"""

from __future__ import annotations

from typing import Any
from collections.abc import Callable, Sequence

from . import api
from .api import grad, hessian, jacfwd, jacrev, vjp  # noqa: F401
from .api.gradients import grad_and_value  # noqa: F401
from .nn.utils.stateless import functional_call  # noqa: F401

__all__ = ["functional_call", "grad", "grad_and_value", "hessian", "jacfwd", "jacrev", "jvp",
           "vjp", "vmap"]


def vmap(func: Callable, in_dims: Any = 0, out_dims: Any = 0, randomness: str = "error", *,
         chunk_size: int | None = None) -> api.CompiledFunction:
    """torch.func's ``vmap(func, in_dims, out_dims)``: ``symgrad.vmap`` with torch's names."""
    if randomness not in ("error", "different"):
        raise ValueError(f"vmap: randomness={randomness!r} is not supported (symgrad draws "
                         f"random numbers independently per example: 'different')")
    return api.vmap(func, in_axes=in_dims, out_axes=out_dims)


def jvp(func: Callable, primals: Sequence, tangents: Sequence, *, strict: bool = False,
        has_aux: bool = False):
    """torch.func's ``jvp``: ``(func(*primals), J tangents)``."""
    return api.jvp(func, primals, tangents, has_aux=has_aux)
