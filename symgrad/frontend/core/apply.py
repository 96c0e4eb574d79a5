"""Applying an op to tensors: one code path for eager values and traced nodes.

Layer: front end, above ``tensor`` and ``function``. Input: an op name, tensors or Python
numbers, attributes. Output: the result tensor. ``apply`` promotes elementwise operands the
way the op's ``promotion`` says (torch's rules), checks shapes and dtypes with the op's rules,
then either runs the op's NumPy reference (eager) or adds an interned node to the trace, and
records a ``BackwardFunction`` when the result needs a gradient (``builder`` gives VJP rules
their ``Builder`` over it).

It must not lower, compile or call C; the torch-named functions live in ``functional.py``.
"""

from __future__ import annotations

import operator
import warnings
from typing import Any

import numpy as np

from ... import dtypes
from ...dims import Dim, same_shape, traced_sizes
from ...ir.graph import Node, attrs_key
from ...ir.provenance import MOVES
from ...ops import OPS
from ...ops.registry import ELEMENTWISE, FLOAT, LOGICAL, MOVEMENT, REDUCE, WHERE
from . import grad_mode, layout, sources
from .capture import swap
from .deferred import Deferred
from .fast_eager import fast_elementwise
from .halfprec import IN_OWN_DTYPE, KEEP_COMPLEX, SCANS, as_given, widened_values
from .backward_graph import CompositeRule, note_closure_reads, record_function
from .tensor import Tensor, tensor, traced_numbers
from .view_links import register_view


def _rank(t: Tensor) -> int:
    if t._weak:
        return dtypes.RANK_SCALAR
    return dtypes.RANK_TENSOR if t.ndim else dtypes.RANK_ZERO_DIM


_NUMBER = (int, float)
CAPTURING = sources.CAPTURING
# Eager capture (``lazy``): while WATCH[0], eager applications and composite backward nodes
# go to its recorder first (``RECORDER``/``ATTACHER``, set by ``lazy``, which is above this
# module), which records them and may defer them (the recorder's None: not recorded, go on).
WATCH = [False]
RECORDER: list = [None]
ATTACHER: list = [None]
_RECORDING = sources._local   # .recording: the active trace (sources.current(), inlined)
# The operands' dtypes and shapes for the op's rules, without a list comprehension (a
# function call of its own in Python 3.11) per op.
_DTYPE, _SHAPE = operator.attrgetter("dtype"), operator.attrgetter("shape")

def _promoted(op, args: tuple) -> list[Tensor]:
    """Promote tensors and Python scalars to one dtype, torch's way, and lift the scalars."""
    policy = op.promotion
    if len(args) == 2 and policy != LOGICAL:   # the common binary cases, decided quickly
        a, b = args
        ta, tb = isinstance(a, Tensor), isinstance(b, Tensor)   # nn.Parameter too
        if ta and tb and a.dtype is b.dtype and not a._weak and not b._weak \
                and (a.dtype.is_floating or policy != FLOAT):
            return [a, b]
        if ta and not tb and type(b) in _NUMBER and a.dtype.is_floating:
            return [a, scalar(b, a.dtype)]
        if tb and not ta and type(a) in _NUMBER and b.dtype.is_floating:
            return [scalar(a, b.dtype), b]
    first = 1 if policy == WHERE else 0
    values = args[first:]
    if policy == LOGICAL:
        target = dtypes.bool_
    else:
        target = dtypes.promote([(a.dtype, _rank(a)) if isinstance(a, Tensor)
                                 else (dtypes.scalar_dtype(a), dtypes.RANK_SCALAR)
                                 for a in values])
        if policy == FLOAT and not target.is_differentiable:
            target = dtypes.DEFAULT_FLOAT
        if target.is_floating and _python_numbers(values):
            target = dtypes.float64    # Python numbers among themselves: a Python float
    out = [as_tensor(args[0], dtypes.bool_)] if first else []
    for a in values:
        a = getattr(a, "_sg_tensor", a)    # a traced Python number (guards.TracedFloat)
        if isinstance(a, Tensor):
            out.append(a if a.dtype is target else apply("cast", a, dtype=target))
        elif traced_numbers(a):
            out.append(as_tensor(a, target))
        else:
            out.append(scalar(a, target))
    return out


def _python_numbers(args) -> bool:
    """Whether ``args`` are Python numbers only, at least one of them traced (a number
    argument of a compiled function, a loop's index, ``t.item()``: ``Tensor._weak``). Their
    arithmetic is Python's, as it is eagerly: a float result is a double, and stays a number
    that does not promote the tensors it meets."""
    weak = False
    for a in args:
        if isinstance(a, Tensor):
            if not a._weak:
                return False
            weak = True
        elif not isinstance(a, (int, float)):
            return False
    return weak


# Analytic ops whose complex gradient torch writes g * conj(c) with c a product, quotient or
# conj-symmetric function (exp, sin...) of the operands and output: their rule is applied to
# the conjugated operands (``BackwardFunction.apply``), which gives torch's signed zeros. Not
# the rules that add a real constant (1 + z * z...): torch's complex add of +0 to a -0 part
# gives +0, so conj(1 + z * z) is not 1 + conj(z) * conj(z) in its zeros, and a square root
# after it would take the other side of its branch cut.
CONJ_OPERANDS = frozenset(("mul", "div", "exp", "exp2", "log", "log2", "log10", "sqrt", "sin",
                           "cos", "sinh", "cosh"))


def apply(name: str, *args: Any, _torch_name: str | None = None, _shown: tuple | None = None,
          **attrs: Any) -> Tensor:
    """Apply primitive ``name``: check, compute or record, and note how to differentiate it.
    ``_torch_name``/``_shown``: the grad_fn class torch shows for this call and the operands
    its node has an edge for (``tensor_operands``), where they differ from the op's."""
    # why not split: every eager op runs this; a helper call per op costs more than a branch
    op = OPS[name]
    if CAPTURING[0]:    # a compile trace runs: captured values are traced, never computed
        args = swap(args)
    elif WATCH[0]:      # eager capture (lazy.py) records it, and may defer it
        out = RECORDER[0](name, args, attrs, _torch_name, _shown)
        if out is not None:
            return out
    kind = op.kind
    if kind == ELEMENTWISE and not attrs and not (
            args and isinstance(args[0], Tensor) and args[0]._value is None):   # (traced)
        value = fast_elementwise(op, args)
        if value is not None and (value.dtype.kind != "c" or not _recording(args)):
            out = Tensor(value, None)
            for a in args:
                if isinstance(a, Tensor) and (a._strides is not None or a._view is not None):
                    _lay_out(out, args)
                    break
            if op.vjp is not None and grad_mode._local.enabled and value.dtype.kind in "fc":
                for a in args:   # (a loop, not any() of a generator: one frame less per op)
                    if isinstance(a, Tensor) and a._requires_grad:
                        dtype = out.dtype
                        inputs = [a if isinstance(a, Tensor) else scalar(a, dtype)
                                  for a in args]
                        _record(out, op, attrs, inputs, _torch_name or op.torch_name, None,
                                _shown)
                        break
            return out
    try:
        if op.promotion:
            inputs = _promoted(op, args)
        else:
            inputs = list(args)
            for a in args:   # (a loop, not a comprehension: no function call when all are)
                if not isinstance(a, Tensor):
                    inputs = [a if isinstance(a, Tensor) else as_tensor(a) for a in args]
                    break
    except TypeError:   # (free when nothing is raised) an operand that is not a tensor yet?
        deferred = next((a for a in args if isinstance(a, Deferred)), None)
        if deferred is None:
            raise
        return deferred.applied(name, args, {**attrs, "_torch_name": _torch_name})
    traced = False
    needs_grad = False
    for t in inputs:
        if t._value is None:
            traced = True
        if t._requires_grad:
            needs_grad = True
    key = node = None
    if traced:
        rec = _RECORDING.recording
        if rec is not None and rec.body is None:
            key, node = _applied(rec, name, attrs, inputs)
    if node is not None:   # applied before in this trace: the node, its shape and dtype
        node, attrs = node   # (the first application's attributes: one dict for all)
        rec.repeats += 1
        dtype = node.dtype
        loc = rec.attribution or rec.locs.get(node) or sources.user_loc(rec.interned)
        out = Tensor(None, node)
        out._weak = kind == ELEMENTWISE and _python_numbers(args)
    else:
        if len(attrs) > 1:
            attrs = dict(sorted(attrs.items()))
        shape = _shape(op, inputs, attrs)
        try:
            dtype = op.dtype(*map(_DTYPE, inputs), **attrs)
        except TypeError as exc:   # no kernel for these dtypes: torch's RuntimeError
            raise dtype_error(op, inputs, exc) from None
        loc = None
        if not traced:   # eager inputs, a call-time size in the result's shape: traced
            traced = traced_sizes() and any(isinstance(s, Dim) for s in shape)
        if traced:
            if kind in _COMPUTING and _widened(op, inputs, dtype):
                return _in_compute_type(name, inputs, attrs, dtype, _torch_name, _shown)
            lifted, node, loc = _traced_node(name, attrs, inputs, dtype, shape,
                                             None if key is None else key[2])
            if lifted is not inputs:   # read through a body's inputs (bodies.BodyScope.lift)
                inputs = lifted
                needs_grad = any(t._requires_grad for t in inputs)
            elif key is not None:
                rec.applied[key] = (node, attrs)
            out = Tensor(None, node)
            out._weak = kind == ELEMENTWISE and _python_numbers(args)
        else:
            out = Tensor(eager_value(op, inputs, attrs, dtype), None)
    if kind == MOVEMENT:
        register_view(out, inputs[0], name, attrs)
    elif kind == ELEMENTWISE and len(out.shape) > 1:   # (fewer dims: always row-major)
        for t in inputs:
            if t._strides is not None or t._view is not None:
                _lay_out(out, inputs)
                break
    if needs_grad and op.vjp is not None and grad_mode._local.enabled \
            and dtype.kind in _DIFFERENTIABLE:
        fn_name = _torch_name or op.torch_name
        _record(out, op, attrs, as_given(args, inputs, fn_name in KEEP_COMPLEX)
                if op.promotion else inputs, fn_name, loc, _shown)
        if dtype.kind == "complex" and name in CONJ_OPERANDS:   # (BackwardFunction.apply)
            out.grad_fn._conj_saved = tuple(isinstance(a, complex) or isinstance(a, Tensor)
                                            and a.dtype.is_complex for a in args)
    return out


def _recording(args: tuple) -> bool:
    """Whether an op on ``args`` records a node (a complex one's takes the general path:
    torch's conjugated operands, ``CONJ_OPERANDS``)."""
    return grad_mode._local.enabled and any(
        isinstance(a, Tensor) and a._requires_grad for a in args)


def _applied(rec, name: str, attrs: dict, inputs: list) -> tuple:
    """``(key, (node, attributes))``: the key of applying ``name`` to ``inputs`` in trace
    ``rec``, and the node an earlier such application made with its attributes' dict (None:
    none did; a None key: attributes no key can be made of).

    The node is what ``Node`` would intern again: its shape and dtype are functions of the op,
    the attributes and the operands' nodes. It is found without computing them: a program
    that recomputes values (a recursive cofactor determinant applies 57k ops to ~3k distinct
    values) spent most of its trace on that. The key holds the attributes in the caller's
    order (two orders: two keys of one node) and keyed as ``Node`` keys them (0.0 and -0.0,
    1 and True apart). Not used inside a loop body, whose operands are lifted first."""
    nodes = []   # (a loop, not a comprehension: a function call of its own in Python 3.11)
    for t in inputs:
        nodes.append(t._node if t._value is None else t.node)
    key = (name, attrs_key(tuple(attrs.items())) if attrs else (), tuple(nodes))
    try:
        return key, rec.applied.get(key)
    except TypeError:   # an attribute no key can be made of (an unhashable value)
        return None, None


def _lay_out(out: Tensor, args) -> None:
    """torch's layout for an elementwise result whose operands include one laid out otherwise
    than row-major maybe (a view, or a result of one): what TensorIterator picks (layout.py;
    callers test for such an operand first, inline: this is on every op's path)."""
    out._strides = layout.elementwise_strides([a for a in args if isinstance(a, Tensor)],
                                              tuple(out.shape))


def _traced_node(name: str, attrs: dict, inputs: list, dtype, shape,
                 nodes: tuple | None = None) -> tuple:
    """(the operands, the node, its source location) of a traced application: the node's
    location is recorded as ``sources.record`` does (inlined: one call and one thread-local
    read less per op). In a loop body being traced, the operands from outside the body are
    first replaced by the body inputs they are read through (``bodies.BodyScope``), and the
    node is noted as the body's. ``nodes``: the operands' nodes, when ``_applied`` made them
    already."""
    rec = _RECORDING.recording
    if rec is None:
        return inputs, Node(name, attrs, [t.node for t in inputs], dtype, shape), None
    body = rec.body
    if body is None:
        if nodes is None:
            nodes = []   # (a loop, not a comprehension: a function call of its own in 3.11)
            for t in inputs:
                nodes.append(t._node if t._value is None else t.node)
        node = Node(name, attrs, nodes, dtype, shape)
        if name in MOVES:   # a value copied from others another way: one node (provenance)
            node = rec.values.canonical(node)
    else:
        inputs = body.lift(inputs)
        node = Node(name, attrs, [t.node for t in inputs], dtype, shape)
        body.inside.add(node)
    loc = rec.attribution or rec.locs.get(node) or sources.user_loc(rec.interned)
    rec.locs.setdefault(node, loc)
    return inputs, node, loc


def _shape(op, inputs: list[Tensor], attrs: dict) -> tuple:
    if op.kind == ELEMENTWISE and len(inputs) == 2 and same_shape(inputs[0].shape,
                                                                    inputs[1].shape):
        return inputs[0].shape     # the broadcast rule's common case
    return op.shape(*map(_SHAPE, inputs), **attrs)


# The dtype kinds that can require grad (DType.is_differentiable, inlined in ``apply``).
_DIFFERENTIABLE = ("float", "complex")
# Op kinds that compute on their operands' values (not only move them).
_COMPUTING = (ELEMENTWISE, REDUCE)


def _widened(op, inputs: list[Tensor], dtype) -> bool:
    """Whether a traced op computes in its operands' compute type (see ``_in_compute_type``)."""
    if op.kind not in _COMPUTING or op.name == "cast" or op.name in IN_OWN_DTYPE:
        return False
    if dtype.compute:   # (DType.is_storage, inlined: it runs once per traced op)
        return True
    for t in inputs:
        if t.dtype.compute:
            return True
    return False


def _in_compute_type(name: str, inputs: list[Tensor], attrs: dict, dtype, torch_name, shown):
    """A traced op whose result has a storage dtype (int32, float16...) computes in that
    type's compute dtype (int64, float32) and rounds back: generated C then only does
    arithmetic in its four types (NumPy computes eagerly in the storage type directly, with
    the same results: integers wrap modulo 2**bits, float16 rounds once per op)."""
    op = OPS[name]
    recording = op.vjp is not None and grad_mode._local.enabled and dtype.is_differentiable \
        and any(t._requires_grad for t in inputs)
    with grad_mode.no_grad():   # the node is recorded on the operands as given (``_as_given``)
        wide = [apply("cast", t, dtype=t.dtype.computes_in) if t.dtype.is_storage else t
                for t in inputs]
        out = apply(name, *wide, **attrs)
        out = out if out.dtype is dtype else apply("cast", out, dtype=dtype)
    if recording:
        _record(out, op, attrs, inputs, torch_name or op.torch_name, sources.record(out.node),
                shown)
    return out


def eager_value(op, inputs: list[Tensor], attrs: dict, dtype) -> np.ndarray:
    """The op's NumPy reference on eager inputs, as an array of ``dtype``; a float16 result
    of an op that computes (not one that only moves elements) computed in float32 and rounded
    once (``halfprec``)."""
    values = [t._value for t in inputs]
    if dtype is dtypes.float16 and (op.kind in _COMPUTING and op.name not in IN_OWN_DTYPE
                                    or op.name in SCANS):
        values = widened_values(values)
    try:
        try:
            return np.asarray(op.numpy(*values, **attrs), dtype=dtype.np)
        except (FloatingPointError, RuntimeWarning):
            # A floating-point exception that a user's np.seterr(all="raise") or warnings
            # filter turned into an error (NumPy's default warnings are silenced by the
            # filter below, as the fast path's are): torch computes inf/NaN silently.
            # Entering np.errstate for every op cost more than a small op (1.1 us).
            with np.errstate(all="ignore"):
                return np.asarray(op.numpy(*values, **attrs), dtype=dtype.np)
    except TypeError as exc:   # NumPy has no loop for these dtypes (a UFuncTypeError...)
        raise dtype_error(op, inputs, exc) from None


# NumPy's floating-point RuntimeWarnings from an op's reference called here (a NumPy
# function registered as the reference is attributed to this module; ``fast_eager`` silences
# those attributed to itself and to the op definitions): not the user's business.
warnings.filterwarnings("ignore", category=RuntimeWarning,
                        module=r"symgrad\.frontend\.core\.apply$")


_NO_KERNEL = ("expected a floating", "ufunc", "numpy boolean", "unsupported in linalg")


def dtype_error(op, inputs: list[Tensor], exc: TypeError) -> RuntimeError:
    """What torch raises where an op has no kernel for its operands' dtypes: a RuntimeError
    (``"erfc_cpu" not implemented for 'ComplexDouble'``, naming the operand's dtype the
    message names, else the first's). The dtype rules' and NumPy's TypeErrors become one; a
    rule's message that says more than "no kernel for this dtype" is kept."""
    text = str(exc)
    if not inputs or not any(k in text for k in _NO_KERNEL):
        return RuntimeError(text)
    odd = next((t.dtype for t in inputs if t.dtype.name in text), inputs[0].dtype)
    return RuntimeError(f'"{op.name}_cpu" not implemented for \'{odd.scalar_type}\'')


def tensor_operands(*args: Any) -> tuple:
    """The positions of the tensors among ``args``: the edges torch's node has when it takes
    the Python numbers among them as ``Scalar`` arguments (``x ** 2``, ``2 - x``)."""
    return tuple(i for i, a in enumerate(args) if isinstance(a, Tensor))


def _record(out: Tensor, op, attrs: dict, inputs: list[Tensor], torch_name: str, loc,
            shown: tuple | None = None) -> None:
    # An op's rule that does not read its output gets None for it (no tensor is rebuilt for
    # it in the backward pass); a composite's rule always gets it.
    record_function(out, op, attrs, inputs, torch_name, loc, shown,
                    op.uses_out or type(op) is CompositeRule)


def attach_function(out: Tensor, torch_name: str, rule, inputs: list[Tensor], saves: bool = True,
                    uses_out: bool = True, holomorphic: bool = True, shown: tuple | None = None
                    ) -> Tensor:
    """Give ``out`` one backward function computed by ``rule(g, out, inputs)``: how composite
    functions (mean, softmax, losses) show torch's single grad_fn while being built from
    primitives. ``saves``/``uses_out``: whether the rule reads the inputs/the output (then
    changing them in place before the backward is an error, as it is for the tensors the rule
    reads from its closure: ``note_closure_reads``); ``shown``: as ``apply``'s."""
    if not (grad_mode.is_grad_enabled() and any(t._requires_grad for t in inputs)):
        return out
    if WATCH[0]:
        return ATTACHER[0](out, torch_name, rule, inputs, saves, uses_out, holomorphic, shown)
    result = Tensor(out._value, out._node)
    loc = sources.record(out._node) if out._node is not None else None
    _record(result, CompositeRule(rule, saves, uses_out, holomorphic), {}, inputs, torch_name, loc,
            shown)
    note_closure_reads(result.grad_fn, rule, inputs)
    return result


# ---------------------------------------------------------------- making tensors

def as_tensor(data: Any, dtype: dtypes.DType | None = None) -> Tensor:
    """A tensor for ``data`` (a Tensor is returned as is, cast if ``dtype`` differs). A list of
    numbers some of which are traced (a list argument of a compiled function) becomes their
    stack; tuples and lists of arrays stay pytrees (stack them with ``symgrad.stack``)."""
    data = getattr(data, "_sg_tensor", data)    # a traced Python number (guards.TracedFloat)
    if isinstance(data, Deferred):              # a masked selection: its size is not known
        raise data.size_needed("its use as a tensor")
    if isinstance(data, Dim):                   # a call-time size
        return scalar(data, dtype or dtypes.int64)
    if isinstance(data, Tensor):
        return data if dtype is None or data.dtype is dtype else apply("cast", data, dtype=dtype)
    if traced_numbers(data):
        return _stacked(data, dtype)
    return tensor(data, dtype=dtype)


def _stacked(data, dtype) -> Tensor:
    parts = [as_tensor(d) for d in data]
    if len({p.shape for p in parts}) > 1:
        raise ValueError(f"expected a rectangular nested list, got items of shapes "
                         f"{sorted({tuple(p.shape) for p in parts})}")
    target = dtype or dtypes.promote([(p.dtype, _rank(p)) for p in parts])
    parts = [apply("reshape", as_tensor(p, target), shape_to=(1,) + tuple(p.shape))
             for p in parts]
    return parts[0] if len(parts) == 1 else apply("cat", *parts, axis=0)


def scalar(value: Any, dtype: dtypes.DType) -> Tensor:
    """A 0-d constant of ``dtype`` (how Python numbers enter a computation); a size known
    only at call time (``dims.Dim``, e.g. ``x.shape[0]`` of a shape-generic trace) is a
    ``dim`` node instead, a Python number of the compiled code."""
    if isinstance(value, Dim):
        node = Node("dim", {"size": value}, (), dtypes.int64, ())
        sources.record(node)
        t = Tensor(None, node)
        t._weak = True
        return t if dtype is dtypes.int64 else apply("cast", t, dtype=dtype)
    try:
        return Tensor(np.asarray(value, dtype=dtype.np), None)
    except OverflowError:
        if -2 ** 63 <= value < 2 ** 63:   # torch casts the number: it wraps, as C's casts
            return Tensor(np.asarray(value, dtype=np.int64).astype(dtype.np), None)
        raise OverflowError(f"the Python number {value!r} does not fit in {dtype.name}, the "
                            f"dtype it combines with here (int64 holds -2**63 .. 2**63-1)"
                            ) from None


def full(like: Tensor, value: Any, shape: tuple | None = None,
         dtype: dtypes.DType | None = None) -> Tensor:
    """``value`` everywhere, in ``shape`` and ``dtype`` (default: ``like``'s), traced if
    ``like`` is: then one scalar constant broadcast, so that seeds and zeros of backward
    passes stay small graph nodes. The one way the front end makes a filled tensor."""
    shape = like.shape if shape is None else tuple(shape)
    dtype = like.dtype if dtype is None else dtype
    if not like.is_traced:
        return Tensor(np.full(shape, value, dtype=dtype.np), None)
    node = Node("const", (("value", dtype.np.type(value).item()),), (), dtype, ())
    if shape:
        node = Node("expand", (("shape_to", shape),), (node,), dtype, shape)
        rec = sources._local.recording
        if rec is not None and rec.body is not None:
            rec.body.inside.add(node)
    return Tensor(None, node)


def constant_value(x: Any):
    """The number ``x`` holds if it is a 0-d eager tensor that needs no gradient (a Python
    number lifted by ``apply``), else None (a traced value, or one that requires grad)."""
    if not isinstance(x, Tensor) or x._value is None or x._value.ndim or x._requires_grad:
        return None
    return x._value.item()
