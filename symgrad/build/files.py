"""Private, atomic file writes for the build cache and its clients.

Layer: build (its bottom). ``atomic_write`` replaces a file so that readers see the old one or
the new one, never part of one; ``sha256_file`` hashes a file in blocks.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
from pathlib import Path


def atomic_write(path: Path, data: str | bytes) -> None:
    """Replace ``path`` with ``data`` so that readers see the old file or the new, never part of
    one: write a temporary file beside it (``mkstemp``: O_EXCL, mode 0600), then rename it.
    Raises OSError; the temporary file is gone either way."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=f"-{path.name}", dir=path.parent)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.close(fd)
        fd = -1
        os.replace(tmp, path)
    except BaseException:
        if fd >= 0:
            os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
