"""``functional_call``: run a module with given tensors in place of its parameters and
buffers (torch.nn.utils.stateless / torch.func).

Layer: front end (torch.nn mirror). Input: a module, a mapping of dotted names to tensors (or
arrays), the call's arguments. Output: the module's output, computed with those tensors; the
module's own parameters are put back afterwards, even if the call raises. This is how a
module is differentiated inside ``@symgrad.compile`` or by ``symgrad.grad``: pass its
parameters as arguments (traced there) and call it through ``functional_call``, so that the
compiled code reads them as inputs rather than as constants baked in at trace time. It must
not change the module.
"""

from __future__ import annotations

from typing import Any
from collections.abc import Mapping

from ...frontend.core.apply import as_tensor
from ...frontend.core.tensor import Tensor


def _slot(module: Any, name: str) -> tuple[dict, str]:
    """The registry (a module's ``_parameters`` or ``_buffers``) and key of a dotted name."""
    path, _, leaf = name.rpartition(".")
    owner = module.get_submodule(path)
    for store in (owner._parameters, owner._buffers):
        if leaf in store:
            return store, leaf
    raise AttributeError(f"{owner._get_name()} has no parameter or buffer named `{leaf}` "
                         f"(functional_call key '{name}')")


def _with_ties(module: Any, given: dict) -> dict:
    """``given`` plus the other names of the same tensors (weights shared between modules)."""
    named = list(module.named_parameters(remove_duplicate=False)) + \
        list(module.named_buffers(remove_duplicate=False))
    by_id = {id(t): given[name] for name, t in named if name in given}
    out = dict(given)
    for name, t in named:
        if name not in out and id(t) in by_id:
            out[name] = by_id[id(t)]
    return out


def functional_call(module: Any, parameters_and_buffers: Mapping | Any, args: Any = None,
                    kwargs: dict | None = None, *, tie_weights: bool = True,
                    strict: bool = False) -> Any:
    """``module(*args, **kwargs)`` with ``parameters_and_buffers[name]`` standing in for the
    parameter or buffer ``name`` (dotted, as in ``state_dict``)."""
    if isinstance(parameters_and_buffers, (list, tuple)):
        merged: dict = {}
        for d in parameters_and_buffers:
            merged.update(d)
        parameters_and_buffers = merged
    given = {k: v if isinstance(v, Tensor) else as_tensor(v)
             for k, v in parameters_and_buffers.items()}
    if tie_weights:
        given = _with_ties(module, given)
    if strict:
        expected = {n for n, _ in module.named_parameters()} | \
            {n for n, _ in module.named_buffers()}
        missing, unexpected = sorted(expected - set(given)), sorted(set(given) - expected)
        if missing or unexpected:
            raise RuntimeError(f"Error(s) in reparametrizing for {module._get_name()}: "
                               f"missing keys {missing}, unexpected keys {unexpected}")
    args = () if args is None else (args if isinstance(args, tuple) else (args,))
    swapped = []
    try:
        for name, value in given.items():
            store, key = _slot(module, name)
            swapped.append((store, key, store[key]))
            store[key] = value
        return module(*args, **(kwargs or {}))
    finally:
        for store, key, old in reversed(swapped):
            store[key] = old
