"""Custom autograd functions (work in progress: see issue 11)."""

__all__: list[str] = []
