"""Sparse Jacobians colored with the variables' gathered values as variables
(transforms/localize.py), each color's product a pass of its own (api/sparse.py) and the
nonzeros read by strided slices (transforms/compressed.py).

Values against central differences in float64 (an oracle independent of symgrad's
derivatives) and the plans' colorings against what the structure allows.
"""

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import symgrad as sg
from symgrad.frontend.core.tensor import Tensor
from symgrad.transforms import compressed

sp = pytest.importorskip("scipy.sparse")
RNG = np.random.default_rng(29)


def central(fn, args, argnums, eps=1e-6):
    """The dense Jacobian of ``fn``'s outputs (flattened, concatenated) with respect to
    ``args[argnums]`` (likewise), by central differences, float64."""
    def flat(a):
        out = fn(*a)
        out = out if isinstance(out, tuple) else (out,)
        return np.concatenate([np.asarray(o, np.float64).ravel() for o in out])
    cols = []
    for i in argnums:
        for k in range(np.size(args[i])):
            up, down = [list(args), list(args)]
            for a, sign in ((up, 1), (down, -1)):
                x = np.array(args[i], np.float64)
                x.flat[k] += sign * eps
                a[i] = x
            cols.append((flat(up) - flat(down)) / (2 * eps))
    return np.stack(cols, 1)


def observations(n_cams=4, n_pts=9, n_obs=40, seed=0):
    """A small bundle adjustment's inputs: cameras, points, weights, features and the
    observations' camera and point indices (every camera and point seen)."""
    r = np.random.default_rng(seed)
    cams = r.normal(size=(n_cams, 5))
    cams[:, 4] = r.uniform(1, 2, size=n_cams)
    pts = r.normal(size=(n_pts, 3))
    pts[:, 2] += 5.0
    w = r.uniform(0.5, 1.5, size=n_obs)
    feats = r.normal(size=(n_obs, 2))
    cam_idx = np.arange(n_obs) % n_cams
    pt_idx = r.permutation(np.arange(n_obs) % n_pts)
    return cams, pts, w, feats, cam_idx.astype(np.int64), pt_idx.astype(np.int64)


def residuals_in(m):
    """Per observation: a camera's shift, rotation angle about z and focal length applied to
    its point, projected; and the weight's own residual (``m``: symgrad or NumPy)."""
    def residuals(cams, pts, w, feats, cam_idx, pt_idx):
        c, x = cams[cam_idx], pts[pt_idx]
        cos, sin = m.cos(c[:, 2:3]), m.sin(c[:, 2:3])
        u = cos * x[:, 0:1] - sin * x[:, 1:2] + c[:, 0:1]
        v = sin * x[:, 0:1] + cos * x[:, 1:2] + c[:, 1:2]
        proj = m.concatenate([u, v], 1) / (x[:, 2:3] + c[:, 3:4]) * c[:, 4:5]
        return (w[:, None] * (proj - feats)).reshape(-1), 1 - w * w
    return residuals


residuals, residuals_np = residuals_in(sg), residuals_in(np)


def test_gathered_variables_are_colored_as_local_variables():
    """A camera seen by 10 observations makes 20 rows share its columns: the rows colored as
    they are need 20 colors or more, the gathered values' rows 3 (an observation's two
    residuals and its weight's); the values against central differences."""
    args = observations()
    J = sg.sparse.jacobian(residuals, argnums=(0, 1, 2))
    M = J(*args)
    want = central(residuals_np, args, (0, 1, 2))
    np.testing.assert_allclose(M.toarray(), want, rtol=1e-7, atol=1e-8)
    plan = J.plan(*args)
    assert plan.local is not None and plan.mode == "reverse" and plan.n_colors == 3
    # every structural nonzero is stored, nothing else (an output that does not move with
    # an input has a difference of exactly zero)
    assert M.nnz == np.count_nonzero(want)
    text = str(sg.inspect(J, *args, print_=False))
    assert "gathered values as variables" in text
    # the nonzeros are read by strided slices: the kernel's only gathers are the function's
    ir = sg.inspect(J, *args, print_=False).optimized_ir
    assert ir.count("= gather") == 2


def test_a_row_that_reads_one_element_twice_sums_both_entries():
    """x[i] * x[j] with i == j in some rows: both gathered entries are one column's."""
    x = RNG.normal(size=6)
    i = np.array([0, 1, 2, 3, 4, 5, 1, 2], np.int64)
    j = np.array([0, 2, 2, 5, 1, 5, 3, 2], np.int64)

    def f(x, i, j):
        return sg.sin(x[i]) * x[j] + x[j] ** 2

    def f_np(x, i, j):
        return np.sin(x[i]) * x[j] + x[j] ** 2
    J = sg.sparse.jacobian(f)
    np.testing.assert_allclose(J(x, i, j).toarray(), central(f_np, (x, i, j), (0,)),
                               rtol=1e-7, atol=1e-9)
    assert J.plan(x, i, j).local is not None


def test_a_variable_read_directly_and_gathered():
    x = RNG.normal(size=(5, 2))
    idx = np.array([4, 0, 0, 3, 2], np.int64)

    def f(x, idx):
        return (x * sg.exp(x[idx])).sum(1) + x[idx][:, 0] * x[:, 1]

    def f_np(x, idx):
        return (x * np.exp(x[idx])).sum(1) + x[idx][:, 0] * x[:, 1]
    J = sg.sparse.jacobian(f)
    np.testing.assert_allclose(J(x, idx).toarray(), central(f_np, (x, idx), (0,)),
                               rtol=1e-7, atol=1e-9)


def test_few_inputs_per_observation_use_forward_mode():
    """Each observation's 6 outputs read 2 gathered values: 2 columns colors (forward mode),
    where the rows would need 6."""
    x = RNG.uniform(0.5, 1.5, size=(7, 2))
    idx = np.array([0, 1, 2, 3, 4, 5, 6, 0, 3, 6, 2], np.int64)
    k = np.arange(1.0, 4.0)

    def f(x, idx):
        g = x[idx]
        k = sg.tensor([1.0, 2.0, 3.0])
        return (g[:, :1] * sg.exp(-g[:, 1:] * k)).reshape(-1), g[:, 0] * g[:, 1]

    def f_np(x, idx):
        g = x[idx]
        return (g[:, :1] * np.exp(-g[:, 1:] * k)).reshape(-1), g[:, 0] * g[:, 1]
    J = sg.sparse.jacobian(f)
    np.testing.assert_allclose(J(x, idx).toarray(), central(f_np, (x, idx), (0,)),
                               rtol=1e-7, atol=1e-9)
    plan = J.plan(x, idx)
    assert plan.local is not None and plan.mode == "forward" and plan.n_colors == 2


def test_a_function_holding_an_array_reads_it_at_each_call():
    """An array the function holds (captured state) is read by the localized kernel at each
    call, as by the function: a change to it in place is seen."""
    x = RNG.normal(size=4)
    idx = np.array([3, 0, 1, 1, 2], np.int64)
    scale = np.array([1.0, 2.0, 3.0, 4.0, 5.0])

    def f(x, idx):
        return x[idx] ** 2 * sg.tensor(scale)

    J = sg.sparse.jacobian(f)
    for _ in range(2):
        want = central(lambda x, idx: x[idx] ** 2 * scale, (x, idx), (0,))
        np.testing.assert_allclose(J(x, idx).toarray(), want, rtol=1e-7, atol=1e-9)
        assert J.plan(x, idx).local is not None
        scale[1] = 7.0


def test_colors_past_the_unrolled_ones_are_batched(monkeypatch):
    """The same Jacobian with every color a pass of its own and with the colors batched."""
    args = observations(seed=3)
    want = central(residuals_np, args, (0, 1, 2))
    for unrolled in (16, 1):
        monkeypatch.setattr(compressed, "UNROLL_COLORS", unrolled)
        J = sg.sparse.jacobian(residuals, argnums=(0, 1, 2))
        np.testing.assert_allclose(J(*args).toarray(), want, rtol=1e-7, atol=1e-8)


def test_indices_changed_in_place_make_a_new_plan():
    """The plan is found again by comparing the index values with the last call's copies:
    the same array changed in place is another structure."""
    args = list(observations(seed=5))
    J = sg.sparse.jacobian(residuals, argnums=(0, 1, 2))
    first = J.plan(*args)
    assert J.plan(*[a.copy() for a in args]) is first       # equal values: the same plan
    args[4][:3] = args[4][:3][::-1].copy() + 1
    args[4] %= 4
    M = J(*args)
    assert J.plan(*args) is not first
    np.testing.assert_allclose(M.toarray(), central(residuals_np, args, (0, 1, 2)),
                               rtol=1e-7, atol=1e-8)


def test_a_fresh_process_with_other_indices_is_not_served_the_first_ones(tmp_path):
    """Two processes, one cache directory, index arrays of the same shapes and other values:
    each gets its own Jacobian (the kernel's constants are in its warm-start key)."""
    program = textwrap.dedent(f'''
        import sys
        sys.path.insert(0, {os.path.dirname(__file__)!r})
        import numpy as np
        import symgrad as sg
        from test_sparse_local import central, observations, residuals, residuals_np
        args = observations(seed=int(sys.argv[1]))
        M = sg.sparse.jacobian(residuals, argnums=(0, 1, 2))(*args)
        err = abs(M.toarray() - central(residuals_np, args, (0, 1, 2))).max()
        print("ERR", err)
    ''')
    (tmp_path / "prog.py").write_text(program)
    env = {k: v for k, v in os.environ.items() if not k.startswith("SYMGRAD_")}
    env["SYMGRAD_CACHE_DIR"] = str(tmp_path / "cache")
    for seed in (1, 2, 1):
        done = subprocess.run([sys.executable, str(tmp_path / "prog.py"), str(seed)],
                              capture_output=True, text=True, env=env, timeout=300)
        assert done.returncode == 0, done.stderr
        assert float(done.stdout.split("ERR ")[1]) < 1e-6, (seed, done.stdout)


def _eager(a) -> Tensor:
    return Tensor(np.asarray(a, np.float64), None)


def test_periodic_entries_are_read_as_strided_columns():
    """``nonzeros`` against NumPy indexing, for a range with a period (three parts, runs of
    consecutive offsets, a zero entry), one without (a gather) and summed entries."""
    R = 5
    parts = [np.arange(R * 4) * 1.0, 100 + np.arange(R * 2) * 1.0, 1000 + np.arange(R) * 1.0]
    starts = np.cumsum([0] + [p.size for p in parts])
    product = compressed.Product([_eager(p) for p in parts],
                                 lambda at: (np.searchsorted(starts, at, "right") - 1,
                                             at - starts[np.searchsorted(starts, at, "right")
                                                         - 1]),
                                 frozenset({R}))
    flat = np.concatenate(parts + [np.zeros(1)])
    # per repeat r: part 0 offsets 4r+1, 4r+2, 4r+3, part 2 offset r, part 1 offset 2r+1
    period = np.array([[starts[0] + 4 * r + 1, starts[0] + 4 * r + 2, starts[0] + 4 * r + 3,
                        starts[2] + r, starts[1] + 2 * r + 1] for r in range(R)]).ravel()
    scattered = np.array([3, 17, 0, 22, 9, 9], np.int64)
    at = np.concatenate([period, scattered])
    bounds = [(0, period.size), (period.size, at.size)]
    got = compressed.nonzeros(product, at, None, at.size, bounds).numpy()
    np.testing.assert_array_equal(got, flat[at])
    part, offset = product.where(at)            # the period is slices, the rest a gather
    assert compressed._periodic(product, part[:period.size], offset[:period.size]) is not None
    assert compressed._periodic(product, part[period.size:], offset[period.size:]) is None
    # into: the nonzero each entry adds to (a permutation; then two entries into one)
    into = np.random.default_rng(0).permutation(at.size)
    got = compressed.nonzeros(product, at, into, at.size, bounds).numpy()
    want = np.empty(at.size)
    want[into] = flat[at]
    np.testing.assert_array_equal(got, want)
    pairs = at[:30]
    got = compressed.nonzeros(product, pairs, np.arange(30) // 2, 15, [(0, 15)]).numpy()
    np.testing.assert_array_equal(got, flat[pairs].reshape(-1, 2).sum(1))


@pytest.mark.parametrize("seed", range(10))
def test_random_gathered_structures_against_the_dense_jacobian(seed):
    """Random index arrays (repeats, one element read twice in a row, reshaped sources, a
    variable also read directly) into a few per-row formulas: the sparse Jacobian equals the
    dense one by central differences, whichever coloring it takes."""
    r = np.random.default_rng(seed)
    n_a, n_b, rows = r.integers(2, 6), r.integers(2, 9), r.integers(3, 25)
    a, b = r.normal(size=(n_a, 3)), r.uniform(0.5, 1.5, size=n_b * 2)
    ia, ib = r.integers(0, n_a, rows), r.integers(0, n_b, rows)
    ib2 = np.where(r.random(rows) < 0.3, ib, r.integers(0, n_b, rows))
    direct = bool(seed % 2)

    def formula(m):
        def f(a, b, ia, ib, ib2):
            B = b.reshape(-1, 2)
            ga, gb, gb2 = a[ia], B[ib], B[ib2]
            out = m.sin(ga[:, :2]) * gb + ga[:, 2:3] * gb2 ** 2
            extra = (ga * ga).sum(1) * gb[:, 0]
            if direct:
                extra = extra + b[:rows % b.shape[0] + 1].sum()
            return out.reshape(-1), extra
        return f
    f, f_np = formula(sg), formula(np)
    args = (a, b, ia.astype(np.int64), ib.astype(np.int64), ib2.astype(np.int64))
    J = sg.sparse.jacobian(f, argnums=(0, 1))
    M = J(*args)
    want = central(f_np, args, (0, 1))
    np.testing.assert_allclose(M.toarray(), want, rtol=1e-7, atol=1e-8)
    assert M.nnz >= np.count_nonzero(want)
    assert J.plan(*args).local is not None


ACT = sg.sin


def test_what_the_function_reads_besides_its_arguments_keeps_its_plan_current():
    """A tensor the function holds is read by the plan's kernel at each call (the same
    plan); an array's value the trace read as a number, or a global rebound, makes a new
    plan (its pattern, coloring and kernel are of the trace that read them)."""
    x = RNG.normal(size=4)
    idx = np.array([3, 0, 1, 1, 2], np.int64)
    weight = sg.tensor(np.array([1.0, 2.0, 3.0, 4.0, 5.0]))
    offset = np.array([0.5])

    def f(x, idx):
        return sg.sin(x[idx]) * weight

    def g(x, idx):
        return x[idx] ** 2 * float(offset[0])      # read as a number while traced

    def h(x, idx):
        return ACT(x[idx]) * 2.0
    J, K, L = sg.sparse.jacobian(f), sg.sparse.jacobian(g), sg.sparse.jacobian(h)
    plans = []
    for _ in range(2):
        w, o = weight.numpy().copy(), float(offset[0])
        act = np.sin if ACT is sg.sin else np.cos
        np.testing.assert_allclose(J(x, idx).toarray(), central(
            lambda x, idx: np.sin(x[idx]) * w, (x, idx), (0,)), rtol=1e-7, atol=1e-9)
        np.testing.assert_allclose(K(x, idx).toarray(), central(
            lambda x, idx: x[idx] ** 2 * o, (x, idx), (0,)), rtol=1e-7, atol=1e-9)
        np.testing.assert_allclose(L(x, idx).toarray(), central(
            lambda x, idx: act(x[idx]) * 2.0, (x, idx), (0,)), rtol=1e-7, atol=1e-9)
        plans.append([D.plan(x, idx) for D in (J, K, L)])
        assert all(p.local is not None for p in plans[-1])
        with sg.no_grad():
            weight.mul_(3.0)
        offset[0] = 4.0
        globals()["ACT"] = sg.cos
    globals()["ACT"] = sg.sin
    assert plans[0][0] is plans[1][0]
    assert plans[0][1] is not plans[1][1] and plans[0][2] is not plans[1][2]
