"""Compiled C templates kept across processes (build.c.templatecache).

Never a stale template: a file is used only for exactly the source, the environment's options
and the Jinja2/Python/symgrad versions it was compiled from; a truncated, garbled or foreign
file is ignored and rewritten. The compiled templates live beside the templates
(``__pycache__``) when that directory may be trusted, so that an empty build cache does not
compile them again; otherwise in the build cache. Expected texts come from Jinja2 compiling
the same source with no cache at all.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import jinja2
import pytest

from symgrad.build.c import templatecache
from symgrad.codegen.c import templates

NAME = "sort.c.j2"          # a small template with no includes
VALUES = {"T": "double", "version": "9.9.9"}


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A private copy of the templates."""
    copy = tmp_path / "templates"
    shutil.copytree(templates.directory(), copy, ignore=shutil.ignore_patterns("__pycache__"))
    return copy


def render(tree: Path, cache_dir: Path | None) -> tuple[str, int]:
    """(the rendered template, how many templates Jinja2 compiled from source), in a new
    environment: as a new process would."""
    env = templates.make_environment(
        tree, templatecache.TemplateBytecode(str(cache_dir)) if cache_dir else None)
    compiled = []
    original = env.compile

    def counting(*args, **kwargs):
        compiled.append(args[1] if len(args) > 1 else kwargs.get("name"))
        return original(*args, **kwargs)
    env.compile = counting
    return env.get_template(NAME).render(**VALUES), len(compiled)


def entries(directory: Path) -> list[Path]:
    return sorted(p for p in directory.iterdir() if p.suffix == templatecache.SUFFIX)


def test_a_second_environment_loads_the_compiled_template(tree, tmp_path):
    store = tmp_path / "bc"
    store.mkdir()
    expected, _ = render(tree, None)
    assert render(tree, store) == (expected, 1)
    assert [p.name.split(".")[0] for p in entries(store)] == ["sort"]
    assert render(tree, store) == (expected, 0)
    assert stat.S_IMODE(entries(store)[0].stat().st_mode) == 0o600


def test_an_edited_template_is_compiled_again(tree, tmp_path):
    store = tmp_path / "bc"
    store.mkdir()
    before, _ = render(tree, store)
    path = tree / NAME
    path.write_text(path.read_text() + "/* edited {{ version }} */\n")
    after, compiled = render(tree, store)
    assert compiled == 1
    assert after == before + "/* edited 9.9.9 */\n"
    assert len(entries(store)) == 1       # the old file of that template is gone
    assert render(tree, store) == (after, 0)
    path.write_text(path.read_text().replace("edited", "EDITED"))   # same length, new text
    assert render(tree, store) == (after.replace("edited", "EDITED"), 1)


@pytest.mark.parametrize("damage", ["truncate", "flip", "empty", "magic"])
def test_a_damaged_file_is_ignored_and_rewritten(tree, tmp_path, damage):
    store = tmp_path / "bc"
    store.mkdir()
    expected, _ = render(tree, store)
    (entry,) = entries(store)
    data = entry.read_bytes()
    if damage == "truncate":
        data = data[:len(data) // 2]
    elif damage == "flip":       # a bit of the marshalled code: only the sha256 can tell
        data = data[:-10] + bytes([data[-10] ^ 0x40]) + data[-9:]
    elif damage == "magic":
        data = b"X" + data[1:]
    else:
        data = b""
    entry.write_bytes(data)
    assert render(tree, store) == (expected, 1)
    assert entry.read_bytes() != data
    assert render(tree, store) == (expected, 0)


def test_a_file_others_could_write_is_not_loaded(tree, tmp_path):
    store = tmp_path / "bc"
    store.mkdir()
    expected, _ = render(tree, store)
    (entry,) = entries(store)
    os.chmod(entry, 0o666)
    assert render(tree, store) == (expected, 1)
    assert stat.S_IMODE(entry.stat().st_mode) == 0o600   # rewritten, private
    os.unlink(entry)
    os.symlink(tmp_path / "elsewhere", entry)
    (tmp_path / "elsewhere").write_bytes(b"")
    assert render(tree, store) == (expected, 1)


def test_the_key_covers_the_versions_and_the_options(tree, tmp_path, monkeypatch):
    store = tmp_path / "bc"
    store.mkdir()
    expected, _ = render(tree, store)
    assert render(tree, store)[1] == 0
    monkeypatch.setattr(jinja2, "__version__", "0.0-other")
    assert render(tree, store) == (expected, 1)
    monkeypatch.setattr(templatecache, "__version__", "0.0-other")
    assert render(tree, store) == (expected, 1)
    monkeypatch.undo()
    env = templates.make_environment(tree, templatecache.TemplateBytecode(str(store)))
    other = jinja2.Environment(loader=env.loader, undefined=jinja2.StrictUndefined,
                               trim_blocks=False, lstrip_blocks=True,
                               keep_trailing_newline=True, autoescape=False)
    name = templatecache.entry_name(env, NAME, (tree / NAME).read_text())
    assert templatecache.entry_name(other, NAME, (tree / NAME).read_text()) != name
    assert name != templatecache.entry_name(env, "other.c.j2", (tree / NAME).read_text())


def test_an_unwritable_directory_still_renders(tree, tmp_path):
    expected, _ = render(tree, None)
    assert render(tree, tmp_path / "missing") == (expected, 1)
    assert not (tmp_path / "missing").exists()


def test_beside_the_templates_when_trusted(tree):
    templatecache.beside.cache_clear()
    found = templatecache.beside(str(tree))
    assert found == str(tree / "__pycache__")
    assert stat.S_IMODE(os.stat(found).st_mode) & 0o022 == 0
    os.chmod(found, 0o777)       # others could plant code there: not used
    templatecache.beside.cache_clear()
    assert templatecache.beside(str(tree)) is None
    templatecache.beside.cache_clear()


def test_the_build_cache_when_not_beside(tree, tmp_path, monkeypatch):
    """Under python -B, or when the templates' directory is not trusted: the build cache's."""
    monkeypatch.setenv("SYMGRAD_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(templates, "directory", lambda: tree)
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    templatecache.beside.cache_clear()
    try:
        assert templatecache.directory() == str(tree / "__pycache__")
        monkeypatch.setattr(sys, "dont_write_bytecode", True)
        assert templatecache.directory() is None                 # no root yet: not created
        assert templatecache.directory(create_cache=True) == \
            str(tmp_path / "cache" / "data" / "templates")
        monkeypatch.setattr(sys, "dont_write_bytecode", False)
        shared = tmp_path / "shared"          # others could replace what is below it
        shutil.copytree(tree, shared / "templates")
        os.chmod(shared, 0o777)
        monkeypatch.setattr(templates, "directory", lambda: shared / "templates")
        assert templatecache.directory() == str(tmp_path / "cache" / "data" / "templates")
        monkeypatch.setenv("SYMGRAD_NO_CACHE", "1")
        assert templatecache.directory() is None
    finally:
        templatecache.beside.cache_clear()


PROGRAM = textwrap.dedent("""
    import json, sys
    from pathlib import Path
    import jinja2, numpy as np
    import symgrad as sg
    from symgrad.codegen.c import templates
    templates.directory = lambda: Path(sys.argv[1])   # the test's copy of the templates
    compiled = []
    original = jinja2.Environment.compile
    def counting(self, source, name=None, *args, **kwargs):
        compiled.append(name)
        return original(self, source, name, *args, **kwargs)
    jinja2.Environment.compile = counting
    k = float(sys.argv[2])
    value = float(sg.compile(lambda x: (x * k).sum())(np.arange(4.0)))
    print(json.dumps({"value": value, "compiled": compiled}))
""")


def test_a_fresh_process_with_an_empty_cache_compiles_no_template(tree, tmp_path):
    def run(k: float, cache: str, **env) -> dict:
        environ = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        environ.update(SYMGRAD_CACHE_DIR=str(tmp_path / cache), **env)
        out = subprocess.run([sys.executable, "-c", PROGRAM, str(tree), str(k)],
                             capture_output=True, text=True, env=environ)
        assert out.returncode == 0, out.stderr
        return json.loads(out.stdout)

    first = run(3.0, "a")
    assert first["value"] == 18.0 and "module.c.j2" in first["compiled"]
    assert any(p.suffix == templatecache.SUFFIX for p in (tree / "__pycache__").iterdir())
    second = run(5.0, "b")
    assert second == {"value": 30.0, "compiled": []}
    assert not (tmp_path / "b" / "data" / "templates").exists()
    # under -B nothing is read or written beside the templates: the build cache's directory
    third = run(7.0, "c", PYTHONDONTWRITEBYTECODE="1")
    assert third["value"] == 42.0 and "module.c.j2" in third["compiled"]
    assert any(p.suffix == templatecache.SUFFIX
               for p in (tmp_path / "c" / "data" / "templates").iterdir())


def test_writing_compiled_templates_keeps_the_source_fingerprint(monkeypatch):
    """symgrad's source fingerprint (part of every warm-start key) covers the templates, not
    the compiled templates written beside them: else the first process's writes would make
    the next process miss the warm-start records the first one kept."""
    from symgrad.api import library
    pycache = templates.directory() / templatecache.BESIDE
    pycache.mkdir(exist_ok=True)
    monkeypatch.setattr(library, "_SOURCE", [])
    before = library.symgrad_source()
    probe = pycache / f".test-{os.getpid()}{templatecache.SUFFIX}"
    try:
        probe.write_bytes(b"x")
        monkeypatch.setattr(library, "_SOURCE", [])
        assert library.symgrad_source() == before
    finally:
        probe.unlink()


def test_the_source_fingerprint_covers_the_c_a_build_reads(monkeypatch, tmp_path):
    """An edit of the math declarations every kernel build includes (or of the native
    helper's C) is another symgrad: warm-start records made before it are not reused."""
    from symgrad.api import library
    package = tmp_path / "symgrad"
    (package / "build").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    header = package / "build" / "math_decls.h"
    header.write_text("double sin(double);\n")
    monkeypatch.setattr(library, "PACKAGE_DIR", str(package) + os.sep)
    monkeypatch.setattr(library, "_SOURCE", [])
    before = library.symgrad_source()
    header.write_text("double sin(double);\ndouble cos(double);\n")
    monkeypatch.setattr(library, "_SOURCE", [])
    assert library.symgrad_source() != before
