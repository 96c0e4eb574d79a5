"""torch.gather and take_along_dim: values picked along one dim by an index tensor.

Layer: front end. Input: a tensor, an index tensor (eager or traced) and a dim. Output: the
``gather`` primitive's result (0-d inputs as 1-element vectors; take_along_dim's operands
broadcast first).
"""

from __future__ import annotations

from ...ops.registry import broadcast_shapes, normalize_axes
from ..core.apply import apply
from ..core.arguments import tensor_arg
from ..core.tensor import Tensor
from .index_checks import along_index
from .shapes import broadcast_to, reshape


def gather_along(x, index, dim: int) -> Tensor:
    """torch.gather / take_along_dim: out[..i..] = x[..index[..i..]..] along ``dim``."""
    x, index = tensor_arg(x), tensor_arg(index)
    if x.ndim == 0:
        normalize_axes(dim, 0)   # torch: a 0-d x and index (dim 0 / -1) as 1-element vectors
        one = gather_along(x.reshape(1), index.reshape(1), 0)
        return apply("reshape", one, shape_to=(), _torch_name="GatherBackward0")
    (axis,) = normalize_axes(dim, x.ndim)
    return apply("gather", x, index, axis=axis)


def gather(x, dim: int, index, *, sparse_grad: bool = False) -> Tensor:
    """torch.gather(input, dim, index): ``out[..i..] = x[..index[..i..]..]`` along ``dim``."""
    return gather_along(x, along_index("gather", tensor_arg(x), tensor_arg(index), dim), dim)


def take_along_dim(x, indices, dim: int | None = None) -> Tensor:
    """torch.take_along_dim: ``indices`` broadcast against ``x`` (except along ``dim``), then
    gathered; with ``dim=None`` both are flattened."""
    x, indices = tensor_arg(x), tensor_arg(indices)
    if dim is None:
        return gather_along(reshape(x, (-1,)), reshape(indices, (-1,)), 0)
    (axis,) = normalize_axes(dim, x.ndim)
    ones = [tuple(1 if d == axis else n for d, n in enumerate(t.shape)) for t in (x, indices)]
    shape = list(broadcast_shapes(*ones))
    xs, ix = list(shape), list(shape)
    xs[axis], ix[axis] = x.shape[axis], indices.shape[axis]
    return gather_along(broadcast_to(x, xs), broadcast_to(indices, ix), axis)
