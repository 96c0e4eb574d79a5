"""More torch-named elementwise math (work in progress: see issue 11)."""

__all__: list[str] = []
METHODS: dict = {}
