"""symgrad.nn.functional: the torch.nn.functional mirror (activations, losses, normalization,
linear maps, embeddings, padding, dropout, convolution, pooling, resizing).

Layer: front end (``symgrad/nn`` sits at the top of the package so that it reads like
``torch.nn``; it imports only the front end and below). Input: tensors, eager or traced, and
torch's arguments (torch's parameter names and defaults). Output: tensors built from
primitives. This package is the façade users import; the functions live in its modules, each
paired with the module of ``nn.modules`` that holds their layers: ``activation`` (and
``activation_more``, ``activation_param``), ``loss`` (regression and binary), ``classification``
(nll_loss, cross_entropy), ``margin``, ``likelihood`` (Poisson, Gaussian), ``distance``
(pairwise, pdist, triplet losses), ``ctc``, ``normalization``,
``linear`` (linear maps, embeddings, padding, dropout), ``conv`` (convolution, unfold/fold)
and ``pooling``; ``attention`` (scaled_dot_product_attention), ``multihead``
(multi_head_attention_forward) and ``group_norm`` serve ``nn.MultiheadAttention``, the
transformer layers and ``nn.GroupNorm``; beside them ``conv_transpose``, ``pooling_variants``
(adaptive max, unpooling, lp pooling), ``upsample`` (interpolate), ``shuffle`` (pixel and
channel shuffles), ``normalization_extra`` (instance, RMS and local response norms),
``dropout_variants`` (channel and alpha dropout) and ``embedding_bag``.
Each shows torch's grad_fn where torch shows one, and has a backward rule written from
primitives that is exact at kinks and stable at extremes (the derivative of the composed
forward is not: e.g. relu/abs kinks at 0 in BCE-with-logits).
"""

from __future__ import annotations

from ...frontend.functions.dtype_checks import guard as _guard
from .activation import (elu, gelu, hardtanh, leaky_relu, log_softmax, relu, relu6, sigmoid, silu,
                         softmax, softplus, tanh)
from .activation_more import (celu, celu_, elu_, hardshrink, hardsigmoid, hardswish,  # noqa: F401
                              hardtanh_, leaky_relu_, logsigmoid, mish, relu_, selu, selu_,
                              softshrink, softsign, tanhshrink, threshold, threshold_)
from .activation_param import glu, gumbel_softmax, prelu, rrelu, rrelu_, softmin  # noqa: F401
from .attention import scaled_dot_product_attention  # noqa: F401
from .classification import cross_entropy, nll_loss  # noqa: F401
from .ctc import ctc_loss  # noqa: F401
from .conv import conv1d, conv2d, conv3d, fold, unfold  # noqa: F401
from .conv_transpose import conv_transpose1d, conv_transpose2d, conv_transpose3d  # noqa: F401
from .distance import (pairwise_distance, pdist, triplet_margin_loss,  # noqa: F401
                       triplet_margin_with_distance_loss)
from .likelihood import gaussian_nll_loss, poisson_nll_loss  # noqa: F401
from .group_norm import group_norm  # noqa: F401
from .linear import bilinear, dropout, embedding, linear, one_hot, pad  # noqa: F401
from .loss import (binary_cross_entropy, binary_cross_entropy_with_logits, huber_loss, kl_div,
                   l1_loss, mse_loss, smooth_l1_loss)
from .margin import (cosine_embedding_loss, hinge_embedding_loss, margin_ranking_loss,  # noqa: F401
                     multi_margin_loss, multilabel_margin_loss, multilabel_soft_margin_loss,
                     soft_margin_loss)
from .multihead import multi_head_attention_forward  # noqa: F401
from .normalization import batch_norm, cosine_similarity, layer_norm, normalize  # noqa: F401
from .pooling import (adaptive_avg_pool1d, adaptive_avg_pool2d, avg_pool1d, avg_pool2d, max_pool1d,
                      max_pool2d)
from .pooling import adaptive_avg_pool3d, avg_pool3d, max_pool3d  # noqa: F401
from .dropout_variants import (alpha_dropout, dropout1d, dropout2d, dropout3d,  # noqa: F401
                               feature_alpha_dropout)
from .embedding_bag import embedding_bag  # noqa: F401
from .normalization_extra import instance_norm, local_response_norm, rms_norm  # noqa: F401
from .shuffle import channel_shuffle, pixel_shuffle, pixel_unshuffle  # noqa: F401
from .upsample import interpolate, upsample, upsample_bilinear, upsample_nearest  # noqa: F401
from .pooling_variants import (adaptive_max_pool1d, adaptive_max_pool1d_with_indices,  # noqa: F401
                               adaptive_max_pool2d, adaptive_max_pool2d_with_indices, lp_pool1d,
                               lp_pool2d, max_pool1d_with_indices, max_pool2d_with_indices,
                               max_unpool1d, max_unpool2d)
from .pooling_variants import (adaptive_max_pool3d, adaptive_max_pool3d_with_indices,  # noqa: F401
                               lp_pool3d, max_pool3d_with_indices, max_unpool3d)
from .sampling import affine_grid, grid_sample  # noqa: F401
from .fractional import (fractional_max_pool2d, fractional_max_pool2d_with_indices,  # noqa: F401
                         fractional_max_pool3d, fractional_max_pool3d_with_indices)
from ...frontend.functions.keywords import torch_keywords as _keywords  # noqa: E402

# torch's builtins among them (torch._C._nn) also take ``out=``: the front end's spelling.
gelu, hardshrink, softshrink, softplus, logsigmoid = (
    _keywords(_f, exact_out=True) for _f in (gelu, hardshrink, softshrink, softplus, logsigmoid))

_guard(globals(), "F")   # torch's refusals by dtype (kernel_dtypes)
