"""Probing the C toolchain in an empty cache (build.c.toolchain): the facts it finds are the
compiler's own answers, asked at once, written once, and they change with the compiler.

Expected values come from running the compiler ourselves (``subprocess.run``), and from a
fake compiler (a shell script wrapping the real one) whose version line the tests choose.
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

import pytest

from symgrad.build import cache
from symgrad.build.c import toolchain


@pytest.fixture
def fresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty (existing) cache root, and a process that knows no toolchain fact."""
    root = tmp_path / "cache"
    root.mkdir(mode=0o700)
    monkeypatch.setenv("SYMGRAD_CACHE_DIR", str(root))
    for var in ("SYMGRAD_NO_CACHE", "SYMGRAD_CC", "CC", "SYMGRAD_VECTOR_MATH"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setattr(cache, "_abandoned", set())
    monkeypatch.setattr(toolchain, "_identities", {})
    toolchain.has_vector_math.cache_clear()
    yield root
    toolchain.has_vector_math.cache_clear()


class Recorder:
    """Wraps subprocess.Popen: records each start and each wait, in order."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, fail_wait: bool = False) -> None:
        self.events: list[tuple[str, tuple]] = []
        self.procs: list[subprocess.Popen] = []
        real, recorder = subprocess.Popen, self

        class Popen(real):
            def __init__(self, args, *a, **k):
                super().__init__(args, *a, **k)
                recorder.events.append(("start", tuple(args[1:])))
                recorder.procs.append(self)

            def communicate(self, *a, **k):
                recorder.events.append(("wait", tuple(self.args[1:])))
                if fail_wait:
                    raise KeyboardInterrupt
                return super().communicate(*a, **k)
        monkeypatch.setattr(toolchain.subprocess, "Popen", Popen)


def facts_file(root: Path) -> dict:
    return json.loads((root / "data" / "toolchain" / toolchain.FACTS_FILE).read_text())


def test_both_facts_asked_at_once_and_written_once(fresh, monkeypatch):
    argv = tuple(toolchain.find_compiler())
    version = subprocess.run([*argv, "--version"], capture_output=True, text=True).stdout
    libmvec = subprocess.run([*argv, "-print-file-name=libmvec.so"], capture_output=True,
                             text=True).stdout.strip()
    writes = []
    real_write = toolchain.atomic_write
    monkeypatch.setattr(toolchain, "atomic_write", lambda *a: (writes.append(a), real_write(*a)))
    rec = Recorder(monkeypatch)
    expected = os.path.isabs(libmvec) and os.path.exists(libmvec)
    assert toolchain.has_vector_math() is expected
    assert [kind for kind, _ in rec.events] == ["start", "start", "wait", "wait"]
    ident = f"{' '.join(argv)} | {version.splitlines()[0].strip()}"
    assert toolchain.compiler_identity() == ident        # answered already: no process
    assert len(rec.events) == 4 and len(writes) == 1
    (known,) = facts_file(fresh).values()
    assert known == {"identity": ident, "libmvec": libmvec}
    # the next process asks nothing
    monkeypatch.setattr(toolchain, "_identities", {})
    toolchain.has_vector_math.cache_clear()
    assert toolchain.has_vector_math() is expected and toolchain.compiler_identity() == ident
    assert len(rec.events) == 4


def test_only_the_missing_fact_is_asked(fresh, monkeypatch):
    monkeypatch.setenv("SYMGRAD_VECTOR_MATH", "0")
    toolchain.compiler_identity()         # (libmvec is not asked when it would not be used)
    monkeypatch.delenv("SYMGRAD_VECTOR_MATH")
    (known,) = facts_file(fresh).values()
    assert set(known) == {"identity"}
    monkeypatch.setattr(toolchain, "_identities", {})
    rec = Recorder(monkeypatch)
    toolchain.has_vector_math()           # the identity is on disk: only libmvec is asked
    assert rec.events == [("start", ("-print-file-name=libmvec.so",)),
                          ("wait", ("-print-file-name=libmvec.so",))]
    (known,) = facts_file(fresh).values()
    assert set(known) == {"identity", "libmvec"}


REAL_CC = toolchain.find_compiler()[0]


def fake_compiler(path: Path, version: str, real: str = REAL_CC) -> str:
    path.write_text(f'#!/bin/sh\nif [ "$1" = --version ]; then echo "{version}"; '
                    f'else exec {real} "$@"; fi\n')
    path.chmod(0o700)
    return str(path)


def test_the_facts_change_when_the_compiler_changes(fresh, tmp_path, monkeypatch):
    cc = fake_compiler(tmp_path / "cc", "fakecc 1.0")
    monkeypatch.setenv("SYMGRAD_CC", cc)
    assert toolchain.compiler_identity() == f"{cc} | fakecc 1.0"
    before = os.stat(cc).st_mtime_ns
    time.sleep(0.01)
    fake_compiler(tmp_path / "cc", "fakecc 1.25")     # upgraded in place: a new key
    assert os.stat(cc).st_mtime_ns != before
    monkeypatch.setattr(toolchain, "_identities", {})   # (a new process)
    toolchain.has_vector_math.cache_clear()
    assert toolchain.compiler_identity() == f"{cc} | fakecc 1.25"
    assert sorted(f["identity"] for f in facts_file(fresh).values()) == \
        [f"{cc} | fakecc 1.0", f"{cc} | fakecc 1.25"]


def test_a_compiler_that_cannot_run(fresh, tmp_path, monkeypatch):
    cc = tmp_path / "notacc"
    cc.write_text("not a program")
    cc.chmod(0o600)
    with pytest.raises(toolchain.CompilerNotFoundError, match="Cannot run the C compiler"):
        toolchain.compiler_identity([str(cc)])
    monkeypatch.setenv("SYMGRAD_CC", str(cc))
    assert toolchain.has_vector_math() is False


def test_an_interrupted_probe_leaves_no_process(fresh, tmp_path, monkeypatch):
    slow = tmp_path / "slowcc"
    slow.write_text("#!/bin/sh\nexec sleep 30\n")
    slow.chmod(0o700)
    rec = Recorder(monkeypatch, fail_wait=True)
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        toolchain.compiler_identity([str(slow)])
    assert time.monotonic() - start < 10
    assert len(rec.procs) == 2 and all(p.returncode is not None for p in rec.procs)
