"""Transformer modules: encoder/decoder layers and stacks, ``nn.Transformer``. Initial weights
after ``manual_seed``, state_dict keys, reprs and warnings as torch's; outputs and gradients
against torch (train mode with dropout, eval mode, masks), against values torch printed
(stored below) and a NumPy implementation of the layer's formula; input gradients against
central differences; a compiled forward+backward against the eager one and torch's."""

import math
import warnings

import numpy as np
import pytest

import symgrad as sg
from symgrad import nn
from symgrad.nn.utils.stateless import functional_call
from references import central_differences

# torch 2.13's numbers (rounded to 12 decimals): after manual_seed(0),
# TransformerEncoderLayer(4, 2, 6, dropout=0.0).double() on x = sin(arange(24)).reshape(3, 2, 4)
# with the causal mask; loss = sum(out * cos(arange(24)).reshape(3, 2, 4)).
LAYER_OUT = [[[-1.377942792463, 0.496256135485, 1.29707944282, -0.415392785842],
              [-0.763077220067, -0.596370003094, -0.354191974294, 1.713639197455]],
             [[1.107623251448, 0.833063451541, -0.65730286684, -1.283383836149],
              [-1.668218989966, 0.121305051186, 0.827407047651, 0.719506891129]],
             [[0.460236087457, -0.78530266533, -1.086187076813, 1.411253654686],
              [0.755917745752, 1.050208105416, -0.313761597653, -1.492364253514]]]
LAYER_X_GRAD = [[[1.759366795512, 1.190640601359, -0.406216311404, -3.140640873991],
                 [-0.917487170668, 0.410073048263, 1.022488883372, -0.12910661617]],
                [[0.330967468036, -0.333654196678, -0.555357227799, 0.877852277085],
                 [-0.234465592611, 0.832250627157, 0.261471421131, -0.996614331099]],
                [[-2.806711664128, -0.179259742119, 1.773568242503, 2.135197219374],
                 [0.67952133023, -0.629456647536, -0.730497668536, 0.361424639429]]]
LAYER_W1_GRAD = [[0.045432179432, 0.017318586443, -0.022158761119, -0.040592004755],
                 [0.158443964581, -1.05544955913, -0.424420381096, 1.321425975645],
                 [0.0, 0.0, 0.0, 0.0],
                 [0.781252366628, 0.032862283105, -0.475332849239, -0.338781800494],
                 [0.302370942981, -1.193599563407, -0.501772313414, 1.39300093384],
                 [0.089799942562, 0.340055028451, 0.055571937063, -0.485426908076]]
# after manual_seed(0), Transformer(4, 2, 1, 1, 6, dropout=0.0): xavier_uniform_ redraws
TRANSFORMER_FIRST = [0.051152389497, 0.076464138925, -0.481415212154, 0.048125278205]
TRANSFORMER_DEC_LIN = [-0.058652240783, -0.391161441803, 0.156570672989, 0.294159948826,
                       0.616051435471, 0.601383090019]
NESTED_WARNING = ("enable_nested_tensor is True, but self.use_nested_tensor is False because "
                  "encoder_layer.{}")


def _stored_layer():
    sg.manual_seed(0)
    layer = nn.TransformerEncoderLayer(4, 2, 6, dropout=0.0).double()
    x = sg.sin(sg.arange(24, dtype=sg.float64)).reshape(3, 2, 4).requires_grad_()
    mask = nn.Transformer.generate_square_subsequent_mask(3).double()
    return layer, x, mask, sg.cos(sg.arange(24.0).reshape(3, 2, 4).double())


def test_encoder_layer_gives_torchs_stored_values():
    layer, x, mask, w = _stored_layer()
    out = layer(x, src_mask=mask)
    (out * w).sum().backward()
    np.testing.assert_allclose(out.detach().numpy(), LAYER_OUT, rtol=0, atol=2e-12)
    np.testing.assert_allclose(x.grad.numpy(), LAYER_X_GRAD, rtol=0, atol=2e-12)
    np.testing.assert_allclose(layer.linear1.weight.grad.numpy(), LAYER_W1_GRAD, rtol=0,
                               atol=2e-12)
    sg.manual_seed(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t = nn.Transformer(4, 2, 1, 1, 6, dropout=0.0)
    np.testing.assert_allclose(t.encoder.layers[0].self_attn.in_proj_weight.detach().numpy()[0],
                               TRANSFORMER_FIRST, rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(t.decoder.layers[0].linear2.weight.detach().numpy()[0],
                               TRANSFORMER_DEC_LIN, rtol=1e-7, atol=1e-9)


def _np_layer_norm(x, w, b, eps=1e-5):
    mu = x.mean(-1, keepdims=True)
    var = ((x - mu) ** 2).mean(-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * w + b


def _np_self_attention(x, p, prefix, heads, mask):
    """(L, N, E) self-attention with an additive (L, L) mask, one head at a time."""
    e = x.shape[-1]
    d = e // heads
    w_in, b_in = p[prefix + "in_proj_weight"], p[prefix + "in_proj_bias"]
    q, k, v = (x @ w_in[i * e:(i + 1) * e].T + b_in[i * e:(i + 1) * e] for i in range(3))
    out = np.zeros_like(x)
    for h in range(heads):
        sl = slice(h * d, (h + 1) * d)
        s = np.einsum("lnd,snd->nls", q[..., sl], k[..., sl]) / math.sqrt(d) + mask
        s = np.exp(s - s.max(-1, keepdims=True))
        s /= s.sum(-1, keepdims=True)
        out[..., sl] = np.einsum("nls,snd->lnd", s, v[..., sl])
    return out @ p[prefix + "out_proj.weight"].T + p[prefix + "out_proj.bias"]


def _np_encoder_layer(x, p, heads, mask, norm_first, act):
    def ln(i, t):
        return _np_layer_norm(t, p[f"norm{i}.weight"], p[f"norm{i}.bias"])

    def ff(t):
        return act(t @ p["linear1.weight"].T + p["linear1.bias"]) @ p["linear2.weight"].T \
            + p["linear2.bias"]
    if norm_first:
        x = x + _np_self_attention(ln(1, x), p, "self_attn.", heads, mask)
        return x + ff(ln(2, x))
    x = ln(1, x + _np_self_attention(x, p, "self_attn.", heads, mask))
    return ln(2, x + ff(x))


def _np_gelu(t):
    from math import erf
    return t * 0.5 * (1 + np.vectorize(erf)(t / math.sqrt(2)))


@pytest.mark.parametrize("norm_first", [False, True])
@pytest.mark.parametrize("activation", ["relu", "gelu"])
def test_encoder_layer_matches_numpy_formula(norm_first, activation):
    sg.manual_seed(5)
    layer = nn.TransformerEncoderLayer(6, 3, 10, dropout=0.0, activation=activation,
                                       norm_first=norm_first).double()
    with sg.no_grad():
        for name, p in layer.named_parameters():
            if name.endswith("bias"):
                p.copy_(sg.tensor(np.sin(np.arange(p.numel()) + len(name))))
    x = np.cos(np.arange(48.0) * 0.3).reshape(4, 2, 6)
    mask = nn.Transformer.generate_square_subsequent_mask(4).double()
    p = {k: v.detach().numpy() for k, v in layer.named_parameters()}
    act = (lambda t: np.maximum(t, 0)) if activation == "relu" else _np_gelu
    want = _np_encoder_layer(x, p, 3, mask.numpy(), norm_first, act)
    got = layer(sg.tensor(x), src_mask=mask)
    np.testing.assert_allclose(got.detach().numpy(), want, rtol=1e-11, atol=1e-12)
    causal = layer(sg.tensor(x), src_mask=mask, is_causal=True)
    np.testing.assert_allclose(causal.detach().numpy(), want, rtol=1e-11, atol=1e-12)


def test_decoder_layer_gradient_matches_central_differences():
    sg.manual_seed(3)
    layer = nn.TransformerDecoderLayer(4, 2, 6, dropout=0.0, norm_first=True).double()
    memory = sg.tensor(np.sin(np.arange(16.0)).reshape(2, 2, 4))
    mask = nn.Transformer.generate_square_subsequent_mask(3).double()
    w = sg.tensor(np.cos(np.arange(24.0)).reshape(3, 2, 4))

    def loss(x):
        return (layer(x, memory, tgt_mask=mask) * w).sum()
    x0 = np.cos(np.arange(24.0) * 0.7).reshape(3, 2, 4)
    x = sg.tensor(x0, requires_grad=True)
    loss(x).backward()
    np.testing.assert_allclose(x.grad.numpy(), central_differences(loss, x0), rtol=1e-6,
                               atol=1e-8)


STACKS = {
    "encoder": lambda T: T.nn.TransformerEncoder(
        T.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.1), 2, T.nn.LayerNorm(8),
        enable_nested_tensor=False),
    "encoder_prenorm_gelu_bf": lambda T: T.nn.TransformerEncoder(
        T.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.2, activation="gelu",
                                     batch_first=True, norm_first=True), 2,
        enable_nested_tensor=False),
    "encoder_nobias_module_act": lambda T: T.nn.TransformerEncoder(
        T.nn.TransformerEncoderLayer(8, 4, 12, dropout=0.0, bias=False,
                                     activation=T.nn.GELU()), 1, enable_nested_tensor=False),
    "decoder": lambda T: T.nn.TransformerDecoder(
        T.nn.TransformerDecoderLayer(8, 2, 16, dropout=0.1), 2, T.nn.LayerNorm(8)),
    "transformer": lambda T: T.nn.Transformer(8, 2, 2, 1, 16, dropout=0.1, batch_first=True),
}


def _call(T, name, model, train: bool):
    g = np.random.default_rng(8)
    bf = name.endswith("bf") or name == "transformer"

    def data(length):
        shape = (2, length, 8) if bf else (length, 2, 8)
        return T.tensor(g.standard_normal(shape).astype(np.float32), requires_grad=True)
    src, tgt = data(5), data(4)
    kpm = T.tensor(np.array([[False] * 5, [False] * 3 + [True] * 2]))
    tmask = T.nn.Transformer.generate_square_subsequent_mask(4)
    model.train(train)
    T.manual_seed(11)
    if name.startswith("encoder"):
        out = model(src, mask=T.nn.Transformer.generate_square_subsequent_mask(5),
                    src_key_padding_mask=None if name == "encoder" else kpm)
    elif name == "decoder":
        out = model(tgt, src, tgt_mask=tmask, memory_key_padding_mask=kpm)
    else:
        out = model(src, tgt, tgt_mask=tmask, src_key_padding_mask=kpm,
                    memory_key_padding_mask=kpm)
    (out * out).sum().backward()
    grads = [src.grad.numpy()] + [p.grad.numpy() for p in model.parameters()
                                  if p.grad is not None]
    return out.detach().numpy(), grads


@pytest.mark.filterwarnings("ignore:Support for mismatched src_key_padding_mask")
@pytest.mark.parametrize("train", [True, False])
@pytest.mark.parametrize("name", sorted(STACKS))
def test_stacks_like_torch(name, train):
    torch = pytest.importorskip("torch")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.manual_seed(0)
        theirs = STACKS[name](torch)
        sg.manual_seed(0)
        mine = STACKS[name](sg)
    assert repr(mine) == repr(theirs)
    want_sd, got_sd = theirs.state_dict(), mine.state_dict()
    assert list(got_sd) == list(want_sd)
    for k in want_sd:
        np.testing.assert_array_equal(got_sd[k].numpy(), want_sd[k].numpy(), err_msg=k)
    want, got = _call(torch, name, theirs, train), _call(sg, name, mine, train)
    np.testing.assert_allclose(got[0], want[0], rtol=1e-5, atol=2e-6)
    assert len(got[1]) == len(want[1])
    for a, b in zip(got[1], want[1]):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=2e-5)


def test_layers_are_deep_copies_with_the_same_start():
    sg.manual_seed(0)
    layer = nn.TransformerEncoderLayer(4, 2, 8)
    enc = nn.TransformerEncoder(layer, 3, enable_nested_tensor=False)
    first, second = enc.layers[0], enc.layers[1]
    assert first is not layer and first.linear1.weight is not layer.linear1.weight
    np.testing.assert_array_equal(second.linear1.weight.detach().numpy(),
                                  layer.linear1.weight.detach().numpy())
    with sg.no_grad():
        first.linear1.weight.add_(1.0)
    assert not np.array_equal(first.linear1.weight.detach().numpy(),
                              second.linear1.weight.detach().numpy())
    assert len(list(enc.parameters())) == 3 * len(list(layer.parameters()))


def test_nested_tensor_warnings_are_torchs():
    cases = [(dict(norm_first=True), "norm_first was True"),
             (dict(), "self_attn.batch_first was not True(use batch_first for better "
                      "inference performance)"),
             (dict(batch_first=True, bias=False), "self_attn was passed bias=False"),
             (dict(batch_first=True, activation=lambda t: t), "activation_relu_or_gelu was "
                                                              "not True"),
             (dict(batch_first=True, nhead=1), "self_attn.num_heads is odd")]
    for kw, why in cases:
        kw = dict(kw)
        layer = nn.TransformerEncoderLayer(4, kw.pop("nhead", 2), 8, **kw)
        with pytest.warns(UserWarning) as record:
            enc = nn.TransformerEncoder(layer, 1)
        assert [str(r.message) for r in record] == [NESTED_WARNING.format(why)]
        assert enc.use_nested_tensor is False and enc.enable_nested_tensor is True
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert nn.TransformerEncoder(nn.TransformerEncoderLayer(4, 2, 8, batch_first=True),
                                     1).use_nested_tensor is True
        nn.TransformerEncoder(layer, 1, enable_nested_tensor=False)


def test_nested_tensor_warnings_like_torch():
    torch = pytest.importorskip("torch")
    for kw in (dict(norm_first=True), dict(), dict(batch_first=True, bias=False)):
        messages = []
        for T in (torch, sg):
            with warnings.catch_warnings(record=True) as record:
                warnings.simplefilter("always")
                T.nn.TransformerEncoder(T.nn.TransformerEncoderLayer(4, 2, 8, **kw), 1)
            messages.append([str(r.message) for r in record])
        assert messages[0] == messages[1]


def _padded_batch():
    x = np.sin(np.arange(24.0)).reshape(2, 3, 4).astype(np.float32)
    return x, np.array([[False, False, False], [False, False, True]])


def _eval_encoder(T):
    T.manual_seed(0)
    enc = T.nn.TransformerEncoder(T.nn.TransformerEncoderLayer(4, 2, 8, batch_first=True), 2)
    return enc.eval()


def test_eval_with_padding_mask_zeroes_padded_positions_as_torchs_fast_path():
    """torch runs an eval-mode batch-first encoder without gradients on nested tensors
    when given a padding mask: padded positions come out 0 (before the final norm)."""
    enc = _eval_encoder(sg)
    x, kpm = (sg.tensor(a) for a in _padded_batch())
    with sg.no_grad(), pytest.warns(UserWarning, match="nested tensors is in prototype stage"):
        fast = enc(x, src_key_padding_mask=kpm)
    slow = enc(x, src_key_padding_mask=kpm)           # gradients wanted: the slow path
    assert np.all(fast.numpy()[1, 2] == 0) and not np.all(slow.detach().numpy()[1, 2] == 0)
    np.testing.assert_array_equal(fast.numpy()[0], slow.detach().numpy()[0])
    np.testing.assert_array_equal(fast.numpy()[1, :2], slow.detach().numpy()[1, :2])


def test_eval_with_padding_mask_like_torch():
    torch = pytest.importorskip("torch")
    x, kpm = _padded_batch()
    with sg.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = _eval_encoder(sg)(sg.tensor(x), src_key_padding_mask=sg.tensor(kpm))
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = _eval_encoder(torch)(torch.tensor(x), src_key_padding_mask=torch.tensor(kpm))
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-5, atol=1e-6)
    assert np.all(want.numpy()[1, 2] == 0)


def test_masks_and_errors():
    mask = nn.Transformer.generate_square_subsequent_mask(3)
    assert mask.dtype is sg.float32
    np.testing.assert_array_equal(mask.numpy(), [[0, -np.inf, -np.inf], [0, 0, -np.inf],
                                                 [0, 0, 0]])
    assert nn.Transformer.generate_square_subsequent_mask(2, dtype=sg.float64).dtype is \
        sg.float64
    with pytest.raises(RuntimeError, match="activation should be relu/gelu, not tanh"):
        nn.TransformerEncoderLayer(4, 2, activation="tanh")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t = nn.Transformer(4, 2, 1, 1, 8)
    with pytest.raises(RuntimeError, match="the batch number of src and tgt must be equal"):
        t(sg.zeros(3, 2, 4), sg.zeros(3, 1, 4))
    with pytest.raises(RuntimeError, match="the feature number of src and tgt must be equal "
                                           "to d_model"):
        t(sg.zeros(3, 2, 4), sg.zeros(3, 2, 5))


def _compiled_encoder_layer():
    """value_and_grad of a small encoder layer (parameters as arguments through
    functional_call, a causal mask), traced and compiled: its loss and gradients."""
    sg.manual_seed(0)
    layer = nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, batch_first=True)
    x = np.sin(np.arange(80.0) * 0.37).reshape(2, 5, 8).astype(np.float32)
    mask = nn.Transformer.generate_square_subsequent_mask(5)

    def loss_fn(params, x):
        out = functional_call(layer, params, (x,), {"src_mask": mask, "is_causal": True})
        return (out * out).mean()
    params = {k: p.detach().numpy() for k, p in layer.named_parameters()}
    loss, grads = sg.value_and_grad(loss_fn)(params, x)
    return layer, x, mask, float(loss), grads


def test_compiled_encoder_layer_forward_and_backward_equal_eager():
    layer, x, mask, loss, grads = _compiled_encoder_layer()
    eager = (layer(sg.tensor(x), src_mask=mask, is_causal=True) ** 2).mean()
    eager.backward()
    assert abs(loss - eager.item()) < 1e-6
    for k, p in layer.named_parameters():
        np.testing.assert_allclose(grads[k], p.grad.numpy(), rtol=1e-4, atol=1e-6, err_msg=k)
    forward = sg.compile(lambda x: layer(x, src_mask=mask))
    np.testing.assert_allclose(np.asarray(forward(x)),
                               layer(sg.tensor(x), src_mask=mask).detach().numpy(),
                               rtol=1e-5, atol=1e-6)


def test_compiled_encoder_layer_gradients_are_torchs():
    torch = pytest.importorskip("torch")
    _, x, _, loss, grads = _compiled_encoder_layer()
    torch.manual_seed(0)
    theirs = torch.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, batch_first=True)
    want = (theirs(torch.tensor(x), src_mask=torch.nn.Transformer
                   .generate_square_subsequent_mask(5), is_causal=True) ** 2).mean()
    want.backward()
    assert abs(loss - want.item()) < 1e-6
    for k, p in theirs.named_parameters():
        np.testing.assert_allclose(grads[k], p.grad.numpy(), rtol=1e-4, atol=1e-6, err_msg=k)
