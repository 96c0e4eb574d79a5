"""``torch.accelerator`` as a CPU-only build of torch answers it: there is no accelerator.

Layer: front end (imports nothing of symgrad). Programs (pytorch/examples' mnist, vae,
word_language_model...) write ``device = torch.accelerator.current_accelerator() if
torch.accelerator.is_available() else torch.device("cpu")``: ``is_available()`` is False,
``current_accelerator()`` None, ``device_count()`` 0; what needs a device (its index, streams,
memory statistics, synchronizing) raises torch's "Cannot access accelerator device when none
is available."
"""

from __future__ import annotations

import warnings

_NONE = "Cannot access accelerator device when none is available."


def device_count() -> int:
    return 0


def is_available() -> bool:
    return False


def current_accelerator(check_available: bool = False):
    """The accelerator's device type: None, there is none."""
    return None


def _none(*args, **kwargs):
    raise RuntimeError(_NONE)


current_device_index = get_device_capability = current_stream = set_stream = _none
synchronize = empty_cache = empty_host_cache = get_memory_info = memory_stats = _none
memory_allocated = max_memory_allocated = memory_reserved = max_memory_reserved = _none
reset_accumulated_memory_stats = reset_peak_memory_stats = _none


def set_device_index(device, /) -> None:
    if device is None:
        raise ValueError(f"Expected a torch.device with a specified index or an integer, but "
                         f"got:{device}")
    raise RuntimeError(_NONE)


def current_device_idx() -> int:
    warnings.warn("Use `current_device_index` instead.", FutureWarning, stacklevel=2)
    return current_device_index()


def set_device_idx(device, /) -> None:
    warnings.warn("Use `set_device_index` instead.", FutureWarning, stacklevel=2)
    set_device_index(device)


class device_index:  # noqa: N801  (torch's name)
    """``with torch.accelerator.device_index(i):``; only None (no change) can be entered."""

    def __init__(self, device, /) -> None:
        self.idx = device

    def __enter__(self) -> None:
        if self.idx is not None:
            raise RuntimeError(_NONE)

    def __exit__(self, *exc) -> bool:
        return False
