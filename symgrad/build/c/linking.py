"""How a module is linked: the libraries it needs, and the quick link where it is safe.

Layer: build (the C backend). Input: a source's build needs (OpenMP, vector math, BLAS), the
compiler's identity, whether the build uses symgrad's own flags. Output: the link's flags and
libraries (``link``), and the libraries the loader makes global before it loads such a module
(``preload``).

Why: the compiler driver's default link (crt files, ``-lc`` and ``-lm``, which glibc ships as
linker scripts naming other libraries, ``-lgcc_s``) made ``ld`` read libc's, libm's and
libmvec's symbol tables for every module: 14.5 ms of a small module's 54 ms build (a logistic
regression's gradient), against 6.6 ms for the same link without them.

How (the quick link: Linux with glibc, GCC, symgrad's own flags): ``-nostdlib`` and
``-lgcc`` (the static helpers GCC may call: complex multiplication and division, 128-bit
arithmetic; taken from the archive, nothing to load). The module then names neither libc nor
libm: its references to them (``expf``, ``memset``, ``malloc``) bind, when it is loaded, to
the copies already global in every Python process (the interpreter links both), and its
references to glibc's vector math (``_ZGVdN4v_exp``...) to libmvec, which ``preload`` loads
globally first (it defines nothing but those names, so nothing else can bind to it by
mistake). The loader resolves every symbol at load time (``RTLD_NOW``): a symbol nothing
defines is an error when the module loads, never a crash when it runs. OpenMP's runtime and
OpenBLAS stay linked as before (each module names them): made global, OpenBLAS's unprefixed
LAPACK helpers could take the place of another library's, and another OpenMP runtime (torch
bundles its own) could bind to libgomp's names. With a caller's own flags (a sanitizer, a
profiler, static linking: they add libraries to the driver's defaults), with clang, or on
another platform, the driver's default link is kept.
"""

from __future__ import annotations

import ctypes
import functools
import os
import sys

# The glibc libraries a quickly linked module may use without naming them (sonames).
LIBM, LIBMVEC = "libm.so.6", "libmvec.so.1"


@functools.cache
def _glibc() -> bool:
    try:
        return sys.platform.startswith("linux") and bool(os.confstr("CS_GNU_LIBC_VERSION"))
    except (ValueError, OSError):
        return False


def quick(compiler_id: str, own_flags: bool) -> bool:
    """Whether a module is linked quickly (see the module docstring): symgrad's own flags,
    GCC (``compiler_id``: ``toolchain.compiler_identity``, whose version line names clang when
    it is clang), Linux with glibc."""
    version = compiler_id.rpartition(" | ")[2].lower()
    return own_flags and _glibc() and "clang" not in version and "(" in version


def link(needs, quick_link: bool, blas_flags) -> tuple[list[str], list[str]]:
    """``(flags, libraries)`` of the link of a module with build ``needs`` (``BuildNeeds``);
    ``blas_flags()``: OpenBLAS's (asked only when the module calls it)."""
    shared = ["-dynamiclib"] if sys.platform == "darwin" else ["-shared", "-Wl,-Bsymbolic"]
    libs = [*(["-fopenmp"] if needs.openmp else []), *(blas_flags() if needs.blas else [])]
    if quick_link:
        return [*shared, "-nostdlib"], [*libs, "-lgcc"]
    return shared, [*libs, *(["-lmvec"] if needs.vector_math else []), "-lm"]


def preload(needs) -> None:
    """Make global, once per process, what a quickly linked module with ``needs`` binds to
    without naming it: libm (the interpreter's, normally global already) and, for vector
    math, libmvec."""
    _global(LIBM)
    if needs.vector_math:
        _global(LIBMVEC)


@functools.cache
def _global(soname: str) -> ctypes.CDLL:
    return ctypes.CDLL(soname, mode=os.RTLD_GLOBAL)
