"""symgrad: a static-graph symbolic differentiation compiler that emits C.

Public API re-exports only.
"""
__version__ = "0.1.0"

from .dtypes import float32, float64, int64, bool_ as bool  # noqa: A001
from .state import no_grad, enable_grad, set_grad_enabled, is_grad_enabled
from .tensor import Tensor, tensor, TracerValueError
from .creation import (manual_seed, zeros, ones, full, arange, rand, randn, zeros_like,
                       ones_like, full_like, randn_like, rand_like)
from .functional import (add, sub, mul, div, neg, pow, exp, log, log1p, expm1, sqrt, rsqrt,
                         sin, cos, tanh, sigmoid, relu, softplus, abs, sign, square, maximum,
                         minimum, where, clamp, clip, lt, le, gt, ge, eq, ne, logical_and,
                         logical_or, logical_not, isinf, isnan, isfinite, sum, mean, prod,
                         amax, amin, max, min, argmax, argmin, logsumexp, norm, softmax,
                         log_softmax, matmul, mm, dot, bmm)
from .shapes import (reshape, view, flatten, permute, transpose, t, unsqueeze, squeeze,
                     broadcast_to, cat, concat, concatenate, stack)
from .api import compile, grad, value_and_grad, inspect, CompiledFunction  # noqa: A004
from .ops import ShapeError
from .config import set_num_threads, get_num_threads
from . import nn

float = float32  # noqa: A001  (torch.float)
double = float64
long = int64
