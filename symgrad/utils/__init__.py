"""symgrad.utils: the torch.utils mirror (``data``, ``checkpoint``, ``hooks``, ``model_zoo``).

Layer: front end. Input/output: see each module.
"""

from . import data  # noqa: F401
from . import checkpoint, hooks, model_zoo  # noqa: F401
