"""nn.functional's arguments and errors, against torch where torch is installed: in-place
activations, implicit softmax dims, legacy size_average/reduce, one_hot, class-index checks,
padding and shape errors, batch_norm's running statistics, dropout. Numbers come from NumPy
or from torch, never from symgrad."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import symgrad as sg
import symgrad.nn.functional as F


def _both(fn):
    """fn(m) for torch and symgrad; the results as NumPy arrays (or the raised exception)."""
    torch = pytest.importorskip("torch")
    out = []
    for m in (torch, sg):
        try:
            r = fn(m)
            out.append(r.detach().numpy() if hasattr(r, "detach") else r)
        except Exception as e:  # noqa: BLE001  (compared below)
            out.append(e)
    return out


def _same_error(fn):
    theirs, mine = _both(fn)
    assert isinstance(theirs, Exception), f"torch did not raise: {theirs}"
    assert type(mine) is type(theirs) and str(mine) == str(theirs), (mine, theirs)


@pytest.mark.parametrize("fn", [
    lambda m: m.nn.functional.cross_entropy(m.ones(2, 3), m.tensor([0, 1]), reduction="avg"),
    lambda m: m.nn.functional.cross_entropy(m.ones(2, 3), m.tensor([0, 1]),
                                            label_smoothing=1.5),
    lambda m: m.nn.functional.nll_loss(m.ones(2, 3), m.tensor([0, 1, 1])),
    lambda m: m.nn.functional.one_hot(m.tensor([0, 4]), 3),
    lambda m: m.nn.functional.one_hot(m.tensor([0, -1]), 3),
    lambda m: m.nn.functional.one_hot(m.tensor([0.0, 1.0]), 3),
    lambda m: m.nn.functional.pad(m.ones(2, 3), (1,)),
    lambda m: m.nn.functional.layer_norm(m.ones(2, 3), (4,)),
    lambda m: m.nn.functional.hardtanh(m.ones(2), 2.0, 1.0),
    lambda m: m.nn.functional.gelu(m.ones(2), approximate="fast"),
    lambda m: m.nn.functional.embedding(m.tensor([0, 3]), m.ones(3, 2)),
    lambda m: m.nn.functional.batch_norm(m.ones(1, 3), None, None, training=True),
    lambda m: m.nn.functional.dropout(m.ones(2), p=1.5),
    lambda m: m.nn.functional.relu(m.ones(2, requires_grad=True), inplace=True),
], ids=["reduction", "label_smoothing", "batch_size", "one_hot_range",
        "one_hot_negative", "one_hot_dtype", "pad_odd", "layer_norm_shape", "hardtanh_bounds",
        "gelu_approximate", "embedding_range", "batch_norm_one_value", "dropout_p",
        "inplace_leaf"])
def test_errors_match_torch(fn):
    _same_error(fn)


def test_class_index_out_of_range_is_an_index_error_like_torchs():
    theirs, mine = _both(lambda m: m.nn.functional.nll_loss(m.ones(2, 3), m.tensor([0, 3])))
    assert type(theirs) is IndexError and type(mine) is IndexError


def test_inplace_activations_update_their_input_and_differentiate_like_torch():
    x0 = np.array([-1.5, -0.5, 0.5, 2.0], np.float32)
    for name, args in (("relu", ()), ("leaky_relu", (0.3,)), ("elu", (0.5,)),
                       ("hardtanh", (-1.0, 1.0)), ("relu6", ()), ("silu", ())):
        def fn(m, name=name, args=args):
            x = m.tensor(x0, requires_grad=True)
            h = x * 2.0
            out = getattr(m.nn.functional, name)(h, *args, inplace=True)
            assert out is h
            (out * out).sum().backward()
            return np.concatenate([out.detach().numpy(), x.grad.numpy()])
        theirs, mine = _both(fn)
        np.testing.assert_allclose(mine, theirs, rtol=1e-6, err_msg=name)


def test_implicit_softmax_dim_warns_and_picks_torchs_dim():
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4) / 10
    for shape in ((4,), (3, 4), (2, 3, 4)):
        v = x.reshape(-1)[:int(np.prod(shape))].reshape(shape)
        with pytest.warns(UserWarning, match="Implicit dimension choice for softmax"):
            mine = F.softmax(sg.tensor(v)).numpy()
        dim = 0 if len(shape) in (1, 3) else 1
        e = np.exp(v - v.max(dim, keepdims=True))
        np.testing.assert_allclose(mine, e / e.sum(dim, keepdims=True), rtol=1e-6)
    assert F.log_softmax(sg.tensor(x), 2, dtype=sg.float64).dtype is sg.float64


def test_legacy_size_average_and_reduce_match_torch():
    x, y = np.array([[1.0, -2.0], [0.5, 3.0]], np.float32), np.zeros((2, 2), np.float32)
    for kw in ({"size_average": False}, {"reduce": False}, {"size_average": True,
                                                            "reduce": True}):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            theirs, mine = _both(lambda m, kw=kw: m.nn.functional.mse_loss(
                m.tensor(x), m.tensor(y), **kw))
        np.testing.assert_allclose(mine, theirs)


def test_one_hot_matches_numpy_and_infers_the_class_count():
    t = np.array([[0, 3], [2, 2]])
    out = F.one_hot(sg.tensor(t))
    assert out.dtype is sg.int64 and out.shape == (2, 2, 4)
    np.testing.assert_array_equal(out.numpy(), np.eye(4, dtype=np.int64)[t])
    np.testing.assert_array_equal(F.one_hot(sg.tensor(t), 6).numpy(),
                                  np.eye(6, dtype=np.int64)[t])
    compiled = sg.compile(lambda t: F.one_hot(t, 5))(t)
    np.testing.assert_array_equal(compiled, np.eye(5, dtype=np.int64)[t])


def test_cross_entropy_ignores_every_target_gives_nan_like_torch():
    theirs, mine = _both(lambda m: m.nn.functional.cross_entropy(
        m.ones(2, 3), m.tensor([-100, -100])))
    assert np.isnan(theirs) and np.isnan(mine)


def test_batch_norm_functional_updates_running_statistics_like_torch():
    x = np.random.default_rng(2).standard_normal((6, 3, 2)).astype(np.float32)

    def fn(m):
        rm, rv = m.zeros(3), m.ones(3)
        out = m.nn.functional.batch_norm(m.tensor(x), rm, rv, training=True, momentum=0.3)
        out = m.nn.functional.batch_norm(m.tensor(x) * 2, rm, rv, training=True,
                                         momentum=0.3)
        return np.concatenate([out.numpy().ravel(), rm.numpy(), rv.numpy()])
    theirs, mine = _both(fn)
    np.testing.assert_allclose(mine, theirs, rtol=1e-5, atol=1e-6)


def test_dropout_is_the_sampling_modules_and_respects_training():
    from symgrad.frontend.random.sampling import dropout
    assert F.dropout is dropout
    x = sg.ones(3, 4)
    assert F.dropout(x, 0.5, training=False) is x


def test_pad_modes_match_torch():
    x = np.arange(2 * 3 * 4 * 5, dtype=np.float32).reshape(2, 3, 4, 5)
    for pad, mode, ndim in (((1, 2), "reflect", 3), ((2, 1, 1, 3), "reflect", 4),
                            ((3, 1), "replicate", 2), ((1, 1, 2, 0), "replicate", 3),
                            ((2, 2), "circular", 3), ((1, -2, -1, 2, 1, 0), "constant", 4),
                            ((1, 2), "reflect", 4)):
        v = x.reshape((-1,) + x.shape[5 - ndim:]) if ndim < 4 else x
        theirs, mine = _both(lambda m, v=v, pad=pad, mode=mode:
                             m.nn.functional.pad(m.tensor(v), pad, mode=mode))
        if isinstance(theirs, Exception):
            assert type(mine) is type(theirs) and str(mine) == str(theirs)
        else:
            np.testing.assert_array_equal(mine, theirs, err_msg=f"{pad} {mode}")
