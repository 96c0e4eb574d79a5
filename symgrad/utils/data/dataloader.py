"""torch.utils.data.dataloader: ``DataLoader``, ``default_collate``, in-process.

Layer: front end (torch.utils.data mirror). Input: a dataset (map-style: ``__getitem__`` and
``__len__``, ``TensorDataset`` over tensors; or an ``IterableDataset``) and torch's loader
options. Output: an iterable of collated batches (``default_collate``: tensors stacked,
Python floats as float64 tensors and ints as int64, tuples/lists/dicts collated field by
field), the same batches in the same order as torch's: the shuffle permutations and the random
numbers the loader consumes (one int64 base seed from the loader's generator per epoch, one
more for a sampler without a generator) come from symgrad's generator, which draws torch's
numbers.

``num_workers`` is accepted and ignored (loading happens in the calling process, so
``get_worker_info()`` is None); so are ``prefetch_factor`` and ``persistent_workers``, which
only matter to workers. ``pin_memory=True`` warns, as torch does without an accelerator.
"""

from __future__ import annotations

import numbers
import warnings
from typing import Any
from collections.abc import Callable, Iterator, Mapping, Sequence

import numpy as np

from ... import dtypes
from ...frontend.functions.creation import empty
from ...frontend.random.sampling import Generator
from ...frontend.functions.manipulation import index_select
from ...frontend.functions.shapes import stack
from ...frontend.core.tensor import Tensor, tensor
from .dataset import IterableDataset, TensorDataset
from .sampler import BatchSampler, RandomSampler, SequentialSampler


# ---------------------------------------------------------------- collation

def default_collate(batch: list) -> Any:
    """Stack a list of samples into a batch, torch's way."""
    first = batch[0]
    if isinstance(first, Tensor):
        return stack(batch, 0)
    if isinstance(first, np.ndarray):
        return stack([tensor(b) for b in batch], 0)
    if isinstance(first, bool):
        return tensor(batch)
    if isinstance(first, float):
        return tensor(batch, dtype=dtypes.float64)
    if isinstance(first, numbers.Integral):
        return tensor(batch, dtype=dtypes.int64)
    if isinstance(first, (str, bytes)):
        return batch
    if isinstance(first, dict):
        return {k: default_collate([b[k] for b in batch]) for k in first}
    if isinstance(first, tuple) and hasattr(first, "_fields"):
        return type(first)(*(default_collate(list(s)) for s in zip(*batch)))
    if isinstance(first, (tuple, list)):
        if any(len(b) != len(first) for b in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        return [default_collate(list(s)) for s in zip(*batch)]
    raise TypeError(f"default_collate: batch must contain tensors, numpy arrays, numbers, "
                    f"dicts or lists; found {type(first)}")


def default_convert(data: Any) -> Any:
    """One sample without batching: NumPy arrays and scalars as tensors, containers
    converted element by element (a plain tuple becomes a list, as in torch)."""
    if isinstance(data, (np.ndarray, np.number)) and data.dtype.kind not in "SUO":
        return tensor(data)
    if isinstance(data, Mapping):
        return {k: default_convert(v) for k, v in data.items()}
    if isinstance(data, tuple) and hasattr(data, "_fields"):
        return type(data)(*(default_convert(d) for d in data))
    if isinstance(data, tuple):
        return [default_convert(d) for d in data]
    if isinstance(data, Sequence) and not isinstance(data, (str, bytes)):
        try:
            return type(data)([default_convert(d) for d in data])
        except TypeError:
            return [default_convert(d) for d in data]
    return data


# ---------------------------------------------------------------- the loader

def get_worker_info() -> None:
    """Information about the loading worker this runs in: None, there are no workers."""
    return None


def _check_iterable_options(shuffle, sampler, batch_sampler) -> None:
    if shuffle not in {False, None}:
        raise ValueError(f"DataLoader with IterableDataset: expected unspecified shuffle "
                         f"option, but got shuffle={shuffle}")
    if sampler is not None:
        raise ValueError(f"DataLoader with IterableDataset: expected unspecified sampler "
                         f"option, but got sampler={sampler}")
    if batch_sampler is not None:
        raise ValueError(f"DataLoader with IterableDataset: expected unspecified batch_sampler "
                         f"option, but got batch_sampler={batch_sampler}")


def _batches(stream: Iterator, size: int, drop_last: bool) -> Iterator[list]:
    """Consecutive lists of ``size`` samples of an iterable dataset."""
    batch: list = []
    for sample in stream:
        batch.append(sample)
        if len(batch) == size:
            yield batch
            batch = []
    if batch and not drop_last:
        yield batch


class DataLoader:
    """Batches of ``dataset`` (shuffled each pass with ``shuffle``), collated."""

    def __init__(self, dataset, batch_size: int | None = 1, shuffle: bool | None = None,
                 sampler=None, batch_sampler=None, num_workers: int = 0,
                 collate_fn: Callable | None = None, pin_memory: bool = False,
                 drop_last: bool = False, timeout: float = 0, worker_init_fn=None,
                 multiprocessing_context=None, generator: Generator | None = None, *,
                 prefetch_factor=None, persistent_workers: bool = False,
                 pin_memory_device: str = "", in_order: bool = True) -> None:
        self.iterable = isinstance(dataset, IterableDataset)
        if self.iterable:
            _check_iterable_options(shuffle, sampler, batch_sampler)
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None and (batch_size != 1 or shuffle or sampler is not None
                                          or drop_last):
            raise ValueError("batch_sampler option is mutually exclusive with batch_size, "
                             "shuffle, sampler, and drop_last")
        if sampler is None and not self.iterable:
            sampler = RandomSampler(dataset, generator=generator) if shuffle \
                else SequentialSampler(dataset)
        if batch_size is not None and batch_sampler is None and not self.iterable:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.dataset, self.batch_size, self.drop_last = dataset, batch_size, drop_last
        self.sampler, self.batch_sampler, self.generator = sampler, batch_sampler, generator
        self.num_workers, self.pin_memory = num_workers, pin_memory
        batched = batch_sampler is not None or (self.iterable and batch_size is not None)
        self.collate_fn = collate_fn or (default_collate if batched else default_convert)

    def __iter__(self) -> Iterator:
        if self.pin_memory:
            warnings.warn("'pin_memory' argument is set as true but no accelerator is found, "
                          "then device pinned memory won't be used.", stacklevel=2)
        # torch's iterator draws a base seed for workers from the loader's generator each
        # pass, workers or not: drawn here too, so that later random numbers stay torch's.
        empty((), dtype=dtypes.int64).random_(generator=self.generator)
        if self.iterable:
            if self.batch_size is None:
                return (self.collate_fn(s) for s in self.dataset)
            return (self.collate_fn(b)
                    for b in _batches(iter(self.dataset), self.batch_size, self.drop_last))
        if self.batch_sampler is None:
            return (self.collate_fn(self.dataset[i]) for i in self.sampler)
        fetch = _batch_fetcher(self.dataset, self.collate_fn)
        return (fetch(batch) for batch in self.batch_sampler)

    def __len__(self) -> int:
        if self.iterable:
            n = len(self.dataset)
            if self.batch_size is None:
                return n
            return n // self.batch_size if self.drop_last else -(-n // self.batch_size)
        return len(self.batch_sampler if self.batch_sampler is not None else self.sampler)


def _batch_fetcher(dataset, collate: Callable) -> Callable:
    """How a batch of indices becomes a batch, as torch's fetcher makes it: the dataset's
    ``__getitems__`` if it has one, else its samples one by one, collated. A ``TensorDataset``
    of plain tensors collated by default takes its rows at once (``index_select``: the
    values, dtypes, shapes and row-major layout ``stack`` gives the samples, without a Python
    step per sample; not for tensors that require grad, whose batch shows StackBackward0)."""
    getitems = getattr(dataset, "__getitems__", None)
    if getitems:
        return lambda batch: collate(getitems(batch))
    if type(dataset) is TensorDataset and collate is default_collate and all(
            type(t) is Tensor and t.concrete is not None and not t.requires_grad and t.ndim
            for t in dataset.tensors):
        return lambda batch: [index_select(t, 0, tensor(batch, dtype=dtypes.int64))
                              for t in dataset.tensors]
    return lambda batch: collate([dataset[i] for i in batch])
