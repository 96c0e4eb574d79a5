"""Compile a C source object into a cffi API-mode extension module and load it.

Layer: build. Input: a ``codegen.CSource``: the C99 text, the cffi ``cdef`` of its entry
point, its translation units and its build needs (OpenMP, vector math, BLAS), all as data: the
text is never searched. Output: a loaded module (``ffi``, ``lib``) and its cache key. The cache
(``cache.get_or_build``) decides whether to build; this module only says how.

Must not: go through setuptools/distutils (slow, and it picks the flags for us), use any
fast-math flag (results must stay IEEE-exact), read ``os.environ`` (ask ``config``), or touch
the cache's files.

How a build goes (in a private directory the cache gives, published by the cache):

1. ``kernel.c``  -> ``kernel.o``   with ``-std=c99`` and the optimisation flags; the cdef is
   force-included first so a definition that disagrees with it is a compile error rather than
   silent memory corruption; ``-fvisibility=hidden`` keeps ``sg_fn`` & co. out of the dynamic
   symbol table, so two modules defining the same name can never bind to each other.
2. ``wrapper.c`` -> ``wrapper.o``  the cffi-generated glue (needs Python.h and the compiler's
   default GNU dialect), compiled at the same time as step 1: the machine has two cores.
3. link both (``-lm``; OpenBLAS with an rpath, libmvec, OpenMP when the source needs them).

An interrupt (Ctrl-C) while the compiler runs terminates every process it started and waits for
them (``commands``) before it propagates; the cache then removes the unfinished build.

Translation units: a source of several units (``CSource.units``, a kind per unit) is compiled
once per unit k with ``-DSG_TU=k`` and its kind's ``UNIT_FLAGS`` after the others (so they
win) into ``kernel<k>.o``, all units and the wrapper concurrently, then linked together. Every
command is part of the cache key.
"""

from __future__ import annotations

import dataclasses
import errno
import hashlib
import importlib.machinery
import importlib.util
import json
import os
import platform
import shlex
import sys
from pathlib import Path

from ... import config
from ...codegen.c.csource import CSource
from ...version import __version__
from .. import cache
from . import commands
from .module import BuiltModule
from .toolchain import (CompilerNotFoundError, compiler_identity, cpu_identity,  # noqa: F401
                        extension_suffix, find_compiler, openblas_flags, python_includes)

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
UNIT_FLAGS: dict[str, tuple[str, ...]] = {"main": (), "cold": ("-O1", "-fno-tree-ccp")}

_STDERR_MAX_LINES = 60
_STDERR_MAX_CHARS = 6000


class BuildError(RuntimeError):
    """The C compiler (or the cffi wrapper generation) failed for one kernel."""

    def __init__(self, message: str, *, command: list[str] | None = None, stderr: str = "",
                 source_path: Path | None = None, returncode: int | None = None) -> None:
        super().__init__(message)
        self.command = command
        self.stderr = stderr
        self.source_path = source_path
        self.returncode = returncode


@dataclasses.dataclass(frozen=True)
class Plan:
    """Everything one build needs; commands use paths relative to the build dir so they (and so
    the key) do not depend on which directory the build happens in."""

    key: str
    module_name: str
    so_name: str
    source: CSource
    kernel_cmds: list      # one per translation unit
    wrapper_cmd: list
    link_cmd: list
    compiler_id: str

    def commands(self) -> dict[str, list[str]]:
        """The commands as meta.json records them: ``kernel`` (unit 0, or the only one),
        ``kernel1``... for the other units, ``wrapper``, ``link``."""
        units = {("kernel" if k == 0 else f"kernel{k}"): cmd
                 for k, cmd in enumerate(self.kernel_cmds)}
        return {**units, "wrapper": self.wrapper_cmd, "link": self.link_cmd}


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
    # Base flags first so the caller's flags (e.g. another -std) win.
    kernel_cmds = [[*cc, "-std=c99", "-fPIC", "-fvisibility=hidden", *kernel_flags, *extra,
                    *([f"-DSG_TU={k}"] if len(units) > 1 else []), "-include", "decls.h", "-c",
                    "kernel.c", "-o", f"kernel{k}.o" if len(units) > 1 else "kernel.o"]
                   for k, extra in enumerate(units)]
    # The wrapper is only argument marshalling: fixed, moderate flags, Python's own -fwrapv.
    # (cffi's default limited-API glue measured no slower per call than the full API.)
    wrapper_cmd = [*cc, "-fPIC", "-O2", "-fwrapv", "-DNDEBUG", *python_includes(), "-c",
                   "wrapper.c", "-o", "wrapper.o"]
    shared = ["-bundle", "-undefined", "dynamic_lookup"] if sys.platform == "darwin" \
        else ["-shared"]   # (macOS: resolve Python's symbols at import)
    # The caller's flags also go to the link so that -flto / -fsanitize=... / -g work.
    link_cmd = [*cc, *shared, "-fPIC", *flags, *(["-fopenmp"] if needs.openmp else []),
                *(cmd[-1] for cmd in kernel_cmds), "wrapper.o", "-o", "@SO@",
                *(_blas_flags() if needs.blas else []),
                *(["-lmvec"] if needs.vector_math else []), "-lm"]
    ident = compiler_identity(cc)
    drop = len(cc)
    commands = {**{("kernel" if k == 0 else f"kernel{k}"): cmd[drop:]
                   for k, cmd in enumerate(kernel_cmds)},
                "wrapper": wrapper_cmd[drop:], "link": link_cmd[drop:]}
    key = make_key(source.text, source.cdef, compiler_id=ident, flags=commands)
    module_name = f"_sg_{key[:24]}"
    so_name = module_name + extension_suffix()
    link_cmd = [so_name if a == "@SO@" else a for a in link_cmd]
    return Plan(key, module_name, so_name, source, kernel_cmds, wrapper_cmd, link_cmd, ident)


def _blas_flags() -> tuple[str, ...]:
    try:
        return openblas_flags()
    except ImportError as exc:
        raise BuildError("This kernel calls OpenBLAS (scipy_cblas_*) but the scipy-openblas32 "
                         "wheel is not installed: `pip install scipy-openblas32`.") from exc


def make_key(c_source: str, cdef: str, *, compiler_id: str, flags: dict) -> str:
    """The hex sha256 naming a build; everything that can change the produced ``.so`` goes in."""
    try:
        import _cffi_backend   # the wrapper's C text depends on cffi's version
        cffi_version = _cffi_backend.__version__
    except ImportError:  # pragma: no cover - the build fails later with a clearer message
        cffi_version = "none"
    parts = {
        "schema": cache.SCHEMA,
        # (its hash: JSON-escaping a large text took 23 ms of a 35 ms warm start)
        "c_source": hashlib.sha256(c_source.encode("utf-8")).hexdigest(),
        "cdef": cdef,
        "compiler": compiler_id,
        "flags": flags,
        "symgrad": __version__,
        "cffi": cffi_version,
        "abi": extension_suffix(),
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

def write_sources(p: Plan, build_dir: Path) -> None:
    """``kernel.c``, ``decls.h`` (the cdef as C: force-included into the kernel, a type check,
    and pasted into the wrapper) and the cffi wrapper ``wrapper.c``."""
    import cffi

    decls = "#include <stddef.h>\n#include <stdint.h>\n" + p.source.cdef.strip() + "\n"
    (build_dir / "kernel.c").write_text(p.source.text)
    (build_dir / "decls.h").write_text(decls)
    try:
        ffi = cffi.FFI()
        ffi.cdef(p.source.cdef)
        # compiler_verbose=0 silences emit_c_code's "generating ..." print to stdout.
        ffi.set_source(p.module_name, "/* symgrad: the kernel's entry points */\n" + decls,
                       compiler_verbose=0)
        ffi.emit_c_code(str(build_dir / "wrapper.c"))
    except (cffi.CDefError, cffi.FFIError) as exc:
        raise _failure(["cffi.FFI().cdef(...)"], -1,
                       f"invalid cdef: {exc}\n{p.source.cdef}", "decls.h") from exc


def run_build(p: Plan, build_dir: Path) -> dict:
    """Write the sources and run the compiler in ``build_dir``; returns the facts for the
    entry's meta.json. Raises ``cache.BuildFailed`` on the first failing command."""
    write_sources(p, build_dir)
    for cmd in (*p.kernel_cmds, p.wrapper_cmd, p.link_cmd):
        config.debug(2, "(cd %s && %s)", build_dir, shlex.join(cmd))
    # The objects are independent: compile them concurrently (the kernel's translation units,
    # and the wrapper, which parses Python.h). An interrupt stops them all (``commands``).
    compiles = [(cmd, "kernel.c") for cmd in p.kernel_cmds] + [(p.wrapper_cmd, "wrapper.c")]
    try:
        results = commands.run([cmd for cmd, _ in compiles], build_dir)
    except commands.NotRunnable as exc:  # found on PATH but not runnable (permissions, ...)
        raise _failure(exc.command, -1, f"cannot run the compiler: {exc.error}",
                       "wrapper.c" if exc.command is p.wrapper_cmd else "kernel.c") from exc
    for (cmd, src), (rc, err) in zip(compiles, results):  # kernel units first: their errors
        if rc != 0:                                        # are the interesting ones
            raise _failure(cmd, rc, err, src)
        if err.strip():
            config.debug(2, "compiler warnings for %s:\n%s", src, _trim(err))
    ((rc, err),) = commands.run([p.link_cmd], build_dir)
    if rc != 0:
        raise _failure(p.link_cmd, rc, err, "kernel.c")
    for cmd, _ in compiles:
        (build_dir / cmd[-1]).unlink()   # the objects
    return {"module": p.module_name, "compiler": p.compiler_id, "cpu": cpu_identity(),
            "symgrad": __version__, "commands": p.commands()}


def load(p: Plan, directory: Path) -> BuiltModule:
    """Import the module of ``p`` built in ``directory`` (not registered in ``sys.modules``:
    nobody imports these by name, and with SYMGRAD_NO_CACHE one name may be loaded from
    several directories)."""
    so_path = str(directory / p.so_name)
    loader = importlib.machinery.ExtensionFileLoader(p.module_name, so_path)
    spec = importlib.util.spec_from_file_location(p.module_name, so_path, loader=loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return BuiltModule(module.ffi, module.lib, p.key, directory, False, p.module_name)


def _trim(text: str) -> str:
    lines = text.strip().splitlines()
    out = "\n".join(lines[:_STDERR_MAX_LINES])[:_STDERR_MAX_CHARS]
    if len(lines) > _STDERR_MAX_LINES or len(out) < len("\n".join(lines)):
        out += "\n[... compiler output trimmed; see BuildError.stderr ...]"
    return out


def _failure(command: list, returncode: int, stderr: str, source: str) -> cache.BuildFailed:
    """The cache's ``BuildFailed`` for a failed command: the ``BuildError`` it raises names
    the directory the failed build is kept in; a full disk makes the cache fall back."""
    def error(build_dir: Path) -> BuildError:
        path = build_dir / source
        return BuildError(f"C compilation failed (exit {returncode}) for {path}\n"
                          f"command (in {build_dir}): {shlex.join(command)}\n"
                          f"compiler stderr:\n{_trim(stderr)}",
                          command=command, stderr=stderr, source_path=path,
                          returncode=returncode)
    full = any(os.strerror(code) in stderr for code in (errno.ENOSPC, errno.EDQUOT))
    return cache.BuildFailed(error, out_of_space=full,
                             reason=(_trim(stderr).splitlines() or [""])[0])
