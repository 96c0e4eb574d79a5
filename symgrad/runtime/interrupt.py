"""Ctrl-C in compiled code: the process's SIGINT count, which compiled loops poll.

Layer: runtime, above build. Input: the ffi of a loaded module whose entry point takes the
interrupt parameters (``CSource.interrupt``; see ``codegen.interrupt`` for the C side). Output:
a ``Poll``: what the call path passes as those parameters, and how it prepares them per call.

The design, and why. A small helper module (``templates/sigint.c.j2``, built once through the
cache like any module) owns a ``volatile sig_atomic_t`` count and a C SIGINT handler that calls
the handler it replaced (CPython's, which records the signal for Python) and then increments
the count. Each call of an entry point that polls passes the count's address and its value now;
its loops compare at the end of each step and return ``INTERRUPT_STATUS`` when it changed, and
``Specialization.fail`` raises KeyboardInterrupt (on the main thread, the interpreter raises it
first, from the pending signal: one KeyboardInterrupt, as for Python code).

Installed once and kept, not installed and restored around each call: a restore races with
other threads (thread A restores CPython's handler while thread B still runs a loop that needs
ours: B's loop would never stop), so it would need a process-wide count of running calls, and
measured 3.2 us a call from Python (two ``sigaction`` calls, ~0.5 us of it). Here each call only
makes sure ours is still there, in one ``sigaction`` query (~0.25 us; ~0.6 us a call in all):
CPython replaces it whenever Python code calls ``signal.signal`` (IPython and Jupyter do around
every cell), and the next call then installs it again, in front of the new one.

Only while SIGINT's Python handler is ``signal.default_int_handler`` (the one whose job is to
raise KeyboardInterrupt) does a call pass the count: under ``SIG_IGN`` or ``SIG_DFL`` Ctrl-C
keeps its meaning, and a handler of the user's own runs once the call has finished, as before.
A Ctrl-C that arrives in the few microseconds between the interpreter's last check for signals
and the call reading the count is seen by Python only after the call: a second Ctrl-C stops it.
"""

from __future__ import annotations

import signal
import threading

from .. import config
from ..version import __version__

try:    # signal.getsignal converts to an enum by raising and catching ValueError: 7 us a call
    from _signal import getsignal
except ImportError:   # pragma: no cover  (not CPython)
    from signal import getsignal

_lock = threading.Lock()
_helper = None          # the loaded helper module; False once it could not be built


def helper():
    """The process's helper module (built or loaded on first use), or None when it cannot be
    built (no compiler, and not in the cache): compiled loops then cannot be interrupted."""
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
    from ..build import compiler
    from ..codegen.csource import CSource
    from ..codegen.templates import environment
    text = environment().get_template("sigint.c.j2").render(version=__version__)
    cdef = "int sg_sigint_enter(void);\nconst volatile int *sg_sigint_count(void);"
    # (sigaction, siginfo_t and SA_ONSTACK need POSIX with XSI; -std=c99 alone hides them)
    source = CSource(text, "sg_sigint_enter", cdef, units=(("-D_XOPEN_SOURCE=700",),))
    return compiler.build(source, name_hint="sigint")


class Poll:
    """The interrupt arguments of one module's calls: ``counter`` and ``enter()`` (the count's
    address, and its value now after making sure the handler is installed) while Ctrl-C should
    stop a call (``active()``); else ``zero`` and 0, a count that never changes."""

    SIGINT = int(signal.SIGINT)

    def __init__(self, ffi):
        self.zero = ffi.new("int *")
        mod = helper()
        self.enter = None if mod is None else mod.lib.sg_sigint_enter
        self.counter = self.zero if mod is None else \
            ffi.cast("int *", mod.lib.sg_sigint_count())

    def lines(self) -> list[str]:
        """The call path's lines that set ``sig`` and ``since`` (names: ``environment``)."""
        if self.enter is None:
            return ["    sig, since = sig_zero, 0"]
        return [f"    if getsignal({self.SIGINT}) is default_int_handler:",
                "        sig, since = sig_counter, sig_enter()",
                "    else:",
                "        sig, since = sig_zero, 0"]

    def environment(self) -> dict:
        return {"getsignal": getsignal, "default_int_handler": signal.default_int_handler,
                "sig_counter": self.counter, "sig_enter": self.enter, "sig_zero": self.zero}
