"""symgrad.distributed: ``torch.distributed`` for a program that runs in one process.

Layer: front end (imports nothing of symgrad). symgrad has no process groups: a training
script's single-process path runs, and its multi-process path stops with a clear error. The
answers are a CPU-only torch's before ``init_process_group``: ``is_available()`` True,
``is_initialized()`` False, and the calls that need a process group raise torch's error for a
program that never initialized one. ``init_process_group`` raises torch's error when the
launcher's ``RANK`` is missing, and otherwise a ``RuntimeError`` that says to run the script
as one process (symgrad cannot join the others).
"""

from __future__ import annotations

import enum
import os

_NOT_INITIALIZED = ("Default process group has not been initialized, please make sure to call "
                    "init_process_group.")


class ReduceOp(enum.Enum):
    """The reductions of ``all_reduce`` and ``reduce`` (names only: nothing runs them)."""

    SUM = "sum"
    PRODUCT = "product"
    MIN = "min"
    MAX = "max"
    BAND = "band"
    BOR = "bor"
    BXOR = "bxor"
    AVG = "avg"
    PREMUL_SUM = "premul_sum"


def is_available() -> bool:
    return True


def is_initialized() -> bool:
    return False


def is_torchelastic_launched() -> bool:
    return False


def init_process_group(backend=None, init_method=None, timeout=None, world_size: int = -1,
                       rank: int = -1, store=None, group_name: str = "", pg_options=None,
                       device_id=None) -> None:
    if init_method in (None, "env://") and store is None and rank == -1 \
            and "RANK" not in os.environ:
        raise ValueError("Error initializing torch.distributed using env:// rendezvous: "
                         "environment variable RANK expected, but not set")
    raise RuntimeError("symgrad runs a program in one process: torch.distributed's process "
                       "groups are not available. Run the script as a single process (not "
                       "under torchrun or with RANK/WORLD_SIZE set).")


def destroy_process_group(group=None) -> None:
    raise AssertionError("Process group cannot be None")


def _needs_group(*args, **kwargs):
    raise ValueError(_NOT_INITIALIZED)


get_rank = get_world_size = barrier = all_reduce = reduce = broadcast = _needs_group
all_gather = gather = scatter = reduce_scatter = all_gather_object = new_group = _needs_group
get_backend = _needs_group
