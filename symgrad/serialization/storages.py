"""Storages, and tensors rebuilt from them, as torch's checkpoint files describe them.

Layer: front end (the torch.serialization mirror). Input: a storage's flat array (one dtype,
read from an archive's ``data/<key>`` record) and the arguments a pickle passes to torch's
rebuild functions (``torch._utils._rebuild_tensor_v2(storage, offset, size, stride,
requires_grad, hooks)``...: a tensor is a window of a storage, offset and strides in
elements). Output: ``Storage`` and ``StorageType`` (torch's ``FloatStorage``... names of
storage dtypes), the rebuild functions (symgrad tensors and Parameters with the window's
values), and stubs for the rebuild functions of what symgrad has no tensors for (sparse,
quantized, meta...), which raise a RuntimeError naming it. Windows are checked against their
storage's bounds. symgrad has no shared storage: the first tensor that is its whole storage in
row-major order takes the array, every other window of it is a copy.
"""

from __future__ import annotations

import math
import operator
import warnings
from typing import Any

import numpy as np
from numpy.lib.stride_tricks import as_strided

from .. import dtypes
from ..frontend.core.tensor import Tensor
from ..nn.parameter import Parameter

# torch's legacy storage class names and the dtypes they hold; None: no symgrad dtype.
STORAGE_DTYPES = {
    "DoubleStorage": "float64", "FloatStorage": "float32", "HalfStorage": "float16",
    "LongStorage": "int64", "IntStorage": "int32", "ShortStorage": "int16",
    "CharStorage": "int8", "ByteStorage": "uint8", "BoolStorage": "bool",
    "BFloat16Storage": "bfloat16", "ComplexDoubleStorage": "complex128",
    "ComplexFloatStorage": "complex64", "QInt8Storage": "qint8", "QInt32Storage": "qint32",
    "QUInt8Storage": "quint8", "QUInt4x2Storage": "quint4x2", "QUInt2x4Storage": "quint2x4",
}


def symgrad_dtype(torch_name: str) -> dtypes.DType:
    """symgrad's dtype of torch's dtype name; a TypeError for one symgrad does not have."""
    try:
        return dtypes.from_name(torch_name)
    except KeyError:
        raise TypeError(f"symgrad cannot load a tensor of dtype torch.{torch_name}: symgrad has "
                        "float32, float64, float16, int64, int32, int16, int8, uint8 and bool "
                        "(convert it in torch first, e.g. with .float())") from None


class StorageType:
    """One of torch's storage classes (``torch.FloatStorage``) as a file names it: the dtype
    of a storage's elements (``UntypedStorage``: bytes)."""

    def __init__(self, name: str, dtype_name: str) -> None:
        self.name, self.dtype_name = name, dtype_name

    @property
    def dtype(self) -> dtypes.DType:
        return symgrad_dtype(self.dtype_name)

    def __repr__(self) -> str:
        return f"torch.{self.name}"


STORAGE_TYPES = {name: StorageType(name, d) for name, d in STORAGE_DTYPES.items()}
UNTYPED = StorageType("UntypedStorage", "uint8")
TYPE_OF_DTYPE = {STORAGE_TYPES[n].dtype_name: STORAGE_TYPES[n] for n in STORAGE_DTYPES}


class Storage:
    """A loaded storage: a flat array of one dtype on the CPU (torch's ``TypedStorage``)."""

    __slots__ = ("array", "dtype", "device", "taken")

    def __init__(self, array: np.ndarray, dtype: dtypes.DType, device: str = "cpu") -> None:
        self.array, self.dtype, self.device = array, dtype, device
        self.taken = False   # a tensor holds ``array`` itself (the others copy)

    def size(self) -> int:
        return self.array.size

    __len__ = size

    def nbytes(self) -> int:
        return self.array.nbytes

    def element_size(self) -> int:
        return self.array.itemsize

    def cpu(self) -> Storage:
        return self

    def __repr__(self) -> str:
        return f"Storage(dtype=torch.{self.dtype.name}, size={self.size()}, device={self.device})"


def _as_ints(what: str, values: Any) -> tuple[int, ...]:
    try:
        return tuple(operator.index(v) for v in values)
    except TypeError:
        raise TypeError(f"a tensor's {what} must be integers, got {values!r}") from None


def _checked_window(flat: np.ndarray, offset: int, size: tuple, stride: tuple) -> None:
    """torch's checks of a window on a storage (``set_``): no negative sizes, strides or
    offset, and every element within the storage."""
    if offset < 0:
        raise RuntimeError(f"Tensor: invalid storage offset {offset}")
    if len(size) != len(stride):
        raise RuntimeError(f"mismatch in length of strides and shape: {len(stride)} strides "
                           f"for {len(size)} sizes")
    if any(n < 0 for n in size):
        raise RuntimeError(f"Trying to create tensor with negative dimension "
                           f"{min(size)}: {list(size)}")
    if any(s < 0 for s in stride):
        raise RuntimeError(f"Storage size calculation overflowed with sizes={list(size)} and "
                           f"strides={list(stride)}")
    if 0 in size:
        return
    need = offset + sum((n - 1) * s for n, s in zip(size, stride)) + 1
    if need > flat.size:
        raise RuntimeError(
            f"setStorage: sizes {list(size)}, strides {list(stride)}, storage offset {offset}, "
            f"and itemsize {flat.itemsize} requiring a storage size of {need * flat.itemsize} "
            f"are out of bounds for storage of size {flat.nbytes}")


def _row_major(size: tuple, stride: tuple) -> bool:
    expected = 1
    for n, s in zip(reversed(size), reversed(stride)):
        if n != 1 and s != expected:
            return False
        expected *= n
    return True


def window(storage: Storage, flat: np.ndarray, offset: Any, size: Any, stride: Any) -> np.ndarray:
    """The values of the window ``(offset, size, stride)`` of ``flat`` (the storage's array,
    or a reinterpretation of its bytes) as an array of the tensor's own."""
    offset = _as_ints("storage offset", (offset,))[0]
    size, stride = _as_ints("size", size), _as_ints("stride", stride)
    _checked_window(flat, offset, size, stride)
    if 0 in size:
        return np.empty(size, flat.dtype)
    whole = offset == 0 and math.prod(size) == flat.size and _row_major(size, stride)
    if whole and not storage.taken and flat.flags.writeable:
        storage.taken = True
        return flat.reshape(size)
    view = as_strided(flat[offset:], size, [s * flat.itemsize for s in stride],
                      writeable=False)
    return np.array(view, copy=True)


def _storage(storage: Any) -> Storage:
    if not isinstance(storage, Storage):
        raise TypeError(f"expected a storage to rebuild a tensor from, got "
                        f"{type(storage).__name__}")
    return storage


def _with_metadata(array: np.ndarray, metadata: Any) -> np.ndarray:
    """torch's tensor metadata: the ``neg`` bit (a lazily negated view) is applied; ``conj``
    means nothing for real dtypes."""
    if metadata and metadata.get("neg"):
        return np.negative(array)
    return array


def _leaf(array: np.ndarray, requires_grad: Any) -> Tensor:
    t = Tensor(array, None)
    if requires_grad:
        t.requires_grad_(True)
    return t


def rebuild_tensor(storage, storage_offset, size, stride) -> Tensor:
    """``torch._utils._rebuild_tensor``: the window of a typed storage."""
    storage = _storage(storage)
    return Tensor(window(storage, storage.array, storage_offset, size, stride), None)


def rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad, backward_hooks,
                      metadata=None) -> Tensor:
    """``torch._utils._rebuild_tensor_v2``: a window of a typed storage, a leaf that requires
    grad if it did (hooks are never saved: torch writes an empty OrderedDict)."""
    storage = _storage(storage)
    array = window(storage, storage.array, storage_offset, size, stride)
    return _leaf(_with_metadata(array, metadata), requires_grad)


def rebuild_tensor_v3(storage, storage_offset, size, stride, requires_grad, backward_hooks,
                      dtype, metadata=None) -> Tensor:
    """``torch._utils._rebuild_tensor_v3``: a window of an untyped (byte) storage read as
    ``dtype`` (offset and strides in elements of ``dtype``)."""
    storage = _storage(storage)
    if not isinstance(dtype, dtypes.DType):
        raise TypeError(f"_rebuild_tensor_v3: expected a dtype, got {dtype!r}")
    raw = storage.array.reshape(-1).view(np.uint8)
    if raw.nbytes % dtype.itemsize:
        raise RuntimeError(f"a storage of {raw.nbytes} bytes cannot hold elements of "
                           f"torch.{dtype.name} ({dtype.itemsize} bytes each)")
    array = window(storage, raw.view(dtype.np), storage_offset, size, stride)
    return _leaf(_with_metadata(array, metadata), requires_grad)


def _drop_state(state: Any) -> None:
    """A tensor's Python attributes (torch's ``__dict__`` of a tensor or Parameter): symgrad's
    tensors hold none, so they are dropped, with a warning that names them."""
    if isinstance(state, tuple) and len(state) == 2:
        names = list(state[0] or ()) + list(state[1] or ())
    else:
        names = list(state or ())
    if names:
        warnings.warn(f"symgrad tensors hold no Python attributes: dropped {names} of a loaded "
                      "tensor", UserWarning, stacklevel=3)


def rebuild_parameter(data, requires_grad, backward_hooks) -> Parameter:
    """``torch._utils._rebuild_parameter``: ``nn.Parameter(data, requires_grad)``."""
    return Parameter(data, requires_grad)


def rebuild_parameter_with_state(data, requires_grad, backward_hooks, state) -> Parameter:
    """``torch._utils._rebuild_parameter_with_state``: a Parameter that had attributes."""
    _drop_state(state)
    return Parameter(data, requires_grad)


def rebuild_from_type_v2(func, new_type, args, state) -> Tensor:
    """``torch._tensor._rebuild_from_type_v2``: a tensor with attributes, or of a subclass
    (only ``Tensor`` and ``Parameter`` exist in symgrad)."""
    result = func(*args)
    if new_type is Parameter and not isinstance(result, Parameter):
        result = Parameter(result, result.requires_grad)
    elif new_type not in (Tensor, Parameter):
        raise RuntimeError(f"symgrad cannot load a tensor of class {new_type!r}: it has "
                           "Tensor and nn.Parameter only")
    _drop_state(state)
    return result


class Unsupported:
    """A name torch's files may hold that symgrad cannot load (a sparse tensor's rebuild
    function, a dtype it does not have...): using it raises a RuntimeError saying so."""

    def __init__(self, torch_name: str, what: str) -> None:
        self.torch_name, self.what = torch_name, what

    def error(self) -> RuntimeError:
        return RuntimeError(f"symgrad cannot load {self.what} (the file uses "
                            f"{self.torch_name})")

    def __call__(self, *args, **kwargs):
        raise self.error()

    def __repr__(self) -> str:
        return f"<{self.torch_name}: not supported by symgrad>"
