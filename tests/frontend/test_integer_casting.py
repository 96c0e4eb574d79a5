"""torch's integer and casting rules where the op sweep does not reach: bitwise ops and integer
powers compiled to C (the sweep runs eagerly), the traced integer power's 63 squarings, the
c10 overflow rule at its edges, and out= writes refused by can_cast.

Oracles: hand-derived values (Python's own integer arithmetic, wrapped modulo 2**bits), and
torch itself when it is installed.
"""

import numpy as np
import pytest

import symgrad as sg
from symgrad import dtypes


def _wrap(values, bits: int, signed: bool) -> list:
    """Python integers wrapped as C's casts do."""
    out = []
    for v in values:
        v %= 2 ** bits
        out.append(v - 2 ** bits if signed and v >= 2 ** (bits - 1) else v)
    return out


A = [5, 3, -1, 0, -128, 2 ** 40 + 7]
B = [3, 6, 7, -9, 127, -2]


def _bitwise(a, b):
    return a & b, a | b, a ^ b, ~a


@pytest.mark.parametrize("dtype, bits, signed", [("int64", 64, True), ("int32", 32, True),
                                                  ("uint8", 8, False), ("int8", 8, True)])
def test_bitwise_ops_compiled_and_eager_are_pythons_bitwise_arithmetic(dtype, bits, signed):
    a = np.array(_wrap(A, bits, signed), dtype=dtype)
    b = np.array(_wrap(B, bits, signed), dtype=dtype)
    expected = [_wrap([x & y for x, y in zip(a.tolist(), b.tolist())], bits, signed),
                _wrap([x | y for x, y in zip(a.tolist(), b.tolist())], bits, signed),
                _wrap([x ^ y for x, y in zip(a.tolist(), b.tolist())], bits, signed),
                _wrap([~x for x in a.tolist()], bits, signed)]
    eager = _bitwise(sg.tensor(a), sg.tensor(b))
    compiled = sg.compile(_bitwise)(sg.tensor(a), sg.tensor(b))
    for got_e, got_c, want in zip(eager, compiled, expected):
        assert str(got_e.dtype) == f"torch.{dtype}"
        assert got_e.tolist() == want
        assert np.asarray(got_c).tolist() == want


def test_bitwise_of_bools_is_logic_and_bool_with_int_promotes():
    m = sg.tensor([True, False, True, False])
    n = sg.tensor([True, True, False, False])
    f = sg.compile(lambda m, n: (m & n, m | n, m ^ n, ~m))
    for got in (f(m, n), (m & n, m | n, m ^ n, ~m)):
        assert [np.asarray(g).tolist() for g in got] == [
            [True, False, False, False], [True, True, True, False],
            [False, True, True, False], [False, True, False, True]]
    mixed = m & sg.tensor([3, 3, 2, 2])
    assert mixed.dtype is dtypes.int64 and mixed.tolist() == [1, 0, 0, 0]


def test_bitwise_refuses_floats_as_torch():
    with pytest.raises(NotImplementedError, match="bitwise_and_cpu\" not implemented for 'Float'"):
        sg.ones(2) & sg.ones(2)
    with pytest.raises(TypeError, match="only implemented on integer and Boolean"):
        ~sg.ones(2)


def _int_pow(a: int, e: int, bits: int = 64) -> int:
    """torch's integer power: exact (wrapped), and for e < 0: 1, +-1 for base -1, else 0."""
    if e < 0:
        return 1 if a == 1 else (1 if e % 2 == 0 else -1) if a == -1 else 0
    return _wrap([a ** e], bits, True)[0]


def test_integer_power_of_tensors_traced_squares_over_all_bits():
    base = [3, -2, 7, 1, -1, -1, 0, 5, 2]
    expo = [40, 63, 3, -5, -3, -4, -1, 0, 62]
    want = [_int_pow(a, e) for a, e in zip(base, expo)]
    x, e = sg.tensor(base), sg.tensor(expo)
    assert (x ** e).tolist() == want
    assert np.asarray(sg.compile(lambda x, e: x ** e)(x, e)).tolist() == want
    u = sg.tensor([3, 2, 255], dtype=sg.uint8) ** sg.tensor([5, 9, 2], dtype=sg.uint8)
    assert u.dtype is dtypes.uint8 and u.tolist() == [243 % 256, 512 % 256, 255 ** 2 % 256]


def test_python_ints_wrap_into_narrow_dtypes_in_arithmetic_and_comparisons():
    u = sg.tensor([0, 1, 200], dtype=sg.uint8)
    assert (u - 1).tolist() == [255, 0, 199]
    assert (u * -1).tolist() == [0, 255, 56]
    assert (u > -1).tolist() == [False, False, False]       # -1 is 255 in uint8
    assert (u == 256).tolist() == [True, False, False]      # 256 is 0


def test_checked_conversions_follow_c10s_overflow_rule():
    u = sg.zeros(2, dtype=sg.uint8)
    assert u.clone().fill_(-255).tolist() == [1, 1]          # negatives down to -max wrap
    with pytest.raises(RuntimeError, match="cannot be converted to type uint8_t"):
        u.clone().fill_(-256)
    with pytest.raises(RuntimeError, match="cannot be converted to type uint8 without"):
        sg.tensor([1.0, -3.0], dtype=sg.uint8)                # floats must lie in range
    assert sg.tensor([1.0, 2.5], dtype=sg.uint8).tolist() == [1, 2]
    with pytest.raises(RuntimeError, match="c10::Half"):
        sg.full((2,), 1e5, dtype=sg.float16)
    assert sg.tensor([float("inf")], dtype=sg.float16).tolist() == [float("inf")]


def test_out_refuses_a_lower_category_and_reductions_take_outs_dtype():
    x = sg.tensor([0.5, 1.5])
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired "
                                           "output type Long"):
        sg.sin(x, out=sg.zeros(2, dtype=sg.int64))
    with pytest.raises(RuntimeError, match="Long can't be cast to the desired output type Bool"):
        sg.add(sg.tensor([1]), 1, out=sg.zeros(1, dtype=sg.bool))
    out = sg.zeros(0, dtype=sg.float64)
    assert sg.sin(x, out=out) is out and out.dtype is dtypes.float64


def test_against_torch():
    torch = pytest.importorskip("torch")
    cases = [lambda m: m.tensor([5, -3], dtype=m.int32) ^ -1,
             lambda m: m.tensor([True, False]) | 2,
             lambda m: m.tensor([200, 3], dtype=m.uint8) - 1,
             lambda m: m.tensor([3, -2]) ** m.tensor([-1, 5]),
             lambda m: 2 ** m.tensor([3, 62]),
             lambda m: m.tensor([[1, 2], [3, 4]], dtype=m.int32).matrix_power(3),
             lambda m: m.all(m.tensor([1, 2], dtype=m.uint8)),
             lambda m: m.addmm(m.ones(2, 2, dtype=m.int64), m.ones(2, 2, dtype=m.int64),
                               m.ones(2, 2, dtype=m.int64), beta=0.5, alpha=1.7)]
    for case in cases:
        mine, theirs = case(sg), case(torch)
        assert str(mine.dtype) == str(theirs.dtype)
        assert mine.tolist() == theirs.tolist()


def test_out_writes_in_place_so_views_of_out_see_the_result():
    """``out=`` of an op with no derivative formula (floor_divide, heaviside...) writes into
    out's storage when nothing requires grad: a view of ``out`` sees the result (it used to
    rebind ``out`` to a new array, leaving the view with the old values)."""
    a = np.array([4.0, -5.0, 0.0])
    cases = [(lambda t, out: sg.floor_divide(t, 2.0, out=out), np.floor_divide(a, 2.0)),
             (lambda t, out: sg.heaviside(t, sg.tensor([0.5], dtype=sg.float64), out=out),
              np.heaviside(a, 0.5))]
    for fn, want in cases:
        out = sg.zeros(3, dtype=sg.float64)
        view = out[1:]
        fn(sg.tensor(a), out)
        assert out.tolist() == want.tolist() and view.tolist() == want[1:].tolist()
