"""On-disk and in-process cache of compiled kernel modules.

Stage: the last one, beside the compiler. Input: the ingredients of a build (C text, cdef,
compiler identity, flags). Output: a content key, the directory a build lives in, the checks an
entry passes before it is loaded, and the locking / atomic-publish protocol that lets many
processes share one build.

Must not: invoke the compiler or import a module (that is ``compiler.py``'s job), read
``os.environ`` (ask ``config``), lock on the read path, or delete anything under the cache root
that does not look like one of its own entries.

Layout (directories 0700, files 0600, the ``.so`` 0700)::

    <root>/                          CACHEDIR.TAG, toolchain.json, templates/ (Jinja2 bytecode)
    <root>/<key[:2]>/<key>/          kernel.c, decls.h, wrapper.c, <module>.so, meta.json
    <root>/<key[:2]>/<key>.lock      flock()ed only while that key is being built
    <root>/<key[:2]>/.tmp-<key16>-*  a build in progress, renamed onto <key>/ when done
    <root>/<key[:2]>/<key>.failed/   the last failed build of that key, kept for inspection

``meta.json`` records the key, the module name, the commands, the schema and, for every file
of the entry, its size and sha256 (the manifest).

Trust model. An entry is native code this process will ``dlopen`` and run, so only a directory
nobody else can write to is used:

* The root must be a directory owned by the effective user and not writable by group or
  others, and every directory above it (of the path as given and as resolved) must be owned by
  that user or root and not writable by group/others unless sticky (``/tmp``): otherwise
  whoever may write there could swap the cache for their own. A missing root is created 0700.
  A root that fails, or that cannot be created or written (read-only, full disk, quota), is not
  used: this process builds into a private temporary directory instead (``mkdtemp``, removed
  at exit) and says so once with a ``RuntimeWarning`` naming the directory, its owner and mode
  and what to do. Entries of a read-only but trusted root are still loaded.
* Before loading, ``check_entry`` requires the shard, the entry, ``meta.json`` and the ``.so``
  to be ours and not group/other-writable (and no symbolic links), the meta to parse and name
  the same key as the directory, the sources to be there with their recorded sizes, and the
  ``.so``'s size and sha256 to match the manifest. (This must come before ``dlopen``: a
  truncated ``.so`` is not an ImportError, the loader maps it and the process dies of SIGBUS
  or SIGSEGV.) Otherwise the entry is never loaded: it is rebuilt in place under the build lock, or in the
  private temporary directory when it cannot be replaced (a foreign or open shard). Ownership
  or permission refusals are warned about (once per process, like the fallback); corruption
  (truncation, garbage, missing files) is only logged at ``SYMGRAD_DEBUG=1``.
* Time of check vs time of use: the ``.so`` is hashed, then ``dlopen``ed by path. That is sound
  because every directory on that path is one only this user (or root) can write to: nobody
  else can replace the file between the check and the load. Anyone running as this user can
  change the cache anyway; the hash guards against corruption and stale builds, not them.

Writes: a build happens in a fresh private directory and appears under its final name by one
``rename``, so readers (who never lock) see a complete entry or none; every other file the
cache writes (``meta.json``, ``toolchain.json``, ``CACHEDIR.TAG``) goes through
``atomic_write`` (a 0600 temporary file beside it, then ``rename``). Jinja2's bytecode cache
does the same itself. Nothing is fsync()ed: after a power loss a torn file fails the checks
and is rebuilt.
"""

from __future__ import annotations

import atexit
import contextlib
import dataclasses
import errno
import functools
import hashlib
import importlib.machinery
import itertools
import json
import os
import platform
import re
import shutil
import stat
import sys
import tempfile
import threading
import warnings
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from symgrad import config

try:  # POSIX only; on other systems builds are still atomic, just not deduplicated
    import fcntl
except ImportError:  # pragma: no cover
    fcntl = None  # type: ignore[assignment]

# Bump when the layout of an entry or the meaning of the key changes: old entries become unreachable
# instead of being misread.
SCHEMA = 2
META_FILE = "meta.json"
TOOLCHAIN_FILE = "toolchain.json"   # compiler.py's facts about the C compiler
TEMPLATES_DIR = "templates"         # codegen.py's Jinja2 bytecode cache
_KEY_RE = re.compile(r"^[0-9a-f]{64}$")
_SHARD_RE = re.compile(r"^[0-9a-f]{2}$")
_O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_O_CLOEXEC = getattr(os, "O_CLOEXEC", 0)

# In-process: key -> whatever compiler.py loaded for it, so one key is never imported twice.
_loaded: dict[str, Any] = {}
_loaded_lock = threading.Lock()

# In-process: configured root -> the private temporary root used instead of it (for all keys
# once it is abandoned, else for the keys whose entries could not be replaced there).
_fallbacks: dict[Path, Path] = {}
_abandoned: set[Path] = set()
_warned = False           # the one RuntimeWarning of this process has been given
_state_lock = threading.Lock()
_names = itertools.count()


class CacheDirError(RuntimeError):
    """A cache directory cannot hold a build: it is not writable (read-only, full, over quota),
    or not trusted. ``root_wide``: the whole root is unusable, not just one shard of it."""

    def __init__(self, path: Path, problem: str, *, root_wide: bool = True) -> None:
        super().__init__(f"{path}: {problem}")
        self.path = path
        self.problem = problem
        self.root_wide = root_wide


def symgrad_version() -> str:
    """The package's own version string (not importlib.metadata: that scans sys.path, ~4 ms of
    every fresh process's first cache hit)."""
    from . import __version__
    return __version__


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


def make_key(c_source: str, cdef: str, *, compiler_id: str, flags: Mapping[str, Any]) -> str:
    """The hex sha256 naming a build; everything that can change the produced ``.so`` goes in."""
    try:
        import cffi

        cffi_version = cffi.__version__  # the wrapper C text depends on it
    except ImportError:  # pragma: no cover - build_module fails later with a clearer message
        cffi_version = "none"
    parts = {
        "schema": SCHEMA,
        "c_source": c_source,
        "cdef": cdef,
        "compiler": compiler_id,
        "flags": flags,
        "symgrad": symgrad_version(),
        "cffi": cffi_version,
        "abi": extension_suffix(),
        "platform": f"{sys.platform}|{platform.machine()}",
        "cpu": cpu_identity(),
    }
    # JSON with sorted keys is an unambiguous encoding: no two different part sets collide.
    blob = json.dumps(parts, sort_keys=True, ensure_ascii=True, default=list)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


# ---------------------------------------------------------------------------------------- paths


def root() -> Path:
    """The configured cache root (``SYMGRAD_CACHE_DIR`` or the user's cache dir), trusted or not."""
    return config.cache_dir()


def shard_dir(key: str, base: Path | None = None) -> Path:
    return (root() if base is None else base) / key[:2]


def entry_dir(key: str, base: Path | None = None) -> Path:
    return shard_dir(key, base) / key


def failed_dir(key: str, base: Path | None = None) -> Path:
    return shard_dir(key, base) / f"{key}.failed"


# ---------------------------------------------------------------------------------------- trust


def _user(uid: int) -> str:
    try:
        import pwd

        return f"{pwd.getpwuid(uid).pw_name} (uid {uid})"
    except (ImportError, KeyError):
        return f"uid {uid}"


def _writers(mode: int) -> str:
    return {0o022: "group and others", 0o020: "group", 0o002: "others"}[mode & 0o022]


def _kind(st: os.stat_result) -> str:
    if stat.S_ISLNK(st.st_mode):
        return "a symbolic link"
    if stat.S_ISDIR(st.st_mode):
        return "a directory"
    return "a regular file" if stat.S_ISREG(st.st_mode) else "a special file"


def _wrong_kind(path: Path, st: os.stat_result, *, directory: bool) -> str | None:
    """Why ``path`` is not what the layout says it is (a real directory / regular file)."""
    ok = stat.S_ISDIR(st.st_mode) if directory else stat.S_ISREG(st.st_mode)
    if ok:
        return None
    return f"{path} is {_kind(st)}, not {'a directory' if directory else 'a regular file'}"


def _euid() -> int:
    return os.geteuid() if hasattr(os, "geteuid") else 0   # (not POSIX: files report uid 0)


def _foreign(path: Path, st: os.stat_result) -> str | None:
    """Why someone other than this user could change ``path``: its owner or its mode."""
    me = _euid()
    if st.st_uid != me:
        return (f"{path} is owned by {_user(st.st_uid)}, not by you ({_user(me)}); "
                f"remove it, or set SYMGRAD_CACHE_DIR to a directory of your own")
    if st.st_mode & 0o022:
        return (f"{path} is writable by {_writers(st.st_mode)} "
                f"(mode {stat.S_IMODE(st.st_mode):04o}); run `chmod go-w {path}`")
    return None


@functools.lru_cache(maxsize=64)
def _ancestor_problem(path: str, me: int) -> str | None:
    """Why a directory above ``path`` lets someone else replace it, or None. Every directory
    above the path as given and as resolved must be ours or root's, and not writable by
    group/others unless sticky (``/tmp``). Ancestors rarely change: checked once per process."""
    given = Path(os.path.abspath(path))
    dirs = dict.fromkeys([*given.parents, *Path(os.path.realpath(path)).parents])
    for parent in dirs:
        try:
            st = os.stat(parent)
        except OSError as exc:
            return f"cannot inspect its parent directory {parent}: {exc.strerror}"
        if st.st_uid not in (0, me):
            return (f"its parent directory {parent} is owned by {_user(st.st_uid)}, who could "
                    f"replace it; set SYMGRAD_CACHE_DIR to a directory under one of your own")
        if st.st_mode & 0o022 and not st.st_mode & stat.S_ISVTX:
            return (f"its parent directory {parent} is writable by {_writers(st.st_mode)} "
                    f"(mode {stat.S_IMODE(st.st_mode):04o}, not sticky), who could replace it; "
                    f"run `chmod go-w {parent}` or set SYMGRAD_CACHE_DIR elsewhere")
    return None


def root_problem(path: Path, *, create: bool) -> str | None:
    """Why the cache root ``path`` may not be used, or None when it may. With ``create``, a
    missing root is made (0700, with a CACHEDIR.TAG); without, a missing root is no problem."""
    try:
        st = os.stat(path)   # the root itself may be a symlink: its target is what counts
    except FileNotFoundError:
        ancestors = _ancestor_problem(str(path), _euid()) if path.parent.exists() else None
        if not create or ancestors:
            return ancestors
        try:
            _create_root(path)
            st = os.stat(path)
        except OSError as exc:
            return (f"cannot create it: {exc.strerror or exc}; make it writable or set "
                    f"SYMGRAD_CACHE_DIR to a writable directory")
    except OSError as exc:
        return f"cannot inspect it: {exc.strerror or exc}"
    problem = _wrong_kind(path, st, directory=True) or _foreign(path, st)
    return problem or _ancestor_problem(str(path), _euid())


def _create_root(path: Path) -> None:
    """Make the root and any missing directory above it 0700 (as XDG asks of ~/.cache)."""
    missing = [path]
    while not os.path.lexists(missing[-1].parent):
        missing.append(missing[-1].parent)
    created = False
    for folder in reversed(missing):
        try:
            os.mkdir(folder, 0o700)
        except FileExistsError:
            created = False   # someone else made it meanwhile: root_problem checks whose it is
            continue
        os.chmod(folder, 0o700)   # mkdir's mode was filtered by the umask
        created = True
    if not created:
        return
    with contextlib.suppress(OSError):
        # The cache-directory tagging convention makes backup tools skip us.
        atomic_write(path / "CACHEDIR.TAG",
                     "Signature: 8a477f597d28d172789f06886806bc55\n"
                     "# This directory is a cache of compiled symgrad kernels; it can be deleted.\n")


def active_root() -> Path:
    """The root builds go to and are loaded from: the configured one when it is trusted and
    usable (created if missing), else this process's private temporary root (one warning)."""
    configured = root()
    if configured in _abandoned:
        return _fallbacks[configured]
    problem = root_problem(configured, create=True)
    if problem is None:
        return configured
    return fall_back(configured, problem, abandon=True)


def is_fallback(base: Path) -> bool:
    """Whether ``base`` is one of this process's private temporary roots."""
    return base in _fallbacks.values()


def fall_back(configured: Path, problem: str, *, abandon: bool) -> Path:
    """This process's private temporary root standing in for ``configured`` (made on first use:
    ``mkdtemp``, so 0700 and ours; removed at exit). ``abandon``: use it instead of
    ``configured`` for every later build too. The first problem of the process is warned about
    (``RuntimeWarning``), later ones logged at ``SYMGRAD_DEBUG=1``."""
    with _state_lock:
        temp = _fallbacks.get(configured)
        if temp is None:
            try:
                temp = Path(tempfile.mkdtemp(prefix="symgrad-cache-"))
            except OSError as exc:
                raise CacheDirError(configured, f"{problem}; and no private temporary "
                                    f"directory could be made in {tempfile.gettempdir()} "
                                    f"either: {exc.strerror or exc}") from exc
            atexit.register(shutil.rmtree, temp, True)   # a loaded .so survives its unlinking
            _fallbacks[configured] = temp
        if abandon:
            _abandoned.add(configured)
    scope = "this process's builds" if abandon else "this build"
    _report(f"symgrad: not using the kernel cache directory {configured} for {scope}: "
            f"{problem}. Compiling into the private temporary directory {temp} instead "
            f"(removed at exit, so other processes compile again)")
    return temp


def refused(problem: str) -> None:
    """Report an entry refused for its owner or mode (the caller rebuilds it)."""
    _report(f"symgrad: refusing to load a cached kernel: {problem}; rebuilding it")


def _report(text: str) -> None:
    """The process's one RuntimeWarning about the cache, or a debug line once it was given."""
    global _warned
    with _state_lock:
        first, _warned = not _warned, True
    if first:
        warnings.warn(f"{text} (further cache problems are logged with SYMGRAD_DEBUG=1)",
                      RuntimeWarning, stacklevel=2)
    else:
        config.debug(1, "%s", text)


def private_dir(name: str = "") -> Path | None:
    """The cache root (or its subdirectory ``name``, created 0700) if it may be trusted with
    data this process will load: caching is on, the root passes ``root_problem`` and was not
    abandoned, and the subdirectory is ours and writable by nobody else. None otherwise (the
    caller then works without it)."""
    if config.cache_disabled():
        return None
    path = root()
    if path in _abandoned or root_problem(path, create=True) is not None:
        return None
    if name:
        path = path / name
        try:
            with contextlib.suppress(FileExistsError):
                os.mkdir(path, 0o700)
            st = os.lstat(path)
        except OSError:
            return None
        if _wrong_kind(path, st, directory=True) or _foreign(path, st):
            return None
    return path


# ---------------------------------------------------------------------------- checking an entry


@dataclasses.dataclass(frozen=True)
class EntryCheck:
    """What ``check_entry`` found. ``usable``: load it. Otherwise ``problem`` is empty when
    there is no entry, else says what is wrong; ``refused``: its owner or mode (not mere
    corruption) is the problem."""

    usable: bool
    problem: str = ""
    refused: bool = False


_ABSENT = EntryCheck(False)
_USABLE = EntryCheck(True)


def check_entry(entry: Path, key: str, so_name: str) -> EntryCheck:
    """Whether the published build ``entry`` of ``key`` may be loaded (see the trust model in
    the module docstring). Lock-free: entries only appear by rename. Cost: a few stat calls,
    reading meta.json, and reading and hashing the ``.so`` (sha256: ~0.1 ms for 200 KB).
    The other files of the manifest (the sources) must be there with their recorded sizes."""
    for path in (entry.parent, entry):
        try:
            st = os.lstat(path)
        except FileNotFoundError:
            return _ABSENT
        except OSError as exc:
            return EntryCheck(False, f"cannot inspect {path}: {exc.strerror}")
        problem = _wrong_kind(path, st, directory=True)
        if problem:
            return EntryCheck(False, problem)
        problem = _foreign(path, st)
        if problem:
            return EntryCheck(False, problem, refused=True)
    try:
        raw, problem = _read_private(entry / META_FILE)
        if problem:
            return EntryCheck(False, problem, refused=True)
        try:
            meta = json.loads(raw)
        except ValueError as exc:
            return EntryCheck(False, f"{entry / META_FILE} is not valid JSON ({exc})")
        problem = _meta_problem(meta, entry, key, so_name)
        if problem:
            return EntryCheck(False, f"{entry / META_FILE} {problem}")
        for name, record in meta["files"].items():   # the sources: present and complete
            if name != so_name:
                st = os.lstat(entry / name)
                problem = _wrong_kind(entry / name, st, directory=False)
                if problem or st.st_size != record.get("size"):
                    return EntryCheck(False, problem or f"{entry / name} has {st.st_size} "
                                      f"bytes, the manifest records {record.get('size')}")
        want = meta["files"][so_name]
        data, problem = _read_private(entry / so_name)
        if problem:
            return EntryCheck(False, problem, refused=True)
    except OSError as exc:
        what = "is a symbolic link" if exc.errno == errno.ELOOP else exc.strerror
        return EntryCheck(False, f"{exc.filename}: {what}")
    if len(data) != want["size"]:
        return EntryCheck(False, f"{entry / so_name} has {len(data)} bytes, the manifest "
                                 f"records {want['size']} (truncated or overwritten)")
    if hashlib.sha256(data).hexdigest() != want["sha256"]:
        return EntryCheck(False, f"{entry / so_name} does not match the sha256 recorded in "
                                 f"{META_FILE} (corrupted or overwritten)")
    return _USABLE


def _read_private(path: Path) -> tuple[bytes, str | None]:
    """The bytes of the regular file ``path`` (not following a symlink) and, instead, why it
    is not ours alone. Raises OSError (missing, a symlink: ELOOP, not a regular file)."""
    fd = os.open(path, os.O_RDONLY | _O_NOFOLLOW | _O_CLOEXEC)
    with os.fdopen(fd, "rb") as fh:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise OSError(errno.EINVAL, f"is {_kind(st)}, not a regular file", str(path))
        problem = _foreign(path, st)
        return (b"", problem) if problem else (fh.read(), None)


def _meta_problem(meta: Any, entry: Path, key: str, so_name: str) -> str | None:
    """What is wrong with a parsed meta.json of the entry ``entry`` of ``key``, or None."""
    if not isinstance(meta, dict):
        return "is not a JSON object"
    if meta.get("schema") != SCHEMA:
        return f"has schema {meta.get('schema')!r}, expected {SCHEMA}"
    if meta.get("key") != key or entry.name != key:
        return f"names key {meta.get('key')!r}, but the entry is {entry.name} (expected {key})"
    files = meta.get("files")
    if not (isinstance(files, dict) and all(isinstance(r, dict) for r in files.values())):
        return "has no manifest of the entry's files"
    if any("/" in name or name in (".", "..") for name in files):
        return "names a file outside the entry"
    record = files.get(so_name, {})
    if not (isinstance(record.get("size"), int) and isinstance(record.get("sha256"), str)
            and _KEY_RE.match(record["sha256"])):
        return f"records no size and sha256 for {so_name}"
    return None


# ---------------------------------------------------------------------------- building an entry


@contextlib.contextmanager
def writing(path: Path) -> Iterator[None]:
    """Turn an OSError while writing under the cache directory ``path`` (read-only, full, over
    quota, permission denied) into ``CacheDirError``, on which the caller falls back."""
    try:
        yield
    except OSError as exc:
        where = exc.filename or path
        raise CacheDirError(path, f"cannot write {where}: {exc.strerror or exc}") from exc


def _prepare_shard(key: str, base: Path) -> Path:
    """The shard directory of ``key`` under the trusted root ``base``, created 0700 if missing;
    a stray file or link where it belongs is removed. Raises CacheDirError (not root-wide) when
    the shard is someone else's or open to others: nothing may be built or replaced in it."""
    shard = shard_dir(key, base)
    with writing(shard):
        try:
            st = os.lstat(shard)
        except FileNotFoundError:
            with contextlib.suppress(FileExistsError):
                os.mkdir(shard, 0o700)
            st = os.lstat(shard)
        if not stat.S_ISDIR(st.st_mode):
            with contextlib.suppress(FileNotFoundError, IsADirectoryError):
                os.unlink(shard)   # a name of our layout in our private root: ours to remove
            with contextlib.suppress(FileExistsError):
                os.mkdir(shard, 0o700)
            st = os.lstat(shard)
    problem = _wrong_kind(shard, st, directory=True) or _foreign(shard, st)
    if problem:
        raise CacheDirError(shard, problem, root_wide=False)
    return shard


@contextlib.contextmanager
def build_lock(key: str, base: Path) -> Iterator[None]:
    """Hold the per-key lock of root ``base`` while building, so N processes build one key once.

    flock() locks belong to the open file description, so two threads of one process that each
    open the lock file also exclude each other. The lock file is never deleted while the cache
    is in use: deleting it would let a second builder lock a fresh inode beside the first.
    Raises CacheDirError when the lock cannot be made (read-only or full root, foreign shard).
    """
    shard = _prepare_shard(key, base)
    if fcntl is None:  # pragma: no cover
        yield
        return
    lock = shard / f"{key}.lock"
    flags = os.O_RDWR | os.O_CREAT | _O_NOFOLLOW | _O_CLOEXEC
    with writing(lock):
        try:
            fd = os.open(lock, flags, 0o600)
        except OSError as exc:
            if exc.errno not in (errno.EISDIR, errno.ELOOP):
                raise
            discard(lock)   # a stray directory or link where the lock file belongs
            fd = os.open(lock, flags, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def new_build_dir(key: str | None, base: Path | None = None) -> Path:
    """A fresh private directory (0700) to build in: beside the final entry in root ``base``
    (same filesystem, so the publishing rename is atomic), or a temp dir when the cache is off
    (``key`` is None). Raises CacheDirError when the root cannot take it."""
    if key is None:
        return Path(tempfile.mkdtemp(prefix="symgrad-"))
    shard = _prepare_shard(key, root() if base is None else base)
    with writing(shard):
        return Path(tempfile.mkdtemp(prefix=f".tmp-{key[:16]}-", dir=shard))


def atomic_write(path: Path, data: str | bytes) -> None:
    """Replace ``path`` with ``data`` so that readers see the old file or the new, never part of
    one: write a temporary file beside it (``mkstemp``: O_EXCL, mode 0600), then rename it.
    Raises OSError; the temporary file is gone either way."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=f"-{path.name}", dir=path.parent)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.close(fd)
        fd = -1
        os.replace(tmp, path)
    except BaseException:
        if fd >= 0:
            os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def seal(build_dir: Path, meta: Mapping[str, Any]) -> None:
    """Finish a build: make its files private (0600; 0700 for executables such as the .so) and
    write meta.json with ``meta``, the schema, and the manifest (size and sha256 of every file),
    which ``check_entry`` verifies before each load. Raises OSError."""
    files = {}
    for name in sorted(os.listdir(build_dir)):
        path = build_dir / name
        st = os.lstat(path)
        if not stat.S_ISREG(st.st_mode) or name == META_FILE:
            continue
        os.chmod(path, 0o700 if st.st_mode & stat.S_IXUSR else 0o600)
        files[name] = {"size": st.st_size, "sha256": _sha256_file(path)}
    record = {**meta, "schema": SCHEMA, "files": files}
    atomic_write(build_dir / META_FILE, json.dumps(record, indent=2, sort_keys=True) + "\n")


def publish(build_dir: Path, key: str, base: Path) -> tuple[Path, bool]:
    """Rename a finished build onto its entry in root ``base``. Returns the entry and whether
    it is ours: if something is already there (a builder that did not lock), ours is dropped
    and the caller must check theirs. Raises CacheDirError when the rename fails otherwise."""
    final = entry_dir(key, base)
    try:
        os.rename(build_dir, final)
    except OSError as exc:
        shutil.rmtree(build_dir, ignore_errors=True)
        if exc.errno in (errno.EEXIST, errno.ENOTEMPTY, errno.ENOTDIR) and \
                os.path.lexists(final):
            return final, False
        raise CacheDirError(final, f"cannot publish the build: {exc.strerror or exc}") from exc
    return final, True


def discard(entry: Path) -> bool:
    """Remove whatever is at ``entry`` (a broken build, a stray file or link where a directory
    belongs). Callers hold the build lock. True when the name is free afterwards."""
    # Rename first so readers never see a half-deleted directory under the real name.
    doomed = entry.with_name(f".tmp-{entry.name[:16]}-doomed-{os.getpid()}-{next(_names)}")
    try:
        os.rename(entry, doomed)
    except FileNotFoundError:
        return True
    except OSError:
        return not os.path.lexists(entry)
    is_dir = False
    with contextlib.suppress(OSError):
        is_dir = stat.S_ISDIR(os.lstat(doomed).st_mode)
    if is_dir:
        shutil.rmtree(doomed, ignore_errors=True)
    else:
        with contextlib.suppress(OSError):
            os.unlink(doomed)
    return True


def keep_failed(build_dir: Path, key: str, base: Path) -> Path:
    """Move a failed build to ``<key>.failed`` (replacing an older one) so its files can be read."""
    target = failed_dir(key, base)
    discard(target)
    try:
        os.rename(build_dir, target)
    except OSError:
        return build_dir  # someone else's failure got there first; ours stays where it is
    return target


# ------------------------------------------------------------------------------- in-process map


def lookup_loaded(key: str) -> Any | None:
    with _loaded_lock:
        return _loaded.get(key)


def remember_loaded(key: str, module: Any) -> Any:
    """Record a loaded module; if another thread beat us to it, return theirs."""
    with _loaded_lock:
        return _loaded.setdefault(key, module)


# ------------------------------------------------------------------------------ maintenance (CLI)


def _our_entries(path: Path) -> Iterator[Path]:
    """Everything under the root that this module created (and nothing else): shard contents
    named like entries, locks, failed and temporary builds; toolchain.json, the Jinja2
    bytecode files in templates/ and temporary files at the top. Symbolic links are never
    followed."""
    if not path.is_dir():
        return
    for item in path.iterdir():
        if item.name.startswith(".tmp-") or item.name == TOOLCHAIN_FILE:
            yield item   # (.tmp-: an atomic_write interrupted before its rename)
    templates = path / TEMPLATES_DIR
    if templates.is_dir() and not templates.is_symlink():
        yield from templates.glob("__jinja2_*.cache")
    for shard in path.iterdir():
        if not (_SHARD_RE.match(shard.name) and shard.is_dir() and not shard.is_symlink()):
            continue
        for item in shard.iterdir():
            stem = item.name.split(".")[0] if not item.name.startswith(".tmp-") else ""
            if item.name.startswith(".tmp-") or _KEY_RE.match(stem):
                yield item


def _is_build(item: Path) -> bool:
    return _KEY_RE.match(item.name) is not None and item.is_dir() and not item.is_symlink()


def _size(item: Path) -> int:
    """Bytes of the file ``item`` or of the regular files under the directory ``item``."""
    try:
        st = item.lstat()
    except OSError:
        return 0
    if not stat.S_ISDIR(st.st_mode):
        return st.st_size if stat.S_ISREG(st.st_mode) else 0
    total = 0
    for folder, _, names in os.walk(item):   # does not follow links
        for name in names:
            with contextlib.suppress(OSError):
                st = os.lstat(os.path.join(folder, name))
                total += st.st_size if stat.S_ISREG(st.st_mode) else 0
    return total


def info() -> dict[str, Any]:
    """``{"root", "exists", "trusted", "problem", "entries", "bytes"}``: ``entries`` counts
    published builds; ``bytes`` everything of ours under the root; ``trusted`` whether builds
    would be loaded from it (``problem`` says why not). Creates nothing."""
    path = root()
    problem = root_problem(path, create=False)
    items = list(_our_entries(path))
    return {
        "root": str(path),
        "exists": path.is_dir(),
        "trusted": problem is None,
        "problem": problem,
        "entries": sum(1 for item in items if _is_build(item) and (item / META_FILE).is_file()),
        "bytes": sum(_size(item) for item in items),
    }


def clear() -> dict[str, Any]:
    """Delete every cache entry (and stale locks, temporary and failed builds); return
    ``{"root", "builds", "other", "bytes"}``: how many builds and other items were removed,
    and their size.

    Only names matching the cache layout are touched, so a mistaken ``SYMGRAD_CACHE_DIR=$HOME``
    cannot wipe a home directory. Modules already loaded in this process keep working.
    """
    path = root()
    builds = other = removed_bytes = 0
    for item in list(_our_entries(path)):
        size, build = _size(item), _is_build(item)
        if item.is_dir() and not item.is_symlink():
            shutil.rmtree(item, ignore_errors=True)
        else:
            with contextlib.suppress(OSError):
                item.unlink()
        if os.path.lexists(item):
            continue   # not ours to delete (another user's files in a shared directory)
        builds, other = builds + build, other + (not build)
        removed_bytes += size
    for folder in list(path.iterdir()) if path.is_dir() else []:
        if (_SHARD_RE.match(folder.name) or folder.name == TEMPLATES_DIR) and \
                folder.is_dir() and not folder.is_symlink():
            with contextlib.suppress(OSError):
                folder.rmdir()  # only succeeds when empty
    return {"root": str(path), "builds": builds, "other": other, "bytes": removed_bytes}
