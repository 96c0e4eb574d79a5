"""On-disk and in-process cache of compiled kernel modules.

Stage: the last one, beside the compiler. Input: the ingredients of a build (C text, cdef,
compiler identity, flags). Output: a content key, the directory a build lives in, and the
locking / atomic-publish protocol that lets many processes share one build.

Must not: invoke the compiler or import a module (that is ``compiler.py``'s job), read
``os.environ`` (ask ``config``), lock on the read path, or delete anything under the cache root
that does not look like one of its own entries.

Layout::

    <root>/<key[:2]>/<key>/          kernel.c, wrapper.c, <module>.so, meta.json
    <root>/<key[:2]>/<key>.lock      flock()ed only while that key is being built
    <root>/<key[:2]>/.tmp-<key16>-*  a build in progress, renamed onto <key>/ when done
    <root>/<key[:2]>/<key>.failed/   the last failed build of that key, kept for inspection
"""

from __future__ import annotations

import contextlib
import errno
import functools
import hashlib
import importlib.machinery
import json
import os
import platform
import re
import shutil
import sys
import tempfile
import threading
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
SCHEMA = 1
META_FILE = "meta.json"
_KEY_RE = re.compile(r"^[0-9a-f]{64}$")
_SHARD_RE = re.compile(r"^[0-9a-f]{2}$")

# In-process: key -> whatever compiler.py loaded for it, so one key is never imported twice.
_loaded: dict[str, Any] = {}
_loaded_lock = threading.Lock()


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
    return config.cache_dir()


def ensure_root() -> Path:
    """Create the cache root (mode 0o700: it holds code this process will load and run)."""
    path = root()
    if not path.is_dir():
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        with contextlib.suppress(OSError):
            os.chmod(path, 0o700)  # mkdir's mode is filtered by the umask
            # The cache-directory tagging convention makes backup tools skip us.
            (path / "CACHEDIR.TAG").write_text(
                "Signature: 8a477f597d28d172789f06886806bc55\n"
                "# This directory is a cache of compiled symgrad kernels; it can be deleted.\n"
            )
    return path


def private_dir(name: str = "") -> Path | None:
    """The cache root (or its subdirectory ``name``, created 0700) if it may be trusted with
    data this process will load: caching is on, and the directory is ours and writable by
    nobody else. None otherwise (the caller then works without it)."""
    if config.cache_disabled():
        return None
    try:
        path = ensure_root()
        if name:
            path = path / name
            path.mkdir(mode=0o700, exist_ok=True)
        st = path.stat()
    except OSError:
        return None
    if st.st_uid != os.getuid() or st.st_mode & 0o022:
        return None
    return path


def shard_dir(key: str) -> Path:
    return root() / key[:2]


def entry_dir(key: str) -> Path:
    return shard_dir(key) / key


def failed_dir(key: str) -> Path:
    return shard_dir(key) / f"{key}.failed"


def is_complete(entry: Path, so_name: str) -> bool:
    """True when ``entry`` holds a published build. Entries only appear by rename, so no lock."""
    return (entry / so_name).is_file()


# ---------------------------------------------------------------------------- building an entry


@contextlib.contextmanager
def build_lock(key: str) -> Iterator[None]:
    """Hold the per-key lock while building, so N processes build one key once.

    flock() locks belong to the open file description, so two threads of one process that each
    open the lock file also exclude each other. The lock file is never deleted while the cache
    is in use: deleting it would let a second builder lock a fresh inode beside the first.
    """
    shard = shard_dir(key)
    shard.mkdir(mode=0o700, parents=True, exist_ok=True)
    if fcntl is None:  # pragma: no cover
        yield
        return
    fd = os.open(shard / f"{key}.lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def new_build_dir(key: str | None) -> Path:
    """A fresh private directory to build in: beside the final entry (same filesystem, so the
    publishing rename is atomic), or a temp dir when the cache is off (``key`` is None)."""
    if key is None:
        return Path(tempfile.mkdtemp(prefix="symgrad-"))
    shard = shard_dir(key)
    shard.mkdir(mode=0o700, parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix=f".tmp-{key[:16]}-", dir=shard))


def write_meta(build_dir: Path, meta: Mapping[str, Any]) -> None:
    (build_dir / META_FILE).write_text(json.dumps(meta, indent=2, sort_keys=True) + "\n")


def publish(build_dir: Path, key: str) -> Path:
    """Rename a finished build onto its entry; if another process won the race, keep theirs."""
    final = entry_dir(key)
    try:
        os.rename(build_dir, final)
    except OSError as exc:
        if exc.errno not in (errno.EEXIST, errno.ENOTEMPTY) or not final.is_dir():
            raise
        shutil.rmtree(build_dir, ignore_errors=True)
    return final


def discard(entry: Path) -> None:
    """Remove a broken entry (it exists but cannot be loaded). Callers hold the build lock."""
    # Rename first so readers never see a half-deleted directory under the real name.
    doomed = entry.with_name(f".tmp-{entry.name[:16]}-doomed-{os.getpid()}")
    with contextlib.suppress(OSError):
        os.rename(entry, doomed)
        shutil.rmtree(doomed, ignore_errors=True)


def keep_failed(build_dir: Path, key: str) -> Path:
    """Move a failed build to ``<key>.failed`` (replacing an older one) so its files can be read."""
    target = failed_dir(key)
    shutil.rmtree(target, ignore_errors=True)
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
    """Everything under the root that this module created (and nothing else)."""
    if not path.is_dir():
        return
    for shard in path.iterdir():
        if not (shard.is_dir() and _SHARD_RE.match(shard.name)):
            continue
        for item in shard.iterdir():
            stem = item.name.split(".")[0] if not item.name.startswith(".tmp-") else ""
            if item.name.startswith(".tmp-") or _KEY_RE.match(stem):
                yield item


def info() -> dict[str, Any]:
    """``{"root": str, "entries": int, "bytes": int}`` - entries counts published builds only."""
    path = root()
    entries = 0
    total = 0
    for item in _our_entries(path):
        if item.is_dir() and _KEY_RE.match(item.name) and (item / META_FILE).is_file():
            entries += 1
        for file in [item] if item.is_file() else item.rglob("*"):
            with contextlib.suppress(OSError):
                if file.is_file():
                    total += file.stat().st_size
    return {"root": str(path), "entries": entries, "bytes": total}


def clear() -> int:
    """Delete every cache entry (and stale temp/failed dirs); return how many builds were removed.

    Only names matching the cache layout are touched, so a mistaken ``SYMGRAD_CACHE_DIR=$HOME``
    cannot wipe a home directory. Modules already loaded in this process keep working.
    """
    path = root()
    removed = 0
    for item in list(_our_entries(path)):
        if item.is_dir():
            if _KEY_RE.match(item.name):
                removed += 1
            shutil.rmtree(item, ignore_errors=True)
        else:
            with contextlib.suppress(OSError):
                item.unlink()
    for shard in list(path.iterdir()) if path.is_dir() else []:
        if shard.is_dir() and _SHARD_RE.match(shard.name):
            with contextlib.suppress(OSError):
                shard.rmdir()  # only succeeds when empty
    return removed
