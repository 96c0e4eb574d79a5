"""The op registry. Importing this package registers every primitive (one block per op)."""

from . import (decomp, elementwise, indexing, linalg, movement, pointwise, reduce,  # noqa: F401
               scan, sorting, source)   # (importing registers)
from .registry import OPS, Builder, OpDef, ShapeError, get  # noqa: F401
