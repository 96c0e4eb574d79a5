"""symgrad.nn.functional: the torch.nn.functional mirror (activations, losses, normalization,
linear maps, embeddings, padding, dropout).

Layer: front end (``symgrad/nn`` sits at the top of the package so that it reads like
``torch.nn``; it imports only the front end and below). Input: tensors, eager or traced, and
torch's arguments (torch's parameter names and defaults). Output: tensors built from
primitives. This module is the façade users import; the functions live in ``_activations``,
``_losses`` (regression and binary), ``_classification`` (nll_loss, cross_entropy),
``_normalization``, ``_layers``, ``_conv`` (convolution, unfold/fold) and ``_pooling``.
Each shows torch's grad_fn where torch shows one, and has a backward rule written from
primitives that is exact at kinks and stable at extremes (the derivative of the composed
forward is not: e.g. relu/abs kinks at 0 in BCE-with-logits).
"""

from __future__ import annotations

from ._activations import (elu, gelu, hardtanh, leaky_relu, log_softmax, relu,  # noqa: F401
                           relu6, sigmoid, silu, softmax, softplus, tanh)
from ._classification import cross_entropy, nll_loss  # noqa: F401
from ._conv import conv1d, conv2d, fold, unfold  # noqa: F401
from ._layers import bilinear, dropout, embedding, linear, one_hot, pad  # noqa: F401
from ._losses import (binary_cross_entropy, binary_cross_entropy_with_logits,  # noqa: F401
                      huber_loss, kl_div, l1_loss, mse_loss, smooth_l1_loss)
from ._normalization import batch_norm, cosine_similarity, layer_norm, normalize  # noqa: F401
from ._pooling import (adaptive_avg_pool1d, adaptive_avg_pool2d, avg_pool1d,  # noqa: F401
                       avg_pool2d, max_pool1d, max_pool2d)
