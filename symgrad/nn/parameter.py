"""symgrad.nn.parameter: ``Parameter``, the tensor a ``Module`` registers as learnable state.

Layer: front end (torch.nn mirror). Input: a tensor (or nothing: an empty one). Output: a
leaf tensor of class ``Parameter`` that shares the given tensor's data (its array and version
counter, as torch's shares storage) and requires grad unless told otherwise; it prints as
``Parameter containing:`` then the tensor, copies (``copy.deepcopy``) and pickles as a
Parameter. It is a ``Tensor`` in every other respect: ops take it as any tensor. It must not
hold state of its own (``__slots__`` is empty).
"""

from __future__ import annotations

import numpy as np

from ..frontend.core.tensor import Tensor, tracer_error


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
