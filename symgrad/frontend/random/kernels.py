"""torch's CPU sampling kernels: how each distribution turns the generator's draws into numbers.

Layer: front end (imports ``random_engine`` and ``random_math`` only). Input: a ``Generator``,
an element count (or the probabilities, rates...) and the distribution's parameters. Output: a
flat NumPy array of the samples in the order torch's kernel writes them (the tensor's memory
order), with exactly torch 2.13's values and leaving the generator exactly where torch's is.
It must not make tensors or check user arguments (``random.py`` does both).

Each function names the torch kernel it mirrors. Draw counts per element: ``uniform`` 1
(float32) or 2 (float64); ``normal`` of 16 or more contiguous elements 1 or 2 per element plus
16 more when the count is not a multiple of 16, of fewer (or non-contiguous) ones 4 per pair
of samples, sharing the generator's cached second sample; integers 1, or 2 when the range is
2**28 or more; ``bernoulli`` with scalar p and ``exponential``/``cauchy``/``geometric`` 2;
``bernoulli`` with tensor p like ``uniform`` of p's dtype.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import math

import numpy as np

from . import arithmetic as M
from .generator import Generator, capability, fused

_F = np.float32


def uniform(gen: Generator, n: int, double: bool, lo: float, hi: float) -> np.ndarray:
    """``uniform_`` (``uniform_real_distribution``): ``x * (hi - lo) + lo`` in the dtype."""
    with gen.lock:
        x = gen.uniform(n, double)
    if lo == 0 and hi == 1:
        return x
    dt = np.float64 if double else _F
    lo_t, hi_t = dt(lo), dt(hi)
    return M.muladd(x, hi_t - lo_t, lo_t, fused())


def complex_std(std: float) -> float:
    """The standard deviation of each part of a complex normal sample (``normal_impl_``):
    ``std / sqrt(2)``, divided in double, so that the complex samples have variance
    ``std**2``."""
    return std / math.sqrt(2)


def normal(gen: Generator, n: int, double: bool, mean: float, std: float,
           contiguous: bool = True) -> np.ndarray:
    """``normal_`` (``normal_kernel``): Box-Muller in blocks of 16 for 16 or more contiguous
    elements (torch's AVX2 float32 variant where torch runs it), else one pair at a time."""
    with gen.lock:
        if n < 16 or not contiguous:
            return box_muller(gen, n, mean, std).astype(np.float64 if double else _F)
        if double:
            return _fill(gen, n, mean, std, True, _block64)
        if capability() == "default":
            return _fill(gen, n, mean, std, False, _block32_libm)
        return _fill(gen, n, mean, std, False, _block32_avx)


def _fill(gen, n, mean, std, double, block) -> np.ndarray:
    """``normal_fill``: uniforms for every element, transformed 16 at a time (``u1 = 1 - x[j]``,
    ``u2 = x[j + 8]``); when 16 does not divide ``n`` the last 16 are drawn again and redone."""
    data = gen.uniform(n, double)
    whole = n - n % 16
    data[:whole] = block(data[:whole].reshape(-1, 16), mean, std).ravel()
    if n % 16:
        data[n - 16:] = block(gen.uniform(16, double).reshape(1, 16), mean, std).ravel()
    return data


def _block64(d: np.ndarray, mean: float, std: float) -> np.ndarray:
    u1, u2 = 1.0 - d[:, :8], d[:, 8:]
    radius = np.sqrt(-2.0 * M.libm(math.log, u1))
    theta = 2.0 * math.pi * u2
    return np.concatenate([M.muladd(radius * M.libm(math.cos, theta), std, mean, True),
                           M.muladd(radius * M.libm(math.sin, theta), std, mean, True)], axis=1)


def _block32_avx(d: np.ndarray, mean: float, std: float) -> np.ndarray:
    """``normal_fill_16_AVX2``: avx_mathfun's log and sincos, then ``fmadd(n, std, mean)``."""
    radius = np.sqrt(_F(-2) * M.avx_log(_F(1) - d[:, :8]))
    sin, cos = M.avx_sincos(M.TWO_PI_F32 * d[:, 8:])
    return np.concatenate([M.muladd(radius * cos, _F(std), _F(mean), True),
                           M.muladd(radius * sin, _F(std), _F(mean), True)], axis=1)


def _block32_libm(d: np.ndarray, mean: float, std: float) -> np.ndarray:
    """``normal_fill_16<float>`` of torch's default (non-AVX) build: the C library's float
    ``logf``/``cosf``/``sinf``, every step rounded to float32."""
    logf, cosf, sinf = _libm_float()
    radius = np.sqrt(_F(-2) * _map(logf, _F(1) - d[:, :8]))
    theta = (2.0 * math.pi * d[:, 8:].astype(np.float64)).astype(_F)
    m, s = _F(mean), _F(std)
    return np.concatenate([M.fma32(radius * _map(cosf, theta), s, m),
                           M.fma32(radius * _map(sinf, theta), s, m)], axis=1)


def _map(fn, x: np.ndarray) -> np.ndarray:
    return np.fromiter(map(fn, x.ravel().tolist()), _F, x.size).reshape(x.shape)


_LIBM_FLOAT = None


def _libm_float():
    """The C library's ``logf``, ``cosf``, ``sinf`` (loaded on first use, through ctypes)."""
    global _LIBM_FLOAT
    if _LIBM_FLOAT is None:
        lib = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
        fns = []
        for name in ("logf", "cosf", "sinf"):
            fn = getattr(lib, name)
            fn.restype, fn.argtypes = ctypes.c_float, [ctypes.c_float]
            fns.append(fn)
        _LIBM_FLOAT = tuple(fns)
    return _LIBM_FLOAT


def box_muller(gen: Generator, n: int, mean: float, std: float) -> np.ndarray:
    """``normal_distribution<double>``, ``n`` times: a pending cached sample first, then pairs
    (``u1``, ``u2`` from ``random64``; ``r * cos`` returned, ``r * sin`` cached), each
    ``sample * std + mean``; an odd count leaves the last ``r * sin`` in the cache. float64."""
    out = np.empty(n, np.float64)
    start = 0
    if n and gen.next_normal is not None:
        out[0], gen.next_normal, start = gen.next_normal, None, 1
    pairs = (n - start + 1) // 2
    u = gen.uniform(2 * pairs, True).reshape(pairs, 2)
    r = np.sqrt(-2.0 * M.libm(math.log1p, -u[:, 1]))
    theta = 2.0 * math.pi * u[:, 0]
    both = np.stack([r * M.libm(math.cos, theta), r * M.libm(math.sin, theta)], 1).ravel()
    out[start:] = both[:n - start]
    if (n - start) % 2:
        gen.next_normal = float(both[-1])
    return M.muladd(out, std, mean, fused())


def random_from_to(gen: Generator, n: int, range_: int, base: int) -> np.ndarray:
    """``random_from_to_kernel``: ``draw % range + base`` (wrapping in 64 bits), the draw
    ``random()``, or ``random64()`` when the range is 2**28 or more. int64."""
    with gen.lock:
        draws = gen.raw64(n) if range_ >= 1 << 28 else gen.raw32(n)
    wrapped = draws % np.uint64(range_) + np.uint64(base % 2 ** 64)
    return wrapped.view(np.int64)


def random_full_range(gen: Generator, n: int) -> np.ndarray:
    """``random_full_64_bits_range_kernel``: ``random64()`` as int64."""
    with gen.lock:
        return gen.raw64(n).view(np.int64)


def random_default(gen: Generator, n: int, kind: str) -> np.ndarray:
    """``random_kernel`` (``random_()`` without bounds), torch's ``uniform_int``: a 64-bit
    draw for int64 and float64, a 32-bit one otherwise, modulo the dtype's largest value + 1
    for integers (int64 ``2**63``, uint8 ``2**8``), ``2**digits + 1`` for floats (float64
    ``2**53 + 1``, float32 ``2**24 + 1``, float16 ``2**11 + 1``); bool ``random() & 1``.
    int64 values (the caller casts)."""
    if kind == "bool":
        mod = 2
    elif np.dtype(kind).kind == "f":
        mod = 2 ** (np.finfo(kind).nmant + 1) + 1
    else:
        mod = int(np.iinfo(kind).max) + 1
    with gen.lock:
        raw = gen.raw64(n) if kind in ("int64", "float64") else gen.raw32(n)
        return (raw % np.uint64(mod)).view(np.int64)


def bernoulli_tensor(gen: Generator, p: np.ndarray) -> np.ndarray:
    """``bernoulli_tensor_kernel``: one uniform of p's dtype per element, ``u < p``. bool."""
    with gen.lock:
        u = gen.uniform(p.size, p.dtype == np.float64)
    return u < p.ravel()


def bernoulli_scalar(gen: Generator, n: int, p: float) -> np.ndarray:
    """``bernoulli_scalar_kernel_default``: a float64 uniform per element, ``u < p``. bool."""
    with gen.lock:
        return gen.uniform(n, True) < p


def exponential(gen: Generator, n: int, lambd: float) -> np.ndarray:
    """``exponential_kernel``: ``-1/lambd * log1p(-u)``, u a float64 uniform. float64."""
    with gen.lock:
        u = gen.uniform(n, True)
    return (-1.0 / lambd) * M.libm(math.log1p, -u)


def cauchy(gen: Generator, n: int, median: float, sigma: float) -> np.ndarray:
    """``cauchy_kernel``: ``median + sigma * tan(pi * (u - 0.5))``. float64."""
    with gen.lock:
        u = gen.uniform(n, True)
    return M.muladd(sigma, M.libm(math.tan, math.pi * (u - 0.5)), median, fused())


def log_normal(gen: Generator, n: int, mean: float, std: float) -> np.ndarray:
    """``log_normal_kernel``: ``exp`` of the scalar Box-Muller normal. float64."""
    with gen.lock:
        return M.libm(math.exp, box_muller(gen, n, mean, std))


def geometric(gen: Generator, n: int, p: float) -> np.ndarray:
    """``geometric_kernel``: ``ceil(log(u) / log(1 - p))``, u a float64 uniform. float64."""
    with gen.lock:
        u = gen.uniform(n, True)
    with np.errstate(divide="ignore"):
        return np.ceil(M.libm(_log, u) / math.log(1.0 - p))


def _log(x: float) -> float:
    return math.log(x) if x > 0 else -math.inf


def randperm(gen: Generator, n: int) -> np.ndarray:
    """``randperm_cpu``: Fisher-Yates from the front, swapping ``i`` with ``i + random() %
    (n - i)`` for ``i < n - 1``. int64."""
    with gen.lock:
        steps = gen.raw32(max(n - 1, 0)) % np.arange(n, 1, -1, dtype=np.uint64)
    perm = list(range(n))
    for i, z in enumerate(steps.tolist()):
        j = i + z
        perm[i], perm[j] = perm[j], perm[i]
    return np.array(perm, np.int64)


def multinomial(gen: Generator, probs: np.ndarray, n_sample: int,
                replacement: bool) -> np.ndarray:
    """``multinomial`` of the rows of 2-D ``probs``. Without replacement, or for one sample:
    ``probs / q`` with ``q`` exponential(1) in probs' dtype, then its ``n_sample`` largest
    (argmax for one). With replacement: per row, the normalized cumulative sums in probs'
    dtype, searched for each float64 uniform. int64 of shape (rows, n_sample)."""
    rows, cats = probs.shape
    with gen.lock:
        if not replacement or n_sample == 1:
            q = exponential(gen, probs.size, 1.0).astype(probs.dtype).reshape(rows, cats)
            q = probs / q
            if n_sample == 1:
                return np.argmax(q, axis=1).astype(np.int64).reshape(rows, 1)
            return np.argsort(-q, axis=1, kind="stable")[:, :n_sample].astype(np.int64)
        out = np.empty((rows, n_sample), np.int64)
        for i in range(rows):
            cum = np.cumsum(probs[i])
            cum = cum / cum[-1]
            cum[-1] = 1
            out[i] = np.searchsorted(cum.astype(np.float64), gen.uniform(n_sample, True))
        return out


def poisson(gen: Generator, rates: np.ndarray) -> np.ndarray:
    """``_s_poisson_cpu``: per rate, a product of uniforms below 10, Hormann's transformed
    rejection with squeeze (PTRS) from 10. float64."""
    with gen.lock:
        return np.array([_poisson_one(gen, lam) for lam in rates.ravel().tolist()],
                        np.float64)


def _draw(gen: Generator) -> float:
    return float(gen.uniform(1, True)[0])


def _poisson_one(gen: Generator, lam: float) -> int:
    if lam >= 10:
        return _ptrs(gen, lam)
    if lam == 0:
        return 0
    limit, count, prod = math.exp(-lam), 0, 1.0
    while True:
        prod *= _draw(gen)
        if prod <= limit:
            return count
        count += 1


def _ptrs(gen: Generator, lam: float) -> int:
    slam, loglam = math.sqrt(lam), math.log(lam)
    b = 0.931 + 2.53 * slam
    a = -0.059 + 0.02483 * b
    log_inv_alpha = math.log(1.1239 + 1.1328 / (b - 3.4))
    vr = 0.9277 - 3.6224 / (b - 2)
    while True:
        u = _draw(gen) - 0.5
        v = _draw(gen)
        us = 0.5 - abs(u)
        if us == 0:          # C divides by zero here and gets a negative k: rejected
            continue
        k = math.floor((2 * a / us + b) * u + lam + 0.43)
        if us >= 0.07 and v <= vr:
            return k
        if k < 0 or (us < 0.013 and v > us):
            continue
        if (_log(v) + log_inv_alpha - math.log(a / (us * us) + b)
                <= -lam + k * loglam - math.lgamma(k + 1.0)):
            return k
