"""symgrad.serialization: ``save`` and ``load`` in torch's checkpoint format (the
torch.serialization mirror; ``symgrad.save``/``symgrad.load`` are these).

Layer: front end. Input/output: see ``saving`` (objects with tensors -> torch's zip archive),
``loading`` (the archive -> objects with symgrad tensors), ``unpickler`` (the weights-only
rules), ``allowlist`` (the globals marked safe), ``archive`` (the zip container), ``names``
(torch's global names) and ``storages`` (tensors as windows of storages).
"""

from .allowlist import add_safe_globals, clear_safe_globals, get_safe_globals, safe_globals
from .loading import (UNSAFE_MESSAGE, default_restore_location,  # noqa: F401
                      get_unsafe_globals_in_checkpoint, load)
from .saving import DEFAULT_PROTOCOL, save  # noqa: F401
from .storages import Storage, StorageType  # noqa: F401

__all__ = ["save", "load", "add_safe_globals", "get_safe_globals", "clear_safe_globals",
           "safe_globals", "get_unsafe_globals_in_checkpoint"]
