"""Where torch's CPU kernels round in the input's precision, symgrad rounds the same way: float16
i0e's Chebyshev series in float16 arithmetic (its scalar lanes; the vector lanes in float32),
adaptive average pooling's float16 sums (3-d) and backward (every one), airy_ai's asymptotic
phase in float32. Beyond the sweep's samples: every float16 value, tensors longer than a
vector step, the backward, huge arguments. Each checks torch when it is installed and a
torch-free oracle (torch's values stored here, mpmath, or a loop written as torch's kernel).
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import symgrad
from symgrad.ops import bessel_half

ALL_HALVES = np.arange(65536, dtype=np.uint16).view(np.float16)


def test_i0e_tables_are_the_chebyshev_coefficients():
    mp = pytest.importorskip("mpmath")
    mp.mp.dps = 30

    nodes = 64
    angles = [mp.pi * (j + mp.mpf(1) / 2) / nodes for j in range(nodes)]

    def coefficients(f, count):
        values = [f(mp.cos(a)) for a in angles]
        return [2 * mp.fsum(v * mp.cos(k * a) for v, a in zip(values, angles)) / nodes
                for k in range(count)][::-1]

    low, high = bessel_half.tables()
    below = lambda t: mp.exp(-4 * (t + 1)) * mp.besseli(0, 4 * (t + 1))  # noqa: E731
    above = lambda t: mp.exp(-16 / (t + 1)) * mp.sqrt(16 / (t + 1)) * mp.besseli(  # noqa: E731
        0, 16 / (t + 1))
    for table, f in ((low, below), (high, above)):
        want = coefficients(f, len(table))
        assert np.array_equal(table, np.array([float(c) for c in want], np.float32)
                              .astype(np.float16))


def test_float16_i0e_scalar_lanes_are_torchs():
    x = np.array([0.1, 0.5, 1.0, 2.5, 7.9, 8.0, 9.0, 30.0, -3.0, 1000.0], np.float16)
    torch_bits = [15171, 14634, 14195, 13394, 12447, 12438, 12370, 11439, 13254, 8823]
    got = symgrad.special.i0e(symgrad.tensor(x)).numpy()
    assert got.view(np.uint16).tolist() == torch_bits    # (torch 2.13's, a 10-element tensor)
    torch = pytest.importorskip("torch")
    every = torch.from_numpy(np.repeat(ALL_HALVES, 2))[::2]   # strided: the scalar loop
    assert np.array_equal(bessel_half.i0e(ALL_HALVES), torch.special.i0e(every).numpy(),
                          equal_nan=True)


@pytest.mark.parametrize("n", [64, 100, 4096 + 17])
def test_float16_i0e_vector_and_scalar_lanes(n):
    torch = pytest.importorskip("torch")
    x = np.ascontiguousarray(ALL_HALVES[np.isfinite(ALL_HALVES)][::7][:n])   # (torch: one range)
    got = symgrad.special.i0e(symgrad.tensor(x)).numpy()
    assert np.array_equal(got, torch.special.i0e(torch.from_numpy(x)).numpy(), equal_nan=True)


def _torch_loop_forward(x: np.ndarray, out: tuple) -> np.ndarray:
    """torch's float16 adaptive_avg_pool3d kernel as a loop: a float16 sum per bin."""
    lead, sizes = x.shape[:-3], x.shape[-3:]
    result = np.zeros(lead + out, np.float16)
    ranges = [[(i * n // o, -(-(i + 1) * n // o)) for i in range(o)] for n, o in zip(sizes, out)]
    for index in itertools.product(*[range(o) for o in out]):
        spans = [ranges[d][i] for d, i in enumerate(index)]
        total = np.zeros(lead, np.float16)
        for at in itertools.product(*[range(a, b) for a, b in spans]):
            total = total + x[(..., *at)]
        for a, b in spans:
            total = total / np.float16(b - a)
        result[(..., *index)] = total
    return result


def _torch_loop_backward(g: np.ndarray, sizes: tuple) -> np.ndarray:
    """torch's adaptive average pooling backward as a loop: g / kd / kh / kw added bin by bin
    in g's dtype."""
    out = g.shape[-len(sizes):]
    grad = np.zeros(g.shape[:-len(sizes)] + sizes, g.dtype)
    ranges = [[(i * n // o, -(-(i + 1) * n // o)) for i in range(o)] for n, o in zip(sizes, out)]
    for index in itertools.product(*[range(o) for o in out]):
        spans = [ranges[d][i] for d, i in enumerate(index)]
        delta = g[(..., *index)]
        for a, b in spans:
            delta = delta / g.dtype.type(b - a)
        window = (..., *[slice(a, b) for a, b in spans])
        grad[window] = grad[window] + delta[(...,) + (None,) * len(sizes)]
    return grad


@pytest.mark.parametrize("shape,out", [((2, 3, 5, 5, 5), (2, 2, 2)), ((3, 4, 6, 5), (4, 7, 3))])
def test_float16_adaptive_avg_pool3d_sums_in_float16(shape, out):
    x = (np.random.default_rng(0).standard_normal(shape) * 3).astype(np.float16)
    t = symgrad.tensor(x, requires_grad=True)
    y = symgrad.nn.functional.adaptive_avg_pool3d(t, out)
    assert np.array_equal(y.detach().numpy(), _torch_loop_forward(x, out))
    w = (1 + (np.arange(y.numel()) % 7) * 0.25).reshape(tuple(y.shape)).astype(np.float16)
    (y * symgrad.tensor(w)).sum().backward()
    assert np.array_equal(t.grad.numpy(), _torch_loop_backward(w, shape[-3:]))
    torch = pytest.importorskip("torch")
    tt = torch.tensor(x, requires_grad=True)
    yt = torch.nn.functional.adaptive_avg_pool3d(tt, out)
    (yt * torch.tensor(w)).sum().backward()
    assert np.array_equal(y.detach().numpy(), yt.detach().numpy())
    assert np.array_equal(t.grad.numpy(), tt.grad.numpy())


@pytest.mark.parametrize("dtype", [np.float16, np.float32])
def test_adaptive_avg_pool2d_backward_adds_bin_by_bin(dtype):
    x = (np.random.default_rng(1).standard_normal((2, 3, 7, 5)) * 3).astype(dtype)
    t = symgrad.tensor(x, requires_grad=True)
    y = symgrad.nn.functional.adaptive_avg_pool2d(t, (3, 4))   # overlapping bins both ways
    w = (1 + (np.arange(y.numel()) % 7) * 0.25).reshape(tuple(y.shape)).astype(dtype)
    (y * symgrad.tensor(w)).sum().backward()
    assert np.array_equal(t.grad.numpy(), _torch_loop_backward(w, (7, 5)))
    torch = pytest.importorskip("torch")
    tt = torch.tensor(x, requires_grad=True)
    (torch.nn.functional.adaptive_avg_pool2d(tt, (3, 4)) * torch.tensor(w)).sum().backward()
    assert np.array_equal(t.grad.numpy(), tt.grad.numpy())


def test_float32_airy_ai_rounds_its_phase_in_float32():
    x = np.array([-2147483648.0, -1e9, -123456.0, -1000.0, -50.0], np.float32)
    torch32 = [0.00010773965914268047, 0.0022975546307861805, -0.01626664586365223,
               0.05611339583992958, -0.1618831306695938]
    torch64 = [-0.0022430624304953396, -0.0014000775205572382, -0.014096871595962493,
               0.05597189577328696, -0.16188142361232175]
    got32 = symgrad.special.airy_ai(symgrad.tensor(x)).numpy()
    got64 = symgrad.special.airy_ai(symgrad.tensor(x.astype(np.float64))).numpy()
    np.testing.assert_allclose(got32, torch32, rtol=2e-6, atol=1e-9)
    np.testing.assert_allclose(got64, torch64, rtol=1e-9, atol=1e-12)
    integers = symgrad.special.airy_ai(symgrad.tensor(np.array([-2**31, -1000]))).numpy()
    np.testing.assert_allclose(integers, [torch32[0], torch32[3]], rtol=2e-6)
