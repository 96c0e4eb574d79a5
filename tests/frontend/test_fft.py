"""symgrad.fft, eagerly: every transform (fft ifft rfft irfft hfft ihfft, their 2-D and n-D
forms) with every norm, odd and even lengths, ``n``/``s`` padding and cropping, several dims;
fftfreq, rfftfreq, fftshift, ifftshift; dtypes, grad_fn chains, errors and ``out=``.

Oracles: NumPy's ``numpy.fft`` for the values (independent of symgrad's code paths: hfftn and
ihfftn, which NumPy lacks, through irfftn and rfftn of conjugates); central differences in each
real and imaginary part (float64) for the gradients (torch's convention: the gradient of a
real loss with respect to z = x + iy is dL/dx + i dL/dy); torch 2.13 when it is installed for
values, gradients, dtypes, grad_fn chains, errors and frequencies; and always
``fft_torch.json``, torch's output stored by ``python tests/frontend/test_fft.py --store``.
torch computes with MKL, symgrad with pocketfft: values agree to a few ulps, not bit for bit.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

import symgrad as sg

NORMS = (None, "backward", "ortho", "forward")
_SWAPPED = {None: "forward", "backward": "forward", "ortho": "ortho", "forward": "backward"}


def _np_hfftn(a, s, axes, norm):
    return np.fft.irfftn(np.conj(a), s=s, axes=axes, norm=_SWAPPED[norm])


def _np_ihfftn(a, s, axes, norm):
    return np.conj(np.fft.rfftn(a, s=s, axes=axes, norm=_SWAPPED[norm]))


# name -> (symgrad/torch call f(t, a, norm), NumPy call g(a, norm), input "r"/"c", shape)
BASE = {
    "fft real even": (lambda t, a, m: t.fft.fft(a, norm=m),
                      lambda a, m: np.fft.fft(a, norm=m), "r", (2, 6)),
    "fft complex odd": (lambda t, a, m: t.fft.fft(a, norm=m),
                        lambda a, m: np.fft.fft(a, norm=m), "c", (3, 5)),
    "fft pad dim0": (lambda t, a, m: t.fft.fft(a, n=6, dim=0, norm=m),
                     lambda a, m: np.fft.fft(a, n=6, axis=0, norm=m), "c", (3, 2)),
    "fft crop": (lambda t, a, m: t.fft.fft(a, n=3, norm=m),
                 lambda a, m: np.fft.fft(a, n=3, norm=m), "r", (2, 5)),
    "ifft complex even": (lambda t, a, m: t.fft.ifft(a, norm=m),
                          lambda a, m: np.fft.ifft(a, norm=m), "c", (2, 4)),
    "ifft real pad": (lambda t, a, m: t.fft.ifft(a, n=7, norm=m),
                      lambda a, m: np.fft.ifft(a, n=7, norm=m), "r", (5,)),
    "rfft odd": (lambda t, a, m: t.fft.rfft(a, norm=m),
                 lambda a, m: np.fft.rfft(a, norm=m), "r", (2, 7)),
    "rfft crop even": (lambda t, a, m: t.fft.rfft(a, n=6, norm=m),
                       lambda a, m: np.fft.rfft(a, n=6, norm=m), "r", (9,)),
    "rfft pad dim0": (lambda t, a, m: t.fft.rfft(a, n=5, dim=0, norm=m),
                      lambda a, m: np.fft.rfft(a, n=5, axis=0, norm=m), "r", (3, 2)),
    "irfft default": (lambda t, a, m: t.fft.irfft(a, norm=m),
                      lambda a, m: np.fft.irfft(a, norm=m), "c", (2, 5)),
    "irfft odd crop": (lambda t, a, m: t.fft.irfft(a, n=7, norm=m),
                       lambda a, m: np.fft.irfft(a, n=7, norm=m), "c", (5,)),
    "irfft even pad dim0": (lambda t, a, m: t.fft.irfft(a, n=10, dim=0, norm=m),
                            lambda a, m: np.fft.irfft(a, n=10, axis=0, norm=m), "c", (4, 2)),
    "hfft default": (lambda t, a, m: t.fft.hfft(a, norm=m),
                     lambda a, m: np.fft.hfft(a, norm=m), "c", (4,)),
    "hfft odd": (lambda t, a, m: t.fft.hfft(a, n=5, norm=m),
                 lambda a, m: np.fft.hfft(a, n=5, norm=m), "c", (2, 3)),
    "hfft pad": (lambda t, a, m: t.fft.hfft(a, n=9, norm=m),
                 lambda a, m: np.fft.hfft(a, n=9, norm=m), "c", (3,)),
    "ihfft even": (lambda t, a, m: t.fft.ihfft(a, norm=m),
                   lambda a, m: np.fft.ihfft(a, norm=m), "r", (2, 6)),
    "ihfft pad odd": (lambda t, a, m: t.fft.ihfft(a, n=7, norm=m),
                      lambda a, m: np.fft.ihfft(a, n=7, norm=m), "r", (5,)),
    "fft2 real": (lambda t, a, m: t.fft.fft2(a, norm=m),
                  lambda a, m: np.fft.fft2(a, norm=m), "r", (3, 4)),
    "fft2 s": (lambda t, a, m: t.fft.fft2(a, s=(4, 3), norm=m),
               lambda a, m: np.fft.fft2(a, s=(4, 3), norm=m), "c", (2, 5)),
    "ifft2 dims": (lambda t, a, m: t.fft.ifft2(a, dim=(0, 2), norm=m),
                   lambda a, m: np.fft.ifft2(a, axes=(0, 2), norm=m), "c", (2, 2, 3)),
    "rfft2": (lambda t, a, m: t.fft.rfft2(a, norm=m),
              lambda a, m: np.fft.rfft2(a, norm=m), "r", (3, 5)),
    "irfft2 s": (lambda t, a, m: t.fft.irfft2(a, s=(3, 5), norm=m),
                 lambda a, m: np.fft.irfft2(a, s=(3, 5), norm=m), "c", (2, 4)),
    "fftn all": (lambda t, a, m: t.fft.fftn(a, norm=m),
                 lambda a, m: np.fft.fftn(a, norm=m), "c", (2, 3, 2)),
    "fftn s dims": (lambda t, a, m: t.fft.fftn(a, s=(2, -1), dim=(2, 0), norm=m),
                    lambda a, m: np.fft.fftn(a, s=(2, 2), axes=(2, 0), norm=m), "r", (2, 2, 3)),
    "ifftn s": (lambda t, a, m: t.fft.ifftn(a, s=(5,), norm=m),
                lambda a, m: np.fft.ifftn(a, s=(5,), axes=(1,), norm=m), "c", (2, 3)),
    "rfftn dims reversed": (lambda t, a, m: t.fft.rfftn(a, dim=(1, 0), norm=m),
                            lambda a, m: np.fft.rfftn(a, axes=(1, 0), norm=m), "r", (4, 3)),
    "rfftn s": (lambda t, a, m: t.fft.rfftn(a, s=(3, 4), norm=m),
                lambda a, m: np.fft.rfftn(a, s=(3, 4), axes=(0, 1), norm=m), "r", (2, 6)),
    "irfftn default": (lambda t, a, m: t.fft.irfftn(a, norm=m),
                       lambda a, m: np.fft.irfftn(a, axes=(0, 1), norm=m), "c", (3, 4)),
    "irfftn s odd": (lambda t, a, m: t.fft.irfftn(a, s=(2, 7), norm=m),
                     lambda a, m: np.fft.irfftn(a, s=(2, 7), axes=(0, 1), norm=m), "c", (3, 3)),
    "hfft2": (lambda t, a, m: t.fft.hfft2(a, norm=m),
              lambda a, m: _np_hfftn(a, None, (0, 1), m), "c", (3, 3)),
    "hfftn s": (lambda t, a, m: t.fft.hfftn(a, s=(4, 5), norm=m),
                lambda a, m: _np_hfftn(a, (4, 5), (0, 1), m), "c", (3, 2)),
    "ihfft2": (lambda t, a, m: t.fft.ihfft2(a, norm=m),
               lambda a, m: _np_ihfftn(a, None, (0, 1), m), "r", (3, 4)),
    "ihfftn dims": (lambda t, a, m: t.fft.ihfftn(a, s=(3, 5), dim=(0, 2), norm=m),
                    lambda a, m: _np_ihfftn(a, (3, 5), (0, 2), m), "r", (2, 2, 4)),
}
# Every base case with its norms: each function with all four spellings of the norm.
CASES = {f"{name} {norm}": (name, norm) for name in BASE for norm in NORMS
         if norm in (None, "ortho", "forward") or name.split()[0] in ("fft", "irfft", "hfft")}
SINGLE = ["fft real even", "fft complex odd", "rfft odd", "irfft default", "fft2 s",
          "irfftn s odd", "ihfft2"]


def _input(name: str, dtype=np.float64) -> np.ndarray:
    _, _, kind, shape = BASE[name]
    rng = np.random.default_rng(sum(map(ord, name)))
    a = rng.standard_normal(shape)
    if kind == "c":
        a = a + 1j * rng.standard_normal(shape)
    if dtype == np.float32:
        return a.astype(np.complex64 if kind == "c" else np.float32)
    return a


def _weights(name: str, shape: tuple, is_complex: bool) -> np.ndarray:
    rng = np.random.default_rng(len(name) + 7)
    w = rng.standard_normal(shape)
    return w + 1j * rng.standard_normal(shape) if is_complex else w


def _loss(t, out, w):
    """A real loss of the result: sum(Re(out) Re(w) + Im(out) Im(w))."""
    if out.dtype.is_complex:
        return (out.real * t.tensor(w.real) + out.imag * t.tensor(w.imag)).sum()
    return (out * t.tensor(w)).sum()


def _pairs(a) -> list:
    a = np.asarray(a)
    return [np.real(a).ravel().tolist(), np.imag(a).ravel().tolist()]


def _chain(fn) -> list:
    names = []
    while fn is not None:
        names.append(type(fn).__name__)
        fn = fn.next_functions[0][0] if fn.next_functions else None
    return names


def observe(t, case: str, single: bool = False) -> dict:
    """What ``t`` (torch or symgrad) computes for a case: value, dtype, grad_fn chain and the
    gradient of ``_loss``."""
    name, norm = CASES[case]
    call = BASE[name][0]
    a = t.tensor(_input(name, np.float32 if single else np.float64), requires_grad=True)
    out = call(t, a, norm)
    _loss(t, out, _weights(name, tuple(out.shape), out.dtype.is_complex)).backward()
    return {"value": _pairs(out.detach().resolve_conj().numpy()), "shape": list(out.shape),
            "dtype": str(out.dtype), "chain": _chain(out.grad_fn),
            "grad": _pairs(a.grad.resolve_conj().numpy()), "grad dtype": str(a.grad.dtype)}


STORED = Path(__file__).with_name("fft_torch.json")
EXPECTED = json.loads(STORED.read_text()) if STORED.exists() else {}


def _same(got: dict, want: dict, rtol: float) -> None:
    for key in ("shape", "dtype", "chain", "grad dtype"):
        assert got[key] == want[key], key
    for key in ("value", "grad"):
        for g, w in zip(got[key], want[key]):
            scale = max(np.abs(w).max(initial=0.0), 1.0)
            np.testing.assert_allclose(g, w, rtol=rtol, atol=rtol * scale, err_msg=key)


@pytest.mark.parametrize("case", list(CASES))
def test_values_match_numpy(case):
    name, norm = CASES[case]
    call, oracle, _, _ = BASE[name]
    a = _input(name)
    got = call(sg, sg.tensor(a), norm).numpy()
    want = oracle(a, norm)
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12 * np.abs(want).max())


@pytest.mark.parametrize("case", list(CASES))
def test_matches_torch(case):
    torch = pytest.importorskip("torch")
    _same(observe(sg, case), observe(torch, case), 1e-12)


@pytest.mark.parametrize("case", list(CASES))
def test_matches_stored_torch_output(case):
    _same(observe(sg, case), EXPECTED["case:" + case], 1e-12)


@pytest.mark.parametrize("name", SINGLE)
def test_single_precision_matches_torch_to_a_few_ulps(name):
    case = f"{name} None"
    want = EXPECTED["single:" + case]
    got = observe(sg, case, single=True)
    _same(got, want, 2e-6)
    assert got["dtype"] in ("torch.complex64", "torch.float32")


@pytest.mark.parametrize("case", list(CASES))
def test_gradient_matches_central_differences(case):
    """dL/dx + i dL/dy from central differences in each real and imaginary part."""
    name, norm = CASES[case]
    call = BASE[name][0]
    a = _input(name)
    x = sg.tensor(a, requires_grad=True)
    out = call(sg, x, norm)
    w = _weights(name, tuple(out.shape), out.dtype.is_complex)
    _loss(sg, out, w).backward()

    def loss(b):
        with sg.no_grad():
            return _loss(sg, call(sg, sg.tensor(b), norm), w).item()
    h = 1e-6
    want = np.zeros(a.shape, a.dtype)
    for i in np.ndindex(a.shape):
        for step in ((1.0, 1j) if a.dtype.kind == "c" else (1.0,)):
            up, down = a.copy(), a.copy()
            up[i] += h * step
            down[i] -= h * step
            want[i] += step * (loss(up) - loss(down)) / (2 * h)
    np.testing.assert_allclose(x.grad.numpy(), want, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("name", ["rfft odd", "irfft even pad dim0", "fft2 s", "hfftn s"])
def test_second_derivative_matches_central_differences_of_the_gradient(name):
    """The VJP rules build graphs: d/dx of <grad L(x), v> (create_graph) against central
    differences of the gradient itself."""
    call = BASE[name][0]
    a = _input(name)
    v = _weights(name + " v", a.shape, a.dtype.kind == "c")

    def grad_dot_v(b, create):
        x = sg.tensor(b, requires_grad=True)
        out = call(sg, x, "ortho")
        loss = (out.abs() ** 2).sum() if out.dtype.is_complex else (out ** 3).sum()
        (g,) = sg.autograd.grad(loss, x, create_graph=create)
        inner = (g.real * sg.tensor(v.real)).sum()
        if g.dtype.is_complex:
            inner = inner + (g.imag * sg.tensor(v.imag)).sum()
        return x, inner
    x, inner = grad_dot_v(a, True)
    (second,) = sg.autograd.grad(inner, x)
    h = 1e-6
    want = np.zeros(a.shape, a.dtype)
    for i in np.ndindex(a.shape):
        for step in ((1.0, 1j) if a.dtype.kind == "c" else (1.0,)):
            up, down = a.copy(), a.copy()
            up[i] += h * step
            down[i] -= h * step
            want[i] += step * (grad_dot_v(up, False)[1].item()
                               - grad_dot_v(down, False)[1].item()) / (2 * h)
    np.testing.assert_allclose(second.numpy(), want, rtol=1e-5, atol=1e-6)


# ---------------------------------------------------------------- dtypes, printing, helpers

SHOWN = {
    "integers": "torch.fft.fft(torch.arange(4))",
    "int32 rfft": "torch.fft.rfft(torch.tensor([1, 0, 0, 2], dtype=torch.int32))",
    "bool": "torch.fft.fft(torch.tensor([True, False, True]))",
    "irfft of integers": "torch.fft.irfft(torch.arange(3))",
    "hfft float64": "torch.fft.hfft(torch.ones(3, dtype=torch.float64))",
    "0-d": "torch.fft.fftn(torch.tensor(2.0))",
    "no dims": "torch.fft.fftn(torch.ones(2), dim=())",
    "ortho": "torch.fft.fft(torch.ones(4), norm='ortho')",
    "fft2 eye": "torch.fft.fft2(torch.eye(2, dtype=torch.float64))",
    "grad_fn": "torch.fft.rfft(torch.ones(4, requires_grad=True))",
    "ifft conj": "torch.fft.ifft(torch.tensor([1.0, 2.0, 0.0, 0.0]), norm='forward')",
    "keywords": "torch.fft.fft(input=torch.ones(3, 2), n=4, axis=0)",
    "fftshift": "torch.fft.fftshift(torch.arange(10).reshape(2, 5))",
    "ifftshift dim": "torch.fft.ifftshift(torch.arange(10).reshape(2, 5), dim=-1)",
    "fftshift tuple": "torch.fft.fftshift(torch.arange(6.).reshape(2, 3), dim=(0, 1))",
    "fftfreq": "torch.fft.fftfreq(5)",
    "rfftfreq grad": "torch.fft.rfftfreq(6, d=0.5, dtype=torch.float64, requires_grad=True)",
    "fftfreq zero d": "torch.fft.fftfreq(3, 0.0)",
    "rfftfreq empty": "[torch.fft.rfftfreq(0), torch.fft.rfftfreq(-1), torch.fft.rfftfreq(-3)]",
    "fftfreq half": "torch.fft.fftfreq(6, 0.3, dtype=torch.float16)",
}

ERRORS = {
    "norm": "torch.fft.fft(torch.ones(4), norm='bogus')",
    "norm case": "torch.fft.fft(torch.ones(4), norm='Backward')",
    "n zero": "torch.fft.fft(torch.ones(4), n=0)",
    "n negative": "torch.fft.rfft(torch.ones(4), n=-2)",
    "empty": "torch.fft.fft(torch.ones(0))",
    "dim": "torch.fft.ifft(torch.ones(2, 3), dim=2)",
    "0-d": "torch.fft.fft(torch.tensor(1.0))",
    "dim tuple": "torch.fft.fft(torch.ones(3, 4), dim=(0,))",
    "list": "torch.fft.fft([1.0, 2.0])",
    "rfft complex": "torch.fft.rfft(torch.ones(4, dtype=torch.complex64))",
    "ihfft complex": "torch.fft.ihfft(torch.ones(4, dtype=torch.complex128))",
    "rfftn complex": "torch.fft.rfftn(torch.ones(4, dtype=torch.complex64))",
    "ihfftn complex": "torch.fft.ihfftn(torch.ones(3, dtype=torch.complex64))",
    "irfft one point": "torch.fft.irfft(torch.ones(1, dtype=torch.complex64))",
    "half": "torch.fft.fft(torch.ones(4, dtype=torch.float16))",
    "unique dims": "torch.fft.fftn(torch.ones(3, 4), dim=(0, -2))",
    "s and dim": "torch.fft.fftn(torch.ones(3, 4), s=(2, 3), dim=(0,))",
    "s too long": "torch.fft.fftn(torch.ones(3, 4), s=(2, 3, 4))",
    "s zero": "torch.fft.rfft2(torch.ones(3, 4), s=(0, 3))",
    "fftn dim": "torch.fft.fftn(torch.ones(3, 4), dim=(0, 5))",
    "fftn 0-d dim": "torch.fft.fftn(torch.tensor(2.0), dim=0)",
    "rfftn no axis": "torch.fft.rfftn(torch.ones(3), dim=())",
    "irfftn no axis": "torch.fft.irfftn(torch.tensor(1j))",
    "hfftn no axis": "torch.fft.hfftn(torch.ones(3, 2), dim=())",
    "fft2 of a vector": "torch.fft.fft2(torch.ones(3))",
    "out real": "torch.fft.fft(torch.ones(4), out=torch.empty(4))",
    "out complex": "torch.fft.irfft(torch.ones(3, dtype=torch.complex64), "
                   "out=torch.empty(4, dtype=torch.complex64))",
    "out fft2": "torch.fft.fft2(torch.ones(2, 2), out=torch.empty(2, 2))",
    "out grad": "torch.fft.fft(torch.ones(4, dtype=torch.complex64, requires_grad=True), "
                "out=torch.empty(4, dtype=torch.complex64))",
    "fftfreq dtype": "torch.fft.fftfreq(4, dtype=torch.int64)",
    "fftfreq complex": "torch.fft.fftfreq(4, dtype=torch.complex64)",
    "fftfreq negative": "torch.fft.fftfreq(-1)",
    "fftshift dim": "torch.fft.fftshift(torch.ones(3), dim=3)",
}

FREQS = [(n, d, dtype) for n in (1, 2, 5, 8, 13, 100) for d in (1.0, 0.1, 0.3, 7, -0.5)
         for dtype in ("float32", "float64")]


def observe_shown(t, name: str) -> str:
    return repr(eval(SHOWN[name], {"torch": t}))   # noqa: S307  (the table's own text)


def observe_error(t, name: str) -> list:
    try:
        eval(ERRORS[name], {"torch": t})   # noqa: S307  (the table's own text)
    except Exception as e:   # noqa: BLE001 - the exception is what is observed
        return [type(e).__name__, str(e)]
    return ["no error", ""]


def observe_freqs(t) -> list:
    out = []
    for n, d, dtype in FREQS:
        dt = getattr(t, dtype)
        out.append(t.fft.fftfreq(n, d, dtype=dt).tolist() + t.fft.rfftfreq(n, d, dtype=dt)
                   .tolist())
    return out


@pytest.mark.parametrize("name", list(SHOWN))
def test_printed_as_torch(name):
    assert observe_shown(sg, name) == EXPECTED["shown:" + name]
    torch = pytest.importorskip("torch")
    assert observe_shown(sg, name) == observe_shown(torch, name)


@pytest.mark.parametrize("name", list(ERRORS))
def test_errors_are_torchs(name):
    got = observe_error(sg, name)
    assert got[0] != "no error"
    assert got == EXPECTED["error:" + name]
    torch = pytest.importorskip("torch")
    assert got == observe_error(torch, name)


def test_frequencies_are_torchs_bit_for_bit():
    got = observe_freqs(sg)
    assert got == EXPECTED["freqs"]
    torch = pytest.importorskip("torch")
    assert got == observe_freqs(torch)


def test_frequencies_are_numpys_to_rounding():
    for n, d, dtype in FREQS:
        got = sg.fft.fftfreq(n, d, dtype=getattr(sg, dtype)).numpy()
        np.testing.assert_allclose(got, np.fft.fftfreq(n, d), rtol=1e-6, atol=0)
        got = sg.fft.rfftfreq(n, d, dtype=getattr(sg, dtype)).numpy()
        np.testing.assert_allclose(got, np.fft.rfftfreq(n, d), rtol=1e-6, atol=0)


def test_shifts_are_numpys_and_undo_each_other():
    a = np.arange(30.0).reshape(5, 6)
    for dim, axes in ((None, None), (0, 0), ((-1,), (-1,)), ((1, 0), (1, 0))):
        shifted = sg.fft.fftshift(sg.tensor(a), dim=dim)
        np.testing.assert_array_equal(shifted.numpy(), np.fft.fftshift(a, axes=axes))
        np.testing.assert_array_equal(sg.fft.ifftshift(shifted, dim=dim).numpy(), a)


def test_out_writes_into_the_given_tensor():
    x = sg.tensor([1.0, 2.0, 3.0, 4.0])
    target = sg.empty(4, dtype=sg.complex128)
    assert sg.fft.fft(x, out=target) is target
    np.testing.assert_allclose(target.numpy(), np.fft.fft([1.0, 2.0, 3.0, 4.0]))
    real = sg.empty(1)
    sg.fft.irfft(sg.fft.rfft(x), out=real)
    np.testing.assert_allclose(real.numpy(), [1.0, 2.0, 3.0, 4.0], rtol=1e-6)


def test_inverse_transforms_undo_the_forward_ones():
    a = _input("fftn all")
    x = sg.tensor(a)
    for norm in NORMS:
        np.testing.assert_allclose(sg.fft.ifftn(sg.fft.fftn(x, norm=norm), norm=norm).numpy(),
                                   a, atol=1e-14)
        r = sg.tensor(a.real)
        back = sg.fft.irfftn(sg.fft.rfftn(r, norm=norm), s=r.shape, norm=norm)
        np.testing.assert_allclose(back.numpy(), a.real, atol=1e-14)


def test_a_compiled_fft_gives_the_eager_values_and_gradients():
    """(every transform compiled: tests/frontend/test_complex_compiled.py)"""
    def loss(x):
        return sg.fft.irfft(sg.fft.rfft(x) * sg.fft.rfft(x.flip(0)), n=7).pow(2).sum()
    x = np.random.default_rng(0).standard_normal(7)
    t = sg.tensor(x, requires_grad=True)
    eager = loss(t)
    eager.backward()
    value, grad = sg.compile(sg.value_and_grad(loss))(x)
    np.testing.assert_allclose(float(np.asarray(value)), eager.item(), rtol=1e-13)
    np.testing.assert_allclose(np.asarray(grad), t.grad.numpy(), rtol=1e-12, atol=1e-13)


def test_stored_expectations_cover_every_case():
    want = ({"case:" + c for c in CASES} | {"single:" + n + " None" for n in SINGLE}
            | {"shown:" + n for n in SHOWN} | {"error:" + n for n in ERRORS} | {"freqs"})
    assert set(EXPECTED) == want


if __name__ == "__main__" and sys.argv[1:] == ["--store"]:
    import torch
    table = {"case:" + c: observe(torch, c) for c in CASES}
    table.update({"single:" + n + " None": observe(torch, n + " None", True) for n in SINGLE})
    table.update({"shown:" + n: observe_shown(torch, n) for n in SHOWN})
    table.update({"error:" + n: observe_error(torch, n) for n in ERRORS})
    table["freqs"] = observe_freqs(torch)
    STORED.write_text(json.dumps(table, indent=0) + "\n")
