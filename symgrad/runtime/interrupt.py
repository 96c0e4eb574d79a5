"""Ctrl-C in compiled code: what a call passes so that its loops stop on Ctrl-C.

Layer: runtime, above build. Input: a loaded module (``codegen.backend.Module``) whose entry
point takes the interrupt parameters (the source's ``interrupt``; ``codegen.c.interrupt``
writes the C side, ``build.c.native`` keeps the process's counter). Output: a ``Poll``: what
the call path passes as those parameters, and how it prepares them per call. A call that
passes the counter and sees it change returns ``INTERRUPT_STATUS``, and ``Specialization.fail``
raises KeyboardInterrupt (on the main thread, the interpreter raises it first, from the
pending signal: one KeyboardInterrupt, as for Python code).

Only while SIGINT's Python handler is ``signal.default_int_handler`` (the one whose job is to
raise KeyboardInterrupt) does a call pass the count: under ``SIG_IGN`` or ``SIG_DFL`` Ctrl-C
keeps its meaning, and a handler of the user's own runs once the call has finished, as before.
A Ctrl-C that arrives in the few microseconds between the interpreter's last check for signals
and the call reading the count is seen by Python only after the call: a second Ctrl-C stops it.
"""

from __future__ import annotations

import signal

try:    # signal.getsignal converts to an enum by raising and catching ValueError: 7 us a call
    from _signal import getsignal
except ImportError:   # pragma: no cover  (not CPython)
    from signal import getsignal


class Poll:
    """The interrupt arguments of one module's calls: ``counter`` and ``enter()`` (the count's
    address, and its value now after making sure the handler is installed) while Ctrl-C should
    stop a call (``active()``); else ``zero`` and 0, a count that never changes."""

    SIGINT = int(signal.SIGINT)

    def __init__(self, module):
        self.zero, counter, self.enter = module.interrupt_handles()
        self.counter = self.zero if counter is None else counter

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
