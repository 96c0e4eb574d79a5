"""``Optimizer``: the base of torch.optim's optimizers (parameter groups, state, state_dict).

Layer: front end (the torch.optim mirror). Input: parameters (an iterable of tensors, or of
dicts with a "params" entry and per-group options) and the optimizer's defaults. Output: the
optimizer with torch's ``param_groups``, ``defaults``, ``state`` (per parameter),
``zero_grad``, ``add_param_group``, ``state_dict``/``load_state_dict`` (torch's layout:
parameters numbered in group order) and repr. Subclasses implement ``step``, updating the
parameters' arrays in place (``kernels.py``). It must not build autograd graphs.
"""

from __future__ import annotations

import copy
import warnings
from collections import defaultdict
from itertools import chain
from typing import Any
from collections.abc import Callable, Iterable

import numpy as np

from ..frontend.core.grad_mode import enable_grad
from ..frontend.core.tensor import Tensor


class _RequiredParameter:
    """The default of an option every parameter group must give (SGD's ``lr`` in old torch)."""

    def __repr__(self) -> str:
        return "<required parameter>"


required = _RequiredParameter()


def _typename(obj: Any) -> str:
    return obj.type() if isinstance(obj, Tensor) else type(obj).__name__


class Optimizer:
    """Base class of the optimizers (``torch.optim.Optimizer``)."""

    def __init__(self, params: Iterable[Any], defaults: dict) -> None:
        self.defaults = defaults
        if isinstance(params, Tensor):
            raise TypeError("params argument given to the optimizer should be an iterable of "
                            "Tensors or dicts, but got " + _typename(params))
        self.state: defaultdict = defaultdict(dict)
        self.param_groups: list[dict] = []
        groups = list(params)
        if not groups:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        for group in groups:
            self.add_param_group(group)

    def __repr__(self) -> str:
        text = type(self).__name__ + " ("
        for i, group in enumerate(self.param_groups):
            text += f"\nParameter Group {i}\n"
            for key in sorted(group):
                if key != "params":
                    text += f"    {key}: {group[key]}\n"
        return text + ")"

    def __getstate__(self) -> dict:
        """Everything but the ``step`` a learning-rate scheduler wrapped (a local function,
        which pickle cannot name; torch's optimizers do not pickle it either)."""
        return {k: v for k, v in self.__dict__.items() if k != "step"}

    def add_param_group(self, param_group: dict) -> None:
        """Add a group of parameters with its own options (the defaults fill the rest)."""
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group)}")
        params = param_group["params"]
        if isinstance(params, Tensor):
            params = [params]
        elif isinstance(params, set):
            raise TypeError("optimizer parameters need to be organized in ordered collections, "
                            "but the ordering of tensors in sets will change between runs. "
                            "Please use a list instead.")
        params = list(params)
        if params and all(isinstance(p, tuple) for p in params):
            param_group["param_names"] = [name for name, _ in params]
            params = [p for _, p in params]
        param_group["params"] = params
        for p in params:
            if not isinstance(p, Tensor):
                raise TypeError("optimizer can only optimize Tensors, but one of the params is "
                                + _typename(p))
            if not (p.is_leaf or p.retains_grad):
                raise ValueError("can't optimize a non-leaf Tensor")
        for name, default in self.defaults.items():
            if default is required and name not in param_group:
                raise ValueError(f"parameter group didn't specify a value of required "
                                 f"optimization parameter {name}")
            param_group.setdefault(name, default)
        if len({id(p) for p in params}) != len(params):
            warnings.warn("optimizer contains a parameter group with duplicate parameters; in "
                          "future, this will cause an error; see "
                          "github.com/pytorch/pytorch/issues/40967 for more information",
                          stacklevel=3)
        seen = {id(p) for g in self.param_groups for p in g["params"]}
        if seen & {id(p) for p in params}:
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Drop (or zero, with ``set_to_none=False``) every parameter's ``.grad``."""
        for group in self.param_groups:
            for p in group["params"]:
                g = p._grad
                if g is None:
                    continue
                if set_to_none:
                    p._grad = None
                    continue
                if g.grad_fn is not None:
                    g.detach_()
                else:
                    g.requires_grad_(False)
                g.zero_()

    def step(self, closure: Callable | None = None) -> Any:
        """One update of every parameter from its ``.grad``; ``closure`` (re)computes the
        loss first, with gradients on, and its result is returned."""
        loss = None
        if closure is not None:
            with enable_grad():
                loss = closure()
        for group in self.param_groups:
            self._update_group(group)
        return loss

    def _update_group(self, group: dict) -> None:
        raise NotImplementedError(f"{type(self).__name__} does not implement step()")

    # ------------------------------------------------------------ state_dict
    def state_dict(self) -> dict:
        """``{"state": {index: state}, "param_groups": [options with "params": indices]}``,
        parameters numbered in group order (torch's layout); the state's tensors are the
        optimizer's own (not copies), as torch's are."""
        index: dict[int, int] = {}
        groups = []
        for group in self.param_groups:
            packed = {k: v for k, v in group.items() if k != "params"}
            for p in group["params"]:
                index.setdefault(id(p), len(index))
            packed["params"] = [index[id(p)] for p in group["params"]]
            groups.append(packed)
        state = {index[id(p)] if isinstance(p, Tensor) else p: v for p, v in self.state.items()}
        return {"state": state, "param_groups": groups}

    def load_state_dict(self, state_dict: dict) -> None:
        """Restore options and per-parameter state saved by ``state_dict`` (torch's or a
        symgrad optimizer's: arrays and torch tensors become tensors; floating state is cast
        to its parameter's dtype, except ``step``)."""
        saved = copy.deepcopy({"param_groups": state_dict["param_groups"]})["param_groups"]
        groups = self.param_groups
        if len(groups) != len(saved):
            raise ValueError("loaded state dict has a different number of parameter groups")
        if any(len(g["params"]) != len(s["params"]) for g, s in zip(groups, saved)):
            raise ValueError("loaded state dict contains a parameter group that doesn't match "
                             "the size of optimizer's group")
        id_map = dict(zip(chain.from_iterable(s["params"] for s in saved),
                          chain.from_iterable(g["params"] for g in groups)))
        state: defaultdict = defaultdict(dict)
        for k, v in state_dict["state"].items():
            if k in id_map:
                param = id_map[k]
                state[param] = {key: _state_value(key, value, param) for key, value in v.items()}
            else:
                state[k] = v
        self.state = state
        self.param_groups = [dict(s, params=g["params"]) for g, s in zip(groups, saved)]


def _state_value(key: str, value: Any, param: Tensor) -> Any:
    """A loaded state entry as this optimizer keeps it: a tensor of its own (floating ones,
    but the step count, in the parameter's dtype)."""
    if value is None or isinstance(value, (int, float)):
        return value
    if not isinstance(value, Tensor):
        if not hasattr(value, "__array__"):
            return copy.deepcopy(value)
        value = Tensor(np.asarray(value), None)
    arr = np.array(np.asarray(value), copy=True)
    if key != "step" and arr.dtype.kind == "f":
        arr = arr.astype(param.dtype.np)
    return Tensor(arr, None)
