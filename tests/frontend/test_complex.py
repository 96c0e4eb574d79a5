"""Complex tensors, eagerly: creation, promotion, printing, the complex functions (complex,
polar, real, imag, conj, angle, abs, sgn, view_as_real/complex), analytic math on them, and
autograd with torch's convention (the gradient of a real loss L with respect to z = x + iy is
dL/dx + i dL/dy).

Gradients are checked against central differences in the real and imaginary parts (float64),
an oracle independent of the rules; values, gradients and printed text against torch 2.13 when
it is installed, else against ``complex_torch.json`` (``python tests/frontend/test_complex.py
--store`` rewrites it from torch); compiled code against the eager values, forward mode
against the derivative written out.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

import symgrad as sg

Z = [1 + 2j, -0.5 + 0.3j, 0.7 - 1.1j]
W = [0.3 - 0.2j, 1.5 + 0.5j, -1 + 1j]
X = [0.4, -1.2, 2.0]

# Real losses of complex (and real) inputs: (name, function, inputs).
LOSSES = [
    ("abs", lambda t, z: z.abs().sum(), (Z,)),
    ("mul", lambda t, z, w: (z * w).abs().sum(), (Z, W)),
    ("exp real", lambda t, z: z.exp().real.sum(), (Z,)),
    ("log imag", lambda t, z: z.log().imag.sum(), (Z,)),
    ("sin cos", lambda t, z: (z.sin() * z.cos()).abs().pow(2).sum(), (Z,)),
    ("div angle", lambda t, z, w: (z / w).angle().sum(), (Z, W)),
    ("sqrt", lambda t, z: z.sqrt().real.sum() + z.sqrt().imag.sum(), (Z,)),
    ("conj", lambda t, z, w: (z.conj() * w).real.sum(), (Z, W)),
    ("pow int", lambda t, z: (z ** 3).abs().sum(), (Z,)),
    ("pow float", lambda t, z: (z ** 2.5).real.sum(), (Z,)),
    ("tanh", lambda t, z: z.tanh().abs().sum(), (Z,)),
    ("sigmoid", lambda t, z: t.sigmoid(z).abs().sum(), (Z,)),
    ("complex", lambda t, a, b: t.complex(a, b).exp().abs().sum(), (X, X[::-1])),
    ("polar", lambda t, a, b: (t.polar(a, b) * t.polar(b, a)).real.sum(),
     ([0.4, 1.2, 2.0], [2.0, 1.3, 0.5])),
    ("polar negative abs", lambda t, a, b: t.polar(a, b).real.sum(), (X, X[::-1])),
    ("mixed", lambda t, z, x: (z * x).abs().sum() + (x / z).real.sum(), (Z, X)),
    ("matmul", lambda t, z, w: (z.reshape(3, 1) @ w.reshape(1, 3)).abs().sum(), (Z, W)),
    ("outer matmul", lambda t, z, w: (t.outer(z, w) @ z).real.sum(), (Z, W)),
    ("sum mean", lambda t, z: (z.sum() * z.mean()).real, (Z,)),
    ("view_as_real", lambda t, z: t.view_as_real(z).pow(2).sum(), (Z,)),
    ("view_as_complex", lambda t, x: t.view_as_complex(t.stack([x, x * 2], -1)).abs().sum(),
     (X,)),
    ("sgn", lambda t, z: (z.sgn() * z).real.sum(), (Z,)),
    ("reciprocal", lambda t, z: (1 / z).imag.sum(), (Z,)),
    ("scalars", lambda t, z: (z * (2 - 3j)).real.sum() + (z + 1j).abs().sum(), (Z,)),
    ("where", lambda t, z: t.where(z.real > 0, z, z * 2).abs().sum(), (Z,)),
    ("index cat", lambda t, z, w: t.cat([z[1:], w[[0, 0]]]).abs().sum(), (Z, W)),
    ("dot", lambda t, z, w: t.dot(z, w).real, (Z, W)),
    ("prod", lambda t, z: z.prod().real, (Z,)),
    ("expm1 log1p", lambda t, z: z.expm1().abs().sum() + z.log1p().abs().sum(), (Z,)),
]


def _leaves(t, values):
    return [t.tensor(np.array(v, dtype=np.complex128 if isinstance(v[0], complex)
                              else np.float64), requires_grad=True) for v in values]


def _pairs(a: np.ndarray) -> list:
    return [np.real(a).tolist(), np.imag(a).tolist()]


def observe_loss(t, name: str):
    fn, values = next((f, v) for n, f, v in LOSSES if n == name)
    xs = _leaves(t, values)
    loss = fn(t, *xs)
    loss.backward()
    grads = [_pairs(x.grad.resolve_conj().numpy()) for x in xs]
    return {"loss": float(loss.item()), "grads": grads, "dtype": str(loss.dtype)}


SHOWN = {
    "vector": "torch.tensor([1+2j, 3-1j])",
    "decimals": "torch.tensor([1.5+2.25j, 3-1j])",
    "scalar": "torch.tensor(1+2j)",
    "complex128": "torch.tensor([1+2j], dtype=torch.complex128)",
    "scientific": "torch.tensor([1e-5+1e5j, -2.5j])",
    "matrix": "torch.tensor([[1+2j, 3-10.5j], [0j, -1-1j]])",
    "nan inf": "torch.tensor([float('nan')+1j, 2+float('inf')*1j])",
    "wrapped": "torch.complex(torch.arange(30.).reshape(2, 15), -torch.arange(30.).reshape(2, 15))",
    "grad": "torch.tensor([1+2j], requires_grad=True)",
    "empty": "torch.tensor([]).to(torch.complex64)",
    "promote": "[str((torch.ones(2) * 1j).dtype), str((torch.ones(2, dtype=torch.float64) * "
               "torch.ones(2, dtype=torch.complex64)).dtype), str((torch.ones(2, dtype="
               "torch.int64) + 2j).dtype), str(torch.tensor(1j).dtype), "
               "str((torch.ones(2, dtype=torch.complex64) * torch.tensor(2.0, dtype="
               "torch.float64)).dtype)]",
    "functions": "[torch.tensor([3+4j]).abs(), torch.tensor([1j]).angle(), "
                 "torch.real(torch.tensor([1+2j])), torch.imag(torch.tensor([1+2j])), "
                 "torch.tensor([1+2j]).conj(), torch.tensor([3+4j]).sgn(), "
                 "torch.view_as_real(torch.tensor([1+2j, 3j])), torch.polar(torch.tensor([2.]),"
                 " torch.tensor([0.5])), torch.is_complex(torch.tensor([1j])), "
                 "torch.tensor([1+1j]).item(), torch.isreal(torch.tensor([1+0j, 1j]))]",
}


def observe_shown(t, name: str) -> str:
    t.manual_seed(0)
    return repr(eval(SHOWN[name], {"torch": t}))   # noqa: S307  (the table's own text)


STORED = Path(__file__).with_name("complex_torch.json")
EXPECTED = json.loads(STORED.read_text()) if STORED.exists() else {}


def _torch():
    try:
        import torch
        return torch
    except ImportError:
        return None


@pytest.mark.parametrize("name", [n for n, _, _ in LOSSES])
def test_gradient_matches_torch(name):
    torch = _torch()
    want = observe_loss(torch, name) if torch else EXPECTED["loss:" + name]
    got = observe_loss(sg, name)
    assert got["dtype"] == want["dtype"]
    assert np.isclose(got["loss"], want["loss"], rtol=1e-10, atol=1e-12)
    for g, w in zip(got["grads"], want["grads"]):
        np.testing.assert_allclose(np.array(g), np.array(w), rtol=1e-9, atol=1e-12)


# torch's polar_backward takes abs >= 0: its gradient to a negative abs has the other sign
# than the derivative (checked against torch only).
NOT_THE_DERIVATIVE = {"polar negative abs"}


@pytest.mark.parametrize("name", [n for n, _, _ in LOSSES if n not in NOT_THE_DERIVATIVE])
def test_gradient_matches_central_differences(name):
    """dL/dx + i dL/dy from central differences in each real and imaginary part."""
    fn, values = next((f, v) for n, f, v in LOSSES if n == name)
    xs = _leaves(sg, values)
    fn(sg, *xs).backward()
    base = [np.array(v, dtype=np.complex128 if isinstance(v[0], complex) else np.float64)
            for v in values]

    def loss(arrays):
        with sg.no_grad():
            return fn(sg, *[sg.tensor(a) for a in arrays]).item()
    h = 1e-6
    for k, a in enumerate(base):
        want = np.zeros(a.shape, a.dtype)
        for i in range(a.size):
            for step in ((1.0, 1j) if a.dtype.kind == "c" else (1.0,)):
                up = [b.copy() for b in base]
                down = [b.copy() for b in base]
                up[k][i] += h * step
                down[k][i] -= h * step
                want[i] += step * (loss(up) - loss(down)) / (2 * h)
        np.testing.assert_allclose(xs[k].grad.numpy(), want, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", list(SHOWN))
def test_printed_as_torch(name):
    torch = _torch()
    want = observe_shown(torch, name) if torch else EXPECTED["shown:" + name]
    assert observe_shown(sg, name) == want


def test_errors_are_torchs():
    z = sg.tensor([1 + 2j], requires_grad=True)
    with pytest.raises(RuntimeError, match="only for real scalar outputs but got "
                                           "torch.complex64"):
        z.sum().backward()
    with pytest.raises(NotImplementedError, match="\"lt_cpu\" not implemented for "
                                                  "'ComplexFloat'"):
        z < z
    with pytest.raises(RuntimeError, match="imag is not implemented for tensors with "
                                           "non-complex dtypes"):
        _ = sg.ones(2).imag
    with pytest.raises(RuntimeError, match="Expected object of scalar type Float but got "
                                           "scalar type Double for second argument"):
        sg.complex(sg.ones(2), sg.ones(2, dtype=sg.float64))


def test_setting_parts_updates_in_place():
    z = sg.tensor([1 + 2j, 3 - 1j])
    z.real = sg.tensor([5.0, 6.0])
    z.imag = 0.5
    assert z.tolist() == [5 + 0.5j, 6 + 0.5j]


def test_parts_are_views_as_torchs():
    """``z.real``, ``z.imag`` and ``view_as_real(z)`` show ``z``'s storage (torch's strides
    and offsets in real units): writing them writes ``z``, and updates of ``z`` show in them."""
    z = sg.tensor([1 + 2j, 3 + 4j, 5 - 1j])
    re, im = z.real, z.imag
    assert (re.stride(), im.stride(), im.storage_offset(), z[1:].imag.storage_offset()) == \
        ((2,), (2,), 1, 3)
    re[0] = 10.0
    im.mul_(2)
    assert z.tolist() == [10 + 4j, 3 + 8j, 5 - 2j]
    z.add_(1)
    assert re.tolist() == [11, 4, 6] and im.tolist() == [4, 8, -2]
    pairs = sg.view_as_real(z)
    assert pairs.stride() == (2, 1) and pairs.shape == (3, 2)
    pairs[1, 1] = -7.0
    assert z.tolist() == [11 + 4j, 4 - 7j, 6 - 2j]
    leaf = sg.tensor([1 + 1j, 2 + 0j], requires_grad=True)
    with pytest.raises(RuntimeError, match="view of a leaf Variable"):
        leaf.real.zero_()
    w = leaf * 2
    w.real.zero_()                      # w = 2i * imag(leaf): |w| = 2 |imag(leaf)|
    w.abs().sum().backward()            # d|w|/d(leaf) in torch's convention: 2i sign(imag)
    assert w.tolist() == [2j, 0j] and leaf.grad.tolist() == [2j, 0j]


@pytest.mark.parametrize("precision", ["complex128", "complex64"])
@pytest.mark.parametrize("name", [n for n, _, _ in LOSSES])
def test_compiled_value_and_gradient_match_eager(name, precision):
    """The C of complex programs (``codegen/c/complex_ops.py``): the loss and the gradient
    of ``@symgrad.compile`` against the eager ones (complex64: float32 parts)."""
    fn, values = next((f, v) for n, f, v in LOSSES if n == name)
    real = np.float64 if precision == "complex128" else np.float32
    arrays = [np.array(v, dtype=precision if isinstance(v[0], complex) else real)
              for v in values]
    xs = [sg.tensor(a, requires_grad=True) for a in arrays]
    loss = fn(sg, *xs)
    loss.backward()
    args = [sg.tensor(a) for a in arrays]
    compiled = float(np.asarray(sg.compile(lambda *a: fn(sg, *a))(*args)))
    grads = sg.compile(sg.grad(lambda *a: fn(sg, *a), argnums=tuple(range(len(xs)))))(*args)
    grads = grads if isinstance(grads, tuple) else (grads,)
    rtol, atol = (1e-10, 1e-12) if precision == "complex128" else (1e-4, 1e-5)
    assert np.isclose(compiled, loss.item(), rtol=rtol, atol=atol)
    for got, x in zip(grads, xs):
        np.testing.assert_allclose(np.asarray(got), x.grad.numpy(), rtol=rtol, atol=atol)


def test_compiled_complex_sums_accumulate_in_double():
    """A complex64 sum accumulates in complex128, pairwise (as float32 sums in double)."""
    rng = np.random.default_rng(0)
    v = (rng.standard_normal(100_000) + 1j * rng.standard_normal(100_000)).astype(np.complex64)
    got = complex(np.asarray(sg.compile(lambda a: a.sum())(sg.tensor(v))))
    exact = v.astype(np.complex128).sum()
    assert abs(got - exact) <= 2 * np.finfo(np.float32).eps * abs(exact)


def test_forward_mode_and_vmap_on_complex_values():
    z = np.array([1 + 2j, -0.5 + 0.3j])
    t = np.array([0.3 - 0.1j, 1 + 1j])
    _, tangent = sg.jvp(lambda a: a.exp() * a.conj(), (sg.tensor(z),), (sg.tensor(t),))
    # d/dt of exp(z) conj(z) along t: exp(z) t conj(z) + exp(z) conj(t)
    want = np.exp(z) * t * np.conj(z) + np.exp(z) * np.conj(t)
    np.testing.assert_allclose(np.asarray(tangent), want, rtol=1e-12)
    batched = sg.vmap(lambda a: (a * a.conj()).real.sum())(sg.tensor(np.stack([z, t])))
    np.testing.assert_allclose(np.asarray(batched), (np.abs(np.stack([z, t])) ** 2).sum(1))


def test_stored_expectations_cover_every_case():
    want = {"loss:" + n for n, _, _ in LOSSES} | {"shown:" + n for n in SHOWN}
    assert set(EXPECTED) == want


if __name__ == "__main__" and sys.argv[1:] == ["--store"]:
    import torch
    table = {"loss:" + n: observe_loss(torch, n) for n, _, _ in LOSSES}
    table.update({"shown:" + n: observe_shown(torch, n) for n in SHOWN})
    STORED.write_text(json.dumps(table, indent=0) + "\n")


@pytest.mark.parametrize("compiled", [False, True])
def test_a_write_through_view_as_real_keeps_the_gradient(compiled):
    # view_as_real's backward reads nothing saved (torch's: the pairs' cotangent as complex
    # numbers), so writing into the view is fine. z[0] becomes x0 + 3 x0 i; the loss is
    # sum |z|^2: d/dx = 20 x0, 2 x1, 2 x2, 0 (overwritten), 2 x4, 2 x5.
    x0 = np.array([0.3, -1.2, 0.7, 2.0, 0.1, 0.5])

    def grad_of(x):
        x = x.requires_grad_()
        z = sg.complex(x[:3], x[3:]) * 1.0
        sg.view_as_real(z)[0, 1] = x[0] * 3
        (z * z.conj()).real.sum().backward()
        return x.grad

    got = sg.compile(grad_of)(x0) if compiled else grad_of(sg.tensor(x0)).numpy()
    want = 2 * x0 * np.array([10.0, 1, 1, 0, 1, 1])
    np.testing.assert_allclose(got, want, rtol=1e-14, atol=1e-15)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_logsumexp_of_complex_values_compiles_and_matches_numpy(dtype):
    """The shift logsumexp subtracts is the max of the real parts (torch's): a complex max
    has no C comparison, and a real shift takes no branch of log."""
    a = ((np.arange(12.0).reshape(3, 4) * 0.3 - 1.0) + 1j * np.linspace(-2, 2, 12).reshape(3, 4))
    a = a.astype(dtype)
    want = np.log(np.exp(a.astype(np.complex128)).sum(axis=1))
    tol = 1e-5 if dtype == np.complex64 else 1e-13
    eager = sg.logsumexp(sg.tensor(a), 1).numpy()
    compiled = sg.compile(lambda x: sg.logsumexp(x, 1))(a)
    np.testing.assert_allclose(eager, want, rtol=tol)
    np.testing.assert_allclose(compiled, want, rtol=tol)
