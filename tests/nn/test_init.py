"""symgrad.nn.init: torch.nn.init's initializers, drawing exactly what torch draws.

Without torch: gains and fans against their formulas, bounds and moments of every
distribution (the truncated normal's against its closed-form variance), orthogonality, the
deterministic fills, no_grad on leaves that require grad, the warnings. With torch: every
initializer gives the same bits and leaves the generator in the same state, for several
shapes (2-D, conv-like, transposed views), dtypes and seeds; ``orthogonal_`` to rounding.
"""

import math
import warnings

import numpy as np
import pytest

import symgrad as sg
from symgrad.nn import init


def bits(t) -> np.ndarray:
    a = np.ascontiguousarray(t.detach().numpy())
    return a.view(f"u{a.itemsize}")


def _phi(x):
    return math.exp(-x * x / 2) / math.sqrt(2 * math.pi)


def _cdf(x):
    return 0.5 * (1 + math.erf(x / math.sqrt(2)))


# ================================================================== without torch

def test_calculate_gain():
    assert init.calculate_gain("linear") == 1 and init.calculate_gain("conv2d") == 1
    assert init.calculate_gain("sigmoid") == 1
    assert init.calculate_gain("tanh") == 5.0 / 3
    assert init.calculate_gain("relu") == math.sqrt(2.0)
    assert init.calculate_gain("leaky_relu") == math.sqrt(2.0 / (1 + 0.01 ** 2))
    assert init.calculate_gain("leaky_relu", 0.2) == math.sqrt(2.0 / 1.04)
    assert init.calculate_gain("selu") == 0.75
    with pytest.raises(ValueError, match="Unsupported nonlinearity"):
        init.calculate_gain("swish")
    with pytest.raises(ValueError, match="negative_slope"):
        init.calculate_gain("leaky_relu", True)


def test_fans():
    assert init._calculate_fan_in_and_fan_out(sg.empty(3, 5)) == (5, 3)
    assert init._calculate_fan_in_and_fan_out(sg.empty(4, 3, 2, 5)) == (30, 40)
    assert init._calculate_correct_fan(sg.empty(4, 3, 2, 5), "fan_out") == 40
    with pytest.raises(ValueError, match="fewer than 2 dimensions"):
        init._calculate_fan_in_and_fan_out(sg.empty(3))
    with pytest.raises(ValueError, match="Mode fan_avg not supported"):
        init.kaiming_uniform_(sg.empty(3, 4), mode="fan_avg")


def test_uniform_bounds():
    w = sg.empty(400, 300)
    init.kaiming_uniform_(w, a=math.sqrt(5))
    bound = math.sqrt(3.0) * math.sqrt(2.0 / (1 + 5)) / math.sqrt(300)   # = 1/sqrt(fan_in)
    v = w.numpy()
    assert np.abs(v).max() <= bound and np.abs(v).max() > 0.99 * bound
    init.xavier_uniform_(w, gain=2.0)
    bound = 2.0 * math.sqrt(6.0 / 700)
    assert np.abs(w.numpy()).max() <= bound and abs(w.numpy().var() / (bound ** 2 / 3) - 1) < 0.02
    init.uniform_(w, -0.5, 1.5)
    assert w.numpy().min() >= -0.5 and w.numpy().max() < 1.5 and abs(w.numpy().mean() - 0.5) < 0.01


def test_normal_moments():
    # 200k samples: the sample std's standard error is std/sqrt(2n) = 0.16% of it; the bounds
    # are 6 standard errors, and the generator is seeded (the test is deterministic)
    sg.manual_seed(0)
    w = sg.empty(500, 400, dtype=sg.float64)
    init.kaiming_normal_(w, mode="fan_out", nonlinearity="relu")
    assert abs(w.numpy().std() - math.sqrt(2.0) / math.sqrt(500)) < 0.01 * math.sqrt(2 / 500)
    init.xavier_normal_(w)
    assert abs(w.numpy().std() - math.sqrt(2.0 / 900)) < 0.01 * math.sqrt(2 / 900)
    init.normal_(w, 3.0, 0.5)
    assert abs(w.numpy().mean() - 3.0) < 0.005 and abs(w.numpy().std() - 0.5) < 0.005


@pytest.mark.parametrize("mean, std, a, b", [(0.0, 1.0, -2.0, 2.0), (0.5, 2.0, -1.0, 1.0),
                                             (0.0, 1.0, 1.0, 1.5)])   # the last: p <= 0.3
def test_trunc_normal_moments(mean, std, a, b):
    w = sg.empty(300_000, dtype=sg.float64)
    sg.manual_seed(0)
    init.trunc_normal_(w, mean, std, a, b)
    v = w.numpy()
    assert v.min() >= a and v.max() <= b
    al, be = (a - mean) / std, (b - mean) / std
    z = _cdf(be) - _cdf(al)
    want_mean = mean + std * (_phi(al) - _phi(be)) / z
    want_var = std ** 2 * (1 + (al * _phi(al) - be * _phi(be)) / z
                           - ((_phi(al) - _phi(be)) / z) ** 2)
    assert abs(v.mean() - want_mean) < 5 * math.sqrt(want_var / v.size)
    assert abs(v.var() / want_var - 1) < 0.02


def test_trunc_normal_warns_when_the_mean_is_far():
    with pytest.warns(UserWarning, match="mean is more than 2 std"):
        init.trunc_normal_(sg.empty(10), 0.0, 1.0, 2.5, 3.0)


@pytest.mark.parametrize("shape", [(6, 10), (10, 6), (4, 3, 2)])
def test_orthogonal(shape):
    w = sg.empty(*shape, dtype=sg.float64)
    init.orthogonal_(w, gain=2.0)
    q = w.numpy().reshape(shape[0], -1) / 2.0
    small = q @ q.T if q.shape[0] <= q.shape[1] else q.T @ q
    np.testing.assert_allclose(small, np.eye(small.shape[0]), atol=1e-12)
    with pytest.raises(ValueError, match="2 or more dimensions"):
        init.orthogonal_(sg.empty(3))


def test_deterministic_fills():
    w = sg.empty(3, 4)
    assert np.array_equal(init.eye_(w).numpy(), np.eye(3, 4, dtype=np.float32))
    assert np.all(init.constant_(w, 0.25).numpy() == 0.25)
    assert np.all(init.ones_(w).numpy() == 1) and np.all(init.zeros_(w).numpy() == 0)
    with pytest.raises(ValueError, match="2 dimensions"):
        init.eye_(sg.empty(3))


def test_leaves_that_require_grad_are_filled_under_no_grad():
    w = sg.zeros(5, 3, requires_grad=True)
    version = w._version
    for fill in (init.kaiming_uniform_, init.xavier_normal_, init.trunc_normal_,
                 init.orthogonal_, init.zeros_, init.eye_):
        assert fill(w) is w
        assert w.requires_grad and w.is_leaf and w.grad_fn is None
    assert w._version > version
    (w * 2).sum().backward()
    assert np.array_equal(w.grad.numpy(), np.full((5, 3), 2, np.float32))


def test_zero_element_tensors_warn_and_draw_nothing():
    sg.manual_seed(0)
    before = sg.get_rng_state().numpy()
    with pytest.warns(UserWarning, match="zero-element tensors is a no-op"):
        init.kaiming_uniform_(sg.empty(0, 3))
    with pytest.warns(UserWarning, match="zero-element"):
        init.kaiming_normal_(sg.empty(3, 0))
    assert np.array_equal(sg.get_rng_state().numpy(), before)


def test_generator_keyword_uses_its_own_stream():
    g = sg.Generator().manual_seed(4)
    sg.manual_seed(0)
    before = sg.get_rng_state().numpy()
    a = init.kaiming_uniform_(sg.empty(8, 8), generator=g)
    assert np.array_equal(sg.get_rng_state().numpy(), before)
    b = init.kaiming_uniform_(sg.empty(8, 8), generator=sg.Generator().manual_seed(4))
    assert np.array_equal(bits(a), bits(b))


# ================================================================== against torch

@pytest.fixture(scope="module")
def torch():
    return pytest.importorskip("torch")


def _state(m):
    return np.asarray(m.get_rng_state().numpy(), np.uint8)


INITS = {
    "uniform_": lambda I, t: I.uniform_(t, -0.3, 0.4),
    "normal_": lambda I, t: I.normal_(t, 0.2, 0.1),
    "xavier_uniform_": lambda I, t: I.xavier_uniform_(t, gain=1.3),
    "xavier_normal_": lambda I, t: I.xavier_normal_(t),
    "kaiming_uniform_": lambda I, t: I.kaiming_uniform_(t, mode="fan_out", nonlinearity="relu"),
    "kaiming_uniform_sqrt5": lambda I, t: I.kaiming_uniform_(t, a=math.sqrt(5)),
    "kaiming_normal_": lambda I, t: I.kaiming_normal_(t, a=0.1),
    "trunc_normal_": lambda I, t: I.trunc_normal_(t),
    "trunc_normal_window": lambda I, t: I.trunc_normal_(t, 0.5, 2.0, -1, 1),
    "trunc_normal_narrow": lambda I, t: I.trunc_normal_(t, 0.0, 1.0, 1.0, 1.5),
    "kaiming_uniform_T": lambda I, t: I.kaiming_uniform_(t.transpose(0, 1), a=math.sqrt(5)),
    "kaiming_normal_T": lambda I, t: I.kaiming_normal_(t.transpose(0, 1)),
    "trunc_normal_T": lambda I, t: I.trunc_normal_(t.transpose(0, 1), 0.0, 1.0, -0.5, 0.5),
    "constant_": lambda I, t: I.constant_(t, 0.3),
}


@pytest.mark.parametrize("shape", [(30, 40), (4, 4), (7, 3, 5), (16, 3, 3, 3)])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", sorted(INITS))
def test_same_bits_as_torch(torch, name, dtype, shape):
    for seed in (0, 1, 2):
        torch.manual_seed(seed)
        sg.manual_seed(seed)
        theirs = torch.empty(*shape, dtype=getattr(torch, dtype))
        mine = sg.empty(*shape, dtype=getattr(sg, dtype))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            INITS[name](torch.nn.init, theirs)
            INITS[name](init, mine)
        assert np.array_equal(bits(mine), bits(theirs)), (name, seed)
        assert np.array_equal(_state(sg), _state(torch)), (name, seed)


def test_linear_layer_initialization_matches_torch(torch):
    """torch.nn.Linear's reset_parameters, done with symgrad.nn.init."""
    for seed in (0, 1, 42):
        torch.manual_seed(seed)
        layers = [torch.nn.Linear(20, 64), torch.nn.Linear(64, 3)]
        sg.manual_seed(seed)
        for layer in layers:
            w = sg.empty(layer.out_features, layer.in_features, requires_grad=True)
            b = sg.empty(layer.out_features, requires_grad=True)
            init.kaiming_uniform_(w, a=math.sqrt(5))
            fan_in, _ = init._calculate_fan_in_and_fan_out(w)
            init.uniform_(b, -1 / math.sqrt(fan_in), 1 / math.sqrt(fan_in))
            assert np.array_equal(bits(w), bits(layer.weight))
            assert np.array_equal(bits(b), bits(layer.bias))
        assert np.array_equal(_state(sg), _state(torch))


def test_eye_matches_torch(torch):
    for shape in [(3, 5), (4, 4), (6, 2)]:
        assert np.array_equal(bits(init.eye_(sg.empty(*shape))),
                              bits(torch.nn.init.eye_(torch.empty(*shape))))


@pytest.mark.parametrize("shape", [(6, 10), (10, 6), (4, 3, 2)])
def test_orthogonal_matches_torch_to_rounding(torch, shape):
    torch.manual_seed(0)
    sg.manual_seed(0)
    theirs = torch.nn.init.orthogonal_(torch.empty(*shape), gain=1.5)
    mine = init.orthogonal_(sg.empty(*shape), gain=1.5)
    np.testing.assert_allclose(mine.numpy(), theirs.numpy(), atol=2e-6)
    assert np.array_equal(_state(sg), _state(torch))


def test_generator_objects_match_torch(torch):
    tg, g = torch.Generator().manual_seed(3), sg.Generator().manual_seed(3)
    for name in ("kaiming_uniform_", "xavier_normal_", "trunc_normal_", "uniform_", "normal_"):
        fill_t = getattr(torch.nn.init, name)
        fill_s = getattr(init, name)
        theirs, mine = fill_t(torch.empty(9, 7), generator=tg), fill_s(sg.empty(9, 7), generator=g)
        assert np.array_equal(bits(mine), bits(theirs)), name
