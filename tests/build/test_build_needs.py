"""What a build needs is data from code generation, never found in the C text.

The C quotes the user's source lines in comments; a line that happens to read like a pragma, a
BLAS call or a translation-unit marker must not change how the text is built (it once did: the
compiler searched the text, so a comment could link libmvec and OpenMP, or split units).
"""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

import symgrad as sg
from symgrad.build.c import compiler, toolchain

PLAIN = '''import symgrad as sg


def f(x, w):
    y = sg.exp(x) * 2.0 + x
    return (y * w).sum()
'''

# The same computation, each line carrying text the old compiler searched the C for.
NOISY = '''import symgrad as sg


def f(x, w):
    y = sg.exp(x) * 2.0 + x  # pragma omp parallel for / omp declare simd / scipy_cblas_dgemm(
    return (y * w).sum()  # SG_TU == 3 #pragma omp parallel  #if !defined(SG_TU) || SG_TU == 2
'''

X = np.linspace(-1.0, 1.0, 40)
W = np.cos(X)


def _load(tmp_path, name: str, text: str):
    path = tmp_path / f"{name}.py"
    path.write_text(text)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.f


def _source(fn):
    vg = sg.value_and_grad(fn, argnums=(0, 1))
    value, (gx, gw) = vg(X, W)
    y = np.exp(X) * 2.0 + X
    np.testing.assert_allclose(value, np.sum(y * W), rtol=1e-12)
    np.testing.assert_allclose(gx, (np.exp(X) * 2.0 + 1.0) * W, rtol=1e-12)
    np.testing.assert_allclose(gw, y, rtol=1e-12)
    return vg.last_specialization.source


@pytest.fixture(autouse=True)
def _fresh_probe():
    toolchain.has_vector_math.cache_clear()
    yield
    toolchain.has_vector_math.cache_clear()


@pytest.mark.parametrize("vector_math", ["1", "0"])
def test_user_text_in_comments_does_not_change_the_build(tmp_path, monkeypatch, vector_math):
    monkeypatch.setenv("SYMGRAD_VECTOR_MATH", vector_math)
    plain = _source(_load(tmp_path, "plain_user_module", PLAIN))
    noisy = _source(_load(tmp_path, "noisy_user_module", NOISY))
    assert "scipy_cblas_dgemm(" in noisy.text and "omp parallel for /" in noisy.text
    assert "SG_TU == 2" in noisy.text              # the quoted lines are in the C (comments)
    assert noisy.text != plain.text
    assert noisy.needs == plain.needs and noisy.units == plain.units == ("main",)
    assert not noisy.needs.blas and not noisy.needs.openmp
    a, b = compiler.plan(plain), compiler.plan(noisy)

    def commands(p):   # the .so is named after the key, which the text changes
        return {k: [arg.replace(p.so_name, "@SO@") for arg in cmd]
                for k, cmd in p.commands().items()}
    assert commands(a) == commands(b)
    assert a.key != b.key
    link, kernel = b.linking, b.kernel_cmds[0]
    assert not any("openblas" in arg for arg in link) and "-fopenmp" not in link + kernel
    if vector_math == "0":
        assert noisy.needs.vector_math == () and "-lmvec" not in link
        assert "omp declare simd notinbranch" not in noisy.text.split("*/", 1)[1]
        assert "-fno-builtin-sin" not in kernel


def test_vector_math_off_never_links_libmvec(monkeypatch):
    monkeypatch.setenv("SYMGRAD_VECTOR_MATH", "0")
    f = sg.compile(lambda x: sg.exp(sg.sin(x)) + sg.log1p(x * x))
    x = np.linspace(0.0, 2.0, 5000)
    np.testing.assert_allclose(f(x), np.exp(np.sin(x)) + np.log1p(x * x), rtol=1e-14)
    source = f.last_specialization.source
    assert source.needs.vector_math == ()
    assert "-lmvec" not in compiler.plan(source).linking


def test_vector_math_on_declares_and_links_what_loops_call(monkeypatch):
    monkeypatch.setenv("SYMGRAD_VECTOR_MATH", "1")
    if not toolchain.has_vector_math():
        pytest.skip("this C toolchain has no libmvec")
    f = sg.compile(lambda x: sg.exp(sg.sin(x)) * x)
    x = np.linspace(0.0, 2.0, 5000)
    np.testing.assert_allclose(f(x), np.exp(np.sin(x)) * x, rtol=1e-14)
    source = f.last_specialization.source
    assert source.needs.vector_math == ("exp", "sin")
    for fn in ("exp", "sin"):
        assert f"double {fn}(double);" in source.text
    assert "-lmvec" in compiler.plan(source).linking


def test_vector_body_and_scalar_tail_agree_to_the_sign_of_nan():
    """A loop's SIMD lanes (libmvec) and its scalar tail (libm) give log(-1) the same NaN:
    which element of an array it is does not change the answer. (A module linked without
    libm once bound ``log`` to glibc's oldest version, whose NaN has the other sign: the
    tail's elements disagreed with the body's.)"""
    f = sg.compile(lambda x: sg.signbit(sg.log(x)))
    for dtype in (np.float64, np.float32):
        alone = f(np.array([-1.0], dtype))[0]
        assert f(np.full(7, -1.0, dtype)).tolist() == [alone] * 7
        assert f(np.full(37, -1.0, dtype)).tolist() == [alone] * 37
