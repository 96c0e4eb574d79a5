"""The tensors of a captured eager step (``lazy``) before and after its compiled code ran.

Layer: front end, above ``tensor``. Input: a step's result metadata (shape, dtype,
``requires_grad``, layout) and, later, its value. Output: two subclasses of ``Tensor`` with
its exact layout (no slot of their own), so that an object changes class in place, and what
the user holds stays the object torch would have given:

* ``PendingTensor``: a result not computed yet. Its metadata are ordinary slots (shape,
  dtype, ``requires_grad``, strides: what torch code reads without touching data), every
  other slot is a property that first *materializes* the step (``lazy.materialize``: the
  step runs eagerly, as it would have without capture) and then reads the real slot. So
  any use the capture does not know (a value read, ``retain_grad``, a hook, ``grad_fn``,
  an in-place update, a view's links) falls back to the eager result, never a wrong one.
* ``ReplayedTensor``: a result the compiled step computed. It is an ordinary eager tensor
  whose graph was freed by the backward that computed it, but its ``grad_fn`` is made only
  when read (``lazy.rebuild``: the step's eager graph made again, released as a backward
  leaves it), since compiled code builds no Python objects per op.

The raw slots behind the properties are read and written through ``RAW`` (the base class's
slot descriptors): ``_node`` of a pending tensor holds its index in the step, ``_trace`` of a
replayed one its step's record.
"""

from __future__ import annotations

from .tensor import Tensor

# The base class's slot descriptors: the raw slots, behind the subclasses' properties.
RAW = {name: Tensor.__dict__[name] for name in Tensor.__slots__ if name != "__weakref__"}
SLOTS = tuple(RAW.items())
# What a pending tensor knows without its value (the metadata torch code reads freely; the
# first five from the step's record, ``_creation`` as the capture marks it: ``lazy_composite``).
METADATA = ("shape", "dtype", "_requires_grad", "_weak", "_strides", "_creation")

# Set by ``lazy`` and ``lazy_backward``: materialize(tensor) and rebuild(tensor) (an
# interface passed down: this module is below the recorder).
MATERIALIZE: list = [None]
REBUILD: list = [None]
EDGE_FN: list = [None]   # lazy_graph.edge_fn(replayed tensor): its node, or one made when used


def _after(hook: list, name: str) -> property:
    """Slot ``name`` read and written after ``hook[0](tensor)`` has run (it changes the
    tensor's class: later accesses find the plain slot)."""
    raw = RAW[name]

    def get(self):
        hook[0](self)
        return raw.__get__(self, Tensor)

    def put(self, value):
        hook[0](self)
        raw.__set__(self, value)
    return property(get, put)


# The raw ``_view`` of a pending tensor that is a view (another's data): reading it
# materializes. Others' is None, what the eager result's would be (layout code reads it).
A_VIEW = object()


def _view_get(self):
    view = RAW["_view"].__get__(self, Tensor)
    if view is A_VIEW:
        MATERIALIZE[0](self)
        view = RAW["_view"].__get__(self, Tensor)
    return view


def _view_put(self, value):
    MATERIALIZE[0](self)
    RAW["_view"].__set__(self, value)


class PendingTensor(Tensor):
    """A result of a captured step, not computed yet (see the module docstring)."""

    __slots__ = ()
    _plain = True
    locals().update({name: _after(MATERIALIZE, name) for name in RAW if name not in METADATA})
    _view = property(_view_get, _view_put)

    @property
    def is_leaf(self) -> bool:   # (a result that requires grad has its backward node)
        return not self._requires_grad

    @property
    def is_traced(self) -> bool:   # (an eager value, not computed yet)
        return False


class ReplayedTensor(Tensor):
    """A result the compiled step computed; its released ``grad_fn`` made when read."""

    __slots__ = ()
    _plain = True
    grad_fn = _after(REBUILD, "grad_fn")
    _trace = _after(REBUILD, "_trace")

    @property
    def is_leaf(self) -> bool:
        return False


# What the program sees of their class is Tensor's (``type(loss).__name__``, an error message
# that names the argument's type), as torch's ``type()`` of any result shows: the subclasses
# are the capture's bookkeeping, not a kind of tensor.
for _cls in (PendingTensor, ReplayedTensor):
    _cls.__name__ = _cls.__qualname__ = Tensor.__name__
    _cls.__module__ = Tensor.__module__
_NEW = object.__new__


def pending(meta: tuple, index: int, view: bool) -> PendingTensor:
    """A pending result with metadata ``meta`` (``METADATA``'s order), number ``index``;
    ``view``: whether it shows another tensor's data."""
    t = _NEW(PendingTensor)
    t.shape, t.dtype, t._requires_grad, t._weak, t._strides = meta
    t._creation = None
    _SET_NODE(t, index)
    _SET_VIEW(t, A_VIEW if view else None)
    return t


_SET_NODE, _SET_VIEW = RAW["_node"].__set__, RAW["_view"].__set__


def index_of(t: PendingTensor) -> int:
    return RAW["_node"].__get__(t, Tensor)


# The slots ``become`` copies: not the metadata, which the pending tensor has already, and
# which the program may have set since (``out._strides = None`` after an op, as layout code
# does): its own are the ones that hold.
_STATE_SLOTS = tuple((name, raw) for name, raw in SLOTS if name not in METADATA)


def become(t: Tensor, real: Tensor) -> None:
    """Make pending ``t`` the eager tensor ``real`` is: its state copied, its class
    ``Tensor``. ``real`` is dropped after: where a view's base lists it among its views,
    ``t`` takes its place."""
    for _, raw in _STATE_SLOTS:
        raw.__set__(t, raw.__get__(real, Tensor))
    if real._creation is not None:   # (a view of a split's piece, made eagerly)
        t._creation = real._creation
    t.__class__ = Tensor
    view = t._view
    if view is not None:
        refs = view[0]._views
        for k, ref in enumerate(refs or ()):
            if ref() is real:
                refs[k] = type(ref)(t)
                break


def replayed(t: PendingTensor, value, record) -> None:
    """Turn pending ``t`` into a replayed tensor holding ``value`` (an array) from ``record``
    (what ``lazy.rebuild`` needs to make its graph)."""
    _SET_VALUE(t, value)
    for clear in _CLEARED:
        clear(t, None)
    _SET_RETAINS(t, False)
    _SET_VC(t, [0])
    if t._requires_grad:
        _SET_TRACE(t, record)
        t.__class__ = ReplayedTensor
    else:
        _SET_TRACE(t, None)
        t.__class__ = Tensor


# (the slots ``replayed`` sets: their raw setters, bound once)
_SET_VALUE, _SET_RETAINS, _SET_VC, _SET_TRACE = (
    RAW[name].__set__ for name in ("_value", "_retains_grad", "_vc", "_trace"))
_CLEARED = tuple(RAW[name].__set__ for name in ("_node", "_grad", "_accumulator", "_view",
                                                "_views", "grad_fn"))
