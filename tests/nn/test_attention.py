"""Attention: ``F.scaled_dot_product_attention`` and ``nn.MultiheadAttention`` against an
independent NumPy implementation of the formulas (torch-free), central differences in
float64, values torch 2.13 printed (stored below), and torch itself when it is installed
(outputs, gradients, initial weights after ``manual_seed``, state_dict keys, messages)."""

import math

import numpy as np
import pytest

import symgrad as sg
from symgrad import nn
from symgrad.nn import functional as F
from references import central_differences

# torch 2.13's numbers (rounded to 12 decimals), stored so that the checks run without torch.
MHA_IN_PROJ_ROWS = [[0.222424164414, 0.508506715298, -0.126026362181, 0.458245515823],
                    [-0.098704248667, 0.064797639847, 0.55448871851, -0.568079769611]]
MHA_OUT_PROJ_ROW = [-0.00374341011, 0.268221795559, -0.411522567272, -0.367969512939]
MHA_SEP_K_ROW = [-0.540438652039, 0.795833170414, 0.413117945194]
MHA_BIAS_K = [-0.010439736769, -0.359240025282, 0.259318381548, -0.656260967255]
SDPA_DROPOUT = [[[[0.258037596941, 0.356534689665, 0.455031812191, 0.55352884531],
                  [0.822822213173, 0.917909562588, 1.012996912003, 1.108084440231],
                  [0.880770981312, 0.961508631706, 1.042246341705, 1.122984051704]],
                 [[2.286305427551, 2.406190395355, 2.526075601578, 2.645961046219],
                  [0.959522068501, 1.011912941933, 1.06430375576, 1.116694569588],
                  [0.37532967329, 0.388734340668, 0.402138948441, 0.415543556213]]]]

R = np.random.default_rng(7)


# ---------------------------------------------------------------- NumPy oracle

def np_softmax(s):
    e = np.exp(s - s.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def np_sdpa(q, k, v, mask=None, causal=False, scale=None):
    """softmax(q k^T * scale + bias) v; a row with no key left gives 0."""
    scale = 1 / math.sqrt(q.shape[-1]) if scale is None else scale
    s = q @ np.swapaxes(k, -1, -2) * scale
    keep = np.ones(s.shape, bool)
    if causal:
        keep &= np.tril(np.ones(s.shape[-2:], bool))
    if mask is not None and mask.dtype == bool:
        keep &= mask
    elif mask is not None:
        s = s + mask
    s = np.where(keep, s, -np.inf)
    dead = ~np.isfinite(s).any(-1, keepdims=True)
    w = np.where(dead, 0.0, np_softmax(np.where(dead, 0.0, s)))
    return w @ v


def np_mha(x, kv, w_in, b_in, w_out, b_out, heads, kpm=None):
    """Multi-head self/cross attention of (L, N, E) over (S, N, E) (one head's block of the
    projections per head, the head outputs concatenated), and the head-averaged weights."""
    e = x.shape[-1]
    d = e // heads
    q, k, v = (a @ w_in[i * e:(i + 1) * e].T + b_in[i * e:(i + 1) * e]
               for i, a in enumerate((x, kv, kv)))
    outs, weights = [], []
    for n in range(x.shape[1]):
        heads_out, heads_w = [], []
        for h in range(heads):
            sl = slice(h * d, (h + 1) * d)
            s = q[:, n, sl] @ k[:, n, sl].T / math.sqrt(d)
            if kpm is not None:
                s = np.where(kpm[n][None, :], -np.inf, s)
            w = np_softmax(s)
            heads_out.append(w @ v[:, n, sl])
            heads_w.append(w)
        outs.append(np.concatenate(heads_out, -1) @ w_out.T + b_out)
        weights.append(np.mean(heads_w, 0))
    return np.stack(outs, 1), np.stack(weights)


# ---------------------------------------------------------------- scaled_dot_product_attention

SDPA_CASES = {
    "plain": {},
    "causal": {"is_causal": True},
    "bool_mask": {"attn_mask": R.random((4, 6)) > 0.3},
    "float_mask": {"attn_mask": R.standard_normal((4, 6))},
    "scale": {"scale": 0.7},
    "negative_scale": {"scale": -0.3},
    "all_masked_row": {"attn_mask": np.array([[True] * 6, [False] * 6, [True, False] * 3,
                                              [False] * 5 + [True]])},
}


def _qkv(dtype=np.float64):
    return (R.standard_normal((2, 3, 4, 5)).astype(dtype),
            R.standard_normal((2, 3, 6, 5)).astype(dtype),
            R.standard_normal((2, 3, 6, 7)).astype(dtype))


def _sg_kwargs(kw):
    return {k: sg.tensor(v) if isinstance(v, np.ndarray) else v for k, v in kw.items()}


@pytest.mark.parametrize("case", sorted(SDPA_CASES))
def test_sdpa_matches_numpy_formula(case):
    kw = SDPA_CASES[case]
    q, k, v = _qkv()
    got = F.scaled_dot_product_attention(sg.tensor(q), sg.tensor(k), sg.tensor(v),
                                         **_sg_kwargs(kw))
    want = np_sdpa(q, k, v, kw.get("attn_mask"), kw.get("is_causal", False), kw.get("scale"))
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12, atol=1e-13)
    if case == "all_masked_row":
        assert np.all(got.numpy()[:, :, 1] == 0)


@pytest.mark.parametrize("case", sorted(SDPA_CASES))
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_sdpa_matches_torch_values_and_gradients(case, dtype):
    torch = pytest.importorskip("torch")
    kw = SDPA_CASES[case]
    arrays = _qkv(np.dtype(dtype))
    tq = [torch.tensor(a, requires_grad=True) for a in arrays]
    sq = [sg.tensor(a, requires_grad=True) for a in arrays]
    tkw = {k: torch.tensor(v, dtype=torch.float64 if v.dtype != bool else torch.bool)
           .to(getattr(torch, dtype) if v.dtype != bool else torch.bool)
           if isinstance(v, np.ndarray) else v for k, v in kw.items()}
    skw = {k: (sg.tensor(v) if v.dtype == bool else sg.tensor(v).to(getattr(sg, dtype)))
           if isinstance(v, np.ndarray) else v for k, v in kw.items()}
    a = torch.nn.functional.scaled_dot_product_attention(*tq, **tkw)
    b = F.scaled_dot_product_attention(*sq, **skw)
    assert b.dtype.name == dtype
    tol = dict(rtol=1e-5, atol=2e-6) if dtype == "float32" else dict(rtol=1e-12, atol=1e-13)
    np.testing.assert_allclose(b.detach().numpy(), a.detach().numpy(), **tol)
    w = np.cos(np.arange(a.numel())).reshape(a.shape).astype(dtype)
    (a * torch.tensor(w)).sum().backward()
    (b * sg.tensor(w)).sum().backward()
    for x, y in zip(sq, tq):
        np.testing.assert_allclose(x.grad.numpy(), y.grad.numpy(), **tol)


def test_sdpa_gradients_match_central_differences():
    q0, k0, v0 = (R.standard_normal(s) for s in ((2, 3, 4), (2, 5, 4), (2, 5, 3)))
    fmask = sg.tensor(R.standard_normal((3, 5)))
    bmask = sg.tensor(np.array([[True, False, True, True, False]] * 3))
    w = sg.tensor(np.sin(np.arange(18.0)).reshape(2, 3, 3))
    for kw in ({"attn_mask": fmask}, {"attn_mask": bmask}, {"is_causal": True}):
        for which in range(3):
            base = [sg.tensor(a) for a in (q0, k0, v0)]

            def loss(t):
                args = list(base)
                args[which] = t
                return (F.scaled_dot_product_attention(*args, **kw) * w).sum()
            x0 = (q0, k0, v0)[which]
            x = sg.tensor(x0, requires_grad=True)
            loss(x).backward()
            np.testing.assert_allclose(x.grad.numpy(), central_differences(loss, x0),
                                       rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("case", ["bool_mask", "causal", "all_masked_row"])
def test_sdpa_compiled_gradient_equals_eager(case):
    kw = _sg_kwargs(SDPA_CASES[case])
    q0, k, v = _qkv()
    k, v = sg.tensor(k), sg.tensor(v)
    w = sg.tensor(np.sin(np.arange(2 * 3 * 4 * 7.0)).reshape(2, 3, 4, 7))

    def loss(q):
        return (F.scaled_dot_product_attention(q, k, v, **kw) * w).sum()
    q = sg.tensor(q0, requires_grad=True)
    loss(q).backward()
    compiled = np.asarray(sg.grad(loss)(q0))
    assert np.all(np.isfinite(compiled))
    np.testing.assert_allclose(compiled, q.grad.numpy(), rtol=1e-12, atol=1e-13)
    if case == "all_masked_row":
        assert np.all(compiled[:, :, 1] == 0)


def test_sdpa_grouped_query_heads_and_unbatched_inputs():
    q, k, v = (R.standard_normal(s) for s in ((2, 4, 3, 5), (2, 2, 6, 5), (2, 1, 6, 5)))
    got = F.scaled_dot_product_attention(sg.tensor(q), sg.tensor(k), sg.tensor(v),
                                         enable_gqa=True)
    want = np_sdpa(q, np.repeat(k, 2, axis=1), np.repeat(v, 4, axis=1))
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12, atol=1e-13)
    got = F.scaled_dot_product_attention(sg.tensor(q[0, 0]), sg.tensor(k[0, 0]),
                                         sg.tensor(v[0, 0]), is_causal=True)
    np.testing.assert_allclose(got.numpy(), np_sdpa(q[0, 0], k[0, 0], v[0, 0], causal=True),
                               rtol=1e-12, atol=1e-13)


def test_sdpa_dropout_draws_torchs_mask():
    """Dropout on the weights draws as torch's math path does (bernoulli_(1 - p) of the
    weights' shape, after manual_seed): the stored values are torch's."""
    q = sg.sin(sg.arange(24.0)).reshape(1, 2, 3, 4)
    k = sg.cos(sg.arange(32.0)).reshape(1, 2, 4, 4)
    v = sg.arange(32.0).reshape(1, 2, 4, 4) / 10
    sg.manual_seed(7)
    got = F.scaled_dot_product_attention(q, k, v, dropout_p=0.4)
    np.testing.assert_allclose(got.numpy(), SDPA_DROPOUT, rtol=1e-6, atol=1e-7)
    sg.manual_seed(7)
    again = F.scaled_dot_product_attention(q, k, v, dropout_p=0.4)
    np.testing.assert_array_equal(again.numpy(), got.numpy())
    assert not np.allclose(F.scaled_dot_product_attention(q, k, v).numpy(), got.numpy())


def test_sdpa_errors_are_torchs():
    q, k, v = (sg.ones(1, 2, 3), sg.ones(1, 4, 3), sg.ones(1, 4, 3))
    with pytest.raises(RuntimeError, match="Explicit attn_mask should not be set when "
                                           "is_causal=True"):
        F.scaled_dot_product_attention(q, k, v, attn_mask=sg.ones(2, 4, dtype=sg.bool),
                                       is_causal=True)
    with pytest.raises(RuntimeError, match="query.dtype: float key.dtype: double and "
                                           "value.dtype: float instead"):
        F.scaled_dot_product_attention(q, k.double(), v)
    with pytest.raises(RuntimeError, match="attn_mask.dtype: long int and  query.dtype: "
                                           "float instead"):
        F.scaled_dot_product_attention(q, k, v, attn_mask=sg.ones(2, 4, dtype=sg.int64))
    with pytest.raises(RuntimeError, match="dropout probability has to be between 0 and 1"):
        F.scaled_dot_product_attention(q, k, v, dropout_p=1.5)
    with pytest.raises(RuntimeError, match="Number of heads in key and value must divide"):
        F.scaled_dot_product_attention(sg.ones(1, 3, 2, 4), sg.ones(1, 2, 2, 4),
                                       sg.ones(1, 2, 2, 4), enable_gqa=True)


# ---------------------------------------------------------------- MultiheadAttention

def test_mha_initial_weights_are_torchs_stored():
    sg.manual_seed(0)
    m = nn.MultiheadAttention(4, 2)
    assert list(m.state_dict()) == ["in_proj_weight", "in_proj_bias", "out_proj.weight",
                                    "out_proj.bias"]
    np.testing.assert_allclose(m.in_proj_weight.detach().numpy()[:2], MHA_IN_PROJ_ROWS,
                               rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(m.out_proj.weight.detach().numpy()[0], MHA_OUT_PROJ_ROW,
                               rtol=1e-7, atol=1e-9)
    assert np.all(m.in_proj_bias.detach().numpy() == 0)
    assert np.all(m.out_proj.bias.detach().numpy() == 0)
    sg.manual_seed(0)
    m = nn.MultiheadAttention(4, 2, kdim=3, vdim=2, add_bias_kv=True)
    assert [(k, tuple(v.shape)) for k, v in m.state_dict().items()] == [
        ("q_proj_weight", (4, 4)), ("k_proj_weight", (4, 3)), ("v_proj_weight", (4, 2)),
        ("in_proj_bias", (12,)), ("bias_k", (1, 1, 4)), ("bias_v", (1, 1, 4)),
        ("out_proj.weight", (4, 4)), ("out_proj.bias", (4,))]
    np.testing.assert_allclose(m.k_proj_weight.detach().numpy()[0], MHA_SEP_K_ROW, rtol=1e-7,
                               atol=1e-9)
    np.testing.assert_allclose(m.bias_k.detach().numpy().ravel(), MHA_BIAS_K, rtol=1e-7,
                               atol=1e-9)
    assert repr(m) == ("MultiheadAttention(\n  (out_proj): NonDynamicallyQuantizableLinear("
                       "in_features=4, out_features=4, bias=True)\n)")


@pytest.mark.parametrize("cross", [False, True])
def test_mha_matches_numpy_formula(cross):
    sg.manual_seed(2)
    m = nn.MultiheadAttention(6, 3).double()
    with sg.no_grad():
        m.in_proj_bias.copy_(sg.tensor(R.standard_normal(18)))
        m.out_proj.bias.copy_(sg.tensor(R.standard_normal(6)))
    x = R.standard_normal((4, 2, 6))
    kv = R.standard_normal((5, 2, 6)) if cross else x
    kpm = np.array([[False] * 4 + [True] * (kv.shape[0] - 4), [False] * kv.shape[0]])
    p = {k: v.detach().numpy() for k, v in m.named_parameters()}
    want, want_w = np_mha(x, kv, p["in_proj_weight"], p["in_proj_bias"], p["out_proj.weight"],
                          p["out_proj.bias"], 3, kpm)
    xs = sg.tensor(x)
    kvs = sg.tensor(kv) if cross else xs
    out, w = m(xs, kvs, kvs, key_padding_mask=sg.tensor(kpm))
    np.testing.assert_allclose(out.detach().numpy(), want, rtol=1e-12, atol=1e-13)
    np.testing.assert_allclose(w.detach().numpy(), want_w, rtol=1e-12, atol=1e-13)
    out2, none = m(xs, kvs, kvs, key_padding_mask=sg.tensor(kpm), need_weights=False)
    assert none is None
    np.testing.assert_allclose(out2.detach().numpy(), want, rtol=1e-12, atol=1e-13)


def test_mha_gradient_matches_central_differences():
    sg.manual_seed(4)
    m = nn.MultiheadAttention(4, 2, add_bias_kv=True, add_zero_attn=True).double()
    mask = sg.tensor(nn.Transformer.generate_square_subsequent_mask(3).numpy()).double()
    w = sg.tensor(np.cos(np.arange(24.0)).reshape(3, 2, 4))

    def loss(x):
        return (m(x, x, x, attn_mask=mask, need_weights=False)[0] * w).sum()
    x0 = R.standard_normal((3, 2, 4))
    x = sg.tensor(x0, requires_grad=True)
    loss(x).backward()
    np.testing.assert_allclose(x.grad.numpy(), central_differences(loss, x0), rtol=1e-6,
                               atol=1e-8)


MHA_OPTIONS = [{}, {"kdim": 3, "vdim": 5}, {"add_bias_kv": True, "add_zero_attn": True},
               {"bias": False}, {"batch_first": True}, {"dropout": 0.3}]
MHA_CALLS = [{}, {"need_weights": False}, {"key_padding_mask": "bool"},
             {"attn_mask": "float", "need_weights": False},
             {"attn_mask": "causal", "is_causal": True, "need_weights": False},
             {"attn_mask": "bool", "key_padding_mask": "float", "average_attn_weights": False}]


def _masks(T, call, n, length, source):
    g = np.random.default_rng(3)
    kpm = g.random((n, source)) > 0.7
    kpm[:, 0] = False
    made = {"bool": lambda s: T.tensor(g.random(s) > 0.8),
            "float": lambda s: T.tensor(g.standard_normal(s).astype(np.float32)),
            "causal": lambda s: T.nn.Transformer.generate_square_subsequent_mask(s[0])}
    out = dict(call)
    if "key_padding_mask" in call:
        out["key_padding_mask"] = T.tensor(kpm) if call["key_padding_mask"] == "bool" else \
            T.tensor(np.where(kpm, -np.inf, 0.0).astype(np.float32))
    if "attn_mask" in call:
        out["attn_mask"] = made[call["attn_mask"]]((length, source))
    return out


@pytest.mark.filterwarnings("ignore:Support for mismatched key_padding_mask")
@pytest.mark.parametrize("call", range(len(MHA_CALLS)))
@pytest.mark.parametrize("opts", range(len(MHA_OPTIONS)))
def test_mha_like_torch(opts, call):
    torch = pytest.importorskip("torch")
    kw, call = MHA_OPTIONS[opts], MHA_CALLS[call]
    self_attn = "kdim" not in kw
    length, n = 5, 3
    source = length if self_attn else 6

    def run(T):
        T.manual_seed(1)
        m = T.nn.MultiheadAttention(8, 2, **kw)
        layout = (lambda a, b: (b, a)) if kw.get("batch_first") else (lambda a, b: (a, b))
        g = np.random.default_rng(5)
        x = T.tensor(g.standard_normal(layout(length, n) + (8,)).astype(np.float32),
                     requires_grad=True)
        key = x if self_attn else T.tensor(g.standard_normal(layout(source, n) + (3,))
                                           .astype(np.float32))
        value = x if self_attn else T.tensor(g.standard_normal(layout(source, n) + (5,))
                                             .astype(np.float32))
        T.manual_seed(9)
        out, w = m(x, key, value, **_masks(T, call, n, length, source))
        (out * out).sum().backward()
        grads = {k: p.grad.numpy() for k, p in m.named_parameters()}
        return (m.state_dict(), out.detach().numpy(), None if w is None else w.detach().numpy(),
                x.grad.numpy(), grads)
    want, got = run(torch), run(sg)
    assert list(got[0]) == list(want[0])
    for k in want[0]:
        np.testing.assert_array_equal(got[0][k].numpy(), want[0][k].numpy(), err_msg=k)
    np.testing.assert_allclose(got[1], want[1], rtol=1e-5, atol=1e-6)
    assert (got[2] is None) == (want[2] is None)
    if want[2] is not None:
        np.testing.assert_allclose(got[2], want[2], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got[3], want[3], rtol=1e-4, atol=1e-5)
    for k in want[4]:
        np.testing.assert_allclose(got[4][k], want[4][k], rtol=1e-4, atol=1e-5, err_msg=k)


def test_mha_unbatched_and_errors():
    sg.manual_seed(0)
    m = nn.MultiheadAttention(4, 2).double()
    x = sg.tensor(R.standard_normal((3, 4)))
    out, w = m(x, x, x)
    full, fw = m(x.unsqueeze(1), x.unsqueeze(1), x.unsqueeze(1))
    np.testing.assert_allclose(out.detach().numpy(), full.detach().numpy()[:, 0], rtol=1e-13)
    np.testing.assert_allclose(w.detach().numpy(), fw.detach().numpy()[0], rtol=1e-13)
    with pytest.raises(AssertionError, match="embed_dim must be divisible by num_heads"):
        nn.MultiheadAttention(8, 3)
    with pytest.raises(ValueError, match="embed_dim and num_heads must be greater than 0"):
        nn.MultiheadAttention(0, 3)
    with pytest.raises(RuntimeError, match="Need attn_mask if specifying the is_causal hint"):
        m(x, x, x, is_causal=True)
    with pytest.raises(AssertionError, match="query should be unbatched 2D or batched 3D"):
        m(x.reshape(1, 1, 3, 4), x, x)
    with pytest.raises(RuntimeError, match="The shape of the 2D attn_mask is"):
        m(x, x, x, attn_mask=sg.zeros(2, 3, dtype=sg.float64))
    with pytest.raises(AssertionError, match="only bool and floating types of attn_mask"):
        m(x, x, x, attn_mask=sg.zeros(3, 3, dtype=sg.int64))
    with pytest.warns(UserWarning, match="Support for mismatched key_padding_mask and "
                                         "attn_mask is deprecated"):
        m(x, x, x, key_padding_mask=sg.zeros(3, dtype=sg.bool),
          attn_mask=sg.zeros(3, 3, dtype=sg.float64))
