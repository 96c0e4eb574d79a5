"""The sweep's accuracy rule (``accuracy``, section (a) of ``known_differences``): it accepts a
float32 result only when it is at least as accurate as torch's against the float64 reference,
it has a stored reference for every sample it judges, and a widened sample holds the narrow
one's values."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sweep import accuracy, known_differences, suite
from sweep.spec import Sample, T, salt_of


def _record(values, kind="g"):
    leaf = {"dtype": "float32", "shape": [len(values)], "v": list(values)}
    return {"s": "T", "o": [leaf], "g": [leaf, leaf]} if kind == "g" else {"s": "T", "o": [leaf]}


REFERENCE = _record([1.0, 2.0, math.nan, 4.0])


def test_closer_to_the_reference_is_accepted_farther_is_not():
    torch = _record([1.0, 2.00002, math.nan, 4.0])
    closer = _record([1.0, 2.00001, math.nan, 4.00001])
    farther = _record([1.00003, 2.0, math.nan, 4.0])
    assert accuracy.at_least_as_accurate("grad[0]", closer, torch, REFERENCE)
    assert accuracy.at_least_as_accurate("value[0]", closer, torch, REFERENCE)
    assert not accuracy.at_least_as_accurate("grad[0]", farther, torch, REFERENCE)
    assert not accuracy.at_least_as_accurate("grad[0]", closer, torch, None)
    assert not accuracy.at_least_as_accurate("dtype[0]", closer, torch, REFERENCE)


def test_where_the_reference_is_not_finite_torchs_value_is_required():
    torch = _record([1.0, 2.00002, math.nan, 4.0])
    other = _record([1.0, 2.0, 7.0, 4.0])      # exact elsewhere, but a number for NaN
    assert not accuracy.at_least_as_accurate("grad[0]", other, torch, REFERENCE)
    infinite = _record([1.0, math.inf, math.nan, 4.0])
    assert not accuracy.at_least_as_accurate("grad[0]", infinite, torch, REFERENCE)


def test_the_rule_judges_records_only_when_given_them():
    sample = Sample("torch", "orgqr", (T((4, 3), "float32"), T((3,), "float32")))
    diffs = {"grad[1]": "differs"}
    torch, mine = _record([1.0, 2.00002, math.nan, 4.0]), _record([1.0, 2.0, math.nan, 4.0])
    records = {"symgrad": mine, "torch": torch, "reference": REFERENCE}
    kept, excluded = known_differences.split_undefined(sample, diffs, records)
    assert not kept and "grad[1]" in excluded
    kept, _ = known_differences.split_undefined(sample, diffs)   # no records: kept
    assert kept == diffs
    worse = {"symgrad": torch, "torch": mine, "reference": REFERENCE}
    assert known_differences.split_undefined(sample, diffs, worse)[0] == diffs


def test_a_widened_sample_holds_the_same_values_and_prints_the_same():
    narrow = T((3, 2), "complex64", "u")
    wide = accuracy.widened(Sample("torch", "f", (narrow, 2))).args[0]
    assert wide.render() == narrow.render() and wide.dtype == "complex128"
    salt = salt_of(f"1:{narrow.render()}")
    a, b = narrow.data(salt), wide.data(salt)
    assert b.dtype == np.complex128 and np.array_equal(a.astype(np.complex128), b)


def test_every_judged_sample_has_a_stored_reference():
    store = suite.load_store()
    if not store.get("records"):
        pytest.skip("no stored expectations")
    ops = suite.plan("full", store)
    judged = [s.pattern for op in known_differences.ACCURACY_OPS for s in ops.get(op, ())
              if accuracy.narrow_tensors(s)]
    assert len(judged) > 10
    missing = [p for p in judged if p not in store.get("references", {})]
    assert not missing, f"run python tests/sweep/store.py --only ...: {missing[:5]}"
    reference = store["references"][judged[0]]
    assert all(leaf["dtype"] in ("float64", "complex128") for leaf in reference.get("o", []))
