"""Compile a generated C kernel into a cffi API-mode extension module and load it.

Stage: the last one. Input: one complete C99 translation unit (the kernel) and the cffi
``cdef`` of its entry points. Output: a loaded module (``ffi``, ``lib``) plus its cache key.

Must not: go through setuptools/distutils (slow, and it picks the flags for us), use
any fast-math flag (results must stay IEEE-exact), read ``os.environ`` (ask ``config``),
or touch cache files except through ``cache.py``'s protocol.

How a build goes (in a private directory, published atomically by ``cache.py``):

1. ``kernel.c``  -> ``kernel.o``   with ``-std=c99`` and the optimisation flags; the cdef is
   force-included first so a definition that disagrees with it is a compile error rather than
   silent memory corruption; ``-fvisibility=hidden`` keeps ``sg_fn`` & co. out of the dynamic
   symbol table, so two modules defining the same name can never bind to each other.
2. ``wrapper.c`` -> ``wrapper.o``  the cffi-generated glue (needs Python.h and the compiler's
   default GNU dialect), compiled at the same time as step 1: the machine has two cores.
3. link both (``-lm``, and OpenBLAS with an rpath when the kernel calls ``scipy_cblas_*``).

Translation units: a large kernel text may ask to be compiled as several units, each piece of it
wrapped in a line ``#if !defined(SG_TU) || SG_TU == k`` ... ``#endif`` (codegen writes them for
a split function: unit 0 holds the entry point and the loops, units 1..K only function-scope
scalar statements). ``build_module`` derives the units from these markers unless told
(``units=``; see ``text_units``): unit k is step 1 with ``-DSG_TU=k`` (plus, for k >= 1,
``SCALAR_UNIT_FLAGS`` after the other flags, so it wins) into ``kernel<k>.o``, all units and the
wrapper compiled concurrently, then linked together. A text without markers is one unit,
compiled exactly as above. Every command is part of the cache key.
"""

from __future__ import annotations

import atexit
import dataclasses
import errno
import functools
import importlib.machinery
import importlib.util
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from symgrad import cache, config

__all__ = [
    "DEFAULT_OPT_FLAGS",
    "BuildError",
    "BuiltModule",
    "CompilerNotFoundError",
    "build_module",
    "compiler_identity",
    "find_compiler",
    "module_key",
    "stats",
    "text_units",
]

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

# Appended to the kernel flags of translation units 1..K (function-scope scalar statements only):
# straight-line scalar code runs no faster at -O3 (measured on a 22k-statement unrolled RK4:
# 15.3 vs 15.2 us a call), which takes ~1.7x as long to compile it.
SCALAR_UNIT_FLAGS: tuple[str, ...] = ("-O1",)

# Process-wide counters, read by tests. "cache_hits" counts every call that did not compile;
# "disk_hits" / "memory_hits" say where the module came from.
stats: dict[str, int] = {"compiles": 0, "cache_hits": 0, "disk_hits": 0, "memory_hits": 0}
_stats_lock = threading.Lock()

_STDERR_MAX_LINES = 60
_STDERR_MAX_CHARS = 6000


class CompilerNotFoundError(RuntimeError):
    """No usable C compiler; the message says what to install or set."""


class BuildError(RuntimeError):
    """The C compiler (or the cffi wrapper generation) failed for one kernel."""

    def __init__(
        self,
        message: str,
        *,
        command: list[str] | None = None,
        stderr: str = "",
        source_path: Path | None = None,
        returncode: int | None = None,
    ) -> None:
        super().__init__(message)
        self.command = command
        self.stderr = stderr
        self.source_path = source_path
        self.returncode = returncode


@dataclasses.dataclass(frozen=True)
class BuiltModule:
    """A loaded kernel module: call ``lib.<entry>`` with pointers made by ``ffi``."""

    ffi: Any
    lib: Any
    key: str
    path: Path  # the directory holding kernel.c, wrapper.c, the .so and meta.json
    from_cache: bool  # False only for the call that ran the compiler
    module_name: str


# ------------------------------------------------------------------------------------ compiler


def _install_hint() -> str:
    if sys.platform == "darwin":
        how = "run `xcode-select --install`"
    elif sys.platform.startswith("linux"):
        how = "install one, e.g. `apt-get install gcc` (Debian/Ubuntu) or `dnf install gcc`"
    else:
        how = "install gcc or clang"
    return f"symgrad compiles generated C: {how}, or set SYMGRAD_CC to a C compiler."


def find_compiler() -> list[str]:
    """The compiler command as argv: ``config.compiler_command()``, else cc, gcc, clang on PATH."""
    requested = config.compiler_command()
    if requested:
        # CC is conventionally allowed to carry arguments ("ccache gcc", "gcc -m64").
        argv = shlex.split(requested)
        exe = shutil.which(argv[0]) if argv else None
        if exe is None:
            raise CompilerNotFoundError(
                f"The C compiler {requested!r} (from SYMGRAD_CC or CC) was not found. "
                f"Point SYMGRAD_CC at an installed compiler, or unset it to search PATH "
                f"for cc/gcc/clang. {_install_hint()}"
            )
        return [exe, *argv[1:]]
    for name in ("cc", "gcc", "clang"):
        exe = shutil.which(name)
        if exe:
            return [exe]
    raise CompilerNotFoundError(
        f"No C compiler (cc, gcc or clang) found on PATH. {_install_hint()}"
    )


_identities: dict[tuple[str, ...], str] = {}


def compiler_identity(command: list[str] | None = None) -> str:
    """``"<compiler path> | <first line of --version>"``, run once per process per compiler.

    It is part of every cache key, so a compiler upgrade never reuses old builds.
    """
    argv = tuple(command if command is not None else find_compiler())
    ident = _identities.get(argv)
    if ident is None:
        ident = _toolchain_facts(argv).get("identity")
    if ident is None:
        try:
            out = subprocess.run(
                [*argv, "--version"], capture_output=True, text=True, timeout=60, check=False
            ).stdout
        except (OSError, subprocess.SubprocessError) as exc:
            raise CompilerNotFoundError(
                f"Cannot run the C compiler {argv[0]!r}: {exc}. {_install_hint()}"
            ) from exc
        first = next((ln.strip() for ln in out.splitlines() if ln.strip()), "unknown version")
        ident = f"{' '.join(argv)} | {first}"
        _remember_toolchain_fact(argv, "identity", ident)
    _identities[argv] = ident
    return ident


# Facts about the compiler (its --version line, whether libmvec is there) cost a subprocess
# each, ~5-10 ms of every fresh process's first call; they are kept in the private cache dir,
# keyed by the compiler's command and its executable's path, size and modification time (an
# upgraded compiler is a new key).

def _toolchain_key(argv: tuple) -> str | None:
    try:
        exe = shutil.which(argv[0]) or argv[0]
        real = os.path.realpath(exe)
        st = os.stat(real)
    except OSError:
        return None
    return f"{' '.join(argv)}|{real}|{st.st_size}|{st.st_mtime_ns}"


def _toolchain_file() -> Path | None:
    root = cache.private_dir()   # only a private cache dir is trusted
    return None if root is None else root / cache.TOOLCHAIN_FILE


def _toolchain_facts(argv: tuple) -> dict:
    path, key = _toolchain_file(), _toolchain_key(argv)
    if path is None or key is None:
        return {}
    try:
        data = json.loads(path.read_text())
        facts = data.get(key, {})
        return facts if isinstance(facts, dict) else {}
    except (OSError, ValueError, AttributeError):
        return {}


def _remember_toolchain_fact(argv: tuple, name: str, value) -> None:
    path, key = _toolchain_file(), _toolchain_key(argv)
    if path is None or key is None:
        return
    try:
        try:
            data = json.loads(path.read_text())
            if not isinstance(data, dict):
                data = {}
        except (OSError, ValueError):
            data = {}
        data.setdefault(key, {})[name] = value
        cache.atomic_write(path, json.dumps(data, indent=1, sort_keys=True))
    except OSError:
        pass   # a read-only or full cache dir: probe again next time


# ---------------------------------------------------------------------------------- build plan


@dataclasses.dataclass(frozen=True)
class _Plan:
    """Everything one build needs; commands use paths relative to the build dir so they (and so
    the key) do not depend on which temp dir the build happens in."""

    key: str
    module_name: str
    so_name: str
    c_source: str
    cdef: str
    kernel_cmds: list[list[str]]   # one per translation unit (one for most kernels)
    wrapper_cmd: list[str]
    link_cmd: list[str]
    compiler_id: str


@functools.cache  # constant per process; sysconfig is slow (~250 us)
def _python_includes() -> tuple[str, ...]:
    paths = sysconfig.get_paths()
    dirs = dict.fromkeys(p for p in (paths.get("include"), paths.get("platinclude")) if p)
    return tuple(f"-I{d}" for d in dirs)


@functools.cache
def has_vector_math() -> bool:
    """Whether the C toolchain has glibc's vector math library (libmvec), whose SIMD variants
    of exp/log/sin/... gcc calls for loops marked `omp simd` once the functions are declared
    `omp declare simd`, with no fast-math flag."""
    if config.vector_math_disabled():
        return False
    try:
        argv = tuple(find_compiler())
    except CompilerNotFoundError:
        return False
    path = _toolchain_facts(argv).get("libmvec")
    if path is None:
        try:
            path = subprocess.run([*argv, "-print-file-name=libmvec.so"],
                                  capture_output=True, text=True, timeout=30,
                                  check=False).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            return False
        _remember_toolchain_fact(argv, "libmvec", path)
    return isinstance(path, str) and os.path.isabs(path) and os.path.exists(path)


def _mvec_link_flags(c_source: str) -> list[str]:
    return ["-lmvec"] if "omp declare simd" in c_source else []


def _source_flags(c_source: str) -> list[str]:
    """Kernel flags that depend on what the C uses."""
    flags = []
    if "omp declare simd" in c_source:
        # gcc merges sin(x) and cos(x) of one x into sincos(), which has no declared SIMD
        # variant: the whole loop would fall back to scalar calls (measured 4x slower).
        flags += ["-fno-builtin-sin", "-fno-builtin-cos", "-fno-builtin-sinf",
                  "-fno-builtin-cosf"]
    if "#pragma omp parallel" in c_source:
        flags.append("-fopenmp")   # threads for the large loops (libgomp)
    return flags


def _blas_link_flags(c_source: str) -> list[str]:
    # Only link OpenBLAS when used: loading it starts its thread pool, a cost every kernel
    # that merely adds arrays should not pay. (The substring test first: the regex alone takes
    # ~50 ms on a 3 MB kernel.)
    if "scipy_cblas_" not in c_source or not re.search(r"\bscipy_cblas_\w+", c_source):
        return []
    return list(_openblas_flags())


@functools.cache
def _openblas_flags() -> tuple[str, ...]:
    try:
        import scipy_openblas32
    except ImportError as exc:
        raise BuildError(
            "This kernel calls OpenBLAS (scipy_cblas_*) but the scipy-openblas32 wheel is not "
            "installed: `pip install scipy-openblas32`."
        ) from exc
    libdir = scipy_openblas32.get_lib_dir()
    # The rpath lets the .so find the wheel's library at load time without LD_LIBRARY_PATH.
    return (f"-L{libdir}", f"-Wl,-rpath,{libdir}", f"-l{scipy_openblas32.get_library()}")


_UNIT_MARKER = "#if !defined(SG_TU) || SG_TU == "
_UNIT_NUMBER = re.compile(r"\d+$", re.MULTILINE)


def text_units(c_source: str) -> tuple[tuple[str, ...], ...]:
    """The translation units ``c_source`` asks for, as extra kernel flags per unit: ``((),)``
    (one unit, the whole text) without ``SG_TU`` markers; else units 0..K (K the largest
    marked unit), unit 0 with no extra flag and the others with ``SCALAR_UNIT_FLAGS``.

    A marker is a whole line ``#if !defined(SG_TU) || SG_TU == <k>``."""
    last = 0
    at = c_source.find(_UNIT_MARKER)    # str.find, not a regex: ~1 ms on a 3 MB kernel
    while at >= 0:
        end = at + len(_UNIT_MARKER)
        number = _UNIT_NUMBER.match(c_source, end)
        if number is not None and (at == 0 or c_source[at - 1] == "\n"):
            last = max(last, int(number.group()))
        at = c_source.find(_UNIT_MARKER, end)
    return ((),) + (SCALAR_UNIT_FLAGS,) * last


def _plan(c_source: str, cdef: str, opt_flags: tuple[str, ...] | None,
          units: Sequence[Sequence[str]] | None = None) -> _Plan:
    cc = find_compiler()
    flags = list(DEFAULT_OPT_FLAGS if opt_flags is None else opt_flags)
    units = text_units(c_source) if units is None else tuple(tuple(u) for u in units)
    if not units:
        raise ValueError("units: a kernel is at least one translation unit")
    source_flags = _source_flags(c_source)
    # Base flags first so the caller's flags (e.g. another -std) win.
    kernel_cmds = [
        [
            *cc,
            "-std=c99",
            "-fPIC",
            "-fvisibility=hidden",
            *flags,
            *source_flags,
            *extra,
            *([f"-DSG_TU={k}"] if len(units) > 1 else []),
            "-include",
            "decls.h",
            "-c",
            "kernel.c",
            "-o",
            f"kernel{k}.o" if len(units) > 1 else "kernel.o",
        ]
        for k, extra in enumerate(units)
    ]
    # The wrapper is only argument marshalling: fixed, moderate flags, Python's own -fwrapv.
    # (cffi's default limited-API glue measured no slower per call than the full API.)
    wrapper_cmd = [
        *cc,
        "-fPIC",
        "-O2",
        "-fwrapv",
        "-DNDEBUG",
        *_python_includes(),
        "-c",
        "wrapper.c",
        "-o",
        "wrapper.o",
    ]
    if sys.platform == "darwin":
        shared = ["-bundle", "-undefined", "dynamic_lookup"]  # resolve Python symbols at import
    else:
        shared = ["-shared"]
    module_placeholder = "@SO@"
    # The caller's flags also go to the link so that -flto / -fsanitize=... / -g work.
    link_cmd = [
        *cc,
        *shared,
        "-fPIC",
        *flags,
        *(["-fopenmp"] if "#pragma omp parallel" in c_source else []),
        *(cmd[-1] for cmd in kernel_cmds),
        "wrapper.o",
        "-o",
        module_placeholder,
        *_blas_link_flags(c_source),
        *_mvec_link_flags(c_source),
        "-lm",
    ]
    ident = compiler_identity(cc)
    key = cache.make_key(
        c_source,
        cdef,
        compiler_id=ident,
        flags={
            **_kernel_entries([cmd[len(cc) :] for cmd in kernel_cmds]),
            "wrapper": wrapper_cmd[len(cc) :],
            "link": link_cmd[len(cc) :],
        },
    )
    module_name = f"_sg_{key[:24]}"
    so_name = module_name + cache.extension_suffix()
    link_cmd = [so_name if a == module_placeholder else a for a in link_cmd]
    return _Plan(
        key, module_name, so_name, c_source, cdef, kernel_cmds, wrapper_cmd, link_cmd, ident
    )


def _kernel_entries(cmds: list[list[str]]) -> dict[str, list[str]]:
    """The kernel commands as named in the key and in meta.json: ``kernel`` (unit 0, or the
    only one), then ``kernel1``, ``kernel2``, ... for the other units."""
    return {("kernel" if k == 0 else f"kernel{k}"): cmd for k, cmd in enumerate(cmds)}


def module_key(c_source: str, cdef: str, *, opt_flags: tuple[str, ...] | None = None,
               units: Sequence[Sequence[str]] | None = None) -> str:
    """The cache key ``build_module`` would use, without building anything."""
    return _plan(c_source, cdef, opt_flags, units).key


# ---------------------------------------------------------------------------------- the build


class _CompileFailed(Exception):
    def __init__(self, command: list[str], returncode: int, stderr: str, source: str) -> None:
        super().__init__(source)
        self.command, self.returncode, self.stderr, self.source = (
            command,
            returncode,
            stderr,
            source,
        )


def _trim(text: str) -> str:
    lines = text.strip().splitlines()
    out = "\n".join(lines[:_STDERR_MAX_LINES])[:_STDERR_MAX_CHARS]
    if len(lines) > _STDERR_MAX_LINES or len(out) < len("\n".join(lines)):
        out += "\n[... compiler output trimmed; see BuildError.stderr ...]"
    return out


def _emit_sources(plan: _Plan, build_dir: Path) -> None:
    import cffi

    # decls.h is the cdef as C: force-included into the kernel (type check) and pasted into
    # the wrapper (cffi's generated calls need prototypes). stdint/stddef cover the types cffi
    # knows natively (int64_t, size_t) but C only after an include.
    decls = "#include <stddef.h>\n#include <stdint.h>\n" + plan.cdef.strip() + "\n"
    (build_dir / "kernel.c").write_text(plan.c_source)
    (build_dir / "decls.h").write_text(decls)
    try:
        ffi = cffi.FFI()
        ffi.cdef(plan.cdef)
        # compiler_verbose=0 silences emit_c_code's "generating ..." print to stdout.
        ffi.set_source(
            plan.module_name,
            "/* symgrad: the kernel's entry points */\n" + decls,
            compiler_verbose=0,
        )
        ffi.emit_c_code(str(build_dir / "wrapper.c"))
    except (cffi.CDefError, cffi.FFIError) as exc:
        raise _CompileFailed(
            ["cffi.FFI().cdef(...)"], -1, f"invalid cdef: {exc}\n{plan.cdef}", "decls.h"
        ) from exc


def _run_build(plan: _Plan, build_dir: Path) -> None:
    """Write the sources and run the compiler; raise _CompileFailed on the first failure."""
    _emit_sources(plan, build_dir)
    for cmd in (*plan.kernel_cmds, plan.wrapper_cmd, plan.link_cmd):
        config.debug(2, "(cd %s && %s)", build_dir, shlex.join(cmd))
    # The objects are independent: compile them concurrently (the kernel's translation units,
    # and the wrapper, which parses Python.h).
    compiles = [(cmd, "kernel.c") for cmd in plan.kernel_cmds] + [(plan.wrapper_cmd, "wrapper.c")]
    procs = []
    try:
        for cmd, src in compiles:
            proc = subprocess.Popen(
                cmd, cwd=build_dir, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
            )
            procs.append((cmd, src, proc))
    except OSError as exc:  # found on PATH but not runnable (permissions, bad interpreter...)
        for _, _, proc in procs:
            proc.wait()
        raise _CompileFailed(cmd, -1, f"cannot run the compiler: {exc}", src) from exc
    results = [(cmd, src, proc.communicate()[1], proc.returncode) for cmd, src, proc in procs]
    for cmd, src, err, rc in results:  # kernel units first: their errors are the interesting ones
        if rc != 0:
            raise _CompileFailed(cmd, rc, err, src)
        if err.strip():
            config.debug(2, "compiler warnings for %s:\n%s", src, _trim(err))
    link = subprocess.run(plan.link_cmd, cwd=build_dir, capture_output=True, text=True, check=False)
    if link.returncode != 0:
        raise _CompileFailed(plan.link_cmd, link.returncode, link.stderr, "kernel.c")
    for cmd, _ in compiles:
        (build_dir / cmd[-1]).unlink()   # the objects
    cache.seal(
        build_dir,
        {
            "key": plan.key,
            "module": plan.module_name,
            "compiler": plan.compiler_id,
            "cpu": cache.cpu_identity(),
            "symgrad": cache.symgrad_version(),
            "commands": {
                **_kernel_entries(plan.kernel_cmds),
                "wrapper": plan.wrapper_cmd,
                "link": plan.link_cmd,
            },
        },
    )


def _to_build_error(fail: _CompileFailed, build_dir: Path) -> BuildError:
    source = build_dir / fail.source
    msg = (
        f"C compilation failed (exit {fail.returncode}) for {source}\n"
        f"command (in {build_dir}): {shlex.join(fail.command)}\n"
        f"compiler stderr:\n{_trim(fail.stderr)}"
    )
    return BuildError(
        msg,
        command=fail.command,
        stderr=fail.stderr,
        source_path=source,
        returncode=fail.returncode,
    )


def _load(plan: _Plan, directory: Path, *, from_cache: bool) -> BuiltModule:
    so_path = str(directory / plan.so_name)
    loader = importlib.machinery.ExtensionFileLoader(plan.module_name, so_path)
    spec = importlib.util.spec_from_file_location(plan.module_name, so_path, loader=loader)
    assert spec is not None
    # Not registered in sys.modules: nobody imports these by name, and with SYMGRAD_NO_CACHE
    # the same name may be loaded from several directories.
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return BuiltModule(module.ffi, module.lib, plan.key, directory, from_cache, plan.module_name)


def _count(*names: str) -> None:
    with _stats_lock:
        for name in names:
            stats[name] += 1


def _out_of_space(stderr: str) -> bool:
    """Whether a failed compiler run says the disk is full or the quota exhausted."""
    return any(os.strerror(code) in stderr for code in (errno.ENOSPC, errno.EDQUOT))


def _compile_into(plan: _Plan, build_dir: Path, name_hint: str, *, base: Path | None) -> None:
    """Build ``plan`` in ``build_dir``, a private directory under the cache root ``base`` (None:
    the cache is off). Raises BuildError, or cache.CacheDirError when the root cannot hold the
    build (writing failed, or the compiler ran out of space)."""
    start = time.perf_counter()
    try:
        if base is None:
            _run_build(plan, build_dir)
        else:
            with cache.writing(base):
                _run_build(plan, build_dir)
    except _CompileFailed as fail:
        if base is not None and _out_of_space(fail.stderr):
            shutil.rmtree(build_dir, ignore_errors=True)
            raise cache.CacheDirError(base, f"the compiler ran out of space: "
                                            f"{_trim(fail.stderr).splitlines()[0]}") from None
        # Keep the failing sources on disk (as <key>.failed in the cache): the error names them.
        where = cache.keep_failed(build_dir, plan.key, base) if base is not None else build_dir
        raise _to_build_error(fail, where) from None
    _count("compiles")
    elapsed = time.perf_counter() - start
    final = cache.entry_dir(plan.key, base) if base is not None else build_dir
    config.debug(1, "compiled %s in %.2f s -> %s", name_hint, elapsed, final)


def _try_load_cached(plan: _Plan, entry: Path) -> BuiltModule | None:
    """The module of the published entry ``entry`` if it passes ``cache.check_entry`` (owner,
    mode, manifest, sha256 of the .so) and imports; None when absent or unusable (rebuild)."""
    check = cache.check_entry(entry, plan.key, plan.so_name)
    if not check.usable:
        if check.refused:
            cache.refused(check.problem)
        elif check.problem:
            config.debug(1, "cached build %s is unusable (%s); rebuilding", entry, check.problem)
        return None
    try:
        return _load(plan, entry, from_cache=True)
    except (ImportError, OSError) as exc:  # a moved OpenBLAS, ...: rebuild it
        config.debug(1, "cached build %s is unusable (%s); rebuilding", entry, exc)
        return None


def _cached_build(plan: _Plan, base: Path, name_hint: str) -> BuiltModule:
    """Load the build of ``plan`` from the cache root ``base``, or build and publish it there
    (once, whatever the number of processes and threads asking). Raises cache.CacheDirError
    when ``base`` cannot hold it, BuildError when the compiler fails."""
    entry = cache.entry_dir(plan.key, base)
    # Readers never lock: a published entry is complete because it appeared by rename.
    mod = _try_load_cached(plan, entry)
    if mod is not None:
        return mod
    with cache.build_lock(plan.key, base):
        # Another process may have finished this key while we waited for the lock.
        mod = _try_load_cached(plan, entry)
        if mod is not None:
            return mod
        if not cache.discard(entry):  # present but unusable, and cannot be removed
            raise cache.CacheDirError(entry, "cannot remove this unusable entry",
                                      root_wide=False)
        build_dir = cache.new_build_dir(plan.key, base)
        try:
            _compile_into(plan, build_dir, name_hint, base=base)
        except BuildError:
            raise  # its sources were kept for the message to point at
        except BaseException:
            shutil.rmtree(build_dir, ignore_errors=True)  # interrupted: leave no debris
            raise
        entry, ours = cache.publish(build_dir, plan.key, base)
        if ours:
            return _load(plan, entry, from_cache=False)
        mod = _try_load_cached(plan, entry)  # a builder that did not lock got there first
        if mod is None:
            raise cache.CacheDirError(entry, "another build appeared here and is unusable",
                                      root_wide=False)
        return mod


def build_module(
    c_source: str,
    cdef: str,
    *,
    name_hint: str = "fn",
    opt_flags: tuple[str, ...] | None = None,
    units: Sequence[Sequence[str]] | None = None,
) -> BuiltModule:
    """Compile ``c_source`` (C99) exposing the functions declared in ``cdef``, or reuse a build.

    ``opt_flags`` replaces ``DEFAULT_OPT_FLAGS`` (kernel compile and link). ``units``: the
    kernel's translation units, as extra flags per unit (``CSource.units``); by default
    ``text_units(c_source)``, i.e. what the text's ``SG_TU`` markers say (one unit without).
    A cached build is loaded only after ``cache.check_entry`` has verified it (owner, mode,
    manifest, sha256 of the ``.so``); anything else is rebuilt. When the cache directory is
    untrusted, read-only or full, the build goes to a private temporary directory instead (one
    ``RuntimeWarning`` per process). Raises ``CompilerNotFoundError`` or ``BuildError``, and
    ``cache.CacheDirError`` when not even a private temporary directory can hold the build.
    """
    plan = _plan(c_source, cdef, opt_flags, units)

    if config.cache_disabled():
        build_dir = cache.new_build_dir(None)
        _compile_into(plan, build_dir, name_hint, base=None)
        atexit.register(shutil.rmtree, build_dir, True)  # a loaded .so survives its unlinking
        return _load(plan, build_dir, from_cache=False)

    hit = cache.lookup_loaded(plan.key)
    if hit is not None:
        _count("cache_hits", "memory_hits")
        return dataclasses.replace(hit, from_cache=True)

    base = cache.active_root()   # the configured root, or this process's private stand-in
    try:
        mod = _cached_build(plan, base, name_hint)
    except cache.CacheDirError as exc:
        if cache.is_fallback(base):
            raise  # the private temporary root failed too (e.g. /tmp is full): nothing left
        # Unwritable, full or untrusted: build privately (and stay there if the whole root is).
        base = cache.fall_back(base, exc.problem if exc.root_wide else str(exc),
                               abandon=exc.root_wide)
        mod = _cached_build(plan, base, name_hint)
    if mod.from_cache:
        _count("cache_hits", "disk_hits")
        config.debug(2, "loaded %s from cache %s", name_hint, mod.path)
    return cache.remember_loaded(plan.key, mod)
