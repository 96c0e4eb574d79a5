"""symgrad: a static-graph symbolic differentiation compiler that emits C.

Public API re-exports only. Importing symgrad loads the front end (tensors, eager autograd) and
the API; the compiler (passes, lowering, code generation, the C toolchain) loads at the first
compile, and SymPy only where an op's C is not in the printed table.
"""

from .version import __version__  # noqa: F401

from .dtypes import (float32, float64, int64, bool_ as bool, set_default_dtype, get_default_dtype,
                     finfo, iinfo, int8, int16, int32, uint8, float16, complex64,
                     complex128, bfloat16)
from .devices import device, set_default_device, get_default_device
from .size import Size
from .errors import ShapeError, TracerValueError
from .frontend.core.grad_mode import (no_grad, enable_grad, set_grad_enabled, is_grad_enabled,
                                      inference_mode, is_inference_mode_enabled)
from .frontend.core.tensor import Tensor
from .frontend.functions.printing import set_printoptions
from .frontend.functions.creation import (zeros, ones, full, empty, arange, linspace, logspace, eye,
                                          from_numpy, as_tensor, meshgrid, zeros_like, ones_like,
                                          empty_like, full_like)
from .frontend.functions.creation import tril_indices, triu_indices
from .frontend.functions.creation import tensor  # torch.tensor: strides of NumPy data too
from .frontend.functions.basic import (add, sub, mul, div, neg, pow, exp, log, log1p, expm1, sqrt,
                                       rsqrt, sin, cos, tanh, sigmoid, relu, softplus, abs, sign,
                                       square, maximum, minimum, where, clamp, clip, clamp_min,
                                       clamp_max, lt, le, gt, ge, eq, ne, logical_and,
                                       logical_or, logical_not, isinf, isnan,
                                       isfinite, sum, mean, prod, amax, amin, max, min, argmax,
                                       argmin, logsumexp, norm, softmax, log_softmax, matmul, mm,
                                       dot, bmm, gather, take_along_dim)
from .frontend.functions.shapes import (reshape, view, flatten, permute, transpose, t, unsqueeze,
                                        squeeze, broadcast_to, cat, concat, concatenate, stack)
from .frontend.functions.norms import torch_norm as norm  # noqa: F811  (torch.norm's p values)
from .frontend.functions.methods import (all, any, equal, allclose, isclose, clone, numel,
                                         is_tensor, is_floating_point)
from .frontend.functions.manipulation import *  # noqa: F401,F403  (its __all__: flip, split, tril...)
from .frontend.functions.sorting import *  # noqa: F401,F403  (its __all__: sort, topk...)
from .frontend.functions.statistics import *  # noqa: F401,F403  (its __all__: var, std, cdist...)
from .frontend.functions.scans import *  # noqa: F401,F403  (its __all__: cumsum, cummax, diff...)
from .frontend.functions.assorted import *  # noqa: F401,F403  (its __all__: hstack, kron, cross...)
from .frontend.functions.products import *  # noqa: F401,F403  (its __all__: addmm, mv, matrix_power...)
from .frontend.functions.searching import *  # noqa: F401,F403  (its __all__: nonzero, unique...)
from .frontend.functions.strided import *  # noqa: F401,F403  (as_strided, memory formats)
from .frontend.functions.views_more import *  # noqa: F401,F403  (swapdims, vsplit, *_copy...)
from .frontend.functions.view_updates import *  # noqa: F401,F403  (diagonal_scatter...)
from .frontend.functions.complexes import *  # noqa: F401,F403  (complex, polar, real, ...)
from .frontend.functions.contraction import einsum, tensordot
from .frontend.functions.decompositions import (det, logdet, inverse, cholesky_solve,
                                                cholesky_inverse, torch_slogdet as slogdet,
                                                torch_cholesky as cholesky)
from .frontend.functions.matrix_exp import matrix_exp
from .frontend.functions.svd import torch_svd as svd
from .frontend.functions.lu import torch_lu as lu, torch_lu_solve as lu_solve, lu_unpack
from .frontend.functions.linalg_wrappers import torch_qr as qr, pinverse, triangular_solve
from .frontend.functions.householder import geqrf, orgqr, ormqr
from .frontend.functions.removed_linalg import lstsq, solve, eig, symeig, matrix_rank
from .frontend.random.sampling import *  # noqa: F401,F403  (its __all__: torch's sampling functions)
from .frontend.random.sampling import torch_dropout as dropout  # noqa: F811  (p, train required)
from .frontend.functions.pointwise import *  # noqa: F401,F403  (its __all__: more elementwise math)
from .frontend.functions.bitwise import *  # noqa: F401,F403  (bitwise_and, bitwise_or, ...)
from .frontend.functions.special_functions import i0, igamma, igammac  # noqa: F401
from .frontend.control.loops import scan, fori_loop, while_loop, cond
from .frontend.control.checkpoint import checkpoint
from .api import compile, grad, value_and_grad, inspect, CompiledFunction  # noqa: A004
from .api import vmap, jvp, vjp, jacrev, jacfwd, jacobian, hessian, hvp
from .api import replay as _replay  # noqa: F401  (compiles captured eager steps: frontend.core.lazy)
from .frontend.core.lazy import enable as set_capture, enabled as is_capture_enabled
from . import func, sparse  # noqa: F401  (torch.func's names; sparse derivatives)
from .autograd import functional as _functional  # noqa: F401  (torch.autograd.functional)
from .runtime.threads import set_num_threads, get_num_threads
from . import frontend as _frontend  # noqa: F401  (installs Tensor's methods)
from . import autograd, backends, cuda, lax, linalg, nn, optim, special, utils  # noqa: F401
from . import distributions  # noqa: F401  (torch.distributions)
from . import serialization  # noqa: F401  (torch.serialization)
from . import fft  # noqa: F401  (torch.fft)
from .frontend.functions.stft import stft, istft
from .serialization import save, load
# torch's script-level modules and switches (imports and small calls of training scripts)
from . import accelerator, amp, cpu, distributed, hub, mps, onnx, random, testing  # noqa: F401
from . import compiler, jit  # noqa: F401
from .amp import autocast, is_autocast_enabled  # noqa: F401
from .backends.precision import set_float32_matmul_precision, get_float32_matmul_precision
from .switches import *  # noqa: F401,F403  (use_deterministic_algorithms, ...)
from .frontend.functions.legacy_types import *  # noqa: F401,F403  (FloatTensor, ..., typename)
from .formats import (memory_format, layout, contiguous_format, channels_last,  # noqa: F401
                      channels_last_3d, preserve_format, strided, sparse_coo)
from .dtypes import DType as dtype  # noqa: F401  (isinstance(x, torch.dtype))
inf, nan, pi, e, newaxis = float("inf"), float("nan"), 3.141592653589793, 2.718281828459045, None

float = float32  # noqa: A001  (torch.float)
double = float64
long = int64
int = int32  # noqa: A001  (torch.int)
short, half, char, byte = int16, float16, int8, uint8
cfloat, cdouble = complex64, complex128

from .frontend.functions.spellings import *  # noqa: F401,F403,E402  (rsub, fill, is_signed...)
from .frontend.functions.integer_math import *  # noqa: F401,F403,E402  (gcd, lcm, shifts)
from .frontend.functions.window_functions import *  # noqa: F401,F403,E402  (hann_window...)
from .frontend.functions.flat_index import *  # noqa: F401,F403,E402  (take, put, unravel_index)
from .frontend.functions.sets import *  # noqa: F401,F403,E402  (isin, combinations)
from .frontend.functions.buffers import *  # noqa: F401,F403,E402  (asarray, frombuffer...)
from .frontend.functions.scaling import *  # noqa: F401,F403,E402  (renorm, frexp)
from .frontend.functions.scatters import scatter_reduce, index_reduce  # noqa: E402
from .frontend.functions.finite_differences import gradient  # noqa: E402  (torch.gradient)
from .frontend.functions.histogram import histogram  # noqa: E402
from .frontend.functions.toplevel_inplace import *  # noqa: F401,F403,E402  (torch.exp_(x)...)
from .nn.functional.toplevel import *  # noqa: F401,F403,E402  (torch.conv2d, torch.embedding...)

# torch's keyword spellings: input=, axis=, out=...
_frontend.functions.keywords.wrap_namespace(globals())
# torch's refusals by dtype ("hypot_cpu" not implemented for 'Long'...): one table
_frontend.functions.dtype_checks.guard(globals(), "torch")
