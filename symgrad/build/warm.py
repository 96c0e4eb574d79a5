"""Warm starts on disk: small records kept under a pre-trace key, beside the builds.

Layer: build. Input: a key (hex) and bytes. Output: the bytes stored under the key, or None.
The records live in the cache's private data directory ``<root>/data/warm/`` (``cache.
private_dir``: only when caching is on and the root passes the trust checks), are written
atomically (``files.atomic_write``) and read only when the file is ours alone
(``trust.read_private``); anything else reads as None. What the bytes mean is the api's
business (a pickled ``runtime.Artifact``).
"""

from __future__ import annotations

import re

from . import cache
from .files import atomic_write
from .trust import read_private

_KEY = re.compile(r"^[0-9a-f]{64}$")


def read(key: str) -> bytes | None:
    directory = cache.private_dir("warm")
    if directory is None or not _KEY.match(key):
        return None
    try:
        data, problem = read_private(directory / f"{key}.pkl")
    except OSError:
        return None
    return None if problem else data


def write(key: str, data: bytes) -> bool:
    """Store ``data`` under ``key``; whether it was stored."""
    directory = cache.private_dir("warm", create_root=True)
    if directory is None or not _KEY.match(key):
        return False
    try:
        atomic_write(directory / f"{key}.pkl", data)
    except OSError:
        return False
    return True
