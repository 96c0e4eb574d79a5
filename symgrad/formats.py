"""torch's memory formats and layouts, as the names programs pass: symgrad's values are the
same in every format; what torch reports of a layout (strides, contiguity) is modelled as
metadata (``frontend/core/layout.py``, ``frontend/functions/strided.py``).

Layer: base (imports nothing of symgrad). Output: ``memory_format`` objects
(``contiguous_format``, ``channels_last``, ``channels_last_3d``, ``preserve_format``) for
``.to(memory_format=...)`` and ``.contiguous(memory_format=...)``, and ``layout`` objects
(``strided``, the layout of every symgrad tensor, and ``sparse_coo``), printed as torch
prints them (``torch.channels_last``).
"""

from __future__ import annotations


class _Named:
    """A singleton named as torch names it (``torch.channels_last``), pickled by name."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"torch.{self.name}"

    def __reduce__(self):
        return (_named, (self.name,))


class memory_format(_Named):  # noqa: N801  (torch's name)
    __slots__ = ()


class layout(_Named):  # noqa: N801  (torch's name)
    __slots__ = ()


contiguous_format = memory_format("contiguous_format")
channels_last = memory_format("channels_last")
channels_last_3d = memory_format("channels_last_3d")
preserve_format = memory_format("preserve_format")
strided = layout("strided")
sparse_coo = layout("sparse_coo")

_ALL = {x.name: x for x in (contiguous_format, channels_last, channels_last_3d,
                            preserve_format, strided, sparse_coo)}


def _named(name: str):
    return _ALL[name]
