"""The native helper: the one C extension that speaks Python (``native.c``), found or built.

Layer: build (the C backend). Output: ``helper()``, the loaded extension: ``load``/``symbol``
(dlopen/dlsym of the plain shared objects symgrad builds), ``call(entry, layout, *args)`` (the
calling convention ``adapter`` writes the C side of), ``address`` (where a buffer's memory
starts), and the process's SIGINT count (``sigint_enter``, ``sigint_address``,
``zero_address``; ``runtime.interrupt`` says how calls use it), and ``audit_hook``, an audit
hook filtered in C (``add_audit_hook``).

Why one extension instead of a cffi wrapper per kernel: the wrapper includes ``Python.h`` and
was compiled for every new function, in parallel with the kernel but longer than it for small
programs (~0.2-0.4 s of a ~0.5 s cold first call here); a kernel is now one compiler process
with no Python headers. And the call is faster: the buffers go to C by the buffer protocol,
not by a cffi handle made per array and call (``make bench-overhead``).

Where it comes from, first found wins:
1. the installed extension ``symgrad.build.c._native``: pip builds it with the package
   (``pyproject.toml``'s ext-modules), if its ``VERSION`` is this file's ``NATIVE_VERSION``
   (an editable install whose ``native.c`` changed since is older: it is not used);
2. a build of ``native.c`` in the cache, like any kernel (``cache.get_or_build``: keyed on the
   source, the compiler and the interpreter's ABI), when running from a source tree that pip
   did not build, or after an edit.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import shlex
import sys
import threading
from pathlib import Path

from ... import config
from .. import cache
from .toolchain import compiler_identity, extension_suffix, find_compiler, python_includes

# native.c's SG_NATIVE_VERSION: bump both with any change to native.c (tests/build check that
# the source's hash is the one recorded for this version).
NATIVE_VERSION = 4
SOURCE = Path(__file__).with_name("native.c")
MODULE = "symgrad.build.c._native"

_lock = threading.Lock()
_helper = None


def helper():
    """The loaded extension (found or built on first use). Raises what the build raises
    (``CompilerNotFoundError``, ``BuildError``) when it is neither installed nor buildable."""
    global _helper
    if _helper is None:
        with _lock:
            if _helper is None:
                _helper = _installed() or _built()
    return _helper


def helper_or_none():
    """``helper()``, or None when it can be neither found nor built (no compiler: a use that
    has a Python fallback, such as a trace-only audit hook or a coloring)."""
    from .errors import BuildError
    from .toolchain import CompilerNotFoundError
    try:
        return helper()
    except (BuildError, CompilerNotFoundError, OSError, ImportError):
        return None


def add_audit_hook(hook, events: tuple) -> None:
    """Add ``hook`` as an audit hook for ``events`` only, filtered in C by the helper (Python's
    ``sys.addaudithook`` when the helper cannot be had: no compiler for a trace-only use)."""
    found = helper_or_none()
    if found is None:
        sys.addaudithook(hook)
        return
    found.audit_hook(hook, tuple(events))


def _installed():
    try:
        from . import _native   # type: ignore[attr-defined]
    except ImportError:
        return None
    if getattr(_native, "VERSION", None) != NATIVE_VERSION:
        config.debug(1, "the installed %s is version %s, not %s: using a build of native.c",
                     MODULE, getattr(_native, "VERSION", None), NATIVE_VERSION)
        return None
    return _native


def _built():
    from .errors import BuildError, failure
    text = SOURCE.read_text()
    cc = find_compiler()
    so_name = "_native" + extension_suffix()
    cmd = [*cc, "-shared", "-fPIC", "-O2", "-fwrapv", "-DNDEBUG", *python_includes(),
           "native.c", "-o", so_name]
    parts = {"source": hashlib.sha256(text.encode()).hexdigest(), "argv": cmd[len(cc):],
             "compiler": compiler_identity(cc), "abi": extension_suffix(),
             "schema": cache.SCHEMA}
    key = hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()

    def build(directory: Path) -> dict:
        from . import commands
        (directory / "native.c").write_text(text)
        config.debug(2, "(cd %s && %s)", directory, shlex.join(cmd))
        ((rc, err),) = commands.run([cmd], directory)
        if rc != 0:
            raise failure(cmd, rc, err, "native.c")
        return {"module": MODULE, "compiler": parts["compiler"], "commands": {"native": cmd}}

    def load(directory: Path):
        path = str(directory / so_name)
        loader = importlib.machinery.ExtensionFileLoader(MODULE, path)
        spec = importlib.util.spec_from_file_location(MODULE, path, loader=loader)
        assert spec is not None
        module = importlib.util.module_from_spec(spec)
        loader.exec_module(module)
        if getattr(module, "VERSION", None) != NATIVE_VERSION:
            raise BuildError(f"{path}: native.c says version {module.VERSION}, native.py "
                             f"{NATIVE_VERSION}: bump both together")
        return module

    module, _ = cache.get_or_build(key, build, load, loaded_file=so_name, name_hint="native")
    return module
