"""A gather is a loop node (lower/fusion.py): its index is computed, and its values are used,
in the loop that reads the source where the index points; advanced indexing's gather is
rewritten into the index's shape for it (passes/identities.py, gather_in_the_index_shape).

Values against NumPy's indexing, gradients against central differences, the C checked for
the one fused loop, and an index out of range still an IndexError naming the line.
"""

import numpy as np
import pytest

import symgrad as sg

RNG = np.random.default_rng(5)


def _source(f, *args) -> str:
    f(*args)
    return f.last_specialization.source.text


def test_permutation_products_run_in_one_loop():
    """GradBench's det by permutations: index arithmetic, gather and product in one loop."""
    ell = 4
    import itertools
    perms = np.array(list(itertools.permutations(range(ell))), dtype=np.int64)
    signs = np.array([np.linalg.det(np.eye(ell)[p]) for p in perms])
    a = RNG.random(ell * ell)
    f = sg.compile(lambda a, p, s: (s * a.reshape(ell, ell)[sg.arange(ell), p].prod(1)).sum())
    np.testing.assert_allclose(f(a, perms, signs), np.linalg.det(a.reshape(ell, ell)),
                               rtol=1e-12)
    text = _source(f, a, perms, signs)
    assert text.count("sg_bad |=") == 1 and "gather along" not in text
    assert "prod over axes [1]" in text and "(fused:" in text


@pytest.mark.parametrize("case", ["rows", "rows_cols", "middle", "negative"])
def test_indexing_patterns_match_numpy_with_gradients(case):
    x = RNG.normal(size=(6, 4, 3))
    i = RNG.integers(0, 6, size=(5, 2))
    j = RNG.integers(0, 4, size=(2,))
    fns = {"rows": (lambda x, i: sg.sin(x[i]) * x[i].sum(-1, keepdim=True),
                    lambda x, i: np.sin(x[i]) * x[i].sum(-1, keepdims=True)),
           "rows_cols": (lambda x, i: (x[i, j] ** 2).sum(0), lambda x, i: (x[i, j] ** 2).sum(0)),
           "middle": (lambda x, i: sg.exp(x[:, j % 4]) * 2.0,
                      lambda x, i: np.exp(x[:, j % 4]) * 2.0),
           "negative": (lambda x, i: x[i - 6].cumsum(0), lambda x, i: x[i - 6].cumsum(0))}
    f, f_np = fns[case]
    got = sg.compile(f)(x, i)
    np.testing.assert_allclose(got, f_np(x, i), rtol=1e-13, atol=1e-14)
    c = RNG.normal(size=got.shape)
    g = sg.grad(lambda x, i: (f(x, i) * sg.tensor(c)).sum())(x, i)
    fd = np.zeros_like(x)
    for k in np.ndindex(x.shape):
        d = np.zeros_like(x)
        d[k] = 1e-6
        fd[k] = ((f_np(x + d, i) - f_np(x - d, i)) * c).sum() / 2e-6
    np.testing.assert_allclose(g, fd, rtol=1e-6, atol=1e-8)


def test_an_index_out_of_range_in_a_fused_loop_is_an_index_error():
    f = sg.compile(lambda x, i: (x[i] * 2.0).sum(1))
    x = RNG.normal(size=(5, 3))
    assert f(x, np.array([0, 4, 2])).shape == (3,)
    for bad in ([0, 5, 1], [-6, 0, 1]):
        with pytest.raises(IndexError, match=r"out of range.*test_gather_fusion.py"):
            f(x, np.array(bad))
