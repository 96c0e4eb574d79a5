"""``torch.backends`` as a CPU-only build of torch answers it: no MPS, no CUDA, no cuDNN.

Layer: front end (the torch API surface; imports nothing of symgrad). Programs test
``torch.backends.mps.is_available()`` to choose a device, and set cuDNN flags for
reproducibility (``torch.backends.cudnn.deterministic = True``): the answers are False and the
flags are kept, and change nothing here (the CPU results are deterministic already).
"""

from __future__ import annotations


class _Backend:
    """One accelerator backend that this build does not have."""

    def __init__(self, name: str, **flags):
        self._name = name
        self.__dict__.update(flags)

    @staticmethod
    def is_available() -> bool:
        return False

    @staticmethod
    def is_built() -> bool:
        return False

    def __repr__(self) -> str:
        return f"<symgrad.backends.{self._name}: not available (CPU only)>"


mps = _Backend("mps")
cuda = _Backend("cuda")
cudnn = _Backend("cudnn", enabled=True, deterministic=False, benchmark=False,
                 allow_tf32=True)
