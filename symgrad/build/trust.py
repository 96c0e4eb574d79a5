"""Whether a cache directory, or an entry in it, may be trusted with native code.

Layer: build. An entry is native code this process will ``dlopen`` and run, so only a directory
nobody else can write to is used (see ``cache``'s docstring for the model). Input: paths.
Output: the reason a path may not be trusted (``None`` when it may), and ``check_entry``'s
verdict on a published entry. It only reads (``create_root`` aside), and never imports or runs
what it checks.
"""

from __future__ import annotations

import contextlib
import dataclasses
import errno
import functools
import hashlib
import json
import os
import re
import stat
from pathlib import Path
from typing import Any

from .files import atomic_write

SCHEMA = 2          # bumped when an entry's layout or the key's meaning changes
META_FILE = "meta.json"
_KEY_RE = re.compile(r"^[0-9a-f]{64}$")
_O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_O_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


def _user(uid: int) -> str:
    try:
        import pwd

        return f"{pwd.getpwuid(uid).pw_name} (uid {uid})"
    except (ImportError, KeyError):
        return f"uid {uid}"


def _writers(mode: int) -> str:
    return {0o022: "group and others", 0o020: "group", 0o002: "others"}[mode & 0o022]


def kind_of(st: os.stat_result) -> str:
    if stat.S_ISLNK(st.st_mode):
        return "a symbolic link"
    if stat.S_ISDIR(st.st_mode):
        return "a directory"
    return "a regular file" if stat.S_ISREG(st.st_mode) else "a special file"


def wrong_kind(path: Path, st: os.stat_result, *, directory: bool) -> str | None:
    """Why ``path`` is not what the layout says it is (a real directory / regular file)."""
    ok = stat.S_ISDIR(st.st_mode) if directory else stat.S_ISREG(st.st_mode)
    if ok:
        return None
    return f"{path} is {kind_of(st)}, not {'a directory' if directory else 'a regular file'}"


def euid() -> int:
    return os.geteuid() if hasattr(os, "geteuid") else 0   # (not POSIX: files report uid 0)


def foreign(path: Path, st: os.stat_result) -> str | None:
    """Why someone other than this user could change ``path``: its owner or its mode."""
    me = euid()
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
        ancestors = _ancestor_problem(str(path), euid()) if path.parent.exists() else None
        if not create or ancestors:
            return ancestors
        try:
            create_root(path)
            st = os.stat(path)
        except OSError as exc:
            return (f"cannot create it: {exc.strerror or exc}; make it writable or set "
                    f"SYMGRAD_CACHE_DIR to a writable directory")
    except OSError as exc:
        return f"cannot inspect it: {exc.strerror or exc}"
    problem = wrong_kind(path, st, directory=True) or foreign(path, st)
    return problem or _ancestor_problem(str(path), euid())


def create_root(path: Path) -> None:
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
                     "# This directory is a cache of compiled symgrad kernels; "
                     "it can be deleted.\n")


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


def check_entry(entry: Path, key: str, loaded_file: str) -> EntryCheck:
    """Whether the published build ``entry`` of ``key`` may be loaded (see the trust model in
    the module docstring). Lock-free: entries only appear by rename. Cost: a few stat calls,
    reading meta.json, and reading and hashing the ``.so`` (sha256: ~0.1 ms for 200 KB).
    The other files of the manifest (the sources) must be there with their recorded sizes."""
    check = _check_directories(entry)
    if check is not None:
        return check
    try:
        meta, check = _read_meta(entry, key, loaded_file)
        if check is None:
            check = _check_sources(entry, meta, loaded_file)
        if check is not None:
            return check
        want = meta["files"][loaded_file]
        data, problem = read_private(entry / loaded_file)
        if problem:
            return EntryCheck(False, problem, refused=True)
    except OSError as exc:
        what = "is a symbolic link" if exc.errno == errno.ELOOP else exc.strerror
        return EntryCheck(False, f"{exc.filename}: {what}")
    if len(data) != want["size"]:
        return EntryCheck(False, f"{entry / loaded_file} has {len(data)} bytes, the manifest "
                                 f"records {want['size']} (truncated or overwritten)")
    if hashlib.sha256(data).hexdigest() != want["sha256"]:
        return EntryCheck(False, f"{entry / loaded_file} does not match the sha256 recorded in "
                                 f"{META_FILE} (corrupted or overwritten)")
    return _USABLE


def _check_directories(entry: Path) -> EntryCheck | None:
    """The shard and the entry: real directories, ours alone (None: they are)."""
    for path in (entry.parent, entry):
        try:
            st = os.lstat(path)
        except FileNotFoundError:
            return _ABSENT
        except OSError as exc:
            return EntryCheck(False, f"cannot inspect {path}: {exc.strerror}")
        problem = wrong_kind(path, st, directory=True)
        if problem:
            return EntryCheck(False, problem)
        problem = foreign(path, st)
        if problem:
            return EntryCheck(False, problem, refused=True)
    return None


def _read_meta(entry: Path, key: str, loaded_file: str) -> tuple[Any, EntryCheck | None]:
    """meta.json of ``entry``, parsed and checked. Raises OSError."""
    raw, problem = read_private(entry / META_FILE)
    if problem:
        return None, EntryCheck(False, problem, refused=True)
    try:
        meta = json.loads(raw)
    except ValueError as exc:
        return None, EntryCheck(False, f"{entry / META_FILE} is not valid JSON ({exc})")
    problem = _meta_problem(meta, entry, key, loaded_file)
    if problem:
        return None, EntryCheck(False, f"{entry / META_FILE} {problem}")
    return meta, None


def _check_sources(entry: Path, meta: dict, loaded_file: str) -> EntryCheck | None:
    """The entry's other files (the sources): present, regular, of their recorded sizes.
    Raises OSError."""
    for name, record in meta["files"].items():
        if name != loaded_file:
            st = os.lstat(entry / name)
            problem = wrong_kind(entry / name, st, directory=False)
            if problem or st.st_size != record.get("size"):
                return EntryCheck(False, problem or f"{entry / name} has {st.st_size} bytes, "
                                  f"the manifest records {record.get('size')}")
    return None


def read_private(path: Path) -> tuple[bytes, str | None]:
    """The bytes of the regular file ``path`` (not following a symlink) and, instead, why it
    is not ours alone. Raises OSError (missing, a symlink: ELOOP, not a regular file)."""
    fd = os.open(path, os.O_RDONLY | _O_NOFOLLOW | _O_CLOEXEC)
    with os.fdopen(fd, "rb") as fh:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise OSError(errno.EINVAL, f"is {kind_of(st)}, not a regular file", str(path))
        problem = foreign(path, st)
        return (b"", problem) if problem else (fh.read(), None)


def _meta_problem(meta: Any, entry: Path, key: str, loaded_file: str) -> str | None:
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
    record = files.get(loaded_file, {})
    if not (isinstance(record.get("size"), int) and isinstance(record.get("sha256"), str)
            and _KEY_RE.match(record["sha256"])):
        return f"records no size and sha256 for {loaded_file}"
    return None


