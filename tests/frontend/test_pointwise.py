"""torch's elementwise math (symgrad.frontend.functions.pointwise, ops/pointwise.py): values against
Python's math and mpmath element by element, eagerly and compiled, in float64 and float32;
gradients against float64 central differences, eagerly and compiled, and twice for the
lgamma -> digamma -> polygamma chain; integer // and %; the in-place forms; torch's errors.
The torch cross-checks (values, gradients, grad_fn names, special values) are in
test_pointwise_torch.py.
"""

import math

import mpmath
import numpy as np
import pytest

import symgrad as sg
from tests.references import central_differences, gradient

# name -> (the reference for one element, the domain the test draws from)
UNARY = {
    "tan": (math.tan, (-1.4, 1.4)), "asin": (math.asin, (-0.95, 0.95)),
    "acos": (math.acos, (-0.95, 0.95)), "atan": (math.atan, (-5, 5)),
    "sinh": (math.sinh, (-4, 4)), "cosh": (math.cosh, (-4, 4)),
    "asinh": (math.asinh, (-5, 5)), "acosh": (math.acosh, (1.05, 6)),
    "atanh": (math.atanh, (-0.95, 0.95)), "exp2": (lambda v: 2.0 ** v, (-5, 5)),
    "log2": (math.log2, (0.05, 9)), "log10": (math.log10, (0.05, 9)),
    "erf": (math.erf, (-3, 3)), "erfc": (math.erfc, (-3, 3)),
    "erfinv": (lambda v: float(mpmath.erfinv(v)), (-0.999, 0.999)),
    "lgamma": (math.lgamma, (-4.9, 6)),
    "digamma": (lambda v: float(mpmath.digamma(v)), (-4.9, 8)),
    "sinc": (lambda v: math.sin(math.pi * v) / (math.pi * v) if v else 1.0, (-3, 3)),
    "floor": (math.floor, (-5, 5)), "ceil": (math.ceil, (-5, 5)),
    "trunc": (math.trunc, (-5, 5)), "round": (round, (-5, 5)),
    "frac": (lambda v: v - math.trunc(v), (-5, 5)),
    "reciprocal": (lambda v: 1 / v, (0.2, 4)), "deg2rad": (math.radians, (-400, 400)),
    "rad2deg": (math.degrees, (-7, 7)), "logit": (lambda v: math.log(v / (1 - v)), (0.02, 0.98)),
    "sgn": (lambda v: (v > 0) - (v < 0), (-3, 3)),
}


def _xlogy(x, y):
    return 0.0 if x == 0 else x * math.log(y)


def _remainder(a, b):
    return a - b * math.floor(a / b)


BINARY = {
    "atan2": (math.atan2, (-3, 3), (-3, 3)), "hypot": (math.hypot, (-3, 3), (-3, 3)),
    "copysign": (math.copysign, (-3, 3), (-3, 3)), "xlogy": (_xlogy, (-3, 3), (0.1, 5)),
    "xlog1py": (lambda x, y: x * math.log1p(y), (-3, 3), (-0.9, 5)),
    "logaddexp": (lambda a, b: math.log(math.exp(a) + math.exp(b)), (-5, 5), (-5, 5)),
    "logaddexp2": (lambda a, b: math.log2(2 ** a + 2 ** b), (-5, 5), (-5, 5)),
    "fmax": (max, (-3, 3), (-3, 3)), "fmin": (min, (-3, 3), (-3, 3)),
    "fmod": (math.fmod, (-7, 7), (0.5, 3)), "remainder": (_remainder, (-7, 7), (-3, -0.5)),
    "floor_divide": (lambda a, b: math.floor(a / b), (-7, 7), (0.5, 3)),
    "zeta": (lambda s, q: float(mpmath.zeta(s, q)), (1.5, 6), (0.2, 5)),
    "polygamma_1": (lambda _, x: float(mpmath.polygamma(1, x)), (1, 1), (-3.9, 6)),
    "polygamma_3": (lambda _, x: float(mpmath.polygamma(3, x)), (3, 3), (0.1, 6)),
}

SPECIAL = ("erfinv", "digamma", "polygamma_1", "polygamma_3", "zeta")


def _draw(domain, n, seed):
    lo, hi = domain
    return np.random.default_rng(seed).uniform(lo, hi, n)


def _call(name, *args):
    if name.startswith("polygamma"):
        return sg.polygamma(int(name[-1]), args[1])
    if name == "zeta":
        return sg.special.zeta(*args)
    if name == "xlog1py":
        return sg.special.xlog1py(*args)
    return getattr(sg, name)(*args)


def _cases():
    """(name, reference, operand arrays) for every op."""
    cases = []
    for i, (name, (ref, domain)) in enumerate(UNARY.items()):
        cases.append((name, ref, [_draw(domain, 24, i)]))
    for i, (name, (ref, d0, d1)) in enumerate(BINARY.items()):
        cases.append((name, ref, [_draw(d0, 24, 100 + i), _draw(d1, 24, 200 + i)]))
    return cases


CASES = _cases()


def _expected(ref, arrays):
    return np.array([ref(*map(float, values)) for values in zip(*arrays)])


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_values_match_the_scalar_references_eager_and_compiled(dtype):
    dt = getattr(sg, dtype)
    inputs = [[sg.tensor(a, dtype=dt) for a in arrays] for _, _, arrays in CASES]

    def every_op(*flat):
        out, k = [], 0
        for name, _, arrays in CASES:
            out.append(_call(name, *flat[k:k + len(arrays)]))
            k += len(arrays)
        return tuple(out)

    flat = [t for ts in inputs for t in ts]
    compiled = sg.compile(every_op)(*flat)
    for (name, ref, arrays), ts, got_c in zip(CASES, inputs, compiled):
        # float32: the reference at the float32 operands, rounded once
        operands = [t.numpy().astype(np.float64) for t in ts]
        want = _expected(ref, operands)
        got_e = _call(name, *ts).numpy().astype(np.float64)
        rtol = 1e-13 if dtype == "float64" else 3e-6
        if dtype == "float64" and name in SPECIAL:
            rtol = 1e-12
        for how, got in (("eager", got_e), ("compiled", np.asarray(got_c, np.float64))):
            np.testing.assert_allclose(got, want, rtol=rtol, atol=rtol, err_msg=f"{name} {how}")


# Gradients near poles are checked against mpmath in test_lgamma_second_and_third_derivatives.
NEAR_POLES = {"polygamma_1": (0.3, 6), "polygamma_3": (0.5, 6), "digamma": (0.3, 8),
              "lgamma": (0.3, 6), "zeta": (0.5, 5)}
DIFFERENTIABLE = [c for c in CASES
                  if c[0] not in ("floor", "ceil", "trunc", "round", "sgn", "floor_divide")]


@pytest.mark.parametrize("name,ref,arrays", DIFFERENTIABLE, ids=[c[0] for c in DIFFERENTIABLE])
def test_gradients_match_central_differences(name, ref, arrays):
    """Each operand torch differentiates, away from kinks, eagerly and compiled."""
    operands = [1] if name.startswith("polygamma") or name == "zeta" else range(len(arrays))
    for k in operands:
        def f(t, k=k):
            args = [sg.tensor(a) for a in arrays]
            args[k] = t
            return (_call(name, *args) * sg.tensor(np.linspace(0.5, 1.5, t.shape[0]))).sum()
        x0 = arrays[k].copy()
        if name in NEAR_POLES:      # keep f's sum free of huge terms that swamp differences
            x0 = _draw(NEAR_POLES[name], len(x0), 7)
        want = central_differences(f, x0)
        for how in ("eager", "compiled"):
            np.testing.assert_allclose(gradient(f, x0, how), want, rtol=1e-6, atol=1e-7,
                                       err_msg=f"{name} d/operand{k} {how}")


def test_steps_have_zero_gradients():
    x = sg.tensor([-1.5, 0.3, 2.5], requires_grad=True)
    (sg.floor(x) + sg.ceil(x) + sg.trunc(x) + sg.round(x) + sg.round(x, decimals=1)
     + sg.div(x, 2, rounding_mode="floor") + sg.div(x, 2, rounding_mode="trunc")
     + sg.sgn(x)).sum().backward()
    assert x.grad.tolist() == [0.0, 0.0, 0.0]


@pytest.mark.parametrize("how", ["eager", "compiled"])
def test_lgamma_second_and_third_derivatives(how):
    """d/dx lgamma = digamma, d2 = polygamma(1), d3 = polygamma(2): graph rules all the way."""
    x0 = np.array([0.3, 1.7, 4.2, -2.5])

    def second(t):
        (g,) = sg.autograd.grad(sg.lgamma(t).sum(), t, create_graph=True)
        return g.sum()

    def third(t):
        (g,) = sg.autograd.grad(sg.lgamma(t).sum(), t, create_graph=True)
        (h,) = sg.autograd.grad(g.sum(), t, create_graph=True)
        return h.sum()

    want2 = [float(mpmath.polygamma(1, v)) for v in x0]
    want3 = [float(mpmath.polygamma(2, v)) for v in x0]
    if how == "compiled":
        got2 = np.asarray(sg.grad(second)(sg.tensor(x0)))
        got3 = np.asarray(sg.grad(third)(sg.tensor(x0)))
    else:
        got2, got3 = gradient(second, x0, "eager"), gradient(third, x0, "eager")
    np.testing.assert_allclose(got2, want2, rtol=1e-12)
    np.testing.assert_allclose(got3, want3, rtol=1e-12)


def test_special_values_eager_and_compiled_agree():
    """Poles, infinities, NaN and signed zeros: the C helpers give the NumPy references'
    values (and torch's, checked in test_pointwise_torch.py)."""
    inf, nan = math.inf, math.nan
    x = sg.tensor([0.0, -0.0, -1.0, -2.5, inf, -inf, nan, 1.0, -1.0, 1e-300, 2.0],
                  dtype=sg.float64)
    ops = {"digamma": sg.digamma, "lgamma": sg.lgamma, "erfinv": sg.erfinv,
           "trigamma": lambda t: sg.polygamma(1, t), "polygamma2": lambda t: sg.polygamma(2, t),
           "floor": sg.floor, "round": sg.round, "frac": sg.frac, "sinc": sg.sinc,
           "signbit": sg.signbit, "entr": sg.special.entr, "erfc": sg.erfc}
    compiled = sg.compile(lambda t: tuple(f(t) for f in ops.values()))(x)
    for (name, f), got in zip(ops.items(), compiled):
        want = f(x).numpy()
        np.testing.assert_array_equal(np.signbit(np.asarray(got)), np.signbit(want), name)
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-13, equal_nan=True,
                                   err_msg=name)   # libm and NumPy may differ in an ulp
    values = sg.digamma(x).tolist()
    assert values[:2] == [-inf, inf] and math.isnan(values[2]) and math.isnan(values[6])
    assert sg.erfinv(sg.tensor([1.0, -1.0, 2.0])).tolist()[:2] == [inf, -inf]


@pytest.mark.parametrize("how", ["eager", "compiled"])
def test_integer_floor_division_and_remainder_follow_python(how):
    a = np.array([7, -7, 7, -7, 0, 123456789012, -5])
    b = np.array([2, 2, -2, -2, 3, 1000, 7])

    def ops(x, y):
        return x // y, x % y, sg.div(x, y, rounding_mode="trunc"), sg.fmod(x, y), x // 3, -9 % y
    run = sg.compile(ops) if how == "compiled" else ops
    got = [np.asarray(v.numpy() if hasattr(v, "numpy") else v) for v in
           run(sg.tensor(a), sg.tensor(b))]
    assert all(v.dtype == np.int64 for v in got)
    assert got[0].tolist() == [int(p) // int(q) for p, q in zip(a, b)]
    assert got[1].tolist() == [int(p) % int(q) for p, q in zip(a, b)]
    assert got[2].tolist() == [int(p / q) for p, q in zip(a, b)]
    assert got[3].tolist() == [int(math.fmod(p, q)) for p, q in zip(a, b)]
    assert got[4].tolist() == [int(p) // 3 for p in a]
    assert got[5].tolist() == [-9 % int(q) for q in b]


def test_integer_division_by_zero_raises_eagerly_and_is_zero_compiled():
    a, b = sg.tensor([7, -7]), sg.tensor([0, 2])
    for f in (lambda x, y: x // y, lambda x, y: x % y, sg.fmod,
              lambda x, y: sg.div(x, y, rounding_mode="trunc")):
        with pytest.raises(RuntimeError, match="ZeroDivisionError"):
            f(a, b)
        assert np.asarray(sg.compile(f)(a, b)).tolist()[0] == 0


def test_float_floor_division_and_remainder_follow_python():
    a = np.array([7.5, -7.5, 7.5, -7.5, 0.0, -0.0, 1e300, 5.0, 0.1])
    b = np.array([2.0, 2.0, -2.0, -2.0, 3.0, 3.0, 1e-300, 0.0, 0.01])
    x, y = sg.tensor(a), sg.tensor(b)
    for how, (q, r) in (("eager", (x // y, x % y)),
                        ("compiled", sg.compile(lambda s, t: (s // t, s % t))(x, y))):
        q, r = np.asarray(q.numpy() if hasattr(q, "numpy") else q), \
            np.asarray(r.numpy() if hasattr(r, "numpy") else r)
        for i, (p, d) in enumerate(zip(a, b)):
            if d == 0:
                assert q[i] == math.inf and math.isnan(r[i]), how
                continue
            assert q[i] == p // d, (how, p, d)             # Python's float // and %
            assert r[i] == math.fmod(p, d) + (d if math.fmod(p, d) and
                                              (d < 0) != (math.fmod(p, d) < 0) else 0), how


def test_not_differentiable_ops_raise_torch_errors():
    x = sg.tensor([1.0, 2.0], requires_grad=True)
    y = x // 2
    assert y.requires_grad and type(y.grad_fn).__name__ == "NotImplemented"
    with pytest.raises(RuntimeError, match="floor_divide is not implemented"):
        y.sum().backward()
    with pytest.raises(RuntimeError, match="heaviside is not implemented"):
        sg.heaviside(x, x).sum().backward()
    with pytest.raises(RuntimeError, match="'zeta' is not implemented"):
        sg.special.zeta(x + 1, 1.0).sum().backward()


def test_inplace_forms_update_the_tensor_and_its_gradient():
    base = sg.tensor([0.2, 0.5, 0.9], requires_grad=True)
    y = base * 1.0
    y.asin_().mul_(2).floor_()          # floor: a zero gradient through the chain
    y.sum().backward()
    assert base.grad.tolist() == [0.0, 0.0, 0.0]
    z = base * 1.0
    out = z.erf_()
    assert out is z and z.grad_fn.name() == "ErfBackward0"
    z.sum().backward()
    np.testing.assert_allclose(base.grad.numpy(),
                               2 / math.sqrt(math.pi) * np.exp(-base.detach().numpy() ** 2),
                               rtol=1e-6)
    with pytest.raises(RuntimeError, match="leaf Variable"):
        base.exp_()
    t = sg.tensor([7, -7])
    t //= 2
    t %= 3
    assert t.tolist() == [0, 2]


def test_round_decimals_and_aliases():
    x = sg.tensor([1.2345, -2.5, 125.0, 0.5])
    assert sg.round(x, decimals=2).tolist() == pytest.approx([1.23, -2.5, 125.0, 0.5])
    assert sg.round(x, decimals=-1).tolist() == [0.0, -0.0, 120.0, 0.0]
    assert sg.round(x).tolist() == [1.0, -2.0, 125.0, 0.0]       # half to even
    unit = x.clamp(-1, 1)
    for alias, name, args in (("arcsin", "asin", (unit,)), ("fix", "trunc", (x,)),
                              ("clip", "clamp", (x, -1, 1)), ("arctan2", "atan2", (x, unit)),
                              ("true_divide", "div", (x, unit))):
        assert getattr(sg, alias)(*args).tolist() == getattr(sg, name)(*args).tolist()
        assert getattr(args[0], alias)(*args[1:]).tolist() == getattr(sg, name)(*args).tolist()
    assert sg.floor(sg.tensor([3, -4])).tolist() == [3, -4]
    assert sg.tensor([1.0, 2.0]).polygamma(1).tolist() == pytest.approx(
        [math.pi ** 2 / 6, math.pi ** 2 / 6 - 1])


def test_composites_against_numpy():
    rng = np.random.default_rng(5)
    a, b, c = rng.normal(size=(3, 6))
    x, y, z = sg.tensor(a), sg.tensor(b), sg.tensor(c)
    np.testing.assert_allclose(sg.addcmul(x, y, z, value=0.5).numpy(), a + 0.5 * b * c)
    np.testing.assert_allclose(sg.addcdiv(x, y, z, value=2).numpy(), a + 2 * b / c)
    np.testing.assert_allclose(sg.lerp(x, y, 0.3).numpy(), a + 0.3 * (b - a))
    np.testing.assert_allclose(sg.lerp(x, y, 0.8).numpy(), b - (b - a) * 0.2)
    np.testing.assert_allclose(sg.ldexp(x, sg.tensor([1, 2, 3, -1, 0, 5])).numpy(),
                               a * 2.0 ** np.array([1, 2, 3, -1, 0, 5]))
    np.testing.assert_allclose(sg.float_power(sg.tensor([2], dtype=sg.int64), 0.5).numpy(),
                               [math.sqrt(2)])
    assert sg.float_power(sg.tensor([2.0], dtype=sg.float32), 2).dtype is sg.float64
    big = np.finfo(np.float64)
    got = sg.nan_to_num(sg.tensor([math.nan, math.inf, -math.inf, 1.5], dtype=sg.float64))
    got = got.tolist()
    assert got == [0.0, big.max, big.min, 1.5]
    assert sg.nan_to_num(sg.tensor([math.nan, math.inf]), nan=1.0, posinf=9.0).tolist() == \
        [1.0, 9.0]
    np.testing.assert_allclose(sg.special.ndtr(x).numpy(),
                               [0.5 * math.erfc(-v / math.sqrt(2)) for v in a], rtol=1e-14)
    np.testing.assert_allclose(sg.mvlgamma(x.abs() + 2, 3).numpy(),
                               [3 / 2 * math.log(math.pi) + sum(math.lgamma(v - j / 2)
                                                                for j in range(3))
                                for v in np.abs(a) + 2], rtol=1e-13)
    assert sg.logical_xor(sg.tensor([True, False, True]), sg.tensor([True, True, False])
                          ).tolist() == [False, True, True]


def test_gradients_of_composites():
    x0 = np.array([0.2, 0.45, 0.7])
    for f in (lambda t: sg.logit(t).sum(), lambda t: sg.logit(t, eps=0.1).sum(),
              lambda t: sg.reciprocal(t).sum(), lambda t: sg.deg2rad(t).sum(),
              lambda t: sg.nan_to_num(sg.log(t)).sum(), lambda t: sg.mvlgamma(t + 2, 2).sum(),
              lambda t: sg.addcdiv(t, t * 2, t + 1, value=3).sum(),
              lambda t: sg.lerp(t, t * t, t).sum(), lambda t: sg.special.ndtr(t).sum()):
        want = central_differences(f, x0)
        for how in ("eager", "compiled"):
            np.testing.assert_allclose(gradient(f, x0, how), want, rtol=1e-7, atol=1e-9)


def test_zero_dimensional_operands():
    """Each op on 0-d tensors (NumPy hands scalars back from some references)."""
    for name, ref, arrays in CASES:
        args = [sg.tensor(float(a[0]), dtype=sg.float64) for a in arrays]
        got = _call(name, *args)
        assert got.shape == () and got.item() == pytest.approx(ref(*map(float, (a[0] for a in
                                                                                 arrays))),
                                                                rel=1e-12), name
