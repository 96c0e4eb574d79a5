"""symgrad.nn: the torch.nn mirror: ``functional``, ``init`` (modules: work in progress)."""
from . import functional, init  # noqa: F401
