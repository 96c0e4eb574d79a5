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


def cumulative(x):           # scan kernels (cumsum, cumprod, logcumsumexp), forward and reversed
    return (sg.cumsum(x, 1) * sg.cumprod(x, 0)).sum() + sg.logcumsumexp(x, 1).sum()


def running_max(x):          # cummax: a scan kernel with an index (cumargmax)
    return sg.cummax(x, 0).values.sum()


def solve_and_logdet(a, b):  # decompositions: LU solve, slogdet, and their gradients
    return sg.linalg.solve(a, b).sum() + sg.linalg.slogdet(a)[1]


def cholesky_and_triangular(a, b):
    spd = a @ a.mT + 4.0 * sg.eye(3, dtype=a.dtype)
    low = sg.linalg.cholesky(spd)
    return (sg.linalg.solve_triangular(low, b, upper=False) ** 2).sum()


def eigh_and_qr(a):          # Jacobi eigenvalues, Householder QR (forward only)
    sym = a + a.mT
    return sg.linalg.eigvalsh(sym), sg.linalg.qr(a)[1]


def sorted_top(x):           # argsort kernels, and the gathers and scatters of their gradients
    return (sg.sort(x, 1).values * sg.arange(4.0)).sum() + sg.topk(x, 2, 0).values.sum()


def argmax_and_scatter(x, i):  # index kernels: argmax, index_add (a scatter)
    j = sg.argmax(x, 1)
    return sg.zeros(5, dtype=x.dtype).index_add(0, i, x.sum(1)) * 2.0, j


def big_matmul(a, b):        # a matmul large enough for BLAS
    return (sg.tanh(a @ b) ** 2).sum()


def scanned(x, xs):          # a scan (control kernel) and its reverse
    def step(c, u):
        c = sg.sin(c) * u + c
        return c, c.sum()
    c, ys = sg.scan(step, x, xs)
    return c.sum() + ys.sum()


def branch(x, p):            # cond: a control kernel with two bodies
    return sg.cond(p.sum() > 0, lambda v: (v * v).sum(), lambda v: sg.exp(v).sum(), (x,))


def checkpointed(x, xs):     # a scan whose backward stores every 3rd carry
    c, _ = sg.scan(lambda c, u: (sg.tanh(c * u), None), x, xs, checkpoint=3)
    return c.sum()


def guarded(x):              # Python control flow on a traced value: a guard kernel
    if x.sum() > 0:
        return (x * 2.0).sum()
    return (x * x).sum()


def single_elements(x):      # one-element windows: element statements accumulating in place
    return x[0] * x[2] + x[1] * x[0] + sg.sin(x[2])


def generic_rows(x, w):      # compiled shape-generic (x.shape[0] a call-time size)
    return (sg.tanh(x @ w) ** 2).mean(0).sum() + sg.softmax(x, 1)[:, 0].sum()


def exported(x, w):          # standalone C (export_c)
    return sg.sigmoid(x @ w).sum()


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
    "scan_kernels_grad": (cumulative, "grad", [((3, 4), F64)]),
    "cummax_grad": (running_max, "grad", [((4, 3), F32)]),
    "solve_and_logdet_value_and_grad": (solve_and_logdet, "value_and_grad",
                                        [((3, 3), F64), ((3, 2), F64)]),
    "cholesky_and_triangular_grad": (cholesky_and_triangular, "grad",
                                     [((3, 3), F64), ((3, 2), F64)]),
    "eigh_and_qr": (eigh_and_qr, "compile", [((3, 3), F64)]),
    "sorted_top_grad": (sorted_top, "grad", [((3, 4), F64)]),
    "argmax_and_scatter": (argmax_and_scatter, "compile", [((4, 3), F32), ((4,), I64)]),
    "blas_matmul_grad": (big_matmul, "grad", [((64, 64), F32), ((64, 64), F32)]),
    "scan_value_and_grad": (scanned, "value_and_grad", [((3,), F64), ((5, 3), F64)]),
    "cond_grad": (branch, "grad", [((3,), F64), ((2,), F64)]),
    "checkpointed_scan_grad": (checkpointed, "grad", [((3,), F64), ((7, 3), F64)]),
    "guard_grad": (guarded, "grad_on_values", [((3,), F64)]),
    "element_statements_grad": (single_elements, "grad", [((3,), F64)]),
    "shape_generic_value_and_grad": (generic_rows, "generic", [((5, 3), F64), ((3, 2), F64)]),
    "export_standalone": (exported, "export", [((4, 3), F32), ((3,), F32)]),
}


def arguments(specs):
    rng = np.random.default_rng(0)
    return [rng.integers(0, 3, size=shape).astype(dtype) if dtype is I64
            else _spd(rng, shape, dtype) if len(shape) == 2 and shape[0] == shape[1] == 3
            else rng.standard_normal(shape).astype(dtype) for shape, dtype in specs]


def _spd(rng, shape, dtype):
    """A well-conditioned square matrix (the decompositions' operands)."""
    return (rng.standard_normal(shape) + 3.0 * np.eye(shape[0])).astype(dtype)
