"""The op registry. Importing this package registers every primitive (one block per op)."""

from . import (elementwise, indexing, linalg, movement, reduce, scan,  # noqa: F401  (registers)
               source)
from .registry import OPS, Builder, OpDef, ShapeError, get  # noqa: F401
