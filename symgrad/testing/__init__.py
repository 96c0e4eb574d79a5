"""symgrad.testing: the torch.testing mirror (``assert_close``, ``make_tensor``).

Layer: front end. Input/output: see ``comparison`` (are two nested results close, with
torch's tolerances and error text) and ``creation`` (random test tensors, torch's values).
"""

from .comparison import assert_allclose, assert_close  # noqa: F401
from .creation import make_tensor  # noqa: F401
