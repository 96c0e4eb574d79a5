"""Tensor methods about memory placement that a CPU-only torch answers without moving
anything: ``pin_memory``, ``is_pinned``, ``get_device``, ``share_memory_``, ``is_shared``,
``data_ptr``.

Layer: front end, beside ``methods`` (which binds these to ``Tensor``). Input: a tensor.
Output: torch's answers for a tensor in ordinary CPU memory: not pinned (``pin_memory()``
raises torch's error: pinning needs an accelerator), device index -1, not shared (sharing is
accepted and returns the tensor: symgrad has no worker processes to share it with), the
address of its first element.
"""

from __future__ import annotations

from ..core.tensor import Tensor, tracer_error


def pin_memory(self: Tensor, device=None) -> Tensor:
    raise RuntimeError("Cannot access accelerator device when none is available.")


def is_pinned(self: Tensor, device=None) -> bool:
    return False


def get_device(self: Tensor) -> int:
    return -1


def share_memory_(self: Tensor) -> Tensor:
    return self


def is_shared(self: Tensor) -> bool:
    return False


def data_ptr(self: Tensor) -> int:
    value = self.concrete
    if value is None:
        raise tracer_error("data_ptr() of a traced tensor")
    return int(value.__array_interface__["data"][0])


METHODS = {"pin_memory": pin_memory, "is_pinned": is_pinned, "get_device": get_device,
           "share_memory_": share_memory_, "is_shared": is_shared, "data_ptr": data_ptr}
