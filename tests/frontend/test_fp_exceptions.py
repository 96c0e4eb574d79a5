"""Floating-point exceptions in eager ops: torch computes inf and NaN silently, so symgrad's
eager ops (the elementwise fast path and the general path through each op's NumPy reference)
show no NumPy RuntimeWarning, and a user's ``np.seterr(all="raise")`` or warnings-as-errors
filter does not make them raise: the values are NumPy's, computed with errors ignored."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import symgrad as sg

BIG = np.array([[1e300, -1.0], [0.0, 2.0]])


def cases():
    """(what, symgrad's value, the expected value from NumPy with errors ignored)."""
    x = sg.tensor(BIG)
    got = [("exp (fast path)", sg.exp(x * 10.0)), ("log (fast path)", sg.log(x)),
           ("divide by zero", x / sg.zeros(2, 2, dtype=sg.float64)),
           ("matmul overflow", x @ x), ("sum overflow", (x * 1e300).sum(0)),
           ("cast overflow", x.to(sg.float32)), ("sqrt of a negative", sg.sqrt(-x)),
           ("logsumexp", sg.logsumexp(x * 1e10, 1))]
    with np.errstate(all="ignore"):
        want = [np.exp(BIG * 10.0), np.log(BIG), BIG / np.zeros((2, 2)), BIG @ BIG,
                (BIG * 1e300).sum(0), BIG.astype(np.float32), np.sqrt(-BIG), None]
    return [(what, value, w) for (what, value), w in zip(got, want)]


def _check(got) -> None:
    for what, value, want in got:
        value = value.numpy()
        if want is not None:
            np.testing.assert_array_equal(value, want, err_msg=what)


def test_no_warning_by_default():
    """(In a fresh interpreter with Python's default filters: pytest adds its own.)"""
    code = ("import sys, warnings; sys.path.insert(0, sys.argv[1]); "
            "import test_fp_exceptions as t; "
            "w = warnings.catch_warnings(record=True); seen = w.__enter__(); "
            "t._check(t.cases()); w.__exit__(None, None, None); "
            "print([str(m.message) for m in seen if issubclass(m.category, RuntimeWarning)])")
    done = subprocess.run([sys.executable, "-c", code, str(Path(__file__).parent)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]", done.stdout


def test_seterr_raise_does_not_make_ops_raise():
    old = np.seterr(all="raise")
    try:
        got = cases()
    finally:
        np.seterr(**old)
    _check(got)


@pytest.mark.filterwarnings("error::RuntimeWarning")
def test_warnings_as_errors_do_not_make_ops_raise():
    _check(cases())
