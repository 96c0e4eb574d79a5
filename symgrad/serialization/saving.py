"""``save``: an object with its tensors, written in torch's checkpoint format.

Layer: front end (the torch.serialization mirror). Input: any picklable object (a tensor, a
``state_dict``, a checkpoint dict of them, numbers and strings) and a path or a binary
file-like. Output: the archive ``torch.save`` writes, which ``torch.load`` (weights-only
included) reads: ``data.pkl``, a protocol-2 pickle in which each tensor is
``torch._utils._rebuild_tensor_v2(storage, 0, size, stride, requires_grad, OrderedDict())``
(a Parameter ``_rebuild_parameter`` of that) and each storage a persistent id
``("storage", torch.FloatStorage, key, "cpu", numel)``; the storages as ``data/<key>``
records. Tensors that share one array (a parameter and its ``state_dict`` entry) share one
storage, as in torch; every other tensor has its own, its values in row-major order. symgrad
objects that torch has are written under torch's names (``torch float32``, ``torch Size``).
"""

from __future__ import annotations

import io
import os
import pickle
import sys
from collections import OrderedDict
from typing import Any

import numpy as np

from .. import dtypes
from ..devices import device
from ..frontend.core.tensor import Tensor, tracer_error
from ..nn.parameter import Parameter
from . import names
from . import storages as S
from .archive import ALIGNMENT, ArchiveWriter, archive_name, is_path, seekable

DEFAULT_PROTOCOL = 2
_STORAGE = "storage"   # one string object: the pickle memoizes it, as torch's does
_CPU = "cpu"


class SavedStorage:
    """A tensor's data as ``save`` writes it: a flat row-major array and its record key."""

    def __init__(self, key: str, array: np.ndarray, dtype: dtypes.DType) -> None:
        self.key, self.array = key, np.ascontiguousarray(array).reshape(-1)
        self.type = S.TYPE_OF_DTYPE[dtype.name]


def contiguous_strides(shape: tuple[int, ...]) -> tuple[int, ...]:
    """A row-major tensor's strides in elements, as torch gives them (a dim of size 0
    counts as 1)."""
    strides, step = [], 1
    for n in reversed(shape):
        strides.append(step)
        step *= max(n, 1)
    return tuple(reversed(strides))


# The pure-Python pickler: the C one writes a global only under the name it imports it by,
# and a checkpoint names torch's functions, which need not be importable here.
class TorchPickler(pickle._Pickler):
    """Pickles symgrad tensors as torch's, storages as persistent ids."""

    def __init__(self, file, protocol: int) -> None:
        super().__init__(file, protocol)
        self.storages: dict[int, tuple[np.ndarray, SavedStorage]] = {}

    def persistent_id(self, obj: Any) -> Any:
        if type(obj) is SavedStorage:
            return (_STORAGE, obj.type, obj.key, _CPU, obj.array.size)
        return None

    def storage_of(self, t: Tensor) -> SavedStorage:
        value = t.concrete
        if value is None:
            raise tracer_error("value to save (symgrad.save of a traced tensor)")
        found = self.storages.get(id(value))
        if found is None:   # (the array is kept, so that its id stays its own)
            found = self.storages[id(value)] = (value, SavedStorage(str(len(self.storages)),
                                                                    value, t.dtype))
        return found[1]

    def reducer_override(self, obj: Any) -> Any:
        kind = type(obj)
        if kind is Parameter:
            if obj.concrete is None:
                raise tracer_error("value to save (symgrad.save of a traced Parameter)")
            data = Tensor(obj.concrete, None)
            return S.rebuild_parameter, (data, obj.requires_grad, OrderedDict())
        if isinstance(obj, Tensor):
            shape = tuple(int(n) for n in obj.shape)
            return S.rebuild_tensor_v2, (self.storage_of(obj), 0, shape,
                                         contiguous_strides(shape), obj.requires_grad,
                                         OrderedDict())
        if kind is device:
            return device, (obj.type,) if obj.index is None else (obj.type, obj.index)
        if names.torch_name_of(obj) is not None:
            return "torch"    # a global (a function, a class, a dtype): see save_global
        return NotImplemented

    def save_global(self, obj: Any, name: str | None = None) -> None:
        torch_name = names.torch_name_of(obj)
        if torch_name is None:
            super().save_global(obj, name)
            return
        module, qualname = torch_name
        self.write(pickle.GLOBAL + f"{module}\n{qualname}\n".encode())
        self.memoize(obj)


def pickled(obj: Any, protocol: int = DEFAULT_PROTOCOL) -> tuple[bytes, list[SavedStorage]]:
    """``obj``'s pickle as torch writes it, and the storages its persistent ids name."""
    buffer = io.BytesIO()
    pickler = TorchPickler(buffer, protocol)
    pickler.dump(obj)
    return buffer.getvalue(), [s for _, s in pickler.storages.values()]


def write_archive(out, name: str, data: bytes, storages: list[SavedStorage],
                  byteorder_last: bool = False) -> None:
    """The archive of a pickle and its storages, into ``out`` (records in torch's order)."""
    writer = ArchiveWriter(out, name)
    writer.write_record("data.pkl", data)
    writer.write_record(".format_version", b"1")
    writer.write_record(".storage_alignment", str(ALIGNMENT).encode())
    if not byteorder_last:
        writer.write_record("byteorder", sys.byteorder.encode())
    for s in storages:
        writer.write_record(f"data/{s.key}", s.array)
    if byteorder_last:   # torch's writer adds it at the end when the caller left it out
        writer.write_record("byteorder", sys.byteorder.encode())
    writer.finish()


def _check_destination(f: Any) -> None:
    if not is_path(f) and not hasattr(f, "write"):
        raise AttributeError("expected 'f' to be string, path, or a file-like object with a "
                             "'write' attribute")
    if is_path(f):
        parent = os.path.dirname(os.path.abspath(os.fspath(f)))
        if not os.path.isdir(parent):
            raise RuntimeError(f"Parent directory {os.path.dirname(os.fspath(f))} does not "
                               "exist.")


def save(obj: object, f, pickle_module: Any = pickle, pickle_protocol: int = DEFAULT_PROTOCOL,
         _use_new_zipfile_serialization: bool = True,
         _disable_byteorder_record: bool = False) -> None:
    """``torch.save``: write ``obj`` to ``f`` (a path or a binary file-like) in torch's zip
    format, which ``torch.load`` and ``symgrad.load`` read."""
    _check_destination(f)
    if not _use_new_zipfile_serialization:
        raise NotImplementedError("symgrad.save writes torch's zip format only "
                                  "(_use_new_zipfile_serialization=True)")
    if pickle_module is not None and pickle_module is not pickle:
        raise NotImplementedError(f"symgrad.save pickles with Python's pickle module, not "
                                  f"{getattr(pickle_module, '__name__', pickle_module)}")
    name = archive_name(f)
    data, storages = pickled(obj, pickle_protocol)
    if is_path(f):
        with open(os.fspath(f), "wb") as out:
            write_archive(out, name, data, storages, _disable_byteorder_record)
        return
    out = f if seekable(f) else io.BytesIO()
    write_archive(out, name, data, storages, _disable_byteorder_record)
    if out is not f:
        f.write(out.getvalue())
    if hasattr(f, "flush"):
        f.flush()
