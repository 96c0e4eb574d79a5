"""symgrad.utils.hooks: torch.utils.hooks' ``RemovableHandle`` (what ``register_*_hook``
returns).

Layer: front end (torch.utils mirror). Re-exports the handle of ``frontend/core/hooks.py``.
"""

from ..frontend.core.hooks import RemovableHandle  # noqa: F401
