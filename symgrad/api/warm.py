"""Instant warm starts: a signature compiled by an earlier process is loaded, not traced.

Layer: api. Input: a ``CompiledFunction``, its current captured state (``api.state``) and a
signature that missed in memory. Output: what ``pipeline.compile_or_load`` needs: the
signature's warm-start key (``key_of``: the state's digest, the backend's target and the
signature), ``load`` (the ``Specialization`` of an earlier process's record, its module from
the build cache or rebuilt from its source, never traced; or None when a check fails) and
``record`` (what a fresh compile stores). The pipeline reads and writes the records.

A record holds the artifact and what its reuse depends on beyond the key, checked here before
it is used: the paths of its captured tensors and arrays (found again in this process's
state: they are read at each call), and the content of what the trace read concretely (a
tensor read as a number, an array the code baked), the environment variables and the files it
read. A state that cannot be fingerprinted has no key; a trace that drew random numbers or
read what no check sees (``volatile``) is not stored; a signature whose trace took decisions
on values (guards: several paths) is not stored either (its paths are traced as they are
met).

Shape-generic modules (``api.dynamic``) are stored the same way, under the key of their
pattern (the signature with each dynamic size replaced by its size symbol's number):
``load_generic`` / ``record_generic``; and which dims an automatic switch made dynamic, under
``marks_key``.
"""

from __future__ import annotations

import hashlib

import numpy as np

from .. import config
from ..frontend.core.tensor import Tensor
from ..runtime import Specialization
from ..runtime.captured import Captured, snapshot, world_holds
from .fingerprint import Unknown, Walk, qualname


# Part of every key: bumped when what a record holds changes meaning, so that a record written
# by an older symgrad is never read (2: the C source's typed parameters, for the native call).
RECORD_FORMAT = 2


def key_of(cf, key: tuple, names: list) -> str | None:
    """The warm-start key of signature ``key`` (see ``signature_key``) in ``cf``'s current
    captured state, or None: warm starts are off, or the state cannot be fingerprinted."""
    if config.warm_start_disabled():
        return None
    state = cf.captured_state()
    try:
        return signature_key(state.walk, key, names)
    except Unknown as e:
        if cf.said_unknown is not state:     # (once per state, not per lookup)
            cf.said_unknown = state
            config.debug(1, "%s: no warm start (cannot fingerprint %s): tracing", cf.name, e)
        return None


def load(cf, record: tuple) -> Specialization | None:
    """The specialization of a record, if it applies in this process (its checks hold)."""
    artifact, checks = record
    captured = _bind(cf, artifact.captures, checks)
    if captured is None:
        return None
    spec = Specialization.from_artifact(artifact, captured)
    config.debug(1, "%s: warm start from disk (%s), not traced", cf.name, artifact.key[:16])
    return spec


def record(cf, spec) -> tuple | None:
    """The record of a freshly compiled specialization, or None: one whose trace took
    decisions on values (its paths are traced as met), a binding of a shape-generic module
    (recorded as that module), or one whose reuse depends on what a record cannot say."""
    if not isinstance(spec, Specialization) or spec.outcomes or spec.artifact.sizes:
        return None
    checks = _checks(cf, spec.artifact.captures, spec.captured)
    return None if checks is None else (spec.artifact, checks)


def load_generic(cf, record: tuple):
    """The ``runtime.Generic`` of a shape-generic record, if it applies in this process."""
    from ..runtime.generic import Generic
    artifact, guards, seen, checks = record
    captured = _bind(cf, artifact.captures, checks)
    if captured is None:
        return None
    generic = Generic.from_artifact(artifact, guards, captured)
    generic.seen = seen
    config.debug(1, "%s: shape-generic module from disk (%s), not traced", cf.name,
                 artifact.key[:16])
    return generic


def record_generic(cf, generic) -> tuple | None:
    checks = _checks(cf, generic.artifact.captures, generic.captured)
    return None if checks is None else \
        (generic.artifact, generic.guards, generic.seen, checks)


def marks_key(cf, ranks: tuple, names: list) -> str | None:
    """The key of the record of which dims an automatic shape-generic switch made dynamic
    for signatures of these ranks (``api.dynamic.remembered_spec``)."""
    prekey = key_of(cf, ranks, names)
    return None if prekey is None else \
        hashlib.blake2b(f"marks {prekey}".encode(), digest_size=32).hexdigest()


# ------------------------------------------------------------------ records
def _checks(cf, captures: tuple, captured: Captured) -> dict | None:
    """What a record needs besides its artifact (see the module docstring), or None when
    the specialization cannot be stored: a volatile trace, or a captured object, a tensor
    read as a number or a baked array that no path of the captured state reaches."""
    if captured.volatile or any(path is None for _, path, _ in captures):
        return None
    paths = {id(obj): path for obj, path in cf.captured_state().reachable.values()}
    try:
        reads = [(paths[id(t)], _content(storage)) for t, _, _, storage in captured.reads]
        arrays = [(paths[id(a)], _content(a)) for a, _ in captured.arrays]
    except KeyError:
        return None
    # A captured NumPy array may also have been read by NumPy code while tracing (x * W +
    # np.sum(W)), which nothing can see: another process reuses the record only for the
    # same contents (a tensor's reads are seen: ``frontend.core.capture``).
    captured_arrays = [(path, _content(obj)) for obj, (_, path, _) in
                       zip(captured.objects, captures) if isinstance(obj, np.ndarray)]
    return {"reads": reads, "arrays": arrays + captured_arrays, "world": captured.world}


def _bind(cf, captures: tuple, checks: dict) -> Captured | None:
    """The record's captured objects found in this process's state, with its checks done
    (None: something differs, trace instead)."""
    by_path = {path: obj for obj, path in cf.captured_state().reachable.values()}
    try:
        objects = tuple(by_path[path] for _, path, _ in captures)
        reads = []
        for path, digest in checks["reads"]:
            t = by_path[path]
            if not isinstance(t, Tensor) or _content(t.concrete) != digest:
                return None
            reads.append((t, t.version_cell, t.version_cell[0], t.concrete))
        arrays, captured_ids = [], {id(o) for o in objects}
        for path, digest in checks["arrays"]:
            a = by_path[path]
            if _content(a) != digest:
                return None
            if id(a) not in captured_ids:    # (a captured one is read at each call)
                arrays.append((a, snapshot(a)))
    except KeyError:
        return None
    if not world_holds(checks["world"]):
        return None
    kinds = tuple(kind for kind, _, _ in captures)
    if kinds != tuple("tensor" if isinstance(o, Tensor) else "array" for o in objects):
        return None
    return Captured(objects, tuple(reads), tuple(arrays), tuple(checks["world"]))


def _content(a: np.ndarray) -> tuple:
    return a.shape, a.dtype.str, hashlib.blake2b(np.ascontiguousarray(a).tobytes(),
                                                 digest_size=32).hexdigest()


def signature_key(w, key: tuple, names: list) -> str:
    """The warm-start key of the signature ``key`` (``CompiledFunction.specialize``'s key,
    whose leaves are called ``names``) of a function whose captured state walked as ``w``.
    Raises ``Unknown`` when the walk met something it cannot fingerprint."""
    from .. import pipeline   # (the backend's target: the source differs with it)
    if w.opaque:
        raise Unknown(w.opaque[0])
    h = hashlib.blake2b(digest_size=32)
    tree, statics, leaves = key
    parts = [RECORD_FORMAT, w.digest, repr(pipeline.target()), tree.describe(), _tree_meta(tree),
             [(shape, dt.name, py.__name__ if py else "") for shape, dt, py in leaves], names]
    statics_walk = Walk()
    statics_walk.value(statics, (), "a static argument")
    if statics_walk.opaque:
        raise Unknown(statics_walk.opaque[0])
    parts.append(statics_walk.digest)
    for part in parts:
        data = str(part).encode()
        h.update(len(data).to_bytes(8, "little") + data)
    return h.hexdigest()


def _tree_meta(tree) -> tuple:
    """The parts of a TreeDef its description leaves out (namedtuple classes)."""
    meta = tree.meta if tree.kind != "namedtuple" else qualname(tree.meta)
    return (meta if tree.kind == "dict" else str(meta), tuple(_tree_meta(c)
                                                               for c in tree.children))
