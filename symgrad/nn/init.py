"""symgrad.nn.init: torch.nn.init (work in progress: see issue 11)."""

__all__: list[str] = []
