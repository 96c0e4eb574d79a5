"""Calls as users write them: NumPy scalars on the fast path, list arguments, None arguments
named in the error, one-element outputs of grad, inspect's REPL display, and OpenBLAS's
thread count following symgrad.set_num_threads."""

from __future__ import annotations

import ctypes
import os

import numpy as np
import pytest

import symgrad as sg


def test_numpy_scalars_take_the_fast_path(monkeypatch):
    f = sg.compile(lambda x, a: (x * a).sum())
    x = np.arange(3.0)
    scalars = (np.float64(2.0), np.float32(2.0), np.int64(2), np.int32(2), 2.0)
    for a in scalars:
        assert f(x, a) == pytest.approx(6.0)

    def no_lookup(*args, **kwargs):
        raise AssertionError("the call left the fast path")
    monkeypatch.setattr(f, "specialize", no_lookup)
    for a in scalars:   # new values of the same types: the fast path, no signature lookup
        assert f(x, type(a)(3)) == pytest.approx(9.0)


def test_a_list_of_numbers_is_an_array_argument():
    f = sg.compile(lambda x, a: (x * a).sum())
    assert f([1.0, 2.0, 3.0], 2.0) == pytest.approx(12.0)
    assert f([[1, 2], [3, 4]], 0.5) == pytest.approx(5.0)
    grads = sg.grad(lambda p: (sg.stack(p) ** 2).sum())([1.0, 2.0])
    assert [float(g) for g in grads] == [2.0, 4.0]
    with pytest.raises(sg.TracerValueError, match="symgrad.stack"):
        sg.grad(lambda p: (sg.tensor(p) ** 2).sum())([1.0, 2.0])


def test_none_arguments_are_named():
    f = sg.compile(lambda x, a: (x * a).sum())
    with pytest.raises(TypeError) as info:
        f(None, 2.0)
    assert str(info.value).startswith("argument 'x' of <lambda> is None; pass an array")


def test_grad_accepts_any_one_element_output():
    x = np.array([1.0, 2.0, 3.0])
    np.testing.assert_allclose(np.asarray(sg.grad(lambda v: (v * v).sum().reshape(1))(x)), 2 * x)
    value, g = sg.value_and_grad(lambda v: (v * v).sum().reshape(1, 1))(x)
    assert np.shape(value) == (1, 1) and float(value[0, 0]) == 14.0
    np.testing.assert_allclose(np.asarray(g), 2 * x)
    with pytest.raises(TypeError, match="one-element"):
        sg.grad(lambda v: v * 2)(x)


def test_inspect_repr_is_short(capsys):
    f = sg.compile(lambda x: sg.sin(x).sum())
    report = sg.inspect(f, np.ones(3))
    printed = capsys.readouterr().out
    assert "===== C =====" in printed and "===== C =====" in str(report)
    assert repr(report).startswith("<symgrad.Inspection of") and "\n" not in repr(report)


def test_openblas_threads_follow_set_num_threads():
    import scipy_openblas32 as blas
    lib = ctypes.CDLL(os.path.join(blas.get_lib_dir(), f"lib{blas.get_library()}.so"))
    f = sg.compile(lambda a, b: (a @ b).sum())
    a = np.ones((256, 256))
    before = sg.get_num_threads()
    try:
        sg.set_num_threads(1)
        assert f(a, a) == 256.0 ** 3
        assert lib.scipy_openblas_get_num_threads() == 1
        sg.set_num_threads(2)
        f(a, a)
        assert lib.scipy_openblas_get_num_threads() == 2
    finally:
        sg.set_num_threads(before)
