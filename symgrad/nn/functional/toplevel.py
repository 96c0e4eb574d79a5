"""torch's top-level spellings of ``torch.nn.functional`` ops (``torch.conv2d``,
``torch.layer_norm``, ``torch.embedding(weight, indices)``, ``torch.batch_norm(...)``...).

Layer: front end (torch.nn mirror). Input: the arguments of torch's top-level function, which is
the aten operator: its argument order (``embedding`` takes the weight first, ``batch_norm``
the affine weight before the running statistics), its defaults (``padding_idx=-1`` for none,
``stride=[]`` for the kernel size) and its integer ``reduction`` (0 none, 1 mean, 2 sum).
Output: what the ``nn.functional`` op gives for those arguments; where the aten signature is
the functional one, the name is the functional itself (``ALIASES``). The integer reduction
of torch's Python binding defaults to 0 (none; aten's schema says 1), and any value other
than 1 (mean) or 2 (sum) is none, as aten's ``apply_loss_reduction``. Dropout probabilities
outside [0, 1] are aten's RuntimeError (the functional's is a ValueError).
"""

from __future__ import annotations

import warnings

from .. import functional as F
from . import dropout_variants

# same signature as the functional: the function itself
ALIASES = ("conv1d conv2d conv3d conv_transpose1d conv_transpose2d conv_transpose3d pdist "
           "cosine_similarity pairwise_distance prelu selu_ celu_ threshold_ rrelu_ relu_ "
           "hardshrink bilinear pixel_shuffle pixel_unshuffle channel_shuffle avg_pool1d "
           "adaptive_avg_pool1d rms_norm").split()
_REDUCTIONS = {0: "none", 1: "mean", 2: "sum"}


def _reduction(value) -> str:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"reduction must be int, not {type(value).__name__}")
    return _REDUCTIONS.get(value, "none")


def _stride(stride):
    return None if stride is None or (isinstance(stride, (list, tuple)) and not stride) \
        else stride


def embedding(weight, indices, padding_idx: int = -1, scale_grad_by_freq: bool = False,
              sparse: bool = False):
    """aten's embedding: the weight first; a negative ``padding_idx`` is none."""
    return F.embedding(indices, weight, None if padding_idx < 0 else padding_idx,
                       scale_grad_by_freq=scale_grad_by_freq, sparse=sparse)


def batch_norm(input, weight, bias, running_mean, running_var, training: bool,  # noqa: A002
               momentum: float, eps: float, cudnn_enabled: bool):
    return F.batch_norm(input, running_mean, running_var, weight, bias, training, momentum,
                        eps)


def instance_norm(input, weight, bias, running_mean, running_var,  # noqa: A002
                  use_input_stats: bool, momentum: float, eps: float, cudnn_enabled: bool):
    return F.instance_norm(input, running_mean, running_var, weight, bias, use_input_stats,
                           momentum, eps)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps: float = 1e-05,  # noqa: A002
               cudnn_enable: bool = True):
    return F.layer_norm(input, normalized_shape, weight, bias, eps)


def group_norm(input, num_groups: int, weight=None, bias=None, eps: float = 1e-05,  # noqa: A002
               cudnn_enabled: bool = True):
    return F.group_norm(input, num_groups, weight, bias, eps)


def selu(input):  # noqa: A002
    return F.selu(input)


def celu(input, alpha: float = 1.0):  # noqa: A002
    return F.celu(input, alpha)


def threshold(input, threshold: float, value: float):  # noqa: A002
    return F.threshold(input, threshold, value)


def rrelu(input, lower: float = 0.125, upper: float = 1.0 / 3, training: bool = False,  # noqa: A002
          generator=None):
    return F.rrelu(input, lower, upper, training)


def max_pool1d(input, kernel_size, stride=(), padding=0, dilation=1,  # noqa: A002
               ceil_mode: bool = False):
    return F.max_pool1d(input, kernel_size, _stride(stride), padding, dilation, ceil_mode)


def max_pool2d(input, kernel_size, stride=(), padding=0, dilation=1,  # noqa: A002
               ceil_mode: bool = False):
    return F.max_pool2d(input, kernel_size, _stride(stride), padding, dilation, ceil_mode)


def max_pool1d_with_indices(input, kernel_size, stride=(), padding=0, dilation=1,  # noqa: A002
                            ceil_mode: bool = False):
    return F.max_pool1d(input, kernel_size, _stride(stride), padding, dilation, ceil_mode,
                        return_indices=True)


def adaptive_max_pool1d(input, output_size):  # noqa: A002
    return F.adaptive_max_pool1d(input, output_size, return_indices=True)


def kl_div(input, target, reduction: int = 0, *, log_target: bool = False):  # noqa: A002
    """aten's kl_div: reduction 1 is the plain mean (no warning: F's 'mean' warns)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return F.kl_div(input, target, reduction=_reduction(reduction), log_target=log_target)


def margin_ranking_loss(input1, input2, target, margin: float = 0.0, reduction: int = 0):
    return F.margin_ranking_loss(input1, input2, target, margin,
                                 reduction=_reduction(reduction))


def hinge_embedding_loss(input, target, margin: float = 1.0, reduction: int = 0):  # noqa: A002
    return F.hinge_embedding_loss(input, target, margin, reduction=_reduction(reduction))


def cosine_embedding_loss(input1, input2, target, margin: float = 0.0, reduction: int = 0):
    return F.cosine_embedding_loss(input1, input2, target, margin,
                                   reduction=_reduction(reduction))


def triplet_margin_loss(anchor, positive, negative, margin: float = 1.0, p: float = 2.0,
                        eps: float = 1e-06, swap: bool = False, reduction: int = 0):
    return F.triplet_margin_loss(anchor, positive, negative, margin, p, eps, swap,
                                 reduction=_reduction(reduction))


def poisson_nll_loss(input, target, log_input: bool, full: bool, eps: float,  # noqa: A002
                     reduction: int):
    return F.poisson_nll_loss(input, target, log_input, full, eps=eps,
                              reduction=_reduction(reduction))


def binary_cross_entropy_with_logits(input, target, weight=None, pos_weight=None,  # noqa: A002
                                     reduction: int = 0):
    return F.binary_cross_entropy_with_logits(input, target, weight,
                                              reduction=_reduction(reduction),
                                              pos_weight=pos_weight)


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank: int = 0,
             reduction: int = 0, zero_infinity: bool = False):
    return F.ctc_loss(log_probs, targets, input_lengths, target_lengths, blank,
                      _reduction(reduction), zero_infinity)


def _probability(p: float) -> None:
    if p < 0 or p > 1:
        raise RuntimeError(f"dropout probability has to be between 0 and 1, but got {p}")


def alpha_dropout(input, p: float, train: bool):  # noqa: A002
    _probability(p)
    return F.alpha_dropout(input, p, train)


def alpha_dropout_(input, p: float, train: bool):  # noqa: A002
    _probability(p)
    return F.alpha_dropout(input, p, train, inplace=True)


def feature_alpha_dropout(input, p: float, train: bool):  # noqa: A002
    _probability(p)
    return F.feature_alpha_dropout(input, p, train)


def feature_alpha_dropout_(input, p: float, train: bool):  # noqa: A002
    _probability(p)
    return F.feature_alpha_dropout(input, p, train, inplace=True)


def feature_dropout(input, p: float, train: bool):  # noqa: A002
    _probability(p)
    return dropout_variants.feature_dropout(input, p, train)


def feature_dropout_(input, p: float, train: bool):  # noqa: A002
    _probability(p)
    return dropout_variants.feature_dropout(input, p, train, inplace=True)


native_dropout = dropout_variants.native_dropout


def dropout_(input, p: float, train: bool):  # noqa: A002
    _probability(p)
    return F.dropout(input, p, train, inplace=True)


_DEFINED = ("embedding batch_norm instance_norm layer_norm group_norm selu celu threshold rrelu "
            "max_pool1d max_pool2d max_pool1d_with_indices adaptive_max_pool1d kl_div "
            "margin_ranking_loss hinge_embedding_loss cosine_embedding_loss triplet_margin_loss "
            "poisson_nll_loss binary_cross_entropy_with_logits ctc_loss alpha_dropout "
            "alpha_dropout_ feature_alpha_dropout feature_alpha_dropout_ dropout_ "
            "feature_dropout feature_dropout_ native_dropout").split()
globals().update({name: getattr(F, name) for name in ALIASES})
__all__ = [name for name in ALIASES + _DEFINED]  # noqa: C416
