"""``Size``: a tensor's shape, a tuple of ints that prints as torch's ``torch.Size([2, 3])``.

Layer: base (imports nothing of symgrad). A ``Size`` is a ``tuple``: it compares, hashes and
unpacks like one (``x.shape == (2, 3)``); adding a tuple to it gives a ``Size``, and
``numel()`` is the product of its entries, as in torch. One difference: a slice of it
(``x.shape[1:]``) is a plain tuple. Indexing a shape is on every op's path, and a Python-level
``__getitem__`` that returned a ``Size`` for slices made every ``shape[i]`` several times
slower (measured: the eager 1000-op chain spent 7% of its time there). Graph nodes keep plain
tuples; the front end hands users ``Size`` objects.
"""

from __future__ import annotations

import math


class Size(tuple):
    """``torch.Size``: the shape of a tensor."""

    __slots__ = ()

    def __new__(cls, sizes=()):
        return tuple.__new__(cls, sizes)

    def numel(self) -> int:
        return math.prod(self)

    def __add__(self, other):
        return Size(tuple.__add__(self, tuple(other)))

    def __repr__(self) -> str:
        return f"torch.Size([{', '.join(map(str, self))}])"

    __str__ = __repr__

    def __reduce__(self):
        return (Size, (tuple(self),))


def as_size(shape) -> Size:
    """``shape`` as a ``Size`` (itself, if it is one)."""
    return shape if type(shape) is Size else tuple.__new__(Size, shape)


def contiguous_strides(shape: tuple) -> tuple:
    """Row-major strides of ``shape``, as torch computes them (an empty dim counts as size
    1); sizes may be call-time ``dims.Dim``s."""
    strides, step = [], 1
    for n in reversed(shape):
        strides.append(step)
        step *= max(n, 1)
    return tuple(reversed(strides))


def array_strides(shape: tuple, byte_strides: tuple, itemsize: int, copied: bool):
    """torch's strides for a tensor made from a NumPy array of ``shape`` and ``byte_strides``
    (None: row-major). ``from_numpy`` shares the array's memory: its strides, in elements.
    ``tensor(array)`` copies it as torch's ``to(copy=True)`` does, keeping the layout of an
    array whose elements are dense and do not overlap (a transposed array stays transposed;
    an empty one keeps NumPy's strides, which are zeros), row-major otherwise."""
    strides = tuple(s // itemsize for s in byte_strides)
    if strides == contiguous_strides(shape):
        return None
    if copied and math.prod(shape):
        need = 1
        for s, n in sorted((s, n) for n, s in zip(shape, strides) if n > 1):
            if s != need:
                return None
            need *= n
    return strides
