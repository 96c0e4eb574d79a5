"""Sparse derivatives: sparsity patterns against dense Jacobians, colorings checked for
validity, and the compressed-and-recovered values against dense Jacobians and Hessians (which
tests/transforms/test_transforms.py checks against finite differences).
"""

import numpy as np
import pytest

import symgrad as sg
from symgrad.api.compiled import CompiledFunction
from symgrad.frontend.core.apply import apply
from symgrad.transforms import coloring, sparsity
from symgrad.transforms.jacobians import jacrev_call

from .samples import NOT_DIFFERENTIATED, sample, sampled_ops

sp = pytest.importorskip("scipy.sparse")
RNG = np.random.default_rng(3)


def _pattern_of(fn, *args, argnums=(0,)):
    graph = CompiledFunction(fn).trace(*args).graph
    return sparsity.pattern(graph, list(argnums)).toarray()


def _numeric_pattern(fn, *args):
    """Where the dense Jacobian (w.r.t. the first argument) is nonzero at random points."""
    found = None
    jac = sg.jacrev(fn)
    for _ in range(2):
        a = [RNG.normal(size=np.shape(args[0]))] + list(args[1:])
        j = np.asarray(jac(*a)).reshape(-1, np.size(args[0])) != 0
        found = j if found is None else found | j
    return found


FUNCTIONS = {
    "elementwise": lambda x: sg.sin(x) * sg.flip(x, [0]) + x[0],
    "reduction": lambda x: sg.stack([x[:3].sum(), (x[2:] ** 2).sum()]),
    "matmul": lambda x: x.reshape(2, 3) @ sg.tensor(np.arange(1.0, 13.0).reshape(3, 4)),
    "cat_and_slices": lambda x: sg.cat([x[1:] - x[:-1], x[::2] * 2]),
    "cumsum": lambda x: sg.cumsum(sg.exp(x), 0),
    "gather": lambda x: x[sg.tensor(np.array([5, 0, 0, 3]))] * 2,
    "scatter": lambda x: sg.zeros(4, dtype=sg.float64).index_add(
        0, sg.tensor(np.array([1, 1, 3, 0, 2, 2])), x),
    "matrix": lambda x: sg.linalg.solve(sg.tensor(np.eye(2) * 3) + x[:4].reshape(2, 2),
                                       x[4:]),
}


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_patterns_are_exactly_the_structure(name):
    fn = FUNCTIONS[name]
    x = RNG.normal(size=6)
    structural = _pattern_of(fn, x)
    numeric = _numeric_pattern(fn, x)
    assert structural.shape == numeric.shape
    np.testing.assert_array_equal(structural, numeric)


@pytest.mark.parametrize("name", sampled_ops())
def test_every_op_pattern_covers_its_jacobian(name):
    operands, attrs = sample(name, np.random.default_rng(sum(map(ord, name))))
    skip = NOT_DIFFERENTIATED.get(name, ())
    floats = [i for i, a in enumerate(operands) if a.dtype.kind == "f" and i not in skip]
    if not floats:
        return
    k = floats[0]

    def f(x):
        full = [sg.tensor(a) for a in operands]
        full[k] = x
        return apply(name, *full, **attrs)
    out = f(sg.tensor(operands[k]))
    if not out.dtype.is_floating:
        assert not _pattern_of(f, operands[k]).any()
        return
    structural = _pattern_of(f, operands[k])
    jac = jacrev_call(f, (sg.tensor(operands[k]),), 0, False, name)     # eagerly
    jac = jac.detach().numpy().reshape(structural.shape)
    missing = (jac != 0) & ~structural
    assert not missing.any(), f"{name}: the pattern misses {np.argwhere(missing)[:5]}"


def _random_pattern(m, n, density, seed):
    return sp.random(m, n, density=density, random_state=seed, format="csr") != 0


@pytest.mark.parametrize("seed", range(6))
def test_colorings_are_valid(seed):
    P = _random_pattern(30, 25, 0.1, seed)
    colors = coloring.column_coloring(P)
    assert coloring.valid_column_coloring(P, colors)
    assert colors.max() + 1 >= P.sum(axis=1).max()      # a row's columns all differ
    H = _random_pattern(25, 25, 0.08, seed + 100)
    H = (H + H.T + sp.eye(25, dtype=bool)) != 0
    star = coloring.star_coloring(H)
    assert coloring.valid_star_coloring(H, star)
    assert not coloring.valid_star_coloring(H, np.zeros(25, np.int64)) or H.nnz == 25


def test_star_coloring_of_an_arrowhead_needs_two_colors():
    n = 12
    H = np.eye(n, dtype=bool)
    H[0, :] = H[:, 0] = True
    colors = coloring.star_coloring(sp.csr_matrix(H))
    assert colors.max() + 1 == 2 and coloring.valid_star_coloring(sp.csr_matrix(H), colors)
    assert coloring.column_coloring(sp.csr_matrix(H)).max() + 1 == n   # distance-2: n


def rosenbrock(x):
    return (100 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2).sum()


def test_sparse_hessian_of_rosenbrock():
    x = RNG.normal(size=30)
    H = sg.sparse.hessian(rosenbrock)
    M = H(x)
    assert isinstance(M, sp.csr_matrix) and M.nnz == 30 + 2 * 29
    np.testing.assert_allclose(M.toarray(), sg.hessian(rosenbrock)(x), rtol=1e-13, atol=1e-12)
    assert H.plan(x).n_colors == 3 and H.plan(x).mode == "star"
    # the same pattern at every call; out= refills the values in place
    y = RNG.normal(size=30)
    M2 = H(y, out=M)
    assert M2 is M
    np.testing.assert_allclose(M.toarray(), sg.hessian(rosenbrock)(y), rtol=1e-13, atol=1e-12)
    with pytest.raises(ValueError, match="out="):
        H(y, out=sp.csr_matrix((30, 30)))


def residuals(p, data):
    """A curve fit's residuals: each depends on the two parameters of its own segment."""
    a, b = p[0::2], p[1::2]
    return (a[:, None] * sg.exp(-b[:, None] * data[None, :]) - 1.0).reshape(-1)


def test_sparse_jacobian_matches_the_dense_one():
    p, data = RNG.uniform(0.5, 1.5, size=20), np.linspace(0.1, 1, 7)
    J = sg.sparse.jacobian(residuals)
    M = J(p, data)
    dense = sg.jacfwd(residuals)(p, data)
    np.testing.assert_allclose(M.toarray(), dense, rtol=1e-13, atol=1e-14)
    assert M.nnz == np.count_nonzero(dense) and J.plan(p, data).n_colors == 2
    text = str(sg.inspect(J, p, data, print_=False))
    assert "sparsity pattern" in text and "2 colors" in text


def test_wide_jacobians_use_reverse_mode():
    def f(x):
        return sg.stack([x[:50].sum(), (x[50:] ** 2).sum()])
    x = RNG.normal(size=100)
    J = sg.sparse.jacobian(f)
    np.testing.assert_allclose(J(x).toarray(), sg.jacrev(f)(x), rtol=1e-13)
    assert J.plan(x).mode == "reverse" and J.plan(x).n_colors == 1


def test_index_arguments_keep_the_pattern_sparse():
    """Integer arguments that are not differentiated are the structure (which elements meet
    which): the pattern is of their values, while the kernel reads them at each call as any
    array its function holds. They were read as unknown indices after the captured-state
    change (a3fc79b), which made the bundle-adjustment Jacobian dense (OOM at ADBench's
    size); a new index value is a new plan, checked here against the dense Jacobian."""
    def residuals(cams, points, cam_idx, pt_idx):
        c, x = cams[cam_idx], points[pt_idx]
        return (c[:, :2] * x.sum(1, keepdim=True) + c[:, 2:3] * x[:, :2]).reshape(-1)

    cams, points = RNG.normal(size=(4, 3)), RNG.normal(size=(9, 3))
    cam_idx = np.array([0, 1, 2, 3, 1, 0, 2, 3, 1, 0, 2, 3], dtype=np.int64)
    pt_idx = np.array([0, 1, 2, 3, 4, 5, 6, 7, 8, 0, 1, 2], dtype=np.int64)
    J = sg.sparse.jacobian(residuals, argnums=(0, 1))
    for shift in (0, 5):
        ci = np.roll(cam_idx, shift)
        M = J(cams, points, ci, pt_idx)
        dense = np.hstack([np.asarray(d).reshape(24, -1) for d in sg.jacfwd(
            residuals, argnums=(0, 1))(cams, points, ci, pt_idx)])
        np.testing.assert_allclose(M.toarray(), dense, rtol=1e-13, atol=1e-14)
        # each residual reads one camera's 3 values and one point's 3: 6 per row at most
        assert M.nnz == np.count_nonzero(dense) <= 6 * 24


@pytest.mark.parametrize("seed", range(12))
def test_the_coloring_skipped_is_one_that_could_not_win(seed):
    """``_jacobian_coloring`` makes the second coloring only when it could take fewer colors
    than the first (a row coloring needs as many as a column has entries; a column coloring
    as many as a row has): it chooses what making both and comparing chooses."""
    import scipy.sparse as sps
    from symgrad.api.sparse import _jacobian_coloring
    rng = np.random.default_rng(seed)
    m, n = rng.integers(1, 40, size=2)
    P = sps.random(m, n, density=rng.uniform(0.02, 0.5), format="csr", random_state=seed,
                   data_rvs=lambda k: np.ones(k)).astype(bool)
    P.sort_indices()
    by_columns = coloring.column_coloring(P)
    by_rows = coloring.column_coloring(P.T)
    want = "forward" if coloring.n_colors(by_columns) <= coloring.n_colors(by_rows) \
        else "reverse"
    mode, colors, _, _ = _jacobian_coloring(P)
    assert mode == want
    np.testing.assert_array_equal(colors, by_columns if want == "forward" else by_rows)
