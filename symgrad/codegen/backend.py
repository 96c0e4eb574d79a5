"""The backend boundary: what the pipeline and the runtime may ask of a backend, and no more.

Layer: codegen (the interface; no implementation here). A backend renders a loop-IR program
to a source object (``render``), builds and loads that into a ``Module`` (``build``), and says
what its kernels accept as they are (``capabilities``: lowering copies anything else) and what
this process's builds target (``target()``, computed once). Today there is one backend, C99
with OpenMP built by gcc as a plain shared object and called through symgrad's native helper:
its text is written by ``codegen.c`` and built by ``build.c``, and ``build.backends.default()``
is where it is chosen. Nothing above the build layer speaks C: ``pipeline`` asks the backend,
the runtime asks the ``Module``.

The calling convention every backend's entry point keeps, which the runtime relies on
(``fn, lead = module.entry(name)``)::

    status = fn(*lead, inputs..., constants..., outputs..., workspace, nthreads,
                size values..., [interrupt counter, its value at the call])

where each input and output is a contiguous, aligned NumPy array of its dtype (or its address,
an int, when the caller has checked the array), each constant and the workspace an address
(the caller keeps their arrays alive), and the interrupt counter an address too;
and the statuses it returns: 0 when done; ``k + 1`` when kernel ``k`` failed (a decomposition
of a singular matrix: the source's ``errors`` say what each means); from ``MEMORY_STATUS`` up a
failed allocation; from ``GUARD_STATUS`` up the guard ``status - GUARD_STATUS`` that did not
hold (the call took another path than the one compiled); ``INTERRUPT_STATUS`` when it stopped
for Ctrl-C (the source's ``interrupt``).
"""

from __future__ import annotations

from typing import Any, Protocol
from collections.abc import Callable

MEMORY_STATUS = 1 << 24
GUARD_STATUS = 1 << 28
INTERRUPT_STATUS = 1 << 30


class Source(Protocol):
    """A rendered program: its text (what ``symgrad.inspect`` shows) and, as data, what its
    build and its callers need to know."""

    text: str
    entry: str                 # the entry point's name
    workspace_bytes: Any       # bytes of scratch memory a call needs (a ``dims.Dim`` if generic)
    errors: tuple              # (status, what went wrong) of each status it can return
    interrupt: bool            # whether it takes the interrupt parameters
    threaded: bool             # whether it reads ``nthreads`` (else a call passes 1)


class Module(Protocol):
    """A built and loaded program."""

    key: str                   # the build's cache key
    from_cache: bool           # False only for the call that ran the build

    def entry(self, name: str) -> tuple[Callable[..., int], tuple]:
        """(the function to call, the arguments that come first) for the entry point
        ``name`` (see the calling convention above)."""

    @property
    def address(self) -> Callable[[Any], int]:
        """``address(array)``: where an array's memory starts; on the hot path, so a bound
        function of the backend's loader (no wrapper frame)."""

    @property
    def threads(self) -> Callable[[], int]:
        """What a call passes as ``nthreads`` (called at each call: the backend's governor)."""

    def interrupt_handles(self) -> tuple:
        """(the address of a counter that never changes, the process's Ctrl-C counter's
        address or None, the function that installs the handler and returns the count now, or
        None): see ``runtime.interrupt``."""


class Backend(Protocol):
    name: str
    capabilities: Any          # ``lower.capabilities.Capabilities``

    def target(self) -> Any:
        """What this process's builds target (computed once: its probes of the toolchain
        are cached); it is part of every warm-start key."""

    def render(self, program: Any, name: str, title: str, target: Any = None) -> Source:
        """The source of a loop-IR ``program`` (for ``target``, default ``target()``)."""

    def build(self, source: Source, name_hint: str) -> Module:
        """Build ``source`` (or load its earlier build from the cache) and load it."""

    def threads(self) -> int:
        """The threads the next call runs on (``symgrad.get_num_threads``)."""
