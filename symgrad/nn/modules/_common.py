"""What the layer modules share: a new parameter's tensor from ``device``/``dtype``, the
initialization Linear and the convolutions share, and the normalizations' affine parameters.

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


def affine_parameters(module, shape: tuple, affine: bool, bias: bool, device: Any,
                      dtype: Any) -> None:
    """A normalization's ``weight`` (and ``bias`` unless not wanted) of ``shape``, or None
    for both without ``affine``, registered as torch registers them (ones and zeros: see
    ``reset_affine``)."""
    from ..parameter import Parameter
    if affine:
        module.weight = Parameter(new_empty(shape, device, dtype))
        if bias:
            module.bias = Parameter(new_empty(shape, device, dtype))
        else:
            module.register_parameter("bias", None)
    else:
        module.register_parameter("weight", None)
        module.register_parameter("bias", None)


def reset_affine(module) -> None:
    """Weight ones, bias zeros (where the module has them)."""
    if module.weight is not None:
        init.ones_(module.weight)
        if module.bias is not None:
            init.zeros_(module.bias)
