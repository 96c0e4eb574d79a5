"""symgrad.nn.modules: torch.nn's module classes (``Module``, layers, containers, losses).

Layer: front end (torch.nn mirror). Re-exports the classes of its modules; see each module's
docstring. ``symgrad.nn`` re-exports these names as torch.nn does.
"""

from .attention import MultiheadAttention, NonDynamicallyQuantizableLinear  # noqa: F401
from .activation import (ELU, GELU, Hardtanh, LeakyReLU, LogSoftmax, ReLU, ReLU6,  # noqa: F401
                         SiLU, Sigmoid, Softmax, Softplus, Tanh)
from .activation_more import (CELU, GLU, SELU, Hardshrink, Hardsigmoid,  # noqa: F401
                              Hardswish, LogSigmoid, Mish, PReLU, RReLU, Softmax2d, Softmin,
                              Softshrink, Softsign, Tanhshrink, Threshold)
from .container import ModuleDict, ModuleList, ParameterList, Sequential  # noqa: F401
from .conv import Conv1d, Conv2d, Conv3d  # noqa: F401
from .conv_transpose import ConvTranspose1d, ConvTranspose2d, ConvTranspose3d  # noqa: F401
from .distance import CosineSimilarity, PairwiseDistance  # noqa: F401
from .dropout import (AlphaDropout, Dropout, Dropout1d, Dropout2d, Dropout3d,  # noqa: F401
                      FeatureAlphaDropout)
from .embedding_bag import EmbeddingBag  # noqa: F401
from .fold import Fold, Unfold  # noqa: F401
from .instancenorm import InstanceNorm1d, InstanceNorm2d, InstanceNorm3d  # noqa: F401
from .lazy import (LazyBatchNorm1d, LazyBatchNorm2d, LazyBatchNorm3d, LazyConv1d,  # noqa: F401
                   LazyConv2d, LazyConv3d, LazyConvTranspose1d, LazyConvTranspose2d,
                   LazyConvTranspose3d, LazyInstanceNorm1d, LazyInstanceNorm2d,
                   LazyInstanceNorm3d, LazyLinear, LazyModuleMixin)
from .normalization_extra import LocalResponseNorm, RMSNorm  # noqa: F401
from .padding import (CircularPad1d, CircularPad2d, CircularPad3d, ConstantPad1d,  # noqa: F401
                      ConstantPad2d, ConstantPad3d, ReflectionPad1d, ReflectionPad2d,
                      ReflectionPad3d, ReplicationPad1d, ReplicationPad2d, ReplicationPad3d,
                      ZeroPad1d, ZeroPad2d, ZeroPad3d)
from .pooling_variants import (AdaptiveMaxPool1d, AdaptiveMaxPool2d, LPPool1d,  # noqa: F401
                               LPPool2d, MaxUnpool1d, MaxUnpool2d)
from .upsampling import (ChannelShuffle, PixelShuffle, PixelUnshuffle, Upsample,  # noqa: F401
                         UpsamplingBilinear2d, UpsamplingNearest2d)
from .flatten import Flatten, Unflatten  # noqa: F401
from .group_norm import GroupNorm  # noqa: F401
from .linear import Bilinear, Identity, Linear  # noqa: F401
from .loss import (BCELoss, BCEWithLogitsLoss, CrossEntropyLoss, HuberLoss,  # noqa: F401
                   KLDivLoss, L1Loss, MSELoss, NLLLoss, SmoothL1Loss)
from .loss_more import (CosineEmbeddingLoss, CTCLoss, GaussianNLLLoss, HingeEmbeddingLoss,  # noqa: F401
                        MarginRankingLoss, MultiLabelMarginLoss, MultiLabelSoftMarginLoss,
                        MultiMarginLoss, PoissonNLLLoss, SoftMarginLoss, TripletMarginLoss,
                        TripletMarginWithDistanceLoss)
from .module import Module, RemovableHandle  # noqa: F401
from .normalization import BatchNorm1d, BatchNorm2d, BatchNorm3d, LayerNorm  # noqa: F401
from .parameter_dict import ParameterDict  # noqa: F401
from .pooling import (AdaptiveAvgPool1d, AdaptiveAvgPool2d, AvgPool1d, AvgPool2d,  # noqa: F401
                      MaxPool1d, MaxPool2d)
from .pooling import AdaptiveAvgPool3d, AvgPool3d, MaxPool3d  # noqa: F401
from .pooling_variants import AdaptiveMaxPool3d, LPPool3d, MaxUnpool3d  # noqa: F401
from .pooling_variants import FractionalMaxPool2d, FractionalMaxPool3d  # noqa: F401
from .rnn import GRU, LSTM, RNN, GRUCell, LSTMCell, RNNBase, RNNCell  # noqa: F401
from .sparse import Embedding  # noqa: F401
from .transformer import Transformer, TransformerDecoder, TransformerEncoder  # noqa: F401
from .transformer_layer import TransformerDecoderLayer, TransformerEncoderLayer  # noqa: F401

__all__ = ["BCELoss", "BCEWithLogitsLoss", "BatchNorm1d", "BatchNorm2d", "Bilinear",
           "CrossEntropyLoss", "Dropout", "ELU", "Embedding", "Flatten", "GELU", "Hardtanh",
           "HuberLoss", "Identity", "KLDivLoss", "L1Loss", "LayerNorm",
           "LeakyReLU", "Linear", "LogSoftmax", "MSELoss", "Module", "ModuleDict",
           "ModuleList", "NLLLoss", "ParameterList", "ReLU", "ReLU6", "RemovableHandle",
           "Sequential", "SiLU", "Sigmoid", "SmoothL1Loss", "Softmax", "Softplus", "Tanh",
           "Unflatten", "RNNBase", "RNN", "GRU", "LSTM", "RNNCell", "GRUCell", "LSTMCell",
           "Conv1d", "Conv2d", "MaxPool1d", "MaxPool2d", "AvgPool1d", "AvgPool2d",
           "AdaptiveAvgPool1d", "AdaptiveAvgPool2d",
           "MultiheadAttention", "GroupNorm", "ParameterDict", "Transformer",
           "TransformerEncoder", "TransformerDecoder", "TransformerEncoderLayer",
           "TransformerDecoderLayer",
           "CELU", "SELU", "Mish", "Hardswish", "Hardsigmoid", "LogSigmoid", "Softsign",
           "Softshrink", "Hardshrink", "Tanhshrink", "Threshold", "PReLU", "RReLU", "GLU",
           "Softmin", "Softmax2d", "PairwiseDistance", "CosineSimilarity", "SoftMarginLoss",
           "PoissonNLLLoss", "GaussianNLLLoss", "MultiLabelSoftMarginLoss", "HingeEmbeddingLoss",
           "MarginRankingLoss", "CosineEmbeddingLoss", "TripletMarginLoss",
           "TripletMarginWithDistanceLoss", "MultiMarginLoss", "MultiLabelMarginLoss", "CTCLoss"]
__all__ += ["Conv3d", "ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d", "BatchNorm3d",
            "Dropout1d", "Dropout2d", "Dropout3d", "AlphaDropout", "FeatureAlphaDropout",
            "EmbeddingBag", "Fold", "Unfold", "InstanceNorm1d", "InstanceNorm2d",
            "InstanceNorm3d", "LocalResponseNorm", "RMSNorm", "LazyModuleMixin", "LazyLinear",
            "LazyConv1d", "LazyConv2d", "LazyConv3d", "LazyConvTranspose1d",
            "LazyConvTranspose2d", "LazyConvTranspose3d", "LazyBatchNorm1d", "LazyBatchNorm2d",
            "LazyBatchNorm3d", "LazyInstanceNorm1d", "LazyInstanceNorm2d", "LazyInstanceNorm3d",
            "ZeroPad1d", "ZeroPad2d", "ZeroPad3d", "ConstantPad1d", "ConstantPad2d",
            "ConstantPad3d", "ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d",
            "ReplicationPad1d", "ReplicationPad2d", "ReplicationPad3d", "CircularPad1d",
            "CircularPad2d", "CircularPad3d", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d",
            "MaxUnpool1d", "MaxUnpool2d", "LPPool1d", "LPPool2d", "Upsample",
            "UpsamplingNearest2d", "UpsamplingBilinear2d", "PixelShuffle", "PixelUnshuffle",
            "ChannelShuffle"]
__all__ += ["MaxPool3d", "AvgPool3d", "AdaptiveAvgPool3d", "AdaptiveMaxPool3d", "LPPool3d",
            "MaxUnpool3d", "FractionalMaxPool2d", "FractionalMaxPool3d"]
