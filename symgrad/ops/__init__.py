"""The op registry. Importing this package registers every primitive (one block per op)."""

from . import (control, decomp, elementwise, indexing, linalg, movement,  # noqa: F401
               pointwise, reduce, scan, sorting, source)   # (importing registers)
from .registry import OPS, Builder, OpDef, ShapeError, get  # noqa: F401
