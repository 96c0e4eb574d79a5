"""Optimizers on complex parameters: torch steps a complex parameter as a pair of reals
(``view_as_real`` of the parameter, its gradient and its state, after the weight decay that
some optimizers apply in complex arithmetic), so its real and imaginary parts get their own
adaptive steps; LBFGS flattens complex parameters as real pairs.

Every optimizer of symgrad, with its options, over 10 steps on complex64 and complex128
parameters (and one real parameter beside a complex one), compared bit for bit with torch:
live when torch is installed, and with torch's results stored in
``complex_params_expected.json`` (written by ``python tests/optim/test_complex_params.py
--store``) without it. The gradients are ``g_k + p / 2`` with ``g_k`` a fixed table of Python
numbers, so each library computes them with the same single rounding. As elsewhere,
torch's square roots are not always correctly rounded (NumPy's are), and its dot products
add in another order: the live comparison substitutes torch's, the stored one allows a few
ulps. State tensors stay complex, in torch's state_dict layout.
"""

from __future__ import annotations

import json
import math
import pathlib
import sys

import numpy as np
import pytest

import symgrad as sg

STORED = pathlib.Path(__file__).with_name("complex_params_expected.json")
STEPS = 10
CONFIGS = {
    "sgd": ("SGD", {"lr": 0.1}),
    "sgd_momentum": ("SGD", {"lr": 0.1, "momentum": 0.9, "dampening": 0.2,
                             "weight_decay": 0.1, "maximize": True}),
    "sgd_nesterov": ("SGD", {"lr": 0.1, "momentum": 0.8, "nesterov": True,
                             "weight_decay": 0.3}),
    "adam": ("Adam", {"lr": 0.1}),
    "adam_all": ("Adam", {"lr": 0.1, "betas": (0.8, 0.9), "eps": 1e-6, "weight_decay": 0.1,
                          "amsgrad": True, "maximize": True}),
    "adamw": ("AdamW", {"lr": 0.1}),
    "adamw_amsgrad": ("AdamW", {"lr": 0.1, "weight_decay": 0.3, "amsgrad": True}),
    "rmsprop": ("RMSprop", {"lr": 0.1}),
    "rmsprop_all": ("RMSprop", {"lr": 0.1, "alpha": 0.9, "eps": 1e-6, "weight_decay": 0.1,
                                "momentum": 0.9, "centered": True, "maximize": True}),
    "adagrad": ("Adagrad", {"lr": 0.1}),
    "adagrad_all": ("Adagrad", {"lr": 0.1, "lr_decay": 0.05, "weight_decay": 0.1,
                                "initial_accumulator_value": 0.5, "eps": 1e-6,
                                "maximize": True}),
    "adadelta": ("Adadelta", {}),
    "adadelta_all": ("Adadelta", {"lr": 0.5, "rho": 0.8, "eps": 1e-5, "weight_decay": 0.1,
                                  "maximize": True}),
    "adamax": ("Adamax", {"lr": 0.1}),
    "adamax_all": ("Adamax", {"lr": 0.1, "betas": (0.8, 0.99), "eps": 1e-6,
                              "weight_decay": 0.1, "maximize": True}),
    "nadam": ("NAdam", {"lr": 0.1}),
    "nadam_all": ("NAdam", {"lr": 0.1, "betas": (0.8, 0.99), "weight_decay": 0.1,
                            "momentum_decay": 0.01, "maximize": True}),
    "nadam_decoupled": ("NAdam", {"lr": 0.1, "weight_decay": 0.1,
                                  "decoupled_weight_decay": True}),
    "radam": ("RAdam", {"lr": 0.1}),
    "radam_all": ("RAdam", {"lr": 0.1, "betas": (0.8, 0.9), "weight_decay": 0.1,
                            "maximize": True}),
    "radam_decoupled": ("RAdam", {"lr": 0.1, "weight_decay": 0.1,
                                  "decoupled_weight_decay": True}),
}
DTYPES = ["complex64", "complex128"]
LBFGS_CASES = ["none", "strong_wolfe"]


def _numbers(shape: tuple, k: int, salt: int) -> list:
    """A nested list of complex Python numbers, fixed by ``k`` and ``salt``."""
    count = math.prod(shape)
    flat = [complex(math.sin(3.1 * k + 1.7 * i + salt), math.cos(2.3 * k - 0.9 * i + salt))
            for i in range(count)]
    return np.array(flat).reshape(shape).tolist()


def _pairs(t) -> list:
    """A tensor's values as hex strings of its real numbers (real and imaginary parts)."""
    arr = np.asarray(t.detach().numpy() if hasattr(t, "detach") else t)
    if arr.dtype.kind == "c":
        arr = np.stack([arr.real, arr.imag], -1)
    return [float(x).hex() for x in arr.reshape(-1)]


def run_optimizer(m, config: str, dtype: str) -> dict:
    """10 steps of a config on a complex (2, 2) and a (3,) parameter, and a real (2,) one
    beside them; the parameters and state tensors after, as hex strings."""
    cls, options = CONFIGS[config]
    cdtype = getattr(m, dtype)
    rdtype = m.float32 if dtype == "complex64" else m.float64
    shapes = [(2, 2), (3,)]
    params = [m.tensor(_numbers(s, 0, j), dtype=cdtype, requires_grad=True)
              for j, s in enumerate(shapes)]
    params.append(m.tensor([0.4, -1.3], dtype=rdtype, requires_grad=True))
    opt = getattr(m.optim, cls)(params, **options)
    for k in range(1, STEPS + 1):
        for j, p in enumerate(params[:2]):
            p.grad = m.tensor(_numbers(shapes[j], k, 5 + j), dtype=cdtype) + p.detach() * 0.5
        params[2].grad = m.tensor([math.sin(k), math.cos(k)], dtype=rdtype) \
            + params[2].detach() * 0.5
        opt.step()
    state = opt.state_dict()["state"]
    out = {"params": [_pairs(p) for p in params]}
    for index, entries in sorted(state.items()):
        for key, value in entries.items():
            if hasattr(value, "dtype"):
                out[f"{index}.{key}"] = [str(value.dtype).replace("torch.", "")] + _pairs(value)
    return out


def run_lbfgs(m, line_search: str, dtype: str) -> dict:
    """One LBFGS step (max_iter=3) on a complex parameter and a real one; the values after
    and the closure's first loss."""
    cdtype = getattr(m, dtype)
    rdtype = m.float32 if dtype == "complex64" else m.float64
    p = m.tensor([1 + 1j, 2 - 1j], dtype=cdtype, requires_grad=True)
    q = m.tensor([0.5, -0.25], dtype=rdtype, requires_grad=True)
    target = m.tensor([0.5 + 0.2j, -1 + 3j], dtype=cdtype)
    opt = m.optim.LBFGS([p, q], max_iter=3,
                        line_search_fn=None if line_search == "none" else line_search)

    def closure():
        opt.zero_grad()
        d = p - target          # not |d|**2: symgrad's complex64 abs is not torch's
        loss = (d.real ** 2 + d.imag ** 2).sum() + (p.real ** 4).sum() \
            + (p.imag * q).sum() + (q ** 2).sum()
        loss.backward()
        return loss

    loss = opt.step(closure)
    return {"params": [_pairs(p), _pairs(q)], "loss": float(loss.detach()).hex()}


def _all(m) -> dict:
    out = {f"{c}-{d}": run_optimizer(m, c, d) for c in CONFIGS for d in DTYPES}
    out.update({f"lbfgs_{c}-{d}": run_lbfgs(m, c, d) for c in LBFGS_CASES for d in DTYPES})
    return out


def _run(m, case: str) -> dict:
    name, dtype = case.rsplit("-", 1)
    if name.startswith("lbfgs_"):
        return run_lbfgs(m, name[len("lbfgs_"):], dtype)
    return run_optimizer(m, name, dtype)


CASES = [f"{c}-{d}" for c in CONFIGS for d in DTYPES] \
    + [f"lbfgs_{c}-{d}" for c in LBFGS_CASES for d in DTYPES]


class _TorchSqrt:
    """NumPy, but with torch's square root (for ``adam.py``, which calls ``np.sqrt``)."""

    def __init__(self, torch) -> None:
        self._torch = torch

    def __getattr__(self, name: str):
        return getattr(np, name)

    def sqrt(self, x):
        return self._torch.from_numpy(np.ascontiguousarray(x)).sqrt().numpy()


def _use_torchs_roundings(torch, monkeypatch) -> None:
    """torch's square roots (not always correctly rounded), dot products and sums in
    place of NumPy's: what is left to compare is symgrad's own arithmetic."""
    from symgrad import optim
    as_t = lambda a: torch.from_numpy(np.ascontiguousarray(a))
    monkeypatch.setattr(optim.kernels, "sqrt", lambda x: as_t(x).sqrt().numpy())
    monkeypatch.setattr(optim.adam, "np", _TorchSqrt(torch))
    monkeypatch.setattr(optim.kernels, "dot", lambda a, b: as_t(a).dot(as_t(b)).numpy()[()])
    monkeypatch.setattr(optim.kernels, "abs_sum", lambda a: as_t(a).abs().sum().numpy()[()])


def _close(mine, theirs, tol: float) -> bool:
    """Equal strings (dtypes) and hex floats within ``tol`` of each other, recursively."""
    if isinstance(mine, dict):
        return mine.keys() == theirs.keys() and all(_close(mine[k], theirs[k], tol)
                                                      for k in mine)
    if isinstance(mine, list):
        return len(mine) == len(theirs) and all(_close(a, b, tol) for a, b in zip(mine, theirs))
    if not mine.startswith(("0x", "-0x")):
        return mine == theirs
    return abs(float.fromhex(mine) - float.fromhex(theirs)) <= tol


@pytest.fixture(scope="module")
def stored() -> dict:
    return json.loads(STORED.read_text())


@pytest.mark.parametrize("case", CASES)
def test_matches_stored_torch(case, stored):
    """torch's results, to the few ulps NumPy's correctly rounded square roots (and BLAS
    dot products) leave; state dtypes and layout exactly."""
    tol = 2e-5 if case.endswith("complex64") else 1e-13
    assert _close(_run(sg, case), stored[case], tol)


@pytest.mark.parametrize("case", CASES)
def test_matches_live_torch_bit_for_bit(case, monkeypatch):
    torch = pytest.importorskip("torch")
    _use_torchs_roundings(torch, monkeypatch)
    assert _run(sg, case) == _run(torch, case)


def test_imaginary_part_moves():
    """torch's Adam: [1+1j] with gradient 3+1j moves both parts by lr per step (each
    part is normalized on its own); complex arithmetic would keep the step real."""
    p = sg.tensor([1 + 1j], requires_grad=True)
    opt = sg.optim.Adam([p], lr=0.1)
    for _ in range(2):
        opt.zero_grad()
        (p * sg.tensor([3 - 1j])).real.sum().backward()
        opt.step()
    assert p.detach().numpy().tolist() == [pytest.approx(0.8 + 0.8j, abs=1e-6)]
    assert opt.state[p]["exp_avg"].dtype == sg.complex64


def test_real_views_write_through():
    """The kernels' real view of a complex array shares its memory, and a write of real
    pairs into a complex tensor stores them as its real and imaginary parts."""
    from symgrad.optim import kernels as K
    t = sg.tensor([[1 + 2j, 3 - 4j]], dtype=sg.complex128)
    view = K.RealView(t)
    assert view._value.tolist() == [[[1.0, 2.0], [3.0, -4.0]]]
    K.write(view, np.array([[[5.0, 6.0], [7.0, 8.0]]]))
    assert t.numpy().tolist() == [[5 + 6j, 7 + 8j]]
    assert K.real(np.array([1.5])).tolist() == [1.5]


if __name__ == "__main__" and "--store" in sys.argv:
    import torch as _torch
    cases = _all(_torch)
    STORED.write_text("{\n" + ",\n".join(f"{json.dumps(k)}: {json.dumps(v, sort_keys=True)}"
                                          for k, v in cases.items()) + "\n}\n")
