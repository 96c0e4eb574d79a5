"""The global names of torch's checkpoint pickles, and the symgrad objects they stand for.

Layer: front end (the torch.serialization mirror). Input: a global a pickle names as
``module.name`` (``torch._utils._rebuild_tensor_v2``, ``torch.FloatStorage``,
``torch.float32``, ``collections.OrderedDict``...). Output: ``TORCH`` (torch's names symgrad
maps: its rebuild functions, storage types, dtypes, ``Size``, ``device``, ``Tensor``,
``Parameter``, and stubs for the names torch allows but symgrad cannot load),
``WEIGHTS_ONLY`` (what ``load(weights_only=True)`` resolves by default: torch's allowed set),
``resolve`` (a name to its object, raising for the stubs) and ``torch_name_of`` (what
``save`` writes for a symgrad object: torch's module and name).
"""

from __future__ import annotations

import _codecs
from collections import Counter, OrderedDict
from typing import Any

from .. import dtypes
from ..devices import device
from ..frontend.core.tensor import Tensor
from ..nn.parameter import Parameter
from ..size import Size
from . import storages as S

# torch's dtypes symgrad does not have (they may name a tensor's dtype or appear as values).
_OTHER_DTYPES = ("bfloat16", "complex32", "complex64", "complex128", "uint16", "uint32",
                 "uint64", "float8_e5m2", "float8_e4m3fn", "float8_e5m2fnuz",
                 "float8_e4m3fnuz", "float8_e8m0fnu", "float4_e2m1fn_x2", "bits8", "bits16",
                 "bits1x8", "bits2x4", "bits4x2", "qint8", "qint32", "quint8", "quint4x2",
                 "quint2x4") + tuple(f"{k}int{b}" for k in ("", "u") for b in range(1, 8))

_REBUILDS = {
    "_rebuild_tensor": S.rebuild_tensor, "_rebuild_tensor_v2": S.rebuild_tensor_v2,
    "_rebuild_tensor_v3": S.rebuild_tensor_v3, "_rebuild_parameter": S.rebuild_parameter,
    "_rebuild_parameter_with_state": S.rebuild_parameter_with_state,
}
_UNSUPPORTED_REBUILDS = {
    "_rebuild_qtensor": "a quantized tensor", "_rebuild_sparse_tensor": "a sparse tensor",
    "_rebuild_meta_tensor_no_storage": "a tensor on the meta device",
    "_rebuild_nested_tensor": "a nested tensor",
    "_rebuild_wrapper_subclass": "a tensor subclass (wrapper)",
    "_rebuild_device_tensor_from_numpy": "a tensor of another device (from NumPy)",
    "_rebuild_device_tensor_from_cpu_tensor": "a tensor of another device",
}


def _torch_table() -> dict[str, Any]:
    table: dict[str, Any] = {
        "torch.Size": Size, "torch.device": device, "torch.Tensor": Tensor,
        "torch.nn.parameter.Parameter": Parameter,
        "torch._tensor._rebuild_from_type_v2": S.rebuild_from_type_v2,
        "torch.serialization._get_layout": S.Unsupported("torch.serialization._get_layout",
                                                         "a sparse tensor's layout"),
        "torch.UntypedStorage": S.UNTYPED, "torch.storage.UntypedStorage": S.UNTYPED,
    }
    table.update((f"torch._utils.{k}", f) for k, f in _REBUILDS.items())
    table.update((f"torch._utils.{k}", S.Unsupported(f"torch._utils.{k}", what))
                 for k, what in _UNSUPPORTED_REBUILDS.items())
    table.update((f"torch.{k}", t) for k, t in S.STORAGE_TYPES.items())
    table.update((f"torch.{d.name}", d) for d in dtypes.ALL)
    table.update((f"torch.{k}", S.Unsupported(f"torch.{k}", f"the dtype torch.{k}"))
                 for k in _OTHER_DTYPES)
    return table


TORCH = _torch_table()

# What torch.load(weights_only=True) allows by default, besides torch's own names.
WEIGHTS_ONLY = dict(TORCH, **{
    "collections.OrderedDict": OrderedDict, "collections.Counter": Counter,
    "_codecs.encode": _codecs.encode, "builtins.bytearray": bytearray, "builtins.set": set,
    "builtins.complex": complex,
})
_WEIGHTS_ONLY_IDS = {id(v) for v in WEIGHTS_ONLY.values()}


def is_allowed_object(obj: Any) -> bool:
    """Whether ``obj`` is one of the objects ``WEIGHTS_ONLY`` names."""
    return id(obj) in _WEIGHTS_ONLY_IDS


def resolve(full_name: str, table: dict[str, Any] = TORCH) -> Any:
    """The object ``full_name`` stands for in ``table`` (None if absent); a name symgrad
    cannot load raises its RuntimeError here, before anything is built with it."""
    found = table.get(full_name)
    if isinstance(found, S.Unsupported) and not full_name.startswith("torch._utils."):
        raise found.error()
    return found


def _saved_names() -> dict[int, tuple[str, str]]:
    names = {}
    for full, obj in TORCH.items():
        if isinstance(obj, S.Unsupported) or full.startswith("torch.storage."):
            continue
        module, _, name = full.rpartition(".")
        names.setdefault(id(obj), (module, name))
    return names


_SAVED = _saved_names()


def torch_name_of(obj: Any) -> tuple[str, str] | None:
    """torch's ``(module, name)`` of a symgrad object that a checkpoint names as a global
    (a rebuild function, a storage type, a dtype, ``Size``...); None for any other."""
    return _SAVED.get(id(obj))
