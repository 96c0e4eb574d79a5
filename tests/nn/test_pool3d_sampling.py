"""3-d pooling (``F.max_pool3d avg_pool3d adaptive_avg_pool3d adaptive_max_pool3d lp_pool3d
max_unpool3d`` and their modules) and spatial-transformer sampling (``affine_grid
grid_sample``): NumPy oracles, central-difference gradients, the same values compiled, and
torch when it is installed. The sweep compares the functions' samples with torch; this file
holds compilation, the modules and torch-free checks.
"""

from __future__ import annotations

import numpy as np
import pytest

import symgrad
import symgrad.nn.functional as F

RNG = np.random.default_rng(3)
X = RNG.normal(size=(2, 3, 4, 5, 6))


def _windows_max(x: np.ndarray, k: int) -> np.ndarray:
    n, c, d, h, w = x.shape
    cut = x[:, :, :d // k * k, :h // k * k, :w // k * k]
    blocks = cut.reshape(n, c, d // k, k, h // k, k, w // k, k)
    return blocks.max(axis=(3, 5, 7)), blocks.mean(axis=(3, 5, 7))


def test_values_against_numpy():
    x = symgrad.tensor(X)
    want_max, want_mean = _windows_max(X, 2)
    np.testing.assert_allclose(F.max_pool3d(x, 2).numpy(), want_max)
    np.testing.assert_allclose(F.avg_pool3d(x, 2).numpy(), want_mean, rtol=1e-14)
    # adaptive to (2, 1, 3): bins [0, 2) [2, 4) x [0, 5) x pairs of columns
    want = X.reshape(2, 3, 2, 2, 1, 5, 3, 2).mean(axis=(3, 5, 7))
    np.testing.assert_allclose(F.adaptive_avg_pool3d(x, (2, 1, 3)).numpy(), want, rtol=1e-14)
    want = X.reshape(2, 3, 2, 2, 1, 5, 3, 2).max(axis=(3, 5, 7))
    np.testing.assert_allclose(F.adaptive_max_pool3d(x, (2, 1, 3)).numpy(), want)
    lp = F.lp_pool3d(symgrad.tensor(np.abs(X)), 2, 2).numpy()
    cut = np.abs(X)[:, :, :4, :4, :6].reshape(2, 3, 2, 2, 2, 2, 3, 2)
    np.testing.assert_allclose(lp, np.sqrt((cut ** 2).sum(axis=(3, 5, 7))), rtol=1e-13)


def test_unpool_inverts_pool():
    x = symgrad.tensor(RNG.normal(size=(1, 2, 4, 4, 6)))
    values, indices = F.max_pool3d(x, 2, return_indices=True)
    restored = F.max_unpool3d(values, indices, 2)
    assert restored.shape == x.shape
    again = F.max_pool3d(restored, 2)
    np.testing.assert_array_equal(again.numpy(), values.numpy())
    flat = restored.numpy().reshape(1, 2, -1)
    np.testing.assert_array_equal(np.take_along_axis(flat, indices.numpy().reshape(1, 2, -1),
                                                     -1), values.numpy().reshape(1, 2, -1))


@pytest.mark.parametrize("fn", [
    lambda x: F.max_pool3d(x, (2, 3, 2), stride=(1, 2, 2), padding=1, ceil_mode=True),
    lambda x: F.avg_pool3d(x, 3, 2, 1, count_include_pad=False),
    lambda x: F.adaptive_avg_pool3d(x, (3, 2, 4)),
    lambda x: F.adaptive_max_pool3d(x, (3, 2, 4)),
    lambda x: F.lp_pool3d(x, 3, 2),
])
def test_gradients_against_central_differences(fn):
    x0 = RNG.normal(size=(1, 2, 3, 4, 5)) + 3.0
    weights = RNG.normal(size=tuple(fn(symgrad.tensor(x0)).shape))
    t = symgrad.tensor(x0, requires_grad=True)
    (fn(t) * symgrad.tensor(weights)).sum().backward()
    eps, flat = 1e-6, x0.reshape(-1)
    numeric = np.empty_like(flat)
    for i in range(flat.size):
        up, down = flat.copy(), flat.copy()
        up[i] += eps
        down[i] -= eps
        f = [float((fn(symgrad.tensor(v.reshape(x0.shape))).numpy() * weights).sum())
             for v in (up, down)]
        numeric[i] = (f[0] - f[1]) / (2 * eps)
    np.testing.assert_allclose(t.grad.numpy().reshape(-1), numeric, rtol=1e-6, atol=1e-7)


def test_compiled_matches_eager():
    def f(x):
        return (F.max_pool3d(x, 2).sum() + F.avg_pool3d(x, 2, 1).sum()
                + F.adaptive_avg_pool3d(x, (2, 3, 2)).sum()
                + F.adaptive_max_pool3d(x, 2).sum())

    x = symgrad.tensor(X)
    compiled = symgrad.compile(f)
    np.testing.assert_allclose(float(compiled(x)), float(f(x)), rtol=1e-12)
    grad = symgrad.grad(f)
    np.testing.assert_allclose(np.asarray(symgrad.compile(grad)(x)), np.asarray(grad(x)),
                               rtol=1e-12)


def test_modules_and_reprs():
    x = symgrad.tensor(X)
    assert symgrad.nn.MaxPool3d(2)(x).shape == (2, 3, 2, 2, 3)
    assert symgrad.nn.AvgPool3d(2, stride=1)(x).shape == (2, 3, 3, 4, 5)
    assert symgrad.nn.AdaptiveAvgPool3d(1)(x).shape == (2, 3, 1, 1, 1)
    values, indices = symgrad.nn.AdaptiveMaxPool3d(2, return_indices=True)(x)
    assert values.shape == indices.shape == (2, 3, 2, 2, 2)
    assert repr(symgrad.nn.MaxUnpool3d(2)) == \
        "MaxUnpool3d(kernel_size=(2, 2, 2), stride=(2, 2, 2), padding=(0, 0, 0))"
    assert repr(symgrad.nn.LPPool3d(2, 3)) == \
        "LPPool3d(norm_type=2, kernel_size=3, stride=None, ceil_mode=False)"
    with pytest.raises(RuntimeError, match="non-empty 4D or 5D"):
        F.max_pool3d(symgrad.ones(2, 3, 4), 2)


def test_against_torch():
    torch = pytest.importorskip("torch")
    tf = torch.nn.functional
    calls = [lambda m, x: m.max_pool3d(x, 2, 1, 1, 1, True, True),
             lambda m, x: m.avg_pool3d(x, 3, 2, 1, True, False),
             lambda m, x: m.adaptive_max_pool3d(x, (3, 2, 4), True),
             lambda m, x: m.adaptive_avg_pool3d(x, (3, None, 4))]
    for call in calls:
        mine = call(F, symgrad.tensor(X))
        theirs = call(tf, torch.tensor(X))
        for a, b in zip(mine if isinstance(mine, tuple) else (mine,),
                        theirs if isinstance(theirs, tuple) else (theirs,)):
            np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-14)


# ---------------------------------------------------------------- affine_grid, grid_sample

def _bilinear_oracle(x: np.ndarray, gx: float, gy: float) -> np.ndarray:
    """Bilinear sample of (C, H, W) at normalized (gx, gy), align_corners=False, zeros."""
    c, h, w = x.shape
    ix, iy = ((gx + 1) * w - 1) / 2, ((gy + 1) * h - 1) / 2
    x0, y0 = int(np.floor(ix)), int(np.floor(iy))
    out = np.zeros(c)
    for cx, cy in ((x0, y0), (x0 + 1, y0), (x0, y0 + 1), (x0 + 1, y0 + 1)):
        weight = (1 - abs(ix - cx)) * (1 - abs(iy - cy))
        if 0 <= cx < w and 0 <= cy < h:
            out += weight * x[:, cy, cx]
    return out


def test_grid_sample_against_an_oracle_and_differences():
    x0 = RNG.normal(size=(1, 2, 3, 4))
    g0 = RNG.uniform(-1.2, 1.2, size=(1, 2, 3, 2))
    got = F.grid_sample(symgrad.tensor(x0), symgrad.tensor(g0), align_corners=False).numpy()
    for i in range(2):
        for j in range(3):
            np.testing.assert_allclose(got[0, :, i, j], _bilinear_oracle(x0[0], *g0[0, i, j]),
                                       rtol=1e-13, atol=1e-15)
    for mode in ("bilinear", "bicubic"):
        def f(g, mode=mode):
            return F.grid_sample(symgrad.tensor(x0), g, mode, "reflection", True).sum()
        t = symgrad.tensor(g0, requires_grad=True)
        f(t).backward()
        eps, numeric = 1e-6, np.empty(g0.size)
        for k in range(g0.size):
            up, down = g0.copy().reshape(-1), g0.copy().reshape(-1)
            up[k] += eps
            down[k] -= eps
            numeric[k] = (float(f(symgrad.tensor(up.reshape(g0.shape))))
                          - float(f(symgrad.tensor(down.reshape(g0.shape))))) / (2 * eps)
        np.testing.assert_allclose(t.grad.numpy().reshape(-1), numeric, rtol=1e-5, atol=1e-7)


def test_affine_grid_identity_and_compiled_sampling():
    theta = symgrad.tensor([[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]], dtype=symgrad.float64)
    grid = F.affine_grid(theta, (1, 2, 3, 4), align_corners=False)
    xs, ys = (np.arange(4) * 2 + 1) / 4 - 1, (np.arange(3) * 2 + 1) / 3 - 1
    np.testing.assert_allclose(grid.numpy()[0, :, :, 0], np.broadcast_to(xs, (3, 4)))
    np.testing.assert_allclose(grid.numpy()[0, :, :, 1], np.broadcast_to(ys[:, None], (3, 4)))
    x = symgrad.tensor(RNG.normal(size=(1, 2, 3, 4)))
    np.testing.assert_allclose(F.grid_sample(x, grid, align_corners=False).numpy(), x.numpy(),
                               rtol=1e-14)

    def warp(x, theta):
        g = F.affine_grid(theta, (1, 2, 3, 4), align_corners=False)
        return F.grid_sample(x, g, "bilinear", "border", False).sum()
    rotated = symgrad.tensor([[[0.8, -0.6, 0.1], [0.6, 0.8, -0.2]]], dtype=symgrad.float64)
    np.testing.assert_allclose(float(symgrad.compile(warp)(x, rotated)), float(warp(x, rotated)),
                               rtol=1e-12)


# ---------------------------------------------------------------- fractional max pooling

def test_fractional_windows_and_maxima():
    """Torch-free: the windows from given samples follow torch's sequence (hand-computed
    starts), each value is its window's maximum and its index points at it."""
    x = symgrad.tensor(RNG.normal(size=(1, 1, 7, 9)))
    u = symgrad.tensor([[[0.3, 0.8]]], dtype=symgrad.float64)   # (W, H) samples
    values, idx = F.fractional_max_pool2d(x, 2, output_size=(3, 4), return_indices=True,
                                          _random_samples=u)
    starts_h = [int((i + 0.8) * 2.5) - int(0.8 * 2.5) for i in range(2)] + [5]
    starts_w = [int((i + 0.3) * (7 / 3)) - int(0.3 * (7 / 3)) for i in range(3)] + [7]
    a = x.numpy()[0, 0]
    for i, h in enumerate(starts_h):
        for j, w in enumerate(starts_w):
            window = a[h:h + 2, w:w + 2]
            assert values.numpy()[0, 0, i, j] == window.max()
            assert a.reshape(-1)[idx.numpy()[0, 0, i, j]] == window.max()
    t = symgrad.tensor(x.numpy(), requires_grad=True)
    F.fractional_max_pool2d(t, 2, output_size=(3, 4), _random_samples=u).sum().backward()
    assert t.grad.numpy().sum() == 12 and set(np.unique(t.grad.numpy())) <= {0.0, 1.0, 2.0}


def test_fractional_draws_torchs_samples_and_refuses_compile():
    torch = pytest.importorskip("torch")
    x = RNG.normal(size=(2, 3, 5, 6, 7))
    torch.manual_seed(7)
    symgrad.manual_seed(7)
    want = torch.nn.FractionalMaxPool3d(2, output_ratio=0.5)(torch.tensor(x))
    got = symgrad.nn.FractionalMaxPool3d(2, output_ratio=0.5)(symgrad.tensor(x))
    np.testing.assert_array_equal(got.numpy(), want.numpy())
    with pytest.raises(TypeError, match="eagerly only"):
        symgrad.compile(lambda t: F.fractional_max_pool2d(t, 2, 2))(symgrad.tensor(x[0]))
