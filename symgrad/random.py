"""symgrad.random: the torch.random mirror (the default generator's seed and state, fork_rng).

Layer: front end. Input: seeds and generator states. Output: torch.random's functions on
symgrad's default generator (which draws torch's CPU numbers), and ``fork_rng``, a context
manager that restores the default generator's state when it exits (what torch's
``utils.checkpoint`` uses to recompute a forward with the random numbers it drew). There is no
accelerator here, so ``fork_rng`` has only the CPU generator to save.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from .frontend.random.generator import (default_generator, get_rng_state,  # noqa: F401
                                        initial_seed, manual_seed, seed, set_rng_state)


@contextlib.contextmanager
def fork_rng(devices=None, enabled: bool = True, _caller: str = "fork_rng",
             _devices_kw: str = "devices", device_type: str = "cuda") -> Iterator[None]:
    """Run the block, then put the default generator back in the state it had before."""
    if not enabled:
        yield
        return
    state = get_rng_state()
    try:
        yield
    finally:
        set_rng_state(state)
