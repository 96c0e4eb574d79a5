"""symgrad.nn.parallel: torch.nn.parallel's wrappers as a machine without GPUs answers them.

Layer: front end (torch.nn mirror). Input: a module. Output: ``DataParallel(module)``, which
with no GPU is what torch's is: a wrapper that calls the module (``.module`` is the module, and
its ``state_dict`` keys start with ``module.``); ``DistributedDataParallel``, which needs a
process group and raises torch's error for a program that has none (see
``symgrad.distributed``); ``data_parallel``, which raises torch's error without a device.
"""

from __future__ import annotations

from typing import Any

from .modules.module import Module


class DataParallel(Module):
    """``DataParallel(module)``: with no GPU to split the batch over, it calls ``module``."""

    def __init__(self, module: Module, device_ids=None, output_device=None,
                 dim: int = 0) -> None:
        super().__init__()
        self.module = module
        self.device_ids: list = []

    def forward(self, *inputs: Any, **kwargs: Any) -> Any:
        return self.module(*inputs, **kwargs)


class DistributedDataParallel(Module):
    """Needs a process group: symgrad has none (torch's error for an uninitialized one)."""

    def __init__(self, module: Module, *args: Any, **kwargs: Any) -> None:
        raise ValueError("Default process group has not been initialized, please make sure to "
                         "call init_process_group.")


def data_parallel(module: Module, inputs, device_ids=None, output_device=None, dim: int = 0,
                  module_kwargs=None):
    raise RuntimeError("device type could not be determined")
