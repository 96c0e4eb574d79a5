"""A failed compiler command, as the user sees it and as the cache handles it.

Layer: build (the C backend). Input: a command, its exit status and stderr, the source it
compiled. Output: ``BuildError`` (what the user gets: the command, the directory the failed
build is kept in, the compiler's trimmed stderr) and ``failure``, the cache's ``BuildFailed``
that raises it (or, when the disk is full, falls back to a private directory).
"""

from __future__ import annotations

import errno
import os
import shlex
from pathlib import Path

from .. import cache

_STDERR_MAX_LINES = 60
_STDERR_MAX_CHARS = 6000


class BuildError(RuntimeError):
    """The C compiler failed for one kernel."""

    def __init__(self, message: str, *, command: list[str] | None = None, stderr: str = "",
                 source_path: Path | None = None, returncode: int | None = None) -> None:
        super().__init__(message)
        self.command = command
        self.stderr = stderr
        self.source_path = source_path
        self.returncode = returncode


def trim(text: str) -> str:
    lines = text.strip().splitlines()
    out = "\n".join(lines[:_STDERR_MAX_LINES])[:_STDERR_MAX_CHARS]
    if len(lines) > _STDERR_MAX_LINES or len(out) < len("\n".join(lines)):
        out += "\n[... compiler output trimmed; see BuildError.stderr ...]"
    return out


def failure(command: list, returncode: int, stderr: str, source: str) -> cache.BuildFailed:
    """The cache's ``BuildFailed`` for a failed command: the ``BuildError`` it raises names
    the directory the failed build is kept in; a full disk makes the cache fall back."""
    def error(build_dir: Path) -> BuildError:
        path = build_dir / source
        return BuildError(f"C compilation failed (exit {returncode}) for {path}\n"
                          f"command (in {build_dir}): {shlex.join(command)}\n"
                          f"compiler stderr:\n{trim(stderr)}",
                          command=command, stderr=stderr, source_path=path,
                          returncode=returncode)
    full = any(os.strerror(code) in stderr for code in (errno.ENOSPC, errno.EDQUOT))
    return cache.BuildFailed(error, out_of_space=full,
                             reason=(trim(stderr).splitlines() or [""])[0])
