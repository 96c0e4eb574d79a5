"""Where real and complex (or float16 and complex) meet, torch's way: the backward functions
that give a real operand a complex gradient raise torch's engine error (``KEEP_COMPLEX``),
float16 parts refuse to make complex32, float_power's ``out=`` must be float64 or complex128,
and a tensor exponent is C's pow (a Python number's 0.5 is sqrt). Expected values are torch
2.13's, written down; with torch installed, compared live too."""

from __future__ import annotations

import math

import numpy as np
import pytest

import symgrad as sg

ENGINE = "Expected isFloatingType(grad.scalar_type()) || (input_is_complex == grad_is_complex)"
COND = [True, False, True]


def _mixed(lib, name, real_first):
    z = lib.tensor(np.array([[1 + 0.5j, -0.25j, 2.0]] * 2, np.complex64))
    r = lib.tensor(np.array([0.7, -0.3, 0.1]), requires_grad=True)
    a, b = (r, z) if real_first else (z, r)
    if name == "where":
        return r, lib.where(lib.tensor(COND), a, b)
    return r, getattr(lib, name)(a, b)


@pytest.mark.parametrize("real_first", [True, False])
@pytest.mark.parametrize("name", ["logaddexp", "ldexp", "where"])
def test_complex_gradient_of_a_real_operand_is_torch_error(name, real_first):
    r, out = _mixed(sg, name, real_first)
    assert out.dtype is sg.complex128
    with pytest.raises(RuntimeError, match=r"Expected isFloatingType\(grad.scalar_type\(\)\)"):
        out.abs().sum().backward()


def test_other_ops_give_a_real_operand_the_real_part():
    r, out = _mixed(sg, "mul", False)
    out.real.sum().backward()      # d/dr sum(Re(z r)) = sum over rows of Re(z)
    np.testing.assert_allclose(r.grad.numpy(), [2.0, 0.0, 4.0])
    z = sg.tensor([1j, 2.0, 3j], requires_grad=True)   # complex operands of where: no error
    sg.where(sg.tensor(COND), z, sg.tensor([0.5, 0.5, 0.5])).abs().sum().backward()
    np.testing.assert_allclose(z.grad.numpy(), [1j, 0, 1j])


def test_against_torch():
    torch = pytest.importorskip("torch")
    for name in ("logaddexp", "ldexp", "where", "mul"):
        for real_first in (True, False):
            raised = []
            for lib in (torch, sg):
                _, out = _mixed(lib, name, real_first)
                try:
                    out.abs().sum().backward()
                    raised.append(None)
                except RuntimeError as e:
                    raised.append(str(e))
            assert raised[0] == raised[1], (name, real_first)
            assert (raised[0] is None) == (name == "mul")


@pytest.mark.parametrize("make", [lambda h: sg.complex(h, h),
                                  lambda h: sg.view_as_complex(h.reshape(3, 2))])
def test_float16_parts_refuse_complex32(make):
    with pytest.raises(TypeError, match=r"complex32 \(ComplexHalf\)"):
        make(sg.ones(6, dtype=sg.float16))


def test_polar_float16_and_view_as_complex_checks_come_first():
    h = sg.ones(3, dtype=sg.float16)
    with pytest.raises(NotImplementedError, match="\"polar_cpu\" not implemented for 'Half'"):
        sg.polar(h, h)
    with pytest.raises(TypeError, match="must be Tensor, not float"):
        sg.polar(h, 1e5)
    with pytest.raises(RuntimeError, match="last dimension of size 2"):
        sg.view_as_complex(h)


@pytest.mark.parametrize("args,out,want", [
    ((sg.ones(3, dtype=sg.int64), sg.ones(3, dtype=sg.int64)), sg.float32, "Float", ),
    ((sg.ones(3), 2), sg.int64, "Long"),
    ((sg.ones(3, dtype=sg.complex64), 2), sg.complex64, "ComplexFloat"),
    ((2, sg.ones(3)), sg.float32, "Float"),
])
def test_float_power_out_dtype(args, out, want):
    expected = "ComplexDouble" if want == "ComplexFloat" else "Double"
    with pytest.raises(RuntimeError, match=f"the output given to float_power has dtype {want} "
                                           f"but the operation's result requires dtype "
                                           f"{expected}"):
        sg.float_power(*args, out=sg.zeros(3, dtype=out))
    ok = sg.zeros(3, dtype=sg.complex128 if want == "ComplexFloat" else sg.float64)
    assert sg.float_power(*args, out=ok) is ok


# torch 2.13: (-0.0) ** e and x ** e for a tensor e (C's pow), x ** 0.5 for a number (sqrt)
E = [0.5, -0.5, 2.0, -1.0]
RPOW_VALUE = [0.0, math.inf, 0.0, -math.inf]
RPOW_GRAD = [0.0, -math.inf, 0.0, math.inf]     # out * log(-0.0), 0 where e >= 0


def test_tensor_exponent_is_pow_and_number_half_is_sqrt():
    e = sg.tensor(E, requires_grad=True)
    out = (-0.0) ** e
    out.sum().backward()
    np.testing.assert_array_equal(out.detach().numpy(), RPOW_VALUE)
    np.testing.assert_array_equal(np.signbit(out.detach().numpy()), [False] * 3 + [True])
    np.testing.assert_array_equal(e.grad.numpy(), RPOW_GRAD)
    x = sg.tensor([-0.0, -math.inf])
    for exponent in (sg.tensor(0.5), sg.tensor([0.5, 0.5])):
        np.testing.assert_array_equal((x ** exponent).numpy(), [0.0, math.inf])
        assert not np.signbit((x ** exponent).numpy()[0])
    root = (x ** 0.5).numpy()
    assert root[0] == 0 and np.signbit(root[0]) and math.isnan(root[1])
    compiled = sg.compile(lambda t, u: (t ** u, t ** 0.5))
    tensor_pow, number_pow = compiled(x, sg.tensor([0.5, 0.5]))
    np.testing.assert_array_equal(np.asarray(tensor_pow), [0.0, math.inf])
    assert np.signbit(np.asarray(number_pow)[0])


def test_tensor_exponent_against_torch():
    torch = pytest.importorskip("torch")
    e = torch.tensor(E, requires_grad=True)
    out = (-0.0) ** e
    out.sum().backward()
    np.testing.assert_array_equal(out.detach().numpy(), RPOW_VALUE)
    np.testing.assert_array_equal(e.grad.numpy(), RPOW_GRAD)
