"""Small constants printed into the loops that read them (``codegen.c.tables``): the C holds
their exact values as ``static const`` tables, the results equal NumPy's, larger constants stay
behind their pointer, and a constant's values reach the build (two functions differing only
in a constant give their own results)."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

import symgrad as sg
from symgrad.codegen.c import tables


def _source(fn, *args) -> str:
    return sg.inspect(sg.compile(fn), *args).c_source


def test_row_offsets_of_an_advanced_index_are_a_table():
    """GradBench det's gather: ``a.reshape(4, 4)[arange(4), perms]``; the row offsets are a
    table, and the product of the gathered rows is NumPy's."""
    rng = np.random.default_rng(0)
    a = rng.random(16)
    perms = np.array([rng.permutation(4) for _ in range(50)])

    def f(a, perms):
        return a.reshape(4, 4)[sg.arange(4), perms].prod(1)

    text = _source(f, a, perms)
    assert re.search(r"static const int64_t cst\d+_table\[4\] = \{0, 4, 8, 12\};", text)
    want = a.reshape(4, 4)[np.arange(4), perms].prod(1)
    np.testing.assert_array_equal(np.asarray(sg.compile(f)(a, perms)), want)


# (constants are made inside the functions: an array the function reaches from outside is a
# call-time input, not a constant)
def _specials64(x):
    return x * sg.tensor([math.inf, -math.inf, math.nan, -0.0, 0.1, 1 / 3, 5e-324,
                          1.7976931348623157e308], dtype=sg.float64)


def _specials32(x):
    return x * sg.tensor([math.inf, -math.inf, math.nan, -0.0, 0.1, 1 / 3, 1e-45,
                          3.4028234663852886e38], dtype=sg.float32)


@pytest.mark.parametrize("fn, dtype", [(_specials64, np.float64), (_specials32, np.float32)])
def test_special_float_values_are_exact(fn, dtype):
    """Infinities, NaN, -0.0, the smallest subnormal, the largest value and values with no
    short decimal spelling come out of the table bit for bit."""
    values = np.array([math.inf, -math.inf, math.nan, -0.0, 0.1, 1 / 3,
                       np.finfo(dtype).smallest_subnormal, np.finfo(dtype).max], dtype)
    x = np.ones(len(values), dtype)
    assert "_table[8]" in _source(fn, x)
    got = np.asarray(sg.compile(fn)(x))
    want = x * values
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)
    assert np.array_equal(np.signbit(got), np.signbit(want))


def test_integer_and_bool_tables():
    """int64 extremes and a bool mask as tables."""
    def f(x):
        mask = sg.tensor([True, False, False, True])
        big = sg.tensor([-2**63, -1, 0, 2**63 - 1])
        return sg.where(mask, x, 0) + (big // 2).to(x.dtype)

    x = np.arange(4, dtype=np.float64)
    text = _source(f, x)
    assert re.search(r"static const uint8_t cst\d+_table\[4\] = \{1, 0, 0, 1\};", text)
    big = np.array([-2**63, -1, 0, 2**63 - 1])
    want = np.where([True, False, False, True], x, 0) + (big // 2).astype(np.float64)
    np.testing.assert_array_equal(np.asarray(sg.compile(f)(x)), want)


def test_a_large_constant_stays_behind_its_pointer():
    n = tables.TABLE_MAX + 1
    c = np.linspace(-1, 1, n)

    def f(x):
        return x * sg.linspace(-1, 1, n, dtype=sg.float64)

    x = np.full(n, 2.0)
    text = _source(f, x)
    assert "_table[" not in text and re.search(r"= cst\d+\[i0\];", text)
    np.testing.assert_array_equal(np.asarray(sg.compile(f)(x)), x * c)


def test_the_values_reach_the_build():
    """Two functions the same but for a constant's values: each its own result (the values are
    in the C text, which keys the build)."""
    def make(values):
        def f(x):
            return (x * sg.tensor(values)).sum()
        return sg.compile(f)

    x = np.arange(3.0)
    first, second = make([1.0, 2.0, 3.0]), make([1.0, 2.0, 4.0])
    assert first(x).item() == 8.0
    assert second(x).item() == 10.0
    assert first(x).item() == 8.0


def test_a_nan_payload_keeps_its_pointer():
    """C cannot spell a NaN's payload: a constant holding one is read through its pointer,
    bit for bit; the usual quiet NaN of either sign is a table."""
    payloads = np.array([0x7FF8000000000123, 0xFFF8000000000001], np.uint64).view(np.float64)

    def f(x):
        return x * sg.tensor(payloads.tolist(), dtype=sg.float64)

    x = np.ones(2)
    text = _source(f, x)
    assert "_table[" not in text and re.search(r"= cst\d+\[i0\];", text)
    got = np.asarray(sg.compile(f)(x))
    np.testing.assert_array_equal(got.view(np.uint64), (x * payloads).view(np.uint64))
