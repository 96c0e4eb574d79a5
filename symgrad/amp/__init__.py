"""symgrad.amp: the torch.amp mirror (``autocast``, ``GradScaler``) on the CPU.

Layer: front end. Input/output: see ``autocast_mode`` (a context that changes no
computation: no accelerator, no bfloat16) and ``grad_scaler`` (torch's loss scaling: disabled
for CUDA as in a CPU-only torch, working on the CPU).
"""

from .autocast_mode import (autocast, custom_bwd, custom_fwd,  # noqa: F401
                            is_autocast_available, is_autocast_enabled)
from .grad_scaler import GradScaler  # noqa: F401
