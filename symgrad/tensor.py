"""The torch-like front end: ``Tensor``, applying ops to tensors, and autograd bookkeeping.

Input: user calls (operators, methods, ``backward``). Output: tensors that hold either a NumPy
value (eager, define-by-run) or a graph node (inside ``@symgrad.compile``, at trace time), plus
the recorded backward graph (``grad_fn``). One code path serves both: ``apply`` checks shapes and
dtypes with the op's rules, then either runs the op's NumPy reference or adds an interned node,
and records a ``BackwardFunction`` when the result needs a gradient.

It must not lower, compile or call C; the torch-named functions live in ``functional.py``.
"""

from __future__ import annotations

import warnings
import weakref
from typing import Any

import numpy as np

from . import dtypes, state
from .autodiff import AccumulateGrad, function_class, run_backward
from .ir import Node
from .ops import OPS, set_binder
from .ops.registry import ELEMENTWISE, MOVEMENT, float_dtype


class TracerValueError(TypeError):
    """A traced tensor's value was needed as a Python value while tracing."""


def _tracer_error(what: str) -> TracerValueError:
    loc = state.user_loc()
    where = f" at {loc.file}:{loc.line} ({loc.text})" if loc else ""
    return TracerValueError(
        f"cannot use a traced tensor as a Python {what}{where}: inside @symgrad.compile the "
        f"value is not known until the compiled code runs. Branch on shapes or on static "
        f"arguments (static_argnums / static_argnames) instead, or compute both sides and pick "
        f"with symgrad.where(cond, a, b).")


class Tensor:
    """A tensor that records the operations applied to it, like ``torch.Tensor``."""

    __slots__ = ("_value", "_node", "shape", "dtype", "_requires_grad", "grad_fn", "_grad",
                 "_retains_grad", "_accumulator", "_trace", "_weak", "_version", "_view",
                 "_views", "__weakref__")
    __array_priority__ = 1000  # NumPy defers to our operators: ndarray * Tensor -> Tensor

    shape: tuple[int, ...]
    dtype: dtypes.DType

    def __init__(self, value: np.ndarray | None = None, node: Node | None = None):
        self._value = value
        self._node = node
        if value is None:
            self.shape, self.dtype = node.shape, node.dtype
        else:
            self.shape, self.dtype = value.shape, dtypes.from_numpy(value.dtype)
        self._requires_grad = False
        self.grad_fn = None
        self._grad = None
        self._retains_grad = False
        self._accumulator = None
        # The trace active when this tensor was created (None eagerly): a backward in that
        # trace may store traced gradients in its .grad, one in another trace may not (the
        # tensor outlives that trace).
        self._trace = state._local.trace
        self._weak = False   # a Python number passed to a compiled function: promotes like one
        self._version = [0]  # bumped by in-place ops; shared with views and detach()ed aliases
        self._view = None    # (base, op, attrs) if this tensor shows base's data (register_view)
        self._views = None   # id -> the live tensors that show this one's data

    # ------------------------------------------------------------ structure
    @property
    def node(self) -> Node:
        """The graph node of this tensor (a constant node for an eager tensor)."""
        if self._node is None:
            v = self._value
            value = v.item() if v.ndim == 0 else _frozen(v)
            self._node = Node("const", (("value", value),), (), self.dtype, v.shape)
        return self._node

    @property
    def is_traced(self) -> bool:
        return self._value is None

    def size(self, dim: int | None = None):
        return self.shape if dim is None else self.shape[dim]

    @property
    def ndim(self) -> int:
        return len(self.shape)

    def dim(self) -> int:
        return self.ndim

    def numel(self) -> int:
        return int(np.prod(self.shape))

    def __len__(self) -> int:
        if not self.shape:
            raise TypeError("len() of a 0-d tensor")
        return self.shape[0]

    # ------------------------------------------------------------ autograd state
    @property
    def requires_grad(self) -> bool:
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, flag: bool) -> None:
        self.requires_grad_(flag)

    def requires_grad_(self, requires_grad: bool = True) -> "Tensor":
        if self.grad_fn is not None:
            if not requires_grad:
                raise RuntimeError(
                    "you can only change requires_grad flags of leaf variables. If you want to "
                    "use a computed variable in a subgraph that doesn't require differentiation "
                    "use var_no_grad = var.detach().")
            return self
        if requires_grad and not self.dtype.is_floating:
            raise RuntimeError("only Tensors of floating point dtype can require gradients "
                               f"(this tensor is {self.dtype.name})")
        self._requires_grad = bool(requires_grad)
        return self

    @property
    def is_leaf(self) -> bool:
        return self.grad_fn is None

    @property
    def grad(self) -> "Tensor | None":
        if self.grad_fn is not None and not self._retains_grad:
            warnings.warn(
                "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. "
                "Its .grad attribute won't be populated during autograd.backward(). If you "
                "indeed want the .grad field to be populated for a non-leaf Tensor, use "
                ".retain_grad() on the non-leaf Tensor.", UserWarning, stacklevel=2)
        return self._grad

    @grad.setter
    def grad(self, value: "Tensor | None") -> None:
        self._grad = value

    @property
    def retains_grad(self) -> bool:
        return self._retains_grad

    def retain_grad(self) -> None:
        if not self._requires_grad:
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        if self.grad_fn is None or self._retains_grad:
            return
        self._retains_grad = True
        fn = self.grad_fn
        fn._retained = (fn._retained or ()) + (self,)

    def _grad_edge(self):
        """The backward function a cotangent for this tensor flows into (None: no gradient)."""
        if self.grad_fn is not None:
            return self.grad_fn
        if not self._requires_grad:
            return None
        if self._accumulator is None:
            self._accumulator = AccumulateGrad(self)
        return self._accumulator

    def backward(self, gradient: "Tensor | None" = None, retain_graph: bool | None = None,
                 create_graph: bool = False, inputs=None) -> None:
        """Accumulate d(self)/d(leaf), weighted by ``gradient``, into each leaf's ``.grad``."""
        if not self._requires_grad:
            raise RuntimeError("element 0 of tensors does not require grad and does not have a "
                               "grad_fn")
        if gradient is None:
            if self.numel() != 1:
                raise RuntimeError("grad can be implicitly created only for scalar outputs")
            gradient = full_like_of(self, 1.0)
        else:
            gradient = as_tensor(gradient, dtype=self.dtype)
            if gradient.shape != self.shape:
                raise RuntimeError(
                    f"Mismatch in shape: grad_output[0] has a shape of {_size(gradient.shape)} "
                    f"and output[0] has a shape of {_size(self.shape)}.")
        if retain_graph is None:
            retain_graph = create_graph
        if inputs is not None:
            raise NotImplementedError("backward(inputs=...) is not supported yet")
        run_backward([(self, gradient)], retain_graph=retain_graph, create_graph=create_graph)

    def detach(self) -> "Tensor":
        """The same data (in-place changes show through both), cut from the backward graph."""
        t = Tensor(self._value, self._node)
        register_view(t, self, "alias", {})
        return t

    def detach_(self) -> "Tensor":
        self.grad_fn = None
        self._requires_grad = False
        return self

    @property
    def data(self) -> "Tensor":
        return self.detach()

    # ------------------------------------------------------------ values
    def numpy(self) -> np.ndarray:
        if self._value is None:
            raise _tracer_error("value (numpy())")
        if self._requires_grad:
            raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use "
                               "tensor.detach().numpy() instead.")
        return self._value

    def __array__(self, dtype=None, copy=None):
        if self._value is None:
            raise _tracer_error("array (np.asarray)")
        return self._value if dtype is None else self._value.astype(dtype)

    def item(self):
        if self._value is None:
            raise _tracer_error("number (item())")
        if self._value.size != 1:
            raise RuntimeError(f"a Tensor with {self._value.size} elements cannot be converted "
                               "to Scalar")
        return self._value.item()

    def tolist(self):
        if self._value is None:
            raise _tracer_error("list (tolist())")
        return self._value.tolist()

    def __bool__(self) -> bool:
        if self._value is None:
            raise _tracer_error("bool (an if/while condition or and/or/not)")
        if self._value.size != 1:
            raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
        return bool(self._value)

    def __float__(self) -> float:
        if self._value is None:
            raise _tracer_error("float")
        return float(self.item())

    def __int__(self) -> int:
        if self._value is None:
            raise _tracer_error("int")
        return int(self.item())

    def __index__(self) -> int:
        if self._value is None:
            raise _tracer_error("index")
        if self.dtype.is_floating:
            raise TypeError("only integer tensors of a single element can be converted to an "
                            "index")
        return int(self.item())

    def __repr__(self) -> str:
        from .printing import tensor_repr
        return tensor_repr(self)

    def __hash__(self) -> int:
        return id(self)

    def __iter__(self):
        if not self.shape:
            raise TypeError("iteration over a 0-d tensor")
        return (self[i] for i in range(self.shape[0]))

    def __reduce__(self):
        if self._value is None:
            raise _tracer_error("picklable value")
        return (tensor, (self._value, None, self._requires_grad))


def _frozen(v: np.ndarray) -> np.ndarray:
    v = np.array(v, copy=True)
    v.flags.writeable = False
    return v


def _size(shape) -> str:
    return f"torch.Size([{', '.join(map(str, shape))}])"


# ---------------------------------------------------------------- applying ops

def _rank(t: Tensor) -> int:
    if t._weak:
        return dtypes.RANK_SCALAR
    return dtypes.RANK_TENSOR if t.ndim else dtypes.RANK_ZERO_DIM


_NUMBER = (int, float)


def _elementwise_operands(op, args: tuple) -> list[Tensor]:
    """Promote tensors and Python scalars to one dtype, torch's way, and lift the scalars."""
    if len(args) == 2 and op.name[0] != "l":   # the common binary cases, decided quickly
        a, b = args
        ta, tb = type(a) is Tensor, type(b) is Tensor
        if ta and tb and a.dtype is b.dtype and not a._weak and not b._weak \
                and (a.dtype.is_floating or op.dtype is not float_dtype):
            return [a, b]
        if ta and not tb and type(b) in _NUMBER and a.dtype.is_floating:
            return [a, scalar(b, a.dtype)]
        if tb and not ta and type(a) in _NUMBER and b.dtype.is_floating:
            return [scalar(a, b.dtype), b]
    first = 1 if op.name == "where" else 0
    values = args[first:]
    ranked = [(a.dtype, _rank(a)) if isinstance(a, Tensor)
              else (dtypes.scalar_dtype(a), dtypes.RANK_SCALAR) for a in values]
    if op.name.startswith("logical_"):
        target = dtypes.bool_
    else:
        target = dtypes.promote(ranked)
        if op.dtype is float_dtype and not target.is_floating:
            target = dtypes.DEFAULT_FLOAT
    out = [as_tensor(args[0], dtypes.bool_)] if first else []
    for a in values:
        if isinstance(a, Tensor):
            out.append(a if a.dtype is target else apply("cast", a, dtype=target))
        else:
            out.append(scalar(a, target))
    return out


def apply(name: str, *args: Any, _torch_name: str | None = None, **attrs: Any) -> Tensor:
    """Apply primitive ``name``: check, compute or record, and note how to differentiate it."""
    op = OPS[name]
    if op.kind == ELEMENTWISE and name != "cast":
        inputs = _elementwise_operands(op, args)
    else:
        inputs = [a if isinstance(a, Tensor) else as_tensor(a) for a in args]
    if len(attrs) > 1:
        attrs = dict(sorted(attrs.items()))
    if op.kind == ELEMENTWISE and len(inputs) == 2 and inputs[0].shape == inputs[1].shape:
        shape = inputs[0].shape     # the broadcast rule's common case
    else:
        shape = op.shape(*[t.shape for t in inputs], **attrs)
    dtype = op.dtype(*[t.dtype for t in inputs], **attrs)
    loc = None
    traced = False
    for t in inputs:
        if t._value is None:
            traced = True
            break
    if traced:
        node = Node(name, attrs, [t.node for t in inputs], dtype, shape)
        loc = state.record(node)
        out = Tensor(None, node)
    else:
        with np.errstate(all="ignore"):
            value = op.numpy(*[t._value for t in inputs], **attrs)
        out = Tensor(np.asarray(value, dtype=dtype.np), None)
    if op.kind == MOVEMENT:
        register_view(out, inputs[0], name, attrs)
    if (op.vjp is not None and state._local.grad_enabled and dtype.is_floating
            and any(t._requires_grad for t in inputs)):
        _record(out, op, attrs, inputs, _torch_name or op.torch_name, loc)
    return out


def register_view(view: Tensor, base: Tensor, op: str, attrs: dict) -> None:
    """``view`` shows ``base``'s data, as torch's views do: ``op`` is a movement op (reshape,
    permute, expand, slice) of ``base`` or "alias" (``detach``). They share one version
    counter, and an in-place update of either reaches the other (``inplace.update``), eagerly
    and at trace time alike."""
    view._view = (base, op, attrs)
    view._version = base._version
    if base._views is None:
        base._views = weakref.WeakValueDictionary()
    base._views[id(view)] = view


def _record(out: Tensor, op, attrs: dict, inputs: list[Tensor], torch_name: str, loc) -> None:
    fn = function_class(torch_name)(
        op.vjp, attrs, inputs, (out._value, out._node), op.saves,
        tuple((t._grad_edge(), 0) for t in inputs),
        tuple((t.shape, t.dtype) for t in inputs), loc)
    # What the rule will read must not have changed in place by the time it runs.
    if op.saves:
        fn._versions = tuple((t, t._version, t._version[0]) for t in inputs)
    if op.uses_out:
        fn._versions += ((out, out._version, out._version[0]),)
    out._requires_grad = True
    out.grad_fn = fn


set_binder(apply)


def attach_function(out: Tensor, torch_name: str, rule, inputs: list[Tensor],
                    saves: bool = True, uses_out: bool = True) -> Tensor:
    """Give ``out`` one backward function computed by ``rule(g, out, inputs)``: how composite
    functions (mean, softmax, losses) show torch's single grad_fn while being built from
    primitives. ``saves``/``uses_out``: whether the rule reads the inputs/the output (then
    changing them in place before the backward is an error)."""
    if not (state.is_grad_enabled() and any(t._requires_grad for t in inputs)):
        return out
    result = Tensor(out._value, out._node)
    loc = state.record(out._node) if out._node is not None else None
    _record(result, _Rule(rule, saves, uses_out), {}, inputs, torch_name, loc)
    return result


class _Rule:
    """Adapter so a composite's rule looks like an op to ``_record``."""

    def __init__(self, vjp, saves: bool = True, uses_out: bool = True):
        self.vjp = vjp
        self.saves = saves
        self.uses_out = uses_out   # softmax, logsumexp, norm... reuse their output


# ---------------------------------------------------------------- creation

def as_tensor(data: Any, dtype: dtypes.DType | None = None) -> Tensor:
    """A tensor for ``data`` (a Tensor is returned as is, cast if ``dtype`` differs)."""
    if isinstance(data, Tensor):
        return data if dtype is None or data.dtype is dtype else apply("cast", data, dtype=dtype)
    return tensor(data, dtype=dtype)


def scalar(value: Any, dtype: dtypes.DType) -> Tensor:
    """A 0-d constant of ``dtype`` (how Python numbers enter a computation)."""
    try:
        return Tensor(np.asarray(value, dtype=dtype.np), None)
    except OverflowError:
        raise OverflowError(f"the Python number {value!r} does not fit in {dtype.name}, the "
                            f"dtype it combines with here (int64 holds -2**63 .. 2**63-1)"
                            ) from None


def tensor(data: Any, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    """Copy ``data`` (nested lists, NumPy arrays, numbers) into a new leaf tensor."""
    if isinstance(data, Tensor):
        data = data.__array__()
    arr = np.array(data, copy=True)
    if dtype is not None:
        dt = dtypes.as_dtype(dtype)
    elif arr.dtype.kind == "f":
        dt = dtypes.float64 if arr.dtype == np.float64 and not _is_python_data(data) \
            else dtypes.DEFAULT_FLOAT
    else:
        dt = dtypes.from_numpy(arr.dtype)
        if dt is None:
            raise TypeError(f"can't convert data of NumPy dtype {arr.dtype} to a tensor; "
                            "supported: floating, integer and bool data")
    t = Tensor(arr.astype(dt.np, copy=False), None)
    if requires_grad:
        t.requires_grad_(True)
    return t


def _is_python_data(data: Any) -> bool:
    """Python floats and lists of them default to float32, like torch; NumPy float64 stays."""
    return not isinstance(data, (np.ndarray, np.generic))


def full_like_of(t: Tensor, value: float) -> Tensor:
    """A tensor of ``t``'s shape and dtype filled with ``value``; symbolic (one scalar constant,
    broadcast) when ``t`` is traced, so seeds of backward passes stay small graph nodes."""
    if not t.is_traced:
        return Tensor(np.full(t.shape, value, dtype=t.dtype.np), None)
    node = Node("const", (("value", t.dtype.np.type(value).item()),), (), t.dtype, ())
    if t.shape:
        node = Node("expand", (("shape_to", t.shape),), (node,), t.dtype, t.shape)
    return Tensor(None, node)


from . import methods as _methods  # noqa: E402,F401  (installs operators and methods on Tensor)
