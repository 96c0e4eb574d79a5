"""Random sampling with torch's CPU generator: after ``manual_seed(s)`` the same calls give
torch 2.13's numbers, bit for bit, in float32, float64, complex64 and complex128.

Layer: front end. Input: sizes, distribution parameters (numbers or tensors), ``generator=``,
``dtype=``, ``device=`` (the CPU), ``requires_grad=``. Output: new tensors (``rand``,
``randn``, ``randint``, ``randperm``, ``normal``, ``bernoulli``, ``multinomial``, ``poisson``,
the ``*_like`` forms), ``dropout``, and the generator API (``Generator``, ``manual_seed``...,
from ``random_engine``). ``METHODS`` are Tensor's sampling methods (the in-place ones are in
``random_inplace``). The numbers come from ``random_kernels``; what sampling does inside
``@symgrad.compile`` is said in ``random_args``. A complex tensor is sampled as the real
tensor of its parts (torch's ``view_as_real``: ``rand randn normal *_like``), so its size in
real numbers picks torch's kernel path; ``normal`` takes a complex mean (never a complex std).

torch behaviours not mirrored:

- ``get_rng_state`` is an int64 tensor holding torch's 5056 state bytes (no uint8 dtype here).
- On Intel CPUs torch's MKL build draws ``bernoulli_(p)`` with a number ``p``, and so
  ``dropout``, from MKL's own stream seeded by one 32-bit draw (so its source says; not
  checkable on the AMD machine this was verified on). This gives the numbers torch gives on
  other CPUs; on Intel those two, and every later draw, would differ.
- ``multinomial`` without replacement orders tied weights (categories of probability 0, when
  more samples than nonzero probabilities are asked for) by index; torch's order comes from
  ``std::nth_element``.
- Elements are drawn in memory order, which follows views (transpose, permute, slices) as
  torch does; but symgrad's elementwise results are always row-major, where torch's keep a
  transposed input's layout, so ``randn_like(x.T * 2)`` (or ``dropout`` of it) fills in another
  order than torch's.
- ``randperm(n)`` for n >= 2**32 / 20 (torch switches algorithms there) is refused.
"""

from __future__ import annotations

import numpy as np

from ... import dtypes
from ...ops.registry import broadcast_shapes
from . import args as A
from . import kernels as K
from ..core.grad_mode import is_grad_enabled
from ..core.layout import preserve as preserve_layout
from ..core.apply import apply, as_tensor
from ..core.conversions import check_fits
from .generator import (Generator, default_generator, get_rng_state, initial_seed, manual_seed,
                        seed, set_rng_state)
from .inplace import (METHODS as INPLACE, check_probabilities, check_std, random_range,
                      real_arguments)
from ..core.tensor import Tensor

__all__ = ["Generator", "bernoulli", "default_generator", "dropout", "get_rng_state",
           "initial_seed", "manual_seed", "multinomial", "normal", "poisson", "rand", "rand_like",
           "randint", "randint_like", "randn", "randn_like", "randperm", "seed", "set_rng_state"]


def _factory(name: str, shape: tuple, dt, requires_grad: bool, device, generator,
             sample, order=None) -> Tensor:
    """A new tensor of ``shape`` filled by ``sample(gen, n, contiguous)`` in memory order
    ``order`` (None: row-major)."""
    A.device(device)
    gen = A.generator(generator)
    A.warn_if_tracing(name)
    n = int(np.prod(shape))
    values = A.in_layout(A.draw(sample, gen, n, order is None, dt), order)
    return A.new(values, shape, dt, requires_grad)


def rand(*size, generator: Generator | None = None, dtype=None, layout=None, device=None,
         requires_grad: bool = False, pin_memory: bool = False) -> Tensor:
    """Uniform samples from [0, 1) (complex: in both parts)."""
    shape, dt = A.sizes(size), A.sample_dtype(dtype, "check_uniform_bounds")
    double = dt.real_dtype is dtypes.float64
    return _factory("rand", shape, dt, requires_grad, device, generator,
                    lambda g, n, c: K.uniform(g, n, double, 0.0, 1.0))


def randn(*size, generator: Generator | None = None, dtype=None, layout=None, device=None,
          requires_grad: bool = False, pin_memory: bool = False) -> Tensor:
    """Standard normal samples (complex: variance 1, each part's 1/2)."""
    shape, dt = A.sizes(size), A.sample_dtype(dtype, "normal_kernel_cpu")
    double, std = dt.real_dtype is dtypes.float64, _std(1.0, dt)
    return _factory("randn", shape, dt, requires_grad, device, generator,
                    lambda g, n, c: K.normal(g, n, double, 0.0, std, c))


def _std(std: float, dt) -> float:
    """The standard deviation each sampled real number gets (a complex one's parts less)."""
    return K.complex_std(std) if dt.is_complex else std


def randint(*args, size=None, generator: Generator | None = None, dtype=None, layout=None,
            device=None, requires_grad: bool = False, pin_memory: bool = False,
            low=None, high=None) -> Tensor:
    """Integers from [low, high): ``randint(high, size)`` or ``randint(low, high, size)``
    (int64 unless ``dtype`` says otherwise)."""
    low, high, size = _randint_args(args, low, high, size)
    dt = dtypes.int64 if dtype is None else dtypes.as_dtype(dtype)
    return _randint(low, high, A.sizes((size,)), dt, requires_grad, device, generator)


def _randint_args(args: tuple, low, high, size) -> tuple:
    given = list(args)
    if size is None and given and isinstance(given[-1], (tuple, list)):
        size = given.pop()
    if high is None and given:
        high = given.pop()
    if low is None and given:
        low = given.pop()
    if given or high is None or size is None:
        raise TypeError("randint() expects (high, size) or (low, high, size), e.g. "
                        "randint(10, (3,)) or randint(2, 10, size=(3,))")
    return (0 if low is None else int(low)), int(high), size


def _randint(low: int, high: int, shape: tuple, dt, requires_grad: bool, device, generator,
             order=None) -> Tensor:
    range_, base = random_range(dt, low, high)
    return _factory("randint", shape, dt, requires_grad, device, generator,
                    lambda g, n, c: K.random_from_to(g, n, range_, base), order)


def randperm(n: int, *, generator: Generator | None = None, dtype=None, layout=None,
             device=None, requires_grad: bool = False, pin_memory: bool = False) -> Tensor:
    """A random permutation of 0 .. n-1 (int64 unless ``dtype`` says otherwise)."""
    dt = dtypes.int64 if dtype is None else dtypes.as_dtype(dtype)
    n = int(n)
    if n < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {n}: [{n}]")
    if dt.is_floating and n > 2 ** (np.finfo(dt.np).nmant + 1) + 1:
        raise RuntimeError(f"n cannot be greater than 2^{np.finfo(dt.np).nmant + 1}+1 for "
                           f"{dt.scalar_type} type.")
    if dt.is_complex:
        raise A.not_implemented("randperm", dt)
    check_fits(n - 1 if n > 0 else n, dt)
    if n >= (2 ** 32 - 1) // 20:
        raise RuntimeError(f"randperm: n = {n} is too large here (symgrad mirrors torch's "
                           f"algorithm for n < {(2 ** 32 - 1) // 20})")
    return _factory("randperm", (n,), dt, requires_grad, device, generator,
                    lambda g, m, c: K.randperm(g, m))


# ------------------------------------------------------------------ sampling from tensors

def normal(mean, std=1.0, size=None, *, generator: Generator | None = None, dtype=None,
           layout=None, device=None, requires_grad: bool = False,
           pin_memory: bool = False) -> Tensor:
    """Normal samples: ``normal(mean, std, size)`` with numbers, or of the shape of the
    tensor ``mean`` and/or ``std`` (broadcast), one sample per element. A complex ``mean``
    tensor (or ``dtype``) gives complex samples; ``std`` is real."""
    if not isinstance(mean, Tensor) and not isinstance(std, Tensor):
        if size is None:
            raise TypeError("normal(): with a number mean and std, give size= as well, e.g. "
                            "normal(0.0, 1.0, size=(3,))")
        real_arguments("normal", ("mean", mean), ("std", std))
        shape, dt = A.sizes((size,)), A.sample_dtype(dtype, "normal_kernel_cpu")
        check_std(std)
        mean, std, double = float(mean), _std(float(std), dt), dt.real_dtype is dtypes.float64
        return _factory("normal", shape, dt, requires_grad, device, generator,
                        lambda g, n, c: K.normal(g, n, double, mean, std, c))
    A.refuse_traced("normal", mean, std)
    A.warn_if_tracing("normal")
    gen = A.generator(generator)
    if isinstance(mean, Tensor) and isinstance(std, Tensor):
        return _normal_tt(mean, std, gen)
    if isinstance(mean, Tensor):
        real_arguments("normal", ("mean", mean), ("std", std))
        check_std(std)
        dt = A.sample_dtype(mean.dtype, "normal_kernel_cpu")
        noise = _noise(gen, mean.numel(), dt, _std(float(std), dt))
        out = _plus(noise.reshape(mean.shape), mean._value)
        return _sampled(A.new(out, mean.shape, dt), "NormalBackward1", [mean], "normal")
    real_arguments("normal", ("mean", mean))
    return _normal_ft(float(mean), std, gen)


def _noise(gen, n: int, dt, std: float) -> np.ndarray:
    """``n`` normal samples of mean 0 in ``dt`` (``normal_(0, std)`` of a new tensor)."""
    double = dt.real_dtype is dtypes.float64
    return A.draw(lambda g, m, c: K.normal(g, m, double, 0.0, std), gen, n, True, dt).astype(
        dt.np, copy=False)


def _plus(out: np.ndarray, mean: np.ndarray) -> np.ndarray:
    """torch's ``add_(mean)``: ``out + 1 * mean``; for complex tensors the product with its
    alpha ``1 + 0i`` is a complex one, which turns a real part -0 into +0 where the
    imaginary part is negative."""
    if out.dtype.kind == "c":
        mean = mean * out.dtype.type(1)
    return out + mean


def _sampled(out: Tensor, torch_name: str, inputs: list, op: str) -> Tensor:
    """``out`` with its zero-gradient grad_fn; torch's error when it would be complex."""
    if out.dtype.is_complex and is_grad_enabled() and any(t.requires_grad for t in inputs):
        raise RuntimeError(f"{op} does not support automatic differentiation for outputs "
                           f"with complex dtype.")
    return A.zero_grad(out, torch_name, inputs)


def _check_std_tensor(std: Tensor) -> None:
    if std.dtype.is_complex:
        raise RuntimeError("normal expects standard deviation to be non-complex")
    if std._value.size and not np.all(std._value >= 0):
        raise RuntimeError("normal expects all elements of std >= 0.0")


def _normal_ft(mean: float, std: Tensor, gen) -> Tensor:
    """``normal(float, Tensor)``: ``normal_(0, 1) * std + mean``, two roundings."""
    _check_std_tensor(std)
    dt = A.float_dtype(std.dtype, "normal_kernel_cpu")
    noise = K.normal(gen, std.numel(), dt is dtypes.float64, 0.0, 1.0).astype(dt.np)
    out = noise.reshape(std.shape) * std._value + dt.np.type(mean)
    return A.zero_grad(A.new(out, std.shape, dt), "NormalBackward2", [std])


def _normal_tt(mean: Tensor, std: Tensor, gen) -> Tensor:
    """``normal(Tensor, Tensor)``: ``normal_(0, 1)`` of the broadcast shape, in mean's
    dtype, ``* std`` then ``+ mean`` (each computed in the promoted dtype, stored back)."""
    _check_std_tensor(std)
    dt = A.sample_dtype(mean.dtype, "normal_kernel_cpu")
    shape = broadcast_shapes(mean.shape, std.shape)
    noise = _noise(gen, int(np.prod(shape)), dt, _std(1.0, dt))
    out = (noise.reshape(shape) * std._value).astype(dt.np)
    out = _plus(out, mean._value).astype(dt.np)
    return _sampled(A.new(out, shape, dt), "NormalBackward3", [mean, std], "normal")


def bernoulli(input: Tensor, p=None, *, generator: Generator | None = None) -> Tensor:
    """1 with probability ``input`` (elementwise), else 0, in input's dtype; with ``p``, 1
    with probability ``p`` everywhere (input gives the shape and dtype)."""
    input = as_tensor(input)
    if p is not None:
        if not 0 <= p <= 1:
            raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={p:g}")
        _refuse_complex(input, "bernoulli_scalar_cpu_")
        return A.no_derivative(_factory("bernoulli", input.shape, input.dtype, False, None,
                                        generator, lambda g, n, c: K.bernoulli_scalar(
                                            g, n, float(p))), "bernoulli", [input])
    _refuse_complex(input, "bernoulli_tensor_cpu_self_")
    if input.dtype.is_complex:   # (empty)
        return _sampled(A.new(np.zeros(0), input.shape, input.dtype), "BernoulliBackward0",
                        [input], "bernoulli")
    A.refuse_traced("bernoulli", input)
    A.float_dtype(input.dtype, "bernoulli_tensor_cpu_p_")
    flat = input._value.ravel()        # the result is contiguous: filled in row-major order
    check_probabilities(flat, A.generator(generator))
    out = _factory("bernoulli", input.shape, input.dtype, False, None, generator,
                   lambda g, n, c: K.bernoulli_tensor(g, flat))
    return A.zero_grad(out, "BernoulliBackward0", [input])


def _refuse_complex(input: Tensor, kernel: str) -> None:
    """torch's error for sampling into a complex tensor whose kernel is real only (a tensor
    without elements runs no kernel)."""
    if input.dtype.is_complex and input.numel():
        raise A.not_implemented(kernel, input.dtype)


def multinomial(input: Tensor, num_samples: int, replacement: bool = False, *,
                generator: Generator | None = None) -> Tensor:
    """Indices drawn from the categories of each row of ``input`` (unnormalized weights):
    ``num_samples`` per row, with or without replacement. int64."""
    input = as_tensor(input)
    A.refuse_traced("multinomial", input)
    _check_multinomial(input, num_samples, replacement)
    probs = input._value.reshape(-1, input.shape[-1])
    _check_weights(probs, replacement and num_samples > 1)
    shape = input.shape[:-1] + (num_samples,)
    return _factory("multinomial", shape, dtypes.int64, False, None, generator,
                    lambda g, n, c: K.multinomial(g, probs, num_samples, replacement).ravel())


def _check_multinomial(input: Tensor, n: int, replacement: bool) -> None:
    if input.ndim not in (1, 2):
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    if not input.dtype.is_floating:
        raise RuntimeError(f"multinomial only supports floating-point dtypes for input, got: "
                           f"{input.dtype.scalar_type}")
    if n <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    if not replacement and n > input.shape[-1]:
        raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without "
                           "replacement")


def _check_weights(probs: np.ndarray, replacement: bool) -> None:
    bad = not np.all(np.isfinite(probs)) or np.any(probs < 0)
    if bad and replacement:
        raise RuntimeError("invalid multinomial distribution (encountering probability "
                           "entry < 0)" if np.any(probs < 0) else "invalid multinomial "
                           "distribution (encountering probability entry = infinity or NaN)")
    if bad:
        raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
    if np.any(probs.sum(axis=1) == 0):
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")


def poisson(input: Tensor, generator: Generator | None = None) -> Tensor:
    """A Poisson sample of each rate in ``input``, in input's dtype."""
    input = as_tensor(input)
    A.refuse_traced("poisson", input)
    A.float_dtype(input.dtype, "poisson_cpu")
    rates = input._value.ravel()
    bad = ~(rates >= 0)
    if bad.any():   # torch samples the rates before the bad one first
        K.poisson(A.generator(generator), rates[:int(np.argmax(bad))])
        raise RuntimeError("invalid Poisson rate, expected rate to be non-negative")
    out = _factory("poisson", input.shape, input.dtype, False, None, generator,
                   lambda g, n, c: K.poisson(g, rates))
    return A.zero_grad(out, "PoissonBackward0", [input])


# ------------------------------------------------------------------ *_like

def rand_like(input: Tensor, *, generator: Generator | None = None, dtype=None, layout=None,
              device=None, requires_grad: bool = False, memory_format=None) -> Tensor:
    """``rand`` of input's shape (and dtype, unless given), filled in input's memory order."""
    dt = A.sample_dtype(input.dtype if dtype is None else dtype, "check_uniform_bounds")
    double = dt.real_dtype is dtypes.float64
    return preserve_layout(_factory("rand_like", input.shape, dt, requires_grad, device,
                                    generator, lambda g, n, c: K.uniform(g, n, double, 0.0, 1.0),
                                    A.memory_order(input)), input)


def randn_like(input: Tensor, *, generator: Generator | None = None, dtype=None, layout=None,
               device=None, requires_grad: bool = False, memory_format=None) -> Tensor:
    """``randn`` of input's shape (and dtype, unless given), filled in input's memory order
    (a non-contiguous layout takes torch's one-pair-at-a-time path)."""
    dt = A.sample_dtype(input.dtype if dtype is None else dtype, "normal_kernel_cpu")
    double, std = dt.real_dtype is dtypes.float64, _std(1.0, dt)
    return preserve_layout(_factory("randn_like", input.shape, dt, requires_grad, device,
                                    generator, lambda g, n, c: K.normal(g, n, double, 0.0, std,
                                                                        c),
                                    A.memory_order(input)), input)


def randint_like(input: Tensor, low: int = 0, high: int | None = None, *,
                 generator: Generator | None = None, dtype=None, layout=None, device=None,
                 requires_grad: bool = False, memory_format=None) -> Tensor:
    """``randint`` of input's shape and dtype: ``randint_like(x, high)`` or
    ``randint_like(x, low, high)``."""
    if high is None:
        low, high = 0, low
    dt = input.dtype if dtype is None else dtypes.as_dtype(dtype)
    return preserve_layout(_randint(int(low), int(high), input.shape, dt, requires_grad, device,
                                    generator, A.memory_order(input)), input)


# ------------------------------------------------------------------ dropout

def torch_dropout(input: Tensor, p: float, train: bool) -> Tensor:  # noqa: A002
    """``torch.dropout``: ``p`` and ``train`` required, as torch's."""
    return dropout(input, p, train)


def dropout(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False, *,
            train: bool | None = None, generator: Generator | None = None) -> Tensor:
    """Zero each element with probability ``p`` and scale the rest by ``1/(1-p)`` (training),
    or return ``input`` itself (eval, ``p == 0``, or no elements). The mask is torch's:
    ``bernoulli_(1 - p)`` of input's dtype, divided by ``1 - p``; the product shows
    ``MulBackward0``. (``train=`` is ``torch.dropout``'s spelling of ``training``.)"""
    if train is not None:
        training = train
    if not 0 <= p <= 1:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    input = as_tensor(input)
    if p == 0 or not training or input.numel() == 0:
        return input
    if p == 1:
        noise = Tensor(np.zeros((), input.dtype.np), None)
    elif not input.dtype.is_differentiable:   # torch divides the mask by 1 - p in place
        raise dtypes.cast_error(dtypes.float32, input.dtype)
    elif input.dtype.is_complex:   # the mask is bernoulli_ of input's dtype: no complex kernel
        raise A.not_implemented("bernoulli_scalar_cpu_", input.dtype)
    else:
        A.refuse_dropout_trace()
        keep = input.dtype.np.type(1 - p)
        mask = _factory("dropout", input.shape, input.dtype, False, None, generator,
                        lambda g, n, c: K.bernoulli_scalar(g, n, 1 - p), A.memory_order(input))
        noise = Tensor(mask._value / keep, None)
    if inplace:
        return input.mul_(noise)
    return apply("mul", input, noise)


METHODS = {**INPLACE, "bernoulli": bernoulli, "multinomial": multinomial}
