"""Recurrent modules: torch's parameters after manual_seed, outputs and gradients (torch
cross-checks), gradients against central differences, and compiled vs eager."""

import numpy as np
import pytest

import symgrad as sg
from references import central_differences

CASES = [("RNNCell", {}), ("RNNCell", {"nonlinearity": "relu"}), ("GRUCell", {}),
         ("LSTMCell", {}), ("LSTMCell", {"bias": False}),
         ("RNN", {"num_layers": 2}), ("GRU", {"batch_first": True}),
         ("LSTM", {"num_layers": 2, "bidirectional": True}), ("GRU", {"bidirectional": True}),
         ("RNN", {"nonlinearity": "relu", "batch_first": True})]


def _run(T, name, kwargs, batched=True):
    T.manual_seed(0)
    m = getattr(T.nn, name)(3, 4, **kwargs).double()
    cell = name.endswith("Cell")
    shape = ((5, 3) if cell else (2, 6, 3)) if batched else ((3,) if cell else (6, 3))
    x = T.sin(T.arange(int(np.prod(shape)), dtype=T.float64).reshape(shape)).requires_grad_()
    out = m(x)
    if name == "LSTMCell":
        flat = [out[0], out[1]]
    elif cell:
        flat = [out]
    elif name == "LSTM":
        flat = [out[0], out[1][0], out[1][1]]
    else:
        flat = [out[0], out[1]]
    loss = sum((f * f).sum() for f in flat)
    loss.backward()
    params = {k: p.detach().numpy().copy() for k, p in m.named_parameters()}
    grads = {k: p.grad.numpy().copy() for k, p in m.named_parameters()}
    return repr(m), params, [f.detach().numpy() for f in flat], x.grad.numpy(), grads


@pytest.mark.parametrize("batched", [True, False])
@pytest.mark.parametrize("name, kwargs", CASES)
def test_recurrent_modules_like_torch(name, kwargs, batched):
    torch = pytest.importorskip("torch")
    want, got = _run(torch, name, kwargs, batched), _run(sg, name, kwargs, batched)
    assert got[0] == want[0]
    assert list(got[1]) == list(want[1])
    for k in want[1]:
        np.testing.assert_array_equal(got[1][k], want[1][k], err_msg=k)
        np.testing.assert_allclose(got[4][k], want[4][k], rtol=1e-10, atol=1e-12, err_msg=k)
    for a, b in zip(got[2], want[2]):
        np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(got[3], want[3], rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("name", ["GRU", "LSTM"])
def test_recurrent_gradient_matches_finite_differences_eager_and_compiled(name):
    sg.manual_seed(1)
    m = getattr(sg.nn, name)(2, 3).double()

    def loss(x):
        out = m(x)[0]
        return (out * out).sum()

    x0 = np.cos(np.arange(8.0)).reshape(4, 1, 2)
    fd = central_differences(loss, x0)
    x = sg.tensor(x0, requires_grad=True)
    loss(x).backward()
    np.testing.assert_allclose(x.grad.numpy(), fd, rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(sg.grad(loss)(x0), fd, rtol=1e-6, atol=1e-9)


def test_recurrent_input_errors():
    with pytest.raises(RuntimeError, match="input.size\\(-1\\) must be equal to input_size"):
        sg.nn.GRU(3, 4)(sg.ones(2, 1, 5))
    with pytest.raises(ValueError, match="Expected input to be 2D or 3D"):
        sg.nn.LSTM(3, 4)(sg.ones(3))
