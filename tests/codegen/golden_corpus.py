"""The functions whose generated C is kept as golden files (tests/codegen/golden/*.c).

Kept in a module of their own: the C comments name this file's lines, so editing a test must
not move them. Each entry: (function, transform, argument shapes and dtypes).
"""

import numpy as np

import symgrad as sg
import symgrad.nn.functional as F


def elementwise(x, y):
    return sg.sum(sg.sin(x) * sg.exp(-x * x) + sg.tanh(x * y) + sg.log1p(y * y))


def logistic(w, b, x, t):
    return F.binary_cross_entropy_with_logits(x @ w + b, t)


def softmax_rows(x):
    return (sg.softmax(x, 1) * x).sum()


def small_matmul(a, b):
    return sg.relu(a @ b).mean()


def gather_and_slices(x, t):
    picked = F.nll_loss(F.log_softmax(x, 1), t)              # gathers: an index kernel
    return picked + (x[:, 1:3] * x[:, :2]).sum() + sg.cat([x[:, :1], x[:, 2:]], 1).max()


def int_and_bool(n, x):
    return sg.where(n > 2, x * n, -x).sum()


def counted_loop(x, n):      # a traced trip count: a while loop, its tape, its reverse loop
    return sg.fori_loop(0, n, lambda i, v: v * 0.9 + sg.sin(v) * 0.1, x).sum()


F32, F64, I64 = np.float32, np.float64, np.int64
CORPUS = {
    "elementwise_value_and_grad": (elementwise, "value_and_grad", [((3, 4), F64), ((3, 4), F64)]),
    "logistic_value_and_grad": (logistic, "value_and_grad",
                                [((5, 3), F32), ((3,), F32), ((4, 5), F32), ((4, 3), F32)]),
    "softmax_rows_grad": (softmax_rows, "grad", [((2, 6), F64)]),
    "small_matmul_value_and_grad": (small_matmul, "value_and_grad", [((3, 4), F64), ((4, 2), F64)]),
    "gather_and_slices_grad": (gather_and_slices, "grad", [((3, 4), F64), ((3,), I64)]),
    "int_and_bool": (int_and_bool, "compile", [((5,), I64), ((5,), F32)]),
    "while_loop_value_and_grad": (counted_loop, "value_and_grad", [((3,), F64), ((), I64)]),
}


def arguments(specs):
    rng = np.random.default_rng(0)
    return [rng.integers(0, 3, size=shape).astype(dtype) if dtype is I64
            else rng.standard_normal(shape).astype(dtype) for shape, dtype in specs]
