"""Library code: what keys a module, class or function that is not the user's program.

Layer: api (below ``fingerprint``). Input: a module name (and a code object's file name).
Output: the key of library code (its module name, version and the content of its file) or
None for the user's program, whose code ``fingerprint`` walks instead.

A module is library code if it lives where Python installs code (the standard library,
site-packages), is symgrad itself, or is built into the interpreter. A module with no file
(``python -c``, a REPL), one not in ``sys.modules`` (loaded by ``importlib`` for a plugin),
and code made by ``exec``/``compile`` are the user's program: a name alone says nothing about
such code, so it is never keyed by name.
"""

from __future__ import annotations

import hashlib
import os
import sys
import sysconfig

from ..config import PACKAGE_DIR
from ..version import __version__

# Where library code lives: a module from here is keyed by name, version and file content.
_LIBRARY_DIRS = tuple({sysconfig.get_paths()[k] for k in ("stdlib", "platstdlib", "purelib",
                                                         "platlib")})
# Modules whose functions read the clock or a random source: code that names them gives a
# result that differs from process to process (no warm-start key).
_IMPURE = frozenset({"time", "random", "_random", "secrets", "uuid", "datetime",
                     "numpy.random", "numpy.random.mtrand"})


def library(module_name: str, filename: str | None = None) -> tuple | None:
    """The key of library code (module name, version, file content), or None for code of
    the user's program (which is walked instead)."""
    if filename is not None:
        if filename.startswith(PACKAGE_DIR):   # (a wrapper may carry the user's __module__)
            return ("symgrad", __version__, symgrad_source())
        if filename.startswith("<"):
            return None       # exec/compile-made code, a lambda typed at a prompt
    if not module_name:
        return None
    top = module_name.split(".")[0]
    if top == "symgrad":
        return ("symgrad", __version__, symgrad_source())
    if top in sys.builtin_module_names:
        return ("builtin", module_name)
    module = sys.modules.get(module_name)
    if module is None:
        return None
    path = getattr(module, "__file__", None)
    if path is None:
        return ("frozen", module_name, sys.version) if module_name in sys.stdlib_module_names \
            else None
    if not path.startswith(_LIBRARY_DIRS):
        return None
    version = getattr(sys.modules.get(top), "__version__", "")
    return ("library", module_name, version, _file_digest(path))


def library_class(cls: type) -> tuple | None:
    """A class's library key, or None for a class of the program: one whose module is not
    a library, or that its module does not hold under its name (made by ``exec``)."""
    key = library(cls.__module__)
    if key is None:
        return None
    found = sys.modules.get(cls.__module__)
    for part in cls.__qualname__.split("."):
        found = getattr(found, part, None)
    return key if found is cls else None


_FILES: dict = {}     # path -> (stat identity, digest)


def _file_digest(path: str) -> str:
    try:
        st = os.stat(path)
    except OSError:
        return "missing"
    ident = (st.st_size, st.st_mtime_ns, st.st_ino)
    found = _FILES.get(path)
    if found is None or found[0] != ident:
        try:
            with open(path, "rb") as f:
                digest = hashlib.blake2b(f.read(), digest_size=16).hexdigest()
        except OSError:
            digest = "unreadable"
        found = _FILES[path] = (ident, digest)
    return found[1]


_SOURCE: list = []
# The files of symgrad's code: its modules and templates, and the C a build reads (the math
# declarations every kernel includes, the native helper's source).
_SOURCES = (".py", ".j2", ".h", ".c")


def symgrad_source() -> str:
    """symgrad's own code, fingerprinted by its files' sizes and modification times (an
    edited checkout is another compiler, whatever its version says); once per process."""
    if not _SOURCE:
        lines: list[str] = []
        _source_lines(PACKAGE_DIR, "/", lines, skip="__pycache__")
        templates = os.path.join(os.path.dirname(PACKAGE_DIR.rstrip(os.sep)), "templates")
        if os.path.isdir(templates):    # (an editable install's templates/; not its
            _source_lines(templates, "templates/", lines, depth=0)   # compiled __pycache__)
        _SOURCE.append(hashlib.blake2b("\n".join(lines).encode(), digest_size=16).hexdigest())
    return _SOURCE[0]


def _source_lines(directory: str, rel: str, lines: list, *, skip: str = "",
                  depth: int = -1) -> None:
    """``rel/name:size:mtime`` of each source file under ``directory``, sorted by path, into
    ``lines``; ``depth`` levels of subdirectories (-1: all), none named ``skip``. (One
    ``scandir`` per directory: its entries know their type, so only the source files are
    stat'ed: 2 ms of a first call where ``os.walk`` and a stat each took 4.)"""
    with os.scandir(directory) as it:
        entries = sorted(it, key=lambda e: e.name)
    for e in entries:
        if e.is_dir(follow_symlinks=False):
            if depth != 0 and e.name != skip:
                _source_lines(e.path, f"{rel}{e.name}/", lines, skip=skip, depth=depth - 1)
        elif e.name.endswith(_SOURCES):
            st = e.stat()
            lines.append(f"{rel}{e.name}:{st.st_size}:{st.st_mtime_ns}")


def impure(module_name: str) -> bool:
    """Whether a module's functions read the clock or a random source."""
    return module_name in _IMPURE or module_name.split(".")[0] in ("time", "random", "secrets")
