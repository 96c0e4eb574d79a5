"""symgrad.utils.data: torch's datasets, samplers and ``DataLoader``, in-process.

Layer: front end (torch.utils.data mirror). Input: a dataset (anything with ``__getitem__`` and
``__len__``; ``TensorDataset`` over tensors) and torch's loader options. Output: an iterable
of collated batches (``default_collate``: tensors stacked, Python floats as float64 tensors and
ints as int64, tuples/lists/dicts collated field by field), the same batches in the same order
as torch's: the shuffle permutations and the random numbers the loader consumes (one int64
base seed from the loader's generator per epoch, one more for a sampler without a generator)
come from symgrad's generator, which draws torch's numbers.

``num_workers`` is accepted and ignored (loading happens in the calling process); so are
``pin_memory``, ``prefetch_factor`` and ``persistent_workers``, which only matter to workers.
"""

from __future__ import annotations

import math
import numbers
import warnings
from typing import Any
from collections.abc import Callable, Iterable, Iterator, Sequence

import numpy as np

from .. import dtypes
from ..frontend.functions.creation import empty
from ..frontend.random.sampling import Generator, randint, randperm
from ..frontend.functions.shapes import stack
from ..frontend.core.tensor import Tensor, tensor


class Dataset:
    """A map-style dataset: ``dataset[i]`` and ``len(dataset)``."""

    def __getitem__(self, index):
        raise NotImplementedError("Subclasses of Dataset should implement __getitem__.")

    def __add__(self, other: Dataset) -> ConcatDataset:
        return ConcatDataset([self, other])


class TensorDataset(Dataset):
    """Samples are ``tuple(t[i] for t in tensors)``; the tensors share their first size."""

    def __init__(self, *tensors: Tensor) -> None:
        if any(t.shape[0] != tensors[0].shape[0] for t in tensors):
            raise AssertionError("Size mismatch between tensors")
        self.tensors = tensors

    def __getitem__(self, index):
        return tuple(t[index] for t in self.tensors)

    def __len__(self) -> int:
        return self.tensors[0].shape[0]


class Subset(Dataset):
    """The samples of ``dataset`` at ``indices``."""

    def __init__(self, dataset, indices: Sequence[int]) -> None:
        self.dataset, self.indices = dataset, indices

    def __getitem__(self, idx):
        if isinstance(idx, list):
            return self.dataset[[self.indices[i] for i in idx]]
        return self.dataset[self.indices[idx]]

    def __len__(self) -> int:
        return len(self.indices)


class ConcatDataset(Dataset):
    """The samples of several datasets, one after the other."""

    def __init__(self, datasets: Iterable) -> None:
        self.datasets = list(datasets)
        if not self.datasets:
            raise AssertionError("datasets should not be an empty iterable")
        self.cumulative_sizes = list(np.cumsum([len(d) for d in self.datasets]))

    def __len__(self) -> int:
        return int(self.cumulative_sizes[-1])

    def __getitem__(self, idx: int):
        if idx < 0:
            if -idx > len(self):
                raise ValueError("absolute value of index should not exceed dataset length")
            idx += len(self)
        k = int(np.searchsorted(self.cumulative_sizes, idx, side="right"))
        start = 0 if k == 0 else int(self.cumulative_sizes[k - 1])
        return self.datasets[k][idx - start]


def _split_lengths(n: int, lengths: Sequence) -> list[int]:
    """Fractions summing to 1 become sizes (the remainder dealt round-robin), as torch's."""
    if not (math.isclose(sum(lengths), 1) and sum(lengths) <= 1):
        return [int(k) for k in lengths]
    sizes = []
    for i, frac in enumerate(lengths):
        if frac < 0 or frac > 1:
            raise ValueError(f"Fraction at index {i} is not between 0 and 1")
        sizes.append(math.floor(n * frac))
    for i in range(n - sum(sizes)):
        sizes[i % len(sizes)] += 1
    for i, size in enumerate(sizes):
        if size == 0:
            warnings.warn(f"Length of split at index {i} is 0. This might result in an empty "
                          f"dataset.", stacklevel=3)
    return sizes


def random_split(dataset, lengths: Sequence, generator: Generator | None = None) -> list:
    """Split ``dataset`` into ``Subset``s of the given lengths (or fractions) at random."""
    sizes = _split_lengths(len(dataset), lengths)
    if sum(sizes) != len(dataset):
        raise ValueError("Sum of input lengths does not equal the length of the input "
                         "dataset!")
    order = randperm(sum(sizes), generator=generator).tolist()
    out, start = [], 0
    for size in sizes:
        out.append(Subset(dataset, order[start:start + size]))
        start += size
    return out


# ---------------------------------------------------------------- samplers

class Sampler:
    """Yields dataset indices."""

    def __init__(self, data_source=None) -> None:
        pass


class SequentialSampler(Sampler):
    def __init__(self, data_source) -> None:
        self.data_source = data_source

    def __iter__(self) -> Iterator[int]:
        return iter(range(len(self.data_source)))

    def __len__(self) -> int:
        return len(self.data_source)


class RandomSampler(Sampler):
    """A random permutation per pass (or draws with ``replacement``), torch's draws."""

    def __init__(self, data_source, replacement: bool = False, num_samples: int | None = None,
                 generator: Generator | None = None) -> None:
        self.data_source, self.replacement, self.generator = data_source, replacement, generator
        self._num_samples = num_samples

    @property
    def num_samples(self) -> int:
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self) -> Iterator[int]:
        n, gen = len(self.data_source), self.generator
        if gen is None:
            gen = Generator()
            gen.manual_seed(int(empty((), dtype=dtypes.int64).random_().item()))
        if self.replacement:
            for _ in range(self.num_samples // 32):
                yield from randint(0, n, (32,), generator=gen).tolist()
            yield from randint(0, n, (self.num_samples % 32,), generator=gen).tolist()
            return
        for _ in range(self.num_samples // n):
            yield from randperm(n, generator=gen).tolist()
        yield from randperm(n, generator=gen).tolist()[:self.num_samples % n]

    def __len__(self) -> int:
        return self.num_samples


class SubsetRandomSampler(Sampler):
    def __init__(self, indices: Sequence[int], generator: Generator | None = None) -> None:
        self.indices, self.generator = indices, generator

    def __iter__(self) -> Iterator[int]:
        for i in randperm(len(self.indices), generator=self.generator).tolist():
            yield self.indices[i]

    def __len__(self) -> int:
        return len(self.indices)


class BatchSampler(Sampler):
    """Groups a sampler's indices into lists of ``batch_size``."""

    def __init__(self, sampler, batch_size: int, drop_last: bool) -> None:
        if not isinstance(batch_size, int) or isinstance(batch_size, bool) or batch_size <= 0:
            raise ValueError(f"batch_size should be a positive integer value, but got "
                             f"batch_size={batch_size}")
        self.sampler, self.batch_size, self.drop_last = sampler, batch_size, drop_last

    def __iter__(self) -> Iterator[list[int]]:
        batch: list[int] = []
        for idx in self.sampler:
            batch.append(idx)
            if len(batch) == self.batch_size:
                yield batch
                batch = []
        if batch and not self.drop_last:
            yield batch

    def __len__(self) -> int:
        n = len(self.sampler)
        return n // self.batch_size if self.drop_last else -(-n // self.batch_size)


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
    return tensor(data) if isinstance(data, np.ndarray) else data


# ---------------------------------------------------------------- the loader

class DataLoader:
    """Batches of ``dataset`` (shuffled each pass with ``shuffle``), collated."""

    def __init__(self, dataset, batch_size: int | None = 1, shuffle: bool | None = None,
                 sampler=None, batch_sampler=None, num_workers: int = 0,
                 collate_fn: Callable | None = None, pin_memory: bool = False,
                 drop_last: bool = False, timeout: float = 0, worker_init_fn=None,
                 multiprocessing_context=None, generator: Generator | None = None, *,
                 prefetch_factor=None, persistent_workers: bool = False,
                 pin_memory_device: str = "", in_order: bool = True) -> None:
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None and (batch_size != 1 or shuffle or sampler is not None
                                          or drop_last):
            raise ValueError("batch_sampler option is mutually exclusive with batch_size, "
                             "shuffle, sampler, and drop_last")
        if sampler is None:
            sampler = RandomSampler(dataset, generator=generator) if shuffle \
                else SequentialSampler(dataset)
        if batch_size is not None and batch_sampler is None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.dataset, self.batch_size, self.drop_last = dataset, batch_size, drop_last
        self.sampler, self.batch_sampler, self.generator = sampler, batch_sampler, generator
        self.num_workers = num_workers
        self.collate_fn = collate_fn or (default_collate if batch_sampler is not None
                                         else default_convert)

    def __iter__(self) -> Iterator:
        # torch's iterator draws a base seed for workers from the loader's generator each
        # pass, workers or not: drawn here too, so that later random numbers stay torch's.
        empty((), dtype=dtypes.int64).random_(generator=self.generator)
        if self.batch_sampler is None:
            return (self.collate_fn(self.dataset[i]) for i in self.sampler)
        return (self.collate_fn([self.dataset[i] for i in batch])
                for batch in self.batch_sampler)

    def __len__(self) -> int:
        return len(self.batch_sampler if self.batch_sampler is not None else self.sampler)
