"""Where the C backend keeps its compiled templates (``codegen.c.bytecode``'s directory).

Layer: build (the C backend). Input: the templates' directory (``codegen.c.templates``), the
settings, the build cache. Output: a directory this process may trust with code it will run,
or None (the templates then compile from source). First choice: beside the templates,
``<templates>/__pycache__``, as Python keeps a package's ``.pyc`` files, so that a fresh or
empty build cache does not compile them again; it is used when caching is on, Python may write
bytecode (not ``-B`` / ``PYTHONDONTWRITEBYTECODE``) and the directory exists or can be made and
passes the build cache's trust rules (``trust.root_problem``: a real directory owned by this
user, writable by no one else, and so are the directories above it, or root's, or sticky).
Else the build cache's private ``templates`` directory (``cache.private_dir``).
"""

from __future__ import annotations

import contextlib
import functools
import os
import sys
from pathlib import Path

from ... import config
from .. import cache, trust

BESIDE = "__pycache__"


def directory(create_cache: bool = False) -> str | None:
    """The directory for compiled templates (``create_cache``: the build cache's root may be
    created for them, when they cannot be kept beside the templates)."""
    if config.cache_disabled():
        return None
    from ...codegen.c.templates import directory as templates
    found = beside(str(templates())) if not sys.dont_write_bytecode else None
    if found is None:
        private = cache.private_dir("templates", create_root=create_cache)
        found = str(private) if private else None
    return found


@functools.lru_cache(maxsize=8)
def beside(templates: str) -> str | None:
    """``<templates>/__pycache__``, made if missing, if it may be trusted; else None. Checked
    once per process and templates directory."""
    path = Path(templates) / BESIDE
    with contextlib.suppress(OSError):   # (a read-only installation, say: then not there)
        os.mkdir(path, 0o755)
    if not path.is_dir() or trust.root_problem(path, create=False) is not None:
        return None
    return str(path)
