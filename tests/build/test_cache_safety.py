"""The on-disk cache cannot be poisoned or corrupted into loading the wrong code, or crash.

Covers symgrad.cache's trust model and symgrad.compiler's use of it: private permissions, refusal
of directories/entries/files another user could write (with a fallback to a private temporary
root and one warning), the manifest (sha256 of every file) checked before each load, rebuilding
of every kind of truncated/garbled/missing entry, atomic writes, one build for N processes or
threads, read-only and full cache directories, and ``python -m symgrad cache``.

Expected values come from NumPy (the kernels add or subtract arrays) and from hashlib/os.stat
on the files themselves. "Another user" is real (chown to nobody) when the tests run as root,
else faked in the stat results of that one inode.
"""

from __future__ import annotations

import dataclasses
import errno
import hashlib
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import textwrap
import threading
import warnings
from pathlib import Path

import numpy as np
import pytest

from build_helpers import build_module, source

from symgrad.build import cache, cli, trust
from symgrad.build.c import compiler, toolchain
from symgrad.build.cache import stats
from symgrad.build.files import atomic_write
from symgrad.codegen.c import templates

REPO = Path(__file__).resolve().parents[2]
OTHER_UID = 65534 if os.geteuid() != 65534 else 65533   # someone else (nobody)
SUFFIX = compiler.SO_NAME   # the shared object every entry holds

ADD_SRC = textwrap.dedent("""\
    int sg_op(const double *a, const double *b, double *out, long n)
    {
        long i;
        for (i = 0; i < n; ++i) out[i] = a[i] + b[i];
        return 0;
    }
    """)
SUB_SRC = ADD_SRC.replace("a[i] + b[i]", "a[i] - b[i]")
CDEF = "int sg_op(const double *a, const double *b, double *out, long n);"
A = np.linspace(-2.0, 3.0, 11)
B = np.arange(11.0) ** 2


def run_op(mod: compiler.BuiltModule) -> np.ndarray:
    out = np.full_like(A, np.nan)
    fb = mod.ffi.from_buffer
    assert mod.lib.sg_op(fb("double[]", A), fb("double[]", B), fb("double[]", out), A.size) == 0
    return out


@pytest.fixture(autouse=True)
def cache_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh cache root per test, and a fresh process state (no loaded modules, no fallback,
    no warning given yet)."""
    root = tmp_path / "cache"
    monkeypatch.setenv("SYMGRAD_CACHE_DIR", str(root))
    for var in ("SYMGRAD_NO_CACHE", "SYMGRAD_DEBUG", "SYMGRAD_CC"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setattr(cache, "_loaded", {})
    monkeypatch.setattr(cache, "_fallbacks", {})
    monkeypatch.setattr(cache, "_abandoned", set())
    monkeypatch.setattr(cache, "_warned", False)
    old = os.environ.get("PYTHONPATH")
    monkeypatch.setenv("PYTHONPATH", str(REPO) + (os.pathsep + old if old else ""))
    return root


@pytest.fixture(scope="module")
def seed(tmp_path_factory: pytest.TempPathFactory) -> compiler.BuiltModule:
    """One published build of ADD_SRC, made once; tests copy it into their own root."""
    root = tmp_path_factory.mktemp("seed") / "cache"
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("SYMGRAD_CACHE_DIR", str(root))
        mp.delenv("SYMGRAD_NO_CACHE", raising=False)
        mp.setattr(cache, "_loaded", {})
        return build_module(ADD_SRC, CDEF)


def install(seed: compiler.BuiltModule, root: Path) -> Path:
    """Copy the seed entry (modes preserved) into ``root``; return the copy."""
    root.mkdir(mode=0o700, parents=True, exist_ok=True)
    shard = root / seed.key[:2]
    shard.mkdir(mode=0o700, exist_ok=True)
    return Path(shutil.copytree(seed.path, shard / seed.key))


def so_file(entry: Path) -> Path:
    (so,) = [p for p in entry.iterdir() if p.name.endswith(SUFFIX)]
    return so


def replace_bytes(path: Path, data: bytes) -> None:
    """Give ``path`` new contents through a new inode (never write into a mapped .so)."""
    tmp = path.with_name(path.name + ".new")
    tmp.write_bytes(data)
    os.chmod(tmp, stat.S_IMODE(path.stat().st_mode))
    os.replace(tmp, path)


def delta(before: dict[str, int]) -> dict[str, int]:
    return {k: stats[k] - before[k] for k in before}


def runtime_warnings(caught: list[warnings.WarningMessage]) -> list[str]:
    return [str(w.message) for w in caught if issubclass(w.category, RuntimeWarning)]


@pytest.fixture
def make_foreign(monkeypatch: pytest.MonkeyPatch):
    """A function making a path owned by another user: chown when running as root, else the
    stat results of that inode are faked (the checks only ever learn owners from stat)."""
    if os.geteuid() == 0:
        return lambda path: os.chown(path, OTHER_UID, OTHER_UID, follow_symlinks=False)
    inodes: set[tuple[int, int, int]] = set()   # ctime too: a freed inode is reused

    def fake(st: os.stat_result) -> os.stat_result:
        if (st.st_dev, st.st_ino, st.st_ctime_ns) not in inodes:
            return st
        fields = list(st[:10])
        fields[4] = OTHER_UID
        return os.stat_result(fields)

    for name in ("stat", "lstat", "fstat"):
        real = getattr(os, name)
        monkeypatch.setattr(os, name, lambda *a, _real=real, **k: fake(_real(*a, **k)))

    def mark(path: Path) -> None:
        st = os.lstat(path)
        inodes.add((st.st_dev, st.st_ino, st.st_ctime_ns))
    return mark


def fail_under(root: Path, code: int, monkeypatch: pytest.MonkeyPatch, *names: str,
               when=lambda target: True) -> None:
    """Make the os/tempfile functions ``names`` raise OSError(code) for paths under ``root``
    (for os.write: file descriptors of files under it) for which ``when(path)`` holds, as a
    read-only or full disk would."""
    prefix = str(root) + os.sep

    def under(arg) -> bool:
        return isinstance(arg, (str, Path)) and (str(arg) + os.sep).startswith(prefix) \
            and when(str(arg))

    def wrap(real, name):
        def guarded(*args, **kwargs):
            if name == "write":
                target = os.readlink(f"/proc/self/fd/{args[0]}")
            elif name in ("mkdtemp", "mkstemp"):
                target = kwargs.get("dir")
            elif name == "open":
                writes = os.O_WRONLY | os.O_RDWR | os.O_CREAT
                target = args[0] if args[1] & writes else None
            else:
                target = args[0]
            if under(target) or (name in ("rename", "replace") and under(args[1])):
                raise OSError(code, os.strerror(code), str(target))
            return real(*args, **kwargs)
        return guarded

    for name in names:
        module = tempfile if name in ("mkdtemp", "mkstemp") else os
        monkeypatch.setattr(module, name, wrap(getattr(module, name), name))


# ------------------------------------------------------------------- 1. private permissions


def test_everything_the_cache_creates_is_private(
        cache_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import symgrad as sg
    nested = cache_root / "not" / "yet"   # a root that does not exist, below missing dirs
    monkeypatch.setenv("SYMGRAD_CACHE_DIR", str(nested))
    # (as under python -B: the compiled templates go into the cache, not beside the templates)
    monkeypatch.setattr(sys, "dont_write_bytecode", True)

    def fresh_toolchain_and_templates():
        # so that the toolchain facts and the template bytecode are written (the first
        # compile creates the root; probing the toolchain does not, so the facts and the
        # bytecode go in at the second, as in a second process)
        monkeypatch.setattr(toolchain, "_identities", {})
        toolchain.has_vector_math.cache_clear()
        templates.environment.cache_clear()   # its bytecode cache binds to its first root
    old_umask = os.umask(0)   # the modes must not depend on the umask
    try:
        for k in (1.0, 2.0):
            fresh_toolchain_and_templates()

            @sg.compile
            def f(x, y):
                return x * y + k
            np.testing.assert_array_equal(f(A, B), A * B + k)
    finally:
        os.umask(old_umask)
        templates.environment.cache_clear()
        toolchain.has_vector_math.cache_clear()
    modes = {}
    for folder, dirs, files in os.walk(nested):
        for name in dirs + files:
            path = Path(folder, name)
            modes[path.relative_to(nested).as_posix()] = stat.S_IMODE(path.lstat().st_mode)
    modes["."] = stat.S_IMODE(nested.stat().st_mode)
    entries = [p for p in modes if p.count("/") == 1 and not p.endswith(".lock")
               and not p.startswith("data")]
    assert len(entries) == 2
    so = [p for p in modes if p.endswith(SUFFIX)]
    expected_files = {"CACHEDIR.TAG", "data/toolchain/facts.json"}
    for entry in entries:
        expected_files |= {f"{entry}.lock", f"{entry}/kernel.c", f"{entry}/decls.h",
                           f"{entry}/decls.h", f"{entry}/meta.json"}
    assert expected_files <= set(modes)
    assert any(p.startswith("data/templates/") and p.endswith(".j2c") for p in modes)
    for path, mode in modes.items():
        want = 0o700 if path in so or (nested / path).is_dir() else 0o600
        assert mode == want, f"{path} has mode {mode:04o}, expected {want:04o}"


# --------------------------------------------------------- 2. refusing what others could write


def test_group_writable_root_is_not_used_one_warning(
        seed: compiler.BuiltModule, cache_root: Path) -> None:
    install(seed, cache_root)
    os.chmod(cache_root, 0o770)
    before = dict(stats)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        mod = build_module(ADD_SRC, CDEF)          # a valid entry is there, but not trusted
        sub = build_module(SUB_SRC, CDEF)
    np.testing.assert_array_equal(run_op(mod), A + B)
    np.testing.assert_array_equal(run_op(sub), A - B)
    assert delta(before)["compiles"] == 2          # the planted entry was not loaded
    assert cache_root not in mod.path.parents and cache_root not in sub.path.parents
    assert mod.path.parents[1] == sub.path.parents[1]   # one private stand-in root
    assert stat.S_IMODE(mod.path.parents[1].stat().st_mode) == 0o700
    (msg,) = runtime_warnings(caught)
    assert str(cache_root) in msg and "writable by group" in msg and "0770" in msg
    assert f"chmod go-w {cache_root}" in msg and str(mod.path.parents[1]) in msg
    assert not cli.info()["trusted"] and "writable by group" in cli.info()["problem"]


def test_root_owned_by_another_user_is_not_used(
        seed: compiler.BuiltModule, cache_root: Path, make_foreign) -> None:
    install(seed, cache_root)
    make_foreign(cache_root)
    before = dict(stats)
    with pytest.warns(RuntimeWarning) as caught:
        mod = build_module(ADD_SRC, CDEF)
    np.testing.assert_array_equal(run_op(mod), A + B)
    assert delta(before)["compiles"] == 1 and cache_root not in mod.path.parents
    (msg,) = [str(w.message) for w in caught]
    assert str(cache_root) in msg and f"uid {OTHER_UID}" in msg and "not by you" in msg
    assert "SYMGRAD_CACHE_DIR" in msg   # what to do


def test_parent_writable_by_others_is_refused_unless_sticky(tmp_path: Path) -> None:
    for mode, trusted in ((0o777, False), (0o775, False), (0o1777, True), (0o755, True)):
        parent = tmp_path / f"parent{mode:o}"
        parent.mkdir()
        os.chmod(parent, mode)
        problem = trust.root_problem(parent / "cache", create=True)
        assert (problem is None) == trusted, (oct(mode), problem)
        if not trusted:
            assert str(parent) in problem and "not sticky" in problem


def test_root_that_is_a_file_or_a_link(
        cache_root: Path, tmp_path: Path, make_foreign) -> None:
    cache_root.write_text("a stray file where the cache directory belongs")
    with pytest.warns(RuntimeWarning, match="is a regular file, not a directory"):
        stand_in = cache.active_root()
    assert stand_in != cache_root and stat.S_IMODE(stand_in.stat().st_mode) == 0o700
    assert cache.active_root() == stand_in   # abandoned for the rest of the process
    # A symlink to a private directory of ours is fine; to someone else's, not.
    target = tmp_path / "real"
    target.mkdir(mode=0o700)
    link = tmp_path / "link"
    link.symlink_to(target, target_is_directory=True)
    assert trust.root_problem(link, create=True) is None
    make_foreign(target)
    assert f"uid {OTHER_UID}" in trust.root_problem(link, create=True)


@pytest.mark.parametrize("target, how", [
    ("entry", "foreign"), ("so", "foreign"), ("meta", "writable"), ("so", "writable"),
])
def test_entry_or_file_others_could_write_is_refused_and_rebuilt(
        seed: compiler.BuiltModule, cache_root: Path, make_foreign, target: str,
        how: str) -> None:
    entry = install(seed, cache_root)
    path = {"entry": entry, "so": so_file(entry), "meta": entry / "meta.json"}[target]
    if how == "foreign":
        make_foreign(path)
    else:
        os.chmod(path, stat.S_IMODE(path.stat().st_mode) | 0o022)
    assert trust.check_entry(entry, seed.key, so_file(entry).name).refused
    before = dict(stats)
    with pytest.warns(RuntimeWarning, match="refusing to load") as caught:
        mod = build_module(ADD_SRC, CDEF)
    assert str(path) in str(caught[0].message)
    assert delta(before)["compiles"] == 1
    np.testing.assert_array_equal(run_op(mod), A + B)
    assert mod.path == entry   # replaced in place: the root is fine
    st = entry.lstat()
    assert st.st_uid == os.geteuid() and trust.check_entry(entry, seed.key, so_file(entry).name)\
        .usable


def test_open_shard_is_not_loaded_nor_built_in(
        seed: compiler.BuiltModule, cache_root: Path) -> None:
    entry = install(seed, cache_root)
    os.chmod(entry.parent, 0o777)
    before = dict(stats)
    with pytest.warns(RuntimeWarning, match="writable by group and others"):
        mod = build_module(ADD_SRC, CDEF)
    np.testing.assert_array_equal(run_op(mod), A + B)
    assert delta(before)["compiles"] == 1 and cache_root not in mod.path.parents
    # Only that key went elsewhere: the root itself is still in use.
    assert cache.active_root() == cache_root


# ----------------------------------------------------------------- 3. the manifest and the hash


def test_manifest_records_size_and_sha256_of_every_file(seed: compiler.BuiltModule) -> None:
    meta = json.loads((seed.path / "meta.json").read_text())
    assert meta["key"] == seed.key == seed.path.name and meta["schema"] == trust.SCHEMA
    on_disk = {p.name for p in seed.path.iterdir()} - {"meta.json"}
    assert set(meta["files"]) == on_disk and so_file(seed.path).name in on_disk
    for name, record in meta["files"].items():
        data = (seed.path / name).read_bytes()
        assert record == {"size": len(data), "sha256": hashlib.sha256(data).hexdigest()}


def test_loadable_so_with_the_wrong_code_is_caught_by_the_hash(
        seed: compiler.BuiltModule, cache_root: Path, tmp_path: Path) -> None:
    entry = install(seed, cache_root)
    # A real, loadable module with the same name and entry point that subtracts instead.
    plan = compiler.plan(source(ADD_SRC, CDEF))
    impostor_dir = tmp_path / "impostor"
    impostor_dir.mkdir()
    compiler.run_build(dataclasses.replace(plan, source=source(SUB_SRC, CDEF)), impostor_dir)
    impostor = compiler.load(plan, impostor_dir)
    np.testing.assert_array_equal(run_op(impostor), A - B)   # control: it would load and run
    replace_bytes(so_file(entry), so_file(impostor_dir).read_bytes())
    check = trust.check_entry(entry, plan.key, plan.so_name)
    assert not check.usable and not check.refused and "sha256" in check.problem
    before = dict(stats)
    mod = build_module(ADD_SRC, CDEF)
    assert delta(before)["compiles"] == 1
    np.testing.assert_array_equal(run_op(mod), A + B)


# ------------------------------------------------------------ 4. corrupted or incomplete entries


def _truncate_so(entry: Path) -> None:
    so = so_file(entry)
    replace_bytes(so, so.read_bytes()[: so.stat().st_size // 2])


def _garbage_so(entry: Path) -> None:
    so = so_file(entry)
    replace_bytes(so, np.random.default_rng(0).bytes(so.stat().st_size))


def _edit_meta(change):
    def corrupt(entry: Path) -> None:
        meta = json.loads((entry / "meta.json").read_text())
        change(meta)
        replace_bytes(entry / "meta.json", json.dumps(meta).encode())
    return corrupt


def _stray_file_for_entry(entry: Path) -> None:
    shutil.rmtree(entry)
    entry.write_text("not a directory")


def _symlinked_entry(entry: Path) -> None:
    elsewhere = entry.parent.parent.parent / "elsewhere"
    shutil.move(entry, elsewhere)
    entry.symlink_to(elsewhere, target_is_directory=True)


def _symlinked_so(entry: Path) -> None:
    so = so_file(entry)
    elsewhere = entry.parent.parent.parent / "elsewhere.so"
    shutil.move(so, elsewhere)
    so.symlink_to(elsewhere)


def _stray_file_for_shard(entry: Path) -> None:
    shard = entry.parent
    shutil.rmtree(shard)
    shard.write_text("not a directory")


def _stray_dir_for_lock(entry: Path) -> None:
    shutil.rmtree(entry)
    (entry.parent / f"{entry.name}.lock").mkdir()


CORRUPTIONS = {
    "truncated .so": _truncate_so,
    "garbage .so": _garbage_so,
    "empty .so": lambda e: replace_bytes(so_file(e), b""),
    "missing .so": lambda e: so_file(e).unlink(),
    "missing meta.json": lambda e: (e / "meta.json").unlink(),
    "garbled meta.json": lambda e: replace_bytes(e / "meta.json", b'{"key": "trunc'),
    "meta.json not an object": lambda e: replace_bytes(e / "meta.json", b"[1, 2]"),
    "meta.json is a directory": lambda e: ((e / "meta.json").unlink(),
                                           (e / "meta.json").mkdir()),
    "meta names another key": _edit_meta(lambda m: m.update(key="0" * 64)),
    "meta from another schema": _edit_meta(lambda m: m.update(schema=1)),
    "manifest without the .so": _edit_meta(lambda m: m["files"].pop(
        next(n for n in m["files"] if n.endswith(SUFFIX)))),
    "manifest hash garbled": _edit_meta(lambda m: next(
        r for n, r in m["files"].items() if n.endswith(SUFFIX)).update(sha256="zz")),
    "missing kernel.c": lambda e: (e / "kernel.c").unlink(),
    "truncated decls.h": lambda e: replace_bytes(e / "decls.h", b"/* cut */"),
    ".so is a symlink": _symlinked_so,
    "stray file where the entry belongs": _stray_file_for_entry,
    "symlink where the entry belongs": _symlinked_entry,
    "stray file where the shard belongs": _stray_file_for_shard,
    "stray directory where the lock belongs": _stray_dir_for_lock,
}


@pytest.mark.parametrize("kind", list(CORRUPTIONS))
def test_corrupted_entry_is_detected_and_rebuilt(
        seed: compiler.BuiltModule, cache_root: Path, kind: str) -> None:
    entry = install(seed, cache_root)
    CORRUPTIONS[kind](entry)
    if entry.is_dir() and not entry.is_symlink():
        check = trust.check_entry(entry, seed.key, so_file(seed.path).name)
        assert not check.usable and check.problem and not check.refused
    before = dict(stats)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        mod = build_module(ADD_SRC, CDEF)
    assert not runtime_warnings(caught)   # corruption is rebuilt quietly, in place
    assert delta(before)["compiles"] == 1 and not mod.from_cache
    assert mod.path == entry and not entry.is_symlink()
    np.testing.assert_array_equal(run_op(mod), A + B)
    assert trust.check_entry(entry, seed.key, so_file(entry).name).usable
    assert not [p.name for p in entry.parent.iterdir() if p.name.startswith(".tmp-")]


def test_intact_copy_loads_without_compiling(seed: compiler.BuiltModule, cache_root: Path) -> None:
    # The control for the tests above: the same copy, untouched, is a disk hit.
    install(seed, cache_root)
    before = dict(stats)
    mod = build_module(ADD_SRC, CDEF)
    assert delta(before)["compiles"] == 0 and delta(before)["disk_hits"] == 1
    np.testing.assert_array_equal(run_op(mod), A + B)


# ------------------------------------------------------------------------- 5. atomic writes


def test_atomic_write_that_fails_leaves_the_old_file_and_no_debris(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "toolchain.json"
    atomic_write(target, '{"old": 1}')
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    fail_under(tmp_path, errno.ENOSPC, monkeypatch, "write")
    with pytest.raises(OSError, match="No space left"):
        atomic_write(target, "x" * 100_000)
    assert target.read_text() == '{"old": 1}'
    assert [p.name for p in tmp_path.iterdir()] == ["toolchain.json"]


def test_toolchain_facts_survive_a_full_disk(
        cache_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    argv = tuple(toolchain.find_compiler())
    cache_root.mkdir(mode=0o700, parents=True, exist_ok=True)   # facts go only into a root
    monkeypatch.setattr(toolchain, "_identities", {})
    toolchain.compiler_identity(list(argv))
    facts = cache_root / "data" / "toolchain" / toolchain.FACTS_FILE
    before = facts.read_text()
    fail_under(cache_root, errno.ENOSPC, monkeypatch, "write")
    toolchain.remember(argv, "libmvec", "/nowhere")   # must not raise
    assert facts.read_text() == before
    assert not [p for p in facts.parent.iterdir() if p.name.startswith(".tmp-")]


def test_entry_appears_only_when_complete(cache_root: Path) -> None:
    seen = []
    p = compiler.plan(source(ADD_SRC, CDEF))
    entry = cache.entry_dir(p.key)

    def build(build_dir):
        facts = compiler.run_build(p, build_dir)
        # Finished, yet invisible under the entry's name until the rename.
        seen.append((build_dir.parent == entry.parent, build_dir.name.startswith(".tmp-"),
                     os.path.lexists(entry)))
        return facts

    def load(directory):
        seen.append((directory == entry, (directory / "meta.json").is_file()))  # sealed
        return compiler.load(p, directory)
    mod, how = cache.get_or_build(p.key, build, load, loaded_file=p.so_name)
    assert how == "built" and seen == [(True, True, False), (True, True)]
    assert trust.check_entry(mod.path, mod.key, so_file(mod.path).name).usable


# ------------------------------------------------------------- 6. one build for many builders


CHILD = """\
import json, sys, time
from pathlib import Path
import numpy as np
import symgrad as sg
from symgrad.build import cache
Path(sys.argv[2]).touch()              # ready
while not Path(sys.argv[1]).exists():   # start together
    time.sleep(0.002)
@sg.compile
def f(x, y):
    return sg.sin(x) * y + x
x, y = np.linspace(-1.0, 1.0, 7), np.arange(7.0)
print(json.dumps({"stats": cache.stats, "out": np.asarray(f(x, y)).tolist()}))
"""


def test_eight_processes_build_once(tmp_path: Path, cache_root: Path) -> None:
    script = tmp_path / "child.py"
    script.write_text(CHILD)
    go = tmp_path / "go"
    procs = [subprocess.Popen([sys.executable, str(script), str(go), str(tmp_path / f"r{i}")],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for i in range(8)]
    try:
        while not all((tmp_path / f"r{i}").exists() for i in range(8)):
            assert all(p.poll() is None for p in procs), "a child died before the start"
            threading.Event().wait(0.01)
        go.touch()
        results = []
        for proc in procs:
            out, err = proc.communicate(timeout=300)
            assert proc.returncode == 0, err
            results.append(json.loads(out.strip().splitlines()[-1]))
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
    x, y = np.linspace(-1.0, 1.0, 7), np.arange(7.0)
    for r in results:
        np.testing.assert_allclose(r["out"], np.sin(x) * y + x, rtol=1e-14, atol=1e-15)
    assert sum(r["stats"]["compiles"] for r in results) == 1
    assert sum(r["stats"]["disk_hits"] for r in results) == 7
    assert cli.info()["entries"] == 1
    assert not list(cache_root.glob("*/.tmp-*"))


def test_threads_build_once(cache_root: Path) -> None:
    barrier = threading.Barrier(6)
    mods: list = []
    errors: list = []

    def worker():
        try:
            barrier.wait()
            mods.append(build_module(SUB_SRC, CDEF))
        except BaseException as exc:   # noqa: BLE001 - reported below
            errors.append(exc)
    before = dict(stats)
    threads = [threading.Thread(target=worker) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and len(mods) == 6
    d = delta(before)
    assert d["compiles"] == 1 and d["cache_hits"] == 5
    assert len({id(m.lib) for m in mods}) == 1   # one module, imported once
    for m in mods:
        np.testing.assert_array_equal(run_op(m), A - B)


# ------------------------------------------------------------ 7. read-only and full directories


def test_read_only_root_still_serves_its_entries_and_builds_privately(
        seed: compiler.BuiltModule, cache_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    install(seed, cache_root)
    if os.geteuid() != 0:
        for folder, _, _ in os.walk(cache_root):
            os.chmod(folder, 0o500)   # restored below
    else:   # root may write anywhere: simulate the read-only filesystem
        fail_under(cache_root, errno.EROFS, monkeypatch,
                   "mkdir", "open", "rename", "replace", "mkdtemp", "mkstemp")
    try:
        before = dict(stats)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            add = build_module(ADD_SRC, CDEF)    # trusted, readable: loaded from the root
            sub = build_module(SUB_SRC, CDEF)    # cannot be built there: private, one warning
            monkeypatch.setattr(cache, "_loaded", {})
            sub_again = build_module(SUB_SRC, CDEF)   # from the private root's disk, no warning
        np.testing.assert_array_equal(run_op(add), A + B)
        np.testing.assert_array_equal(run_op(sub), A - B)
        np.testing.assert_array_equal(run_op(sub_again), A - B)
        assert add.path.parent.parent == cache_root and add.from_cache
        assert cache_root not in sub.path.parents and sub_again.path == sub.path
        assert delta(before)["compiles"] == 1
        (msg,) = runtime_warnings(caught)
        assert str(cache_root) in msg and str(sub.path.parents[1]) in msg
    finally:
        for folder, _, _ in os.walk(cache_root):
            os.chmod(folder, 0o700)


@pytest.mark.parametrize("failing", ["mkdtemp", "write", "publish"])
def test_full_disk_falls_back_with_one_warning(
        cache_root: Path, monkeypatch: pytest.MonkeyPatch, failing: str) -> None:
    cache.active_root()   # the root exists and is fine; then the disk fills up
    if failing == "publish":   # the rename of a finished build dir onto its entry
        fail_under(cache_root, errno.ENOSPC, monkeypatch, "rename",
                   when=lambda path: os.path.basename(path).startswith(".tmp-"))
    else:
        fail_under(cache_root, errno.ENOSPC, monkeypatch, failing)
    before = dict(stats)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        mod = build_module(ADD_SRC, CDEF)
    np.testing.assert_array_equal(run_op(mod), A + B)
    # (A build whose meta.json could not be written is not counted: it never finished.)
    assert delta(before)["compiles"] == (2 if failing == "publish" else 1)
    (msg,) = runtime_warnings(caught)
    assert str(cache_root) in msg and "No space left on device" in msg
    assert cache_root not in mod.path.parents
    assert not list(cache_root.glob("*/.tmp-*")) and cli.info()["entries"] == 0
    assert cache.active_root() == mod.path.parents[1]   # the process stays off the full disk


def test_compiler_running_out_of_space_falls_back(
        cache_root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A compiler that fails as gcc does on a full disk, but only inside the cache root.
    cc = tmp_path / "fullcc"
    cc.write_text(textwrap.dedent(f"""\
        #!/bin/sh
        case "$PWD" in {cache_root}/*)
            echo "kernel.c: fatal error: error writing to kernel.o: No space left on device" >&2
            exit 1;;
        esac
        exec {toolchain.find_compiler()[0]} "$@"
        """))
    cc.chmod(0o755)
    monkeypatch.setenv("SYMGRAD_CC", str(cc))
    monkeypatch.setattr(toolchain, "_identities", {})
    with pytest.warns(RuntimeWarning, match="ran out of space"):
        mod = build_module(ADD_SRC, CDEF)
    np.testing.assert_array_equal(run_op(mod), A + B)
    assert cache_root not in mod.path.parents
    assert not list(cache_root.glob("*/*.failed")) and not list(cache_root.glob("*/.tmp-*"))


def test_no_usable_directory_at_all_is_a_clear_error(
        cache_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cache_root.mkdir(mode=0o700)
    os.chmod(cache_root, 0o707)

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    monkeypatch.setattr(tempfile, "mkdtemp", full)
    with pytest.raises(cache.CacheDirError) as info:
        build_module(ADD_SRC, CDEF)
    msg = str(info.value)
    assert str(cache_root) in msg and "writable by others" in msg
    assert "No space left on device" in msg and tempfile.gettempdir() in msg


# ------------------------------------------------------------------------------- 8. the CLI


def symgrad_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "symgrad", *args], capture_output=True,
                          text=True, timeout=120, check=False)


def test_cli_info_and_clear(seed: compiler.BuiltModule, cache_root: Path) -> None:
    entry = install(seed, cache_root)
    (cache_root / "notes.txt").write_text("not the cache's")
    size = sum(p.stat().st_size for p in entry.iterdir())
    info = symgrad_cli("cache", "info")
    assert info.returncode == 0, info.stderr
    lines = dict(line.split(":", 1) for line in info.stdout.splitlines())
    assert lines["root"].strip() == str(cache_root)
    assert lines["trusted"].strip() == "yes" and lines["entries"].strip() == "1"
    assert lines["bytes"].split()[0] == str(size)

    os.chmod(cache_root, 0o775)
    info = symgrad_cli("cache", "info")
    assert "trusted: no" in info.stdout and f"chmod go-w {cache_root}" in info.stdout
    os.chmod(cache_root, 0o700)

    cleared = symgrad_cli("cache", "clear")
    assert cleared.returncode == 0, cleared.stderr
    assert "removed 1 build(s)" in cleared.stdout and str(size) in cleared.stdout
    assert str(cache_root) in cleared.stdout
    assert sorted(p.name for p in cache_root.iterdir()) == ["notes.txt"]


@pytest.mark.parametrize("args", [(), ("cache", "nuke")])
def test_cli_bad_usage_exits_2_with_usage(args: tuple[str, ...]) -> None:
    result = symgrad_cli(*args)
    assert result.returncode == 2
    assert "usage: python -m symgrad" in result.stderr and not result.stdout


@pytest.mark.parametrize("args", [["frobnicate"], ["cache"], ["cache", "info", "extra"]])
def test_cli_main_bad_usage(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    from symgrad.__main__ import main
    with pytest.raises(SystemExit) as info:
        main(args)
    assert info.value.code == 2
    captured = capsys.readouterr()
    assert "usage: python -m symgrad" in captured.err and not captured.out


def test_corrupt_template_bytecode_is_ignored(tmp_path, monkeypatch):
    """A truncated Jinja2 bytecode file in <cache>/data/templates must not break compiling."""
    import subprocess
    import sys
    import textwrap

    monkeypatch.setenv("SYMGRAD_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")   # (the templates' bytecode: the cache's)
    code = textwrap.dedent("""
        import numpy as np, symgrad as sg
        print(float(sg.compile(lambda x: (x * 3).sum())(np.arange(4.0))))
    """)
    first = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert first.returncode == 0, first.stderr
    files = list((tmp_path / "cache" / "data" / "templates").glob("*.j2c"))
    assert files, "the first process should have written template bytecode"
    for f in files:
        f.write_bytes(f.read_bytes()[:20])
    second = subprocess.run([sys.executable, "-c", code.replace("* 3", "* 5")],
                            capture_output=True, text=True)
    assert second.returncode == 0, second.stderr
    assert float(second.stdout) == 30.0
