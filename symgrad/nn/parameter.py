"""symgrad.nn.parameter: ``Parameter``, the tensor a ``Module`` registers as learnable state;
``Buffer``, a tensor marked to become a buffer when assigned to a module; and the lazy
modules' ``UninitializedParameter`` / ``UninitializedBuffer`` (``is_lazy``).

Layer: front end (torch.nn mirror). Input: a tensor (or nothing: an empty one). Output: a
leaf tensor of class ``Parameter`` that shares the given tensor's data (its array and version
counter, as torch's shares storage) and requires grad unless told otherwise; it prints as
``Parameter containing:`` then the tensor, copies (``copy.deepcopy``) and pickles as a
Parameter. It is a ``Tensor`` in every other respect: ops take it as any tensor. It must not
hold state of its own (``__slots__`` is empty; a ``Buffer`` holds its ``persistent`` flag).
An uninitialized parameter or buffer is an empty placeholder until ``materialize(shape)``
gives it data of that shape (uninitialized values: the module initializes them) and turns it
into a ``Parameter`` / plain ``Tensor``, the object staying the same (optimizers holding it
keep working).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import dtypes
from ..devices import check as check_device
from ..frontend.core.grad_mode import no_grad
from ..frontend.core.tensor import Tensor, tracer_error
from ..frontend.functions.creation import empty


class Parameter(Tensor):
    """A tensor that is a module parameter: a leaf that requires grad by default."""

    __slots__ = ()

    def __init__(self, data: Tensor | None = None, requires_grad: bool = True):
        if data is None:
            data = Tensor(np.zeros((0,), np.float32), None)
        elif not isinstance(data, Tensor):
            raise TypeError(f"Parameter(): argument 'data' must be Tensor, not "
                            f"{type(data).__name__}")
        Tensor.__init__(self, data._value, data._node)
        self._vc = data._vc        # the same data: in-place changes show in both
        if requires_grad:
            self.requires_grad_(True)

    def __repr__(self) -> str:
        return "Parameter containing:\n" + Tensor.__repr__(self)

    def __deepcopy__(self, memo: dict) -> Parameter:
        if id(self) in memo:
            return memo[id(self)]
        if self._value is None:
            raise tracer_error("value to copy (deepcopy of a Parameter)")
        result = Parameter(Tensor(self._value.copy(), None), self._requires_grad)
        memo[id(self)] = result
        return result

    def __reduce__(self):
        if self._value is None:
            raise tracer_error("picklable value")
        return (_rebuild, (self._value, self._requires_grad))


def _rebuild(value: np.ndarray, requires_grad: bool) -> Parameter:
    """Unpickle a ``Parameter``."""
    return Parameter(Tensor(np.array(value), None), requires_grad)


class Buffer(Tensor):
    """``nn.Buffer(data, persistent=True)``: a tensor that, assigned to a module attribute,
    is registered as a buffer (persistent or not). It shares ``data``'s values and
    requires grad as ``data`` does."""

    __slots__ = ("persistent",)

    def __init__(self, data: Tensor | None = None, *, persistent: bool = True):
        if data is None:
            data = empty(0)
        Tensor.__init__(self, data._value, data._node)
        self._vc = data._vc
        self.persistent = persistent
        if data.requires_grad:
            self.requires_grad_(True)


def _placeholder(dtype: Any, device: Any) -> Tensor:
    check_device(device)
    dt = dtypes.as_dtype(dtype) if dtype is not None else dtypes.get_default_dtype()
    return Tensor(np.zeros((0,), dt.np), None)


def _materialize(t: Tensor, shape: Any, device: Any, dtype: Any, becomes: type) -> None:
    """Give the placeholder ``t`` data of ``shape`` (its dtype unless given) and its final
    class."""
    check_device(device)
    dt = dtypes.as_dtype(dtype) if dtype is not None else t.dtype
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    with no_grad():
        if dt is not t.dtype:             # (a placeholder holds no values to keep)
            t._value, t.dtype = np.zeros((0,), dt.np), dt
        t.data = empty(*shape, dtype=dt)
    t.__class__ = becomes


class UninitializedParameter(Parameter):
    """A parameter whose shape is not known yet (a lazy module's, until its first call)."""

    __slots__ = ()
    cls_to_become = Parameter

    def __init__(self, requires_grad: bool = True, device: Any = None, dtype: Any = None):
        Parameter.__init__(self, _placeholder(dtype, device), requires_grad)

    def materialize(self, shape: Any, device: Any = None, dtype: Any = None) -> None:
        """Become a ``Parameter`` of ``shape`` (values uninitialized)."""
        _materialize(self, shape, device, dtype, Parameter)

    def __repr__(self) -> str:
        return "<UninitializedParameter>"

    def __deepcopy__(self, memo: dict) -> UninitializedParameter:
        if id(self) not in memo:
            memo[id(self)] = UninitializedParameter(self._requires_grad, dtype=self.dtype)
        return memo[id(self)]

    def __reduce__(self):
        return (UninitializedParameter, (self._requires_grad, None, self.dtype))


class UninitializedBuffer(Tensor):
    """A buffer whose shape is not known yet (a lazy module's, until its first call)."""

    __slots__ = ()
    cls_to_become = Tensor

    def __init__(self, requires_grad: bool = False, device: Any = None, dtype: Any = None):
        Tensor.__init__(self, _placeholder(dtype, device)._value, None)
        if requires_grad:
            self.requires_grad_(True)

    def materialize(self, shape: Any, device: Any = None, dtype: Any = None) -> None:
        """Become a plain tensor of ``shape`` (values uninitialized)."""
        _materialize(self, shape, device, dtype, Tensor)

    def __repr__(self) -> str:
        return "<UninitializedBuffer>"

    def __deepcopy__(self, memo: dict) -> UninitializedBuffer:
        if id(self) not in memo:
            memo[id(self)] = UninitializedBuffer(self._requires_grad, dtype=self.dtype)
        return memo[id(self)]

    def __reduce__(self):
        return (UninitializedBuffer, (self._requires_grad, None, self.dtype))


def is_lazy(param: Any) -> bool:
    """Whether ``param`` is an uninitialized parameter or buffer."""
    return isinstance(param, (UninitializedParameter, UninitializedBuffer))
