"""symgrad.distributions against torch.distributions, case by case (``dist_cases.py``): the same
samples after ``manual_seed`` (bit for bit), the same values, shapes, reprs and errors (type and
message), the same gradients; with torch installed against torch itself, and always against
the results torch 2.13 printed (``torch_values.json``, written by ``python dist_cases.py
--store``), so that the comparison holds without torch.
"""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest

import symgrad as sg
from dist_cases import CASES, GRADS, STORED, grads, run
from symgrad.frontend.random import generator as random_engine

# "ulps": symgrad's log, exp, log1p... may differ from torch's vectorized ones in the last
# bit, and a few operations carry that on: a float32 relative error of a few 1e-7.
RTOL = {"bits": 0.0, "ulps": 2e-6}
GRAD_RTOL = 2e-5
# Cases whose float32 normal draws take torch's AVX2 kernel (16 elements or more): their
# stored numbers hold where symgrad's generator runs that kernel too.
AVX2_CASES = {"normal sample broadcast", "normal rsample numbers"}


def same(mine, theirs, rtol: float, atol: float = 0.0, where: str = "") -> None:
    """Two encoded results agree: the same structure, dtypes, shapes, strings and error
    messages, and values equal (``rtol`` 0) or within ``rtol`` (NaN and inf where torch's
    are)."""
    if isinstance(theirs, list):
        assert isinstance(mine, list) and len(mine) == len(theirs), (where, mine, theirs)
        for k, (m, t) in enumerate(zip(mine, theirs)):
            same(m, t, rtol, atol, f"{where}[{k}]")
        return
    if isinstance(theirs, dict) and "values" in theirs:
        assert isinstance(mine, dict) and "values" in mine, (where, mine, theirs)
        assert (mine["dtype"], mine["shape"]) == (theirs["dtype"], theirs["shape"]), where
        m, t = np.array(mine["values"], dtype=float), np.array(theirs["values"], dtype=float)
        if rtol == 0:
            np.testing.assert_array_equal(m, t, err_msg=where)
        else:
            np.testing.assert_allclose(m, t, rtol=rtol, atol=atol, err_msg=where)
        return
    assert mine == theirs, where


@pytest.fixture(scope="module")
def torch():
    return pytest.importorskip("torch")


@pytest.fixture(scope="module")
def stored():
    return json.loads(STORED.read_text())


def _mine(fn):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)   # NumPy's log(0) in -inf results
        return run(sg, fn)


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_matches_torch(torch, name):
    fn, exactness = CASES[name]
    same(_mine(fn), run(torch, fn), RTOL[exactness], where=name)


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_matches_stored_torch_output(stored, name):
    if name in AVX2_CASES and random_engine.capability() == "default":
        pytest.skip("torch's numbers here come from its AVX2 normal kernel")
    fn, exactness = CASES[name]
    same(_mine(fn), stored["cases"][name], RTOL[exactness], where=name)


@pytest.mark.parametrize("name", sorted(GRADS))
def test_gradient_matches_torch(torch, name):
    fn, values = GRADS[name]
    same(grads(sg, fn, values), grads(torch, fn, values), GRAD_RTOL, 1e-7, name)


@pytest.mark.parametrize("name", sorted(GRADS))
def test_gradient_matches_stored_torch_output(stored, name):
    fn, values = GRADS[name]
    same(grads(sg, fn, values), stored["grads"][name], GRAD_RTOL, 1e-7, name)


def test_the_stored_output_covers_every_case(stored):
    assert set(stored["cases"]) == set(CASES) and set(stored["grads"]) == set(GRADS)
    assert stored["torch"].startswith("2.13")


def test_the_comparison_can_fail():
    a = {"dtype": "torch.float32", "shape": [2], "values": [1.0, 2.0]}
    with pytest.raises(AssertionError):
        same({**a, "values": [1.0, 2.0000005]}, a, 0.0)
    same({**a, "values": [1.0, 2.0000005]}, a, 1e-6)
    with pytest.raises(AssertionError):
        same({**a, "dtype": "torch.float64"}, a, 1e-6)
    with pytest.raises(AssertionError):
        same({"error": "ValueError", "message": "x"}, {"error": "ValueError", "message": "y"},
             0.0)
    with pytest.raises(AssertionError):
        same({**a, "values": [1.0, "nan"]}, a, 1e-6)


@pytest.mark.parametrize("seed", [0, 3, 12345])
def test_mixed_sampling_leaves_the_generator_where_torch_leaves_it(torch, seed):
    """A sequence of samples from several families, then one more draw: the same numbers, so
    every sampler consumed exactly torch's share of the stream."""
    def program(t):
        D = t.distributions
        out = [D.Normal(t.zeros(3), 1.).sample(), D.Bernoulli(t.tensor([0.3, 0.6])).sample((2,)),
               D.Categorical(t.tensor([0.2, 0.8])).sample((5,)), D.Uniform(0., 2.).rsample((3,)),
               D.Exponential(t.ones(2, dtype=t.float64)).rsample(), D.Laplace(0., 1.).sample((2,)),
               D.MultivariateNormal(t.zeros(2), t.eye(2)).sample((2,)),
               D.OneHotCategorical(t.ones(3)).sample(), D.LogNormal(0., 1.).sample((2,))]
        return out + [t.rand(4, dtype=t.float64)]
    same(run(sg, program, seed), run(torch, program, seed), RTOL["ulps"])


def test_register_kl_dispatch_and_its_warning_match_torch(torch):
    """The most specific registered pair wins; when the left-to-right and right-to-left
    readings disagree, both libraries warn with the same message and use the same function."""
    def program(t):
        D = t.distributions

        class P(D.Normal):
            pass

        class Q(D.Normal):
            pass
        D.register_kl(P, D.Normal)(lambda p, q: t.tensor(1.0))
        D.register_kl(D.Normal, Q)(lambda p, q: t.tensor(2.0))
        plain = D.kl_divergence(P(0., 1.), D.Normal(0., 2.))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            ambiguous = D.kl_divergence(P(0., 1.), Q(0., 2.))
        return [plain, ambiguous, [str(w.message) for w in caught],
                D.kl_divergence(D.Normal(0., 1.), D.Normal(1., 1.))]
    same(run(sg, program), run(torch, program), 0.0)
