"""make bench-compile's timing shim (benchmarks/compile_probe.py) against the real build: it
sees every compiler process, the link and the build's functions, from outside symgrad."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import types
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCH))

import compile_probe  # noqa: E402


def test_short_names_say_what_each_command_does():
    assert compile_probe.short_name(["gcc", "-O3", "-c", "kernel.c", "-o", "kernel2.o"]) \
        == "cc kernel2"
    assert compile_probe.short_name(["cc", "-shared", "kernel.o", "-o", "_sg_x.so"]) == "link"
    assert compile_probe.short_name(["gcc", "-print-file-name=libmvec.so"]) \
        == "gcc -print-file-name"
    assert compile_probe.short_name(["gcc"]) == "gcc"
    assert compile_probe.short_name(["cc", "-shared", "-O2", "native.c", "-o", "_n.so"]) \
        == "cc+link native"


def test_a_helper_modules_build_is_kept_apart_from_the_functions():
    probe = compile_probe.Probe()
    module = types.ModuleType("fake_build")
    module.run = lambda commands, cwd: [(0, "")] * len(commands)
    module.build = lambda source, *, name_hint="fn": module.run(
        [["gcc", "-c", "kernel.c", "-o", "kernel.o"]], ".")
    probe._patch(module, [("run", "commands"), ("build", "build")])
    module.build(None, name_hint="sigint")
    module.build(None, name_hint="loss")
    assert [b["in_build"] for b in probe.batches] == ["sigint", "loss"]
    fn = probe.summary()["functions"]
    assert set(fn) >= {"Ctrl-C helper build", "Ctrl-C helper: commands", "build", "commands"}


def test_a_name_that_is_gone_is_reported_not_fatal():
    probe = compile_probe.Probe()
    module = types.ModuleType("fake_build")
    module.run = lambda commands, cwd: [(0, "")] * len(commands)
    probe._patch(module, [("run", "commands"), ("write_sources", "write sources")])
    assert probe.missing == ["fake_build.write_sources"]
    assert module.run([["gcc", "-c", "a.c", "-o", "a.o"]], ".") == [(0, "")]
    assert probe.batches[0]["names"] == ["cc a"]


def _child(tmp_path, cached: bool) -> dict:
    env = dict(os.environ, SYMGRAD_CACHE_DIR=str(tmp_path),
               PYTHONPATH=str(BENCH.parent) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    cmd = [sys.executable, str(BENCH / "compile.py"), "--child", "seed"]
    out = subprocess.run(cmd + (["--cached"] if cached else []), env=env, check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    cache = tmp_path_factory.mktemp("cache")
    return _child(cache, False), _child(cache, True)


def test_the_cold_child_sees_each_compiler_process_and_the_link(runs):
    """Whatever the build's layout (a kernel and a cffi wrapper compiled side by side then
    linked, or one compile-and-link command per kernel and a helper module built once)."""
    cold, _ = runs
    p = cold["probe"]
    assert p["missing"] == []
    first = cold["first_call"]
    procs = p["processes"]
    for q in procs:
        assert 0 < q["wall"] < first, q
    names = [q["name"] for q in procs]
    assert "cc kernel" in names or "cc+link kernel" in names, names
    assert "link" in names or "cc+link kernel" in names, names
    mine = [b for b in p["batches"] if b["in_build"] not in compile_probe.HELPERS]
    assert mine and all(b["cpu"] > 0 for b in mine)
    for b in mine:      # a batch lasts as long as its slowest process
        walls = [q["wall"] for q in procs if q["name"] in b["names"]
                 and q["in_build"] == b["in_build"]]
        assert len(walls) == len(b["names"])
        assert b["end"] - b["start"] >= max(walls) * 0.99
    fn = p["functions"]
    assert fn["write sources"] + fn["commands"] <= fn["run build"] <= fn["build"] <= first
    assert fn["build"] <= cold["times"]["build"] + 1e-3
    assert p["imports"] > 0 and p["import_count"] > 0     # the compiler's stages load lazily


def test_the_cached_child_starts_no_compiler(runs):
    _, cached = runs
    assert cached["from_cache"]
    assert not [q for q in cached["probe"]["processes"] if q["name"].startswith(("cc ", "link"))]
