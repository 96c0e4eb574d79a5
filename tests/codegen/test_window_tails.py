"""A 1-D loop whose loads stop short of its end (the gradient of a shift, ``x[1:]``'s padding)
runs as a loop without that test and a short tail with it (``codegen.c.loops.TAIL_MAX``):
values against NumPy, one thread and two the same bits, and the C's form."""

from __future__ import annotations

import re

import numpy as np
import pytest

import symgrad as sg
from symgrad.codegen.c import loops


def _shifted(x, y):
    """Reads of x one and three elements ahead (windows that stop 1 and 3 short of the end)
    and one behind (a window from below), all in one loop."""
    ahead = sg.cat([x[1:], sg.zeros(1, dtype=x.dtype)])
    far = sg.cat([x[3:] * 2, sg.zeros(3, dtype=x.dtype)])
    behind = sg.cat([sg.ones(1, dtype=x.dtype), y[:-1]])
    return ahead * y + far - behind * x


def _shifted_np(x, y):
    ahead = np.concatenate([x[1:], np.zeros(1, x.dtype)])
    far = np.concatenate([x[3:] * 2, np.zeros(3, x.dtype)])
    behind = np.concatenate([np.ones(1, x.dtype), y[:-1]])
    return ahead * y + far - behind * x


@pytest.mark.parametrize("n", [5, 9, 64, 1000, 100_003])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_values_and_form(n, dtype, thread_count):
    rng = np.random.default_rng(n)
    x, y = rng.standard_normal(n).astype(dtype), rng.standard_normal(n).astype(dtype)
    cf = sg.compile(_shifted)
    sg.set_num_threads(1)
    one = np.asarray(cf(x, y))
    sg.set_num_threads(2)
    two = np.asarray(cf(x, y))
    want = _shifted_np(x, y)
    assert one.dtype == want.dtype
    np.testing.assert_array_equal(one, want)       # the same operations on the same values
    np.testing.assert_array_equal(one.view(np.uint8), two.view(np.uint8))
    text = cf.c_source
    tail = re.search(rf"for \(int64_t i0 = {n - 3}; i0 < {n}; i0\+\+\)", text)
    if n - 3 >= loops.SIMD_MIN:
        assert tail, text
        # the loop before the tail reads ahead with no test; the tail keeps it
        assert re.search(r"= in0\[1 \+ i0\];", text) and f"(i0 < {n - 1})" in text
    else:
        assert not tail


def test_the_gradient_of_a_shift_matches_central_differences():
    """A recurrence's reverse pass (the ODE's kind: each stage reads the one before shifted):
    its loops read the next element's cotangent, loads that stop one short of the end."""
    rng = np.random.default_rng(1)
    x0 = rng.random(300)

    def f(x):
        y = x
        for _ in range(3):
            y = x * sg.cat([sg.ones(1, dtype=x.dtype), y[:-1]]) + 0.5 * y
        return (y * y).sum()

    g = np.asarray(sg.grad(f)(x0))
    h = 1e-6
    fd = np.array([(f(sg.tensor(x0 + h * e)).item() - f(sg.tensor(x0 - h * e)).item()) / (2 * h)
                   for e in np.eye(len(x0))])
    np.testing.assert_allclose(g, fd, rtol=1e-6, atol=1e-8)
    assert re.search(r"for \(int64_t i0 = 299; i0 < 300; i0\+\+\)",
                     sg.inspect(sg.grad(f), x0).c_source)
