"""Warm starts on disk: small records kept under a pre-trace key, beside the builds.

Layer: build. Input: a key (hex) and a record (any picklable object). Output: the record
stored under the key, or None. The records live in the cache's private data directory
``<root>/data/warm/`` (``cache.private_dir``: only when caching is on and the root passes the
trust checks), are written atomically (``files.atomic_write``) and read only when the file is
ours alone (``trust.read_private``: so unpickling it trusts only ourselves); anything else, and
a record that does not unpickle here (written by another symgrad), reads as None. What a record
means is its writer's business (``pipeline.compile_or_load``; the api's checks).
"""

from __future__ import annotations

import pickle
import re

from .. import config
from . import cache
from .files import atomic_write
from .trust import read_private

_KEY = re.compile(r"^[0-9a-f]{64}$")


def read(key: str):
    """The record stored under ``key``, or None."""
    directory = cache.private_dir("warm")
    if directory is None or not _KEY.match(key):
        return None
    try:
        data, problem = read_private(directory / f"{key}.pkl")
    except OSError:
        return None
    if problem:
        return None
    try:
        return pickle.loads(data)    # (from our own, trusted cache directory)
    except Exception as e:   # noqa: BLE001 - a stale or broken record: as if there were none
        config.debug(1, "warm record %s unusable (%s)", key[:16], e)
        return None


def write(key: str, record) -> bool:
    """Store ``record`` under ``key``; whether it was stored (not: no usable cache, or a
    record that does not pickle, e.g. a static argument that cannot)."""
    directory = cache.private_dir("warm", create_root=True)
    if directory is None or not _KEY.match(key):
        return False
    try:
        data = pickle.dumps(record, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:   # noqa: BLE001
        return False
    try:
        atomic_write(directory / f"{key}.pkl", data)
    except OSError:
        return False
    return True
