"""torch's legacy tensor types: ``torch.FloatTensor(...)``, ``x.type(torch.LongTensor)``,
``isinstance(x, torch.FloatTensor)``, ``x.type()``, ``torch.typename``.

Layer: front end, beside ``creation``. Input: what old scripts pass to ``FloatTensor``,
``DoubleTensor``, ``LongTensor``, ``IntTensor``, ``ShortTensor``, ``CharTensor``,
``ByteTensor``, ``BoolTensor``, ``HalfTensor``: nothing (an empty tensor), sizes (a new
tensor: uninitialized in torch, zeros here), data (lists, arrays: copied and converted as
torch converts, truncating floats to integers and wrapping into unsigned bytes) or a tensor
of the same dtype (returned as an alias, AliasBackward0; ``x.new(t)`` too). Output: tensors of
the type's dtype. A type is an instance check by dtype (``isinstance(torch.ones(2),
torch.FloatTensor)`` is True, as in torch) and names itself as torch does (``x.type()`` is
``'torch.FloatTensor'``).
"""

from __future__ import annotations

import numpy as np

from ... import dtypes
from ...devices import device
from ...formats import layout, memory_format
from ...size import Size
from ..core.backward_graph import BackwardFunction
from ..core.apply import apply
from ..core.conversions import check_fits
from ..core.tensor import Tensor
from .creation import empty, new, zeros
from .torch_nodes import named_view

# dtype name -> (the type's name, the dtype as torch's C++ spells it in its messages)
_NAMES = {"float32": ("FloatTensor", "float"), "float64": ("DoubleTensor", "double"),
          "int64": ("LongTensor", "long int"), "int32": ("IntTensor", "int"),
          "int16": ("ShortTensor", "short int"), "int8": ("CharTensor", "signed char"),
          "uint8": ("ByteTensor", "unsigned char"), "bool": ("BoolTensor", "bool"),
          "float16": ("HalfTensor", "c10::Half")}


class LegacyTensorType(type):
    """The class of ``torch.FloatTensor`` and its siblings: instances are the tensors of its
    dtype; calling it makes one."""

    dtype: dtypes.DType

    def __instancecheck__(cls, obj) -> bool:
        return isinstance(obj, Tensor) and obj.dtype is cls.dtype

    def __repr__(cls) -> str:
        return f"<class 'torch.{cls.__name__}'>"

    def __call__(cls, *args, device=None, **kwargs) -> Tensor:
        if kwargs:
            raise TypeError(f"new() received an invalid combination of arguments - got "
                            f"unexpected keyword arguments {sorted(kwargs)}")
        return _new(cls.dtype, args)


def _options(dtype: dtypes.DType) -> str:
    return (f"TensorOptions(dtype={_NAMES[dtype.name][1]}, device=cpu, layout=Strided, "
            f"requires_grad=false (default), pinned_memory=false (default), "
            f"memory_format=(nullopt))")


def _sizes(args: tuple) -> tuple | None:
    """The sizes ``args`` give (``FloatTensor(2, 3)``, ``FloatTensor(torch.Size([2]))``)."""
    if len(args) == 1 and type(args[0]) is Size:
        args = tuple(args[0])
    if args and all(isinstance(a, (int, np.integer)) and not isinstance(a, bool) for a in args):
        for a in args:
            if a < 0:
                raise RuntimeError(f"Trying to create tensor with negative dimension {a}: "
                                   f"{list(args)}")
        return tuple(int(a) for a in args)
    if len(args) > 1:
        bad = next(k for k, a in enumerate(args) if not isinstance(a, (int, np.integer)))
        raise TypeError(f"new(): argument 'size' failed to unpack the object at pos {bad + 1} "
                        f"with error \"type must be tuple of ints,but got "
                        f"{type(args[bad]).__name__}\"")
    return None


def _new(dtype: dtypes.DType, args: tuple) -> Tensor:
    if not args:
        return empty((0,), dtype=dtype)
    sizes = _sizes(args)
    if sizes is not None:
        return zeros(sizes, dtype=dtype)
    data = args[0]
    if isinstance(data, Tensor):
        if data.dtype is not dtype:
            raise TypeError(f"expected {_options(dtype)} (got {_options(data.dtype)})")
        return named_view("AliasBackward0", lambda v: v, data)   # torch: data.alias()
    if not isinstance(data, (list, tuple, range, np.ndarray)):
        raise TypeError(f"new(): data must be a sequence (got {type(data).__module__}."
                        f"{type(data).__name__})".replace("(got builtins.", "(got "))
    values = np.array(data)
    if not isinstance(data, np.ndarray):
        check_fits(values, dtype, dtype.name)
    with np.errstate(all="ignore"):
        return Tensor(values.astype(dtype.np), None)


def _make(name: str, dtype: dtypes.DType) -> LegacyTensorType:
    return LegacyTensorType(name, (), {"dtype": dtype, "__module__": "torch",
                                       "__doc__": f"torch.{name}: tensors of {dtype}."})


TYPES = {name: _make(name, dtypes.from_name(d)) for d, (name, _) in _NAMES.items()}


def type_name(t: Tensor) -> str:
    return "torch." + _NAMES[t.dtype.name][0]


def tensor_type(self: Tensor, dtype=None, non_blocking: bool = False, **_):
    """``x.type()`` names the tensor type (``'torch.FloatTensor'``); ``x.type(dtype)``,
    ``x.type(torch.LongTensor)`` or ``x.type('torch.LongTensor')`` casts."""
    if dtype is None:
        return type_name(self)
    if isinstance(dtype, str):
        found = TYPES.get(dtype.removeprefix("torch."))
        if found is None or not dtype.startswith("torch."):
            raise ValueError(f"invalid type: '{dtype}'")
        dtype = found
    if isinstance(dtype, LegacyTensorType):
        dtype = dtype.dtype
    dtype = dtypes.as_dtype(dtype)
    return self if self.dtype is dtype else apply("cast", self, dtype=dtype)


# symgrad's classes that torch defines in its own namespace (C types named ``torch.dtype``...)
_TORCH_TYPES = {dtypes.DType: "dtype", device: "device", Size: "Size", dtypes.finfo: "finfo",
                dtypes.iinfo: "iinfo", layout: "layout", memory_format: "memory_format",
                Tensor: "Tensor"}


def typename(obj) -> str:
    """``torch.typename``: a tensor's type name, else the object's qualified class name as
    torch names its own: a type of torch's namespace is ``torch.dtype``..., a grad_fn class
    its bare name (torch's are C types), another symgrad module ``torch.`` and its path."""
    if isinstance(obj, Tensor):
        return type_name(obj)
    cls = obj if isinstance(obj, type) else type(obj)
    if cls in _TORCH_TYPES:
        return f"torch.{_TORCH_TYPES[cls]}"
    if isinstance(obj, BackwardFunction) or isinstance(obj, type) and \
            issubclass(obj, BackwardFunction):
        return cls.__qualname__
    qualname = getattr(obj, "__qualname__", None) or type(obj).__qualname__
    module = getattr(obj, "__module__", None) if hasattr(obj, "__qualname__") else \
        type(obj).__module__
    if module and module.split(".")[0] == "symgrad":
        module = "torch" + module[len("symgrad"):]
    return qualname if module in (None, "", "builtins") else f"{module}.{qualname}"


def tensor_new(self: Tensor, *args, **kwargs) -> Tensor:
    """``x.new(...)``, the legacy constructor of ``x``'s type, as ``torch.DoubleTensor(...)``:
    a tensor argument (of that type) gives an alias of it, a tuple is data (sizes are ints or
    a ``Size``); with keywords, ``creation.new``."""
    if not kwargs:
        return _new(self.dtype, args)
    return new(self, *args, **kwargs)


METHODS = {"type": tensor_type, "new": tensor_new}

FloatTensor, DoubleTensor, LongTensor = TYPES["FloatTensor"], TYPES["DoubleTensor"], \
    TYPES["LongTensor"]
IntTensor, ShortTensor, CharTensor = TYPES["IntTensor"], TYPES["ShortTensor"], \
    TYPES["CharTensor"]
ByteTensor, BoolTensor, HalfTensor = TYPES["ByteTensor"], TYPES["BoolTensor"], \
    TYPES["HalfTensor"]

__all__ = ["FloatTensor", "DoubleTensor", "LongTensor", "IntTensor", "ShortTensor",
           "CharTensor", "ByteTensor", "BoolTensor", "HalfTensor", "typename"]
