"""A loaded C module, as the runtime sees it: the ``codegen.backend.Module`` protocol.

Layer: build (the C backend). Input: a plain shared object the compiler built, loaded by the
native helper (``native``), and the ``CSource`` it was built from. Output: ``BuiltModule``: its
entry point as (the helper's ``call``, the leading arguments: the adapter's address and the
layout, ``adapter``), buffer addresses, the Ctrl-C handles (the helper keeps the process's
SIGINT count) and, for ``symgrad.export``'s in-process functions only, cffi's view of its
declared functions (``ffi``, ``function_pointer``: loaded on first use, off the call path).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any
from collections.abc import Callable

from . import adapter


@dataclasses.dataclass(frozen=True)
class BuiltModule:
    """A loaded kernel module: ``call, lead = entry(name)``, then ``call(*lead, *args)``."""

    key: str
    path: Path  # the directory holding kernel.c, the shared object and meta.json
    from_cache: bool  # False only for the call that ran the compiler
    so_path: Path
    native: Any       # the native helper module (``native.helper()``)
    handle: int       # its dlopen handle
    source: Any       # the ``CSource`` built
    # cffi's view, made on first use and shared by the copies ``dataclasses.replace`` makes
    views: dict = dataclasses.field(default_factory=dict, compare=False, repr=False)

    def entry(self, name: str) -> tuple[Callable[..., int], tuple]:
        """(the function to call, the arguments that come first): the entry point ``name``
        through the calling convention (``adapter``)."""
        if name != self.source.entry:
            raise ValueError(f"{name}: not the entry point of this module ({self.source.entry})")
        if not self.source.params:   # (a C source pickled by a symgrad before the adapter)
            raise ValueError(f"{name}: its C source has no typed parameters (made by an older "
                             f"symgrad, or an exported function): compile the function again")
        address = self.native.symbol(self.handle, name + adapter.SUFFIX)
        return self.native.call, (address, adapter.layout(self.source.params))

    @property
    def address(self) -> Callable[[Any], int]:
        """``address(array)``: where its memory starts (the overlap checks of ``out=``, and
        the arrays the call passes by address: constants and the workspace)."""
        return self.native.address

    def interrupt_handles(self) -> tuple:
        """(a count that stays 0, the process's SIGINT count, the function that installs the
        handler and returns the count now), the counts as addresses."""
        n = self.native
        return n.zero_address(), n.sigint_address(), n.sigint_enter

    @property
    def threads(self) -> Callable[[], int]:
        """The thread count a call passes (``build.c.threads``: the governor)."""
        from .threads import threads
        return threads

    def cffi_view(self) -> tuple:
        """(a cffi ``FFI`` declaring the module's functions (``CSource.cdef``), the library
        opened through it: ABI mode, the same loaded object)."""
        if "cffi" not in self.views:
            import cffi
            ffi = cffi.FFI()
            ffi.cdef(self.source.cdef)
            self.views.setdefault("cffi", (ffi, ffi.dlopen(str(self.so_path))))
        return self.views["cffi"]

    @property
    def ffi(self):
        return self.cffi_view()[0]

    @property
    def lib(self):
        """The declared functions, callable with cffi pointers (tests, ``symgrad.export``)."""
        return self.cffi_view()[1]

    def function_pointer(self, name: str):
        """The declared C function ``name`` as a cffi function pointer."""
        return getattr(self.lib, name)
