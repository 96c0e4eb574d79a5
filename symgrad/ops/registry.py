"""The op registry: one ``OpDef`` per primitive holds everything about it.

Layer: ops, above the base (dtypes, errors) and below everything else; it knows no graph, no
tensor and no C. Input: op definitions (from the sibling modules). Output: ``OPS`` (name ->
OpDef), ``get``, the ``Builder`` interface VJP rules build with, and the shape/dtype helpers the
definitions share.

VJP rules build graph values, never numbers. A rule is ``vjp(b, g, out, inputs, **attrs)``
returning one cotangent per input (None: no gradient); ``b`` is a ``Builder``, the interface
this layer owns and the front end implements for its tensors, eager or traced. A rule applies
ops with ``b.op(name, ...)`` and ordinary operators on the values it is given (``g * x``), so
the adjoint it builds is an ordinary graph, differentiable again. Cotangents have the output's
shape: the front end's autograd engine sums them back over broadcast dimensions, once.

An op's properties are fields here, never tests of its name elsewhere: ``promotion`` says how
the front end brings an elementwise op's operands to one dtype, ``view`` that lowering shows the
result as a view of input 0 (no kernel, no memory of its own), ``scalar`` gives an elementwise
op's SymPy expression (built on demand: importing symgrad must not import SymPy), ``batch``
its batching rule (``batching``: how ``vmap`` applies it to a batch at once).

Every rule of an op is found from its definition by one lookup, ``rule(op, transform)``: a
field (``vjp``, ``batch``) or, for rules written above this layer on tensors (a loop's VJP
builds another loop with the front end's tracing; vmap replays a loop on a batch), a
``tensor_rules`` entry naming the function as ``"module:function"``, imported when first used.
No module fills a table of another when it is imported.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import math
from dataclasses import dataclass
from typing import Any, Protocol
from collections.abc import Callable

from ..dtypes import DType, bool_
from ..errors import ShapeError
from . import batching

__all__ = ["ELEMENTWISE", "MOVEMENT", "OPS", "OTHER", "REDUCE", "SOURCE", "Builder", "OpDef",
           "ShapeError", "broadcast_shapes", "get", "normalize_axes", "register", "rule"]

# Op kinds, which fusion and lowering dispatch on.
ELEMENTWISE = "elementwise"   # output[i] = f(inputs broadcast at i); has a scalar expression
REDUCE = "reduce"             # reduces axes (kept as size-1 dims)
MOVEMENT = "movement"         # reshape, permute, expand, slice: a torch view of input 0
SOURCE = "source"             # input, const
OTHER = "other"               # matmul, cat, gather, scatter_add, argmax, unslice, ...

# How the front end promotes an elementwise op's operands (torch's rules, ``dtypes.promote``).
PROMOTE = "promote"     # to their common dtype
FLOAT = "float"         # to their common dtype, then the default float if that is not floating
LOGICAL = "logical"     # every operand to bool
WHERE = "where"         # operand 0 (the condition) to bool, the others to their common dtype


class Builder(Protocol):
    """How a VJP rule builds values: implemented by the front end (``frontend.core.apply``)."""

    def op(self, name: str, *inputs: Any, **attrs: Any) -> Any:
        """Apply the registered op ``name`` (Python numbers are lifted to constants)."""

    def full(self, like: Any, value: float, shape: tuple | None = None,
             dtype: DType | None = None) -> Any:
        """``value`` everywhere, of ``like``'s kind (eager or traced), shape and dtype unless
        given: a broadcast constant, never an array the size of the shape."""

    def constant_value(self, x: Any) -> float | int | bool | None:
        """The number ``x`` holds when it is a constant scalar that needs no gradient (a
        Python number the rule's op was applied with), else None."""


@dataclass(frozen=True)
class OpDef:
    name: str
    kind: str
    shape: Callable[..., tuple]            # (input shapes..., **attrs) -> output shape
    dtype: Callable[..., DType]            # (input dtypes..., **attrs) -> output dtype
    numpy: Callable[..., Any] | None       # (input arrays..., **attrs) -> output array
    # what the eager fast path calls on operands of one float dtype (default: ``numpy``), e.g.
    # ``np.add`` where ``numpy`` also computes complex values torch's way
    numpy_fast: Callable[..., Any] | None = None
    vjp: Callable[..., tuple] | None = None  # (b, g, out, inputs, **attrs) -> cotangents
    scalar: Callable[..., Any] | None = None  # elementwise: (sympy, *symbols) -> expression
    bool_operands: tuple = ()              # operands whose symbol is untyped (a bool)
    torch_name: str = ""                   # grad_fn class name, e.g. "MulBackward0"
    torch_inputs: tuple = ()               # the inputs torch's grad_fn has an edge for
                                           # (``next_functions``), in order; () means all
    # Complex operands: an op analytic in each operand (exp, mul, matmul...) takes its real VJP
    # rule, which the autograd conjugates around (torch's convention: ``dtypes``); one that is
    # not (abs, angle, real, conj...) writes its rule in torch's convention itself.
    holomorphic: bool = True
    saves: bool = True                     # whether the VJP reads the saved inputs
    uses_out: bool = False                 # whether the VJP reads the op's output
    promotion: str = ""                    # elementwise operand promotion (PROMOTE, ...)
    view: bool = False                     # lowered as a view of input 0
    # The kernel family that lowers it when it is neither fused (elementwise, reduce) nor a
    # view: ``symgrad.lower.<kernel>.lower`` and, in the C backend, ``symgrad.codegen.c.
    # <kernel>.emit`` (see ``lower.loopir``'s kernel protocol).
    kernel: str = ""
    # Control flow (``control.py``): the attributes that hold closed graphs (a tuple of graphs
    # for ``cond``'s branches), and the number of values one application produces (each a
    # sibling node with its own ``index`` attribute).
    bodies: tuple = ()
    n_outputs: Callable[..., int] | None = None
    # How the op applies to operands with a leading batch dimension (``batching``): elementwise
    # and reduction ops get their kind's rule; None: ``vmap`` says the op has none.
    batch: Callable[..., Any] | None = None
    # Which elements of the operands each element of the result depends on, for sparse
    # derivatives (``transforms.sparsity``): "elementwise", "reduce", "index" (a copy of at
    # most one operand element: its NumPy reference run on element numbers says which),
    # "gather", "scatter", "matmul", "prefix" (along ``axis``), "matrix" (the whole matrix
    # of the same batch), "none" (no derivative), "dense" (anything: loops and branches).
    dependence: str = ""
    doc: str = ""
    # Rules written on tensors above this layer: (transform, "module:function") pairs, which
    # ``rule`` resolves (control flow's "vjp", "vmap", and the scan's "residuals" and
    # "checkpointed" parts of its VJP).
    tensor_rules: tuple = ()

    def expression(self) -> tuple:
        """(SymPy expression, its symbols in operand order) of an elementwise op. Imports
        SymPy: only code generation of an op missing from the printed table, and tests, ask."""
        return _expression(self.name)


OPS: dict[str, OpDef] = {}


def per_input(*parts: Callable[..., Any], reads: tuple | None = None) -> Callable[..., tuple]:
    """A VJP rule made of one rule per input, ``part(b, g, out, inputs, **attrs)`` -> that
    input's cotangent: the autograd engine then computes only the cotangents of inputs that
    need one (``x * 3`` does not compute d/d3). Its ``parts`` attribute lists them; ``reads``
    (where given), which inputs each part reads: only those a needed part reads must not
    change in place before the backward (torch saves ``self`` of ``self * 2`` not at all)."""
    def vjp(b, g, out, ins, **attrs):
        return tuple(part(b, g, out, ins, **attrs) for part in parts)
    vjp.parts = parts
    vjp.reads = reads
    return vjp


_KIND_RULES = {ELEMENTWISE: batching.elementwise, REDUCE: batching.reduction}
_KIND_DEPENDENCE = {ELEMENTWISE: "elementwise", REDUCE: "reduce", MOVEMENT: "index",
                    SOURCE: "none"}


def register(op: OpDef) -> OpDef:
    if op.name in OPS:
        raise ValueError(f"op {op.name!r} registered twice")
    if op.batch is None and op.kind in _KIND_RULES:
        op = dataclasses.replace(op, batch=_KIND_RULES[op.kind])
    if not op.dependence:
        op = dataclasses.replace(op, dependence=_KIND_DEPENDENCE.get(op.kind, "dense"))
    if op.numpy_fast is None:
        op = dataclasses.replace(op, numpy_fast=op.numpy)
    OPS[op.name] = op
    return op


def get(name: str) -> OpDef:
    try:
        return OPS[name]
    except KeyError:
        raise KeyError(f"unknown op {name!r}") from None


@functools.cache
def rule(op: str, transform: str):
    """The ``transform`` rule of ``op``: its ``tensor_rules`` entry (imported now), else the
    OpDef field of that name; None when it has none."""
    opdef = get(op)
    where = dict(opdef.tensor_rules).get(transform)
    if where is None:
        return getattr(opdef, transform, None)
    module, name = where.split(":")
    return resolve(module, name, f"{op}'s {transform} rule")


def resolve(module: str, name: str, what: str):
    """``module.name``, the module imported now: how a rule, a kernel family's lowering or its
    emitter is found from a name. NotImplementedError saying what to write if it is absent."""
    try:
        found = getattr(importlib.import_module(module), name, None)
    except ModuleNotFoundError as e:
        if e.name != module:
            raise
        found = None
    if found is None:
        raise NotImplementedError(f"no {what}: it needs {module.replace('.', '/')}.py with "
                                  f"{name}")
    return found


@functools.cache
def _expression(name: str) -> tuple:
    import sympy

    op = OPS[name]
    if op.scalar is None:
        raise TypeError(f"op {name!r} has no scalar expression")
    n = op.scalar.__code__.co_argcount - 1
    # Real symbols x, y, z stand for numbers; untyped ones for bools (SymPy's logic needs them).
    symbols = tuple(sympy.Symbol(s) if i in op.bool_operands else sympy.Symbol(s, real=True)
                    for i, s in enumerate("xyz"[:n]))
    return op.scalar(sympy, *symbols), symbols


# ------------------------------------------------------------------ shared rules

def broadcast_shapes(*shapes: tuple) -> tuple:
    """NumPy/torch broadcasting, with an error that shows every shape."""
    ndim = max((len(s) for s in shapes), default=0)
    out = []
    for axis in range(-ndim, 0):
        sizes = {s[axis] for s in shapes if len(s) >= -axis} - {1}
        if len(sizes) > 1:
            shown = " and ".join(str(tuple(s)) for s in shapes)
            seen = [s[axis] for s in shapes if len(s) >= -axis and s[axis] != 1]
            a, b = seen[0], next(n for n in seen if n != seen[0])
            raise ShapeError(f"The size of tensor a ({a}) must match the size of tensor b "
                             f"({b}) at non-singleton dimension {ndim + axis} (shapes {shown} "
                             f"cannot be broadcast together)")
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


def inexact_dtype(*dtypes: DType, **_: Any) -> DType:
    """A floating or complex dtype shared by the operands (ops defined on complex numbers)."""
    d = same_dtype(*dtypes)
    if not d.is_differentiable:
        raise TypeError(f"expected a floating or complex dtype, got {d.name}")
    return d


def real_dtype(*dtypes: DType, **_: Any) -> DType:
    """The operand's dtype, or its parts' for a complex one (abs, angle, real, imag)."""
    return same_dtype(*dtypes).real_dtype


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
            if a % lim in out:
                raise RuntimeError(f"dim {a % lim} appears multiple times in the list of dims")
            out.add(a % lim)
    return tuple(sorted(out))


class EmptyReductionError(IndexError, ShapeError):
    """An extremum over an empty dim: torch's IndexError (TORCH_CHECK_INDEX), still a
    ShapeError (a RuntimeError) as symgrad raised before."""


def nonempty_axes(name: str, shape: tuple, axes) -> None:
    """An extremum (or its index) of no elements is undefined: EmptyReductionError naming the
    op, the dim and the shape (torch raises too), rather than -inf or index 0 from C."""
    for a in axes:
        if shape[a] == 0:
            raise EmptyReductionError(f"{name}(): expected reduction dim {a} to have non-zero size "
                             f"(input shape {tuple(shape)})")


def numel(shape: tuple) -> int:
    return math.prod(shape)
