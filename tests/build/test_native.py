"""The native helper and the calling convention: plain shared objects called from Python.

Checks that the adapter passes every kind of parameter where the typed signature expects it,
that bad arguments to the helper's ``call`` raise (never crash or write where they must not),
that the helper is rebuilt from ``native.c`` when the installed one is missing or older, and
that ``native.c`` cannot change without its version (an installed extension of the old version
would otherwise be used).
"""

from __future__ import annotations

import hashlib
import sys

import numpy as np
import pytest

from symgrad.build import cache
from symgrad.build.c import adapter, compiler, native
from symgrad.codegen.c.csource import CSource

# sha256 of native.c for each NATIVE_VERSION: edit native.c -> bump both versions, record it.
SOURCE_HASHES = {1: "251e07c72a2d303de4ff28fdf9e93256149ae3e4899c0b6d7e43c44e6253eef4",
                 2: "4e10cb229a35e1267bb65e6c46561cbde2ae42e8b0b28db0455c37a8ddf23941",
                 3: "48eb42eadbf5046c86c5aa24c98b6846e8b3a88788d2342a08d63e8028fdb17d",
                 4: "4615155d521cc73343407c62e01a84f30d2cc3e686f03a79912ad3ec52ef3cc7"}

MIXED = """\
#include <stdint.h>
int sg_mixed(const float *a, const double *b, int32_t *out_i, double *out_d,
             unsigned char *work, int nthreads, int64_t size, const volatile int *sig,
             int since)
{
    out_i[0] = nthreads;
    out_i[1] = since;
    out_i[2] = *sig;
    out_i[3] = (int32_t)(size - 7000000000LL);   /* an int64 beyond 32 bits */
    for (int64_t k = 0; k < size - 7000000000LL; k++)
        out_d[k] = a[k] + b[k] + work[k];
    return 42;
}
"""
PARAMS = (("const float *", "a"), ("const double *", "b"), ("int32_t *", "out_i"),
          ("double *", "out_d"), ("unsigned char *", "work"), ("int", "nthreads"),
          ("int64_t", "size"), ("const volatile int *", "sig"), ("int", "since"))


def mixed_module():
    cdef = ("int sg_mixed(const float *a, const double *b, int32_t *out_i, double *out_d, "
            "unsigned char *work, int nthreads, int64_t size, const volatile int *sig, "
            "int since);")
    return compiler.build(CSource(MIXED, "sg_mixed", cdef, params=PARAMS))


@pytest.fixture(autouse=True)
def cache_root(tmp_path, monkeypatch):
    monkeypatch.setenv("SYMGRAD_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(cache, "_loaded", {})


def test_native_source_changes_with_its_version():
    text = native.SOURCE.read_bytes()
    assert hashlib.sha256(text).hexdigest() == SOURCE_HASHES[native.NATIVE_VERSION], \
        "native.c changed: bump SG_NATIVE_VERSION and native.NATIVE_VERSION, record the hash"
    assert f"#define SG_NATIVE_VERSION {native.NATIVE_VERSION} " in text.decode()
    assert native.helper().VERSION == native.NATIVE_VERSION


def test_layout_letters():
    assert adapter.layout(PARAMS) == b"rrwwwiiri"
    assert adapter.kind("const volatile int *") == "r" and adapter.kind("int64_t") == "i"


def test_every_parameter_arrives_where_the_signature_says():
    mod = mixed_module()
    fn, lead = mod.entry("sg_mixed")
    a = np.arange(5, dtype=np.float32)
    b = np.full(5, 0.5)
    out_i, out_d = np.zeros(4, np.int32), np.zeros(5)
    work = np.arange(5, dtype=np.uint8)
    sig = np.array([17], dtype=np.intc)
    status = fn(*lead, a, b, out_i, out_d, work, 3, 7000000005, sig, -9)
    assert status == 42
    assert out_i.tolist() == [3, -9, 17, 5]
    np.testing.assert_array_equal(out_d, a + b + work)
    # addresses work as pointers too (the runtime passes constants and the workspace so)
    out_d[:] = 0
    status = fn(*lead, a, b, out_i, out_d, mod.address(work), 1, 7000000002, sig, 0)
    assert status == 42 and out_d[:2].tolist() == [0.5, 2.5] and out_d[2] == 0


@pytest.mark.parametrize("bad, error, match", [
    (lambda args: args[:-1], TypeError, "layout has 9 letters"),
    (lambda args: [*args[:2], args[2][::2], *args[3:]], ValueError, "contiguous"),
    (lambda args: [*args[:4], _readonly(args[4]), *args[5:]], ValueError, "read-only"),
    (lambda args: [*args[:6], "3", *args[7:]], TypeError, "integer"),
    (lambda args: [*args[:2], b"abcdefghijklmnop", *args[3:]], BufferError, "not writable"),
    (lambda args: [*args[:7], None, *args[8:]], TypeError, "bytes-like"),
    (lambda args: [_misaligned(5), *args[1:]], ValueError, "not aligned"),
])
def test_bad_arguments_raise_and_write_nothing(bad, error, match):
    mod = mixed_module()
    fn, lead = mod.entry("sg_mixed")
    out_i, out_d = np.zeros(4, np.int32), np.zeros(5)
    args = [np.arange(5, dtype=np.float32), np.ones(5), out_i, out_d,
            np.zeros(5, np.uint8), 1, 7000000005, np.zeros(1, np.intc), 0]
    with pytest.raises(error, match=match):
        fn(*lead, *bad(args))
    assert not out_i.any() and not out_d.any()


def _misaligned(n):
    array = np.frombuffer(bytearray(4 * n + 1), dtype=np.float32, offset=1, count=n)
    assert not array.flags.aligned
    return array


def _readonly(array):
    array = array.copy()
    array.flags.writeable = False
    return array


def test_arrays_of_any_kind_pass_their_memory():
    mod = mixed_module()
    fn, lead = mod.entry("sg_mixed")

    class Sub(np.ndarray):
        pass
    a = np.arange(5, dtype=np.float32).view(Sub)         # a subclass: the buffer protocol
    b = memoryview(np.full(5, 0.25))                     # any buffer
    out_i, out_d = np.zeros(4, np.int32), np.zeros(5)
    assert fn(*lead, a, b, out_i, out_d, bytearray(5), 1, 7000000005, np.zeros(1, np.intc),
              0) == 42
    np.testing.assert_array_equal(out_d, np.arange(5) + 0.25)
    assert mod.address(a) == a.__array_interface__["data"][0]
    assert mod.address(out_d) == out_d.__array_interface__["data"][0]


def test_call_checks_its_own_arguments():
    n = native.helper()
    with pytest.raises(TypeError, match="layout"):
        n.call(1, "ri", 1, 2)
    with pytest.raises(ValueError, match="address is 0"):
        n.call(0, b"")
    with pytest.raises(ValueError, match="layout letter x"):
        n.call(1, b"x", 1)
    with pytest.raises(OSError, match="cannot load"):
        n.load("/nonexistent/kernel.so")


def test_helper_is_built_from_source_when_not_installed(monkeypatch):
    monkeypatch.setattr(native, "_installed", lambda: None)
    monkeypatch.setattr(native, "_helper", None)
    compiles = cache.stats["compiles"]
    built = native.helper()
    assert built.VERSION == native.NATIVE_VERSION and cache.stats["compiles"] == compiles + 1
    x = np.arange(6.0)
    assert built.address(x) == x.__array_interface__["data"][0]
    assert "cache" in built.__file__   # the tests' cache root, not the installed extension


def test_installed_helper_of_another_version_is_not_used(monkeypatch):
    class Old:
        VERSION = native.NATIVE_VERSION - 1
    import symgrad.build.c as package
    monkeypatch.setitem(sys.modules, native.MODULE, Old)
    monkeypatch.setattr(package, "_native", Old, raising=False)
    monkeypatch.setattr(native, "_helper", None)
    helper = native.helper()
    assert helper is not Old and helper.VERSION == native.NATIVE_VERSION


def test_audit_hook_calls_its_handler_for_the_named_events_only():
    """The C-filtered audit hook (compile traces watch file opens with it): the handler sees
    the events it named, with their arguments, and nothing else (not id(), not a function's
    __code__); its exception reaches the audited call; it is added once. In a process of its
    own: an audit hook cannot be removed."""
    import subprocess
    import textwrap
    code = textwrap.dedent("""
        import sys
        from symgrad.build.c import native
        seen = []
        def handler(event, args):
            if args == ("raise",):
                raise PermissionError("refused")
            seen.append((event, args))
        native.helper().audit_hook(handler, ("sg.test", "sg.other"))
        sys.audit("sg.test", 1, "a")
        sys.audit("sg.unwatched", 2)
        id(seen)
        (lambda: 0).__code__
        sys.audit("sg.other")
        try:
            sys.audit("sg.test", "raise")
        except PermissionError as e:
            seen.append(str(e))
        try:
            native.helper().audit_hook(handler, ("sg.test",))
        except RuntimeError as e:
            seen.append(str(e))
        print(seen)
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == str([("sg.test", (1, "a")), ("sg.other", ()), "refused",
                       "audit_hook: installed already"])


def test_column_coloring_in_c_gives_the_python_colors():
    """``color_columns`` walks the rows instead of forming P^T P: the same degrees order and
    greedy colors as SciPy and Python, on random patterns and on a bundle-adjustment-like one
    (each row: one of 4 camera blocks of 9 columns and one of 50 point blocks of 3)."""
    sp = pytest.importorskip("scipy.sparse")
    from symgrad.transforms import coloring
    color = native.helper().color_columns
    rng = np.random.default_rng(0)
    patterns = [sp.random(int(rng.integers(1, 60)), int(rng.integers(1, 80)),
                          density=rng.uniform(0.01, 0.6), format="csr", random_state=k) != 0
                for k in range(40)]
    cams, points = rng.integers(0, 4, 300), rng.integers(0, 50, 300)
    cols = np.concatenate([cams[:, None] * 9 + np.arange(9), 36 + points[:, None] * 3 +
                           np.arange(3)], 1)
    patterns.append(sp.csr_matrix((np.ones(cols.size, bool), cols.ravel(),
                                   np.arange(0, cols.size + 1, 12)), shape=(300, 186)))
    for P in patterns + [sp.csr_matrix((0, 5), dtype=bool), sp.csr_matrix((3, 0), dtype=bool)]:
        got = coloring.column_coloring(P, color)
        np.testing.assert_array_equal(got, coloring.column_coloring(P))
        assert coloring.valid_column_coloring(P, got)
    assert coloring.n_colors(coloring.column_coloring(patterns[-1], color)) == 12


def _coloring_args(**changes):
    args = dict(what="greedy", row_ptr=[0, 2], row_idx=[0, 5], col_ptr=[0, 1, 1, 1, 1, 1, 2],
                col_idx=[0, 0], order=[0, 5], out=[-1] * 6)
    args.update(changes)
    return [v if k == "what" else np.asarray(v, np.int32 if k == "order32" else np.int64)
            for k, v in args.items()]


@pytest.mark.parametrize("change, error", [
    (dict(row_idx=[0, 6]), ValueError), (dict(col_idx=[0, -1]), ValueError),
    (dict(row_ptr=[0, 3]), ValueError), (dict(col_ptr=[0, 2, 1, 1, 1, 1, 2]), ValueError),
    (dict(order=[6]), ValueError), (dict(out=[-1, 7, -1, -1, -1, -1]), ValueError),
    (dict(out=[-1] * 5), ValueError), (dict(what="other"), ValueError)])
def test_column_coloring_in_c_checks_its_arrays(change, error):
    """Indices out of range, offsets that are not a pattern's, colors that would index past
    the marks: each raises before the walk (no input from Python writes out of bounds)."""
    with pytest.raises(error):
        native.helper().color_columns(*_coloring_args(**change))
    with pytest.raises(TypeError):
        native.helper().color_columns(*_coloring_args()[:5],
                                      np.array([0, 5], np.int32), np.full(6, -1, np.int64))
    out = _coloring_args()
    native.helper().color_columns(*out)
    assert out[-1].tolist() == [0, -1, -1, -1, -1, 1]
