"""``python -m symgrad cache info`` and ``python -m symgrad cache clear``.

Layer: build. ``info`` prints the cache root (``SYMGRAD_CACHE_DIR`` or the user's cache dir),
whether it exists and is trusted (and if not, why and what to do), the number of published
builds and the bytes the cache holds; it creates nothing. ``clear`` deletes the builds (and
stale locks, temporary and failed builds, and the clients' private data such as toolchain facts
and template bytecode; nothing that does not look like the cache's own) and prints what it
removed. Anything else prints the usage and exits with status 2.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from . import cache, trust
from .trust import META_FILE


def _our_entries(path: Path) -> Iterator[Path]:
    """Everything under the root that the cache created (and nothing else): shard contents
    named like entries, locks, failed and temporary builds; the clients' private data under
    data/, and temporary files at the top. Symbolic links are never followed."""
    if not path.is_dir():
        return
    for item in path.iterdir():
        if item.name.startswith(".tmp-"):
            yield item   # (an atomic_write interrupted before its rename)
    data = path / cache.DATA_DIR
    if data.is_dir() and not data.is_symlink():
        yield from (d for d in data.iterdir() if d.is_dir() and not d.is_symlink())
    for shard in path.iterdir():
        if not (cache.SHARD_RE.match(shard.name) and shard.is_dir() and not shard.is_symlink()):
            continue
        for item in shard.iterdir():
            stem = item.name.split(".")[0] if not item.name.startswith(".tmp-") else ""
            if item.name.startswith(".tmp-") or cache.KEY_RE.match(stem):
                yield item


def _is_build(item: Path) -> bool:
    return cache.KEY_RE.match(item.name) is not None and item.is_dir() and not item.is_symlink()


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
    path = cache.root()
    problem = trust.root_problem(path, create=False)
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
    path = cache.root()
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
        if (cache.SHARD_RE.match(folder.name) or folder.name == cache.DATA_DIR) and \
                folder.is_dir() and not folder.is_symlink():
            with contextlib.suppress(OSError):
                folder.rmdir()  # only succeeds when empty
    return {"root": str(path), "builds": builds, "other": other, "bytes": removed_bytes}


def _bytes(n: int) -> str:
    size, unit = float(n), "bytes"
    for bigger in ("KiB", "MiB", "GiB"):
        if size < 1024:
            break
        size, unit = size / 1024, bigger
    return f"{n} bytes" if unit == "bytes" else f"{n} bytes ({size:.1f} {unit})"


def _info() -> int:
    facts = info()
    if not facts["exists"]:
        trusted = "yes (it does not exist yet; it will be created with mode 0700)" \
            if facts["trusted"] else f"no: {facts['problem']}"
    else:
        trusted = "yes" if facts["trusted"] else f"no: {facts['problem']}"
    print(f"root:    {facts['root']}")
    print(f"trusted: {trusted}")
    print(f"entries: {facts['entries']}")
    print(f"bytes:   {_bytes(facts['bytes'])}")
    return 0


def _clear() -> int:
    removed = clear()
    print(f"removed {removed['builds']} build(s) and {removed['other']} other item(s) "
          f"(locks, failed or unfinished builds, toolchain facts, template bytecode), "
          f"{_bytes(removed['bytes'])}, from {removed['root']}")
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m symgrad",
                                     description="symgrad maintenance commands")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    cache_cmd = commands.add_parser("cache", help="inspect or empty the compiled-kernel cache",
                                    description="the on-disk cache of compiled kernels")
    actions = cache_cmd.add_subparsers(dest="action", metavar="ACTION", required=True)
    actions.add_parser("info", help="print the cache root, whether it is trusted, its entries "
                                    "and size")
    actions.add_parser("clear", help="delete every cached build and print what was removed")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command in ``argv`` (default ``sys.argv[1:]``); return the exit status. Bad
    usage exits with status 2 after printing the usage (argparse's convention)."""
    args = _parser().parse_args(argv)
    return {"info": _info, "clear": _clear}[args.action]()
