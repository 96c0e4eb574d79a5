"""What the layer modules share: a new parameter's tensor from ``device``/``dtype``.

Layer: front end (torch.nn mirror). Input: a module constructor's ``device``/``dtype``
arguments and a shape. Output: an empty (zero) tensor to wrap in a Parameter.
It must not initialize values (``symgrad.nn.init`` does, as torch's ``reset_parameters``).
"""

from __future__ import annotations

from typing import Any

from ... import dtypes
from ...devices import check as check_device
from ...frontend.creation import empty
from ...frontend.tensor import Tensor


def new_empty(shape: tuple, device: Any = None, dtype: Any = None) -> Tensor:
    """A tensor of ``shape`` to be initialized (floating: the default dtype unless given)."""
    check_device(device)
    dt = dtypes.as_dtype(dtype) if dtype is not None else dtypes.get_default_dtype()
    return empty(*shape, dtype=dt)
