"""Transposed convolution layers: ``ConvTranspose1d``, ``ConvTranspose2d``, ``ConvTranspose3d``.

Layer: front end (torch.nn mirror). Input: channel counts, kernel size and torch's options
(stride, padding, output_padding, groups, bias, dilation, padding_mode: only 'zeros', device,
dtype); ``forward(input, output_size=None)`` as torch's (an ``output_size`` picks the
output_padding). Output: modules built on ``conv.ConvNd`` with torch's attributes, weight shape
(in, out/groups, *kernel), repr and initialization (kaiming-uniform weight, uniform bias, drawn
by ``symgrad.nn.init`` in torch's order), whose forward is ``nn.functional``'s
conv_transpose. It must not compute outside forward and initialization.
"""

from __future__ import annotations

from typing import Any

from ...frontend.core.tensor import Tensor
from .. import functional as F
from ..functional.conv_transpose import output_sizes
from .conv import ConvNd


def _ntuple(value: Any, n: int) -> tuple:
    return tuple(value) if isinstance(value, (tuple, list)) else (value,) * n


class _ConvTransposeNd(ConvNd):
    """What the transposed convolutions share: torch's argument order, the output padding
    an ``output_size`` asks for."""

    _transposed = True

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
                 padding: Any = 0, output_padding: Any = 0, groups: int = 1, bias: bool = True,
                 dilation: Any = 1, padding_mode: str = "zeros", device: Any = None,
                 dtype: Any = None) -> None:
        if padding_mode != "zeros":
            raise ValueError(f'Only "zeros" padding mode is supported for '
                             f'{type(self).__name__}')
        super().__init__(in_channels, out_channels, kernel_size, stride,
                         _ntuple(padding, self._dims), dilation, groups, bias, padding_mode,
                         device, dtype)
        self.output_padding = _ntuple(output_padding, self._dims)

    def _output_padding(self, input: Tensor, output_size: Any) -> tuple:  # noqa: A002
        """The output_padding giving ``output_size`` (the spatial sizes, or with the leading
        dims), checked against the range of sizes this input can give."""
        if output_size is None:
            return self.output_padding
        nd = self._dims
        lead = 2 if input.ndim == nd + 2 else 1
        if len(output_size) == lead + nd:
            output_size = output_size[lead:]
        if len(output_size) != nd:
            raise ValueError(f"ConvTranspose{nd}D: for {input.ndim}D input, output_size must "
                             f"have {nd} or {lead + nd} elements (got {len(output_size)})")
        spatial = tuple(input.shape[lead:])
        smallest = list(output_sizes(spatial, self.kernel_size, self.stride, self.padding,
                                     (0,) * nd, self.dilation))
        largest = [m + s - 1 for m, s in zip(smallest, self.stride)]
        if any(not lo <= size <= hi for size, lo, hi in zip(output_size, smallest, largest)):
            raise ValueError(f"requested an output size of {output_size}, but valid sizes range "
                             f"from {smallest} to {largest} (for an input of "
                             f"torch.Size({list(spatial)}))")
        return tuple(size - lo for size, lo in zip(output_size, smallest))

    def forward(self, input: Tensor, output_size: Any = None) -> Tensor:  # noqa: A002
        output_padding = self._output_padding(input, output_size)
        conv = (F.conv_transpose1d, F.conv_transpose2d, F.conv_transpose3d)[self._dims - 1]
        return conv(input, self.weight, self.bias, self.stride, self.padding, output_padding,
                    self.groups, self.dilation)


class ConvTranspose1d(_ConvTransposeNd):
    """1-D transposed convolution over (N, C_in, L) or (C_in, L); weight (C_in,
    C_out/groups, k)."""

    _dims = 1


class ConvTranspose2d(_ConvTransposeNd):
    """2-D transposed convolution over (N, C_in, H, W) or (C_in, H, W); weight (C_in,
    C_out/groups, kH, kW)."""

    _dims = 2


class ConvTranspose3d(_ConvTransposeNd):
    """3-D transposed convolution over (N, C_in, D, H, W) or (C_in, D, H, W); weight (C_in,
    C_out/groups, kD, kH, kW)."""

    _dims = 3
