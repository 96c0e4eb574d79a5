"""End to end: a small MLP trained for 50 steps with CrossEntropyLoss and SGD(momentum) or
Adam, under torch and under symgrad from identical initial weights, the losses agreeing to
float32 rounding at every step (eagerly, and with gradients from a compiled
``value_and_grad``). And torch identity of initialization: after ``manual_seed`` a model
built with ``symgrad.nn`` holds torch's weights bit for bit, and dropout draws torch's masks.
"""

from __future__ import annotations

import numpy as np
import pytest

import symgrad as sg
from symgrad import nn, optim
from symgrad.nn.utils.stateless import functional_call

STEPS = 50
R = np.random.default_rng(11)
X = R.standard_normal((32, 20)).astype(np.float32)
Y = R.integers(0, 5, 32)


def _mlp(m, dropout: float = 0.0):
    n = m.nn
    layers = [n.Linear(20, 64), n.Tanh(), n.Linear(64, 64), n.ReLU()]
    if dropout:
        layers.append(n.Dropout(dropout))
    return n.Sequential(*layers, n.Linear(64, 5))


def _same_start(torch, dropout: float = 0.0):
    torch.manual_seed(0)
    theirs = _mlp(torch, dropout)
    mine = _mlp(sg, dropout)
    mine.load_state_dict({k: v.numpy() for k, v in theirs.state_dict().items()})
    return theirs, mine


OPTIMIZERS = {
    "sgd_momentum": lambda m, ps: m.optim.SGD(ps, lr=0.1, momentum=0.9),
    "sgd_nesterov_wd": lambda m, ps: m.optim.SGD(ps, lr=0.05, momentum=0.9, nesterov=True,
                                                  weight_decay=1e-3),
    "adam": lambda m, ps: m.optim.Adam(ps, lr=1e-2),
    "adamw_amsgrad": lambda m, ps: m.optim.AdamW(ps, lr=1e-2, amsgrad=True),
}


def _torch_losses(torch, model, make_opt):
    opt = make_opt(torch, model.parameters())
    crit = torch.nn.CrossEntropyLoss()
    x, y = torch.tensor(X), torch.tensor(Y)
    losses = []
    for _ in range(STEPS):
        opt.zero_grad()
        loss = crit(model(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return np.array(losses)


@pytest.mark.parametrize("name", sorted(OPTIMIZERS))
def test_mlp_training_matches_torch_step_by_step(name):
    torch = pytest.importorskip("torch")
    theirs, mine = _same_start(torch)
    expected = _torch_losses(torch, theirs, OPTIMIZERS[name])
    opt = OPTIMIZERS[name](sg, mine.parameters())
    crit = nn.CrossEntropyLoss()
    x, y = sg.tensor(X), sg.tensor(Y)
    losses = []
    for _ in range(STEPS):
        opt.zero_grad()
        loss = crit(mine(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    np.testing.assert_allclose(losses, expected, rtol=2e-5, atol=1e-6)
    assert expected[-1] < 0.5 * expected[0]          # it did learn
    for (k, a), b in zip(mine.state_dict().items(), theirs.state_dict().values()):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-3, atol=1e-4, err_msg=k)


@pytest.mark.parametrize("name", ["sgd_momentum", "adam"])
def test_training_with_compiled_gradients_matches_torch(name):
    """The gradients from a compiled value_and_grad (parameters passed as arguments through
    functional_call) feed the optimizer, which steps the module's parameters."""
    torch = pytest.importorskip("torch")
    theirs, mine = _same_start(torch)
    expected = _torch_losses(torch, theirs, OPTIMIZERS[name])
    opt = OPTIMIZERS[name](sg, mine.parameters())

    def loss_fn(params, x, y):
        return nn.functional.cross_entropy(functional_call(mine, params, (x,)), y)
    step = sg.value_and_grad(loss_fn)
    losses = []
    for _ in range(STEPS):
        params = {k: p.detach().numpy() for k, p in mine.named_parameters()}
        loss, grads = step(params, X, Y)
        for k, p in mine.named_parameters():
            p.grad = sg.tensor(grads[k])
        opt.step()
        losses.append(float(loss))
    np.testing.assert_allclose(losses, expected, rtol=2e-5, atol=1e-6)


def test_seeded_models_hold_torchs_weights_and_dropout_draws_torchs_masks():
    """Needs symgrad.nn.init and symgrad.frontend.random.sampling (torch's generator): fails,
    rather than skips, when they are missing."""
    assert hasattr(nn.init, "kaiming_uniform_") and hasattr(nn.init, "uniform_"), \
        "symgrad.nn.init must provide torch's initializers"
    assert hasattr(sg.frontend.random.sampling, "dropout"), \
        "symgrad.frontend.random.sampling must exist"
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    theirs = _mlp(torch, dropout=0.2)
    sg.manual_seed(0)
    mine = _mlp(sg, dropout=0.2)
    for (k, a), b in zip(mine.state_dict().items(), theirs.state_dict().values()):
        np.testing.assert_array_equal(a.numpy(), b.numpy(), err_msg=k)
    x_t, x_s = torch.randn(8, 20), sg.randn(8, 20)
    np.testing.assert_array_equal(x_s.numpy(), x_t.numpy())
    out_t, out_s = theirs(x_t), mine(x_s)                 # training mode: dropout draws
    np.testing.assert_array_equal(out_s.detach().numpy() == 0, out_t.detach().numpy() == 0)
    np.testing.assert_allclose(out_s.detach().numpy(), out_t.detach().numpy(), rtol=1e-5,
                               atol=1e-6)
    torch.manual_seed(3)
    sg.manual_seed(3)
    emb_t, emb_s = torch.nn.Embedding(6, 4, padding_idx=2), nn.Embedding(6, 4, padding_idx=2)
    ln_t, ln_s = torch.nn.Bilinear(3, 2, 4), nn.Bilinear(3, 2, 4)
    for a, b in ((emb_s, emb_t), (ln_s, ln_t)):
        for (k, u), v in zip(a.state_dict().items(), b.state_dict().values()):
            np.testing.assert_array_equal(u.numpy(), v.numpy(), err_msg=k)


def test_seeded_dropout_training_matches_torch():
    torch = pytest.importorskip("torch")
    theirs, mine = _same_start(torch, dropout=0.3)
    torch.manual_seed(5)
    expected = _torch_losses(torch, theirs, OPTIMIZERS["sgd_momentum"])
    sg.manual_seed(5)
    opt = optim.SGD(mine.parameters(), lr=0.1, momentum=0.9)
    losses = []
    for _ in range(STEPS):
        opt.zero_grad()
        loss = nn.functional.cross_entropy(mine(sg.tensor(X)), sg.tensor(Y))
        loss.backward()
        opt.step()
        losses.append(loss.item())
    np.testing.assert_allclose(losses, expected, rtol=2e-5, atol=1e-6)
