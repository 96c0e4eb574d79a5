"""Random sampling with torch's CPU generator (work in progress: see issue 11)."""

__all__: list[str] = []
METHODS: dict = {}
