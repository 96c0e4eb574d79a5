"""A module's state: ``state_dict``/``load_state_dict`` and dtype conversion (``to``,
``float``, ``double``), as torch's ``Module`` has them (mixed into ``Module``).

Layer: front end (torch.nn mirror). Input: a module tree (its ``_parameters``, ``_buffers``,
``_modules``) and a mapping of dotted names to tensors (or, as a symgrad extension, NumPy arrays
and anything with ``__array__``, e.g. torch tensors: how torch weights are copied in). Output:
an ``OrderedDict`` of detached tensors sharing the parameters' data, with torch's key names and
``_metadata``; parameters updated in place (the Parameter objects stay the same, so optimizers
holding them see the new values); torch's ``_IncompatibleKeys`` and error messages. It must not
compute anything but copies and casts.
"""

from __future__ import annotations

from collections import OrderedDict, namedtuple
from collections.abc import Mapping
from typing import Any

import numpy as np

from ... import dtypes
from ...devices import check as check_device
from ...devices import device as Device
from ...frontend.core.grad_mode import no_grad
from ...frontend.core.tensor import Tensor, tracer_error
from ...size import Size
from ..parameter import Parameter


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    """What ``load_state_dict`` returns: the keys it missed and the ones it did not expect."""

    __slots__ = ()

    def __repr__(self) -> str:
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


def _loadable(value: Any) -> Tensor | None:
    """A checkpoint entry as a tensor: a Tensor as it is, an array-like as a new tensor."""
    if isinstance(value, Tensor):
        return value
    if isinstance(value, (np.ndarray, np.generic)) or hasattr(value, "__array__"):
        arr = np.array(np.asarray(value))    # (torch's __array__ takes no copy=)
        if dtypes.from_numpy(arr.dtype) is not None:
            return Tensor(arr, None)
    return None


def _set_data(t: Tensor, value: np.ndarray, dtype: dtypes.DType) -> None:
    """Rebind ``t``'s data (torch's ``param.data = new``: the object and its autograd state
    stay, its storage is new)."""
    t._value, t._node, t.dtype = value, None, dtype
    t.shape = Size(value.shape)


def _cast_in_place(t: Tensor, dtype: dtypes.DType) -> None:
    if t.dtype is dtype:
        return
    if t._value is None:
        raise tracer_error("value to convert (Module.to inside @symgrad.compile)")
    _set_data(t, t._value.astype(dtype.np), dtype)
    if t._grad is not None and t._grad.dtype.is_floating:
        _cast_in_place(t._grad, dtype)


def _parse_to(args: tuple, kwargs: dict) -> Any:
    """The dtype of ``Module.to(...)``'s torch spellings; the device must be the CPU."""
    dtype, where = kwargs.pop("dtype", None), kwargs.pop("device", None)
    for key in ("non_blocking", "memory_format", "copy"):
        kwargs.pop(key, None)
    if kwargs:
        raise TypeError(f"to() received an invalid combination of arguments - got unexpected "
                        f"keyword arguments {sorted(kwargs)}")
    for a in args:
        if isinstance(a, Tensor):
            where, dtype = a.device, a.dtype
        elif isinstance(a, (str, Device)) or (isinstance(a, int) and not isinstance(a, bool)):
            where = a
        elif not isinstance(a, bool):      # a bool is non_blocking
            dtype = a
    check_device(where)
    if dtype is None:
        return None
    dtype = dtypes.as_dtype(dtype)
    if not dtype.is_floating:
        raise TypeError(f"nn.Module.to only accepts floating point or complex dtypes, but got "
                        f"desired dtype={dtype}")
    return dtype


class StateMixin:
    """``Module``'s state methods (see the module docstring)."""

    _version = 1

    # ------------------------------------------------------------ conversion
    def _cast_floating(self, dtype: dtypes.DType) -> Any:
        """Cast every floating parameter (in place) and buffer (anew) to ``dtype``."""
        for m in self.modules():
            for p in m._parameters.values():
                if p is not None and p.dtype.is_floating:
                    _cast_in_place(p, dtype)
            for name, b in m._buffers.items():
                if b is not None and b.dtype.is_floating and b.dtype is not dtype:
                    m._buffers[name] = b.to(dtype)
        return self

    def to(self, *args: Any, **kwargs: Any) -> Any:
        """``to(dtype)``, ``to(device)``, ``to(device, dtype)``, ``to(tensor)``: floating
        parameters and buffers cast to the dtype; the device must be the CPU."""
        dtype = _parse_to(args, dict(kwargs))
        return self if dtype is None else self._cast_floating(dtype)

    def float(self) -> Any:
        """Cast floating parameters and buffers to float32."""
        return self._cast_floating(dtypes.float32)

    def double(self) -> Any:
        """Cast floating parameters and buffers to float64."""
        return self._cast_floating(dtypes.float64)

    def half(self) -> Any:
        """Cast floating parameters and buffers to float16 (ops compute in float32 and round
        back, as torch's CPU kernels do)."""
        return self._cast_floating(dtypes.float16)

    def bfloat16(self) -> Any:
        raise TypeError("symgrad has no bfloat16 dtype: keep the module in float32 (or use "
                        "half() for float16)")

    def type(self, dst_type: Any) -> Any:
        """Cast every parameter and buffer to ``dst_type``."""
        return self._cast_floating(dtypes.as_dtype(dst_type))

    def cpu(self) -> Any:
        """The module itself: everything lives on the CPU."""
        return self

    def cuda(self, device: Any = None) -> Any:
        """torch's error: there is no GPU here."""
        check_device("cuda" if device is None else device)
        return self

    def share_memory(self) -> Any:
        """The module itself (its arrays are ordinary process memory)."""
        return self

    # ------------------------------------------------------------ state_dict
    def state_dict(self, *args: Any, destination: Any = None, prefix: str = "",
                   keep_vars: bool = False) -> OrderedDict[str, Tensor]:
        """Parameters and persistent buffers by dotted name, detached (sharing the data)."""
        if args:
            destination = args[0] if len(args) > 0 else destination
            prefix = args[1] if len(args) > 1 else prefix
            keep_vars = args[2] if len(args) > 2 else keep_vars
        if destination is None:
            destination = OrderedDict()
            destination._metadata = OrderedDict()
        metadata = getattr(destination, "_metadata", None)
        if metadata is not None:
            metadata[prefix[:-1]] = {"version": self._version}
        for name, p in self._parameters.items():
            if p is not None:
                destination[prefix + name] = p if keep_vars else p.detach()
        for name, b in self._buffers.items():
            if b is not None and name not in self._non_persistent_buffers_set:
                destination[prefix + name] = b if keep_vars else b.detach()
        for name, m in self._modules.items():
            if m is not None:
                m.state_dict(destination=destination, prefix=prefix + name + ".",
                             keep_vars=keep_vars)
        return destination

    def load_state_dict(self, state_dict: Mapping, strict: bool = True,
                        assign: bool = False) -> _IncompatibleKeys:
        """Copy values into the parameters and buffers (in place, cast to their dtypes; with
        ``assign``, make them the new parameters); ``strict``: missing and unexpected keys
        raise torch's RuntimeError."""
        if not isinstance(state_dict, Mapping):
            raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
        missing: list = []
        unexpected: list = []
        errors: list = []
        for prefix, m in self.named_modules(prefix=""):
            m._load_from_state_dict(state_dict, prefix + "." if prefix else "", missing,
                                    unexpected, errors, assign)
        if strict:
            if unexpected:
                errors.insert(0, "Unexpected key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in unexpected)))
            if missing:
                errors.insert(0, "Missing key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in missing)))
        if errors:
            raise RuntimeError("Error(s) in loading state_dict for {}:\n\t{}".format(
                type(self).__name__, "\n\t".join(errors)))
        return _IncompatibleKeys(missing, unexpected)

    def _local_state(self) -> dict:
        local = {k: v for k, v in self._parameters.items() if v is not None}
        local.update((k, v) for k, v in self._buffers.items()
                     if v is not None and k not in self._non_persistent_buffers_set)
        return local

    def _load_from_state_dict(self, state_dict: Mapping, prefix: str, missing: list,
                              unexpected: list, errors: list, assign: bool) -> None:
        local = self._local_state()
        for name, param in local.items():
            key = prefix + name
            if key not in state_dict:
                missing.append(key)
                continue
            value = _loadable(state_dict[key])
            if value is None:
                errors.append(f'While copying the parameter named "{key}", expected '
                              f"torch.Tensor or Tensor-like object from checkpoint but "
                              f"received {type(state_dict[key])}")
                continue
            if param.ndim == 0 and tuple(value.shape) == (1,):
                value = value.reshape(())
            if tuple(value.shape) != tuple(param.shape):
                errors.append(f"size mismatch for {key}: copying a param with shape "
                              f"{Size(value.shape)} from checkpoint, the shape in current "
                              f"model is {param.shape}.")
                continue
            try:
                self._load_one(name, param, value, assign)
            except Exception as ex:   # noqa: BLE001  (reported as torch reports it)
                errors.append(f'While copying the parameter named "{key}", whose dimensions '
                              f"in the model are {param.size()} and whose dimensions in the "
                              f"checkpoint are {Size(value.shape)}, an exception occurred : "
                              f"{ex.args}.")
        for key in state_dict:
            if key.startswith(prefix):
                head = key[len(prefix):].split(".", 1)
                if (head[0] not in self._modules) if len(head) > 1 else (head[0] not in local):
                    unexpected.append(key)

    def _load_one(self, name: str, param: Tensor, value: Tensor, assign: bool) -> None:
        if assign:
            if name in self._parameters:
                value = value if isinstance(value, Parameter) else \
                    Parameter(value.detach(), param.requires_grad)
            setattr(self, name, value)
            return
        with no_grad():
            param.copy_(value)
        param._node = None    # a node cached for an old value must not outlive it
