"""Lazy layers: ``LazyModuleMixin`` and ``LazyLinear``, ``LazyConv1d/2d/3d``,
``LazyConvTranspose1d/2d/3d``, ``LazyBatchNorm1d/2d/3d``, ``LazyInstanceNorm1d/2d/3d``: layers
whose input size is read from their first input.

Layer: front end (torch.nn mirror). Input: the layer's options without its input size.
Output: modules holding ``UninitializedParameter``/``UninitializedBuffer`` placeholders (no
random numbers drawn at construction, as in torch) until the first call: a forward pre-hook
then reads the input size, materializes the placeholders (the same objects: an optimizer made
before holds them), runs the layer's ``reset_parameters`` (so after ``manual_seed`` the
weights are torch's), and turns the module into its ``cls_to_become`` (``LazyLinear`` becomes
``Linear``). ``load_state_dict`` into an uninitialized module materializes the placeholders
from the checkpoint's shapes. Call a lazy module once before ``@symgrad.compile`` (a first
call inside it works, but draws the weights while tracing, with sampling's warning). It must
not compute outside initialization.
"""

from __future__ import annotations

import itertools
from typing import Any

from ... import dtypes
from ...frontend.core.tensor import Tensor, tensor
from ..parameter import UninitializedBuffer, UninitializedParameter, is_lazy
from .conv import Conv1d, Conv2d, Conv3d
from .conv_transpose import ConvTranspose1d, ConvTranspose2d, ConvTranspose3d
from .instancenorm import InstanceNorm1d, InstanceNorm2d, InstanceNorm3d
from .linear import Linear
from .normalization import BatchNorm1d, BatchNorm2d, BatchNorm3d


class LazyModuleMixin:
    """What a lazy module adds to its layer: the first call's initialization."""

    cls_to_become: type | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._initialize_hook = self.register_forward_pre_hook(self._infer_parameters)

    def initialize_parameters(self, *args: Any, **kwargs: Any) -> None:
        raise NotImplementedError(f"initialize_parameters is not implemented for "
                                  f"{self.__class__.__name__}")

    def has_uninitialized_params(self) -> bool:
        """Whether a parameter or buffer is still a placeholder."""
        return any(is_lazy(t) for t in itertools.chain(self._parameters.values(),
                                                       self._buffers.values()))

    def _infer_parameters(self, module: Any, args: tuple) -> None:
        module.initialize_parameters(*args)
        if module.has_uninitialized_params():
            raise RuntimeError(f"module {self._get_name()} has not been fully initialized")
        module._initialize_hook.remove()
        delattr(module, "_initialize_hook")
        if module.cls_to_become is not None:
            module.__class__ = module.cls_to_become

    def _load_from_state_dict(self, state_dict: Any, prefix: str, *rest: Any) -> None:
        for name, param in itertools.chain(self._parameters.items(), self._buffers.items()):
            key = prefix + name
            if key in state_dict and param is not None and is_lazy(param) and \
                    not is_lazy(state_dict[key]):
                param.materialize(tuple(state_dict[key].shape))
        super()._load_from_state_dict(state_dict, prefix, *rest)


class LazyLinear(LazyModuleMixin, Linear):
    """``Linear`` whose ``in_features`` is the first input's last dim."""

    cls_to_become = Linear

    def __init__(self, out_features: int, bias: bool = True, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__(0, 0, False)
        self.weight = UninitializedParameter(device=device, dtype=dtype)
        self.out_features = out_features
        if bias:
            self.bias = UninitializedParameter(device=device, dtype=dtype)

    def reset_parameters(self) -> None:
        if not self.has_uninitialized_params() and self.in_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input: Tensor) -> None:  # noqa: A002
        if self.has_uninitialized_params():
            self.in_features = input.shape[-1]
            self.weight.materialize((self.out_features, self.in_features))
            if self.bias is not None:
                self.bias.materialize((self.out_features,))
            self.reset_parameters()


class _LazyConvMixin(LazyModuleMixin):
    """A lazy convolution: ``in_channels`` from the first input's channel dim."""

    def __init__(self, out_channels: int, *args: Any, **kwargs: Any) -> None:
        # the layer's own arguments after out_channels; bias is the sixth of them (after
        # kernel_size, stride, padding, dilation / output_padding, groups) in both families
        bias = kwargs.pop("bias", True)
        if len(args) > 5:
            bias, args = args[5], args[:5] + (False,) + args[6:]
        else:
            kwargs["bias"] = False
        super().__init__(0, 0, *args, **kwargs)
        device, dtype = kwargs.get("device"), kwargs.get("dtype")
        self.weight = UninitializedParameter(device=device, dtype=dtype)
        self.out_channels = out_channels
        if bias:
            self.bias = UninitializedParameter(device=device, dtype=dtype)

    def reset_parameters(self) -> None:
        if not self.has_uninitialized_params() and self.in_channels != 0:
            super().reset_parameters()

    def _get_in_channels(self, input: Tensor) -> int:  # noqa: A002
        unbatched = self._dims + 1
        if input.ndim not in (unbatched, unbatched + 1):
            raise RuntimeError(f"Expected {unbatched}D (unbatched) or {unbatched + 1}D "
                               f"(batched) input to {self.__class__.__name__}, but got input "
                               f"of size: {input.shape}")
        return input.shape[1] if input.ndim == unbatched + 1 else input.shape[0]

    def initialize_parameters(self, input: Tensor, *args: Any) -> None:  # noqa: A002
        if self.has_uninitialized_params():
            self.in_channels = self._get_in_channels(input)
            if self.in_channels % self.groups != 0:
                raise ValueError("in_channels must be divisible by groups")
            channels = (self.in_channels, self.out_channels // self.groups) if self.transposed \
                else (self.out_channels, self.in_channels // self.groups)
            self.weight.materialize(channels + tuple(self.kernel_size))
            if self.bias is not None:
                self.bias.materialize((self.out_channels,))
            self.reset_parameters()


class _LazyNormMixin(LazyModuleMixin):
    """A lazy batch or instance norm: ``num_features`` from the first input's dim 1."""

    def __init__(self, eps: float = 1e-5, momentum: float | None = 0.1, affine: bool = True,
                 track_running_stats: bool = True, device: Any = None, dtype: Any = None, *,
                 bias: bool = True) -> None:
        super().__init__(0, eps, momentum, False, False, device, dtype, bias=False)
        self.affine = affine
        self.track_running_stats = track_running_stats
        if affine:
            self.weight = UninitializedParameter(device=device, dtype=dtype)
            if bias:
                self.bias = UninitializedParameter(device=device, dtype=dtype)
        if track_running_stats:
            self.running_mean = UninitializedBuffer(device=device, dtype=dtype)
            self.running_var = UninitializedBuffer(device=device, dtype=dtype)
            self.num_batches_tracked = tensor(0, dtype=dtypes.int64)

    def reset_parameters(self) -> None:
        if not self.has_uninitialized_params() and self.num_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input: Tensor) -> None:  # noqa: A002
        if self.has_uninitialized_params():
            self.num_features = input.shape[1]
            if self.affine:
                self.weight.materialize((self.num_features,))
                if self.bias is not None:
                    self.bias.materialize((self.num_features,))
            if self.track_running_stats:
                self.running_mean.materialize((self.num_features,))
                self.running_var.materialize((self.num_features,))
            self.reset_parameters()


def _lazy(mixin: type, base: type, read: str) -> type:
    """``Lazy<base>``: ``base`` whose ``read`` comes from the first input, then a ``base``."""
    return type(f"Lazy{base.__name__}", (mixin, base), {
        "__module__": __name__, "cls_to_become": base,
        "__doc__": f"``{base.__name__}`` whose ``{read}`` is read from the first input."})


LazyConv1d = _lazy(_LazyConvMixin, Conv1d, "in_channels")
LazyConv2d = _lazy(_LazyConvMixin, Conv2d, "in_channels")
LazyConv3d = _lazy(_LazyConvMixin, Conv3d, "in_channels")
LazyConvTranspose1d = _lazy(_LazyConvMixin, ConvTranspose1d, "in_channels")
LazyConvTranspose2d = _lazy(_LazyConvMixin, ConvTranspose2d, "in_channels")
LazyConvTranspose3d = _lazy(_LazyConvMixin, ConvTranspose3d, "in_channels")
LazyBatchNorm1d = _lazy(_LazyNormMixin, BatchNorm1d, "num_features")
LazyBatchNorm2d = _lazy(_LazyNormMixin, BatchNorm2d, "num_features")
LazyBatchNorm3d = _lazy(_LazyNormMixin, BatchNorm3d, "num_features")
LazyInstanceNorm1d = _lazy(_LazyNormMixin, InstanceNorm1d, "num_features")
LazyInstanceNorm2d = _lazy(_LazyNormMixin, InstanceNorm2d, "num_features")
LazyInstanceNorm3d = _lazy(_LazyNormMixin, InstanceNorm3d, "num_features")
