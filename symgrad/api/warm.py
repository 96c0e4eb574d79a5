"""Instant warm starts: a signature compiled by an earlier process is loaded, not traced.

Layer: api. Input: a ``CompiledFunction`` and a signature that missed in memory. Output: the
``Specialization`` an earlier process stored under the signature's pre-trace key
(``fingerprint.signature_key``), loaded from the build cache (or rebuilt from its C text, never
traced); or None, and then the caller traces and hands the result to ``remember``.

A signature whose trace took decisions on values (guards: several paths) is not stored: its
paths are traced as they are met. A function with a dependency that cannot be fingerprinted
is traced, and the debug log says which dependency.

Shape-generic modules (``api.dynamic``) are stored the same way, under the pre-trace key of
their pattern (the signature with each dynamic size replaced by its size symbol's number):
``lookup_generic`` / ``remember_generic``.
"""

from __future__ import annotations

import pickle

from .. import config
from ..build import warm
from ..runtime import Specialization
from .fingerprint import Unknown, signature_key


def lookup(cf, key: tuple, names: list) -> tuple[str | None, Specialization | None]:
    """(the pre-trace key or None, the stored specialization or None)."""
    prekey, _ = _key(cf, key, names)
    data = warm.read(prekey) if prekey else None
    if data is None:
        return prekey, None
    try:
        artifact = pickle.loads(data)    # (from our own, trusted cache directory)
        spec = Specialization.from_artifact(artifact)
    except Exception as e:   # noqa: BLE001 - a stale or broken record: trace instead
        config.debug(1, "%s: warm record %s unusable (%s): tracing", cf.name, prekey[:16], e)
        return prekey, None
    config.debug(1, "%s: warm start from disk (%s), not traced", cf.name, prekey[:16])
    return prekey, spec


def remember(prekey: str | None, spec) -> None:
    """Store a freshly compiled specialization under its pre-trace key (not a guarded one)."""
    if prekey is None or not isinstance(spec, Specialization) or spec.outcomes:
        return
    try:
        data = pickle.dumps(spec.artifact, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:   # noqa: BLE001 - e.g. a static argument that does not pickle
        return
    warm.write(prekey, data)


def lookup_generic(cf, pattern: tuple, names: list):
    """(the pre-trace key or None, the stored ``runtime.Generic`` or None) of a shape-generic
    pattern ``pattern`` (a signature key whose dynamic sizes are symbol names)."""
    from ..runtime.generic import Generic
    prekey, _ = _key(cf, pattern, names)
    data = warm.read(prekey) if prekey else None
    if data is None:
        return prekey, None
    try:
        artifact, guards, seen = pickle.loads(data)    # (our own, trusted cache directory)
        generic = Generic.from_artifact(artifact, guards)
    except Exception as e:   # noqa: BLE001 - a stale or broken record: trace instead
        config.debug(1, "%s: warm record %s unusable (%s): tracing", cf.name, prekey[:16], e)
        return prekey, None
    generic.seen = seen
    config.debug(1, "%s: shape-generic module from disk (%s), not traced", cf.name,
                 prekey[:16])
    return prekey, generic


def remember_generic(prekey: str | None, generic) -> None:
    if prekey is None:
        return
    try:
        data = pickle.dumps((generic.artifact, generic.guards, generic.seen),
                            protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:   # noqa: BLE001
        return
    warm.write(prekey, data)


def _key(cf, key: tuple, names: list) -> tuple[str | None, None]:
    if config.warm_start_disabled():
        return None, None
    try:
        return signature_key(cf, key, names), None
    except Unknown as e:
        config.debug(1, "%s: no warm start (cannot fingerprint %s): tracing", cf.name, e)
        return None, None
