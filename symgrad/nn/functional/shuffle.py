"""Rearrangements of ``torch.nn.functional``: ``pixel_shuffle``, ``pixel_unshuffle`` and
``channel_shuffle``.

Layer: front end (torch.nn mirror). Input: tensors, eager or traced, (*, C, H, W) for the pixel
shuffles and (N, C, *) for the channel shuffle, and the factor or group count (checked with
torch's messages). Output: the same elements moved by a reshape, a permute and a reshape, as
one node named as torch's (``PixelShuffleBackward0``, ``PixelUnshuffleBackward0``,
``ChannelShuffleBackward0``) whose backward re-runs the composition. No arithmetic: values are
torch's exactly.
"""

from __future__ import annotations

from ...frontend.core.apply import as_tensor
from ...frontend.core.tensor import Tensor
from ...frontend.functions.basic import composite


def _moved(x: Tensor, name: str, split: tuple, order: tuple, joined: tuple) -> Tensor:
    """``x`` viewed as ``split``, permuted by ``order`` and viewed as ``joined``, as one
    ``name`` node."""
    return composite(name, lambda a: a.reshape(split).permute(order).reshape(joined), [x],
                     saves=False, uses_out=False)


def pixel_shuffle(input, upscale_factor: int) -> Tensor:  # noqa: A002
    """(*, C r^2, H, W) to (*, C, H r, W r): each group of r^2 channels becomes an r x r
    block of pixels."""
    x, r = as_tensor(input), int(upscale_factor)
    if x.ndim < 3:
        raise RuntimeError(f"pixel_shuffle expects input to have at least 3 dimensions, but "
                           f"got input with {x.ndim} dimension(s)")
    if r <= 0:
        raise RuntimeError(f"pixel_shuffle expects a positive upscale_factor, but got {r}")
    *lead, c, h, w = x.shape
    if c % (r * r):
        raise RuntimeError(f"pixel_shuffle expects its input's 'channel' dimension to be "
                           f"divisible by the square of upscale_factor, but input.size(-3)={c} "
                           f"is not divisible by {r * r}")
    k = len(lead)
    order = tuple(range(k)) + tuple(k + i for i in (0, 3, 1, 4, 2))
    return _moved(x, "PixelShuffleBackward0", tuple(lead) + (c // (r * r), r, r, h, w), order,
                  tuple(lead) + (c // (r * r), h * r, w * r))


def pixel_unshuffle(input, downscale_factor: int) -> Tensor:  # noqa: A002
    """(*, C, H r, W r) to (*, C r^2, H, W), the inverse of ``pixel_shuffle``."""
    x, r = as_tensor(input), int(downscale_factor)
    if x.ndim < 3:
        raise RuntimeError(f"pixel_unshuffle expects input to have at least 3 dimensions, but "
                           f"got input with {x.ndim} dimension(s)")
    if r <= 0:
        raise RuntimeError(f"pixel_unshuffle expects a positive downscale_factor, but got {r}")
    *lead, c, h, w = x.shape
    for size, what, dim in ((h, "height", -2), (w, "width", -1)):
        if size % r:
            raise RuntimeError(f"pixel_unshuffle expects {what} to be divisible by "
                               f"downscale_factor, but input.size({dim})={size} is not "
                               f"divisible by {r}")
    k = len(lead)
    order = tuple(range(k)) + tuple(k + i for i in (0, 2, 4, 1, 3))
    return _moved(x, "PixelUnshuffleBackward0", tuple(lead) + (c, h // r, r, w // r, r), order,
                  tuple(lead) + (c * r * r, h // r, w // r))


def channel_shuffle(input, groups: int) -> Tensor:  # noqa: A002
    """(N, C, *) with its channels, seen as (groups, C / groups), transposed: channel
    g * (C / groups) + i goes to i * groups + g."""
    x, g = as_tensor(input), int(groups)
    if x.ndim <= 2:
        raise RuntimeError(f"channel_shuffle expects input with > 2 dims, but got input with "
                           f"sizes {list(x.shape)}")
    if g <= 0:
        raise RuntimeError(f"Number of groups to divide channels in must be positive. Value of "
                           f"groups:{g}")
    n, c, *rest = x.shape
    if c % g:
        raise RuntimeError(f"Number of channels must be divisible by groups. Got {c} channels "
                           f"and {g} groups.")
    order = (0, 2, 1) + tuple(range(3, x.ndim + 1))
    return _moved(x, "ChannelShuffleBackward0", (n, g, c // g) + tuple(rest), order,
                  tuple(x.shape))
