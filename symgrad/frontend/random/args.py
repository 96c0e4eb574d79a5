"""What the sampling functions share: their arguments checked, their samples made into tensors,
and what sampling means inside a compiled function.

Layer: front end. Input: the arguments of ``random.py``'s and ``random_inplace.py``'s functions.
Output: sizes, dtypes, generators, the memory order torch's kernels fill a tensor in, result
tensors (with torch's zero-gradient ``grad_fn`` where torch records one), and the trace-time
policy. It draws nothing (``random_kernels`` does).

Inside ``@symgrad.compile`` a sample is drawn once, when the function is traced, and becomes a
constant of the compiled code, so every call would reuse the same numbers. Sampling that needs
no traced value (``rand``, ``randn``..., and filling a tensor in place) is allowed with a
``UserWarning`` that names the user's line (symgrad's own tests and tutorials use one fixed
noise tensor this way); sampling that would need a traced value (``bernoulli`` of traced
probabilities, ``normal`` of a traced mean...) raises ``TracerValueError``, and ``dropout`` in
training mode raises ``RuntimeError`` (its mask would silently be the same on every call).
"""

from __future__ import annotations

import warnings

import numpy as np

from ... import dtypes
from ...devices import check as check_device, device as Device
from ...errors import TracerValueError
from ..core import layout, sources
from ..core.apply import attach_function, full
from .generator import generator_or_default
from ..core.tensor import Tensor
from ..core.arguments import size_args

generator = generator_or_default


def sizes(size: tuple) -> tuple:
    """``f(2, 3)``, ``f((2, 3))``, ``f([2, 3])``, ``f(torch.Size(...))`` and ``f(())`` alike;
    torch's error for a negative size."""
    size = size_args(size)
    try:
        shape = tuple(int(s.__index__()) for s in size)
    except (AttributeError, TypeError):
        raise TypeError(f"expected sizes as ints or one tuple of ints, got "
                        f"({', '.join(type(s).__name__ for s in size)})") from None
    if any(s < 0 for s in shape):
        bad = next(s for s in shape if s < 0)
        raise RuntimeError(f"Trying to create tensor with negative dimension {bad}: "
                           f"{list(shape)}")
    return shape


def device(where) -> None:
    """Accept the CPU (None, "cpu", ``torch.device("cpu")``, or any object whose str is
    "cpu"); refuse anything else with torch's error."""
    if where is not None and not isinstance(where, (str, int, Device)):
        where = str(where)
    check_device(where)


def float_dtype(dtype, kernel: str) -> dtypes.DType:
    """``dtype`` (default: the default float), which must be floating; torch's
    NotImplementedError names the kernel that has no integer version."""
    dt = dtypes.get_default_dtype() if dtype is None else dtypes.as_dtype(dtype)
    if not dt.is_floating:
        raise not_implemented(kernel, dt)
    return dt


def sample_dtype(dtype, kernel: str) -> dtypes.DType:
    """``dtype`` (default: the default float), floating or complex: torch samples a complex
    tensor as the real tensor of its parts (``view_as_real``), so the kernels that take
    complex tensors (``uniform_``, ``normal_``) accept both; others as ``float_dtype``."""
    dt = dtypes.get_default_dtype() if dtype is None else dtypes.as_dtype(dtype)
    return dt if dt.is_complex else float_dtype(dt, kernel)


def not_implemented(kernel: str, dt: dtypes.DType) -> NotImplementedError:
    """torch's error for a dtype its kernel is not compiled for."""
    return NotImplementedError(f'"{kernel}" not implemented for \'{dt.scalar_type}\'')


def draw(sample, gen, n: int, contiguous: bool, dt: dtypes.DType) -> np.ndarray:
    """``n`` samples of ``dt`` from ``sample(gen, count, contiguous)`` (flat, memory order).
    A complex dtype draws its real view, as torch's ``view_as_real``: ``2 * n`` real samples,
    each element's real part then its imaginary part, in the parts' dtype."""
    if not dt.is_complex:
        return np.asarray(sample(gen, n, contiguous))
    parts = np.asarray(sample(gen, 2 * n, contiguous)).astype(dt.real_dtype.np, copy=False)
    return np.ascontiguousarray(parts).view(dt.np)


def new(values: np.ndarray, shape: tuple, dt: dtypes.DType,
        requires_grad: bool = False) -> Tensor:
    """A new leaf tensor of ``values`` (flat, row-major) in ``shape`` and ``dt``."""
    t = Tensor(np.asarray(values.astype(dt.np, copy=False).reshape(shape), order="C"), None)
    if requires_grad:
        t.requires_grad_(True)
    return t


def zero_grad(out: Tensor, torch_name: str, inputs: list) -> Tensor:
    """``out`` with torch's grad_fn for a sampler (``NormalBackward1``...): the samples do not
    depend on the inputs' values, so the gradient to each input is zero."""
    def rule(g, o, ins):
        return tuple(full(t, 0.0) for t in ins)
    return attach_function(out, torch_name, rule, [t for t in inputs if isinstance(t, Tensor)],
                           saves=False, uses_out=False)


def no_derivative(out: Tensor, op: str, inputs: list) -> Tensor:
    """``out`` with torch's NotImplemented grad_fn: a sampler without a derivative formula
    (``bernoulli(x, p)``), whose backward raises torch's error."""
    def rule(g, o, ins):
        raise RuntimeError(f"derivative for aten::{op} is not implemented")
    tensors = [t for t in inputs if isinstance(t, Tensor)]
    return attach_function(out, "NotImplemented", rule, tensors,
                           saves=False, uses_out=False)


memory_order = layout.memory_order


def in_layout(values: np.ndarray, order: np.ndarray | None) -> np.ndarray:
    """Samples drawn in memory order ``order`` put back in row-major order."""
    if order is None:
        return values
    out = np.empty_like(values)
    out[order] = values
    return out


def warn_if_tracing(name: str) -> None:
    """The warning for sampling inside ``@symgrad.compile`` (see the module's docstring)."""
    rec = sources.current()
    if rec is None:
        return
    if rec.captures is not None:   # (numbers of this process's generator: not stored for others)
        rec.captures.volatile.append(f"{name} drew random numbers while tracing")
    warnings.warn(f"{name}{_where()} inside @symgrad.compile: the random numbers are drawn "
                  f"once, when the function is traced, and become constants of the compiled "
                  f"code, so every call reuses the same numbers. To draw new ones per call, "
                  f"sample outside and pass them as an argument.", UserWarning,
                  stacklevel=sources.user_stacklevel())




def refuse_traced(name: str, *operands) -> None:
    """``TracerValueError`` if an operand's values are only known when the compiled code
    runs: sampling from them would need torch's generator inside the C code."""
    if any(isinstance(t, Tensor) and t._value is None for t in operands):
        raise TracerValueError(
            f"{name}{_where()} cannot sample from traced tensors: inside @symgrad.compile "
            f"their values are not known until the compiled code runs, and the compiled code "
            f"has no random number generator. Draw the samples outside the compiled function "
            f"and pass them as an argument (e.g. pass u = torch.rand(shape) and use "
            f"(u < p) in place of torch.bernoulli(p)).")


def _where() -> str:
    loc = sources.user_loc()
    return f" at {loc.file}:{loc.line} ({loc.text})" if loc else ""


def refuse_dropout_trace() -> None:
    """Training-mode dropout inside ``@symgrad.compile`` is an error (module docstring)."""
    if sources.current() is not None:
        raise RuntimeError(
            f"dropout in training mode{_where()} inside @symgrad.compile: its mask would be "
            f"drawn once, when the function is traced, and every call would drop the same "
            f"elements. Pass the mask as an argument (mask = (torch.rand(shape) >= p) / "
            f"(1 - p), drawn outside, then x * mask), or trace in eval mode "
            f"(training=False / model.eval()), where dropout is the identity.")
