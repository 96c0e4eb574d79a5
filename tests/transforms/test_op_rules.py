"""Every op's forward mode and batching rule, generated from the registry.

Forward mode: the JVP of each op (at a sample point, along a random tangent) against central
finite differences in float64, and against the op's VJP (``<v, J u> == <J^T v, u>`` for random
``u``, ``v``). Batching: ``vmap`` of each op, with every operand batched and with each one
batched alone, against a Python loop over the examples, values and gradients. These run
eagerly (the transforms are the same code traced or eager; tests/transforms/test_transforms.py
compiles them).
"""

import numpy as np
import pytest

import symgrad as sg
from symgrad.frontend.core.apply import apply
from symgrad.ops import OPS
from symgrad.transforms.forward import jvp_call, vjp_call
from symgrad.transforms.vmap import vmap_call

from .samples import NOT_DIFFERENTIATED, STEPS, sample, sampled_ops

OPS_SAMPLED = sampled_ops()


def _rng(name, k=0):
    return np.random.default_rng(sum(map(ord, name)) * 7 + k)


def _value(t):
    return np.asarray(t.detach().numpy() if isinstance(t, sg.Tensor) else t)


def test_every_op_has_a_sample_and_a_batching_rule():
    for name in OPS_SAMPLED:
        operands, attrs = sample(name, _rng(name))
        assert operands, name
        assert callable(OPS[name].batch), f"{name} has no batching rule"


def _differentiated(name, operands):
    """Indices of the operands forward mode differentiates."""
    skip = NOT_DIFFERENTIATED.get(name, ())
    return [i for i, a in enumerate(operands)
            if a.dtype.kind == "f" and i not in skip]


def _float_output(name, operands, attrs):
    out = apply(name, *[sg.tensor(a) for a in operands], **attrs)
    return out.dtype.is_floating and OPS[name].vjp is not None


DIFFERENTIABLE = [n for n in OPS_SAMPLED
                  if _float_output(n, *sample(n, _rng(n))) and
                  _differentiated(n, sample(n, _rng(n))[0])]


# Ops of symmetric matrices (they read one triangle): tangents are symmetric too.
SYMMETRIC = {"cholesky", "eigh"}


def _tangents(name, rng, xs):
    us = [rng.normal(size=np.shape(x)) for x in xs]
    if name in SYMMETRIC:
        us = [(u + np.swapaxes(u, -1, -2)) / 2 for u in us]
    return us


def _as_function(name, operands, attrs, diff):
    """The op as a function of its differentiated operands (the others fixed)."""
    def f(*xs):
        full = [sg.tensor(a) for a in operands]
        for i, x in zip(diff, xs):
            full[i] = x
        return apply(name, *full, **attrs)
    return f


@pytest.mark.parametrize("name", DIFFERENTIABLE)
def test_jvp_matches_finite_differences(name):
    rng = _rng(name)
    operands, attrs = sample(name, rng)
    diff = _differentiated(name, operands)
    f = _as_function(name, operands, attrs, diff)
    xs = [operands[i] for i in diff]
    us = _tangents(name, rng, xs)
    out, tangent = jvp_call(f, tuple(sg.tensor(x) for x in xs),
                            tuple(sg.tensor(u) for u in us), False, name)
    single = out.dtype is sg.float32      # (cast): differences in single precision
    eps, rtol = (1e-3, 1e-3) if single else (1e-6, 1e-6)
    plus = _value(f(*[sg.tensor(x + eps * u) for x, u in zip(xs, us)]))
    minus = _value(f(*[sg.tensor(x - eps * u) for x, u in zip(xs, us)]))
    fd = (plus - minus) / (2 * eps)
    if name in STEPS:
        fd = np.zeros_like(fd)
    np.testing.assert_allclose(_value(out), _value(f(*[sg.tensor(x) for x in xs])))
    np.testing.assert_allclose(_value(tangent), fd, rtol=rtol, atol=rtol / 10)


@pytest.mark.parametrize("name", DIFFERENTIABLE)
def test_jvp_is_the_transpose_of_the_vjp(name):
    rng = _rng(name, 1)
    operands, attrs = sample(name, rng)
    diff = _differentiated(name, operands)
    f = _as_function(name, operands, attrs, diff)
    xs = tuple(sg.tensor(operands[i]) for i in diff)
    us = _tangents(name, rng, xs)
    out, tangent = jvp_call(f, xs, tuple(sg.tensor(u) for u in us), False, name)
    v = rng.normal(size=tuple(out.shape))
    _, vjp_fn = vjp_call(f, xs, False, name)
    cts = vjp_fn(sg.tensor(v))
    left = float(np.sum(v * _value(tangent)))
    right = sum(float(np.sum(_value(c) * u)) for c, u in zip(cts, us))
    rel = 1e-6 if out.dtype is sg.float32 else 1e-10
    assert left == pytest.approx(right, rel=rel, abs=1e-12)


def _patterns(n):
    """Which operands are batched: all, and each alone."""
    out = [tuple([0] * n)]
    if n > 1:
        out += [tuple(0 if i == k else None for i in range(n)) for k in range(n)]
    return out


B = 3


def _batch(name, pattern):
    """(batched operands, the per-example operands, attrs)."""
    base, attrs = sample(name, _rng(name))
    examples = [sample(name, _rng(name, 10 + b))[0] for b in range(B)]
    per_example = [[ex[i] if axis is not None else base[i] for i, axis in enumerate(pattern)]
                   for ex in examples]
    batched = [np.stack([ex[i] for ex in examples]) if axis is not None else base[i]
               for i, axis in enumerate(pattern)]
    return batched, per_example, attrs


@pytest.mark.parametrize("name", OPS_SAMPLED)
def test_batching_rule_matches_a_loop(name):
    n = len(sample(name, _rng(name))[0])
    for pattern in _patterns(n):
        batched, per_example, attrs = _batch(name, pattern)
        got = vmap_call(lambda *xs: apply(name, *xs, **attrs), pattern, 0, None,
                        tuple(sg.tensor(a) for a in batched), {}, name)
        want = np.stack([_value(apply(name, *[sg.tensor(a) for a in ex], **attrs))
                         for ex in per_example])
        assert got.shape == want.shape, (pattern, got.shape, want.shape)
        np.testing.assert_allclose(_value(got), want, rtol=1e-12, atol=1e-12,
                                   err_msg=f"in_axes={pattern}")


@pytest.mark.parametrize("name", DIFFERENTIABLE)
def test_batched_gradients_match_a_loop(name):
    n = len(sample(name, _rng(name))[0])
    for pattern in _patterns(n):
        batched, per_example, attrs = _batch(name, pattern)
        diff = _differentiated(name, batched)
        ts = [sg.tensor(a, requires_grad=i in diff) for i, a in enumerate(batched)]
        out = vmap_call(lambda *xs: apply(name, *xs, **attrs), pattern, 0, None,
                        tuple(ts), {}, name)
        w = _rng(name, 99).normal(size=tuple(out.shape))
        (out * sg.tensor(w)).sum().backward()
        want = [np.zeros_like(a) for a in batched]
        for b, ex in enumerate(per_example):
            xs = [sg.tensor(a, requires_grad=i in diff) for i, a in enumerate(ex)]
            (apply(name, *xs, **attrs) * sg.tensor(w[b])).sum().backward()
            for i in diff:
                g = _value(xs[i].grad)
                if pattern[i] is None:
                    want[i] += g
                else:
                    want[i][b] = g
        for i in diff:
            np.testing.assert_allclose(_value(ts[i].grad), want[i], rtol=1e-10, atol=1e-12,
                                       err_msg=f"operand {i}, in_axes={pattern}")


def test_an_op_without_a_batching_rule_is_named(monkeypatch):
    import dataclasses
    monkeypatch.setitem(OPS, "cumsum", dataclasses.replace(OPS["cumsum"], batch=None))

    def f(x):
        return sg.cumsum(sg.sin(x), 0)
    with pytest.raises(NotImplementedError, match="op 'cumsum' has no batching rule"):
        vmap_call(f, 0, 0, None, (sg.tensor(np.ones((2, 3))),), {}, "f")
