"""symgrad.utils.model_zoo: torch.utils.model_zoo's ``load_url`` (``hub``'s
``load_state_dict_from_url``, which raises: see ``symgrad.hub``).

Layer: front end (torch.utils mirror).
"""

from ..hub import load_state_dict_from_url as load_url  # noqa: F401
