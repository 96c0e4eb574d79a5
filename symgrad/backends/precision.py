"""``torch.set_float32_matmul_precision`` / ``get_float32_matmul_precision``: a setting kept.

Layer: front end (torch.backends mirror; imports nothing of symgrad). Input: "highest",
"high" or "medium" (anything else: torch's warning, and no change). Output: the setting, as
``get_float32_matmul_precision()`` and ``torch.backends.cuda.matmul.allow_tf32`` (True unless
"highest") report it. symgrad computes float32 products in float32 whatever it says: it is
the permission torch gives a GPU (TF32) or oneDNN to use less, which symgrad never takes.
"""

from __future__ import annotations

import warnings

_CHOICES = ("highest", "high", "medium")
_current = ["highest"]


def set_float32_matmul_precision(precision: str) -> None:
    if precision not in _CHOICES:
        warnings.warn(f"{precision} is not one of 'highest', 'high', or 'medium'; the current"
                      f"setFloat32MatmulPrecision call has no effect.", stacklevel=2)
        return
    _current[0] = precision


def get_float32_matmul_precision() -> str:
    return _current[0]
