"""``torch.cuda.amp``: the deprecated spellings of ``torch.amp``'s CUDA autocast and scaler.

Layer: front end (torch.cuda mirror), above ``symgrad.amp``. Input/output: ``autocast`` and
``GradScaler`` warn as torch does (a ``FutureWarning`` naming ``torch.amp``), then behave as
``torch.amp.autocast("cuda", ...)`` and ``torch.amp.GradScaler("cuda", ...)`` in a CPU-only
torch: disabled, with torch's warning, so the float32 path runs unchanged.
"""

from __future__ import annotations

import warnings

from .. import amp as _amp
from ..amp import custom_bwd, custom_fwd  # noqa: F401


class autocast(_amp.autocast):  # noqa: N801  (torch's name)
    def __init__(self, enabled: bool = True, dtype=None, cache_enabled: bool = True) -> None:
        warnings.warn("`torch.cuda.amp.autocast(args...)` is deprecated. Please use "
                      "`torch.amp.autocast('cuda', args...)` instead.", FutureWarning,
                      stacklevel=2)
        super().__init__("cuda", enabled=enabled, dtype=dtype, cache_enabled=cache_enabled)


class GradScaler(_amp.GradScaler):
    def __init__(self, init_scale: float = 2.0 ** 16, growth_factor: float = 2.0,
                 backoff_factor: float = 0.5, growth_interval: int = 2000,
                 enabled: bool = True) -> None:
        warnings.warn("`torch.cuda.amp.GradScaler(args...)` is deprecated. Please use "
                      "`torch.amp.GradScaler('cuda', args...)` instead.", FutureWarning,
                      stacklevel=2)
        super().__init__("cuda", init_scale=init_scale, growth_factor=growth_factor,
                         backoff_factor=backoff_factor, growth_interval=growth_interval,
                         enabled=enabled)
