"""Command line: ``python -m symgrad cache info`` and ``python -m symgrad cache clear``.

``info`` prints the cache root (``SYMGRAD_CACHE_DIR`` or the user's cache dir), whether it
exists and is trusted (and if not, why and what to do), the number of published builds and the
bytes the cache holds. ``clear`` deletes the builds (and stale locks, temporary and failed
builds, toolchain facts and template bytecode; nothing that does not look like the cache's
own) and prints what it removed. Anything else prints the usage and exits with status 2.
"""

from __future__ import annotations

import argparse
import sys

from symgrad import cache


def _bytes(n: int) -> str:
    size, unit = float(n), "bytes"
    for bigger in ("KiB", "MiB", "GiB"):
        if size < 1024:
            break
        size, unit = size / 1024, bigger
    return f"{n} bytes" if unit == "bytes" else f"{n} bytes ({size:.1f} {unit})"


def _info() -> int:
    facts = cache.info()
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
    removed = cache.clear()
    print(f"removed {removed['builds']} build(s) and {removed['other']} other item(s) "
          f"(locks, failed or unfinished builds, toolchain facts, template bytecode), {_bytes(removed['bytes'])}, "
          f"from {removed['root']}")
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


if __name__ == "__main__":
    sys.exit(main())
