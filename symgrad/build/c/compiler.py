"""Compile a C source object into a plain shared object and load it.

Layer: build. Input: a ``codegen.CSource``: the C99 text, the cffi-style declaration of its
entry point (``cdef``), its typed parameters, its translation units and its build needs
(OpenMP, vector math, BLAS), all as data: the text is never searched. Output: a loaded module
(``BuiltModule``) and its cache key. The cache (``cache.get_or_build``) decides whether to
build; this module only says how.

Must not: go through setuptools/distutils (slow, and it picks the flags for us), use any
fast-math flag (results must stay IEEE-exact), read ``os.environ`` (ask ``config``), or touch
the cache's files.

How a build goes (in a private directory the cache gives, published by the cache):

1. ``kernel.c`` is the text, then the calling-convention adapter (``adapter``); ``decls.h``
   the declarations, force-included first so that a definition that disagrees with them is a
   compile error rather than silent memory corruption. ``-fvisibility=hidden`` keeps every
   symbol out of the dynamic symbol table except the declared ones (``decls.h`` gives them
   default visibility), and ``-Bsymbolic`` binds the module's own calls to itself.
2. One translation unit: ``cc ... -shared kernel.c -o kernel.so``, one compiler process for
   compiling and linking. No ``Python.h``: the native helper (``native``) is the only C that
   speaks Python, built once per installation.
3. Several units (``CSource.units``, a kind per unit): each is compiled from its own file
   ``kernel<k>.c`` (``units``: the text without the other units' parts, so that no compiler
   reads them) with ``-DSG_TU=k`` and its kind's ``UNIT_FLAGS`` after the others (so they win)
   into ``kernel<k>.o``, all at once (the machine has two cores), then linked (``-lm``;
   OpenBLAS with an rpath, libmvec, OpenMP when the source needs them). The objects and the
   units' files are removed once linked.

An interrupt (Ctrl-C) while the compiler runs terminates every process it started and waits for
them (``commands``) before it propagates; the cache then removes the unfinished build. Every
command is part of the cache key.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import platform
import shlex
import sys
from pathlib import Path

from ... import config
from ...codegen.c.csource import CSource
from ...version import __version__
from .. import cache
from . import adapter, commands
from .errors import BuildError, failure, trim
from .module import BuiltModule
from .units import unit_texts
from .toolchain import (CompilerNotFoundError, compiler_identity, cpu_identity,  # noqa: F401
                        find_compiler, openblas_flags)

__all__ = ["DEFAULT_OPT_FLAGS", "BuildError", "BuiltModule", "CompilerNotFoundError", "build",
           "module_key", "plan"]

# -ffp-contract=off: with -march=native the compiler may fuse a*b+c into one FMA, which rounds
# once instead of twice and so differs from numpy. GCC already refrains under -std=c99, clang
# does not; saying it explicitly keeps results bit-identical whatever the compiler.
DEFAULT_OPT_FLAGS: tuple[str, ...] = (
    "-O3",
    "-march=native",
    "-fopenmp-simd",   # honour `#pragma omp simd` (no OpenMP runtime, no threads)
    "-fno-math-errno",
    "-ffp-contract=off",
    # GCC 12.2's SLP vectorizer miscompiles with AVX-512 (found by the fuzzer: a small batched
    # matmul reading a temporary that an earlier loop stored as zmm vectors used an in-lane
    # vpermilpd and the low half of the result: wrong rows). Loops still vectorize (omp simd).
    "-fno-tree-slp-vectorize",
    "-fPIC",
)

# With vector math: gcc merges sin(x) and cos(x) of one x into sincos(), which has no declared
# SIMD variant: the whole loop would fall back to scalar calls (measured 4x slower).
VECTOR_MATH_FLAGS = ("-fno-builtin-sin", "-fno-builtin-cos", "-fno-builtin-sinf",
                     "-fno-builtin-cosf")

# Extra flags per kind of translation unit (``CSource.units``). "cold" units hold straight-line
# scalar code and loops of a few elements, which run no faster at -O3 (measured on a
# 22k-statement unrolled RK4: 15.3 vs 15.2 us a call) and take ~1.7x as long to compile there.
# Without tree-CCP (constant propagation; the passes have folded the constants already), which
# was a quarter of -O1's time on such code (a 7x7 determinant's gradient, 2.6 -> 1.9 s a unit)
# for no measured speed (21.6 vs 21.9 us a call there, 17.7 vs 17.7 us on the ODE benchmark).
# Tried and left out (gcc 12.2, det7's cold units): -fno-tree-pta -fno-tree-fre -fno-tree-copy-prop
# -fno-tree-dse -fno-tree-bit-ccp -fno-ssa-phiopt -fno-ipa-modref -fno-ipa-pure-const
# -fno-ipa-reference cut a unit's compile by 11% (callgrind: 2.88 -> 2.56 G instructions; pta
# and fre alone 2.69 G) with the same loops vectorized and the same results, but det7's call went
# from 43 to 63 us (a loaded machine); --param=max-completely-peel-times=0 compiled slower (3.62 G).
# "large" units hold one very large hot kernel each (``codegen.c.split.LARGE_TEXT``), at -O2:
# its loops are marked `omp simd` (vectorized at -O2 too); -O3 took 2.6x as long on one.
UNIT_FLAGS: dict[str, tuple[str, ...]] = {"main": (), "cold": ("-O1", "-fno-tree-ccp"),
                                          "large": ("-O2",)}

# What the kernels use of <math.h>, for decls.h (the file says why).
MATH_DECLS = (Path(__file__).parent / "math_decls.h").read_text()

@dataclasses.dataclass(frozen=True)
class Plan:
    """Everything one build needs; commands use paths relative to the build dir so they (and so
    the key) do not depend on which directory the build happens in."""

    key: str
    so_name: str
    source: CSource
    kernel_cmds: list      # one per translation unit; one unit: compiles and links
    link_cmd: list | None  # several units: links their objects
    compiler_id: str

    @property
    def linking(self) -> list:
        """The command that links the shared object (the only one, for one unit)."""
        return self.link_cmd or self.kernel_cmds[0]

    def commands(self) -> dict[str, list[str]]:
        """The commands as meta.json records them: ``kernel`` (unit 0, or the only one),
        ``kernel1``... for the other units, ``link``."""
        units = {("kernel" if k == 0 else f"kernel{k}"): cmd
                 for k, cmd in enumerate(self.kernel_cmds)}
        return {**units, **({"link": self.link_cmd} if self.link_cmd else {})}


SO_NAME = "kernel.so"


def plan(source: CSource, opt_flags: tuple[str, ...] | None = None) -> Plan:
    """The commands and cache key of a build of ``source`` (``opt_flags`` replaces
    ``DEFAULT_OPT_FLAGS`` for the kernel and the link), without building anything."""
    cc = find_compiler()
    flags = list(DEFAULT_OPT_FLAGS if opt_flags is None else opt_flags)
    if not source.units:
        raise ValueError("units: a kernel is at least one translation unit")
    unknown = set(source.units) - set(UNIT_FLAGS)
    if unknown:
        raise ValueError(f"units: unknown kinds {sorted(unknown)} (known: {sorted(UNIT_FLAGS)})")
    defines = tuple(f"-D{d}" for d in source.defines)
    units = tuple((*defines, *UNIT_FLAGS[kind]) for kind in source.units)
    needs = source.needs
    kernel_flags = list(flags)
    if needs.vector_math:
        kernel_flags += VECTOR_MATH_FLAGS
    if needs.openmp:
        kernel_flags.append("-fopenmp")   # threads for the large loops (libgomp)
    # The caller's flags also go to the link so that -flto / -fsanitize=... / -g work.
    libs = [*(["-fopenmp"] if needs.openmp else []), *(_blas_flags() if needs.blas else []),
            *(["-lmvec"] if needs.vector_math else []), "-lm"]
    shared = ["-dynamiclib"] if sys.platform == "darwin" else ["-shared", "-Wl,-Bsymbolic"]
    # Base flags first so the caller's flags (e.g. another -std) win. A function called
    # without a declaration (one ``math_decls.h`` lacks) is an error, not an implicit int.
    # -pipe: the assembler reads the compiler's output from a pipe, not a temporary file (the
    # same object; ~2 ms of a small kernel's 50).
    base = [*cc, "-std=c99", "-fPIC", "-fvisibility=hidden", "-pipe",
            "-Werror=implicit-function-declaration", *kernel_flags]
    if len(units) == 1:
        kernel_cmds = [[*base, *units[0], "-include", "decls.h", *shared, "kernel.c", "-o",
                        SO_NAME, *libs]]
        link_cmd = None
    else:
        kernel_cmds = [[*base, *extra, f"-DSG_TU={k}", "-include", "decls.h", "-c",
                        f"kernel{k}.c", "-o", f"kernel{k}.o"] for k, extra in enumerate(units)]
        link_cmd = [*cc, *shared, "-fPIC", *flags, *(cmd[-1] for cmd in kernel_cmds), "-o",
                    SO_NAME, *libs]
    ident = compiler_identity(cc)
    drop = len(cc)
    p = Plan("", SO_NAME, source, kernel_cmds, link_cmd, ident)
    commands = {name: cmd[drop:] for name, cmd in p.commands().items()}
    key = make_key(kernel_text(source), decls_text(source), compiler_id=ident, flags=commands)
    return dataclasses.replace(p, key=key)


def _blas_flags() -> tuple[str, ...]:
    try:
        return openblas_flags()
    except ImportError as exc:
        raise BuildError("This kernel calls OpenBLAS (scipy_cblas_*) but the scipy-openblas32 "
                         "wheel is not installed: `pip install scipy-openblas32`.") from exc


def make_key(c_source: str, decls: str, *, compiler_id: str, flags: dict) -> str:
    """The hex sha256 naming a build; everything that can change the produced ``.so`` goes in
    (``decls``: ``decls.h``'s text, the public declarations and the math declarations)."""
    parts = {
        "schema": cache.SCHEMA,
        # (its hash: JSON-escaping a large text took 23 ms of a 35 ms warm start)
        "c_source": hashlib.sha256(c_source.encode("utf-8")).hexdigest(),
        "decls": decls,
        "compiler": compiler_id,
        "flags": flags,
        "symgrad": __version__,
        "platform": f"{sys.platform}|{platform.machine()}",
        "cpu": cpu_identity(),
    }
    # JSON with sorted keys is an unambiguous encoding: no two different part sets collide.
    blob = json.dumps(parts, sort_keys=True, ensure_ascii=True, default=list)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def module_key(source: CSource, *, opt_flags: tuple[str, ...] | None = None) -> str:
    """The cache key ``build`` would use, without building anything."""
    return plan(source, opt_flags).key


def build(source: CSource, *, name_hint: str = "fn",
          opt_flags: tuple[str, ...] | None = None) -> BuiltModule:
    """Compile ``source``, or reuse a build of it from the cache (``cache.get_or_build``:
    verified before it is loaded; private temporary directory when the cache is unusable).
    Raises ``CompilerNotFoundError``, ``BuildError``, or ``cache.CacheDirError`` when not even
    a private temporary directory can hold the build."""
    p = plan(source, opt_flags)
    module, how = cache.get_or_build(p.key, lambda d: run_build(p, d),
                                     lambda d: load(p, d), loaded_file=p.so_name,
                                     name_hint=name_hint)
    return dataclasses.replace(module, from_cache=how != "built")


# ---------------------------------------------------------------------------------- the build

def kernel_text(source: CSource) -> str:
    """``kernel.c``: the text, then the calling convention's adapter if it has one."""
    if not source.params:
        return source.text
    return source.text + adapter.adapter_text(source.entry, source.params, len(source.units))


def decls_text(source: CSource) -> str:
    """``decls.h``: the declarations of the module's public functions (default visibility;
    everything else in the text is hidden), after what the kernels use of ``<math.h>``
    (``math_decls.h``: faster to read than the system header, which the text then skips)."""
    decls = source.cdef.strip()
    if source.params:
        decls += "\n" + adapter.declaration(source.entry)
    return (f"#include <stddef.h>\n#include <stdint.h>\n{MATH_DECLS}#define SG_MATH_DECLARED 1\n"
            f"#pragma GCC visibility push(default)\n{decls}\n#pragma GCC visibility pop\n")


def write_sources(p: Plan, build_dir: Path) -> None:
    """``kernel.c`` and ``decls.h``; with several units, each unit's own file ``kernel<k>.c``
    (``units``), which the build compiles."""
    text = kernel_text(p.source)
    (build_dir / "kernel.c").write_text(text)
    (build_dir / "decls.h").write_text(decls_text(p.source))
    if p.link_cmd:
        for k, unit in enumerate(unit_texts(text, len(p.kernel_cmds))):
            (build_dir / f"kernel{k}.c").write_text(unit)


def run_build(p: Plan, build_dir: Path) -> dict:
    """Write the sources and run the compiler in ``build_dir``; returns the facts for the
    entry's meta.json. Raises ``cache.BuildFailed`` on the first failing command."""
    write_sources(p, build_dir)
    for cmd in (*p.kernel_cmds, *([p.link_cmd] if p.link_cmd else [])):
        config.debug(2, "(cd %s && %s)", build_dir, shlex.join(cmd))
    # The units are independent: compile them concurrently. An interrupt stops them all
    # (``commands``).
    try:
        results = commands.run(p.kernel_cmds, build_dir)
    except commands.NotRunnable as exc:  # found on PATH but not runnable (permissions, ...)
        raise failure(exc.command, -1, f"cannot run the compiler: {exc.error}",
                      "kernel.c") from exc
    for cmd, (rc, err) in zip(p.kernel_cmds, results):
        if rc != 0:
            raise failure(cmd, rc, err, "kernel.c")
        if err.strip():
            config.debug(2, "compiler warnings for kernel.c:\n%s", trim(err))
    if p.link_cmd:
        ((rc, err),) = commands.run([p.link_cmd], build_dir)
        if rc != 0:
            raise failure(p.link_cmd, rc, err, "kernel.c")
        for cmd in p.kernel_cmds:     # the objects and the units' files (kernel.c is whole)
            (build_dir / cmd[-1]).unlink()
            (build_dir / cmd[-3]).unlink()
    return {"module": p.so_name, "compiler": p.compiler_id, "cpu": cpu_identity(),
            "symgrad": __version__, "commands": p.commands()}


def load(p: Plan, directory: Path) -> BuiltModule:
    """Load the shared object of ``p`` built in ``directory`` (dlopen, local symbols: two
    modules defining the same name never bind to each other)."""
    from .native import helper
    native = helper()
    so_path = directory / p.so_name
    return BuiltModule(p.key, directory, False, so_path, native, native.load(str(so_path)),
                       p.source)
