"""A loaded C module, as the runtime sees it: the ``codegen.backend.Module`` protocol over cffi.

Layer: build (the C backend). Input: the ``ffi`` and ``lib`` of a cffi API-mode extension the
compiler built. Output: ``BuiltModule``: the entry points, buffer handles made from NumPy
arrays (``ffi.from_buffer``, bound once: the call path's hot line), addresses, and the Ctrl-C
handles of the helper module the backend gives it (``build.c.interrupt``). Only the C backend
touches ``ffi`` and ``lib``.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any
from collections.abc import Callable


@dataclasses.dataclass(frozen=True)
class BuiltModule:
    """A loaded kernel module: call ``lib.<entry>`` with pointers made by ``ffi``."""

    ffi: Any
    lib: Any
    key: str
    path: Path  # the directory holding kernel.c, wrapper.c, the .so and meta.json
    from_cache: bool  # False only for the call that ran the compiler
    module_name: str
    # The process's Ctrl-C helper module, or None (``build.c.interrupt.helper``: the backend
    # sets it; a module built without it cannot be interrupted)
    sigint: Callable[[], Any] | None = None

    def entry(self, name: str) -> Callable[..., int]:
        return getattr(self.lib, name)

    @property
    def buffer(self) -> Callable:
        """``buffer(kind, array)``: a pointer to the array's memory (cffi's ``from_buffer``)."""
        return self.ffi.from_buffer

    def buffer_kind(self, dtype) -> str:
        """The cffi array type of ``dtype`` elements (None: bytes)."""
        return "unsigned char[]" if dtype is None else f"{dtype.ctype}[]"

    def address(self, handle) -> int:
        return int(self.ffi.cast("uintptr_t", handle))

    def interrupt_handles(self) -> tuple:
        """(a zero counter, the process's SIGINT counter or None, its ``enter`` or None)."""
        zero = self.ffi.new("int *")
        mod = self.sigint() if self.sigint is not None else None
        if mod is None:
            return zero, None, None
        return zero, self.ffi.cast("int *", mod.lib.sg_sigint_count()), mod.lib.sg_sigint_enter

    @property
    def threads(self) -> Callable[[], int]:
        """The thread count a call passes (``build.c.threads``: the governor)."""
        from .threads import threads
        return threads

    def function_pointer(self, name: str):
        """The address of C function ``name`` as a cffi function pointer."""
        return self.ffi.addressof(self.lib, name)
