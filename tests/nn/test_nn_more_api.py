"""The API of the added activations, losses and distances beyond values and gradients: result
dtypes of every loss for mixed float32/float64 operands and the errors torch raises (both as
torch 2.13 gives them, stored here, and checked against torch itself when it is installed);
the in-place forms; rrelu's and gumbel_softmax's random streams (stored numbers torch printed
after ``manual_seed``, and torch itself); what compiles and what is refused inside
``@symgrad.compile``; the modules' reprs, parameters and forward.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import symgrad as sg

def _x(m, dt, *shape):
    return (m.arange(1, 1 + 12, dtype=dt) / 13).reshape(shape or (4, 3))


def _pm(m, dt):
    return m.tensor([[1., -1, 1], [-1, 1, 1], [1, 1, -1], [-1, -1, 1]], dtype=dt)


def _F(m):
    return m.nn.functional


DTYPE_CASES = [
    ("mse_loss", lambda m, a, b: _F(m).mse_loss(_x(m, a), _x(m, b).flip(0))),
    ("l1_loss", lambda m, a, b: _F(m).l1_loss(_x(m, a), _x(m, b).flip(0))),
    ("smooth_l1_loss", lambda m, a, b: _F(m).smooth_l1_loss(_x(m, a), _x(m, b).flip(0))),
    ("huber_loss", lambda m, a, b: _F(m).huber_loss(_x(m, a), _x(m, b).flip(0))),
    ("huber_loss_none", lambda m, a, b: _F(m).huber_loss(_x(m, a), _x(m, b).flip(0), "none")),
    ("kl_div", lambda m, a, b: _F(m).kl_div(_x(m, a), _x(m, b), reduction="batchmean")),
    ("binary_cross_entropy", lambda m, a, b: _F(m).binary_cross_entropy(_x(m, a), _x(m, b))),
    ("binary_cross_entropy_weight", lambda m, a, b: _F(m).binary_cross_entropy(
        _x(m, a), _x(m, a).flip(0), weight=_x(m, b))),
    ("bce_with_logits", lambda m, a, b: _F(m).binary_cross_entropy_with_logits(
        _x(m, a), _x(m, b))),
    ("bce_with_logits_weight", lambda m, a, b: _F(m).binary_cross_entropy_with_logits(
        _x(m, a), _x(m, a), weight=_x(m, b))),
    ("bce_with_logits_pos_weight", lambda m, a, b: _F(m).binary_cross_entropy_with_logits(
        _x(m, a), _x(m, a), pos_weight=_x(m, b)[0])),
    ("cross_entropy_probs", lambda m, a, b: _F(m).cross_entropy(_x(m, a), _x(m, b))),
    ("cross_entropy_probs_weight", lambda m, a, b: _F(m).cross_entropy(
        _x(m, a), _x(m, a), weight=_x(m, b)[0])),
    ("cross_entropy_weight", lambda m, a, b: _F(m).cross_entropy(
        _x(m, a), m.tensor([0, 2, 1, 1]), weight=_x(m, b)[0])),
    ("nll_loss_weight", lambda m, a, b: _F(m).nll_loss(
        _x(m, a), m.tensor([0, 2, 1, 1]), weight=_x(m, b)[0])),
    ("soft_margin_loss", lambda m, a, b: _F(m).soft_margin_loss(_x(m, a), _pm(m, b))),
    ("poisson_nll_loss", lambda m, a, b: _F(m).poisson_nll_loss(_x(m, a), _x(m, b))),
    ("gaussian_nll_loss", lambda m, a, b: _F(m).gaussian_nll_loss(_x(m, a), _x(m, b),
                                                                  _x(m, a))),
    ("gaussian_nll_loss_var", lambda m, a, b: _F(m).gaussian_nll_loss(_x(m, a), _x(m, a),
                                                                      _x(m, b))),
    ("multilabel_soft_margin_loss", lambda m, a, b: _F(m).multilabel_soft_margin_loss(
        _x(m, a), _x(m, b).round())),
    ("hinge_embedding_loss", lambda m, a, b: _F(m).hinge_embedding_loss(_x(m, a), _pm(m, b))),
    ("margin_ranking_loss", lambda m, a, b: _F(m).margin_ranking_loss(
        _x(m, a)[:, 0], _x(m, b)[:, 1], _pm(m, a)[:, 0])),
    ("margin_ranking_loss_target", lambda m, a, b: _F(m).margin_ranking_loss(
        _x(m, a)[:, 0], _x(m, a)[:, 1], _pm(m, b)[:, 0])),
    ("cosine_embedding_loss", lambda m, a, b: _F(m).cosine_embedding_loss(
        _x(m, a), _x(m, b), _pm(m, a)[:, 0])),
    ("cosine_embedding_loss_target", lambda m, a, b: _F(m).cosine_embedding_loss(
        _x(m, a), _x(m, a).flip(0), _pm(m, b)[:, 0])),
    ("triplet_margin_loss", lambda m, a, b: _F(m).triplet_margin_loss(
        _x(m, a), _x(m, b), _x(m, a).flip(0))),
    ("multi_margin_loss_weight", lambda m, a, b: _F(m).multi_margin_loss(
        _x(m, a), m.tensor([0, 2, 1, 1]), weight=_x(m, b)[0])),
    ("pairwise_distance", lambda m, a, b: _F(m).pairwise_distance(_x(m, a), _x(m, b))),
    ("prelu", lambda m, a, b: _F(m).prelu(_x(m, a), _x(m, b)[0, :1])),
]


# what torch 2.13 gives for (float32, float64) and (float64, float32) operands
DTYPES = {
    'mse_loss': ('float64', 'float64'),
    'l1_loss': ('float64', 'float64'),
    'smooth_l1_loss': ('float64', 'float64'),
    'huber_loss': ('float32', 'float64'),
    'huber_loss_none': ('float32', 'float64'),
    'kl_div': ('float64', 'float64'),
    'binary_cross_entropy': (
        'RuntimeError: Found dtype Double but expected Float',
        'RuntimeError: Found dtype Float but expected Double'),
    'binary_cross_entropy_weight': ('float32', 'float64'),
    'bce_with_logits': ('float64', 'float32'),
    'bce_with_logits_weight': ('float32', 'float64'),
    'bce_with_logits_pos_weight': ('float32', 'float64'),
    'cross_entropy_probs': ('float64', 'float64'),
    'cross_entropy_probs_weight': ('float64', 'float64'),
    'cross_entropy_weight': (
        'RuntimeError: expected scalar type Float but found Double',
        'RuntimeError: expected scalar type Double but found Float'),
    'nll_loss_weight': (
        'RuntimeError: expected scalar type Float but found Double',
        'RuntimeError: expected scalar type Double but found Float'),
    'soft_margin_loss': ('float32', 'float64'),
    'poisson_nll_loss': ('float64', 'float64'),
    'gaussian_nll_loss': ('float64', 'float64'),
    'gaussian_nll_loss_var': ('float64', 'float64'),
    'multilabel_soft_margin_loss': ('float64', 'float64'),
    'hinge_embedding_loss': ('float32', 'float64'),
    'margin_ranking_loss': ('float64', 'float64'),
    'margin_ranking_loss_target': ('float64', 'float64'),
    'cosine_embedding_loss': ('float64', 'float64'),
    'cosine_embedding_loss_target': ('float32', 'float64'),
    'triplet_margin_loss': ('float64', 'float64'),
    'multi_margin_loss_weight': (
        'RuntimeError: expected scalar type Float but found Double',
        'RuntimeError: expected scalar type Double but found Float'),
    'pairwise_distance': ('float64', 'float64'),
    'prelu': (
        'RuntimeError: prelu: Type promoting not supported. Got Float and Double',
        'RuntimeError: prelu: Type promoting not supported. Got Double and Float'),
}


def _result(m, fn, a, b):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return str(fn(m, a, b).dtype).replace("torch.", "")
        except RuntimeError as e:
            return f"RuntimeError: {e}"


@pytest.mark.parametrize("name,fn", DTYPE_CASES, ids=[n for n, _ in DTYPE_CASES])
def test_mixed_dtype_results_are_torchs(name, fn):
    got = tuple(_result(sg, fn, a, b) for a, b in ((sg.float32, sg.float64),
                                                   (sg.float64, sg.float32)))
    assert got == DTYPES[name]


@pytest.mark.parametrize("name,fn", DTYPE_CASES, ids=[n for n, _ in DTYPE_CASES])
def test_mixed_dtype_values_match_torch(name, fn):
    torch = pytest.importorskip("torch")
    for pair in ((0, 1), (1, 0)):
        dts = [(sg.float32, sg.float64)[i] for i in pair]
        tdts = [(torch.float32, torch.float64)[i] for i in pair]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                theirs = fn(torch, *tdts)
            except RuntimeError:
                continue
            mine = fn(sg, *dts)
        np.testing.assert_allclose(mine.numpy(), theirs.numpy(), rtol=1e-6, atol=1e-7)


def test_mixed_dtype_gradients_have_each_operands_dtype():
    x = sg.tensor([0.3, -1.2, 2.0], requires_grad=True)
    y = sg.tensor([0.5, 0.25, -1.0], dtype=sg.float64, requires_grad=True)
    for loss in (sg.nn.functional.mse_loss(x, y), sg.nn.functional.smooth_l1_loss(x, y),
                 sg.nn.functional.binary_cross_entropy_with_logits(x, y.sigmoid())):
        x.grad = y.grad = None
        loss.backward()
        assert x.grad.dtype is sg.float32 and y.grad.dtype is sg.float64


@pytest.mark.parametrize("first,second", [("float32", "float64"), ("float64", "float32")])
def test_huber_backward_with_two_dtypes_is_torchs_error(first, second):
    names = {"float32": "Float", "float64": "Double"}
    x = sg.tensor([0.3, -1.2, 2.0], dtype=getattr(sg, first), requires_grad=True)
    y = sg.tensor([0.5, 0.25, -1.0], dtype=getattr(sg, second))
    loss = sg.nn.functional.huber_loss(x, y)
    assert loss.dtype is getattr(sg, first)
    with pytest.raises(RuntimeError, match=f"Found dtype {names[second]} but expected "
                                           f"{names[first]}"):
        loss.backward()


# ---------------------------------------------------------------- errors

ERRORS = [
    ('celu_alpha0', lambda m, F, x, y, t: F.celu(x, 0.0),
     RuntimeError, 'ZeroDivisionError: alpha cannot be 0 for CELU'),
    ('softshrink_neg', lambda m, F, x, y, t: F.softshrink(x, -1.0),
     RuntimeError, 'lambda must be in range [0, 3.40282e+38] for input dtype Float, but found -1'),
    ('softshrink_neg64', lambda m, F, x, y, t: F.softshrink(x.double(), -0.5),
     RuntimeError,
     'lambda must be in range [0, 1.79769e+308] for input dtype Double, but found -0.5'),
    ('int_celu', lambda m, F, x, y, t: F.celu(m.tensor([1, 2])),
     NotImplementedError, '"elu_cpu" not implemented for \'Long\''),
    ('int_mish', lambda m, F, x, y, t: F.mish(m.tensor([1, 2])),
     NotImplementedError, '"mish_cpu" not implemented for \'Long\''),
    ('int_logsigmoid', lambda m, F, x, y, t: F.logsigmoid(m.tensor([1, 2])),
     NotImplementedError, '"log_sigmoid_cpu" not implemented for \'Long\''),
    ('int_hardswish', lambda m, F, x, y, t: F.hardswish(m.tensor([1, 2])),
     NotImplementedError, '"hardswish_cpu" not implemented for \'Long\''),
    ('int_glu', lambda m, F, x, y, t: F.glu(m.tensor([1, 2])),
     NotImplementedError, '"glu_cpu" not implemented for \'Long\''),
    ('rrelu_bounds', lambda m, F, x, y, t: F.rrelu(x, 0.5, 0.1),
     RuntimeError, 'Lower bound should be less than or equal to the upper bound'),
    ('rrelu_int_eval', lambda m, F, x, y, t: F.rrelu(m.tensor([1, -2])),
     NotImplementedError, '"leaky_relu_cpu" not implemented for \'Long\''),
    ('rrelu_int_train', lambda m, F, x, y, t: F.rrelu(m.tensor([1, -2]), training=True),
     NotImplementedError, '"rrelu_with_noise_out_cpu" not implemented for \'Long\''),
    ('glu_0d', lambda m, F, x, y, t: F.glu(m.tensor(1.)),
     RuntimeError, 'glu does not support scalars because halving size must be even'),
    ('glu_odd', lambda m, F, x, y, t: F.glu(x),
     RuntimeError, 'Halving dimension must be even, but dimension 1 is size 3'),
    ('prelu_dtype', lambda m, F, x, y, t: F.prelu(x, m.ones(1, dtype=m.float64)),
     RuntimeError, 'prelu: Type promoting not supported. Got Float and Double'),
    ('prelu_count', lambda m, F, x, y, t: F.prelu(x, m.ones(2)),
     RuntimeError,
     'Mismatch of parameter numbers and input channel size. Found parameter numbers = 2 and '
     'channel size = 3.'),
    ('prelu_2d_weight', lambda m, F, x, y, t: F.prelu(x, m.ones(1, 1)),
     RuntimeError, 'prelu: Expected `weight` to be a scalar or 1D tensor, but got: ndim = 2'),
    ('prelu_0d_input', lambda m, F, x, y, t: F.prelu(m.tensor(1.), m.ones(2)),
     RuntimeError, 'Not allow zero-dim input tensor.'),
    ('prelu_int', lambda m, F, x, y, t: F.prelu(m.tensor([1, 2]), m.tensor([1])),
     NotImplementedError, '"prelu_cpu" not implemented for \'Long\''),
    ('soft_margin_target_grad', lambda m, F, x, y, t: F.soft_margin_loss(x, y.requires_grad_()),
     RuntimeError,
     "The function 'soft_margin_loss' is not differentiable with respect to argument "
     "'target'. This input cannot have requires_grad True."),
    ('margin_ranking_dims', lambda m, F, x, y, t: F.margin_ranking_loss(x[:, 0], y, x[:, 0]),
     RuntimeError,
     'margin_ranking_loss : All input tensors should have same dimension but got sizes: '
     'input1: torch.Size([4]), input2: torch.Size([4, 3]), target: torch.Size([4]) '),
    ('cosine_2d_target', lambda m, F, x, y, t: F.cosine_embedding_loss(x, y, m.ones(4, 3)),
     RuntimeError, '0D or 1D target tensor expected, multi-target not supported'),
    ('cosine_1d_inputs', lambda m, F, x, y, t: F.cosine_embedding_loss(x[0], y[0], m.ones(4)),
     RuntimeError,
     '1D target tensor expects 2D input tensors, but found inputs with sizes [3] and [3].'),
    ('cosine_0d_target', lambda m, F, x, y, t: F.cosine_embedding_loss(x, y, m.tensor(1.)),
     RuntimeError,
     '0D target tensor expects 1D input tensors, but found inputs with sizes [4, 3] and [4, '
     '3].'),
    ('triplet_dims', lambda m, F, x, y, t: F.triplet_margin_loss(x, y[0], y),
     RuntimeError,
     'The anchor, positive, and negative tensors are expected to have the same number of '
     'dimensions, but got: anchor 2D, positive 1D, and negative 2D inputs'),
    ('triplet_margin', lambda m, F, x, y, t: F.triplet_margin_loss(x, y, y, margin=0),
     ValueError, 'margin must be greater than 0, got 0'),
    ('triplet_wd_reduction',
     lambda m, F, x, y, t: F.triplet_margin_with_distance_loss(x, y, y, reduction='bad'),
     ValueError, 'bad is not a valid value for reduction'),
    ('triplet_wd_margin',
     lambda m, F, x, y, t: F.triplet_margin_with_distance_loss(x, y, y, margin=-1.0),
     ValueError, 'margin must be greater than 0, got -1.0'),
    ('multi_margin_p', lambda m, F, x, y, t: F.multi_margin_loss(x, t, p=3),
     ValueError, 'only p == 1 and p == 2 supported'),
    ('multi_margin_w2d', lambda m, F, x, y, t: F.multi_margin_loss(x, t, weight=m.ones(1, 3)),
     ValueError, 'weight must be one-dimensional'),
    ('multi_margin_wsize', lambda m, F, x, y, t: F.multi_margin_loss(x, t, weight=m.ones(4)),
     RuntimeError, 'inconsistent weight size, expected 3 but got [4]'),
    ('multi_margin_tsize', lambda m, F, x, y, t: F.multi_margin_loss(x, t[:3]),
     RuntimeError,
     'multi_margin_loss: target tensor should be 1-D with size equal to the number of input '
     'samples (batch size). Expected target size [4], but got [3]. Input has shape [4, 3].'),
    ('multi_margin_3d', lambda m, F, x, y, t: F.multi_margin_loss(m.ones(2, 3, 4), t),
     RuntimeError,
     'Expected non-empty vector or matrix with optional 0-dim batch size, but got: [2, 3, 4]'),
    ('multi_margin_range', lambda m, F, x, y, t: F.multi_margin_loss(x, m.tensor([0, 3, 1, 1])),
     RuntimeError, 'target out of range'),
    ('multi_margin_float_t', lambda m, F, x, y, t: F.multi_margin_loss(x, t.float()),
     RuntimeError, 'expected scalar type Long but found Float'),
    ('multi_margin_wdtype',
     lambda m, F, x, y, t: F.multi_margin_loss(x, t, weight=m.ones(3, dtype=m.float64)),
     RuntimeError, 'expected scalar type Float but found Double'),
    ('multilabel_size',
     lambda m, F, x, y, t: F.multilabel_margin_loss(x, m.zeros(4, 2, dtype=m.long)),
     RuntimeError, 'inconsistent target size: [4, 2] for input of size: [4, 3]'),
    ('multilabel_range', lambda m, F, x, y, t: F.multilabel_margin_loss(x, m.full((4, 3), 3)),
     RuntimeError, "argument #2 'target' is out of range"),
    ('multilabel_float_t', lambda m, F, x, y, t: F.multilabel_margin_loss(x, m.zeros(4, 3)),
     RuntimeError, 'expected scalar type Long but found Float'),
    ('mlsm_reduction', lambda m, F, x, y, t: F.multilabel_soft_margin_loss(x, y, reduction='bad'),
     ValueError, 'bad is not valid'),
    ('poisson_reduction', lambda m, F, x, y, t: F.poisson_nll_loss(x, y, reduction='bad'),
     ValueError, 'bad is not a valid value for reduction'),
    ('gauss_neg_float', lambda m, F, x, y, t: F.gaussian_nll_loss(x, y, -1.0),
     ValueError, 'var has negative entry/entries'),
    ('gauss_neg_tensor', lambda m, F, x, y, t: F.gaussian_nll_loss(x, y, -m.ones(4, 3)),
     ValueError, 'var has negative entry/entries'),
    ('gauss_size', lambda m, F, x, y, t: F.gaussian_nll_loss(x, y, m.ones(3, 1)),
     ValueError, 'var is of incorrect size'),
    ('gauss_reduction',
     lambda m, F, x, y, t: F.gaussian_nll_loss(x, y, m.ones(4, 3), reduction='bad'),
     ValueError, 'bad is not valid'),
    ('pdist_1d', lambda m, F, x, y, t: F.pdist(m.ones(3)),
     RuntimeError, 'pdist only supports 2D tensors, got: 1D'),
    ('pdist_int', lambda m, F, x, y, t: F.pdist(m.ones(3, 2, dtype=m.long)),
     RuntimeError, 'pdist only supports floating-point dtypes'),
    ('pdist_p', lambda m, F, x, y, t: F.pdist(x, -1),
     RuntimeError, 'pdist only supports non-negative p values'),
    ('bce_dtypes', lambda m, F, x, y, t: F.binary_cross_entropy(x * 0.5, y.double() * 0.5),
     RuntimeError, 'Found dtype Double but expected Float'),
    ('bce_dtypes_rev', lambda m, F, x, y, t: F.binary_cross_entropy(x.double() * 0.5, y * 0.5),
     RuntimeError, 'Found dtype Float but expected Double'),
    ('nll_weight_dtype', lambda m, F, x, y, t: F.nll_loss(x, t, weight=m.ones(3, dtype=m.float64)),
     RuntimeError, 'expected scalar type Float but found Double'),
    ('ce_weight_dtype', lambda m, F, x, y, t: F.cross_entropy(x.double(), t, weight=m.ones(3)),
     RuntimeError, 'expected scalar type Double but found Float'),
]


def _raise(m, fn):
    F = m.nn.functional
    x, y = m.ones(4, 3), m.ones(4, 3)
    t = m.tensor([0, 2, 1, 1])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fn(m, F, x, y, t)


@pytest.mark.parametrize("name,fn,kind,message", ERRORS, ids=[e[0] for e in ERRORS])
def test_errors_are_torchs(name, fn, kind, message):
    with pytest.raises(kind) as info:
        _raise(sg, fn)
    assert str(info.value) == message


@pytest.mark.parametrize("name,fn,kind,message", ERRORS, ids=[e[0] for e in ERRORS])
def test_stored_errors_are_what_torch_raises(name, fn, kind, message):
    torch = pytest.importorskip("torch")
    with pytest.raises(kind) as info:
        _raise(torch, fn)
    assert str(info.value) == message


# ---------------------------------------------------------------- in-place forms

# name, call, torch's grad_fn of the result (an in-place node reads the result: "...1")
INPLACE = [
    ("relu_", lambda F, z: F.relu_(z), lambda F, z: F.relu(z), "ReluBackward0"),
    ("elu_", lambda F, z: F.elu_(z, 0.5), lambda F, z: F.elu(z, 0.5), "EluBackward1"),
    ("leaky_relu_", lambda F, z: F.leaky_relu_(z, 0.2), lambda F, z: F.leaky_relu(z, 0.2),
     "LeakyReluBackward1"),
    ("hardtanh_", lambda F, z: F.hardtanh_(z, -0.5, 0.8), lambda F, z: F.hardtanh(z, -0.5, 0.8),
     "HardtanhBackward0"),
    ("threshold_", lambda F, z: F.threshold_(z, 0.2, 3.0), lambda F, z: F.threshold(z, 0.2, 3.0),
     "ThresholdBackward1"),
    ("celu_", lambda F, z: F.celu_(z, 2.0), lambda F, z: F.celu(z, 2.0), "CeluBackward1"),
    ("selu_", lambda F, z: F.selu_(z), lambda F, z: F.selu(z), "EluBackward1"),
    ("rrelu_", lambda F, z: F.rrelu_(z, 0.1, 0.3), lambda F, z: F.rrelu(z, 0.1, 0.3),
     "RreluWithNoiseBackward1"),
    ("elu(inplace)", lambda F, z: F.elu(z, inplace=True), lambda F, z: F.elu(z),
     "EluBackward1"),
    ("leaky_relu(inplace)", lambda F, z: F.leaky_relu(z, inplace=True),
     lambda F, z: F.leaky_relu(z), "LeakyReluBackward1"),
    ("mish(inplace)", lambda F, z: F.mish(z, inplace=True), lambda F, z: F.mish(z),
     "MishBackward0"),
    ("hardswish(inplace)", lambda F, z: F.hardswish(z, inplace=True),
     lambda F, z: F.hardswish(z), "HardswishBackward0"),
    ("hardsigmoid(inplace)", lambda F, z: F.hardsigmoid(z, inplace=True),
     lambda F, z: F.hardsigmoid(z), "HardsigmoidBackward0"),
]
X_INPLACE = np.array([[-2.5, -0.7, 0.1, 0.45], [1.3, -0.05, 2.2, -1.6]])


def _inplace_run(m, call):
    x = m.tensor(X_INPLACE, requires_grad=True)
    z = x * 1.0
    out = call(m.nn.functional, z)
    (out * m.tensor(np.arange(8.0).reshape(2, 4))).sum().backward()
    return z, out, x.grad


@pytest.mark.parametrize("name,inplace,plain,grad_fn", INPLACE, ids=[c[0] for c in INPLACE])
def test_inplace_forms_update_their_input_as_torch(name, inplace, plain, grad_fn):
    z, out, grad = _inplace_run(sg, inplace)
    _, expected, expected_grad = _inplace_run(sg, plain)
    assert out is z and out.grad_fn.name() == grad_fn
    np.testing.assert_array_equal(out.detach().numpy(), expected.detach().numpy())
    np.testing.assert_allclose(grad.numpy(), expected_grad.numpy(), rtol=1e-15, atol=1e-15)
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used "
                                           "in an in-place operation"):
        inplace(sg.nn.functional, sg.tensor(X_INPLACE, requires_grad=True))


@pytest.mark.parametrize("name,inplace,plain,grad_fn", INPLACE, ids=[c[0] for c in INPLACE])
def test_inplace_forms_match_torch(name, inplace, plain, grad_fn):
    torch = pytest.importorskip("torch")
    _, mine, my_grad = _inplace_run(sg, inplace)
    _, theirs, their_grad = _inplace_run(torch, inplace)
    assert type(theirs.grad_fn).__name__ == grad_fn
    np.testing.assert_allclose(mine.detach().numpy(), theirs.detach().numpy(), rtol=1e-14)
    np.testing.assert_allclose(my_grad.numpy(), their_grad.numpy(), rtol=1e-14)


def test_inplace_leaky_relu_refuses_a_negative_slope_in_the_backward():
    x = sg.tensor([1.0, -2.0], requires_grad=True)
    out = sg.nn.functional.leaky_relu_(x * 1.0, -0.5)
    with pytest.raises(RuntimeError, match="In-place leakyReLu backward calculation is "
                                           "triggered with a negative slope"):
        out.sum().backward()


# ---------------------------------------------------------------- random streams

# torch 2.13 after manual_seed(0): rrelu(linspace(-2, 1, 7), training=True), in float64 and
# (lower 0.1, upper 0.3) float32; torch.rand(1, dtype=float64) drawn right after the first
RRELU64 = [-0.6541887507527304, -0.40869370762493373, -0.22070477981821893,
           -0.1584112170960375, 0.0, 0.5, 1.0]
RRELU32 = [-0.5880212187767029, -0.36234596371650696, -0.1918765902519226,
           -0.14207477867603302, 0.0, 0.5, 1.0]
RAND_AFTER = 0.7911478921803037
# torch 2.13 after manual_seed(3): gumbel_softmax of LOGITS with tau 0.5 (soft, then hard)
LOGITS = [[1.0, 2.0, 0.5], [0.0, -1.0, 3.0]]
GUMBEL = [[0.9275261206124779, 0.07228688510518659, 0.00018699428233559488],
          [0.05559618232951986, 0.0001403232481746102, 0.9442634944223055]]


def _rrelu_stream(m):
    m.manual_seed(0)
    x = m.linspace(-2, 1, 7, dtype=m.float64).requires_grad_()
    y = m.nn.functional.rrelu(x, training=True)
    after = float(m.rand(1, dtype=m.float64))
    y.backward(m.ones(7, dtype=m.float64))
    m.manual_seed(0)
    y32 = m.nn.functional.rrelu(m.linspace(-2, 1, 7), 0.1, 0.3, training=True)
    return y.detach().numpy(), x.grad.numpy(), after, y32.numpy(), y.grad_fn.name()


def test_rrelu_training_draws_torchs_slopes():
    y, grad, after, y32, name = _rrelu_stream(sg)
    assert y.tolist() == RRELU64 and y32.tolist() == RRELU32 and after == RAND_AFTER
    x = np.linspace(-2, 1, 7)
    slopes = np.where(x < 0, y / np.where(x < 0, x, 1), 1.0)
    np.testing.assert_allclose(grad[x != 0], slopes[x != 0], rtol=1e-15)
    assert np.all((slopes[x < 0] >= 1 / 8) & (slopes[x < 0] < 1 / 3))
    assert name == "RreluWithNoiseBackward0"


def test_rrelu_training_matches_torch():
    torch = pytest.importorskip("torch")
    mine, theirs = _rrelu_stream(sg), _rrelu_stream(torch)
    for a, b in zip(mine[:4], theirs[:4]):
        np.testing.assert_array_equal(a, b)


def test_rrelu_eval_is_leaky_relu_with_the_mean_slope():
    x = sg.tensor([-2.0, -0.5, 0.0, 1.5])
    np.testing.assert_array_equal(sg.nn.functional.rrelu(x, 0.1, 0.3).numpy(),
                                  sg.nn.functional.leaky_relu(x, 0.2).numpy())


def _gumbel(m, hard):
    m.manual_seed(3)
    logits = m.tensor(LOGITS, dtype=m.float64, requires_grad=True)
    y = m.nn.functional.gumbel_softmax(logits, tau=0.5, hard=hard)
    (y * m.tensor([[1.0, 2.0, 3.0], [-1.0, 0.5, 2.0]], dtype=m.float64)).sum().backward()
    return y, logits.grad.numpy()


def test_gumbel_softmax_draws_torchs_noise():
    soft, soft_grad = _gumbel(sg, False)
    np.testing.assert_allclose(soft.detach().numpy(), GUMBEL, rtol=1e-14)
    hard, hard_grad = _gumbel(sg, True)
    np.testing.assert_array_equal(hard.detach().numpy(), np.eye(3)[[0, 2]])
    np.testing.assert_allclose(hard_grad, soft_grad, rtol=1e-15)     # straight through
    assert soft.grad_fn.name() == "SoftmaxBackward0" and hard.grad_fn.name() == "AddBackward0"
    with pytest.warns(UserWarning, match="`eps` parameter is deprecated"):
        sg.nn.functional.gumbel_softmax(sg.tensor(LOGITS), eps=1e-5)


def test_gumbel_softmax_matches_torch():
    torch = pytest.importorskip("torch")
    for hard in (False, True):
        (mine, my_grad), (theirs, their_grad) = _gumbel(sg, hard), _gumbel(torch, hard)
        np.testing.assert_allclose(mine.detach().numpy(), theirs.detach().numpy(), rtol=1e-14)
        np.testing.assert_allclose(my_grad, their_grad, rtol=1e-12, atol=1e-15)


# ---------------------------------------------------------------- compiled

def test_rrelu_training_is_refused_inside_compile_and_eval_compiles():
    F = sg.nn.functional
    with pytest.raises(RuntimeError, match="rrelu in training mode inside @symgrad.compile"):
        sg.compile(lambda x: F.rrelu(x, training=True))(np.ones(3))
    out = sg.compile(lambda x: F.rrelu(x, 0.1, 0.3))(np.array([-1.0, 2.0]))
    np.testing.assert_allclose(np.asarray(out), [-0.2, 2.0], rtol=1e-15)


def test_compiled_outputs_match_eager():
    """Each added function compiles, in one function, to what it computes eagerly."""
    F = sg.nn.functional
    r = np.random.default_rng(5)
    x, y, z = (r.standard_normal((5, 4)) for _ in range(3))
    v, w = r.random((5, 4)) + 0.1, r.random(4)
    pm, t = np.where(x > y, 1.0, -1.0), np.array([0, 3, 1, 2, 2])

    def outputs(a, b, c, var, wt):
        return [F.celu(a, 0.5), F.selu(a), F.mish(a), F.hardswish(a), F.hardsigmoid(a),
                F.logsigmoid(a), F.softsign(a), F.softshrink(a, 0.3), F.hardshrink(a, 0.3),
                F.tanhshrink(a), F.threshold(a, 0.1, 2.0), F.prelu(a, wt), F.rrelu(a),
                F.glu(a), F.softmin(a, 1), F.soft_margin_loss(a, sg.tensor(pm)),
                F.poisson_nll_loss(a, b.abs()), F.gaussian_nll_loss(a, b, var, full=True),
                F.multilabel_soft_margin_loss(a, (b > 0).to(a.dtype)),
                F.hinge_embedding_loss(a, sg.tensor(pm)),
                F.margin_ranking_loss(a[:, 0], b[:, 0], sg.tensor(pm[:, 0])),
                F.cosine_embedding_loss(a, b, sg.tensor(pm[:, 0])),
                F.triplet_margin_loss(a, b, c, swap=True),
                F.triplet_margin_with_distance_loss(a, b, c),
                F.multi_margin_loss(a, sg.tensor(t), p=2, weight=wt),
                F.multilabel_margin_loss(a, sg.tensor([[0, 2, -1, 1]] * 5)),
                F.pairwise_distance(a, b, 3), F.pdist(a), F.pdist(a, math.inf)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        compiled = sg.compile(outputs)(x, y, z, v, w)
        eager = outputs(*(sg.tensor(a) for a in (x, y, z, v, w)))
    assert len(compiled) == len(eager)
    for got, want in zip(compiled, eager):
        np.testing.assert_allclose(np.asarray(got), want.numpy(), rtol=1e-13, atol=1e-15)


def test_inplace_forms_compile_with_their_gradients():
    F = sg.nn.functional

    def forms(x):
        return [F.relu_(x * 1.0), F.elu_(x * 1.0, 0.5), F.leaky_relu_(x * 1.0, 0.2),
                F.hardtanh_(x * 1.0), F.threshold_(x * 1.0, 0.1, 2.0), F.celu_(x * 1.0, 0.5),
                F.selu_(x * 1.0), F.rrelu_(x * 1.0)]
    x = np.linspace(-2, 2, 9)
    for got, want in zip(sg.compile(forms)(x), forms(sg.tensor(x))):
        np.testing.assert_allclose(np.asarray(got), want.numpy(), rtol=1e-15, atol=1e-15)
    t = sg.tensor(x, requires_grad=True)
    (eager,) = sg.autograd.grad(sum(f.sum() for f in forms(t)), t)
    compiled = sg.grad(lambda a: sum(f.sum() for f in forms(a)))(x)
    np.testing.assert_allclose(np.asarray(compiled), eager.numpy(), rtol=1e-15, atol=1e-15)


def test_gumbel_softmax_inside_compile_draws_once_with_the_samplers_warning():
    with pytest.warns(UserWarning, match="exponential_.*inside @symgrad.compile"):
        out = sg.compile(lambda x: sg.nn.functional.gumbel_softmax(x, tau=0.5))(np.zeros((2, 3)))
    np.testing.assert_allclose(np.asarray(out).sum(1), [1.0, 1.0], rtol=1e-15)
