"""``torch.mps`` as a CPU-only build of torch answers it: there is no Metal device.

Layer: front end (imports nothing of symgrad). ``is_available()`` is False, ``device_count()``
0, ``manual_seed`` is accepted and does nothing (as in torch without MPS); what needs the
device (synchronizing, its generator, its memory) raises torch's "Cannot execute ... without
MPS backend." error.
"""

from __future__ import annotations


def is_available() -> bool:
    return False


def device_count() -> int:
    return 0


def manual_seed(seed: int) -> None:
    """No MPS generator to seed."""


def _without(what: str):
    def call(*args, **kwargs):
        raise RuntimeError(f"Cannot execute {what}() without MPS backend.")
    call.__name__ = what
    return call


synchronize = _without("deviceSynchronize")
empty_cache = _without("emptyCache")
seed = get_rng_state = set_rng_state = _without("getDefaultGenerator")
current_allocated_memory = _without("getCurrentAllocatedMemory")
driver_allocated_memory = _without("getDriverAllocatedMemory")
recommended_max_memory = _without("getRecommendedMaxMemory")
