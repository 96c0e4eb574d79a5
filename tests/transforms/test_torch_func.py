"""``symgrad.func`` and ``symgrad.autograd.functional`` against torch.func and
torch.autograd.functional on the same functions (skipped without torch), and
``autograd.functional`` against finite differences (always run).
"""

import numpy as np
import pytest

import symgrad as sg

RNG = np.random.default_rng(11)
X = RNG.normal(size=4)
W = RNG.normal(size=(3, 4))


def f(x, w, lib):
    return lib.tanh(w @ x) * x[:3] + x[1] ** 2


def scalar(x, lib):
    return (lib.sin(x) * x ** 2).sum() + x[0] * x[-1]


def fd_jacobian(fn, x, eps=1e-6):
    cols = [(fn(x + e) - fn(x - e)) / (2 * eps) for e in np.eye(len(x)) * eps]
    return np.stack(cols, axis=-1)


def _np(t):
    return t.detach().numpy() if hasattr(t, "detach") else np.asarray(t)


def test_autograd_functional_against_finite_differences():
    AF = sg.autograd.functional
    x = sg.tensor(X)
    fn = lambda z: f(z, sg.tensor(W), sg)      # noqa: E731
    fd = fd_jacobian(lambda z: np.tanh(W @ z) * z[:3] + z[1] ** 2, X)
    np.testing.assert_allclose(_np(AF.jacobian(fn, x)), fd, rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(_np(AF.jacobian(fn, x, strategy="forward-mode",
                                               vectorize=True)), fd, rtol=1e-7, atol=1e-9)
    v = RNG.normal(size=4)
    out, jv = AF.jvp(fn, x, sg.tensor(v))
    np.testing.assert_allclose(_np(jv), fd @ v, rtol=1e-7, atol=1e-9)
    u = RNG.normal(size=3)
    out, vj = AF.vjp(fn, x, sg.tensor(u))
    np.testing.assert_allclose(_np(vj), u @ fd, rtol=1e-7, atol=1e-9)
    s = lambda z: scalar(z, sg)                # noqa: E731
    g = lambda z: np.asarray(sg.grad(s)(z))    # noqa: E731
    h_fd = fd_jacobian(g, X)
    np.testing.assert_allclose(_np(AF.hessian(s, x)), h_fd, rtol=1e-6, atol=1e-8)
    _, hv = AF.hvp(s, x, sg.tensor(v))
    np.testing.assert_allclose(_np(hv), h_fd @ v, rtol=1e-6, atol=1e-8)
    _, vh = AF.vhp(s, x, sg.tensor(v))
    np.testing.assert_allclose(_np(vh), v @ h_fd, rtol=1e-6, atol=1e-8)


def test_create_graph_and_strict():
    AF = sg.autograd.functional
    x = sg.tensor(X, requires_grad=True)
    h = AF.hessian(lambda z: (z ** 3).sum(), x, create_graph=True)
    assert h.requires_grad
    h.sum().backward()                       # d/dx sum(diag(6x)) = 6
    np.testing.assert_allclose(_np(x.grad), np.full(4, 6.0))
    assert not AF.jacobian(lambda z: z * 2, x).requires_grad
    with pytest.raises(RuntimeError, match="independent of input 1"):
        AF.jacobian(lambda a, b: a * 2, (x, sg.tensor(X)), strict=True)


def test_against_torch():
    torch = pytest.importorskip("torch")
    TF = torch.autograd.functional
    AF = sg.autograd.functional
    tx, tw = torch.tensor(X), torch.tensor(W)
    x, w = sg.tensor(X), sg.tensor(W)
    pairs = [
        (TF.jacobian(lambda z: f(z, tw, torch), tx), AF.jacobian(lambda z: f(z, w, sg), x)),
        (TF.hessian(lambda z: scalar(z, torch), tx), AF.hessian(lambda z: scalar(z, sg), x)),
        (TF.hvp(lambda z: scalar(z, torch), tx, tx)[1],
         AF.hvp(lambda z: scalar(z, sg), x, x)[1]),
        (TF.jacobian(lambda a, b: f(a, b, torch), (tx, tw))[1],
         AF.jacobian(lambda a, b: f(a, b, sg), (x, w))[1]),
    ]
    for want, got in pairs:
        np.testing.assert_allclose(_np(got), want.numpy(), rtol=1e-10, atol=1e-12)


def test_func_against_torch_func():
    torch = pytest.importorskip("torch")
    tf, sf = torch.func, sg.func
    tx, tw = torch.tensor(X), torch.tensor(W)
    pairs = [
        (tf.jacrev(lambda z: f(z, tw, torch))(tx), sf.jacrev(lambda z: f(z, W, sg))(X)),
        (tf.jacfwd(lambda z: f(z, tw, torch))(tx), sf.jacfwd(lambda z: f(z, W, sg))(X)),
        (tf.hessian(lambda z: scalar(z, torch))(tx), sf.hessian(lambda z: scalar(z, sg))(X)),
        (tf.vmap(tf.grad(lambda z: scalar(z, torch)))(tw),
         sf.vmap(sf.grad(lambda z: scalar(z, sg)))(W)),
        (tf.jvp(lambda z: f(z, tw, torch), (tx,), (tx,))[1],
         sf.jvp(lambda z: f(z, W, sg), (X,), (X,))[1]),
        (tf.vjp(lambda z: f(z, tw, torch), tx)[1](tx[:3])[0],
         sf.vjp(lambda z: f(z, W, sg), X)[1](X[:3])[0]),
        (tf.grad_and_value(lambda z: scalar(z, torch))(tx)[0],
         sf.grad_and_value(lambda z: scalar(z, sg))(X)[0]),
        (tf.vmap(lambda a, b: a @ b, in_dims=(0, None))(tw, tx),
         sf.vmap(lambda a, b: a @ b, in_dims=(0, None))(W, X)),
    ]
    for want, got in pairs:
        np.testing.assert_allclose(np.asarray(got), want.numpy(), rtol=1e-10, atol=1e-12)


def test_functional_call_with_transforms():
    model = sg.nn.Linear(4, 2).double()
    params = {k: p.detach().numpy() for k, p in model.named_parameters()}
    x = RNG.normal(size=(5, 4))

    def loss(p, xi):
        return (sg.func.functional_call(model, p, (xi,)) ** 2).sum()
    per = sg.func.vmap(sg.func.grad(loss), in_dims=(None, 0))(params, x)
    for i in range(5):
        g = sg.grad(loss)(params, x[i])
        np.testing.assert_allclose(per["weight"][i], g["weight"], rtol=1e-12)
    w, b = params["weight"], params["bias"]
    np.testing.assert_allclose(per["bias"], 2 * (x @ w.T + b), rtol=1e-12)
