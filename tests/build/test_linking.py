"""The link of a module: the quick link (no system libraries named, glibc's bound at load time)
where it is safe, the driver's default link elsewhere (``build.c.linking``)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from types import SimpleNamespace

import numpy as np
import pytest

import symgrad as sg
from symgrad.build.c import compiler, linking, toolchain

GCC = "/usr/bin/cc | cc (Debian 12.2.0-14+deb12u1) 12.2.0"
NEEDS = SimpleNamespace(openmp=False, blas=(), vector_math=("exp",))


def no_blas():
    raise AssertionError("OpenBLAS's flags asked for a module that does not call it")


def test_quick_only_for_gcc_with_symgrad_flags_on_glibc():
    glibc = linking._glibc()
    assert linking.quick(GCC, True) == glibc
    assert linking.quick("/usr/bin/gcc | gcc (GCC) 13.2.1 20230801", True) == glibc
    assert not linking.quick(GCC, False)                      # the caller's own flags
    assert not linking.quick("/usr/bin/cc | Debian clang version 14.0.6", True)
    assert not linking.quick("/usr/bin/clang | clang version 17.0.1", True)


def test_quick_link_names_no_system_library():
    flags, libs = linking.link(NEEDS, True, no_blas)
    assert "-nostdlib" in flags and libs == ["-lgcc"]
    flags, libs = linking.link(NEEDS, False, no_blas)
    assert "-nostdlib" not in flags and libs == ["-lmvec", "-lm"]
    openmp = SimpleNamespace(openmp=True, blas=("dgemm",), vector_math=())
    _, libs = linking.link(openmp, True, lambda: ["-L/x", "-lscipy_openblas"])
    assert libs == ["-fopenmp", "-L/x", "-lscipy_openblas", "-lgcc"]   # still named


def _plan(f, *args):
    f(*args)
    return compiler.plan(f.last_specialization.source)


def test_this_machine_links_quickly_and_modules_work():
    if not linking.quick(toolchain.compiler_identity(), True):
        pytest.skip("not GCC on glibc: the driver's default link")
    z = np.array([1 + 2j, -0.5 + 0.25j, 3 - 1j])
    w = np.array([0.5 - 1j, 2 + 0j, -1 + 4j])
    f = sg.compile(lambda a, b: a / b * a)   # complex division (a libgcc helper, maybe)
    assert _plan(f, z, w).quick_link
    np.testing.assert_allclose(f(z, w), z / w * z, rtol=1e-15)
    g = sg.compile(lambda x: (sg.log1p(x * x) + sg.tanh(x)).sum())
    x = np.linspace(-2.0, 2.0, 7)
    np.testing.assert_allclose(g(x), np.sum(np.log1p(x * x) + np.tanh(x)), rtol=1e-14)


CHILD = textwrap.dedent("""
    import sys
    import numpy as np
    import symgrad as sg

    def maps():
        with open("/proc/self/maps") as f:
            return f.read()

    f = sg.compile(lambda x: sg.exp(sg.sin(x)) * x)
    x = np.linspace(0.0, 2.0, 5000)
    before = "libmvec" in maps()
    y = f(x)
    after = "libmvec" in maps()
    print(before, after, f.last_specialization.source.needs.vector_math,
          float(np.max(np.abs(y - np.exp(np.sin(x)) * x))))
""")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/maps")
def test_a_fresh_process_loads_vector_math_before_the_module(tmp_path):
    """A process that has not loaded libmvec yet (the interpreter does not) builds or reads
    from the cache a module calling its SIMD functions: the loader makes libmvec global first,
    so the module loads and computes what NumPy does."""
    if not toolchain.has_vector_math():
        pytest.skip("this C toolchain has no libmvec")
    for _ in range(2):   # built, then read from the cache by a second fresh process
        out = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True,
                             env={**__import__("os").environ,
                                  "SYMGRAD_CACHE_DIR": str(tmp_path)}, check=True)
        before, after, vector, err = out.stdout.split(maxsplit=3)
        assert (before, after) == ("False", "True"), out.stdout
        assert "exp" in vector and float(err.rsplit(maxsplit=1)[-1]) < 1e-13
