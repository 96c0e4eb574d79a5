"""Views sunk through elementwise work (passes/sink_views.py) and the reads that makes: a
permute, slice or zero-padding of an elementwise result computed in its reader's loop, a
padding of a number read from a one-element constant, a padded read along an outer loop dim
loaded at a held index and selected (no branch: the loop vectorizes).

Values against hand-derived NumPy formulas and central differences; the C checked for the
one loop over the n x n result.
"""

import re

import numpy as np
import pytest

import symgrad as sg
from references import rosenbrock, rosenbrock_hessian

RNG = np.random.default_rng(11)


def _loops_over(text: str, shape: tuple) -> int:
    """The loops writing an array of ``shape`` ("/* k0: mul -> tmp0, tmp1 [6, 4] ...")."""
    return len(re.findall(r"/\* k\d+: \w+ -> [\w, ]+ \[" + ", ".join(map(str, shape)) + r"\]",
                          text))


def test_a_dense_hessian_is_one_loop_over_its_result():
    n = 300
    x = RNG.normal(size=n)
    h = sg.hessian(rosenbrock)
    np.testing.assert_allclose(h(x), rosenbrock_hessian(x), rtol=1e-12, atol=1e-9)
    text = h.c_source
    # jacfwd's identity, the shifted reads and the final transpose: nothing n x n is stored
    # but the result, by one loop (the temporaries: vectors of n)
    workspace = int(re.search(r"workspace of (\d+) bytes", text)[1])
    assert _loops_over(text, (n, n)) == 1 and workspace < 8 * n * 8


def test_a_permuted_product_is_computed_in_the_transposed_loop():
    a, b = RNG.normal(size=(5, 7)), RNG.normal(size=(5, 7))
    f = sg.compile(lambda a, b: (a * b - a).T + 1.0)
    np.testing.assert_array_equal(f(a, b), (a * b - a).T + 1.0)
    assert _loops_over(f.c_source, (7, 5)) == 1 and _loops_over(f.c_source, (5, 7)) == 0


def test_a_transpose_read_by_a_matrix_product_stays_a_view():
    a, b, c = RNG.normal(size=(6, 4)), RNG.normal(size=(6, 4)), RNG.normal(size=(6, 3))
    f = sg.compile(lambda a, b, c: (a * b).T @ c)
    np.testing.assert_allclose(f(a, b, c), (a * b).T @ c, rtol=1e-13)
    assert _loops_over(f.c_source, (6, 4)) == 1 and _loops_over(f.c_source, (4, 6)) == 0


@pytest.mark.parametrize("dim", [0, 1])
def test_shifted_products_pad_in_their_reader(dim):
    """The gradient of a product of shifted slices: two zero-paddings, along the outer dim
    (held-index loads) or the inner one (branches)."""
    x = RNG.normal(size=(6, 5))

    def f(x):
        lo = x[1:] if dim == 0 else x[:, 1:]
        hi = x[:-1] if dim == 0 else x[:, :-1]
        return (sg.exp(lo) * hi).sum()
    g = sg.grad(f)(x)
    lo = (slice(1, None), slice(None)) if dim == 0 else (slice(None), slice(1, None))
    hi = (slice(None, -1), slice(None)) if dim == 0 else (slice(None), slice(None, -1))
    want = np.zeros_like(x)
    want[lo] += np.exp(x[lo]) * x[hi]
    want[hi] += np.exp(x[lo])
    np.testing.assert_allclose(g, want, rtol=1e-13)
    eps, e = 1e-6, np.zeros_like(x)
    e[2, 3] = eps
    fd = (sg.compile(f)(x + e) - sg.compile(f)(x - e)) / (2 * eps)
    assert abs(fd - g[2, 3]) < 1e-7


def test_a_padded_number_is_read_from_memory_not_filled_in():
    # quarters of small integers: the sum is exact in any order (NumPy's pairwise sum and the
    # compiled loop's add in different orders; with normal draws they differed by an ulp)
    x = np.random.default_rng(12).integers(-40, 41, size=(4, 6)) / 4.0

    def f(x):
        y = sg.zeros((4, 7), dtype=x.dtype)
        y[:, 1:] = 2.5
        return y * x.sum()
    f = sg.compile(f)
    want = np.zeros((4, 7))
    want[:, 1:] = 2.5 * x.sum()
    np.testing.assert_array_equal(f(x), want)


def test_an_integer_division_is_not_padded_into_its_zeros():
    """unslice(a // b) stays stored and padded: computed on the padding's zeros, 0 // 0
    would trap."""
    a = RNG.integers(1, 50, size=(5, 4))
    b = RNG.integers(1, 9, size=(5, 4))

    def f(a, b):
        y = sg.zeros((6, 4), dtype=a.dtype)
        y[1:] = a // b
        return y * 3
    want = np.zeros((6, 4), dtype=np.int64)
    want[1:] = (a // b) * 3
    np.testing.assert_array_equal(sg.compile(f)(a, b), want)


@pytest.mark.parametrize("rows", [slice(0, 1), slice(0, 2), slice(1, 3), slice(None, None, 2)])
def test_slices_of_a_padding_read_its_window_and_zeros(rows):
    """A slice of a padded view is a view with the window moved (none of it inside: the
    fill alone), never a read outside the padded array."""
    x = RNG.normal(size=(4, 5))

    def f(x):     # the gradient of a sum over x[1:]: a padding, zero in row 0
        return sg.grad(lambda z: (sg.exp(z[1:]) * 2.0).sum())(x)[rows] * 3.0 + 1.0
    want = np.zeros((4, 5))
    want[1:] = np.exp(x[1:]) * 2.0
    np.testing.assert_allclose(sg.compile(f)(x), want[rows] * 3.0 + 1.0, rtol=1e-15)


@pytest.mark.parametrize("n", [5, 1000])
def test_a_padded_vector_product_is_computed_in_its_reader(n):
    """``pad(a * b)`` of vectors: one loop over the padded result, the product computed in it
    (the reverse pass of a recurrence along a vector pads its stages' products this way); the
    values NumPy's."""
    a, b, c = RNG.normal(size=n - 1), RNG.normal(size=n - 1), RNG.normal(size=n)
    cf = sg.compile(lambda a, b, c: sg.nn.functional.pad(a * b, (0, 1)) + c)
    np.testing.assert_array_equal(np.asarray(cf(a, b, c)), np.concatenate([a * b, [0]]) + c)
    assert _loops_over(cf.c_source, (n - 1,)) == 0 and _loops_over(cf.c_source, (n,)) == 1
