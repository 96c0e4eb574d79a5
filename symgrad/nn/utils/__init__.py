"""symgrad.nn.utils: torch.nn.utils' gradient clipping and ``stateless.functional_call``.

Layer: front end (torch.nn mirror). Re-exports its modules' functions.
"""

from . import stateless  # noqa: F401
from .clip_grad import clip_grad_norm_, clip_grad_value_  # noqa: F401
