"""``symgrad.compile`` with ``torch.compile``'s signature too, so ``torch.compile`` in a torch
script is symgrad's.

Layer: api, above ``compiled``. Input: a function or an ``nn.Module`` (or nothing: a
decorator), symgrad's options (``static_argnums``, ``fast_math``, ``dynamic``...) and torch's
(``fullgraph``, ``backend``, ``mode``, ``options``, ``disable``...: tuning requests to
Inductor, which symgrad's compiler answers its own way; accepted and ignored). Output:

- a function: ``compiled.compile``'s ``CompiledFunction``;
- a module: torch's ``OptimizedModule`` wrapper (the module is ``_orig_mod``, so its
  ``state_dict`` keys start with ``_orig_mod.`` as torch's do; attributes read through to the
  module, then to the ``CompiledFunction`` of it: ``c_source``, ``last_specialization``). A
  call is the compiled module's (the Python body while autograd records, the C under
  ``no_grad``: see the README on what a compiled function captures), and given tensors it
  returns tensors, as torch's does. A module symgrad cannot trace runs eagerly from then on,
  with one warning naming why (torch falls back to eager code where Dynamo cannot trace);
- ``disable=True``: the function or module itself, as torch returns it.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from ..frontend.core.tensor import Tensor
from ..nn.modules.module import Module
from . import compiled


class OptimizedModule(Module):
    """torch's wrapper of a compiled module (see the module docstring)."""

    def __init__(self, mod: Module, **options: Any) -> None:
        super().__init__()
        self._orig_mod = mod
        self.__dict__["compiled"] = compiled.compile(mod, **options)
        self.__dict__["eager"] = False

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        if self.__dict__["eager"]:
            return self._orig_mod(*args, **kwargs)
        try:
            out = self.__dict__["compiled"](*args, **kwargs)
        except Exception as failure:   # noqa: BLE001  (the eager call says what is wrong)
            out = self._orig_mod(*args, **kwargs)
            self.__dict__["eager"] = True
            warnings.warn(f"torch.compile: symgrad could not compile "
                          f"{type(self._orig_mod).__name__} ({type(failure).__name__}: "
                          f"{failure}); it runs eagerly from now on", stacklevel=3)
            return out
        given_tensors = any(isinstance(a, Tensor) for a in (*args, *kwargs.values()))
        return _as_tensors(out) if given_tensors else out

    def __getattr__(self, name: str) -> Any:
        try:
            return super().__getattr__(name)
        except AttributeError:
            pass
        try:
            return getattr(self.__dict__["_modules"]["_orig_mod"], name)
        except AttributeError:
            return getattr(self.__dict__["compiled"], name)


def _as_tensors(out: Any) -> Any:
    """A compiled call's NumPy results as tensors (tuples, lists and dicts kept)."""
    if isinstance(out, np.ndarray):
        return Tensor(out, None)
    if isinstance(out, (tuple, list)):
        return type(out)(_as_tensors(o) for o in out)
    if isinstance(out, dict):
        return {k: _as_tensors(v) for k, v in out.items()}
    return out


def compile(model=None, *, fullgraph: bool = False, dynamic: bool | None = None,  # noqa: A001
            backend=None, mode: str | None = None, options: dict | None = None,
            name: str | None = None, disable: bool = False, recompile_limit=None,
            isolate_recompiles: bool = False, shapes_spec=None, **symgrad_options: Any):
    """Compile ``model`` (see the module); ``compile(**options)`` is a decorator."""
    if model is None:
        def decorate(fn):
            if fn is None:
                raise RuntimeError("Model can't be None")
            return compile(fn, dynamic=dynamic, mode=mode, options=options, disable=disable,
                           **symgrad_options)
        return decorate
    if mode is not None and options is not None:
        raise RuntimeError("Either mode or options can be specified, but both can't be "
                           "specified at the same time.")
    if disable:
        return model
    if isinstance(model, Module):
        return OptimizedModule(model, dynamic=dynamic, **symgrad_options)
    return compiled.compile(model, dynamic=dynamic, **symgrad_options)
