"""One sample application of every op of the registry: operands (drawn where the op is smooth)
and attributes, for the tests that check each op's forward mode and batching rule.

``sample(name, rng)`` returns ``(operands, attrs)``: NumPy arrays (float64 unless the op takes
integers or bools there) and the op's attributes. Every op except sources and control flow
must have one (the tests check it): a new op without a sample fails them.
"""

import numpy as np

from symgrad.ops import OPS
from symgrad.ops.registry import ELEMENTWISE, SOURCE

# Where each elementwise op is smooth (as in tests/ops/test_registry.py).
DOMAINS = {"log": (0.2, 3.0), "rsqrt": (0.2, 3.0), "log1p": (-0.5, 3.0), "sqrt": (0.2, 3.0),
           "pow": (0.3, 2.0),
           "div": (0.3, 2.0), "asin": (-0.9, 0.9), "acos": (-0.9, 0.9), "atanh": (-0.9, 0.9),
           "erfinv": (-0.9, 0.9), "acosh": (1.2, 3.0), "log2": (0.2, 3.0),
           "log10": (0.2, 3.0), "lgamma": (0.2, 3.0), "entr": (0.2, 3.0), "digamma": (0.5, 3.0),
           "xlogy": (0.2, 3.0), "xlog1py": (0.2, 3.0), "zeta": (1.2, 3.0),
           "polygamma": (0.5, 3.0), "fmod": (0.5, 2.0), "remainder": (0.5, 2.0),
           "floor_divide": (0.5, 2.0), "trunc_divide": (0.5, 2.0)}
INTEGER_OPERANDS = {"polygamma": (0,)}
# Ops of integers only (torch has no float kernel for them).
INTEGER_OPS = {"bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not"}
# Operands without a derivative (torch does not differentiate them).
NOT_DIFFERENTIATED = {"polygamma": (0,), "zeta": (0,), "heaviside": (0, 1),
                      "nextafter": (0, 1)}
# Piecewise-constant ops: zero derivative, checked as such.
STEPS = {"floor", "ceil", "trunc", "round", "sign", "floor_divide", "trunc_divide",
         "heaviside", "signbit"}

SHAPE = (2, 3)


def _elementwise(name, rng):
    op = OPS[name]
    if name == "cast":
        return [rng.uniform(-2, 2, SHAPE)], {"dtype": _float32()}
    n = op.scalar.__code__.co_argcount - 1
    lo, hi = DOMAINS.get(name, (-2.0, 2.0))
    operands = []
    for i in range(n):
        if i in op.bool_operands:
            operands.append(rng.integers(0, 2, SHAPE).astype(bool))
        elif name in INTEGER_OPS:
            operands.append(rng.integers(-8, 8, SHAPE))
        elif i in INTEGER_OPERANDS.get(name, ()):
            operands.append(rng.integers(0, 3, SHAPE).astype(np.float64))
        else:
            operands.append(rng.uniform(lo, hi, SHAPE))
    # broadcasting: the last operand is a row
    if n >= 2:
        operands[-1] = operands[-1][:1]
    return operands, {}


def _float32():
    from symgrad import dtypes
    return dtypes.float32


def _spd(rng, n=3):
    a = rng.normal(size=(n, n))
    return a @ a.T + n * np.eye(n)


def _others(rng):
    x34 = rng.normal(size=(3, 4))
    idx = rng.integers(0, 3, size=(2, 3))
    lower = np.tril(rng.normal(size=(3, 3))) + 3 * np.eye(3)
    return {
        "reshape": ([rng.normal(size=(2, 3))], {"shape_to": (3, 2)}),
        "permute": ([rng.normal(size=(2, 3, 4))], {"perm": (2, 0, 1)}),
        "expand": ([rng.normal(size=(3, 1))], {"shape_to": (2, 3, 4)}),
        "slice": ([rng.normal(size=(5, 4))], {"starts": (1, 0), "stops": (5, 4),
                                              "steps": (2, 1)}),
        "unslice": ([rng.normal(size=(2, 4))], {"shape_to": (5, 4), "starts": (1, 0),
                                                "stops": (5, 4), "steps": (2, 1)}),
        "cat": ([rng.normal(size=(2, 3)), rng.normal(size=(1, 3))], {"axis": 0}),
        "matmul": ([rng.normal(size=(2, 3)), rng.normal(size=(3, 4))], {}),
        "gather": ([x34, idx], {"axis": 0}),
        "scatter_add": ([rng.normal(size=(2, 3)), idx], {"axis": 0, "shape_to": (4, 3)}),
        "argmax": ([x34], {"axis": 1}),
        "argmin": ([x34], {"axis": 1}),
        "argsort": ([x34], {"axis": 1, "descending": False}),
        "cumsum": ([x34], {"axis": 1, "reverse": False}),
        "cumprod": ([x34], {"axis": 1, "reverse": True}),
        "logcumsumexp": ([x34], {"axis": 1, "reverse": False}),
        "cumargmax": ([x34], {"axis": 1}),
        "cumargmin": ([x34], {"axis": 1}),
        "linrec": ([rng.uniform(-0.9, 0.9, (3, 4)), x34], {"axis": 1, "reverse": False}),
        "sum": ([x34], {"axes": (1,)}),
        "prod": ([x34], {"axes": (0, 1)}),
        "max": ([x34], {"axes": (0,)}),
        "min": ([x34], {"axes": (1,)}),
        "solve": ([_spd(rng), rng.normal(size=(3, 2))], {"check": ""}),
        "triangular_solve": ([lower, rng.normal(size=(3, 2))],
                             {"upper": False, "unitriangular": False}),
        "cholesky": ([_spd(rng)], {"check": ""}),
        "det": ([_spd(rng)], {}),
        "slogdet": ([_spd(rng)], {}),
        "eigh": ([_distinct_spectrum(rng)], {"upper": False}),
        "factor_info": ([_spd(rng)], {"method": "cholesky"}),
        "qr": ([rng.normal(size=(4, 3))], {"complete": False}),
        "fft_c2c": ([_complex(rng, (3, 4))], {"axes": (1, 0), "norm": "sqrt",
                                              "forward": True}),
        "fft_r2c": ([rng.normal(size=(3, 5))], {"axes": (0, 1), "norm": "none",
                                                "onesided": True}),
        "fft_c2r": ([_complex(rng, (3, 4))], {"axes": (0, 1), "norm": "n",
                                              "last_dim_size": 7}),
    }


def _complex(rng, shape):
    return rng.normal(size=shape) + 1j * rng.normal(size=shape)


def _distinct_spectrum(rng):
    q, _ = np.linalg.qr(rng.normal(size=(3, 3)))
    return q @ np.diag([1.0, 2.5, 4.0]) @ q.T


# The gradient barriers (ops.elementwise) are the value itself with a derivative that is zero
# or an error by definition, which no finite difference or generic rule check agrees with:
# tests/frontend/test_body_barriers.py checks them where they are used.
BARRIERS = ("stop_gradient", "no_derivative")


def sampled_ops() -> list:
    """The ops with a sample: all but sources, control flow and the gradient barriers."""
    return sorted(n for n, op in OPS.items()
                  if op.kind != SOURCE and not op.bodies
                  and n not in ("guard", "poison", *BARRIERS))


def sample(name, rng):
    if OPS[name].kind == ELEMENTWISE:
        return _elementwise(name, rng)
    return _others(rng)[name]
