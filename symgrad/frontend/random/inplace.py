"""Tensor's in-place sampling methods: ``uniform_``, ``normal_``, ``bernoulli_``, ``random_``,
``exponential_``, ``cauchy_``, ``log_normal_``, ``geometric_``, with torch's numbers.

Layer: front end. Input: a tensor, the distribution's parameters, ``generator=``. Output: the
same tensor, refilled through ``inplace.update`` (so torch's rules hold: a leaf that requires
grad may be filled only under ``no_grad``; views write through to what they view; the version
counter moves), with torch's grad_fn (``UniformBackward0``...) passing a zero gradient when
the tensor had a history. Elements are drawn in the tensor's memory order, as torch's kernels
visit them (a transposed view is filled along its base's rows). Argument errors use torch's
wording, and nothing is drawn when an argument is rejected.

Complex tensors, as torch's: ``uniform_`` and ``normal_`` fill the real view (each element's
real part, then its imaginary part: ``args.draw``), ``normal_`` with ``std / sqrt(2)`` per
part; the other samplers have no complex kernel and raise torch's errors, in torch's order
(argument checks first; a tensor without elements runs no kernel, so no error).
"""

from __future__ import annotations

import warnings

import numpy as np

from ... import dtypes
from . import args as A
from . import kernels as K
from ..functions.inplace import update
from .generator import Generator
from ..core.tensor import Tensor

_INT64 = (-2 ** 63, 2 ** 63 - 1)
_MISSING = object()


def fill(t: Tensor, name: str, torch_name: str, sample, generator=None,
         parameters: tuple = ()) -> Tensor:
    """Refill ``t`` with ``sample(gen, n, contiguous)`` (flat, in ``t``'s memory order);
    ``parameters``: the distribution's tensors, which get a zero gradient too (torch's node
    has an edge for each)."""
    A.warn_if_tracing(f"Tensor.{name}")
    gen = A.generator(generator)

    def compute(s: Tensor) -> Tensor:
        order = A.memory_order(t)
        values = A.in_layout(A.draw(sample, gen, t.numel(), order is None, t.dtype), order)
        fresh = Tensor(values.astype(t.dtype.np).reshape(t.shape), None)
        return A.zero_grad(fresh, torch_name, [s, *parameters])
    return update(t, compute, name)


def uniform_(self: Tensor, from_: float = 0.0, to: float = 1.0, *,
             generator: Generator | None = None, **kwargs) -> Tensor:
    """Fill with uniform samples from [from, to) (``from`` may be given by keyword too). A
    complex tensor gets independent samples in its real and imaginary parts (torch fills its
    ``view_as_real``, checking the bounds against the parts' dtype, after the empty check)."""
    from_ = _keyword_from(kwargs, from_, "uniform_")
    real_arguments("uniform_", ("from", from_), ("to", to))
    if self.numel() or not self.dtype.is_complex:
        part = A.sample_dtype(self.dtype, "check_uniform_bounds").real_dtype
        _check_uniform_bounds(part, from_, to)
    double = self.dtype.real_dtype is dtypes.float64
    return fill(self, "uniform_", "UniformBackward0",
                lambda g, n, c: K.uniform(g, n, double, from_, to), generator)


def _check_uniform_bounds(part: dtypes.DType, from_: float, to: float) -> None:
    """torch's checks of ``uniform_``'s bounds for a floating dtype ``part``."""
    info = np.finfo(part.np)
    lo, hi = float(info.min), float(info.max)
    for value, what in ((from_, "from"), (to, "to")):
        if not lo <= value <= hi:
            raise RuntimeError(f"{what} is out of bounds for {_c_type(part)}")
    if from_ > to:
        raise RuntimeError(f"uniform_ expects to return a [from, to) range, but found "
                           f"from={from_:g} > to={to:g}")
    if to - from_ > hi:
        raise RuntimeError(f"uniform_ expects to-from <= std::numeric_limits<"
                           f"{_c_type(part).capitalize()}>::max(), but found to={to:g} "
                           f"and from={from_:g} which result in to-from to exceed the limit")


def real_arguments(fn: str, *named) -> None:
    """torch's TypeError for a complex number where its signature says ``float``."""
    for position, (name, value) in enumerate(named, 1):
        if isinstance(value, complex):
            raise TypeError(f"{fn}(): argument '{name}' (position {position}) must be float, "
                            f"not complex")


def normal_(self: Tensor, mean: float = 0.0, std: float = 1.0, *,
            generator: Generator | None = None) -> Tensor:
    """Fill with normal samples of mean ``mean`` and standard deviation ``std``. A complex
    tensor's parts each get ``mean`` and ``std / sqrt(2)`` (torch's ``normal_impl_``)."""
    real_arguments("normal_", ("mean", mean), ("std", std))
    check_std(std)
    if self.numel():
        A.sample_dtype(self.dtype, "normal_kernel_cpu")
    double = self.dtype.real_dtype is dtypes.float64
    if self.dtype.is_complex:
        std = K.complex_std(std)
    return fill(self, "normal_", "NormalBackward0",
                lambda g, n, c: K.normal(g, n, double, mean, std, c), generator)


def check_std(std: float) -> None:
    """torch's check of a normal's scalar standard deviation (NaN fails it too)."""
    if not std >= 0.0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {std:g}")


def bernoulli_(self: Tensor, p=0.5, *, generator: Generator | None = None) -> Tensor:
    """Fill with 1 with probability ``p`` (a number, or a tensor broadcast to this shape),
    else 0."""
    if isinstance(p, Tensor):
        return _bernoulli_tensor_(self, p, generator)
    if not 0 <= p <= 1:
        raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={p:g}")
    if self.dtype.is_complex and self.numel():
        raise A.not_implemented("bernoulli_scalar_cpu_", self.dtype)
    return fill(self, "bernoulli_", "BernoulliBackward2",
                lambda g, n, c: K.bernoulli_scalar(g, n, float(p)), generator)


def _bernoulli_tensor_(self: Tensor, p: Tensor, generator) -> Tensor:
    if self.dtype.is_complex:   # torch's kernel has no complex version (empty: no kernel)
        if self.numel():
            raise A.not_implemented("bernoulli_tensor_cpu_self_", self.dtype)
        return fill(self, "bernoulli_", "BernoulliBackward1", _nothing, generator, (p,))
    A.refuse_traced("Tensor.bernoulli_", p)
    A.float_dtype(p.dtype, "bernoulli_tensor_cpu_p_")
    probs = np.broadcast_to(p._value, self.shape) if p.shape != self.shape else p._value
    order = A.memory_order(self)
    flat = probs.ravel() if order is None else probs.ravel()[order]
    check_probabilities(flat, A.generator(generator))
    return fill(self, "bernoulli_", "BernoulliBackward1",
                lambda g, n, c: K.bernoulli_tensor(g, flat), generator, (p,))


def _nothing(gen, n: int, contiguous: bool) -> np.ndarray:
    """The samples of a tensor without elements, whose dtype has no kernel (none drawn)."""
    return np.zeros(n)


def check_probabilities(flat: np.ndarray, gen: Generator) -> None:
    """Every probability in [0, 1] (torch's check, in its words). torch checks each one as
    it draws, so the draws for the probabilities before a bad one are made first."""
    bad = ~((flat >= 0) & (flat <= 1))
    if bad.any():
        with gen.lock:
            gen.uniform(int(np.argmax(bad)), flat.dtype == np.float64)
        raise RuntimeError("Expected p_in >= 0 && p_in <= 1 to be true, but got false. "
                           "(bernoulli: every probability must be in [0, 1])")


def random_(self: Tensor, *args, generator: Generator | None = None, **kwargs) -> Tensor:
    """Fill with integers: ``random_()`` over the dtype's range (``[0, 2**mantissa]`` for
    floats), ``random_(to)`` over [0, to), ``random_(from, to)`` over [from, to), and
    ``random_(from, None)`` from ``from`` to the dtype's largest value."""
    from_, to, torch_name = _random_bounds(args, kwargs)
    if self.dtype.is_complex and (from_ is None or (to is None and from_ == _INT64[0])):
        if not self.numel():
            return fill(self, "random_", torch_name, _nothing, generator)
        raise A.not_implemented("random_kernel_cpu" if from_ is None else
                                "random_full_64_bits_range_kernel_cpu", self.dtype)
    if from_ is None:
        kind = self.dtype.name
        return fill(self, "random_", torch_name,
                    lambda g, n, c: K.random_default(g, n, kind), generator)
    range_, base = random_range(self.dtype, from_, to)
    if range_ is None:   # [-2**63, 2**63): every 64-bit value
        return fill(self, "random_", torch_name,
                    lambda g, n, c: K.random_full_range(g, n), generator)
    return fill(self, "random_", torch_name,
                lambda g, n, c: K.random_from_to(g, n, range_, base), generator)


def _random_bounds(args: tuple, kwargs: dict) -> tuple:
    """(from, to, grad_fn name) of ``random_``'s three forms (from None: no bounds)."""
    frm = kwargs.pop("from", kwargs.pop("from_", _MISSING))
    to = kwargs.pop("to", _MISSING)
    if frm is not _MISSING:   # random_(from=a[, to=b]): the (from, to) form
        args = (frm, None if to is _MISSING else to) + args
    elif to is not _MISSING:
        args = args + (to,)
    if kwargs or len(args) > 2:
        raise TypeError(f"random_() takes (from, to) or (to) or nothing, got {len(args)} "
                        f"positional arguments and keywords {sorted(kwargs)}")
    ints = [_int64(a) for a in args if a is not None]
    if not args:
        return None, None, "RandomBackward2"
    if len(args) == 1:
        return 0, ints[0], "RandomBackward1"
    return ints[0], (ints[1] if args[1] is not None else None), "RandomBackward0"


def _int64(v) -> int:
    value = int(v)
    if not _INT64[0] <= value <= _INT64[1]:
        raise ValueError("Overflow when unpacking long long")
    return value


def random_range(dt: dtypes.DType, from_: int, to: int | None) -> tuple:
    """(range, base) of torch's ``random_from_to_impl`` for [from, to) (``to`` None: to the
    dtype's largest value, inclusive); range None for int64's whole range. Raises torch's
    errors and warnings for bounds the dtype cannot hold."""
    if to is None and from_ == _INT64[0]:
        return None, from_
    if dt.is_complex and to is None:
        raise RuntimeError("random_from_to_impl handles only integral, floating-point and "
                           "boolean types")
    if to is not None:
        if from_ >= to:
            raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got "
                               f"from={from_} >= to={to}")
        if dt.is_floating:
            from_, to = _update_from(dt, from_), _update_to(dt, to)
            if from_ >= to:
                raise RuntimeError(f"random_ expects 'from' casted to dtype to be less than "
                                   f"'to' casted to dtype, but got from={from_} >= to={to}")
        _check_in_range(dt, from_, to - 1)
        return to - from_, from_
    digits = np.finfo(dt.np).nmant + 1 if dt.is_floating else 0
    to_inc = 1 if dt is dtypes.bool_ else 2 ** digits if dt.is_floating else \
        int(np.iinfo(dt.np).max)
    if dt.is_floating:
        from_ = _update_from(dt, from_)
        if from_ >= to_inc:
            raise RuntimeError(f"random_ expects 'from' casted to dtype to be less than or "
                               f"equal to 'to_inc' casted to dtype, but got from={from_} > "
                               f"to_inc={to_inc}")
    _check_in_range(dt, from_, to_inc)
    return to_inc - from_ + 1, from_


def _check_in_range(dt: dtypes.DType, from_: int, to_inc: int) -> None:
    if dt.is_complex:
        raise RuntimeError("check_random_bounds handles only integral, floating-point and "
                           "boolean types")
    if dt.is_floating:
        info = np.finfo(dt.np)
        lo, hi, digits = float(info.min), float(info.max), info.nmant + 1
    else:
        info = np.iinfo(np.int8 if dt is dtypes.bool_ else dt.np)
        lo, hi, digits = (0, 1, None) if dt is dtypes.bool_ else (int(info.min),
                                                                   int(info.max), None)
    for value, what in ((from_, "from"), (to_inc, "to - 1")):
        if not lo <= value <= hi:
            raise RuntimeError(f"{what} is out of bounds for {_c_type(dt)}")
        if digits and not -2 ** digits <= value <= 2 ** digits:
            warnings.warn(f"{what} is out of bounds [-(2^{digits}), 2^{digits}]. Due to "
                          f"precision limitations {_c_type(dt)} can support discrete uniform "
                          f"distribution only within this range.", UserWarning, stacklevel=4)


def _update_from(dt: dtypes.DType, from_: int) -> int:
    """torch's ``update_from``: raise ``from`` to the next value the float dtype holds."""
    rounded = _as_int64(dt.np.type(from_ + 1))
    if rounded < from_:
        n = max(abs(from_ + 1).bit_length() - 1, 0)
        from_ = rounded + (1 << (n - np.finfo(dt.np).nmant))
    return from_


def _update_to(dt: dtypes.DType, to: int) -> int:
    """torch's ``update_to``: lower ``to`` to the previous value the float dtype holds."""
    rounded = _as_int64(dt.np.type(to - 1))
    if rounded >= to:
        n = max(abs(to - 1).bit_length() - 1, 0)
        to = rounded - (1 << (n - np.finfo(dt.np).nmant))
    return to


def _as_int64(x) -> int:
    """C's ``static_cast<int64_t>`` of a float (out of range: x86's INT64_MIN)."""
    return int(x) if -2.0 ** 63 <= float(x) < 2.0 ** 63 else _INT64[0]


def _c_type(dt: dtypes.DType) -> str:
    return "long" if dt is dtypes.int64 else dt.cpp_name


def _keyword_from(kwargs: dict, default, name: str):
    """``from`` is a Python keyword: torch's ``x.uniform_(**{"from": a})`` arrives here."""
    value = kwargs.pop("from", default)
    if kwargs:
        raise TypeError(f"{name}() got unexpected keyword arguments {sorted(kwargs)}")
    return value


def exponential_(self: Tensor, lambd: float = 1.0, *,
                 generator: Generator | None = None) -> Tensor:
    """Fill with exponential samples of rate ``lambd``."""
    if not lambd > 0.0:
        raise RuntimeError(f"exponential_ expects lambda > 0.0, but found lambda={lambd:g}")
    if self.numel() and not self.dtype.is_floating:
        raise RuntimeError(f"Exponential distribution is a continuous probability distribution. "
                           f"dtype must be a floating point but you specified "
                           f"{self.dtype.scalar_type}")
    return fill(self, "exponential_", "ExponentialBackward0",
                lambda g, n, c: K.exponential(g, n, float(lambd)), generator)


def cauchy_(self: Tensor, median: float = 0.0, sigma: float = 1.0, *,
            generator: Generator | None = None) -> Tensor:
    """Fill with Cauchy samples of location ``median`` and scale ``sigma``."""
    if not sigma > 0.0:
        raise RuntimeError(f"cauchy_ expects sigma > 0.0, but found sigma={sigma:g}")
    if not self.dtype.is_floating:
        raise RuntimeError(f"Cauchy distribution is a continuous probability distribution. "
                           f"dtype must be a floating point but you specified "
                           f"{self.dtype.cpp_name}")
    return fill(self, "cauchy_", "CauchyBackward0",
                lambda g, n, c: K.cauchy(g, n, float(median), float(sigma)), generator)


def log_normal_(self: Tensor, mean: float = 1.0, std: float = 2.0, *,
                generator: Generator | None = None) -> Tensor:
    """Fill with ``exp`` of normal samples of mean ``mean`` and standard deviation ``std``."""
    if not std > 0.0:
        raise RuntimeError(f"log_normal_ expects std > 0.0, but found std={std:g}")
    if self.numel():
        A.float_dtype(self.dtype, "log_normal_cpu")
    return fill(self, "log_normal_", "LogNormalBackward0",
                lambda g, n, c: K.log_normal(g, n, float(mean), float(std)), generator)


def geometric_(self: Tensor, p: float, *, generator: Generator | None = None) -> Tensor:
    """Fill with the number of Bernoulli(``p``) trials up to the first success."""
    if not 0 < p < 1:
        raise RuntimeError(f"geometric_ expects p to be in (0, 1), but got p={p:g}")
    if self.dtype.is_complex and self.numel():
        raise A.not_implemented("geometric_cpu", self.dtype)
    return fill(self, "geometric_", "GeometricBackward0",
                lambda g, n, c: K.geometric(g, n, float(p)), generator)


METHODS = {"uniform_": uniform_, "normal_": normal_, "bernoulli_": bernoulli_,
           "random_": random_, "exponential_": exponential_, "cauchy_": cauchy_,
           "log_normal_": log_normal_, "geometric_": geometric_}
