"""Which elements of an elementwise kernel torch's CPU build computes with its vector lambda
and which with its scalar one: the two differ at NaN in some backward kernels (the scalar
``x <= 0 ? neg : pos`` sends NaN to ``pos``, the vector ``blendv(neg, pos, x > 0)`` to
``neg``), so a rule that follows torch at NaN picks per element.

torch's ``cpu_kernel_vec`` runs whole steps of ``vectors`` vectors over a contiguous range
(64-byte vectors in the AVX-512 build, 32-byte ones in the AVX2 and default builds) and the
rest with the scalar lambda; a contiguous tensor is one range. Exact for contiguous operands
below torch's parallel grain (32768 elements: above it the threads split the range).

Layer: front end (torch-named functions' helpers). Input: the tensor the kernel runs over,
the loop's step in vectors, the vector and the scalar results. Output: the vector result
where torch's vector loop computes an element, the scalar one elsewhere (one of the two
alone when the tensor is all one kind, or when its sizes are symbols: the scalar one).
"""

from __future__ import annotations

import functools
import math

import numpy as np

from ..core.tensor import Tensor
from ..random.generator import capability
from .basic import where


@functools.lru_cache(maxsize=512)
def vector_mask(shape: tuple, itemsize: int, vectors: int, build: str):
    """True (all vector), False (all scalar) or the boolean array of vector elements."""
    n = math.prod(shape)
    step = (64 if build == "avx512" else 32) // itemsize * vectors
    cut = n - n % step
    if cut == 0:
        return False
    if cut == n:
        return True
    mask = (np.arange(n) < cut).reshape(shape)
    mask.setflags(write=False)
    return mask


def by_lanes(like: Tensor, vectors: int, vector: Tensor, scalar: Tensor) -> Tensor:
    """``vector`` where torch's vector loop over ``like`` computes, else ``scalar``."""
    shape = tuple(like.shape)
    if not all(type(s) is int for s in shape):
        return scalar
    mask = vector_mask(shape, like.dtype.np.itemsize, vectors, capability())
    if mask is True:
        return vector
    if mask is False:
        return scalar
    return where(Tensor(mask, None), vector, scalar)
