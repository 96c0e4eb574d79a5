"""The added activation, loss and distance modules: torch's reprs (stored here as torch 2.13
prints them, and checked against torch when it is installed), attributes, parameters and
buffers; forward is the functional's; PReLU's weight starts at ``init`` and trains;
Softmax2d's input check; a TripletMarginWithDistanceLoss's default distance is a child module.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import symgrad as sg

# (constructor, torch 2.13's repr)
REPRS = [
    (lambda nn, m: nn.CELU(), "CELU(alpha=1.0)"),
    (lambda nn, m: nn.CELU(2.0, True), "CELU(alpha=2.0, inplace=True)"),
    (lambda nn, m: nn.SELU(), "SELU()"),
    (lambda nn, m: nn.SELU(True), "SELU(inplace=True)"),
    (lambda nn, m: nn.Mish(True), "Mish(inplace=True)"),
    (lambda nn, m: nn.Hardswish(True), "Hardswish()"),
    (lambda nn, m: nn.Hardsigmoid(True), "Hardsigmoid()"),
    (lambda nn, m: nn.LogSigmoid(), "LogSigmoid()"),
    (lambda nn, m: nn.Softsign(), "Softsign()"),
    (lambda nn, m: nn.Tanhshrink(), "Tanhshrink()"),
    (lambda nn, m: nn.Softshrink(), "Softshrink(0.5)"),
    (lambda nn, m: nn.Hardshrink(1), "Hardshrink(1)"),
    (lambda nn, m: nn.Threshold(0.1, 20), "Threshold(threshold=0.1, value=20)"),
    (lambda nn, m: nn.Threshold(0.1, 20, True), "Threshold(threshold=0.1, value=20, inplace=True)"),
    (lambda nn, m: nn.PReLU(), "PReLU(num_parameters=1)"),
    (lambda nn, m: nn.PReLU(3, 0.1), "PReLU(num_parameters=3)"),
    (lambda nn, m: nn.RReLU(), "RReLU(lower=0.125, upper=0.3333333333333333)"),
    (lambda nn, m: nn.RReLU(0.1, 0.3, True), "RReLU(lower=0.1, upper=0.3, inplace=True)"),
    (lambda nn, m: nn.GLU(), "GLU(dim=-1)"),
    (lambda nn, m: nn.Softmin(), "Softmin(dim=None)"),
    (lambda nn, m: nn.Softmin(1), "Softmin(dim=1)"),
    (lambda nn, m: nn.Softmax2d(), "Softmax2d()"),
    (lambda nn, m: nn.SoftMarginLoss(reduction="sum"), "SoftMarginLoss()"),
    (lambda nn, m: nn.PoissonNLLLoss(False, True, eps=1e-6), "PoissonNLLLoss()"),
    (lambda nn, m: nn.GaussianNLLLoss(full=True), "GaussianNLLLoss()"),
    (lambda nn, m: nn.MultiLabelSoftMarginLoss(m.ones(3)), "MultiLabelSoftMarginLoss()"),
    (lambda nn, m: nn.HingeEmbeddingLoss(2.0), "HingeEmbeddingLoss()"),
    (lambda nn, m: nn.MarginRankingLoss(0.5), "MarginRankingLoss()"),
    (lambda nn, m: nn.CosineEmbeddingLoss(0.2), "CosineEmbeddingLoss()"),
    (lambda nn, m: nn.TripletMarginLoss(2.0, 1.0, swap=True), "TripletMarginLoss()"),
    (lambda nn, m: nn.TripletMarginWithDistanceLoss(),
     "TripletMarginWithDistanceLoss(\n  (distance_function): PairwiseDistance()\n)"),
    (lambda nn, m: nn.MultiMarginLoss(2, 0.5, m.ones(3)), "MultiMarginLoss()"),
    (lambda nn, m: nn.MultiLabelMarginLoss(), "MultiLabelMarginLoss()"),
    (lambda nn, m: nn.PairwiseDistance(1, 1e-3, True), "PairwiseDistance()"),
    (lambda nn, m: nn.CosineSimilarity(0, 1e-6), "CosineSimilarity()"),
]
IDS = [r for _, r in REPRS]


def _public_state(module):
    attrs = {k: v for k, v in vars(module).items() if not k.startswith("_") and k != "training"}
    attrs.pop("distance_function", None)
    return (attrs, [n for n, _ in module.named_parameters()],
            [n for n, _ in module.named_buffers()])


@pytest.mark.parametrize("make,expected", REPRS, ids=IDS)
def test_repr_is_torchs(make, expected):
    assert repr(make(sg.nn, sg)) == expected


@pytest.mark.parametrize("make,expected", REPRS, ids=IDS)
def test_repr_attributes_parameters_and_buffers_match_torch(make, expected):
    torch = pytest.importorskip("torch")
    theirs = make(torch.nn, torch)
    assert repr(theirs) == expected
    assert _public_state(make(sg.nn, sg)) == _public_state(theirs)


def test_prelu_starts_at_init_and_learns_per_channel():
    m = sg.nn.PReLU(3, init=0.1)
    assert m.weight.shape == (3,) and m.weight.requires_grad
    np.testing.assert_array_equal(m.weight.detach().numpy(), np.full(3, 0.1, np.float32))
    assert list(m.state_dict()) == ["weight"]
    x = sg.tensor([[[-1.0, 2.0], [-3.0, -4.0], [5.0, -6.0]]])      # (1, 3, 2)
    out = m(x)
    np.testing.assert_allclose(out.detach().numpy(), np.float32(
        [[[-0.1, 2.0], [-0.3, -0.4], [5.0, -0.6]]]), rtol=1e-7)
    out.sum().backward()
    np.testing.assert_array_equal(m.weight.grad.numpy(), [-1.0, -7.0, -6.0])
    assert sg.nn.PReLU(dtype=sg.float64).weight.dtype is sg.float64


def test_rrelu_module_draws_in_training_only():
    m = sg.nn.RReLU(0.1, 0.3)
    x = sg.tensor([-1.0, 2.0])
    sg.manual_seed(0)
    trained = m(x).numpy()
    assert 0.1 <= -trained[0] < 0.3 and trained[1] == 2.0
    m.eval()
    np.testing.assert_allclose(m(x).numpy(), [-0.2, 2.0], rtol=1e-7)


def test_softmax2d_normalizes_channels_and_checks_its_input():
    x = sg.tensor(np.random.default_rng(1).standard_normal((2, 3, 4, 5)))
    np.testing.assert_allclose(sg.nn.Softmax2d()(x).numpy().sum(axis=1), np.ones((2, 4, 5)),
                               rtol=1e-14)
    with pytest.raises(AssertionError, match="Softmax2d: expected input to be 3D or 4D, got "
                                             "2D instead"):
        sg.nn.Softmax2d()(sg.ones(3, 4))


def test_triplet_margin_losses_check_their_margin():
    with pytest.raises(ValueError, match="TripletMarginLoss: expected margin to be greater "
                                         "than 0, got 0 instead"):
        sg.nn.TripletMarginLoss(margin=0)
    with pytest.raises(ValueError, match="TripletMarginWithDistanceLoss: expected margin to "
                                         "be greater than 0, got -1 instead"):
        sg.nn.TripletMarginWithDistanceLoss(margin=-1)
    with pytest.raises(ValueError, match="MultiMarginLoss: expected weight to be None or 1D "
                                         "tensor, got 2D instead"):
        sg.nn.MultiMarginLoss(weight=sg.ones(2, 2))


def _forward_pairs(m):
    """(module, functional, args) of each added module."""
    nn, F = m.nn, m.nn.functional
    r = np.random.default_rng(2)
    x, y, z = (m.tensor(r.standard_normal((4, 6))) for _ in range(3))
    pm, s = m.tensor(np.where(r.random((4, 6)) > 0.5, 1.0, -1.0)), m.tensor([1.0, -1, -1, 1])
    return [
        (nn.CELU(0.5), lambda a: F.celu(a, 0.5), (x,)),
        (nn.Softmin(0), lambda a: F.softmin(a, 0), (x,)),
        (nn.GLU(0), lambda a: F.glu(a, 0), (x,)),
        (nn.Threshold(0.1, -1.0), lambda a: F.threshold(a, 0.1, -1.0), (x,)),
        (nn.PoissonNLLLoss(full=True), lambda a, b: F.poisson_nll_loss(a, b, full=True),
         (x, y.abs() * 3)),
        (nn.GaussianNLLLoss(eps=0.5), lambda a, b, c: F.gaussian_nll_loss(a, b, c, eps=0.5),
         (x, y, z.abs())),
        (nn.SoftMarginLoss(reduction="none"),
         lambda a, b: F.soft_margin_loss(a, b, reduction="none"), (x, pm)),
        (nn.CosineEmbeddingLoss(0.3), lambda a, b, c: F.cosine_embedding_loss(a, b, c, 0.3),
         (x, y, s)),
        (nn.TripletMarginLoss(p=1.0), lambda a, b, c: F.triplet_margin_loss(a, b, c, p=1.0),
         (x, y, z)),
        (nn.TripletMarginWithDistanceLoss(), F.triplet_margin_with_distance_loss, (x, y, z)),
        (nn.MultiMarginLoss(2), lambda a, b: F.multi_margin_loss(a, b, 2),
         (x, m.tensor([0, 5, 2, 2]))),
        (nn.PairwiseDistance(1.5), lambda a, b: F.pairwise_distance(a, b, 1.5), (x, y)),
        (nn.CosineSimilarity(0), lambda a, b: F.cosine_similarity(a, b, 0), (x, y)),
    ]


def test_forward_is_the_functional():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for module, fn, args in _forward_pairs(sg):
            np.testing.assert_array_equal(module(*args).numpy(), fn(*args).numpy())


def test_forward_matches_torch():
    torch = pytest.importorskip("torch")
    for (module, _, args), (theirs, _, targs) in zip(_forward_pairs(sg), _forward_pairs(torch)):
        np.testing.assert_allclose(module(*args).numpy(), theirs(*targs).numpy(), rtol=1e-12,
                                   err_msg=repr(module))
