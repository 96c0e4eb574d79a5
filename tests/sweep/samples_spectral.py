"""Sample generators of ``torch.fft`` and the short-time transforms ``stft istft``.

Input: an op's name. Output: its samples (``spec.Sample``); ``table()`` maps ops to
generators. Signals are real or complex, of even and odd lengths (the transforms' two
branches), with ``n``/``s`` that pad and that crop, each normalization, and the arguments torch
rejects (a zero or negative length, a repeated dim, an integer ``n`` for ``fftfreq``...).
"""

from __future__ import annotations

import functools

from .spec import COMPLEX, D, T, calls, over_dtypes

NORMS = ({"norm": "ortho"}, {"norm": "forward"}, {"norm": "backward"}, {"norm": "bad"})


def one_dim(name: str) -> list:
    """fft ifft rfft irfft hfft ihfft: a length, a dim, a norm."""
    op = f"fft.{name}"
    real_in = name in ("rfft", "ihfft")
    dtypes = ("float32", "float64", "int64", "bool") + (() if real_in else COMPLEX)
    out = over_dtypes(op, lambda dt: (T((6,), dt),), dtypes)
    x = T((6,)) if real_in else T((6,), "complex128")
    out += calls(op, (x,), (T((5,)),), (T((2, 5)),), (x, 8), (x, 4), (x, 1), (x, 0), (x, -2),
                 (T((2, 6)), None, 0), (T((2, 6)), None, -1), (x, None, 1),
                 *[(x, n) for n in NORMS], (T((5,), "complex64" if not real_in else "float32"),),
                 (T(()),), (T((0,)),), (T((3, 4), "float32"), {"n": 6, "dim": 0}),
                 (T((7,)), 7), (T((6,), kind="e"),))
    return out


def two_dim(name: str, rank: str) -> list:
    """The 2-d and n-d transforms: sizes ``s``, dims, norms."""
    op = f"fft.{name}{rank}"
    real_in = name in ("rfft", "ihfft")
    x = T((3, 4)) if real_in else T((3, 4), "complex128")
    out = over_dtypes(op, lambda dt: (T((3, 4), dt),), ("float32", "float64", "int64"))
    out += calls(op, (x,), (T((3, 5)),), (T((2, 3, 4)),), (x, (4, 6)), (x, (2, 2)),
                 (x, (3,)), (x, None, (0,)), (x, None, (0, 0)), (x, (0, 4)),
                 (x, None, (-1, -2)), *[(x, None, (-2, -1), n["norm"]) for n in NORMS[:2]],
                 (x, {"s": (4, 4), "dim": (1, 0)}), (T((4,)),), (T((2, 3), "float32"),))
    if rank == "n":
        out += calls(op, (T((2, 3, 4)), None, (0, 2)), (T((2, 3, 4)),), (x, (5,), (0,)))
    return out


def freq() -> dict:
    out = {}
    for name in ("fftfreq", "rfftfreq"):
        op = f"fft.{name}"
        out[op] = functools.partial(
            calls, op, (5,), (6,), (1,), (0,), (5, 0.1), (6, 2.0), (4, {"d": 0.5}), (-1,),
            (5, {"dtype": D("float32")}), (5, {"dtype": D("int64")}), (5, 0))
    return out


def shifts() -> dict:
    out = {}
    for name in ("fftshift", "ifftshift"):
        op = f"fft.{name}"
        out[op] = functools.partial(lambda o: over_dtypes(o, lambda dt: (T((5,), dt),)) + calls(
            o, (T((2, 5)),), (T((2, 5)), 0), (T((2, 5)), (0, 1)), (T((2, 5)), {"dim": -1}),
            (T((4, 6), "complex128"),), (T(()),), (T((0, 3)),), (T((2, 5)), 2),
            (T((2, 5)), (0, 0))), op)
    return out


def stft() -> list:
    op, x = "torch.stft", T((32,))
    window = T((8,), kind="p", grad=False)
    return calls(
        op, (x, 8, {"return_complex": True}), (x, 8, 2, {"return_complex": True}),
        (x, 8, 4, 8, window, {"return_complex": True}),
        (x, 8, {"center": False, "return_complex": True}),
        (x, 8, {"pad_mode": "constant", "return_complex": True}),
        (x, 8, {"normalized": True, "return_complex": True}),
        (x, 8, {"onesided": False, "return_complex": True}),
        (T((2, 32)), 8, {"return_complex": True}), (T((32,), "complex128"), 8,
                                                     {"return_complex": True}),
        (x, 8), (x, 8, {"return_complex": False}), (x, 40, {"return_complex": True}),
        (x, 8, 0, {"return_complex": True}), (T((32,), "float32"), 8, {"return_complex": True}),
        (x, 8, 2, 6, {"return_complex": True}), (x, 8, 2, 10, {"return_complex": True}),
        (x, 8, {"window": T((7,)), "return_complex": True}))


def istft() -> list:
    op, spec = "torch.istft", T((5, 9), "complex128")   # n_fft 8, onesided: 5 bins
    window = T((8,), kind="p", grad=False)
    return calls(
        op, (spec, 8), (spec, 8, 2), (spec, 8, 2, 8, window), (spec, 8, {"center": False}),
        (spec, 8, {"normalized": True}), (spec, 8, {"length": 20}),
        (T((8, 9), "complex128"), 8, {"onesided": False, "return_complex": True}),
        (T((2, 5, 9), "complex128"), 8), (T((5, 9), "complex64"), 8), (T((5, 9)), 8),
        (spec, 6), (spec, 8, {"window": T((8,), kind="n")}))


def table() -> dict:
    out = {}
    for name in ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft"):
        out[f"fft.{name}"] = functools.partial(one_dim, name)
        for rank in ("2", "n"):
            out[f"fft.{name}{rank}"] = functools.partial(two_dim, name, rank)
    out.update(freq())
    out.update(shifts())
    out["torch.stft"] = stft
    out["torch.istft"] = istft
    return out
