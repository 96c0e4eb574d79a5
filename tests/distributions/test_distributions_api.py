"""The machinery of symgrad.distributions, without torch: validation switched on and off,
constraints and their checks, ``expand``, lazily computed parameters, ``register_kl``'s
lookup, transforms (inverses, caches, Jacobians against finite differences), the base
class's errors and warnings, and the torch-style imports.
"""

from __future__ import annotations

import math
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

import symgrad as sg
from symgrad import distributions as D
from symgrad.distributions import constraints as C
from symgrad.distributions import transforms as T


def val(x) -> np.ndarray:
    return x.detach().numpy()


@pytest.fixture
def default_validation():
    """Restore the default validation after a test that changes it."""
    yield
    D.Distribution.set_default_validate_args(True)


# ---------------------------------------------------------------- validation

def test_default_validation_can_be_switched_off(default_validation):
    with pytest.raises(ValueError, match="GreaterThan"):
        D.Normal(0.0, -1.0)
    D.Distribution.set_default_validate_args(False)
    d = D.Normal(0.0, -1.0)   # accepted: nothing checked
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)   # NumPy's log of a negative scale
        assert math.isnan(float(d.log_prob(sg.tensor(0.0))))
    D.Exponential(1.0).log_prob(sg.tensor(-1.0))   # nor the values scored
    with pytest.raises(ValueError):
        D.Normal(0.0, -1.0, validate_args=True)
    D.Distribution.set_default_validate_args(True)
    with pytest.raises(ValueError):
        D.Normal(0.0, -1.0)
    with pytest.raises(ValueError):
        D.Distribution.set_default_validate_args("yes")


def test_expand_keeps_the_validation_choice_and_checks_nothing_again():
    d = D.Normal(sg.tensor([0.0, 1.0]), 1.0, validate_args=False).expand((3, 2))
    d.log_prob(sg.tensor([math.nan, 0.0]))          # not validated
    strict = D.Normal(sg.tensor([0.0, 1.0]), 1.0).expand((3, 2))
    with pytest.raises(ValueError, match="Value is not broadcastable"):
        strict.log_prob(sg.zeros(3, 3))
    assert strict.loc.shape == (3, 2) and strict.batch_shape == (3, 2)


def test_a_subclass_without_arg_constraints_warns_and_without_expand_refuses():
    class Bare(D.Distribution):
        def __init__(self, x):
            self.x = x
            super().__init__()

    with pytest.warns(UserWarning, match="does not define `arg_constraints`"):
        Bare(1.0)
    with pytest.raises(NotImplementedError, match="must also define a custom .expand"):
        _bare_normal().expand((2,))
    with pytest.raises(NotImplementedError):
        _ = D.Distribution(validate_args=False).mean


def _bare_normal():
    class MyNormal(D.Normal):
        def __init__(self):
            super().__init__(0.0, 1.0)
    return MyNormal()


def test_sample_n_is_deprecated_and_samples():
    sg.manual_seed(0)
    with pytest.warns(FutureWarning, match="sample_n"):
        a = D.Normal(0.0, 1.0).sample_n(3)
    sg.manual_seed(0)
    np.testing.assert_array_equal(val(a), val(D.Normal(0.0, 1.0).sample((3,))))


# ---------------------------------------------------------------- constraints

@pytest.mark.parametrize("constraint, value, want", [
    (C.real, [0.0, math.nan, math.inf], [True, False, True]),
    (C.positive, [0.0, 1e-30, -1.0], [False, True, False]),
    (C.nonnegative, [0.0, 1e-30, -1.0], [True, True, False]),
    (C.unit_interval, [0.0, 1.0, 1.5], [True, True, False]),
    (C.interval(-1.0, 2.0), [-1.0, 2.0, 2.5], [True, True, False]),
    (C.half_open_interval(-1.0, 2.0), [-1.0, 2.0, 0.5], [True, False, True]),
    (C.greater_than(1.0), [1.0, 2.0, 0.0], [False, True, False]),
    (C.greater_than_eq(1.0), [1.0, 2.0, 0.0], [True, True, False]),
    (C.less_than(1.0), [1.0, 2.0, 0.0], [False, False, True]),
    (C.boolean, [0.0, 1.0, 0.5], [True, True, False]),
    (C.integer_interval(0, 3), [0.0, 3.0, 1.5], [True, True, False]),
    (C.nonnegative_integer, [0.0, 3.0, -1.0], [True, True, False]),
    (C.positive_integer, [0.0, 3.0, 1.0], [False, True, True]),
    (C.simplex, [[0.2, 0.8], [0.5, 0.6], [-0.1, 1.1]], [True, False, False]),
    (C.one_hot, [[0.0, 1.0], [1.0, 1.0], [0.5, 0.5]], [True, False, False]),
    (C.real_vector, [[0.0, 1.0], [math.nan, 1.0]], [True, False]),
    (C.multinomial(3), [[1.0, 2.0], [2.0, 2.0]], [True, False]),
])
def test_constraint_checks(constraint, value, want):
    got = constraint.check(sg.tensor(value))
    assert got.dtype is sg.bool and got.tolist() == want


def test_matrix_constraints():
    good = sg.tensor([[2.0, 0.0], [0.5, 1.0]])
    upper = sg.tensor([[2.0, 0.5], [0.0, 1.0]])
    assert C.lower_triangular.check(good).item() and not C.lower_triangular.check(upper).item()
    assert C.lower_cholesky.check(good).item()
    assert not C.lower_cholesky.check(sg.tensor([[-2.0, 0.0], [0.5, 1.0]])).item()
    spd, indefinite = sg.tensor([[2.0, 0.5], [0.5, 1.0]]), sg.tensor([[1.0, 2.0], [2.0, 1.0]])
    assert C.positive_definite.check(sg.stack([spd, indefinite])).tolist() == [True, False]
    assert C.positive_semidefinite.check(sg.tensor([[1.0, 1.0], [1.0, 1.0]])).item()
    assert not C.symmetric.check(upper).item() and C.symmetric.check(spd).item()
    assert C.square.check(sg.zeros(3, 2, 2)).tolist() == [True] * 3
    assert not C.square.check(sg.zeros(2, 3)).item()


def test_composite_and_dependent_constraints():
    both = C.cat([C.positive, C.real], dim=0, lengths=[2, 1])
    assert both.check(sg.tensor([1.0, 2.0, -3.0])).tolist() == [True, True, True]
    assert both.check(sg.tensor([1.0, -2.0, -3.0])).tolist() == [True, False, True]
    stacked = C.stack([C.positive, C.unit_interval], dim=-1)
    assert stacked.check(sg.tensor([[1.0, 0.5], [1.0, 2.0]])).tolist() == [[True, True],
                                                                          [True, False]]
    ind = C.independent(C.positive, 1)
    assert ind.event_dim == 1 and ind.check(sg.tensor([[1.0, 2.0], [1.0, -2.0]])).tolist() == \
        [True, False]
    with pytest.raises(ValueError, match="Cannot determine validity"):
        C.dependent.check(sg.zeros(1))
    with pytest.raises(NotImplementedError, match="cannot be determined statically"):
        _ = C.dependent.event_dim
    assert C.dependent(is_discrete=True, event_dim=1).event_dim == 1
    assert C.is_dependent(D.Uniform.support) and not C.is_dependent(D.Normal.support)
    assert repr(D.Uniform(0.0, 2.0).support) == "Interval(lower_bound=0.0, upper_bound=2.0)"
    with pytest.raises(AssertionError):
        C.independent(C.real, -1)


# ---------------------------------------------------------------- lazy parameters

def test_the_parameter_not_given_is_computed_once_with_gradients():
    logits = sg.tensor([0.2, -1.0, 0.5], requires_grad=True)
    d = D.Categorical(logits=logits)
    assert "probs" not in d.__dict__
    with sg.no_grad():
        probs = d.probs          # computed with gradients enabled even under no_grad
    assert probs.requires_grad and d.probs is probs and "probs" in d.__dict__
    assert repr(d) == "Categorical(probs: torch.Size([3]), logits: torch.Size([3]))"


# ---------------------------------------------------------------- register_kl

def test_register_kl_prefers_the_most_specific_pair():
    class Special(D.Normal):
        pass

    generic = D.kl_divergence(Special(0.0, 1.0), D.Normal(1.0, 1.0))
    assert float(generic) == pytest.approx(0.5)          # Normal-Normal is found for it

    @D.register_kl(Special, D.Normal)
    def _special(p, q):
        return sg.tensor(42.0)

    assert float(D.kl_divergence(Special(0.0, 1.0), D.Normal(1.0, 1.0))) == 42.0
    assert float(D.kl_divergence(D.Normal(0.0, 1.0), D.Normal(1.0, 1.0))) == 0.5
    with pytest.raises(TypeError):
        D.register_kl("Normal", D.Normal)
    with pytest.raises(NotImplementedError, match="No KL"):
        D.kl_divergence(D.Categorical(sg.ones(2)), D.Bernoulli(0.5))


# ---------------------------------------------------------------- transforms

@pytest.mark.parametrize("transform, x", [
    (T.ExpTransform(), [-1.5, 0.2, 3.0]),
    (T.AffineTransform(1.0, -2.0), [-1.5, 0.2, 3.0]),
    (T.AffineTransform(sg.tensor([1.0, 2.0, 3.0], dtype=sg.float64),
                       sg.tensor([0.5, -1.0, 2.0], dtype=sg.float64)), [-1.5, 0.2, 3.0]),
    (T.SigmoidTransform(), [-1.5, 0.2, 3.0]),
    (T.TanhTransform(), [-1.5, 0.2, 3.0]),
    (T.SoftplusTransform(), [-1.5, 0.2, 3.0]),
    (T.ComposeTransform([T.AffineTransform(1.0, -2.0), T.ExpTransform()]), [-1.5, 0.2, 3.0]),
    (T.ExpTransform().inv, [0.3, 1.0, 4.0]),
])
def test_transform_inverse_and_jacobian(transform, x):
    x = sg.tensor(x, dtype=sg.float64)
    y = transform(x)
    np.testing.assert_allclose(val(transform.inv(y)), val(x), rtol=1e-10)
    h = 1e-6
    slope = (val(transform(x + h)) - val(transform(x - h))) / (2 * h)
    np.testing.assert_allclose(val(transform.log_abs_det_jacobian(x, y)),
                               np.log(np.abs(slope)), rtol=1e-6, atol=1e-8)


def test_transform_cache_equality_and_event_dims():
    cached = T.ExpTransform(cache_size=1)
    x = sg.tensor([0.5, 1.0])
    y = cached(x)
    assert cached(x) is y and cached.inv(y) is x
    assert T.ExpTransform().with_cache(1) == T.ExpTransform() and T.ExpTransform() != \
        T.SigmoidTransform()
    with pytest.raises(ValueError, match="cache_size"):
        T.ExpTransform(cache_size=2)
    vector = T.AffineTransform(0.0, sg.tensor([1.0, 2.0]), event_dim=1)
    assert vector.event_dim == 1 and vector.domain.event_dim == 1
    assert float(vector.log_abs_det_jacobian(x, vector(x))) == pytest.approx(math.log(2.0))
    compose = T.ComposeTransform([vector, T.ExpTransform()])
    assert compose.domain.event_dim == 1 and compose.codomain.event_dim == 1
    assert T.identity_transform(x) is x


def test_transformed_distribution_is_the_change_of_variables():
    base = D.Normal(sg.zeros(3, dtype=sg.float64), 1.0)
    shifted = D.TransformedDistribution(base, T.AffineTransform(1.0, 2.0))
    direct = D.Normal(sg.ones(3, dtype=sg.float64), 2.0)
    y = sg.tensor([0.5, -1.0, 3.0], dtype=sg.float64)
    np.testing.assert_allclose(val(shifted.log_prob(y)), val(direct.log_prob(y)), rtol=1e-14)
    np.testing.assert_allclose(val(shifted.cdf(y)), val(direct.cdf(y)), rtol=1e-14)
    flipped = D.TransformedDistribution(base, T.AffineTransform(1.0, -2.0))
    np.testing.assert_allclose(val(flipped.cdf(y)), val(direct.cdf(y)), rtol=1e-14)
    np.testing.assert_allclose(val(flipped.icdf(flipped.cdf(y))), val(y), rtol=1e-12)
    with pytest.raises(ValueError, match="transforms must be"):
        D.TransformedDistribution(base, [T.ExpTransform(), "exp"])
    sg.manual_seed(0)
    s = D.LogNormal(0.0, 1.0).sample((4,))
    sg.manual_seed(0)
    np.testing.assert_array_equal(val(s), val(D.Normal(0.0, 1.0).sample((4,)).exp()))


# ---------------------------------------------------------------- imports

def test_torch_style_imports(tmp_path):
    import symgrad.distributions.kl as kl
    assert sg.distributions.Normal is D.Normal and kl.kl_divergence is D.kl_divergence
    assert set(D.__all__) >= {"Normal", "Bernoulli", "Categorical", "Uniform",
                              "MultivariateNormal", "Independent", "kl_divergence",
                              "ExpTransform"}
    script = tmp_path / "uses_distributions.py"
    script.write_text("import torch\nfrom torch.distributions import Normal, kl_divergence\n"
                      "from torch.distributions.constraints import positive\n"
                      "import torch.distributions.transforms as T\n"
                      "print(type(Normal(0., 1.)).__module__, positive, T.ExpTransform())\n")
    as_torch = Path(__file__).resolve().parents[1] / "programs" / "as_torch.py"
    done = subprocess.run([sys.executable, str(as_torch), str(script)], capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["symgrad.distributions.normal", "GreaterThan(lower_bound=0.0)",
                                   "ExpTransform()"]


def test_warnings_are_not_errors_when_sampling_eagerly():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        D.Normal(0.0, 1.0).sample((2,))
        D.Categorical(sg.ones(3)).sample((2,))
