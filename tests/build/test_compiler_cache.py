"""Tests for the build layer: the compiler driver and the cache (symgrad.build).

Input: small hand-written C kernels. Output: loaded cffi modules checked against numpy, and the
cache's on-disk/in-process behaviour (one compile per key, across threads and processes).
Must not: touch the user's real cache (every test points SYMGRAD_CACHE_DIR at tmp_path).
"""

from __future__ import annotations

import ctypes
import json
import os
import shutil
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from build_helpers import build_module, module_key

from symgrad.build import cache, cli
from symgrad.build.c import compiler, toolchain
from symgrad.build.cache import stats
from symgrad.build.c.compiler import BuildError, CompilerNotFoundError
from symgrad.codegen.c.csource import BuildNeeds

REPO = Path(__file__).resolve().parents[2]

ADD_SRC = textwrap.dedent(
    """\
    int sg_add(const double *a, const double *b, double *out, long n)
    {
        long i;
        for (i = 0; i < n; ++i) {
            out[i] = a[i] + b[i];
        }
        return 0;
    }
    """
)
ADD_CDEF = "int sg_add(const double *a, const double *b, double *out, long n);"

# Declares the OpenBLAS prototypes itself, as generated kernels do (enums passed as int).
GEMM_SRC = textwrap.dedent(
    """\
    void scipy_cblas_dgemm(int order, int ta, int tb, int m, int n, int k, double alpha,
                           const double *a, int lda, const double *b, int ldb, double beta,
                           double *c, int ldc);
    void scipy_cblas_sgemm(int order, int ta, int tb, int m, int n, int k, float alpha,
                           const float *a, int lda, const float *b, int ldb, float beta,
                           float *c, int ldc);
    enum { SG_ROW_MAJOR = 101, SG_NO_TRANS = 111 };

    int sg_matmul_d(const double *a, const double *b, double *c, int m, int k, int n)
    {
        scipy_cblas_dgemm(SG_ROW_MAJOR, SG_NO_TRANS, SG_NO_TRANS, m, n, k,
                          1.0, a, k, b, n, 0.0, c, n);
        return 0;
    }

    int sg_matmul_f(const float *a, const float *b, float *c, int m, int k, int n)
    {
        scipy_cblas_sgemm(SG_ROW_MAJOR, SG_NO_TRANS, SG_NO_TRANS, m, n, k,
                          1.0f, a, k, b, n, 0.0f, c, n);
        return 0;
    }
    """
)
GEMM_CDEF = (
    "int sg_matmul_d(const double *a, const double *b, double *c, int m, int k, int n);\n"
    "int sg_matmul_f(const float *a, const float *b, float *c, int m, int k, int n);"
)

STRICT = ("-O2", "-std=c99", "-pedantic", "-Wall", "-Wextra", "-Werror")


@pytest.fixture(autouse=True)
def cache_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private cache root per test, and a forgotten in-process map (else earlier tests'
    modules would turn every build into a memory hit)."""
    root = tmp_path / "cache"
    monkeypatch.setenv("SYMGRAD_CACHE_DIR", str(root))
    for var in ("SYMGRAD_NO_CACHE", "SYMGRAD_DEBUG", "SYMGRAD_CC"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setattr(cache, "_loaded", {})
    old = os.environ.get("PYTHONPATH")
    monkeypatch.setenv("PYTHONPATH", str(REPO) + (os.pathsep + old if old else ""))
    return root


def call_add(mod: compiler.BuiltModule, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    out = np.empty_like(a)
    ffi = mod.ffi
    rc = mod.lib.sg_add(
        ffi.from_buffer("double[]", a),
        ffi.from_buffer("double[]", b),
        ffi.from_buffer("double[]", out),
        a.size,
    )
    assert rc == 0
    return out


def delta(before: dict[str, int]) -> dict[str, int]:
    return {k: stats[k] - before[k] for k in before}


# ------------------------------------------------------------------------------ build and call


def test_build_and_call_matches_numpy(cache_root: Path) -> None:
    before = dict(stats)
    mod = build_module(ADD_SRC, ADD_CDEF, name_hint="add")
    assert delta(before)["compiles"] == 1
    assert not mod.from_cache
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal(1001), rng.standard_normal(1001)
    np.testing.assert_array_equal(call_add(mod, a, b), a + b)

    # The documented layout: <root>/<key[:2]>/<key>/ with sources, .so and meta.json.
    assert len(mod.key) == 64 and int(mod.key, 16) >= 0
    assert mod.path == cache_root / mod.key[:2] / mod.key
    names = {p.name for p in mod.path.iterdir()}
    assert {"kernel.c", "decls.h", "kernel.so", "meta.json"} <= names
    assert (mod.path / "kernel.c").read_text() == ADD_SRC
    meta = json.loads((mod.path / "meta.json").read_text())
    assert meta["key"] == mod.key and meta["compiler"] == compiler.compiler_identity()
    assert "-march=native" in meta["commands"]["kernel"]
    assert not any(".tmp-" in p.name for p in (cache_root / mod.key[:2]).iterdir())
    # Root is private: it holds code we load and run.
    assert stat.S_IMODE(cache_root.stat().st_mode) == 0o700


def test_openblas_gemm_matches_numpy() -> None:
    mod = build_module(GEMM_SRC, GEMM_CDEF, name_hint="gemm", needs=BuildNeeds(blas=True))
    rng = np.random.default_rng(1)
    m, k, n = 7, 5, 3  # non-square, so a transposed/strided mistake cannot pass
    for dtype, fn, ctype, rtol in (
        (np.float64, mod.lib.sg_matmul_d, "double[]", 1e-12),
        (np.float32, mod.lib.sg_matmul_f, "float[]", 1e-5),
    ):
        a = rng.standard_normal((m, k)).astype(dtype)
        b = rng.standard_normal((k, n)).astype(dtype)
        c = np.full((m, n), np.nan, dtype=dtype)
        fb = mod.ffi.from_buffer
        assert fn(fb(ctype, a), fb(ctype, b), fb(ctype, c), m, k, n) == 0
        np.testing.assert_allclose(c, a @ b, rtol=rtol, atol=rtol)


def test_results_are_ieee_exact_no_fma_contraction() -> None:
    # With -march=native on an FMA machine, a contracted a*b+c rounds once and differs from
    # numpy in the last bit for many elements; the default flags must forbid that.
    src = (
        "int sg_fma(const double *a, const double *b, const double *c, double *o, long n)\n"
        "{ long i; for (i = 0; i < n; ++i) o[i] = a[i] * b[i] + c[i]; return 0; }\n"
    )
    cdef = "int sg_fma(const double *a, const double *b, const double *c, double *o, long n);"
    mod = build_module(src, cdef)
    rng = np.random.default_rng(2)
    a, b, c = (rng.standard_normal(4096) for _ in range(3))
    o = np.empty_like(a)
    fb = mod.ffi.from_buffer
    mod.lib.sg_fma(
        fb("double[]", a), fb("double[]", b), fb("double[]", c), fb("double[]", o), a.size
    )
    np.testing.assert_array_equal(o, a * b + c)


def test_same_symbol_in_two_modules_does_not_collide() -> None:
    # Both kernels export sg_op; each module must call its own (hidden visibility).
    cdef = "int sg_op(const double *a, double *o);"
    plus = build_module(
        "int sg_op(const double *a, double *o) { *o = *a + 1.0; return 0; }\n", cdef
    )
    minus = build_module(
        "int sg_op(const double *a, double *o) { *o = *a - 1.0; return 0; }\n", cdef
    )
    for mod, want in ((plus, 11.0), (minus, 9.0)):
        a, o = mod.ffi.new("double *", 10.0), mod.ffi.new("double *")
        mod.lib.sg_op(a, o)
        assert o[0] == want
        # ...because each module is loaded with local symbols, and binds its own calls to
        # itself (-Bsymbolic); only the declared functions are in its dynamic symbol table.
        so = ctypes.CDLL(str(mod.so_path))
        assert hasattr(so, "sg_op") and not hasattr(so, "PyInit_" + mod.so_path.stem)


# ------------------------------------------------------------------------------------ caching


def test_same_source_twice_in_process_compiles_once() -> None:
    before = dict(stats)
    first = build_module(ADD_SRC, ADD_CDEF)
    second = build_module(ADD_SRC, ADD_CDEF)
    d = delta(before)
    assert d["compiles"] == 1 and d["cache_hits"] == 1 and d["memory_hits"] == 1
    assert second.from_cache and second.key == first.key
    assert second.lib is first.lib  # the same import, not a second dlopen


CHILD = """\
import json, numpy as np
from symgrad.build import cache
from symgrad.build.c import compiler
from symgrad.codegen.c.csource import CSource
mod = compiler.build(CSource({src!r}, "sg_add", {cdef!r}))
a, b = np.arange(5.0), np.full(5, 0.5)
out = np.empty(5)
fb = mod.ffi.from_buffer
mod.lib.sg_add(fb("double[]", a), fb("double[]", b), fb("double[]", out), 5)
print(json.dumps({{"stats": cache.stats, "from_cache": mod.from_cache, "key": mod.key,
                  "out": out.tolist()}}))
"""


def run_children(tmp_path: Path, src: str, count: int = 1) -> list[dict]:
    """Run CHILD ``count`` times at once; each result also carries the child's output as
    "log" (SYMGRAD_DEBUG=1: why it rebuilt, if it did) for assertion messages."""
    script = tmp_path / "child.py"
    script.write_text(CHILD.format(src=src, cdef=ADD_CDEF))
    env = {**os.environ, "SYMGRAD_DEBUG": "1"}
    procs = [
        subprocess.Popen(
            [sys.executable, str(script)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True, env=env,
        )
        for _ in range(count)
    ]
    results = []
    for proc in procs:
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err
        results.append({**json.loads(out.strip().splitlines()[-1]), "log": out + err})
    return results


def test_second_process_loads_from_disk(tmp_path: Path) -> None:
    parent = build_module(ADD_SRC, ADD_CDEF)
    (child,) = run_children(tmp_path, ADD_SRC)
    assert child["stats"]["compiles"] == 0, (parent.path, child["log"])
    assert child["stats"]["cache_hits"] == 1 and child["stats"]["disk_hits"] == 1
    assert child["from_cache"] and child["key"] == parent.key
    assert child["out"] == [0.5, 1.5, 2.5, 3.5, 4.5]


def test_concurrent_processes_build_once(tmp_path: Path, cache_root: Path) -> None:
    src = ADD_SRC + "/* concurrent */\n"  # a key no other test has built
    results = run_children(tmp_path, src, count=3)
    assert sum(r["stats"]["compiles"] for r in results) == 1
    assert sum(r["stats"]["disk_hits"] for r in results) == 2
    assert len({r["key"] for r in results}) == 1
    assert all(r["out"] == [0.5, 1.5, 2.5, 3.5, 4.5] for r in results)
    assert cli.info()["entries"] == 1


def test_broken_entry_is_rebuilt(tmp_path: Path) -> None:
    mod = build_module(ADD_SRC, ADD_CDEF)
    so = mod.so_path
    # Replace the file (a new inode, as any writer that does not corrupt its own readers
    # would): writing into the mapped inode would crash this very process with SIGBUS.
    broken = so.with_name(so.name + ".broken")
    broken.write_bytes(b"not an ELF file")  # e.g. a disk-full truncation
    os.replace(broken, so)
    (child,) = run_children(tmp_path, ADD_SRC)
    assert child["stats"]["compiles"] == 1 and not child["from_cache"]
    assert child["out"] == [0.5, 1.5, 2.5, 3.5, 4.5]


def test_key_changes_when_flags_change() -> None:
    default = module_key(ADD_SRC, ADD_CDEF)
    assert module_key(ADD_SRC, ADD_CDEF) == default  # deterministic
    assert module_key(ADD_SRC, ADD_CDEF, opt_flags=compiler.DEFAULT_OPT_FLAGS) == default
    o2 = module_key(ADD_SRC, ADD_CDEF, opt_flags=("-O2", "-fPIC"))
    assert o2 != default
    before = dict(stats)
    a = build_module(ADD_SRC, ADD_CDEF)
    b = build_module(ADD_SRC, ADD_CDEF, opt_flags=("-O2", "-fPIC"))
    assert (a.key, b.key) == (default, o2) and a.path != b.path
    assert delta(before)["compiles"] == 2


def test_key_changes_when_source_or_cdef_change(monkeypatch: pytest.MonkeyPatch) -> None:
    base = module_key(ADD_SRC, ADD_CDEF)
    assert module_key(ADD_SRC + "\n", ADD_CDEF) != base
    assert module_key(ADD_SRC.replace("a[i] + b[i]", "b[i] + a[i]"), ADD_CDEF) != base
    assert module_key(ADD_SRC, ADD_CDEF.replace("long n", "long m")) != base
    # decls.h is part of the key: the math declarations it force-includes too
    monkeypatch.setattr(compiler, "MATH_DECLS", compiler.MATH_DECLS + "/* edited */\n")
    assert module_key(ADD_SRC, ADD_CDEF) != base


@pytest.mark.skipif(
    shutil.which("gcc") is None or shutil.which("cc") is None, reason="needs cc and gcc"
)
def test_key_changes_with_compiler(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SYMGRAD_CC", "cc")
    with_cc = module_key(ADD_SRC, ADD_CDEF)
    monkeypatch.setenv("SYMGRAD_CC", "gcc")
    assert module_key(ADD_SRC, ADD_CDEF) != with_cc
    assert "gcc" in compiler.compiler_identity()


def test_no_cache_mode_builds_privately_every_time(
    cache_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SYMGRAD_NO_CACHE", "1")
    before = dict(stats)
    a = build_module(ADD_SRC, ADD_CDEF)
    b = build_module(ADD_SRC, ADD_CDEF)
    assert delta(before)["compiles"] == 2 and delta(before)["cache_hits"] == 0
    assert a.path != b.path and cache_root not in a.path.parents
    assert not cache_root.exists() or cli.info()["entries"] == 0
    x = np.arange(3.0)
    np.testing.assert_array_equal(call_add(b, x, x), 2 * x)


def test_info_and_clear_touch_only_cache_entries(cache_root: Path) -> None:
    build_module(ADD_SRC, ADD_CDEF)
    build_module(ADD_SRC + "/* 2 */\n", ADD_CDEF)
    (cache_root / "notes.txt").write_text("mine")
    (cache_root / "keepme").mkdir()
    info = cli.info()
    assert info["root"] == str(cache_root) and info["entries"] == 2 and info["bytes"] > 10_000
    removed = cli.clear()
    assert removed["builds"] == 2 and removed["other"] >= 2  # their locks, toolchain facts
    assert removed["bytes"] == info["bytes"]
    assert cli.info()["entries"] == 0
    assert (cache_root / "notes.txt").read_text() == "mine" and (cache_root / "keepme").is_dir()
    assert not [p for p in cache_root.iterdir() if len(p.name) == 2]


def test_debug_logs_build_line_and_command(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("SYMGRAD_DEBUG", "1")
    mod = build_module(ADD_SRC, ADD_CDEF, name_hint="adder")
    out = capsys.readouterr().out
    assert "compiled adder in " in out and f"-> {mod.path}" in out
    assert "-std=c99" not in out  # the command is level 2
    monkeypatch.setenv("SYMGRAD_DEBUG", "2")
    build_module(ADD_SRC + "/* v2 */\n", ADD_CDEF, name_hint="adder2")
    assert "-std=c99" in capsys.readouterr().out


# ----------------------------------------------------------------------------------- failures


def test_missing_compiler_from_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SYMGRAD_CC", "/nonexistent/dir/no-such-cc")
    with pytest.raises(CompilerNotFoundError) as info:
        build_module(ADD_SRC, ADD_CDEF)
    msg = str(info.value)
    assert isinstance(info.value, RuntimeError)
    assert "no-such-cc" in msg and "SYMGRAD_CC" in msg and "install" in msg


def test_no_compiler_on_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CC", raising=False)
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    with pytest.raises(CompilerNotFoundError, match="cc, gcc or clang") as info:
        build_module(ADD_SRC, ADD_CDEF)
    if sys.platform.startswith("linux"):
        assert "apt-get install gcc" in str(info.value)


def test_syntax_error_raises_build_error_with_stderr(cache_root: Path) -> None:
    bad = "int sg_add(const double *a, const double *b, double *out, long n)\n{ return 0 }\n"
    with pytest.raises(BuildError) as info:
        build_module(bad, ADD_CDEF)
    err = info.value
    assert "error" in err.stderr and "kernel.c" in err.stderr
    assert err.command is not None and Path(err.command[0]).name in str(err)
    assert err.stderr.strip().splitlines()[0] in str(err)
    assert err.source_path is not None and err.source_path.read_text() == bad
    assert str(err.source_path) in str(err)
    key = module_key(bad, ADD_CDEF)
    assert not cache.entry_dir(key).exists()  # nothing published
    # ...and the cache still works afterwards.
    assert not build_module(ADD_SRC, ADD_CDEF).from_cache


def test_kernel_disagreeing_with_cdef_is_a_build_error() -> None:
    # float vs double: without the force-included cdef this would link and corrupt memory.
    src = ADD_SRC.replace("double", "float")
    with pytest.raises(BuildError, match="conflicting types"):
        build_module(src, ADD_CDEF)


def test_kernels_compile_as_strict_c99() -> None:
    for src, cdef, needs in ((ADD_SRC, ADD_CDEF, None),
                             (GEMM_SRC, GEMM_CDEF, BuildNeeds(blas=True))):
        mod = build_module(src, cdef, opt_flags=STRICT, needs=needs)
        assert "-pedantic" in json.loads((mod.path / "meta.json").read_text())["commands"]["kernel"]
    x = np.linspace(0, 1, 9)
    np.testing.assert_array_equal(
        call_add(build_module(ADD_SRC, ADD_CDEF, opt_flags=STRICT), x, x), 2 * x
    )
    # Control: the strict flags really reach the compiler (an unused variable fails -Werror).
    sloppy = ADD_SRC.replace("long i;", "long i; int unused;")
    with pytest.raises(BuildError, match="unused"):
        build_module(sloppy, ADD_CDEF, opt_flags=STRICT)


# --------------------------------------------------------------------------- translation units

# Two translation units in one text, as codegen writes a split function: unit 1 defines a part
# (not static: unit 0 calls it), unit 0 the entry point; without -DSG_TU it compiles whole.
UNITS_SRC = textwrap.dedent(
    """\
    int sg_twice_part1(const double *a, double *o);

    #if !defined(SG_TU) || SG_TU == 1
    int sg_twice_part1(const double *a, double *o) { *o = *a * 2.0; return 0; }
    #endif

    #if !defined(SG_TU) || SG_TU == 0
    int sg_twice(const double *a, double *o) { return sg_twice_part1(a, o); }
    #endif
    """
)
UNITS_CDEF = "int sg_twice(const double *a, double *o);"


def call_twice(mod: compiler.BuiltModule, x: float) -> float:
    a, o = mod.ffi.new("double *", x), mod.ffi.new("double *")
    assert mod.lib.sg_twice(a, o) == 0
    return o[0]


UNITS = ("main", "cold")   # as codegen declares a split text's units (CSource.units)


def test_units_build_one_object_each(cache_root: Path) -> None:
    mod = build_module(UNITS_SRC, UNITS_CDEF, name_hint="twice", units=UNITS)
    assert call_twice(mod, 21.0) == 42.0
    commands = json.loads((mod.path / "meta.json").read_text())["commands"]
    assert sorted(commands) == ["kernel", "kernel1", "link"]
    k0, k1 = commands["kernel"], commands["kernel1"]
    assert "-DSG_TU=0" in k0 and k0[-1] == "kernel0.o" and "-O1" not in k0
    assert "-DSG_TU=1" in k1 and k1[-1] == "kernel1.o"
    assert k1.index("-O1") > k1.index("-O3")  # appended after the defaults: it wins
    assert "kernel0.o" in commands["link"] and "kernel1.o" in commands["link"]
    assert not list(mod.path.glob("*.o"))
    # The part is not static, yet stays out of the module's dynamic symbol table; the
    # declared entry point is in it.
    so = ctypes.CDLL(str(mod.so_path))
    assert not hasattr(so, "sg_twice_part1") and hasattr(so, "sg_twice")


def test_units_are_the_sources_data_not_the_texts_markers() -> None:
    split = module_key(UNITS_SRC, UNITS_CDEF, units=UNITS)
    whole = module_key(UNITS_SRC, UNITS_CDEF)          # the markers alone ask for nothing
    assert whole != split   # the commands are part of the key
    # One unit, as before units existed: the key of an unmarked text does not change.
    assert module_key(ADD_SRC, ADD_CDEF, units=["main"]) == module_key(ADD_SRC, ADD_CDEF)
    mod = build_module(UNITS_SRC, UNITS_CDEF)
    assert mod.key == whole and call_twice(mod, 1.5) == 3.0
    commands = json.loads((mod.path / "meta.json").read_text())["commands"]
    assert "kernel1" not in commands and "link" not in commands   # compiles and links
    kernel = commands["kernel"]
    assert "-shared" in kernel and kernel[kernel.index("-o") + 1] == "kernel.so"
    assert not any(a.startswith("-DSG_TU") for a in commands["kernel"])
    with pytest.raises(ValueError, match="at least one"):
        module_key(UNITS_SRC, UNITS_CDEF, units=[])
    with pytest.raises(ValueError, match="unknown kinds"):
        module_key(UNITS_SRC, UNITS_CDEF, units=["main", "lukewarm"])


def test_error_in_one_unit_raises_build_error_naming_the_source() -> None:
    bad = UNITS_SRC.replace("*o = *a * 2.0;", "*o = *a * 2.0")
    with pytest.raises(BuildError) as info:
        build_module(bad, UNITS_CDEF, units=UNITS)
    err = info.value
    assert err.command is not None and "-DSG_TU=1" in err.command
    assert "error" in err.stderr and "kernel.c" in err.stderr
    assert err.source_path is not None and err.source_path.name == "kernel.c"
    assert err.source_path.read_text() == bad and str(err.source_path) in str(err)
    assert not cache.entry_dir(module_key(bad, UNITS_CDEF, units=UNITS)).exists()


def test_toolchain_facts_are_probed_once_and_kept_in_the_private_cache(
        cache_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cache_root.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.chmod(cache_root, 0o700)
    argv = tuple(toolchain.find_compiler())
    monkeypatch.setattr(toolchain, "_identities", {})
    ident = toolchain.compiler_identity(list(argv))
    facts_file = cache_root / "data" / "toolchain" / toolchain.FACTS_FILE
    facts = json.loads(facts_file.read_text())
    assert [f["identity"] for f in facts.values()] == [ident]
    assert stat.S_IMODE(facts_file.stat().st_mode) == 0o600

    # A fresh process (no in-memory entry) needs no subprocess: the file answers.
    def no_subprocess(*a, **k):
        raise AssertionError("probed the compiler again")
    monkeypatch.setattr(toolchain, "_identities", {})
    monkeypatch.setattr(toolchain.subprocess, "run", no_subprocess)
    monkeypatch.setattr(toolchain.subprocess, "Popen", no_subprocess)
    assert toolchain.compiler_identity(list(argv)) == ident

    # A cache dir others may write to is not trusted: probe again.
    os.chmod(cache_root, 0o777)
    monkeypatch.setattr(toolchain, "_identities", {})
    with pytest.raises(AssertionError, match="probed the compiler again"):
        toolchain.compiler_identity(list(argv))
    os.chmod(cache_root, 0o700)


def test_probing_the_toolchain_does_not_create_the_cache(
        cache_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert not cache_root.exists()
    monkeypatch.setattr(toolchain, "_identities", {})
    toolchain.has_vector_math.cache_clear()
    try:
        toolchain.compiler_identity()
        toolchain.has_vector_math()
    finally:
        toolchain.has_vector_math.cache_clear()
    assert not cache_root.exists()
