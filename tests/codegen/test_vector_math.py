"""Vectorized transcendentals (glibc's libmvec, no fast-math) stay within 4 ulp of scalar
libm, and the rest of the arithmetic is unchanged. Each function is compiled twice, with and
without vector math, and the results compared element by element in ulps."""

import numpy as np
import pytest

import symgrad as sg
from symgrad.build.c import toolchain

pytestmark = pytest.mark.skipif(not toolchain.has_vector_math(),
                                reason="no libmvec in this C toolchain (not glibc)")

RANGES = {  # function: (low, high) for float64; float32 uses the same clipped to its range
    "exp": (-700.0, 700.0), "log": (1e-300, 1e300), "log1p": (-0.999999, 1e12),
    "expm1": (-40.0, 700.0), "sin": (-1e4, 1e4), "cos": (-1e4, 1e4), "tanh": (-30.0, 30.0),
}
F32_RANGES = {"exp": (-87.0, 88.0), "log": (1e-37, 1e37), "log1p": (-0.9999, 1e12),
              "expm1": (-20.0, 88.0)}


def ulps(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Distance in units in the last place between same-dtype float arrays."""
    itype = np.int64 if a.dtype == np.float64 else np.int32
    ia, ib = a.view(itype).astype(np.int64), b.view(itype).astype(np.int64)
    # map the sign-magnitude bit patterns onto a monotonic integer line
    big = np.int64(1) << (63 if a.dtype == np.float64 else 31)
    ia = np.where(ia < 0, -(ia + big) if a.dtype == np.float64 else -(ia & (big - 1)), ia)
    ib = np.where(ib < 0, -(ib + big) if a.dtype == np.float64 else -(ib & (big - 1)), ib)
    return np.abs(ia - ib)


def _samples(name: str, dtype) -> np.ndarray:
    lo, hi = (F32_RANGES.get(name, RANGES[name]) if dtype == np.float32 else RANGES[name])
    rng = np.random.default_rng(11)
    if name == "log":   # log-uniform over the whole range
        x = np.exp(rng.uniform(np.log(lo), np.log(hi), 200_000))
    else:
        x = np.concatenate([rng.uniform(lo, hi, 150_000), rng.uniform(-2, 2, 50_000)])
        x = np.clip(x, lo, hi)
    return x.astype(dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["f32", "f64"])
@pytest.mark.parametrize("name", sorted(RANGES))
def test_vector_variant_within_4_ulp_of_scalar_libm(name, dtype, monkeypatch):
    x = _samples(name, dtype)
    fn = getattr(sg, name)
    vec = sg.compile(lambda x: fn(x))
    out_vec = vec(x)
    assert "omp declare simd" in vec.c_source
    monkeypatch.setenv("SYMGRAD_VECTOR_MATH", "0")
    toolchain.has_vector_math.cache_clear()
    scalar = sg.compile(lambda x: fn(x))
    out_scalar = scalar(x)
    assert "omp declare simd" not in scalar.c_source
    finite = np.isfinite(out_scalar)
    np.testing.assert_array_equal(np.isfinite(out_vec), finite)
    worst = int(ulps(out_vec[finite], out_scalar[finite]).max())
    assert worst <= 4, f"{name} {np.dtype(dtype).name}: {worst} ulp"


def test_pow_and_a_fused_loop_within_4_ulp(monkeypatch):
    rng = np.random.default_rng(5)
    x, y = rng.uniform(0.01, 50, 100_000), rng.uniform(-8, 8, 100_000)
    f = lambda a, b: a ** b + sg.sin(a) * sg.exp(-a * 0.1)  # noqa: E731
    vec = sg.compile(f)(x, y)
    monkeypatch.setenv("SYMGRAD_VECTOR_MATH", "0")
    toolchain.has_vector_math.cache_clear()
    scalar = sg.compile(f)(x, y)
    # a sum of terms within 4 ulp each: compare relative to the terms' scale
    np.testing.assert_allclose(vec, scalar, rtol=1e-14, atol=1e-15)


def test_plain_arithmetic_is_bit_identical_with_vector_math(monkeypatch):
    rng = np.random.default_rng(6)
    x, y = rng.standard_normal(10_001), rng.standard_normal(10_001)
    f = lambda a, b: (a * b + a / (b + 3.0) - b * b) * 0.5  # noqa: E731
    vec = sg.compile(f)(x, y)
    monkeypatch.setenv("SYMGRAD_VECTOR_MATH", "0")
    toolchain.has_vector_math.cache_clear()
    np.testing.assert_array_equal(vec, sg.compile(f)(x, y))
    np.testing.assert_array_equal(vec, f(x, y))   # and IEEE-equal to NumPy


@pytest.fixture(autouse=True)
def _fresh_probe():
    """``SYMGRAD_VECTOR_MATH`` is read when the toolchain is probed (once per process)."""
    toolchain.has_vector_math.cache_clear()
    yield
    toolchain.has_vector_math.cache_clear()


@pytest.mark.parametrize("n", [2, 3, 4, 8])
def test_only_loops_of_a_vector_or_more_are_marked_simd(n):
    # `omp simd` forces vectorization: on 2 or 3 elements that is slower than the plain loop
    # (codegen.c.loops.SIMD_MIN); the results are the same either way.
    from symgrad.codegen.c.loops import SIMD_MIN
    f = sg.compile(lambda x: sg.exp(x) * x)
    x = np.linspace(-1.0, 1.0, n)
    np.testing.assert_allclose(f(x), np.exp(x) * x, rtol=1e-15)
    assert ("#pragma omp simd" in f.c_source) == (n >= SIMD_MIN)


def test_a_large_loop_of_vector_math_prefers_wide_vectors_on_any_thread_count():
    """The function of a large loop that calls libmvec asks for 512-bit vectors where the CPU
    has them (codegen/c/regions.py, WIDE); its results are the same bits on one thread and
    two, and within 4 ulp of NumPy's exp (another libm)."""
    x = np.random.default_rng(3).uniform(-30, 30, 300_000)
    f = sg.compile(lambda x: (sg.exp(x) * 0.5).sum())
    g = sg.compile(lambda x: sg.exp(x) * 0.5)
    before = sg.config.settings.num_threads
    try:
        sg.set_num_threads(1)
        one = f(x), g(x)
        sg.set_num_threads(2)
        two = f(x), g(x)
    finally:
        sg.config.settings.num_threads = before
    assert one[0] == two[0] and np.array_equal(one[1], two[1])
    for fn in (f, g):
        text = fn.c_source
        wide = text.index('__attribute__((target("prefer-vector-width=512")))')
        assert text.index("static void", wide) < text.index("exp(", wide)
    assert ulps(one[1], np.exp(x) * 0.5).max() <= 4
    assert one[0] == pytest.approx((np.exp(x) * 0.5).sum(), rel=1e-13)
