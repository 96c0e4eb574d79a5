"""The content-addressed cache of builds, on disk and in this process: one entry point.

Layer: build. ``get_or_build(key, build, load, loaded_file=...)`` returns what ``load`` makes of
the entry of ``key``, building it first with ``build`` when no usable entry exists; it owns
everything else: the in-process map, the lock-free lookup and its trust checks, the per-key
lock, the re-check after waiting, the removal of a broken entry, the private build directory,
the manifest, the atomic publication, the fallback to a private temporary root when the cache
cannot be used, the counters. Its clients (the compiler) know only their own files. Clients
keep small private data beside the entries in ``private_dir(name)`` (toolchain facts, template
bytecode); the cache does not know their file names.

Must not: invoke a compiler or import a module itself, read ``os.environ`` (ask ``config``),
lock on the read path, or delete anything under the cache root that does not look like one of
its own entries.

Layout (directories 0700, files 0600, executables 0700)::

    <root>/                          CACHEDIR.TAG
    <root>/data/<name>/              a client's private data (``private_dir``)
    <root>/<key[:2]>/<key>/          the build's files, and meta.json
    <root>/<key[:2]>/<key>.lock      flock()ed only while that key is being built
    <root>/<key[:2]>/.tmp-<key16>-*  a build in progress, renamed onto <key>/ when done
    <root>/<key[:2]>/<key>.failed/   the last failed build of that key, kept for inspection

``meta.json`` records the client's facts about the build, the schema and, for every file of the
entry, its size and sha256 (the manifest).

Trust model (``trust.py``). The root must be a directory owned by the effective user and not
writable by group or others, and so must every directory above it unless sticky (``/tmp``):
otherwise whoever may write there could swap the cache for their own. A missing root is made
0700. A root that fails, or that cannot be created or written (read-only, full disk, quota), is
not used: this process builds into a private temporary directory instead (``mkdtemp``, removed
at exit) and says so once with a ``RuntimeWarning`` naming the directory, its owner and mode and
what to do. Entries of a read-only but trusted root are still loaded. Before loading, the shard,
the entry, ``meta.json`` and the loaded file must be ours and not group/other-writable (no
symbolic links), the meta must name the same key as the directory, the other files must have
their recorded sizes, and the loaded file its recorded size and sha256 (before ``dlopen``: a
truncated ``.so`` is not an ImportError, the process dies of SIGBUS). Otherwise the entry is
rebuilt in place under the lock, or in the private temporary directory when it cannot be
replaced. The file is hashed, then loaded by path: sound because every directory on that path
is one only this user (or root) can write to.

Writes: a build happens in a fresh private directory and appears under its final name by one
``rename``, so readers (who never lock) see a complete entry or none; other files go through
``files.atomic_write``. Nothing is fsync()ed: after a power loss a torn file fails the checks
and is rebuilt.
"""

from __future__ import annotations

import atexit
import contextlib
import errno
import itertools
import json
import os
import re
import shutil
import stat
import tempfile
import threading
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TypeVar
from collections.abc import Callable

from .. import config
from . import trust
from .files import atomic_write, sha256_file
from .trust import META_FILE, SCHEMA

T = TypeVar("T")

KEY_RE = re.compile(r"^[0-9a-f]{64}$")
SHARD_RE = re.compile(r"^[0-9a-f]{2}$")
DATA_DIR = "data"         # clients' private data: <root>/data/<name>/

# Process-wide counters, read by tests and the debug log: "compiles" counts builds run,
# "cache_hits" every request that did not build ("disk_hits" / "memory_hits" say from where).
stats: dict[str, int] = {"compiles": 0, "cache_hits": 0, "disk_hits": 0, "memory_hits": 0}
_stats_lock = threading.Lock()

# In-process: key -> what ``load`` made of it, so one key is never loaded twice.
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


class BuildFailed(Exception):
    """Raised by a ``build`` function when the build fails for a reason of its own (a compiler
    error). The cache keeps the failed directory (as ``<key>.failed``) and raises
    ``error(kept_directory)`` in its place; with ``out_of_space`` it falls back instead."""

    def __init__(self, error: Callable[[Path], Exception], out_of_space: bool = False,
                 reason: str = "") -> None:
        super().__init__(reason)
        self.error = error
        self.out_of_space = out_of_space
        self.reason = reason


# ---------------------------------------------------------------------------- the entry point

def get_or_build(key: str, build: Callable[[Path], dict], load: Callable[[Path], T], *,
                 loaded_file: str, name_hint: str = "") -> tuple[T, str]:
    """``(load(directory), how)`` for the entry of ``key``; ``how`` is "built" (by this call),
    "disk" or "memory" (loaded earlier in this process).

    ``build(directory)`` writes the entry's files into an empty private directory and returns
    the facts to record in its meta.json; ``loaded_file`` names the file ``load`` will map
    (hashed before every load). Raises what ``build`` raises (``BuildFailed``'s error), and
    ``CacheDirError`` when not even a private temporary directory can hold the build."""
    if config.cache_disabled():
        directory = Path(tempfile.mkdtemp(prefix="symgrad-"))
        atexit.register(shutil.rmtree, directory, True)   # a loaded .so survives its unlinking
        _build_into(key, directory, build, None, name_hint)
        return load(directory), "built"
    with _loaded_lock:
        hit = _loaded.get(key)
    if hit is not None:
        _count("cache_hits", "memory_hits")
        return hit, "memory"
    base = active_root()
    try:
        value, how = _cached(key, base, build, load, loaded_file, name_hint)
    except CacheDirError as exc:
        if is_fallback(base):
            raise  # the private temporary root failed too (e.g. /tmp is full): nothing left
        # Unwritable, full or untrusted: build privately (and stay there if the whole root is).
        base = fall_back(base, exc.problem if exc.root_wide else str(exc), abandon=exc.root_wide)
        value, how = _cached(key, base, build, load, loaded_file, name_hint)
    if how == "disk":
        _count("cache_hits", "disk_hits")
        config.debug(2, "loaded %s from cache %s", name_hint, entry_dir(key, base))
    with _loaded_lock:
        return _loaded.setdefault(key, value), how


def _cached(key: str, base: Path, build, load, loaded_file: str, name_hint: str):
    """(value, "disk" or "built") for ``key`` in the root ``base``: loaded, or built and
    published (once, whatever the number of processes and threads asking)."""
    entry = entry_dir(key, base)
    # Readers never lock: a published entry is complete because it appeared by rename.
    value = _try_load(entry, key, load, loaded_file)
    if value is not None:
        return value, "disk"
    with _build_lock(key, base):
        # Another process may have finished this key while we waited for the lock.
        value = _try_load(entry, key, load, loaded_file)
        if value is not None:
            return value, "disk"
        if not discard(entry):  # present but unusable, and cannot be removed
            raise CacheDirError(entry, "cannot remove this unusable entry", root_wide=False)
        build_dir = _new_build_dir(key, base)
        _build_into(key, build_dir, build, base, name_hint)
        entry, ours = _publish(build_dir, key, base)
        if ours:
            return load(entry), "built"
        value = _try_load(entry, key, load, loaded_file)  # a builder that did not lock won
        if value is None:
            raise CacheDirError(entry, "another build appeared here and is unusable",
                                root_wide=False)
        return value, "disk"


def _build_into(key: str, directory: Path, build, base: Path | None, name_hint: str) -> None:
    """Run ``build`` in ``directory`` and seal it. On ``BuildFailed`` the directory is kept for
    the error to point at (or, when the disk is full, dropped for a fallback); on anything
    else (an interrupt) it is removed."""
    start = time.perf_counter()
    try:
        if base is None:
            meta = build(directory)
            _seal(directory, {**meta, "key": key})
        else:
            with _writing(base):
                meta = build(directory)
                _seal(directory, {**meta, "key": key})
    except BuildFailed as fail:
        if base is None:
            raise fail.error(directory) from None
        if fail.out_of_space:
            shutil.rmtree(directory, ignore_errors=True)
            raise CacheDirError(base, f"the build ran out of space: {fail.reason}") from None
        raise fail.error(_keep_failed(directory, key, base)) from None
    except BaseException:
        if base is not None:
            shutil.rmtree(directory, ignore_errors=True)   # leave no debris
        raise
    _count("compiles")
    final = entry_dir(key, base) if base is not None else directory
    config.debug(1, "compiled %s in %.2f s -> %s", name_hint, time.perf_counter() - start,
                 final)


def _try_load(entry: Path, key: str, load, loaded_file: str):
    """``load`` of the published ``entry`` if it passes ``trust.check_entry`` and loads; None
    when absent or unusable (then it is rebuilt)."""
    check = trust.check_entry(entry, key, loaded_file)
    if not check.usable:
        if check.refused:
            _report(f"symgrad: refusing to load a cached build: {check.problem}; rebuilding it")
        elif check.problem:
            config.debug(1, "cached build %s is unusable (%s); rebuilding", entry, check.problem)
        return None
    try:
        return load(entry)
    except (ImportError, OSError) as exc:  # a moved OpenBLAS, ...: rebuild it
        config.debug(1, "cached build %s is unusable (%s); rebuilding", entry, exc)
        return None


def _count(*names: str) -> None:
    with _stats_lock:
        for name in names:
            stats[name] += 1


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


def private_dir(name: str, *, create_root: bool = False) -> Path | None:
    """``<root>/data/<name>``, made 0700 if missing, for a client's own small data (facts it
    would otherwise recompute), if the root exists (or ``create_root``) and may be trusted with
    data this process will use: caching is on, the root passes the trust checks and was not
    abandoned, the directories are ours and writable by nobody else. None otherwise (the
    client then works without it)."""
    if config.cache_disabled():
        return None
    top = root()
    if top in _abandoned or (not create_root and not top.is_dir()) or \
            trust.root_problem(top, create=create_root) is not None:
        return None
    for path in (top / DATA_DIR, top / DATA_DIR / name):
        try:
            with contextlib.suppress(FileExistsError):
                os.mkdir(path, 0o700)
            st = os.lstat(path)
        except OSError:
            return None
        if trust.wrong_kind(path, st, directory=True) or trust.foreign(path, st):
            return None
    return path


# ---------------------------------------------------------------------------- roots and fallback

def active_root() -> Path:
    """The root builds go to and are loaded from: the configured one when it is trusted and
    usable (created if missing), else this process's private temporary root (one warning)."""
    configured = root()
    if configured in _abandoned:
        return _fallbacks[configured]
    problem = trust.root_problem(configured, create=True)
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


# ---------------------------------------------------------------------------- building an entry

@contextlib.contextmanager
def _writing(path: Path) -> Iterator[None]:
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
    with _writing(shard):
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
    problem = trust.wrong_kind(shard, st, directory=True) or trust.foreign(shard, st)
    if problem:
        raise CacheDirError(shard, problem, root_wide=False)
    return shard


@contextlib.contextmanager
def _build_lock(key: str, base: Path) -> Iterator[None]:
    """Hold the per-key lock of root ``base`` while building, so N processes build one key once.

    flock() locks belong to the open file description, so two threads of one process that each
    open the lock file also exclude each other. The lock file is never deleted while the cache
    is in use: deleting it would let a second builder lock a fresh inode beside the first.
    Raises CacheDirError when the lock cannot be made (read-only or full root, foreign shard).
    """
    shard = _prepare_shard(key, base)
    try:
        import fcntl
    except ImportError:  # pragma: no cover  (not POSIX: builds are atomic, not deduplicated)
        yield
        return
    lock = shard / f"{key}.lock"
    flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    with _writing(lock):
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


def _new_build_dir(key: str, base: Path) -> Path:
    """A fresh private directory (0700) to build in, beside the final entry in root ``base``
    (same filesystem, so the publishing rename is atomic)."""
    shard = _prepare_shard(key, base)
    with _writing(shard):
        return Path(tempfile.mkdtemp(prefix=f".tmp-{key[:16]}-", dir=shard))


def _seal(build_dir: Path, meta: dict) -> None:
    """Finish a build: make its files private (0600; 0700 for executables) and write meta.json
    with ``meta``, the schema, and the manifest (size and sha256 of every file), which
    ``trust.check_entry`` verifies before each load. Raises OSError."""
    files = {}
    for name in sorted(os.listdir(build_dir)):
        path = build_dir / name
        st = os.lstat(path)
        if not stat.S_ISREG(st.st_mode) or name == META_FILE:
            continue
        os.chmod(path, 0o700 if st.st_mode & stat.S_IXUSR else 0o600)
        files[name] = {"size": st.st_size, "sha256": sha256_file(path)}
    record = {**meta, "schema": SCHEMA, "files": files}
    atomic_write(build_dir / META_FILE, json.dumps(record, indent=2, sort_keys=True) + "\n")


def _publish(build_dir: Path, key: str, base: Path) -> tuple[Path, bool]:
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


def _keep_failed(build_dir: Path, key: str, base: Path) -> Path:
    """Move a failed build to ``<key>.failed`` (replacing an older one) so its files can be read."""
    target = failed_dir(key, base)
    discard(target)
    try:
        os.rename(build_dir, target)
    except OSError:
        return build_dir  # someone else's failure got there first; ours stays where it is
    return target
