"""Tensor's arithmetic operators on plain eager tensors (``core.plain_ops``): the same values,
dtypes and autograd state as the general path, and the general path wherever a graph or
another dtype rule is involved."""

import numpy as np
import pytest

import symgrad as sg
from symgrad.frontend.core import plain_ops
from symgrad.frontend.functions.dtype_checks import RULES, _clear

RNG = np.random.default_rng(7)
SPECIAL = [0.0, -0.0, 1.0, -2.5, np.inf, -np.inf, np.nan, 1e-30, 3e38]


def _values(dtype):
    v = np.concatenate([RNG.standard_normal(13), SPECIAL]).astype(dtype)
    return v


def _same(got, want):
    got = got if isinstance(got, np.ndarray) else got.numpy()
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got.reshape(-1).view(np.uint8),
                                  np.ascontiguousarray(want).reshape(-1).view(np.uint8))


def test_the_operators_it_takes_pass_every_dtype_rule_for_float32_and_float64():
    for name in list(plain_ops.OPERATORS) + ["__neg__"] + list(plain_ops.METHODS):
        assert _clear(RULES.get(f"Tensor.{name}", ())) == {"float32", "float64"}, name


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_values_are_numpys_in_the_tensors_dtype_bit_for_bit(dtype):
    a, b = _values(dtype), _values(dtype)[::-1].copy()
    x, y = sg.tensor(a), sg.tensor(b)
    t = np.dtype(dtype).type
    with np.errstate(all="ignore"):
        _same(x + y, a + b)
        _same(x - y, a - b)
        _same(x * y, a * b)
        _same(x / y, a / b)
        _same(x * 2.5, a * t(2.5))
        _same(2.5 * x, a * t(2.5))
        _same(3 - x, t(3) - a)
        _same(1 + x, a + t(1))
        _same(-x, -a)
        _same(x.mul(y), a * b)
        _same(x.sub(0.5), a - t(0.5))
        _same(x ** 2, a * a)                 # torch's x * x
        _same(x ** 3, (a * a) * a)
        _same(x.pow(-1), np.reciprocal(a))
        _same(x ** 0.5, np.sqrt(a))           # torch's sqrt, not C's pow
        _same(x ** 1.7, np.power(a, t(1.7)))


def test_a_result_is_a_new_array_an_update_of_an_operand_does_not_reach():
    x = sg.tensor([1.0, 2.0, 3.0])
    y = x * 1.0
    x += 1.0
    assert y.tolist() == [1.0, 2.0, 3.0]
    assert not np.shares_memory(y.numpy(), x.numpy())


def test_grad_mode_and_requires_grad_keep_the_graph():
    w = sg.tensor([1.0, -2.0], requires_grad=True)
    y = w * 3.0
    assert y.grad_fn is not None and type(y.grad_fn).__name__ == "MulBackward0"
    (y - 1.0).sum().backward()
    assert w.grad.tolist() == [3.0, 3.0]
    with sg.no_grad():
        z = w * 3.0
    assert z.grad_fn is None and not z.requires_grad and z.tolist() == [3.0, -6.0]


def test_other_dtypes_promote_by_torchs_rules():
    i = sg.tensor([1, 2, 3])
    assert (i * 2.5).dtype == sg.float32 and (i * 2.5).tolist() == [2.5, 5.0, 7.5]
    f = sg.tensor([1.0, 2.0], dtype=sg.float32)
    d = sg.tensor(2.0, dtype=sg.float64)
    assert (f * d).dtype == sg.float32            # a 0-d tensor does not widen a dimensioned one
    assert (f * sg.tensor([2.0, 2.0], dtype=sg.float64)).dtype == sg.float64
    h = sg.tensor([1.0, 2.0], dtype=sg.float16)
    assert (h * 3.0).dtype == sg.float16
    b = sg.tensor([True, False])
    assert (f * b).tolist() == [1.0, 0.0]
    for t in (f, f.double()):     # torch refuses a bool operand of -, either side
        with pytest.raises(RuntimeError, match="Subtraction, the `-` operator, with a bool"):
            t - b
        with pytest.raises(RuntimeError, match="Subtraction"):
            b - t
        with pytest.raises(RuntimeError, match="Subtraction"):
            t.sub(b)
    assert (f * True).tolist() == [1.0, 2.0]


def test_a_tensor_exponent_is_pow_not_sqrt():
    x = sg.tensor([-0.0, 4.0])
    assert np.signbit((x ** 0.5).numpy()[0])                  # sqrt(-0.0) = -0.0
    assert not np.signbit((x ** sg.tensor(0.5)).numpy()[0])   # pow(-0.0, 0.5) = +0.0


def test_views_keep_their_layout():
    m = sg.tensor(RNG.standard_normal((3, 4)).astype(np.float32))
    t = m.t()
    y = t * 2.0
    assert y.stride() == t.stride() and y.tolist() == (m.numpy().T * np.float32(2)).tolist()


def test_inside_a_compiled_function_ops_are_traced():
    @sg.compile
    def f(x):
        return (x * 2.0 - 1.0) ** 2

    a = np.array([0.5, 1.5, -2.0], np.float32)
    out = f(sg.tensor(a))
    _same(out, ((a * np.float32(2)) - np.float32(1)) ** 2)


def test_complex_ops_without_a_graph_are_numpys_and_refusals_stay_torchs():
    a = (RNG.standard_normal(8) + 1j * RNG.standard_normal(8)).astype(np.complex64)
    b = (RNG.standard_normal(8) + 1j * RNG.standard_normal(8)).astype(np.complex64)
    z, w = sg.tensor(a), sg.tensor(b)
    _same(z * w, a * b)
    _same(z / w, a / b)
    _same(z * 2.0, a * np.complex64(2.0))
    _same(sg.exp(z), np.exp(a))
    assert (z + w).dtype == sg.complex64            # (add: torch's x + 1 * y, not NumPy's)
    with pytest.raises(NotImplementedError, match="lt_cpu"):
        z < w
    assert z.abs().dtype == sg.float32


def test_keywords_and_missing_operands_are_the_functions_own():
    x, y = sg.tensor([1.0, 2.0]), sg.tensor([3.0, 4.0])
    assert x.__add__(y, alpha=2).tolist() == [7.0, 10.0]
    assert x.add(y, alpha=2).tolist() == [7.0, 10.0]
    assert x.pow(exponent=2).tolist() == [1.0, 4.0] == sg.pow(input=x, exponent=2).tolist()
    assert x.__truediv__(y, rounding_mode="floor").tolist() == [0.0, 0.0]
    with pytest.raises(TypeError):
        x.mul()


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_sum_of_every_element_is_the_functions(dtype):
    """``x.sum()`` (the method, no argument) skips the keyword mapping and the dtype checks:
    the same bits and node as ``sg.sum(x)``, and the function's own path for any argument,
    another dtype or a graph."""
    a = np.concatenate([RNG.standard_normal(3000), [1e30, -1e30]]).astype(dtype)
    x = sg.tensor(a.reshape(2, 1501))
    _same(x.sum(), sg.sum(x).numpy())
    assert x.sum().shape == () and x.sum().dtype == x.dtype
    np.testing.assert_allclose(x.sum().item(), a.sum(dtype=np.float64), rtol=1e-6, atol=1e-3)
    _same(x.sum(1), sg.sum(x, 1).numpy())
    _same(x.sum(dim=0, keepdim=True), sg.sum(x, 0, keepdim=True).numpy())
    i = sg.tensor(np.arange(6))
    assert i.sum().dtype == sg.int64 and i.sum().item() == 15
    w = sg.tensor(a[:4].copy(), requires_grad=True)
    s = w.sum()
    assert s.grad_fn.name() == "SumBackward0"
    s.backward()
    _same(w.grad, np.ones(4, dtype))
    with pytest.raises(TypeError):
        x.sum(1, 2, 3, 4)
