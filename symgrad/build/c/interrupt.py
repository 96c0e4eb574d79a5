"""Ctrl-C for the C backend: the process's SIGINT counter, in a small helper module.

Layer: build (the C backend). Output: ``helper()``, the loaded helper module (built once
through the cache like any module, from ``templates/sigint.c.j2``), or None when it cannot be
built (no compiler, and not in the cache): compiled loops then cannot be interrupted. The
runtime's side, when a call passes the counter, is ``runtime.interrupt``.

The helper owns a ``volatile sig_atomic_t`` count and a C SIGINT handler that calls the handler
it replaced (CPython's, which records the signal for Python) and then increments the count.
Each call of an entry point that polls passes the count's address and its value now; its loops
compare at the end of each step and return ``INTERRUPT_STATUS`` when it changed.

Installed once and kept, not installed and restored around each call: a restore races with
other threads (thread A restores CPython's handler while thread B still runs a loop that needs
ours: B's loop would never stop), so it would need a process-wide count of running calls, and
measured 3.2 us a call from Python (two ``sigaction`` calls, ~0.5 us of it). Here each call only
makes sure ours is still there (``sg_sigint_enter``: one ``sigaction`` query, ~0.25 us; ~0.6 us
a call in all): CPython replaces it whenever Python code calls ``signal.signal`` (IPython and
Jupyter do around every cell), and the next call then installs it again, in front of the new
one.
"""

from __future__ import annotations

import threading

from ... import config
from ...version import __version__

_lock = threading.Lock()
_helper = None          # the loaded helper module; False once it could not be built


def helper():
    """The process's helper module (built or loaded on first use), or None."""
    global _helper
    with _lock:
        if _helper is None:
            try:
                _helper = _build()
            except Exception as exc:   # noqa: BLE001 - losing Ctrl-C must not lose the call
                config.debug(1, "Ctrl-C cannot stop compiled loops in this process: %s", exc)
                _helper = False
    return _helper or None


def _build():
    from ...codegen.c.csource import CSource
    from ...codegen.c.templates import environment   # (Jinja2: only when the helper is built)
    from . import compiler
    text = environment().get_template("sigint.c.j2").render(version=__version__)
    cdef = "int sg_sigint_enter(void);\nconst volatile int *sg_sigint_count(void);"
    # (sigaction, siginfo_t and SA_ONSTACK need POSIX with XSI; -std=c99 alone hides them)
    source = CSource(text, "sg_sigint_enter", cdef, defines=("_XOPEN_SOURCE=700",))
    return compiler.build(source, name_hint="sigint")
