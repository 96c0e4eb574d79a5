"""symgrad.utils: the torch.utils mirror (``torch.utils.data``).

Layer: front end. Input/output: see ``data``.
"""

from . import data  # noqa: F401
