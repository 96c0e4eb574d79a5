"""``torch.cpu.amp``: the deprecated spelling of ``torch.amp.autocast("cpu")``.

Layer: front end (torch.cpu mirror), above ``symgrad.amp``. Input/output: ``autocast`` warns
as torch does (a ``FutureWarning`` naming ``torch.amp``), then is ``symgrad.amp.autocast("cpu",
...)`` (see there: symgrad computes in float32 under it, and says so).
"""

from __future__ import annotations

import warnings

from .. import amp as _amp


class autocast(_amp.autocast):  # noqa: N801  (torch's name)
    def __init__(self, enabled: bool = True, dtype=None, cache_enabled: bool = True) -> None:
        warnings.warn("`torch.cpu.amp.autocast(args...)` is deprecated. Please use "
                      "`torch.amp.autocast('cpu', args...)` instead.", FutureWarning,
                      stacklevel=2)
        super().__init__("cpu", enabled=enabled, dtype=dtype, cache_enabled=cache_enabled)
