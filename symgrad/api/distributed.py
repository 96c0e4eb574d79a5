"""Compiled functions on Dask: blockwise evaluation and a data-parallel gradient.

Layer: api. Input: a compiled function (or a Python one, compiled here), arrays or dask arrays,
optionally a ``distributed.Client``. Output: a dask array (``map_blocks``) or the reduced
``(value, grads)`` (``value_and_grad_over``).

How the function travels: every signature the work needs (one per distinct block or chunk
shape) is compiled on the client first; the workers then receive a ``Shipped`` function, which
pickles as those signatures' artifacts (C text, cache key, signature) and not as Python code.
A worker loads it once per process (``_LOADED``, keyed by the payload's hash) from its own disk
cache, or rebuilds it from the C text when that cache lacks it: workers never trace (they do not
even import the tracing pipeline). In a worker, symgrad's loops run on one thread per task when
the worker runs several tasks at once (``worker_threads``): the worker's slots are its thread
budget.
"""

from __future__ import annotations

import hashlib
import itertools
import pickle
import threading
import weakref

import numpy as np

from .. import config
from ..pytree import flatten, unflatten
from . import compiled as compiled_module
from .compiled import CompiledFunction
from .gradients import value_and_grad

_LOADED: dict = {}          # payload hash -> CompiledFunction, in this (worker) process
_LOCK = threading.Lock()


class _Bare:
    """Pickles as a compiled function's signatures without its Python function."""

    def __init__(self, cf: CompiledFunction):
        self.cf = cf

    def __reduce__(self):
        cf = self.cf
        return (compiled_module._restore, (None, None, (), cf.static_argnums,
                                           cf.static_argnames, cf.name, cf.fast_math,
                                           tuple(cf.signatures.specs.items())))


class Shipped:
    """A compiled function as workers receive it (see the module docstring)."""

    def __init__(self, cf: CompiledFunction):
        self.name = cf.name
        self.payload = pickle.dumps(_Bare(cf), protocol=pickle.HIGHEST_PROTOCOL)
        self.digest = hashlib.sha256(self.payload).hexdigest()
        _LOADED.setdefault(self.digest, cf)      # the client calls its own

    def __reduce__(self):
        return (_arrive, (self.name, self.payload, self.digest))

    def function(self) -> CompiledFunction:
        cf = _LOADED.get(self.digest)
        if cf is None:
            with _LOCK:
                cf = _LOADED.get(self.digest)
                if cf is None:
                    cf = _LOADED[self.digest] = pickle.loads(self.payload)
        return cf

    def __call__(self, *args):
        with worker_threads():
            return self.function()(*args)


def _arrive(name: str, payload: bytes, digest: str) -> Shipped:
    shipped = Shipped.__new__(Shipped)
    shipped.name, shipped.payload, shipped.digest = name, payload, digest
    return shipped


class worker_threads:
    """Inside a Dask worker: its thread slots are its thread budget. A worker that runs several
    tasks at once runs each task's compiled loops on one thread (the slots already use the
    CPUs); a worker with one slot keeps symgrad's setting (by default, the CPUs other processes,
    the other workers among them, leave idle). Elsewhere, symgrad's setting as it is."""

    def __enter__(self):
        self.saved = None
        slots = _worker_slots()
        if slots and slots > 1:
            self.saved = config.settings.num_threads
            config.settings.num_threads = 1
        return self

    def __exit__(self, *exc):
        if self.saved is not None:
            config.settings.num_threads = self.saved


def _worker_slots() -> int | None:
    try:
        from distributed import get_worker
        return get_worker().state.nthreads
    except (ImportError, ValueError, AttributeError):
        return None


def _compiled(f) -> CompiledFunction:
    return f if isinstance(f, CompiledFunction) else CompiledFunction(f)


# ---------------------------------------------------------------------------------- map_blocks

def map_blocks(f, *arrays, **kwargs):
    """``dask.array.map_blocks`` with a compiled function: ``f`` runs on each block as
    compiled C on the workers. ``f`` returns one array; its dtype (and, when ``chunks`` is not
    given, its block shapes: the input blocks') come from compiling it here for every distinct
    block shape, which is also what the workers receive. Other keyword arguments go to
    ``dask.array.map_blocks`` (``chunks``, ``drop_axis``, ``new_axis``...)."""
    import dask.array as da
    cf = _compiled(f)
    arrays = [a if isinstance(a, da.Array) else da.from_array(np.asarray(a)) for a in arrays]
    out = None
    for shapes in _block_shapes(arrays):
        out = cf(*[np.zeros(s, dtype=a.dtype) for s, a in zip(shapes, arrays)])
        if not isinstance(out, np.ndarray):
            raise TypeError(f"symgrad.dask.map_blocks: {cf.name} must return one array, "
                            f"it returned {type(out).__name__}")
    kwargs.setdefault("dtype", out.dtype)
    kwargs.setdefault("meta", np.empty((0,) * out.ndim, dtype=out.dtype))
    return da.map_blocks(Shipped(cf), *arrays, **kwargs)


def _block_shapes(arrays) -> set:
    """The distinct combinations of block shapes the arrays' blocks come in."""
    grid = arrays[0].numblocks
    found = set()
    for index in itertools.product(*(range(n) for n in grid)):
        shapes = []
        for a in arrays:
            at = index[len(index) - a.ndim:] if a.ndim <= len(index) else index
            shapes.append(tuple(a.chunks[d][min(i, a.numblocks[d] - 1)]
                                for d, i in enumerate(at)))
        found.add(tuple(shapes))
    return found


# --------------------------------------------------------------------------- the gradient

def value_and_grad_over(f, params, chunks, argnums=0, client=None):
    """The sum over ``chunks`` of ``value_and_grad(f, argnums)(*params, *chunk)``, as
    ``(value, grads)``: each chunk's on a worker, then added up in a tree.

    ``params``: a tuple of arrays (sent once); ``chunks``: a list of tuples of arrays, or a
    tuple of dask arrays partitioned along axis 0 alike (chunk k is their k-th blocks).
    ``argnums`` counts from ``f``'s first parameter, as in ``value_and_grad``. ``client``: a
    ``distributed.Client``; None uses the default client if there is one, else Dask's default
    scheduler in this process."""
    import dask
    params = tuple(np.asarray(p) for p in params)
    pieces, signatures = _pieces(chunks)
    shipped = _shipped_gradient(f, argnums, params, signatures)
    params_d = dask.delayed(params, pure=True)
    partial = [dask.delayed(_chunk_value_and_grad)(shipped, params_d, *piece)
               for piece in pieces]
    total = _tree_sum(partial)
    client = client if client is not None else _default_client()
    if client is not None:
        return client.compute(total).result()
    return dask.compute(total)[0]


# (f, argnums) -> (its compiled value_and_grad, {signatures: Shipped}): a training loop
# calls value_and_grad_over once per step, and must not rebuild or re-pickle anything.
_GRADIENTS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _shipped_gradient(f, argnums, params: tuple, signatures: set) -> Shipped:
    """The ``Shipped`` value_and_grad of ``f``, compiled here for every signature."""
    try:
        per_f = _GRADIENTS.setdefault(f, {})
    except TypeError:        # not weakly referenceable: made afresh each time
        per_f = {}
    argkey = argnums if isinstance(argnums, int) else tuple(argnums)
    vg, shipments = per_f.setdefault(argkey, (value_and_grad(f, argnums=argnums), {}))
    key = (tuple((p.shape, p.dtype.str) for p in params), frozenset(signatures))
    shipped = shipments.get(key)
    if shipped is None:
        for signature in signatures:     # every signature compiled here, before shipping
            vg(*params, *[np.zeros(shape, dtype=dt) for shape, dt in signature])
        shipped = shipments[key] = Shipped(vg)
    return shipped


def _pieces(chunks) -> tuple[list, set]:
    """(the chunks as a list of tuples of arrays or delayed blocks, their distinct signatures
    as ((shape, dtype), ...))."""
    import dask.array as da
    name = "symgrad.dask.value_and_grad_over"
    if isinstance(chunks, tuple) and chunks and all(isinstance(a, da.Array) for a in chunks):
        if len({a.chunks[0] for a in chunks}) != 1 or any(
                len(c) != 1 for a in chunks for c in a.chunks[1:]):
            raise ValueError(f"{name}: the dask arrays must be partitioned alike along axis "
                             f"0, and not along other axes; got chunks "
                             f"{[a.chunks for a in chunks]}")
        blocks = [a.to_delayed().reshape(-1) for a in chunks]
        sizes = chunks[0].chunks[0]
        pieces = [tuple(b[k] for b in blocks) for k in range(len(sizes))]
        signatures = {tuple(((n, *a.shape[1:]), a.dtype) for a in chunks) for n in sizes}
        return pieces, signatures
    pieces = [tuple(np.asarray(a) for a in c) for c in chunks]
    if not pieces:
        raise ValueError(f"{name}: no chunks")
    return pieces, {tuple((a.shape, a.dtype) for a in piece) for piece in pieces}


def _chunk_value_and_grad(shipped: Shipped, params: tuple, *chunk):
    return shipped(*params, *[np.asarray(a) for a in chunk])


def _add(a, b):
    (va, ga), (vb, gb) = a, b
    la, tree = flatten(ga)
    lb, _ = flatten(gb)
    return va + vb, unflatten(tree, [x + y for x, y in zip(la, lb)])


def _tree_sum(partial: list):
    import dask
    level = list(partial)
    while len(level) > 1:
        level = [dask.delayed(_add)(level[i], level[i + 1]) if i + 1 < len(level)
                 else level[i] for i in range(0, len(level), 2)]
    return level[0]


def _default_client():
    try:
        from distributed import default_client
        return default_client()
    except (ImportError, ValueError):
        return None
