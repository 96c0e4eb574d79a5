"""torch's refusals by dtype (``kernel_dtypes`` applied by ``dtype_checks``) where the op sweep
does not look: int8/int16/bfloat16-free dtypes it does not draw, the argument parser's
precedence, the kernel chosen by the arguments, and calls that must still compute.

Each case is a call written once for either library; its expected outcome (torch 2.13's
exception class and message, or ``None``: it computes) is written here, checked against
symgrad always and against torch when it is installed.
"""

from __future__ import annotations

import importlib

import numpy as np
import pytest

import symgrad


def t(lib, values, dtype):
    return lib.tensor(np.asarray(values).tolist(), dtype=getattr(lib, dtype))


def x(lib, dtype):
    return t(lib, [[1, 2, 3], [4, 5, 6]], dtype)


def f_(lib):
    return importlib.import_module(f"{lib.__name__}.nn.functional")


NOT_IMPL = "NotImplementedError"
CASES = [
    # int8 and int16 (the sweep draws int32, int64, uint8 and bool)
    ("hypot int8", lambda L: L.hypot(x(L, "int8"), x(L, "int8")),
     (NOT_IMPL, "\"hypot_cpu\" not implemented for 'Char'")),
    ("softmax int16 dim 0", lambda L: L.softmax(x(L, "int16"), 0),
     (NOT_IMPL, "\"softmax_kernel_impl\" not implemented for 'Short'")),
    ("F.softmax int16 dtype=", lambda L: f_(L).softmax(x(L, "int16"), 0, dtype=L.float64),
     None),
    ("F.softmax int16 dtype=int32", lambda L: f_(L).softmax(x(L, "int16"), 1, dtype=L.int32),
     (NOT_IMPL, "\"softmax_lastdim_kernel_impl\" not implemented for 'Int'")),
    ("elu int8", lambda L: f_(L).elu(x(L, "int8")),
     (NOT_IMPL, "\"elu_cpu\" not implemented for 'Char'")),
    ("lerp int16 number weight", lambda L: L.lerp(x(L, "int16"), x(L, "int16"), 0.5),
     (NOT_IMPL, "\"lerp_kernel_scalar\" not implemented for 'Short'")),
    ("logcumsumexp int8", lambda L: L.logcumsumexp(x(L, "int8"), 0),
     (NOT_IMPL, "\"logcumsumexp_out_cpu\" not implemented for 'Char'")),
    ("hardswish int8", lambda L: f_(L).hardswish(x(L, "int8")),
     (NOT_IMPL, "\"hardswish_cpu\" not implemented for 'Char'")),
    # the kernel torch picks by the arguments
    ("round int64", lambda L: L.round(x(L, "int64")), None),
    ("round int64 decimals=0", lambda L: L.round(x(L, "int64"), decimals=0),
     (NOT_IMPL, "\"round_vml_cpu\" not implemented for 'Long'")),
    ("round int64 decimals=2", lambda L: L.round(x(L, "int64"), decimals=2),
     (NOT_IMPL, "\"round_cpu\" not implemented for 'Long'")),
    ("median bool dim", lambda L: x(L, "bool").median(1),
     (NOT_IMPL, "\"median_out\" not implemented for 'Bool'")),
    ("max complex dim", lambda L: x(L, "complex64").max(1),
     ("RuntimeError", "max(): does not support complex input")),
    ("div bool trunc", lambda L: L.div(x(L, "bool"), x(L, "bool"), rounding_mode="trunc"),
     (NOT_IMPL, "\"div_trunc_cpu\" not implemented for 'Bool'")),
    # promotion decides: a number operand, a float operand
    ("bool ** True", lambda L: x(L, "bool") ** True, None),
    ("True ** bool", lambda L: True ** x(L, "bool"),
     (NOT_IMPL, "\"pow\" not implemented for 'Bool'")),
    ("bool // 2", lambda L: x(L, "bool") // 2, None),
    ("hypot int64 float32", lambda L: L.hypot(x(L, "int64"), x(L, "float32")), None),
    ("clamp int64 out float32", lambda L: L.clamp(x(L, "int64"), -0.5, 0.5,
                                                  out=L.zeros(2, 3)), None),
    ("abs int64 out float32", lambda L: L.abs(x(L, "int64"), out=L.zeros(2, 3)),
     ("RuntimeError", "Found dtype Float but expected Long")),
    ("where uint8 condition", lambda L: L.where(x(L, "uint8"), x(L, "float32"),
                                                x(L, "float32")), None),
    # the argument parser first: a keyword the function does not take
    ("elu int64 out=", lambda L: f_(L).elu(x(L, "int64"), out=L.zeros(2, 3)),
     ("TypeError", None)),
    # dtypes of other operands
    ("index_select float index", lambda L: x(L, "float32").index_select(
        1, t(L, [0.0, 1.0], "float32")),
     ("RuntimeError", "index_select(): Expected dtype int32 or int64 for index")),
    ("masked_fill uint8 mask", lambda L: x(L, "float32").masked_fill(x(L, "uint8"), 1.0),
     ("RuntimeError", "masked_fill_ only supports boolean masks, but got mask with dtype "
                      "unsigned char")),
    ("layer_norm float16 input, float32 weight",
     lambda L: f_(L).layer_norm(x(L, "float16"), (3,), L.ones(3)), None),
    ("batch_norm float64 input, float32 stats",
     lambda L: f_(L).batch_norm(x(L, "float64").t(), L.ones(2), L.ones(2)),
     ("RuntimeError", "mixed dtype (CPU): all inputs must share same datatype.")),
    ("vector_norm float32 to complex64 is another rule",
     lambda L: L.linalg.vector_norm(x(L, "float64"), dtype=L.float32),
     ("RuntimeError", "linalg.vector_norm: the dtype of the input (Double) should be "
                      "convertible without narrowing to the specified dtype (Float)")),
    ("sum requires grad dtype=int32",
     lambda L: L.sum(x(L, "float32").requires_grad_(), dtype=L.int32),
     ("RuntimeError", "Autograd not support dtype: Int")),
    ("sum no grad dtype=int32", lambda L: L.sum(x(L, "float32"), dtype=L.int32), None),
]


def outcome(lib, call):
    try:
        call(lib)
    except Exception as e:   # noqa: BLE001  (the outcome is what is compared)
        return type(e).__name__, str(e)
    return None


def matches(got, expected) -> bool:
    if expected is None or got is None:
        return got == expected
    return got[0] == expected[0] and (expected[1] is None or got[1] == expected[1])


@pytest.mark.parametrize("name,call,expected", CASES, ids=[c[0] for c in CASES])
def test_symgrad_refuses_as_torch(name, call, expected):
    assert matches(outcome(symgrad, call), expected), outcome(symgrad, call)


@pytest.mark.parametrize("name,call,expected", CASES, ids=[c[0] for c in CASES])
def test_expectations_are_torchs(name, call, expected):
    torch = pytest.importorskip("torch")
    assert matches(outcome(torch, call), expected), outcome(torch, call)
