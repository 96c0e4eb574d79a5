"""The C backend's compiled templates: where they are kept, and Jinja2's cache over them.

Layer: build (the C backend). Input: the templates' directory (``codegen.c.templates``), the
settings, the build cache, and each template Jinja2 loads (name, source, environment). Output:
``bytecode_cache()``, the ``jinja2.BytecodeCache`` the C backend renders with, or None (the
templates then compile from source: ~50 ms of CPU in a fresh process's first compile).

Where: beside the templates, ``<templates>/__pycache__``, as Python keeps a package's ``.pyc``
files, so that a fresh or empty build cache does not compile them again. It is used when
caching is on, Python may write bytecode (not ``-B`` / ``PYTHONDONTWRITEBYTECODE``) and the
directory exists or can be made and passes the build cache's trust rules
(``trust.root_problem``: a real directory owned by this user, writable by no one else, and so
are the directories above it, or root's, or sticky). Else the build cache's private
``templates`` directory (``cache.private_dir``).

How (``TemplateBytecode``): a file is named by a hash of everything its code depends on: the
template's name and source text, the environment's options (delimiters, whitespace control,
autoescape, extensions), the versions of Jinja2, Python (``sys.version`` and the bytecode tag)
and symgrad. It holds a magic string, the sha256 of the rest, then Jinja2's own record (its
magic, the source's checksum, the marshalled code). A file that is not ours alone
(``trust.read_private``: its owner, group/other-writable, a symlink) or whose hash does not
match (truncated, corrupt) is ignored and rewritten. Writes are atomic
(``files.atomic_write``); a failed write (read-only, full) is skipped. Older files of the
same template name (an edited template) are removed when a new one is written.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import re
import sys
from pathlib import Path

import jinja2
from jinja2.bccache import Bucket

from ... import config
from ...version import __version__
from .. import cache, trust
from ..files import atomic_write

BESIDE = "__pycache__"


def bytecode_cache(create_cache: bool = False) -> TemplateBytecode | None:
    """The bytecode cache of ``directory(create_cache)`` (one object per directory: the
    template environments are kept per cache), or None."""
    found = directory(create_cache)
    return _cache_in(found) if found else None


@functools.lru_cache(maxsize=8)
def _cache_in(path: str) -> TemplateBytecode:
    return TemplateBytecode(path)


def directory(create_cache: bool = False) -> str | None:
    """The directory for compiled templates (``create_cache``: the build cache's root may be
    created for them, when they cannot be kept beside the templates)."""
    if config.cache_disabled():
        return None
    from ...codegen.c.templates import directory as templates
    found = beside(str(templates())) if not sys.dont_write_bytecode else None
    if found is None:
        private = cache.private_dir("templates", create_root=create_cache)
        found = str(private) if private else None
    return found


@functools.lru_cache(maxsize=8)
def beside(templates: str) -> str | None:
    """``<templates>/__pycache__``, made if missing, if it may be trusted; else None. Checked
    once per process and templates directory."""
    path = Path(templates) / BESIDE
    with contextlib.suppress(OSError):   # (a read-only installation, say: then not there)
        os.mkdir(path, 0o755)
    if not path.is_dir() or trust.root_problem(path, create=False) is not None:
        return None
    return str(path)


# ------------------------------------------------------------ the compiled templates

MAGIC = b"symgrad-jinja2-bytecode-1\n"
SUFFIX = ".j2c"
_DIGEST = hashlib.sha256().digest_size
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
        try:   # (ours alone, not following a symlink: it is code this process will run)
            data, problem = trust.read_private(Path(self.directory, bucket.key))
        except OSError:
            return
        body = data[len(MAGIC) + _DIGEST:]
        if problem or not data.startswith(MAGIC) or \
                hashlib.sha256(body).digest() != data[len(MAGIC):len(MAGIC) + _DIGEST]:
            return
        try:
            bucket.bytecode_from_string(body)
        except Exception:   # noqa: BLE001 - whatever a damaged record raises: compile instead
            bucket.reset()

    def dump_bytecode(self, bucket: Bucket) -> None:
        body = bucket.bytecode_to_string()
        try:
            atomic_write(Path(self.directory, bucket.key),
                         MAGIC + hashlib.sha256(body).digest() + body)
        except OSError:    # (read-only, full: compiled again next time)
            return
        _remove_older(self.directory, bucket.key)

    def clear(self) -> None:
        for name in _entries(self.directory):
            with contextlib.suppress(OSError):
                os.unlink(os.path.join(self.directory, name))


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
