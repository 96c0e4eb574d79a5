"""torch.stft and torch.istft, eagerly: values, grad_fns and gradients (of the signal and of
the window) for centered and uncentered frames, padding modes, short windows, batches,
normalized and two-sided spectra, complex signals; the inverse (with ``length``), errors.

Oracles: a NumPy STFT written here from the definition (frames, window, ``numpy.fft``); the
round trip istft(stft(x)) == x; central differences (float64); torch 2.13 when installed, and
always ``stft_torch.json``, torch's output stored by ``python tests/frontend/test_stft.py
--store``.
"""

from __future__ import annotations

import json
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

import symgrad as sg

# name -> (signal shape, complex signal, window length or None, stft keywords)
CASES = {
    "hann hop 2": ((20,), False, 8, dict(n_fft=8, hop_length=2)),
    "no window": ((16,), False, None, dict(n_fft=8)),
    "short window": ((15,), False, 4, dict(n_fft=6, hop_length=2, win_length=4,
                                            normalized=True)),
    "not centered two-sided": ((19,), False, 8, dict(n_fft=8, hop_length=3, center=False,
                                                      onesided=False)),
    "constant pad odd": ((12,), False, 5, dict(n_fft=5, hop_length=2, pad_mode="constant")),
    "replicate batch": ((2, 10), False, 4, dict(n_fft=4, hop_length=1, pad_mode="replicate")),
    "complex signal": ((11,), True, 4, dict(n_fft=4, hop_length=2)),
}
STFT_ONLY = ("pad_mode",)


def _signal(name: str) -> np.ndarray:
    shape, is_complex, _, _ = CASES[name]
    rng = np.random.default_rng(sum(map(ord, name)))
    x = rng.standard_normal(shape)
    return x + 1j * rng.standard_normal(shape) if is_complex else x


def _window(name: str):
    n = CASES[name][2]
    return None if n is None else np.hanning(n + 2)[1:-1] + 0.05 * np.arange(n)


def _chain(fn) -> list:
    names = []
    while fn is not None and len(names) < 6:
        names.append(type(fn).__name__)
        fn = fn.next_functions[0][0] if fn.next_functions else None
    return names


def _pairs(a) -> list:
    a = np.asarray(a)
    return [np.real(a).ravel().tolist(), np.imag(a).ravel().tolist()]


def _real_loss(t, y):
    rng = np.random.default_rng(y.numel())
    return (y.real * t.tensor(rng.standard_normal(tuple(y.shape)))).sum() \
        + (y.imag * t.tensor(rng.standard_normal(tuple(y.shape)))).sum()


def observe(t, name: str) -> dict:
    """stft's value, grad_fn chain and gradients (signal, window); istft's value and its
    gradient with respect to the spectrum."""
    _, _, _, kw = CASES[name]
    x = t.tensor(_signal(name), requires_grad=True)
    w = _window(name)
    win = None if w is None else t.tensor(w, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        y = t.stft(x, window=win, return_complex=True, **kw)
        _real_loss(t, y).backward()
        spec = y.detach().requires_grad_()
        inverse = {k: v for k, v in kw.items() if k not in STFT_ONLY}
        back = t.istft(spec, window=None if win is None else win.detach(),
                       return_complex=x.dtype.is_complex, length=x.shape[-1] + 1, **inverse)
    if back.dtype.is_complex:
        _real_loss(t, back).backward()
    else:
        (back * t.tensor(np.linspace(-1, 1, back.shape[-1]))).sum().backward()
    return {"stft": _pairs(y.detach().numpy()), "shape": list(y.shape), "chain": _chain(y.grad_fn),
            "grad": _pairs(x.grad.numpy()),
            "window grad": [] if win is None else _pairs(win.grad.numpy()),
            "istft": _pairs(back.detach().numpy()), "istft chain": _chain(back.grad_fn),
            "istft grad": _pairs(spec.grad.numpy())}


def numpy_stft(x, n_fft, window, hop_length=None, win_length=None, center=True,
               pad_mode="reflect", normalized=False, onesided=None):
    """The definition: X[b, f, t] = sum_k w[k] x[b, t hop + k] exp(-2 pi i f k / n_fft)."""
    hop = n_fft // 4 if hop_length is None else hop_length
    win = n_fft if win_length is None else win_length
    w = np.ones(win) if window is None else window
    left = (n_fft - win) // 2
    w = np.concatenate([np.zeros(left), w, np.zeros(n_fft - win - left)])
    x = np.atleast_2d(x)
    if center:
        mode = {"reflect": "reflect", "constant": "constant", "replicate": "edge"}[pad_mode]
        x = np.pad(x, [(0, 0), (n_fft // 2, n_fft // 2)], mode=mode)
    n_frames = 1 + (x.shape[1] - n_fft) // hop
    frames = np.stack([x[:, t * hop:t * hop + n_fft] * w for t in range(n_frames)], axis=1)
    spec = np.fft.fft(frames, axis=-1) / (np.sqrt(n_fft) if normalized else 1)
    if (np.isrealobj(x) if onesided is None else onesided):
        spec = spec[..., :n_fft // 2 + 1]
    return np.swapaxes(spec, 1, 2)


STORED = Path(__file__).with_name("stft_torch.json")
EXPECTED = json.loads(STORED.read_text()) if STORED.exists() else {}


def _same(got: dict, want: dict) -> None:
    for key, w in want.items():
        if key in ("shape", "chain", "istft chain"):
            assert got[key] == w, key
            continue
        for g, v in zip(got[key], w):
            np.testing.assert_allclose(g, v, rtol=1e-11, atol=1e-11, err_msg=key)


@pytest.mark.parametrize("name", list(CASES))
def test_matches_stored_torch_output(name):
    _same(observe(sg, name), EXPECTED["case:" + name])


@pytest.mark.parametrize("name", list(CASES))
def test_matches_torch(name):
    torch = pytest.importorskip("torch")
    _same(observe(sg, name), observe(torch, name))


@pytest.mark.parametrize("name", list(CASES))
def test_values_match_the_definition_and_istft_inverts(name):
    _, _, _, kw = CASES[name]
    x, w = _signal(name), _window(name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        y = sg.stft(sg.tensor(x), window=None if w is None else sg.tensor(w),
                    return_complex=True, **kw)
        np.testing.assert_allclose(y.numpy(), numpy_stft(x, window=w, **kw).reshape(y.shape),
                                   atol=1e-12)
        inverse = {k: v for k, v in kw.items() if k not in STFT_ONLY}
        back = sg.istft(y, window=None if w is None else sg.tensor(w), length=x.shape[-1],
                        return_complex=np.iscomplexobj(x), **inverse)
    covered = x.shape[-1] if kw.get("center", True) else (
        kw["n_fft"] + kw["hop_length"] * ((x.shape[-1] - kw["n_fft"]) // kw["hop_length"]))
    np.testing.assert_allclose(back.numpy()[..., :covered], x[..., :covered], atol=1e-12)


@pytest.mark.parametrize("name", ["hann hop 2", "short window", "complex signal"])
def test_gradients_match_central_differences(name):
    _, _, _, kw = CASES[name]
    x0, w0 = _signal(name), _window(name)
    x, w = sg.tensor(x0, requires_grad=True), sg.tensor(w0, requires_grad=True)
    _real_loss(sg, sg.stft(x, window=w, return_complex=True, **kw)).backward()

    def loss(a, b):
        with sg.no_grad():
            return _real_loss(sg, sg.stft(sg.tensor(a), window=sg.tensor(b), return_complex=True,
                                          **kw)).item()
    h = 1e-6
    for k, (got, base) in enumerate(((x.grad, x0), (w.grad, w0))):
        want = np.zeros(base.shape, base.dtype)
        for i in np.ndindex(base.shape):
            for step in ((1.0, 1j) if base.dtype.kind == "c" else (1.0,)):
                up, down = [x0.copy(), w0.copy()], [x0.copy(), w0.copy()]
                up[k][i] += h * step
                down[k][i] -= h * step
                want[i] += step * (loss(*up) - loss(*down)) / (2 * h)
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-6, atol=1e-7)


ERRORS = {
    "no return_complex": "torch.stft(torch.ones(16), 8, window=torch.ones(8))",
    "n_fft": "torch.stft(torch.ones(16), 20, center=False, return_complex=True)",
    "integers": "torch.stft(torch.arange(16), 8, return_complex=True)",
    "hop": "torch.stft(torch.ones(16), 8, hop_length=0, return_complex=True)",
    "win_length": "torch.stft(torch.ones(16), 8, win_length=9, return_complex=True)",
    "window size": "torch.stft(torch.ones(16), 8, window=torch.ones(5), return_complex=True)",
    "3-D": "torch.stft(torch.ones(1, 2, 16), 4, return_complex=True)",
    "onesided complex": "torch.stft(torch.ones(16, dtype=torch.complex64), 8, onesided=True)",
    "align": "torch.stft(torch.ones(16), 8, return_complex=True, align_to_window=False)",
    "istft real": "torch.istft(torch.ones(5, 3), 8)",
    "istft n_fft": "torch.istft(torch.ones(5, 3, dtype=torch.complex64), 6)",
    "istft two-sided": "torch.istft(torch.ones(5, 3, dtype=torch.complex64), 8, onesided=False)",
    "istft hop": "torch.istft(torch.ones(5, 3, dtype=torch.complex64), 8, hop_length=9)",
    "istft window": "torch.istft(torch.ones(5, 3, dtype=torch.complex64), 8, "
                    "window=torch.ones(3))",
    "istft overlap": "torch.istft(torch.ones(5, 3, dtype=torch.complex64), 8, "
                     "window=torch.zeros(8))",
    "istft empty": "torch.istft(torch.ones(5, 0, dtype=torch.complex64), 8)",
    "istft 5-D": "torch.istft(torch.ones(1, 1, 5, 3, dtype=torch.complex64), 8)",
}


def observe_error(t, name: str) -> list:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            eval(ERRORS[name], {"torch": t})   # noqa: S307  (the table's own text)
    except Exception as e:   # noqa: BLE001 - the exception is what is observed
        return [type(e).__name__, str(e)]
    return ["no error", ""]


@pytest.mark.parametrize("name", list(ERRORS))
def test_errors_are_torchs(name):
    got = observe_error(sg, name)
    assert got[0] != "no error" and got == EXPECTED["error:" + name]
    torch = pytest.importorskip("torch")
    assert got == observe_error(torch, name)


def test_real_pairs_and_the_deprecation_warning(monkeypatch):
    from symgrad.frontend.functions import stft as module
    monkeypatch.setattr(module, "_WARNED", set())   # warned once per process, as torch's
    x = sg.tensor(_signal("hann hop 2"))
    with pytest.warns(UserWarning, match="return_complex=False is deprecated"):
        pairs = sg.stft(x, 8, window=sg.ones(8), return_complex=False)
    np.testing.assert_array_equal(pairs.numpy(), sg.view_as_real(
        sg.stft(x, 8, window=sg.ones(8), return_complex=True)).numpy())


def test_stored_expectations_cover_every_case():
    assert set(EXPECTED) == {"case:" + n for n in CASES} | {"error:" + n for n in ERRORS}


if __name__ == "__main__" and sys.argv[1:] == ["--store"]:
    import torch
    table = {"case:" + n: observe(torch, n) for n in CASES}
    table.update({"error:" + n: observe_error(torch, n) for n in ERRORS})
    STORED.write_text(json.dumps(table, indent=0) + "\n")
