"""What the layer modules share: a new parameter's tensor from ``device``/``dtype``, and the
initialization Linear and the convolutions share.

Layer: front end (torch.nn mirror). Input: a module constructor's ``device``/``dtype``
arguments and a shape; parameters to initialize. Output: an empty (zero) tensor to wrap in a
Parameter; parameters initialized in place through ``symgrad.nn.init``, in torch's order.
"""

from __future__ import annotations

import math
from typing import Any

from ... import dtypes
from ...devices import check as check_device
from ...frontend.functions.creation import empty
from ...frontend.core.tensor import Tensor
from .. import init


def new_empty(shape: tuple, device: Any = None, dtype: Any = None) -> Tensor:
    """A tensor of ``shape`` to be initialized (floating: the default dtype unless given)."""
    check_device(device)
    dt = dtypes.as_dtype(dtype) if dtype is not None else dtypes.get_default_dtype()
    return empty(*shape, dtype=dt)


def kaiming_reset(weight: Tensor, bias: Tensor | None) -> None:
    """torch's ``reset_parameters`` of Linear and ConvNd: a Kaiming-uniform weight (a =
    sqrt(5)), then the bias uniform in +-1/sqrt(fan_in) (the same random draws as torch)."""
    init.kaiming_uniform_(weight, a=math.sqrt(5))
    if bias is not None:
        fan, _ = init._calculate_fan_in_and_fan_out(weight)
        bound = 1 / math.sqrt(fan) if fan > 0 else 0
        init.uniform_(bias, -bound, bound)
