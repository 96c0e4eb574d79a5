"""The C toolchain: which compiler, what it is, what it can link, and for which CPU.

Layer: build. Input: the settings (``config``) and the machine. Output: the compiler command,
its identity (part of every cache key), whether glibc's vector math library is there, the
Python and OpenBLAS flags, the CPU's identity. Facts that cost a subprocess (the ``--version``
line, libmvec's path: ~5-10 ms each, in every fresh process's first compile) are kept in the
cache's private ``toolchain`` directory, keyed by the compiler's command and its executable's
path, size and modification time (an upgraded compiler is a new key); the facts not known yet
are asked of the compiler at once (concurrent processes, one wait). Probing never creates the
cache root: facts are only written into a root that exists.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib.machinery
import importlib.util
import json
import os
import platform
import shlex
import shutil
import subprocess
import sys
import sysconfig

from ... import config
from .. import cache
from ..files import atomic_write

FACTS_FILE = "facts.json"


class CompilerNotFoundError(RuntimeError):
    """No usable C compiler; the message says what to install or set."""


def install_hint() -> str:
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
                f"for cc/gcc/clang. {install_hint()}"
            )
        return [exe, *argv[1:]]
    for name in ("cc", "gcc", "clang"):
        exe = shutil.which(name)
        if exe:
            return [exe]
    raise CompilerNotFoundError(
        f"No C compiler (cc, gcc or clang) found on PATH. {install_hint()}"
    )


_identities: dict[tuple[str, ...], str] = {}

# The questions asked of a compiler, as its arguments. gcc answers only the first print option
# of a command line, so each is a process of its own; they run at the same time (``_ask``).
QUESTIONS = {"identity": ("--version",), "libmvec": ("-print-file-name=libmvec.so",)}


def compiler_identity(command: list[str] | None = None) -> str:
    """``"<compiler path> | <first line of --version>"``, asked once per compiler (then kept
    in the facts). It is part of every cache key, so a compiler upgrade never reuses builds."""
    argv = tuple(command if command is not None else find_compiler())
    known = {} if argv in _identities else facts(argv)
    ident = _identities.get(argv) or known.get("identity")
    if ident is None:
        vector = not config.vector_math_disabled() and "libmvec" not in known
        ident = _ask(argv, ("identity", "libmvec") if vector else ("identity",)).get("identity")
        if not isinstance(ident, str):
            raise CompilerNotFoundError(
                f"Cannot run the C compiler {argv[0]!r}: {ident}. {install_hint()}"
            ) from ident
    _identities[argv] = ident
    return ident


@functools.cache
def has_vector_math() -> bool:
    """Whether the C toolchain has glibc's vector math library (libmvec), whose SIMD variants
    of exp/log/sin/... gcc calls for loops marked `omp simd` once the functions are declared
    `omp declare simd`, with no fast-math flag. False under ``SYMGRAD_VECTOR_MATH=0``."""
    if config.vector_math_disabled():
        return False
    try:
        argv = tuple(find_compiler())
    except CompilerNotFoundError:
        return False
    known = facts(argv)
    path = known.get("libmvec")
    if path is None:
        identity = argv not in _identities and "identity" not in known
        path = _ask(argv, ("identity", "libmvec") if identity else ("libmvec",)).get("libmvec")
    return isinstance(path, str) and os.path.isabs(path) and os.path.exists(path)


def _ask(argv: tuple, names: tuple) -> dict:
    """The facts ``names`` (of ``QUESTIONS``) of compiler ``argv``, each asked by a process of
    its own, all at once: the wait is the longest one's, not their sum. Remembered (in this
    process and the facts). A fact whose process failed (could not start, timed out) is the
    exception. No process outlives the call (an interrupt kills them)."""
    answers: dict = {}
    running = {}
    try:
        for name in names:
            try:
                running[name] = subprocess.Popen(
                    [*argv, *QUESTIONS[name]], stdin=subprocess.DEVNULL,
                    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
            except OSError as exc:
                answers[name] = exc
        for name, proc in running.items():
            try:
                answers[name] = proc.communicate(timeout=60)[0]
            except (subprocess.SubprocessError, OSError) as exc:
                answers[name] = exc
    finally:
        for proc in running.values():
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    return _remember_answers(argv, answers)


def _remember_answers(argv: tuple, answers: dict) -> dict:
    """The facts in the compiler's ``answers`` (its outputs), kept for later processes."""
    found = {}
    out = answers.get("identity")
    if isinstance(out, str):
        first = next((ln.strip() for ln in out.splitlines() if ln.strip()), "unknown version")
        found["identity"] = _identities[argv] = f"{' '.join(argv)} | {first}"
    if isinstance(answers.get("libmvec"), str):
        found["libmvec"] = answers["libmvec"].strip()
    if found:
        remember_all(argv, found)
    return {**answers, **found}


@functools.cache  # constant per process; sysconfig is slow (~250 us)
def python_includes() -> tuple[str, ...]:
    paths = sysconfig.get_paths()
    dirs = dict.fromkeys(p for p in (paths.get("include"), paths.get("platinclude")) if p)
    return tuple(f"-I{d}" for d in dirs)


@functools.cache
def openblas_flags() -> tuple[str, ...]:
    """Link flags of the scipy-openblas32 wheel (with an rpath, so that the module finds the
    library at load time without LD_LIBRARY_PATH)."""
    libdir, name = _openblas_library()
    return (f"-L{libdir}", f"-Wl,-rpath,{libdir}", f"-l{name}")


def _openblas_library() -> tuple[str, str]:
    """(the wheel's library directory, the library's name), found without importing the
    wheel (whose import reads its own metadata: ~40 ms of a fresh process's first call);
    from the wheel itself when its layout is not the one expected."""
    spec = importlib.util.find_spec("scipy_openblas32")
    if spec is not None and spec.origin:
        libdir = os.path.join(os.path.dirname(spec.origin), "lib")
        with contextlib.suppress(OSError):
            names = sorted(f for f in os.listdir(libdir)
                           if f.startswith("libscipy_openblas") and ".so" in f)
            if names:
                return libdir, names[0][3:].split(".so")[0]
    import scipy_openblas32
    return scipy_openblas32.get_lib_dir(), scipy_openblas32.get_library()


def extension_suffix() -> str:
    """This interpreter's extension-module ABI tag, e.g. ``.cpython-311-x86_64-linux-gnu.so``."""
    return importlib.machinery.EXTENSION_SUFFIXES[0]


@functools.cache
def cpu_identity() -> str:
    """A short hash naming this CPU's model and feature set.

    Builds use ``-march=native``, so a cache shared between machines (an NFS home, a copied
    docker layer) must not hand an AVX-512 build to a CPU without it.
    """
    wanted = ("model name", "flags", "features", "cpu part", "cpu implementer", "isa", "cpu")
    found: dict[str, str] = {}
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as fh:
            for line in fh:
                name, sep, value = line.partition(":")
                name = name.strip().lower()
                if sep and name in wanted and name not in found:
                    found[name] = " ".join(value.split())
                if not line.strip() and found:
                    break  # the first processor's block is enough
    except OSError:
        pass  # not Linux: fall back to what the platform module knows
    text = (
        json.dumps(found, sort_keys=True)
        if found
        else f"{platform.machine()}|{platform.processor()}"
    )
    return hashlib.sha256(text.encode()).hexdigest()[:16]


# ---------------------------------------------------------------------------------- the facts

def _key(argv: tuple) -> str | None:
    try:
        exe = shutil.which(argv[0]) or argv[0]
        real = os.path.realpath(exe)
        st = os.stat(real)
    except OSError:
        return None
    return f"{' '.join(argv)}|{real}|{st.st_size}|{st.st_mtime_ns}"


def _read(path) -> dict:
    try:
        data = json.loads(path.read_text())
        return data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}


def facts(argv: tuple) -> dict:
    """What is known of the compiler ``argv`` (from earlier processes); {} if nothing."""
    directory, key = cache.private_dir("toolchain"), _key(argv)
    if directory is None or key is None:
        return {}
    found = _read(directory / FACTS_FILE).get(key, {})
    return found if isinstance(found, dict) else {}


def remember(argv: tuple, name: str, value) -> None:
    """Keep a fact about the compiler ``argv`` for later processes (if the cache root exists:
    probing the toolchain never creates it)."""
    remember_all(argv, {name: value})


def remember_all(argv: tuple, found: dict) -> None:
    """Keep facts (name -> value) about the compiler ``argv``: one write of the facts file."""
    directory, key = cache.private_dir("toolchain"), _key(argv)
    if directory is None or key is None:
        return
    try:
        data = _read(directory / FACTS_FILE)
        data.setdefault(key, {}).update(found)
        atomic_write(directory / FACTS_FILE, json.dumps(data, indent=1, sort_keys=True))
    except OSError:
        pass   # a read-only or full cache dir: probe again next time
