"""torch.feature_dropout(_) and torch.native_dropout: the masks torch 2.13 draws after
manual_seed (stored from torch, and compared live when torch is installed), the outputs and
gradients they imply (derived here from the mask), and torch's quirks: ``train=None`` trains
but its backward does not scale, ``train=False`` copies with a mask of ones."""

from __future__ import annotations

import numpy as np
import pytest

import symgrad as sg

# torch 2.13: manual_seed(2); native_dropout(linspace(-1, 1, 7, float64), 0.3, True)[1]
MASK_SEED2 = [False, True, False, True, False, True, True]
X = np.linspace(-1, 1, 7)


@pytest.mark.parametrize("train", [True, None, False])
def test_native_dropout_mask_output_and_gradient(train):
    x = sg.tensor(X, requires_grad=True)
    sg.manual_seed(2)
    out, mask = sg.native_dropout(x, 0.3, train)
    weights = np.arange(7.0)
    (out * sg.tensor(weights)).sum().backward()
    keep = np.array(MASK_SEED2 if train is not False else [True] * 7)
    scale = 1 / 0.7 if train is not False else 1.0
    assert mask.dtype is sg.bool and mask.numpy().tolist() == keep.tolist()
    np.testing.assert_array_equal(out.detach().numpy(), X * keep * scale)
    grad_scale = scale if train else 1.0          # None: torch's formula does not scale
    np.testing.assert_array_equal(x.grad.numpy(), weights * keep * grad_scale)
    assert type(out.grad_fn).__name__ == "NativeDropoutBackward0"


def test_feature_dropout_drops_whole_channels():
    sg.manual_seed(3)
    z = sg.ones(2, 3)
    sg.feature_dropout_(z, 0.5, True)
    assert z.tolist() == [[2.0, 2.0, 0.0], [2.0, 0.0, 0.0]]      # torch 2.13's
    sg.manual_seed(5)
    y = sg.feature_dropout(sg.ones(2, 3, 4), 0.5, True).numpy()
    assert all(len(set(row)) == 1 for row in y.reshape(6, 4).tolist())   # a channel is 0 or 2


def test_errors_are_torchs():
    with pytest.raises(RuntimeError, match="Feature dropout requires at least 2 dimensions"):
        sg.feature_dropout(sg.ones(3), 0.5, True)
    with pytest.raises(RuntimeError, match="dropout probability has to be between 0 and 1"):
        sg.feature_dropout(sg.ones(3, 2), 1.5, True)
    with pytest.raises(RuntimeError, match=r"bernoulli_ expects p to be in \[0, 1\]"):
        sg.native_dropout(sg.ones(2), 1.5, True)


@pytest.mark.parametrize("p", [0.0, 0.3, 1.0])
@pytest.mark.parametrize("train", [True, None, False])
def test_native_dropout_matches_torch(p, train):
    torch = pytest.importorskip("torch")
    results = []
    for m in (sg, torch):
        x = m.linspace(-1, 1, 40, dtype=m.float32).requires_grad_()
        m.manual_seed(7)
        out, mask = m.native_dropout(x, p, train)
        out.sum().backward()
        results.append((out.detach().numpy(), mask.numpy(), x.grad.numpy(), m.rand(2).numpy()))
    for ours, theirs in zip(*results):
        np.testing.assert_array_equal(ours, theirs)
