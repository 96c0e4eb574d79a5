"""``Tensor``: the torch-like value of the front end, eager or traced, and its autograd state.

Layer: front end, above ``grad_mode``/``sources``. Input: a NumPy value (eager, define-by-run)
or a graph node (inside ``@symgrad.compile``, at trace time). Output: the class with its state
and the accessors that need nothing else: shape, dtype, ``requires_grad``, ``grad``,
``is_leaf``, Python conversions. How ops apply to tensors is ``apply.py``; the operators and
torch-named methods (``x + y``, ``x.sum()``, ``backward``, ``detach``...) are installed on the
class by ``methods.py``, so that this module depends on nothing above it. The underscored
fields are the front end's shared state (its modules read and write them; users and the layers
above do not).
"""

from __future__ import annotations

import math
import warnings
import weakref
from typing import Any

import numpy as np

from ... import dtypes, formats
from ...devices import CPU, check as check_device
from ...dims import Dim, NotGeneric
from ...errors import TracerValueError
from ...ir.graph import Node
from ...size import Size
from . import conversions, sources
from .constants import const_node

_BY_NP = {d.np: d for d in dtypes.ALL}   # the common case of dtypes.from_numpy, one lookup
_RECORDING = sources._local   # .recording: the active trace (sources.current(), inlined)
_CAPTURING = sources.CAPTURING
_CALL = object()   # the default of Tensor's second argument: a user's ``torch.Tensor(...)``
# Called with a tensor whose ``requires_grad`` a program is about to change (set by eager
# capture, ``lazy``, which is above this module: a step that read it must end first).
FLAG_CHANGE: list = [None]


def _noted(t: Tensor) -> None:
    """An eager tensor's value is read as a Python value while a compile trace may run: the
    trace notes it if ``t`` is captured state (``frontend.core.capture``)."""
    rec = _RECORDING.recording
    if rec is not None and rec.captures is not None:
        rec.captures.note(t)


def _guards_of(t: Tensor, what: str):
    """The active trace's guard state (``frontend.guards.GuardState``) when it can decide on
    ``t``'s value; else the TracerValueError of using a traced value as a Python ``what``."""
    rec = _RECORDING.recording
    guards = None if rec is None else rec.guards
    if guards is None:
        if rec is not None and rec.body is not None:
            raise _body_error(what)
        raise tracer_error(what)
    return guards


def _body_error(what: str) -> TracerValueError:
    return tracer_error(what, "inside the body of symgrad.scan/fori_loop/while_loop or a "
                        "symgrad.cond branch, a value differs from step to step and is not "
                        "known when the body is traced. Branch with symgrad.cond(pred, "
                        "true_fn, false_fn, operands) or pick with symgrad.where(cond, a, b).")


def tracer_error(what: str, why: str | None = None) -> TracerValueError:
    loc = sources.user_loc()
    where = f" at {loc.file}:{loc.line} ({loc.text})" if loc else ""
    return TracerValueError(
        f"cannot use a traced tensor as a Python {what}{where}: " + (why or
        "inside @symgrad.compile the value is not known until the compiled code runs. Branch "
        "on shapes or on static arguments (static_argnums / static_argnames) instead, or "
        "compute both sides and pick with symgrad.where(cond, a, b)."))


class Tensor:
    """A tensor that records the operations applied to it, like ``torch.Tensor``."""

    __slots__ = ("_value", "_node", "shape", "dtype", "_requires_grad", "grad_fn", "_grad",
                 "_retains_grad", "_accumulator", "_trace", "_weak", "_vc", "_view",
                 "_views", "_strides", "_creation", "__weakref__")
    __array_priority__ = 1000  # NumPy defers to our operators: ndarray * Tensor -> Tensor
    # A plain tensor, as torch's formatting tells one from a subclass (a Parameter is not; a
    # captured step's results, ``pending``'s classes, are plain tensors to the program).
    _plain = True

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "_plain" not in cls.__dict__:
            cls._plain = False

    shape: tuple[int, ...]
    dtype: dtypes.DType

    def __init__(self, value: np.ndarray | None = None, node: Node | None = _CALL, *sizes):
        if node is not None and (node is _CALL or sizes or type(node) is not Node):
            # a user's torch.Tensor(data) / torch.Tensor(*sizes): a float32 leaf
            value, node = _legacy_value(value, node, sizes), None
        self._value = value
        self._node = node
        if value is None:
            self.shape, self.dtype = tuple.__new__(Size, node.shape), node.dtype
        else:
            self.shape = tuple.__new__(Size, value.shape)
            self.dtype = _BY_NP.get(value.dtype) or dtypes.from_numpy(value.dtype)
        self._requires_grad = False
        self.grad_fn = None
        self._grad = None
        self._retains_grad = False
        self._accumulator = None   # a leaf's AccumulateGrad (a weak reference: function.grad_edge)
        # The trace active when this tensor was created (None eagerly): a backward in that
        # trace may store traced gradients in its .grad, one in another trace may not (the
        # tensor outlives that trace).
        self._trace = _RECORDING.recording
        self._weak = False   # a Python number passed to a compiled function: promotes like one
        self._vc = [0]  # bumped by in-place ops; shared with views and detach()ed aliases
        self._view = None    # (base, op, attrs) if this tensor shows base's data (views.py)
        self._views = None   # weak references to the tensors that show this one's data
        self._strides = None   # torch's strides, if not row-major (layout.py; a view: cached)
        # "multi" on the views an op returned together (split...) and views of them, whose
        # in-place updates torch forbids (``view_links.mark_multi_views``), else None
        self._creation = None

    # ------------------------------------------------------------ structure
    @property
    def node(self) -> Node:
        """The graph node of this tensor: a traced tensor's own; for an eager tensor, the
        input it is captured through in a compile trace (``frontend.core.capture``), else a
        constant node of its current value."""
        if self._value is None:
            return self._node
        rec = _RECORDING.recording
        if rec is None:
            return self._const()
        if _CAPTURING[0] and rec.captures is not None:
            stand_in = rec.captures.lift(self)
            if stand_in is not None:
                return stand_in._node
        found = rec.consts.get(id(self))
        if found is not None and found[1] == self._vc[0] and found[2] is self._value:
            return found[3]
        node = self._const()
        rec.consts[id(self)] = (self, self._vc[0], self._value, node)
        return node

    def _const(self) -> Node:
        return const_node(self._value, self.dtype)

    @property
    def is_traced(self) -> bool:
        return self._value is None

    def size(self, dim: int | None = None):
        return self.shape if dim is None else self.shape[dim]

    @property
    def device(self):
        return CPU

    is_cuda = False
    is_cpu = True
    is_sparse = False
    is_quantized = False
    is_meta = False
    is_mps = False
    is_xpu = False
    layout = formats.strided   # dense, as every symgrad tensor

    @property
    def ndim(self) -> int:
        return len(self.shape)

    def dim(self) -> int:
        return self.ndim

    ndimension = dim

    def numel(self) -> int:
        return math.prod(self.shape)      # (a dims.Dim in a shape-generic trace)

    nelement = numel

    def element_size(self) -> int:
        return self.dtype.itemsize

    @property
    def itemsize(self) -> int:
        return self.dtype.itemsize

    @property
    def nbytes(self) -> int:
        return self.numel() * self.dtype.itemsize

    def is_floating_point(self) -> bool:
        return self.dtype.is_floating

    def __len__(self) -> int:
        if not self.shape:
            raise TypeError("len() of a 0-d tensor")
        if isinstance(self.shape[0], Dim):   # len() must return an int: the traced size's
            raise NotGeneric("len() of a tensor whose length is known at call time only "
                             "(x.shape[0] stays generic)")
        return self.shape[0]

    # ------------------------------------------------------------ autograd state
    @property
    def requires_grad(self) -> bool:
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, flag: bool) -> None:
        self.requires_grad_(flag)

    def requires_grad_(self, requires_grad: bool = True) -> Tensor:
        if self.grad_fn is not None:
            if not requires_grad:
                raise RuntimeError(
                    "you can only change requires_grad flags of leaf variables. If you want to "
                    "use a computed variable in a subgraph that doesn't require differentiation "
                    "use var_no_grad = var.detach().")
            return self
        if requires_grad and not self.dtype.is_differentiable:
            raise RuntimeError("only Tensors of floating point and complex dtype can require "
                               f"gradients (this tensor is {self.dtype.name})")
        if self._requires_grad != bool(requires_grad) and FLAG_CHANGE[0] is not None:
            FLAG_CHANGE[0](self)
        self._requires_grad = bool(requires_grad)
        return self

    @property
    def _version(self) -> int:
        """How many in-place updates this tensor's data has had (torch's ``t._version``);
        the counter cell ``_vc`` is shared with its views."""
        return self._vc[0]

    # What the layers above the front end (transforms, runtime, api) may read of a tensor:
    # these accessors, never its private attributes (tests/test_layers.py checks).
    @property
    def concrete(self):
        """The NumPy array of an eager tensor (None for a traced one); not a copy."""
        return self._value

    @property
    def version_cell(self) -> list:
        """The in-place update counter as its shared one-element cell (``[_version]``): a
        view and a ``detach()``ed alias bump the same cell."""
        return self._vc

    @property
    def weak(self) -> bool:
        """Whether it stands for a Python number (and promotes like one)."""
        return self._weak

    @property
    def is_leaf(self) -> bool:
        return self.grad_fn is None

    @property
    def output_nr(self) -> int:
        """Which output of its ``grad_fn`` this tensor is (0 for a leaf), as torch's."""
        fn = self.grad_fn
        return 0 if fn is None or not hasattr(fn, "output_nr") else fn.output_nr(self)

    @property
    def grad(self) -> Tensor | None:
        if self.grad_fn is not None and not self._retains_grad and self._grad is None:
            warnings.warn(
                "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. "
                "Its .grad attribute won't be populated during autograd.backward(). If you "
                "indeed want the .grad field to be populated for a non-leaf Tensor, use "
                ".retain_grad() on the non-leaf Tensor.", UserWarning, stacklevel=2)
        return self._grad

    @grad.setter
    def grad(self, value: Tensor | None) -> None:
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
        # weakly, as torch's retains_grad hook does (the tensor holds fn: no cycle)
        fn._retained = (fn._retained or ()) + (weakref.ref(self),)

    # ------------------------------------------------------------ values
    def numpy(self) -> np.ndarray:
        if self._value is None:
            raise tracer_error("value (numpy())")
        if _CAPTURING[0]:
            _noted(self)
        if self._requires_grad:
            raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use "
                               "tensor.detach().numpy() instead.")
        return self._value

    def __array__(self, dtype=None, copy=None):
        if self._value is None:
            raise tracer_error("array (np.asarray)")
        if _CAPTURING[0]:
            _noted(self)
        return self._value if dtype is None else self._value.astype(dtype)

    def item(self):
        if self._value is None:
            return _guards_of(self, "number (item())").item(self)
        if _CAPTURING[0]:
            _noted(self)
        if self._value.size != 1:
            raise RuntimeError(f"a Tensor with {self._value.size} elements cannot be converted "
                               "to Scalar")
        return self._value.item()

    def tolist(self):
        if self._value is None:
            raise tracer_error("list (tolist())")
        if _CAPTURING[0]:
            _noted(self)
        return self._value.tolist()

    def __bool__(self) -> bool:
        if self._value is None:
            return _guards_of(self, "bool (an if/while condition or and/or/not)").decide(self)
        if _CAPTURING[0]:
            _noted(self)
        if self._value.size != 1:
            raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
        return bool(self._value)

    def __float__(self) -> float:
        if self._value is None:
            return float(_guards_of(self, "float").exact(self))
        if self._value.size != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        return float(self.item())

    def __int__(self) -> int:
        if self._value is None:
            return int(_guards_of(self, "int").exact(self))
        if self._value.size != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        return int(self.item())

    def __index__(self) -> int:
        if self._value is None:
            if self.dtype.is_floating:
                raise TypeError("only integer tensors of a single element can be converted "
                                "to an index")
            return int(_guards_of(self, "index").exact(self))
        if self.dtype.is_floating:
            raise TypeError("only integer tensors of a single element can be converted to an "
                            "index")
        return int(self.item())

    def __hash__(self) -> int:
        return id(self)

    def __format__(self, spec: str) -> str:
        """``f"{loss:.4f}"`` and ``f"{loss}"`` format a 0-d tensor's number, as torch does
        (not a Parameter's: torch formats only a plain Tensor's item)."""
        if self._value is not None and self._value.ndim == 0 and type(self)._plain:
            return format(self.item(), spec)
        if not spec:
            return repr(self)
        raise TypeError("unsupported format string passed to Tensor.__format__")

    def __iter__(self):
        if not self.shape:
            raise TypeError("iteration over a 0-d tensor")
        return (self[i] for i in range(self.shape[0]))

    def __reduce__(self):
        if self._value is None:
            raise tracer_error("picklable value")
        return (tensor, (self._value, self.dtype, None, self._requires_grad))


def weakly_typed(t: Tensor, python_number: bool) -> Tensor:
    """``t``, marked as standing for a Python number when ``python_number`` (see ``weak``)."""
    t._weak = python_number
    return t


def placeholder(node: Node, python_number: bool = False) -> Tensor:
    """The traced tensor of a graph input. ``python_number``: it stands for a Python number
    passed to a compiled function, and promotes like one (``int64[3] * x`` stays int64 for an
    int ``x``, as in torch)."""
    return weakly_typed(Tensor(None, node), python_number)


def _legacy_value(data, second, sizes: tuple) -> np.ndarray:
    """The array of ``torch.Tensor(data)`` (a float32 copy) or ``torch.Tensor(*sizes)``
    (uninitialized in torch; zeros here)."""
    args = (data,) + (() if second is _CALL else (second,)) + sizes
    if data is None and second is _CALL:
        return np.zeros((0,), np.float32)
    if all(isinstance(a, (int, np.integer)) and not isinstance(a, bool) for a in args):
        return np.zeros(args, np.float32)
    if len(args) == 1 and type(args[0]) is Size:
        return np.zeros(args[0], np.float32)
    if len(args) > 1:
        raise TypeError("Tensor(): expected data (a list, an array, a tensor) or sizes "
                        f"(ints), got {', '.join(type(a).__name__ for a in args)}")
    if isinstance(data, Tensor):
        data = data.__array__()
    return np.array(data, dtype=np.float32)


def size_text(shape) -> str:
    """A shape the way torch prints one in messages: ``torch.Size([2, 3])``."""
    return f"torch.Size([{', '.join(map(str, shape))}])"


def tensor(data: Any, dtype: Any = None, device: Any = None, requires_grad: bool = False,
           pin_memory: bool = False) -> Tensor:
    """Copy ``data`` (nested lists, NumPy arrays, numbers) into a new leaf tensor."""
    if device is not None:
        check_device(device)
    if _CAPTURING[0] and isinstance(data, (Tensor, np.ndarray)):
        rec = _RECORDING.recording
        copied = None if rec is None or rec.captures is None else rec.captures.copy_of(data)
        if copied is not None:     # captured state: read at call time (frontend.capture)
            if dtype is not None:
                copied = copied.to(dtypes.as_dtype(dtype))
            return copied.requires_grad_() if requires_grad else copied
    if isinstance(data, Tensor):
        data = data.__array__()
    if isinstance(data, (list, tuple)) and holds_traced(data):
        raise tracer_error("array (symgrad.tensor copies values; a list of traced values, "
                           "such as a list argument of a compiled function, is made into one "
                           "tensor by symgrad.stack(list) or symgrad.as_tensor(list))")
    arr = np.array(data, copy=True)
    if arr.ndim > conversions.list_depth(data):    # tensors in the list: numbers, as torch's
        arr = np.array(conversions.scalars_of(data), copy=True)
    t = Tensor(arr.astype(_data_dtype(data, arr, dtype).np, copy=False), None)
    if requires_grad:
        t.requires_grad_(True)
    return t


def _data_dtype(data, arr: np.ndarray, dtype) -> dtypes.DType:
    """The dtype of ``torch.tensor(data, dtype=dtype)``, ``arr`` being ``data``'s array."""
    if dtype is not None:
        dt = dtypes.as_dtype(dtype)
        if _is_python_data(data):
            conversions.check_fits(arr, dt, dt.name)
    elif arr.dtype.kind == "f":   # NumPy data keeps its float type; Python floats the default
        dt = (isinstance(data, list) and conversions.list_dtype(data) or dtypes.DEFAULT_FLOAT) \
            if _is_python_data(data) else dtypes.from_numpy(arr.dtype) or dtypes.DEFAULT_FLOAT
    elif arr.dtype.kind == "c":   # and Python complex numbers the default complex
        dt = dtypes.DEFAULT_FLOAT.complex_dtype if _is_python_data(data) \
            else dtypes.from_numpy(arr.dtype)
    else:
        dt = dtypes.from_numpy(arr.dtype)
        if dt is None and _is_python_data(data) and arr.dtype.kind in "uO":
            raise ValueError("Overflow when unpacking long long")
        if dt is None:
            raise TypeError(f"can't convert data of NumPy dtype {arr.dtype} to a tensor; "
                            "supported: floating, integer and bool data")
    return dt


def holds_traced(data) -> bool:
    """Whether nested lists ``data`` hold traced tensors."""
    return any(isinstance(d, Tensor) and d._value is None or
               isinstance(d, (list, tuple)) and holds_traced(d) for d in data)


def traced_numbers(data) -> bool:
    """Whether ``data`` is a list (nested lists) of numbers some of which are traced: how a
    list-of-numbers argument of a compiled function arrives (a list is a pytree of numbers)."""
    return isinstance(data, list) and holds_traced(data) and _numbers(data)


def _numbers(data: list) -> bool:
    return all(_numbers(d) if isinstance(d, list) else
               isinstance(d, (int, float)) or isinstance(d, Tensor) and d.ndim == 0
               for d in data)


def _is_python_data(data: Any) -> bool:
    """Python floats and lists of them default to float32, like torch; NumPy float64 stays."""
    return not isinstance(data, (np.ndarray, np.generic))
