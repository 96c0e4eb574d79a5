"""``random_`` on narrow integer dtypes: torch checks ``from`` and ``to - 1`` against the dtype's
own range (not int64's), and ``random_(from, None)`` draws up to the dtype's largest value.
Expected values are torch 2.13's after ``manual_seed(0)`` (stored here; compared live with torch
when it is installed)."""

from __future__ import annotations

import pytest

import symgrad as sg

STORED = {   # (dtype, args) -> torch's draws of a 5-element tensor
    ("int8", (0, None)): [44, 47, 117, 64, 67],
    ("int8", (-5, None)): [48, 75, -5, 109, 101],
    ("uint8", (0, None)): [172, 47, 117, 192, 67],
    ("int8", (3,)): [2, 0, 2, 0, 1],
}
ERRORS = [("int8", (0, 300), "to - 1 is out of bounds for signed char"),
          ("int8", (-200, 5), "from is out of bounds for signed char"),
          ("uint8", (-5, None), "from is out of bounds for unsigned char"),
          ("bool", (3,), "to - 1 is out of bounds for bool")]


@pytest.mark.parametrize("key", sorted(STORED))
def test_draws_stay_in_the_dtype_range_as_torchs(key):
    dtype, args = key
    sg.manual_seed(0)
    assert sg.empty(5, dtype=getattr(sg, dtype)).random_(*args).tolist() == STORED[key]


@pytest.mark.parametrize("dtype,args,message", ERRORS)
def test_bounds_outside_the_dtype_raise_torchs_error(dtype, args, message):
    with pytest.raises(RuntimeError, match=message):
        sg.empty(5, dtype=getattr(sg, dtype)).random_(*args)


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "int32", "bool"])
@pytest.mark.parametrize("args", [(0, None), (-5, None), (0, 300), (-200, 5), (3,), (0, 2)])
def test_matches_torch(dtype, args):
    torch = pytest.importorskip("torch")
    results = []
    for m in (sg, torch):
        m.manual_seed(0)
        try:
            results.append((m.empty(5, dtype=getattr(m, dtype)).random_(*args).tolist(),
                            m.rand(1).item()))
        except RuntimeError as e:
            results.append(str(e))
    assert results[0] == results[1]
