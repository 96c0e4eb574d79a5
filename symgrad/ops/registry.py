"""The op registry: one ``OpDef`` per primitive holds everything about it.

Input: op definitions (from the sibling modules). Output: ``OPS`` (name -> OpDef), ``bind`` and
the shape/dtype helpers the definitions share. It must not import the front end (tensor.py):
VJP rules receive tensors and build new ones with operators and ``bind``, which the front end
plugs in at import time. That is what makes a VJP rule build graph nodes, never numbers, and
what makes the adjoint differentiable again.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable

from ..dtypes import DType, bool_

# Op kinds, which lowering dispatches on.
ELEMENTWISE = "elementwise"   # output[i] = f(inputs broadcast at i); has a SymPy expression
REDUCE = "reduce"             # reduces axes (kept as size-1 dims)
MOVEMENT = "movement"         # reshape, permute, expand, slice: a view or a copy
SOURCE = "source"             # input, const
OTHER = "other"               # matmul, cat, gather, scatter_add, argmax, pad, ...


class ShapeError(ValueError):
    """An op was given shapes it cannot combine; the message names both."""


@dataclass(frozen=True)
class OpDef:
    name: str
    kind: str
    shape: Callable[..., tuple]            # (input shapes..., **attrs) -> output shape
    dtype: Callable[..., DType]            # (input dtypes..., **attrs) -> output dtype
    numpy: Callable[..., Any]              # (input arrays..., **attrs) -> output array
    vjp: Callable[..., tuple] | None = None  # (g, out, inputs, **attrs) -> cotangent per input
    expr: Any = None                       # SymPy expression (elementwise only)
    symbols: tuple = ()                    # the expression's symbols, one per input
    torch_name: str = ""                   # grad_fn class name, e.g. "MulBackward0"
    saves: bool = True                     # whether the VJP reads the saved inputs
    uses_out: bool = False                 # whether the VJP reads the op's output
    doc: str = ""
    meta: dict = field(default_factory=dict)


OPS: dict[str, OpDef] = {}


def register(op: OpDef) -> OpDef:
    if op.name in OPS:
        raise ValueError(f"op {op.name!r} registered twice")
    OPS[op.name] = op
    return op


def get(name: str) -> OpDef:
    try:
        return OPS[name]
    except KeyError:
        raise KeyError(f"unknown op {name!r}") from None


# ------------------------------------------------------------------ the front end's hook

_binder: Callable[..., Any] | None = None


def set_binder(fn: Callable[..., Any]) -> None:
    """The front end registers how an op is applied to its tensors (eager or traced)."""
    global _binder
    _binder = fn


def bind(name: str, *inputs: Any, **attrs: Any) -> Any:
    """Apply op ``name`` to tensors: how VJP rules build graph nodes."""
    assert _binder is not None, "symgrad.tensor was not imported"
    return _binder(name, *inputs, **attrs)


# ------------------------------------------------------------------ shared rules

def broadcast_shapes(*shapes: tuple) -> tuple:
    """NumPy/torch broadcasting, with an error that shows every shape."""
    ndim = max((len(s) for s in shapes), default=0)
    out = []
    for axis in range(-ndim, 0):
        sizes = {s[axis] for s in shapes if len(s) >= -axis} - {1}
        if len(sizes) > 1:
            shown = " and ".join(str(tuple(s)) for s in shapes)
            raise ShapeError(f"shapes {shown} cannot be broadcast together "
                             f"(dimension {axis} has sizes {sorted(sizes)})")
        out.append(sizes.pop() if sizes else 1)
    return tuple(out)


def same_dtype(*dtypes: DType, **_: Any) -> DType:
    first = dtypes[0]
    for d in dtypes[1:]:
        if d is not first:
            raise TypeError(f"op inputs must share a dtype, got {first.name} and {d.name}")
    return first


def float_dtype(*dtypes: DType, **_: Any) -> DType:
    d = same_dtype(*dtypes)
    if not d.is_floating:
        raise TypeError(f"expected a floating dtype, got {d.name}")
    return d


def bool_dtype(*dtypes: DType, **_: Any) -> DType:
    same_dtype(*dtypes)
    return bool_


def normalize_axes(axes: Any, ndim: int, what: str = "dim") -> tuple[int, ...]:
    """Turn an int, a sequence or None into sorted non-negative axes; IndexError names the dim."""
    if axes is None:
        return tuple(range(ndim))
    if isinstance(axes, int):
        axes = (axes,)
    out = set()
    for a in axes:
        lim = max(ndim, 1)
        if not -lim <= a < lim:
            raise IndexError(f"{what} {a} is out of range for a tensor of {ndim} dimensions "
                             f"(expected to be in range [{-lim}, {lim - 1}])")
        # torch accepts dim 0 / -1 on a 0-d tensor, but it has no axis to name: reducing
        # over "dim 0" of a 0-d tensor reduces over nothing.
        if ndim:
            out.add(a % lim)
    return tuple(sorted(out))


def nonempty_axes(name: str, shape: tuple, axes) -> None:
    """An extremum (or its index) of no elements is undefined: ShapeError naming the op, the
    dim and the shape (torch raises too), rather than -inf or index 0 from C."""
    for a in axes:
        if shape[a] == 0:
            raise ShapeError(f"{name}(): expected reduction dim {a} to have non-zero size "
                             f"(input shape {tuple(shape)})")


def numel(shape: tuple) -> int:
    return math.prod(shape)
