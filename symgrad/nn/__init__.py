"""symgrad.nn: the torch.nn mirror (only ``functional`` for now)."""
from . import functional  # noqa: F401
