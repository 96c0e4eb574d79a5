"""The released graph of a compiled step's results, made when it is used.

Layer: front end, above ``backward_graph``, ``pending`` and ``lazy`` (the trie's paths, the
ops' entries), below ``lazy_backward``, which makes a ``Record`` per compiled step that kept a
result requiring grad. Input: a ``ReplayedTensor`` whose ``grad_fn`` is read, or which an op
takes as an operand. Output: the step's graph made again eagerly (``rebuild``), released as the
backward that computed it would have left it, each kept result's ``grad_fn`` the node torch
would show.

Compiled code builds no Python objects per op, so a kept result has no graph until asked.
Two kinds of asking differ in cost:

* ``y.grad_fn`` read by the program (its name, ``next_functions``, a hook): the graph is made
  at once, running the step's ops again on placeholder values (~the eager step's time).
* An op on a kept result that requires grad (``total += float(loss.sum())`` after the
  backward, the idiom of every tutorial's training loop): the new node only needs an *edge*
  to the result's ``grad_fn``. It gets an ``Unbuilt`` node, an object of the same layout as
  every backward node, which makes the graph on its first attribute read and then becomes,
  in place, the node the graph made (its class and slots; the graph's other nodes are
  pointed at it). So its identity is the one torch shows (``loss.grad_fn is
  loss.sum().grad_fn.next_functions[0][0]``) and nothing is made if nothing reads it, as for
  a sum whose value only is printed.
"""

from __future__ import annotations

import weakref

import numpy as np

from .backward_graph import BackwardFunction
from .lazy import _path, paused
from .lazy_ops import run_entry
from . import pending as pending_mod
from .pending import RAW, ReplayedTensor
from .tensor import Tensor

_weakref = weakref.ref
_get = object.__getattribute__
_FN = RAW["grad_fn"]
_TRACE = RAW["_trace"]
_SLOTS = tuple(BackwardFunction.__dict__[name] for name in BackwardFunction.__slots__
               if name != "__weakref__")


class Record:
    """What the released graph of a compiled step's results needs to be made again: the
    path, the leaves that require grad (their identity is the graph's), the other externals'
    shapes and dtypes only (their values no longer matter: the graph is released), the
    results kept (weakly), and the ``Unbuilt`` nodes handed out for them."""

    __slots__ = ("node", "ext", "kept", "unbuilt", "single")

    def __init__(self, node, ext: list, kept: tuple, tensors: list):
        self.node = node
        self.ext = [t if t._requires_grad else (t.shape, t.dtype) for t in ext]
        self.kept = {i: _weakref(tensors[i]) for i in kept}
        self.unbuilt: dict = {}   # index -> weak reference to its Unbuilt node
        self.single = None        # whether every node of the path has one output


class Unbuilt(BackwardFunction):
    """A kept result's ``grad_fn`` not made yet: any attribute read makes the step's graph
    and turns this object into the node made for the result (see the module docstring).
    ``_made`` holds ``(record, index)`` until then."""

    __slots__ = ()
    _n_outputs = 1   # (handed out only where every node has one output: ``edge_fn``)

    def __getattribute__(self, name: str):
        if name == "_n_outputs":
            return 1
        _build(_get(self, "_made")[0])
        return _get(self, name)

    def __repr__(self) -> str:
        _build(_get(self, "_made")[0])
        return repr(self)


def edge_fn(t: ReplayedTensor):
    """The ``grad_fn`` an op's node takes as its edge for kept result ``t``: its node if made,
    else an ``Unbuilt`` one (``backward_graph.record_function``)."""
    fn = _FN.__get__(t, Tensor)
    if fn is not None:
        return fn
    record = _TRACE.__get__(t, Tensor)
    if record is None:
        return t.grad_fn
    if record.single is None:   # (not a node of several outputs: its edges need numbers)
        record.single = all(n.entry[0] in "acd" for n in _path(record.node))
    if not record.single:
        return t.grad_fn
    index = next(i for i, ref in record.kept.items() if ref() is t)
    fn = object.__new__(Unbuilt)
    fn._made = (record, index)
    record.unbuilt[index] = _weakref(fn)
    _FN.__set__(t, fn)
    return fn


def rebuild(t: ReplayedTensor) -> None:
    """A replayed tensor's ``grad_fn`` was asked for: make its step's graph (``pending``'s
    hook)."""
    record = _TRACE.__get__(t, Tensor)
    if record is None:
        t.__class__ = Tensor
        return
    _build(record)


def _build(record: Record) -> None:
    """Make the step's graph again, eagerly, released as the backward that computed it left
    it; give each kept result and each ``Unbuilt`` node its node."""
    ext = [e if isinstance(e, Tensor) else Tensor(np.zeros(e[0], e[1].np), None)
           for e in record.ext]
    env: list = []
    with paused():
        for node in _path(record.node):
            env.append(run_entry(node.entry, env, ext))
    for r in env:
        if r is None:   # (an "m" entry)
            continue
        fn = r.grad_fn
        if fn is not None:
            fn.release()
    made = _become(record, env)
    for i, ref in record.kept.items():
        kept = ref()
        if kept is not None and type(kept) is ReplayedTensor:
            fn = env[i].grad_fn
            _FN.__set__(kept, made.get(fn, fn))
            _TRACE.__set__(kept, None)
            kept.__class__ = Tensor
    record.unbuilt.clear()
    record.kept.clear()


def _become(record: Record, env: list) -> dict:
    """Turn each live ``Unbuilt`` node of ``record`` into the node the graph made for its
    result (its slots and class), and point the graph's nodes at it; the graph's node ->
    the object that became it."""
    made = {}
    for i, ref in record.unbuilt.items():
        stub = ref()
        if stub is not None:
            made[env[i].grad_fn] = stub
    for real, stub in made.items():
        for slot in _SLOTS:
            try:
                slot.__set__(stub, slot.__get__(real, type(real)))
            except AttributeError:   # (a slot the node never set)
                pass
        stub.__class__ = type(real)
    if made:
        for r in env:
            fn = None if r is None else _FN.__get__(r, Tensor)
            if fn is not None and any(e[0] in made for e in fn._edges):
                fn._edges = tuple((made.get(f, f), k) for f, k in fn._edges)
    return made


pending_mod.REBUILD[0] = rebuild
pending_mod.EDGE_FN[0] = edge_fn
