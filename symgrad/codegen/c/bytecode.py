"""Compiled C templates on disk: each template's Jinja2 bytecode, kept for later processes.

Layer: codegen. Input: a directory the caller trusts with code this process will run (the C
backend chooses it: ``build.c.templatecache``), and each template Jinja2 loads (its name and
source, the environment). Output: the template's compiled code when an intact file for exactly
that source was written before, else nothing (Jinja2 compiles the source and the file is
written for next time). Compiling the templates from source (Jinja2's lexer, parser and code
generator: ~50 ms of CPU, measured) is otherwise paid by every process's first compile.

A file is named by a hash of everything its code depends on: the template's name and source
text, the environment's options (delimiters, whitespace control, autoescape, extensions), the
versions of Jinja2, Python (``sys.version`` and the bytecode tag) and symgrad. It holds a magic
string, the sha256 of the rest, then Jinja2's own record (its magic, the source's checksum,
the marshalled code). A file that is not ours alone (its owner, group/other-writable, a symlink)
or whose hash does not match (truncated, corrupt) is ignored and rewritten. Writes are atomic
(a private temporary file renamed into place); a failed write (read-only, full) is skipped.
Older files of the same template name (an edited template) are removed when a new one is
written.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import stat
import sys
import tempfile

import jinja2
from jinja2.bccache import Bucket

from ...version import __version__

MAGIC = b"symgrad-jinja2-bytecode-1\n"
SUFFIX = ".j2c"
_DIGEST = hashlib.sha256().digest_size
_O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_O_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]")


def options(env: jinja2.Environment) -> tuple:
    """The environment's settings that its compiled code depends on."""
    return (env.block_start_string, env.block_end_string, env.variable_start_string,
            env.variable_end_string, env.comment_start_string, env.comment_end_string,
            env.line_statement_prefix, env.line_comment_prefix, env.trim_blocks,
            env.lstrip_blocks, env.newline_sequence, env.keep_trailing_newline,
            repr(env.autoescape), env.optimized, tuple(sorted(env.extensions)))


def entry_name(env: jinja2.Environment, name: str, source: str) -> str:
    """The file name of the compiled ``name`` with text ``source`` in ``env``."""
    salt = repr(("symgrad", __version__, "jinja2", jinja2.__version__, sys.version,
                 sys.implementation.cache_tag, options(env), name))
    digest = hashlib.sha256(salt.encode() + b"\0" + source.encode()).hexdigest()
    return f"{_UNSAFE.sub('_', name)}.{digest[:40]}{SUFFIX}"


class TemplateBytecode(jinja2.BytecodeCache):
    """Jinja2's bytecode cache for the C templates, in the trusted ``directory``."""

    def __init__(self, directory: str) -> None:
        self.directory = directory

    def get_bucket(self, environment, name, filename, source) -> Bucket:
        bucket = Bucket(environment, entry_name(environment, name, source),
                        self.get_source_checksum(source))
        self.load_bytecode(bucket)
        return bucket

    def load_bytecode(self, bucket: Bucket) -> None:
        data = read_own(os.path.join(self.directory, bucket.key))
        body = data[len(MAGIC) + _DIGEST:] if data is not None else None
        if body is None or not data.startswith(MAGIC) or \
                hashlib.sha256(body).digest() != data[len(MAGIC):len(MAGIC) + _DIGEST]:
            return
        try:
            bucket.bytecode_from_string(body)
        except Exception:   # noqa: BLE001 - whatever a damaged record raises: compile instead
            bucket.reset()

    def dump_bytecode(self, bucket: Bucket) -> None:
        body = bucket.bytecode_to_string()
        if write_atomic(self.directory, bucket.key,
                        MAGIC + hashlib.sha256(body).digest() + body):
            _remove_older(self.directory, bucket.key)

    def clear(self) -> None:
        for name in _entries(self.directory):
            with contextlib.suppress(OSError):
                os.unlink(os.path.join(self.directory, name))


def read_own(path: str) -> bytes | None:
    """The bytes of the regular file ``path`` if it is ours and no one else may write it
    (not following a symlink); None otherwise, or if it cannot be read."""
    try:
        fd = os.open(path, os.O_RDONLY | _O_NOFOLLOW | _O_CLOEXEC)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as fh:
        try:
            st = os.fstat(fd)
            mine = not hasattr(os, "geteuid") or st.st_uid == os.geteuid()
            if not stat.S_ISREG(st.st_mode) or not mine or st.st_mode & 0o022:
                return None
            return fh.read()
        except OSError:
            return None


def write_atomic(directory: str, name: str, data: bytes) -> bool:
    """Write ``directory/name`` by renaming a private temporary file onto it; False (and
    nothing left behind) if that fails."""
    try:
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=SUFFIX, dir=directory)
    except OSError:
        return False
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, os.path.join(directory, name))
        return True
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        return False


def _entries(directory: str) -> list[str]:
    try:
        return [n for n in os.listdir(directory) if n.endswith(SUFFIX)
                and not n.startswith(".tmp-")]
    except OSError:
        return []


def _remove_older(directory: str, kept: str) -> None:
    """Remove the files of the same template as ``kept`` (other sources, options, versions)."""
    template = kept.rsplit(".", 2)[0]
    for name in _entries(directory):
        if name != kept and name.rsplit(".", 2)[0] == template:
            with contextlib.suppress(OSError):
                os.unlink(os.path.join(directory, name))
