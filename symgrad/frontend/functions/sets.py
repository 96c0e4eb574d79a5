"""torch's membership and combination functions: ``isin`` and ``combinations``.

Layer: front end (functions). Input: ``isin``: elements and test elements (tensors, or one
of them a Python number), ``invert``; ``combinations``: a 1-d tensor, ``r`` and
``with_replacement``. Output: ``isin``: a bool tensor shaped as the elements, whether each
equals some test element (after type promotion; NaN is in nothing), bool and complex
operands refused as torch's; ``combinations``: the ``r``-element combinations of the
elements in lexicographic order of their positions, one per row, stacked from gathers of the
input (``StackBackward0``, differentiable).
"""

from __future__ import annotations

import itertools

from ... import dtypes
from ..core.apply import apply, as_tensor
from ..core.tensor import Tensor
from . import basic as F
from .creation import empty
from .shapes import reshape, stack, unsqueeze

_NUMBER = (int, float, bool)


def isin(elements, test_elements, *, assume_unique: bool = False,
         invert: bool = False) -> Tensor:
    """Whether each element is one of the test elements (``invert``: is none of them)."""
    if not isinstance(elements, Tensor) and not isinstance(test_elements, Tensor):
        raise TypeError(f"isin() received an invalid combination of arguments - got "
                        f"({type(elements).__name__}, {type(test_elements).__name__}), but "
                        f"expected (Tensor elements, Tensor test_elements) or a Number for "
                        f"one of them")
    for x in (elements, test_elements):
        if isinstance(x, Tensor) and (x.dtype.is_bool or x.dtype.is_complex):
            raise RuntimeError(f"Unsupported input type encountered for isin(): "
                               f"{x.dtype.scalar_type}")
        if not isinstance(x, (Tensor, *_NUMBER)):
            raise TypeError(f"isin(): argument 'elements' must be Tensor, not "
                            f"{type(x).__name__}")
    e = elements if isinstance(elements, Tensor) else as_tensor(elements)
    tests = reshape(test_elements, (-1,)) if isinstance(test_elements, Tensor) \
        else as_tensor([test_elements])
    found = F.gt(F.sum(F.eq(unsqueeze(e, -1), tests).to(dtypes.int64), -1), 0)
    return F.logical_not(found) if invert else found


def combinations(input, r: int = 2, with_replacement: bool = False) -> Tensor:  # noqa: A002
    """The ``r``-combinations of a 1-d tensor's elements (with repeats if
    ``with_replacement``), one per row."""
    x = input
    if x.ndim != 1:
        raise RuntimeError(f"Expect a 1D vector, but got shape {list(x.shape)}")
    if r < 0:
        raise RuntimeError(f"Expect a non-negative number, but got {r}")
    if r == 0:
        return empty(0, dtype=x.dtype)
    pick = itertools.combinations_with_replacement if with_replacement \
        else itertools.combinations
    rows = list(pick(range(x.shape[0]), r))
    columns = [as_tensor([row[c] for row in rows], dtypes.int64) for c in range(r)]
    return stack([apply("gather", x, col, axis=0) for col in columns], 1)


__all__ = ["isin", "combinations"]
